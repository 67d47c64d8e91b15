# SPDX-License-Identifier: GPL-3.0-or-later
"""The main flows of the page in Firefox ESR and WebKitGTK, beside
Chromium. One test per browser and flow, so that a failure names
both; the flows are in e2e/xbrowser/flows.py, the two drivers in
e2e/xbrowser/drivers.py (Playwright cannot drive the Debian builds).

Each browser boots the page once for the session, on its own web server (the
offline flow stops it). Where a browser is missing, its tests skip and say
what to install: apt-get install firefox-esr webkit2gtk-driver xvfb.
"""

from __future__ import annotations

import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from xbrowser import drivers, flows

WEB = Path(__file__).resolve().parent.parent / "web"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"  # a screenshot of each failed flow
BROWSERS = ["firefox", "webkit"]
# Flows that fail in an engine because of a page bug: {(browser, flow): reason}.
KNOWN_BUGS: dict[tuple[str, str], str] = {}


class SiteServer(flows.Server):
    """web/serve.py in a thread, on a port of its own; stop() and start() keep
    the port. stop() also closes the connections the browser keeps alive (their
    threads would go on serving them)."""

    def __init__(self, site: Path) -> None:
        sys.path.insert(0, str(WEB))
        try:
            import serve  # web/serve.py
        finally:
            sys.path.pop(0)
        self.make = serve.make_server
        self.site = site
        self.port = 0
        self.srv: Any = None
        self.conns: list[socket.socket] = []
        self.start()

    def start(self) -> None:
        if self.srv is None:
            self.srv = self.make(self.site, "127.0.0.1", self.port)
            self.port = self.srv.server_address[1]
            accept = self.srv.get_request

            def get_request() -> tuple[socket.socket, Any]:
                conn, addr = accept()
                self.conns.append(conn)
                return conn, addr

            self.srv.get_request = get_request
            threading.Thread(target=self.srv.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.srv is not None:
            self.srv.shutdown()
            self.srv.server_close()
            self.srv = None
        for conn in self.conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # already closed by its handler
        self.conns.clear()


@pytest.fixture(scope="session")
def xapp(
    request: pytest.FixtureRequest, site_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[flows.XApp]:
    """The page booted once in browser `request.param`."""
    name = request.param
    gone = drivers.missing_parts(name)
    if gone:
        pytest.skip(f"{name}: missing {', '.join(gone)}. Install: {drivers.INSTALL_HINT}")
    server = SiteServer(site_dir)
    try:
        driver = drivers.launch(name)
        try:
            app = flows.XApp(driver, f"http://127.0.0.1:{server.port}/", server, tmp_path_factory.mktemp(name))
            start = time.monotonic()
            driver.goto(app.base_url)
            app.wait_ready()
            print(f"\n[{name}] referee ready {time.monotonic() - start:.1f} s after navigation")
            yield app
        finally:
            driver.quit()
    finally:
        server.stop()


@pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")  # Selenium's own WebKitGTK driver
@pytest.mark.parametrize("flow", list(flows.FLOWS))
@pytest.mark.parametrize("xapp", BROWSERS, indirect=True)
def test_main_flow(request: pytest.FixtureRequest, xapp: flows.XApp, flow: str) -> None:
    bug = KNOWN_BUGS.get((xapp.d.name, flow))
    if bug:  # visible as xfail, and an error once it passes
        request.applymarker(pytest.mark.xfail(strict=True, reason=bug))
    try:
        flows.FLOWS[flow](xapp)
        errors = xapp.d.page_errors()
        assert not errors, f"the page logged errors in {xapp.d.name}:\n" + "\n".join(errors)
    except Exception:
        ARTIFACTS.mkdir(exist_ok=True)
        try:
            xapp.d.screenshot(ARTIFACTS / f"xbrowser-{xapp.d.name}-{flow}.png")
        except Exception:  # noqa: BLE001  (the browser may be what failed: the first error matters)
            pass
        raise
