"""Packaging: one version everywhere; ``python -m build`` from a clean copy
of the sources makes an sdist and a py3-none-any wheel that ``twine check``
accepts and that installs in a fresh venv with a working CLI; and the unit
tests pass on the lowest python-chess that pyproject.toml allows.

These need PyPI (build's isolated environment, python-chess for the fresh
venv and the lower bound) and skip with a message when it is unreachable."""

from __future__ import annotations

import importlib.metadata
import re
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest
from packaging.version import Version

import pychessdraw

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())

pytestmark = pytest.mark.slow  # left out by `make test-quick`


def run(
    *cmd: str | Path, cwd: Path = ROOT, timeout: int = 600, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


def offline_skip(done: subprocess.CompletedProcess[str], what: str) -> None:
    text = done.stdout + done.stderr
    if done.returncode != 0 and re.search(
        r"(?i)could not find a version|no matching distribution|connection|"
        r"network|resolve|temporary failure|offline",
        text,
    ):
        pytest.skip(f"{what} needs PyPI, which is unreachable here: {text.strip().splitlines()[-1][:200]}")


def chess_requirement() -> str:
    (req,) = [d for d in PYPROJECT["project"]["dependencies"] if re.match(r"chess\b", d)]
    return str(req)


def test_one_version_everywhere() -> None:
    assert "version" in PYPROJECT["project"]["dynamic"] and "version" not in PYPROJECT["project"]
    assert importlib.metadata.version("pychessdraw") == pychessdraw.__version__, (
        "the installed metadata is stale: run `make venv` (pip install -e '.[test]')"
    )
    done = run(sys.executable, "-m", "pychessdraw", "--version")
    assert done.stdout.strip() == f"pychessdraw {pychessdraw.__version__}"


def test_python_chess_is_a_range_not_a_pin() -> None:
    req = chess_requirement()
    assert "==" not in req and re.search(r">=\s*1\.10\b", req) and "<2" in req.replace(" ", "")
    web_build = (ROOT / "web" / "build.py").read_text()
    assert not re.search(r'CHESS_VERSION\s*=\s*"', web_build), "the web build repeats the python-chess version"


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """sdist and wheel built from the files git tracks (a clean clone's)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout (to copy the tracked files as a clean clone would have them)")
    listed = run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    src = tmp_path_factory.mktemp("clone")
    for name in filter(None, listed.stdout.split("\0")):
        if (ROOT / name).is_file() and not name.startswith(("web/", "e2e/")):
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    out = tmp_path_factory.mktemp("dist")
    done = run(sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", out, src)
    offline_skip(done, "python -m build")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return out


def test_build_makes_an_sdist_and_a_pure_wheel(dist: Path) -> None:
    version = pychessdraw.__version__
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    assert wheel.name == f"pychessdraw-{version}-py3-none-any.whl" and sdist.name == f"pychessdraw-{version}.tar.gz"
    with zipfile.ZipFile(wheel) as whl:
        names = set(whl.namelist())
        metadata = whl.read(f"pychessdraw-{version}.dist-info/METADATA").decode()
    assert "pychessdraw/py.typed" in names and "pychessdraw/contract.py" in names
    catalogs = {
        p.relative_to(ROOT).as_posix() for p in (ROOT / "pychessdraw" / "locale").glob("*/LC_MESSAGES/pychessdraw.mo")
    }
    assert len(catalogs) >= 8 and catalogs <= names  # the page reads them from the wheel
    # the page's own words go to dist/i18n/*.json (web/build_i18n.py), not into the referee's wheel
    assert not any(n.endswith("/page.mo") or n.endswith("/page.po") for n in names)
    assert not any(n.startswith(("tests/", "e2e/", "web/", "benchmarks/")) for n in names)
    assert f"Version: {version}\n" in metadata
    assert re.search(r"Requires-Dist: chess(<2,>=1\.10|>=1\.10,<2)", metadata), metadata
    assert "Classifier: Typing :: Typed" in metadata  # no Project-URL until the public address is known


def test_twine_check_passes(dist: Path) -> None:
    done = run(sys.executable, "-m", "twine", "check", "--strict", *sorted(dist.iterdir()))
    assert done.returncode == 0 and done.stdout.count("PASSED") == 2, done.stdout + done.stderr


def test_the_wheel_installs_in_a_fresh_venv_and_the_cli_works(dist: Path, tmp_path: Path) -> None:
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / "bin" / "python"
    (wheel,) = dist.glob("*.whl")
    done = run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel, cwd=tmp_path)
    offline_skip(done, "installing python-chess in a fresh venv")
    assert done.returncode == 0, done.stderr[-2000:]
    cli = tmp_path / "venv" / "bin" / "pychessdraw"
    assert run(cli, "--version", cwd=tmp_path).stdout.strip() == f"pychessdraw {pychessdraw.__version__}"
    done = run(cli, "status", "--search", "static", "--fen", "7k/8/6K1/8/8/8/8/R7 w - - 99 60", "Ra8#", cwd=tmp_path)
    assert done.returncode == 0 and '"termination": "checkmate"' in done.stdout, done.stderr
    done = run(cli, "status", "--lang", "de", "--search", "static", "f3", "e5", "g4", "Qh4", cwd=tmp_path)
    assert done.returncode == 0 and '"reason": "Schachmatt"' in done.stdout, done.stderr


def test_unit_tests_pass_on_the_lowest_python_chess_allowed(tmp_path: Path) -> None:
    """python-chess at pyproject.toml's lower bound, put ahead of the
    installed one on PYTHONPATH; the quick tier of the tests then runs."""
    lowest = re.search(r">=\s*([\d.]+)", chess_requirement())
    assert lowest is not None
    target = ROOT / "build" / f"chess-{lowest.group(1)}"
    if not (target / "chess" / "__init__.py").exists():
        done = run(
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--target",
            target,
            f"chess=={lowest.group(1)}",
        )
        offline_skip(done, f"python-chess {lowest.group(1)}")
        assert done.returncode == 0, done.stderr[-2000:]
    env = {
        "PYTHONPATH": f"{target}:{ROOT}",
        "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
        "HOME": str(tmp_path),
    }
    version = run(sys.executable, "-c", "import chess; print(chess.__version__)", env=env)
    assert Version(version.stdout.strip()) == Version(lowest.group(1)), version.stderr
    done = run(
        sys.executable,
        "-m",
        "pytest",
        "tests",
        "-m",
        "not slow",
        # CI's time: the small-material table and the catalogs do not depend
        # on python-chess's version beyond what the rest of the tier asks.
        "--ignore=tests/test_deadposition_small.py",
        "--ignore=tests/test_catalogs.py",
        "-q",
        "-x",
        "-p",
        "no:cacheprovider",
        env=env,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:]
