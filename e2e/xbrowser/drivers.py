# SPDX-License-Identifier: GPL-3.0-or-later
"""Two small adapters with one interface, so that e2e/xbrowser/flows.py runs
the same flows in Firefox ESR and WebKitGTK (Playwright drives neither of the
Debian builds):

- Firefox over WebDriver BiDi, spoken directly on its WebSocket (the commands
  used are few: no geckodriver, which Debian does not package);
- WebKitGTK through /usr/bin/WebKitWebDriver with Selenium, MiniBrowser in
  automation mode on a private Xvfb display.

Every action is what a user does: pointer clicks at viewport coordinates and
key presses, a file given to a file input. `js` runs a JavaScript function
(source text) with JSON arguments and returns its JSON result, awaiting a
promise. Limits: one tab, no dialogs (the page uses none), no downloads.
"""

from __future__ import annotations

import abc
import base64
import collections
import glob
import json
import os
import queue
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

INSTALL_HINT = "apt-get install firefox-esr webkit2gtk-driver xvfb"
FIREFOX = os.environ.get("FIREFOX", "/usr/bin/firefox-esr")
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
# libwebkit2gtk-4.1-0 puts MiniBrowser under the multiarch directory.
MINIBROWSER = os.environ.get("WEBKIT_MINIBROWSER") or next(
    iter(sorted(glob.glob("/usr/lib/*/webkit2gtk-4.1/MiniBrowser"))),
    "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
)
VIEWPORT = (1280, 900)
ENTER = "\ue007"  # the WebDriver key code of Enter

# Wraps a function's source: its (awaited) result comes back as JSON text.
_CALL = "(async () => JSON.stringify(await ({src})(...{args})) ?? 'null')()"


# In the page: keep uncaught errors, unhandled rejections and console.error messages.
_WATCH = """() => {
  if (window.__xbErrors) return;
  const errors = window.__xbErrors = [];
  addEventListener('error', (e) => errors.push(`uncaught: ${e.message} (${e.filename}:${e.lineno})`));
  addEventListener('unhandledrejection', (e) => errors.push(`unhandled rejection: ${e.reason && e.reason.stack || e.reason}`));
  const error = console.error.bind(console);
  console.error = (...a) => { errors.push(`console.error: ${a.map(String).join(' ')}`); error(...a); };
}"""


class Missing(Exception):
    """The browser (or its driver) is not installed: the message says what to install."""


def missing_parts(name: str) -> list[str]:
    """What is absent on this machine for browser `name` ("firefox" or "webkit")."""
    need = {"firefox": [FIREFOX], "webkit": [WEBKIT_DRIVER, MINIBROWSER, shutil.which("Xvfb") or "/usr/bin/Xvfb"]}[name]
    gone = [p for p in need if not Path(p).exists()]
    try:
        import selenium  # noqa: F401
        import websocket  # noqa: F401  (websocket-client, a dependency of selenium)
    except ImportError:
        gone.append("the Python packages selenium and websocket-client (pip install -e '.[test]')")
    return gone


class Driver(abc.ABC):
    """The interface the flows use. Subclasses implement the primitives."""

    name = "?"

    @abc.abstractmethod
    def goto(self, url: str) -> None: ...

    @abc.abstractmethod
    def reload(self) -> None: ...

    @abc.abstractmethod
    def js(self, src: str, *args: Any) -> Any:
        """Call the JavaScript function `src` with `args`; its awaited result, from JSON."""

    @abc.abstractmethod
    def click_at(self, x: float, y: float) -> None:
        """A mouse click at viewport coordinates (CSS pixels)."""

    @abc.abstractmethod
    def keys(self, text: str) -> None:
        """Key presses sent to the focused element (ENTER for Enter)."""

    @abc.abstractmethod
    def set_file(self, selector: str, path: Path) -> None:
        """Choose `path` in the file input matched by the CSS `selector`."""

    @abc.abstractmethod
    def screenshot(self, path: Path) -> None:
        """A PNG of the viewport (for the artifacts of a failed test)."""

    def page_errors(self) -> list[str]:
        """The page's uncaught errors and console.error messages since the last
        call. Here: those the collector of watch_errors() saw (after the boot)."""
        return list(self.js("() => (window.__xbErrors || []).splice(0)"))

    def watch_errors(self) -> None:
        """Start collecting the page's errors (again after each load)."""
        self.js(_WATCH)

    @abc.abstractmethod
    def quit(self) -> None: ...


