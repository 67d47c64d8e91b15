"""The README's picture of the Arbiter view: the e2e test's round of 16
corpus games (e2e/test_arbiter.py), followed by the page up to the tick
where every move is in and no result yet, then a few results; saved as
docs/arbiter.png.

    python docs/arbiter_screenshot.py [--out docs/arbiter.png]

Build the site first (web/build.py); needs ../shared/corpus.
"""

from __future__ import annotations

import argparse
import re
import sys
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for extra in (ROOT, ROOT / "e2e", ROOT / "web"):
    sys.path.insert(0, str(extra))
import serve as site  # noqa: E402  web/serve.py
import test_arbiter as round_  # noqa: E402  e2e/test_arbiter.py: the round and its server

RESULTS_SHOWN = 5  # games whose result is in, in the picture


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "arbiter.png")
    args = parser.parse_args()
    path = round_.SHARED / "corpus" / "tcec-dev.pgn"
    if not path.exists():
        print(f"corpus not found: {path}", file=sys.stderr)
        return 1
    games = round_.pick_games(path)
    texts = round_.versions(games)
    # the last tick with every move, then the results of the first few games
    pieces = re.split(r"(?=\[Event )", texts[round_.TICKS - 1])[1:]
    done = re.split(r"(?=\[Event )", texts[-1])[1:]
    picture = "".join(done[i] if i < RESULTS_SHOWN else p for i, p in enumerate(pieces))
    live = round_.Round()
    live.set(texts[0])
    source = round_.serve({"round.pgn": live})
    server = site.make_server(ROOT / "web" / "dist", "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        exe = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1180, "height": 900})
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/#arbiter")
        round_.follow(page, round_.url(source, "round.pgn"))
        round_.wait_updates(page, 1)
        for n, text in enumerate([*texts[1 : round_.TICKS - 1], picture], 1):
            live.set(text)
            round_.wait_updates(page, n + 1)
        page.get_by_test_id("arbiter-follow").click()  # stop: the status line says so
        page.screenshot(path=str(args.out), full_page=True, clip={"x": 0, "y": 0, "width": 1180, "height": 1560})
        browser.close()
    server.shutdown()
    source.shutdown()
    print(f"saved {args.out} ({args.out.stat().st_size / 1000:.0f} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
