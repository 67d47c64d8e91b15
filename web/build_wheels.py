# SPDX-License-Identifier: GPL-3.0-or-later
"""The wheels the page ships: pychessdraw's (built from the repository),
python-chess's (built once from its sdist), micropip's (downloaded once), and
the CPython bytecode Pyodide's own interpreter adds to them (precompile.mjs)."""

from __future__ import annotations

import hashlib
import importlib.metadata
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from build_common import CACHE, NM, WEB, die, need_tool, run, say, sha256

# Not repeated here: the python-chess that pyproject.toml's range installed in
# this Python (make venv), the one the tests run on.
CHESS_VERSION = importlib.metadata.version("chess")
MICROPIP_VERSION = "0.11.1"


def project_hash(project: Path) -> str:
    h = hashlib.sha256()
    files = [project / "pyproject.toml"]
    for base in ("pychessdraw",):
        for p in sorted((project / base).rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc",):
                files.append(p)
    for extra in ("README.md", "LICENSE", "COPYING"):
        if (project / extra).exists():
            files.append(project / extra)
    for p in files:
        if p.exists():
            h.update(str(p.relative_to(project)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


def can_build_offline() -> bool:
    """setuptools with bdist_wheel present here: skip pip's isolated build env."""
    try:
        import setuptools

        if tuple(int(x) for x in setuptools.__version__.split(".")[:2]) >= (70, 1):
            return True
        import wheel  # noqa: F401

        return True
    except (ImportError, ValueError):
        return False


def pip_wheel(args: list[str], out: Path, cwd: Path | None = None) -> Path:
    """pip wheel into an empty temp dir, return the single wheel made."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp]
        if can_build_offline():
            cmd.append("--no-build-isolation")
        run(cmd + args, cwd=cwd)
        wheels = list(Path(tmp).glob("*.whl"))
        if len(wheels) != 1:
            die(f"expected one wheel from pip, got {wheels}")
        dest = out / wheels[0].name
        shutil.copy2(wheels[0], dest)
        return dest


def build_pychessdraw_wheel(project: Path) -> Path:
    if not (project / "pyproject.toml").exists():
        die(f"no pyproject.toml in {project}")
    key = project_hash(project)
    cdir = CACHE / f"pychessdraw-{key}"
    cached = list(cdir.glob("*.whl")) if cdir.is_dir() else []
    if cached:
        say(f"pychessdraw wheel: sources unchanged, reusing {cached[0].name}")
        return cached[0]
    for old in CACHE.glob("pychessdraw-*"):
        shutil.rmtree(old, ignore_errors=True)
    cdir.mkdir(parents=True)
    # build from a copy so that no build/ or *.egg-info lands in the checkout
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        patterns = shutil.ignore_patterns(
            ".git",
            "e2e",
            "node_modules",
            "dist",
            "build",
            "*.egg-info",
            "__pycache__",
            ".venv",
            ".cache",
            "benchmarks",
            "tests",
            ".pytest_cache",
            ".hypothesis",
        )

        def ignore(folder: str, names: list[str]) -> set[str]:
            # web/ (this folder) is left out at the top only: pychessdraw/web/ is the bridge
            top = {"web"} & set(names) if Path(folder) == project else set()
            return set(patterns(folder, names)) | top

        shutil.copytree(project, src, ignore=ignore)
        whl = pip_wheel([str(src)], cdir)
    with zipfile.ZipFile(whl) as z:
        names = z.namelist()
    if not any(n.startswith("pychessdraw/web/bridge.py") for n in names):
        say("WARNING: the pychessdraw wheel has no pychessdraw/web/bridge.py; the page will fail to start")
    say(f"pychessdraw wheel: built {whl.name}")
    return whl


def chess_wheel() -> Path:
    CACHE.mkdir(exist_ok=True)
    found = list(CACHE.glob(f"chess-{CHESS_VERSION}-*.whl"))
    if found:
        say(f"python-chess wheel: cached {found[0].name}")
        return found[0]
    whl = pip_wheel([f"chess=={CHESS_VERSION}"], CACHE)
    say(f"python-chess wheel: built {whl.name} from the PyPI sdist")
    return whl


def micropip_wheel() -> Path:
    CACHE.mkdir(exist_ok=True)
    name = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
    if (CACHE / name).exists():
        say(f"micropip wheel: cached {name}")
        return CACHE / name
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "-q",
            "--only-binary=:all:",
            "--python-version",
            "3.14",
            f"micropip=={MICROPIP_VERSION}",
            "-d",
            str(CACHE),
        ]
    )
    if not (CACHE / name).exists():
        die(f"pip download did not produce {name}")
    say(f"micropip wheel: downloaded {name}")
    return CACHE / name


def precompile(wheels: list[Path]) -> list[Path]:
    """Same wheels plus CPython 3.14 bytecode made by Pyodide's own interpreter
    (web/precompile.mjs under node): the browser then skips compiling the
    sources at import. Cached by content; on failure the plain wheels are used."""
    h = hashlib.sha256()
    for w in wheels:
        h.update(w.name.encode() + sha256(w).encode())
    h.update((WEB / "precompile.mjs").read_bytes())
    h.update((NM / "pyodide/package.json").read_bytes())
    cdir = CACHE / f"pyc-{h.hexdigest()[:16]}"
    outs = [cdir / w.name for w in wheels]
    if all(o.exists() for o in outs):
        say("bytecode: wheels unchanged, reusing precompiled wheels")
        return outs
    for old in CACHE.glob("pyc-*"):
        shutil.rmtree(old, ignore_errors=True)
    node = need_tool("node", "Node.js 20+ (apt-get install nodejs npm, or https://nodejs.org)")
    say("bytecode: compiling the wheels' modules with Pyodide's CPython (node web/precompile.mjs)")
    r = subprocess.run(
        [node, str(WEB / "precompile.mjs"), str(cdir), *map(str, wheels)], cwd=WEB, capture_output=True, text=True
    )
    if r.returncode != 0 or not all(o.exists() for o in outs):
        say(
            "WARNING: precompiling failed, shipping the plain wheels (slower first import):\n"
            + (r.stderr or r.stdout)[-2000:]
        )
        shutil.rmtree(cdir, ignore_errors=True)
        return wheels
    for line in r.stdout.splitlines():
        say("bytecode: " + line)
    return outs
