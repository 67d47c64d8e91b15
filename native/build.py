# SPDX-License-Identifier: GPL-3.0-or-later
"""Build pychessdraw-native and install it into this Python (``make native``).

First says exactly what is missing, if anything (a C compiler, Python's
headers); ``--if-possible`` then stops there without failing (``make test``
on a machine that cannot compile: the tests of the compiled search skip and
say why), where a failing build still fails.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent
BUILD_NEEDS = ["setuptools>=61", "wheel", "mypy>=1.10"]


def missing() -> str | None:
    """What this machine lacks to compile an extension module, or None."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if not shutil.which(compiler):
        return f"a C compiler ({compiler} is not on PATH; on Debian: apt-get install gcc)"
    header = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not header.exists():
        return f"Python's headers ({header}; on Debian: apt-get install python3-dev)"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--if-possible", action="store_true", help="where a prerequisite is missing, say so and stop")
    args = parser.parse_args()
    lack = missing()
    if lack:
        print(f"native: pychessdraw-native not built: this machine lacks {lack}")
        sys.exit(0 if args.if_possible else 1)
    print("native: compiling the dead-position search with mypyc (about a minute)")
    pip = [sys.executable, "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, *BUILD_NEEDS], check=True)
    subprocess.run([*pip, "--no-build-isolation", str(HERE)], check=True)


if __name__ == "__main__":
    main()
