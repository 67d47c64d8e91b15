#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Serve the built site (web/dist) on http://127.0.0.1:PORT.

Usage: python3 web/serve.py [--port 8000] [--dir web/dist] [--host 127.0.0.1]

Correct MIME types for .mjs/.js/.wasm/.whl/.zip/.json, and
"Cache-Control: no-cache" on everything: the browser keeps its copy but
revalidates it (Last-Modified -> 304), so a rebuild is always picked up.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import socketserver
import sys
from pathlib import Path

WEB = Path(__file__).resolve().parent

MIME = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".json": "application/json",
    ".map": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, fmt: str, *args) -> None:  # quiet unless asked
        if self.server.verbose:  # type: ignore[attr-defined]
            super().log_message(fmt, *args)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    verbose = False


def make_server(directory: Path, host: str = "127.0.0.1", port: int = 0, verbose: bool = False) -> Server:
    """A ready server (port 0 = any free port; see server.server_address)."""
    srv = Server((host, port), functools.partial(Handler, directory=str(directory)))
    srv.verbose = verbose
    return srv


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--dir", type=Path, default=WEB / "dist")
    ap.add_argument("--quiet", action="store_true", help="do not log requests")
    a = ap.parse_args()
    if not (a.dir / "index.html").exists():
        print(f"{a.dir}/index.html not found: run 'python3 web/build.py' first", file=sys.stderr)
        return 1
    srv = make_server(a.dir.resolve(), a.host, a.port, verbose=not a.quiet)
    host, port = srv.server_address[:2]
    print(f"Serving {a.dir} on http://{host}:{port}/ (Ctrl-C to stop)", flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
