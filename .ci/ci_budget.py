# SPDX-License-Identifier: GPL-3.0-or-later
"""CI's time budget, as a pytest plugin (`.ci/run` loads it with -p).

Once PYCHESSDRAW_CI_DEADLINE (a Unix time) has passed, every test that has
not started fails at once, without running: the run then ends with its
summary and its slowest tests named, instead of being killed without them."""

from __future__ import annotations

import os
import time

import pytest

DEADLINE = float(os.environ.get("PYCHESSDRAW_CI_DEADLINE", "inf"))


def pytest_runtest_setup(item: pytest.Item) -> None:
    if time.time() > DEADLINE:
        pytest.fail("CI's time budget is spent: this test did not run", pytrace=False)
