# SPDX-License-Identifier: GPL-3.0-or-later
"""What every step of web/build.py shares: the paths, the messages, running
a command, hashing and copying files, esbuild's defines."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

WEB = Path(__file__).resolve().parent
ROOT = WEB.parent
SRC = WEB / "src"
CACHE = WEB / ".cache"
NM = WEB / "node_modules"


def say(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def die(msg: str) -> None:
    print(f"[build] ERROR: {msg}", file=sys.stderr, flush=True)
    sys.exit(1)


def run(cmd: list[str], cwd: Path | None = None) -> None:
    say("$ " + " ".join(cmd))
    r = subprocess.run(cmd, cwd=cwd)
    if r.returncode != 0:
        die(f"command failed with exit code {r.returncode}: {' '.join(cmd)}")


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def need_tool(name: str, hint: str) -> str:
    path = shutil.which(name)
    if not path:
        die(f"'{name}' not found on PATH. Install it: {hint}")
    return path


def copy(src: Path, dst: Path) -> bool:
    """Copy when content differs; return True when copied."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    if dst.exists() and dst.stat().st_size == src.stat().st_size and dst.read_bytes() == src.read_bytes():
        return False
    shutil.copy2(src, dst)
    return True


def with_defines(src: Path, out: Path, defines: dict[str, object]) -> None:
    """``out``: ``src`` with each name of ``defines`` replaced by its JSON
    value, by esbuild's own ``define`` (no bundling: the file stays the one
    module or script it is)."""
    cmd = [str(NM / "esbuild/bin/esbuild"), str(src), f"--outfile={out}", "--log-level=warning"]
    cmd += [f"--define:{name}={json.dumps(value, separators=(',', ':'))}" for name, value in defines.items()]
    run(cmd, cwd=WEB)
