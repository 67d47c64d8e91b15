# SPDX-License-Identifier: GPL-3.0-or-later
"""Which Chromium the browser tests and the page benchmarks launch, and how.

One place for the flags and the executable: ``e2e/conftest.py`` and the
benchmarks (``web_bench``, ``bench_review``, ``bench_page_dead``) all call
``launch``.  The browser: ``$CHROMIUM``, else the system's Chromium (Debian's
``/usr/bin/chromium``), else Playwright's own build.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
INSTALL_HINT = (
    "No Chromium for the browser tests. Install one of:\n"
    "  apt-get install -y chromium            (Debian; used via /usr/bin/chromium)\n"
    "  python -m playwright install chromium  (Playwright's own build)\n"
    "or point $CHROMIUM at a Chromium/Chrome executable."
)


def executable() -> str | None:
    """The Chromium to launch, or None for Playwright's own build."""
    for cand in (
        os.environ.get("CHROMIUM"),
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        shutil.which("chromium") or "",
        shutil.which("google-chrome") or "",
    ):
        if cand and Path(cand).exists():
            return cand
    return None


def launch(playwright: Any) -> Any:
    """A headless Chromium from a started ``sync_playwright()``."""
    exe = executable()
    if exe:
        return playwright.chromium.launch(executable_path=exe, args=ARGS)
    return playwright.chromium.launch(args=ARGS)
