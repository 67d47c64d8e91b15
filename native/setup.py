# SPDX-License-Identifier: GPL-3.0-or-later
"""Build ``pychessdraw_native``: generate its sources, compile them with mypyc.

The sources are written to ``native/src`` (``generate.py``) and compiled as
one group, so that the search's calls into python-chess's board are native
calls (mypyc's default optimisation level, 3).  Beside them, ``walk.c``: the
walk over reachable positions in C (``pychessdraw_native._walk``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mypyc.build import mypycify
from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
os.chdir(HERE)  # mypyc names the modules by their paths under src/

from generate import generate  # noqa: E402  (it puts the repository's root on the path)

from pychessdraw import __version__  # noqa: E402

modules = generate(HERE / "src")
setup(
    version=__version__,
    packages=["pychessdraw_native", "pychessdraw_native.deadposition"],
    package_dir={"": "src"},
    package_data={"pychessdraw_native": ["py.typed"]},
    ext_modules=[
        *mypycify([str(path.relative_to(HERE)) for path in modules]),
        Extension("pychessdraw_native._walk", ["walk.c"], extra_compile_args=["-O2"]),
    ],
)
