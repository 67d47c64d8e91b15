# SPDX-License-Identifier: GPL-3.0-or-later
"""Put back, after a snapshot restore, the files of the modules the snapshot holds.

web/snapshot.mjs loads this source into the interpreter it snapshots, as the
module ``_pychessdraw_snapshot_files`` (it is never a file in the browser), so
that the page's worker only has to call :func:`install` after a restore.

The snapshot holds every module pychessdraw uses, in memory, but not the files
they came from: loadPyodide is given an empty standard library at a restore
(the zipimporter in the snapshot still holds the real python_stdlib.zip's
directory, so the real bytes written at the same path make it whole again),
and the wheels are not unpacked. The worker fetches those files after "ready"
and writes them (:meth:`FilesAfterRestore.written_by_worker`); this finder,
first on ``sys.meta_path``, makes sure they are in place before the first
import the snapshot does not hold: it fetches what has not arrived yet with the
synchronous ``fetch`` it was given (a worker may block), unpacks the wheels into
site-packages as a normal start does, and leaves ``sys.meta_path``.

Limits: it acts once, on the first import that reaches it (any import of a
module not yet in ``sys.modules``); a file that cannot be fetched then raises
ImportError for that import, and the files are not retried.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


class FilesAfterRestore:
    def __init__(self, stdlib_url: str, wheel_urls: list[str], wheel_dir: str, fetch: Callable[[str], Any]) -> None:
        stdlib = next(p for p in sys.path if p.endswith(".zip"))
        self.files: dict[str, str] = {stdlib: stdlib_url}  # local path -> URL
        self.wheels: list[str] = []
        for url in wheel_urls:
            self.wheels.append(wheel_dir + "/" + url.rsplit("/", 1)[1])
            self.files[self.wheels[-1]] = url
        self.written: set[str] = set()
        self.fetch = fetch

    def pending(self) -> bool:
        return self in sys.meta_path

    def written_by_worker(self, path: str) -> None:
        self.written.add(path)

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        self.complete()
        return None  # the usual finders now see the files

    def complete(self) -> None:
        if self not in sys.meta_path:
            return
        sys.meta_path.remove(self)
        import os

        for local, url in self.files.items():
            if local in self.written:
                continue
            try:
                data = self.fetch(url).to_bytes()
            except Exception as exc:  # a JsException from the fetch
                raise ImportError(f"{url} could not be fetched: {exc}") from None
            os.makedirs(os.path.dirname(local), exist_ok=True)
            with open(local, "wb") as f:
                f.write(data)
        import importlib
        import sysconfig
        import zipfile

        site = sysconfig.get_paths()["purelib"]
        for w in self.wheels:
            with zipfile.ZipFile(w) as z:
                z.extractall(site)
        importlib.invalidate_caches()


def install(stdlib_url: str, wheel_urls: Any, wheel_dir: str, fetch: Callable[[str], Any]) -> FilesAfterRestore:
    """Put the finder first on sys.meta_path; wheel_urls: a JS array of URLs."""
    urls = wheel_urls.to_py() if hasattr(wheel_urls, "to_py") else list(wheel_urls)
    finder = FilesAfterRestore(stdlib_url, urls, wheel_dir, fetch)
    sys.meta_path.insert(0, finder)
    return finder