# ------------------------------------------------------------------ Firefox (WebDriver BiDi)
class FirefoxBiDi(Driver):
    """Headless Firefox with a fresh profile, driven over its BiDi WebSocket."""

    name = "firefox"

    def __init__(self, timeout: float = 200.0) -> None:
        import websocket

        self.profile = tempfile.mkdtemp(prefix="pcd-firefox-")
        # A quiet profile: no first-run pages, no update or telemetry traffic.
        Path(self.profile, "user.js").write_text(
            "".join(
                f'user_pref("{k}", {json.dumps(v)});\n'
                for k, v in {
                    "browser.shell.checkDefaultBrowser": False,
                    "browser.startup.homepage_override.mstone": "ignore",
                    "datareporting.policy.dataSubmissionEnabled": False,
                    "app.update.disabledForTesting": True,
                    "toolkit.telemetry.reportingpolicy.firstRun": False,
                    "browser.aboutwelcome.enabled": False,
                }.items()
            )
        )
        self.proc = subprocess.Popen(
            [
                FIREFOX,
                "--headless",
                "--no-remote",
                "--remote-debugging-port=0",
                "--profile",
                self.profile,
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.ids = 0
        self.logs: list[dict[str, Any]] = []
        try:
            url = self._endpoint()
            # Firefox refuses a WebSocket handshake that carries an Origin header.
            self.ws = websocket.create_connection(url + "/session", suppress_origin=True, timeout=timeout)
            self.cmd("session.new", {"capabilities": {}})
            self.cmd("session.subscribe", {"events": ["log.entryAdded"]})
            self.context = self.cmd("browsingContext.getTree", {})["contexts"][0]["context"]
            self.cmd(
                "browsingContext.setViewport",
                {"context": self.context, "viewport": {"width": VIEWPORT[0], "height": VIEWPORT[1]}},
            )
        except BaseException:
            self.proc.kill()  # not left running when the session cannot start
            shutil.rmtree(self.profile, ignore_errors=True)
            raise

    def _endpoint(self, timeout: float = 60.0) -> str:
        """The BiDi address Firefox prints on stderr; stderr is drained from then
        on (a full pipe would block Firefox), its last lines kept for errors."""
        assert self.proc.stderr is not None
        stderr = self.proc.stderr
        self.log: collections.deque[str] = collections.deque(maxlen=200)
        found: queue.Queue[str] = queue.Queue()

        def drain() -> None:
            for line in stderr:
                self.log.append(line)
                m = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
                if m:
                    found.put(m.group(1))
            found.put("")  # Firefox exited

        threading.Thread(target=drain, daemon=True).start()
        try:
            url = found.get(timeout=timeout)
        except queue.Empty:
            url = ""
        if not url:
            self.proc.kill()
            raise RuntimeError(
                f"{FIREFOX} exited or opened no WebDriver BiDi port within {timeout:.0f} s:\n{''.join(self.log)[-2000:]}"
            )
        return url

    def cmd(self, method: str, params: dict[str, Any]) -> Any:
        self.ids += 1
        self.ws.send(json.dumps({"id": self.ids, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("method") == "log.entryAdded":
                self.logs.append(msg["params"])
            if msg.get("id") != self.ids:
                continue  # an event or a late answer
            if msg.get("type") == "error":
                raise RuntimeError(f"{method}: {msg.get('error')}: {msg.get('message')}")
            return msg["result"]

    def page_errors(self) -> list[str]:
        """Every error Firefox logged for the page (the boot's too) since the last call."""
        self.cmd("session.status", {})  # takes in the events sent so far
        out = [f"{e.get('type')}: {e.get('text')}" for e in self.logs if e.get("level") == "error"]
        self.logs.clear()
        return out

    def watch_errors(self) -> None:
        pass  # WebDriver BiDi's log events see them all

    def goto(self, url: str) -> None:
        self.cmd("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def reload(self) -> None:
        self.cmd("browsingContext.reload", {"context": self.context, "wait": "complete"})

    def js(self, src: str, *args: Any) -> Any:
        res = self.cmd(
            "script.evaluate",
            {
                "expression": _CALL.format(src=src, args=json.dumps(list(args))),
                "target": {"context": self.context},
                "awaitPromise": True,
            },
        )
        if res["type"] == "exception":
            raise RuntimeError(f"JavaScript error: {res['exceptionDetails'].get('text')}")
        return json.loads(res["result"]["value"])

    def click_at(self, x: float, y: float) -> None:
        self.cmd(
            "input.performActions",
            {
                "context": self.context,
                "actions": [
                    {
                        "type": "pointer",
                        "id": "mouse",
                        "parameters": {"pointerType": "mouse"},
                        "actions": [
                            {"type": "pointerMove", "x": round(x), "y": round(y), "origin": "viewport"},
                            {"type": "pointerDown", "button": 0},
                            {"type": "pointerUp", "button": 0},
                        ],
                    }
                ],
            },
        )

    def keys(self, text: str) -> None:
        steps = [{"type": kind, "value": ch} for ch in text for kind in ("keyDown", "keyUp")]
        self.cmd(
            "input.performActions",
            {"context": self.context, "actions": [{"type": "key", "id": "keyboard", "actions": steps}]},
        )

    def set_file(self, selector: str, path: Path) -> None:
        node = self.cmd(
            "script.evaluate",
            {
                "expression": f"document.querySelector({json.dumps(selector)})",
                "target": {"context": self.context},
                "awaitPromise": False,
                "resultOwnership": "root",
            },
        )["result"]
        assert node.get("type") == "node", f"no element {selector}"
        self.cmd(
            "input.setFiles", {"context": self.context, "element": {"sharedId": node["sharedId"]}, "files": [str(path)]}
        )

    def screenshot(self, path: Path) -> None:
        data = self.cmd("browsingContext.captureScreenshot", {"context": self.context})["data"]
        path.write_bytes(base64.b64decode(data))

    def quit(self) -> None:
        try:
            self.cmd("browser.close", {})
        except Exception:  # noqa: BLE001  (already gone: the process is ended below anyway)
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


# ------------------------------------------------------------------ WebKitGTK (Selenium)
class WebKitSelenium(Driver):
    """MiniBrowser under WebKitWebDriver, on its own Xvfb display."""

    name = "webkit"

    def __init__(self, timeout: float = 200.0) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        # -displayfd: Xvfb picks a free display and writes its number.
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", "1", "-screen", "0", "1600x1200x24", "-nolisten", "tcp"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.xvfb.stdout is not None
        display = self.xvfb.stdout.readline().strip()
        if not display:
            raise RuntimeError("Xvfb did not start")
        opts = Options()
        opts.binary_location = MINIBROWSER
        opts.add_argument("--automation")
        service = Service(executable_path=WEBKIT_DRIVER, env={**os.environ, "DISPLAY": f":{display}"})
        try:
            self.driver = webdriver.WebKitGTK(options=opts, service=service)
            self.driver.set_script_timeout(timeout)
            self.driver.set_window_rect(0, 0, *VIEWPORT)
        except BaseException:
            self.xvfb.terminate()  # not left running when the session cannot start
            raise

    def goto(self, url: str) -> None:
        self.driver.get(url)

    def reload(self) -> None:
        self.driver.refresh()

    def js(self, src: str, *args: Any) -> Any:
        script = (
            "const done = arguments[arguments.length - 1];"
            + _CALL.format(src=src, args=json.dumps(list(args)))
            + ".then(done, (e) => done(JSON.stringify({__error: String(e && e.stack || e)})));"
        )
        value = json.loads(self.driver.execute_async_script(script))
        if isinstance(value, dict) and "__error" in value:
            raise RuntimeError(f"JavaScript error: {value['__error']}")
        return value

    def click_at(self, x: float, y: float) -> None:
        from selenium.webdriver.common.actions.action_builder import ActionBuilder

        actions = ActionBuilder(self.driver)
        actions.pointer_action.move_to_location(round(x), round(y)).click()  # type: ignore[no-untyped-call]
        actions.perform()

    def keys(self, text: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).send_keys(text).perform()

    def set_file(self, selector: str, path: Path) -> None:
        from selenium.webdriver.common.by import By

        self.driver.find_element(By.CSS_SELECTOR, selector).send_keys(str(path))

    def screenshot(self, path: Path) -> None:
        self.driver.get_screenshot_as_file(str(path))

    def quit(self) -> None:
        try:
            self.driver.quit()
        finally:
            self.xvfb.terminate()
            self.xvfb.wait(timeout=10)


def launch(name: str) -> Driver:
    """Start browser `name`; Missing (with what to install) if it is absent."""
    gone = missing_parts(name)
    if gone:
        raise Missing(f"{name} is not installed here (missing: {', '.join(gone)}): {INSTALL_HINT}")
    return FirefoxBiDi() if name == "firefox" else WebKitSelenium()


def wait_for(check: Any, timeout: float, what: str, interval: float = 0.1) -> Any:
    """Poll `check()` until it returns a true value (returned); AssertionError naming `what` after `timeout` s."""
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"{what}: not within {timeout:.0f} s (last: {value!r})")
        time.sleep(interval)
