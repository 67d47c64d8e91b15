#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Serve the built site (web/dist) on http://127.0.0.1:PORT as a static host would.

Usage: python3 web/serve.py [--port 8000] [--dir web/dist] [--host 127.0.0.1]

* Content-Encoding: gzip (with Vary: Accept-Encoding) for text, JSON and wasm
  when the browser accepts it, as GitHub Pages and most static hosts do; zips,
  wheels and the gzipped snapshot go as they are. Compressed copies are made
  once per file version and kept in memory (make_server(..., warm=True) makes
  them all up front).
* Cache-Control: "no-cache" (the browser keeps its copy but revalidates it:
  ETag/Last-Modified -> 304, so a rebuild is always picked up), except
  "immutable" for names that carry a content hash (pyodide/snapshot-<hash>.gz);
  sw.js is never taken from the HTTP cache by the browser anyway.
* Correct MIME types for .mjs/.js/.wasm/.whl/.zip/.json/.gz.
Only the standard library is used.
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import gzip
import http.server
import os
import re
import socketserver
import sys
import threading
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
    ".gz": "application/gzip",
    ".json": "application/json",
    ".map": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
}
# what static hosts compress on the fly: text-like types and wasm
COMPRESSIBLE = {".html", ".js", ".mjs", ".css", ".wasm", ".json", ".map", ".svg", ".txt", ".md"}
HASHED_NAME = re.compile(r"-[0-9a-f]{16}\.[a-z]+$")
MIN_GZIP = 1024


class GzipStore:
    """gzip -6 copies of files, keyed by (path, mtime, size); thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._data: dict[str, tuple[tuple[int, int], bytes]] = {}

    def get(self, path: Path, st: os.stat_result) -> bytes:
        key = (st.st_mtime_ns, st.st_size)
        with self._lock:
            hit = self._data.get(str(path))
        if hit and hit[0] == key:
            return hit[1]
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        with self._lock:
            self._data[str(path)] = (key, body)
        return body


def compressible(path: Path, size: int) -> bool:
    return path.suffix in COMPRESSIBLE and size >= MIN_GZIP


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._serve(head=False)

    def do_HEAD(self) -> None:
        self._serve(head=True)

    def translate_path(self, path: str) -> str:
        """The site's file, or the overlay's where it has one (the benchmark's page)."""
        site = super().translate_path(path)
        overlay = getattr(self.server, "overlay", None)
        if overlay is not None:
            mine = overlay / Path(site).relative_to(Path(self.directory).resolve())
            if mine.is_file():
                return str(mine)
        return site

    def _serve(self, head: bool) -> None:
        fs_path = Path(self.translate_path(self.path))
        if fs_path.is_dir():
            if not self.path.split("?", 1)[0].endswith("/"):
                self.send_response(301)
                self.send_header("Location", self.path.split("?", 1)[0] + "/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            fs_path = fs_path / "index.html"
        try:
            st = fs_path.stat()
        except OSError:
            self.send_error(404, "File not found")
            return
        if not fs_path.is_file():
            self.send_error(404, "File not found")
            return
        gz = (
            self.server.compress  # type: ignore[attr-defined]
            and compressible(fs_path, st.st_size)
            and "gzip" in self.headers.get("Accept-Encoding", "")
        )
        etag = f'"{st.st_mtime_ns:x}-{st.st_size:x}{"-gz" if gz else ""}"'
        last_modified = email.utils.formatdate(st.st_mtime, usegmt=True)
        if self.headers.get("If-None-Match") == etag or (
            "If-None-Match" not in self.headers and self.headers.get("If-Modified-Since") == last_modified
        ):
            self.send_response(304)
            self._common_headers(fs_path, etag, last_modified)
            self.end_headers()
            return
        body = self.server.gzip_store.get(fs_path, st) if gz else None  # type: ignore[attr-defined]
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(fs_path)))
        self.send_header("Content-Length", str(len(body) if body is not None else st.st_size))
        if body is not None:
            self.send_header("Content-Encoding", "gzip")
        self._common_headers(fs_path, etag, last_modified)
        self.end_headers()
        if head:
            return
        if body is not None:
            self.wfile.write(body)
        else:
            with open(fs_path, "rb") as f:
                self.copyfile(f, self.wfile)

    def _common_headers(self, fs_path: Path, etag: str, last_modified: str) -> None:
        if self.server.compress and compressible(fs_path, fs_path.stat().st_size):  # type: ignore[attr-defined]
            self.send_header("Vary", "Accept-Encoding")
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", last_modified)
        if HASHED_NAME.search(fs_path.name):
            self.send_header("Cache-Control", "public, max-age=31536000, immutable")
        else:
            self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")

    def log_message(self, fmt: str, *args) -> None:  # quiet unless asked
        if self.server.verbose:  # type: ignore[attr-defined]
            super().log_message(fmt, *args)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    verbose = False
    compress = True

    def handle_error(self, request, client_address) -> None:
        # a browser closing a connection it no longer needs is not an error
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def warm(directory: Path, store: GzipStore) -> int:
    """Compress every compressible file now; returns how many."""
    n = 0
    for p in directory.rglob("*"):
        if p.is_file():
            st = p.stat()
            if compressible(p, st.st_size):
                store.get(p, st)
                n += 1
    return n


def make_server(
    directory: Path,
    host: str = "127.0.0.1",
    port: int = 0,
    verbose: bool = False,
    warm_up: bool = True,
    compress: bool = True,
    overlay: Path | None = None,
) -> Server:
    """A ready server (port 0 = any free port; see server.server_address).
    warm_up: compress the site before returning (about a second), so that the
    first load is not slowed by it. compress=False: every file as it is (for
    comparisons). overlay: a directory whose files are served as if they were
    the site's (web/bench/, the benchmark's bare Pyodide page, which the
    public site does not ship)."""
    srv = Server((host, port), functools.partial(Handler, directory=str(Path(directory).resolve())))
    srv.overlay = Path(overlay).resolve() if overlay is not None else None  # type: ignore[attr-defined]
    srv.verbose = verbose
    srv.compress = compress
    srv.gzip_store = GzipStore()  # type: ignore[attr-defined]
    if warm_up and compress:
        warm(directory, srv.gzip_store)  # type: ignore[attr-defined]
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
    print(f"Serving {a.dir} on http://{host}:{port}/ (gzip as a static host; Ctrl-C to stop)", flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
