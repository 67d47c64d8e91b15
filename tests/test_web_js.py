"""The page's JavaScript checks, run by pytest so that `make test` (and CI's
pytest line) fails when they fail: the type check of every UI module against
the JSDoc contract (`tsc --noEmit --checkJs`), the node unit tests of the pure
modules, and the contract's two sides (Python TypedDicts, JSDoc typedefs)
naming the same fields."""

from __future__ import annotations

import re
import shutil
import subprocess
import typing
from pathlib import Path

import pytest

from pychessdraw import bridge_contract as contract

WEB = Path(__file__).resolve().parents[1] / "web"


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js 20+ is needed for the page's tests: apt-get install nodejs npm", pytrace=False)
    return node


def _tool(rel: str) -> Path:
    path = WEB / "node_modules" / rel
    if not path.exists():
        pytest.fail(f"{path} is missing: run `make site` (or `npm ci` in web/) first", pytrace=False)
    return path


@pytest.mark.slow  # node and tsc: left out by `make test-quick`
def test_types_check() -> None:
    tsc = _tool("typescript/bin/tsc")
    r = subprocess.run([_node(), str(tsc), "-p", str(WEB / "tsconfig.json")], cwd=WEB, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, f"tsc --noEmit --checkJs found errors:\n{r.stdout[-4000:]}{r.stderr[-2000:]}"


@pytest.mark.slow  # node and tsc: left out by `make test-quick`
def test_node_unit_tests() -> None:
    _tool("@lichess-org/chessground")
    r = subprocess.run([_node(), "--test", "test/"], cwd=WEB, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"node --test failed:\n{r.stdout[-6000:]}{r.stderr[-2000:]}"
    assert re.search(r"^# pass [1-9]", r.stdout, re.M), r.stdout[-2000:]


def _js_typedefs() -> dict[str, set[str]]:
    text = (WEB / "src" / "contract.js").read_text()
    out: dict[str, set[str]] = {}
    for block in re.findall(r"/\*\*(.*?)\*/", text, re.S):
        m = re.search(r"@typedef\s+\{Object\}\s+(\w+)", block)
        if m:
            out[m.group(1)] = set(re.findall(r"@property\s+\{[^}]*\}\s+\[?(\w+)", block))
    return out


def test_contract_js_mirrors_python() -> None:
    js = _js_typedefs()
    checked = 0
    for name in dir(contract):
        obj = getattr(contract, name)
        if not (isinstance(obj, type) and typing.is_typeddict(obj)) or name in ("Request", "LegalMoveDict"):
            continue  # LegalMoveDict is the library's, checked under its alias LegalMove
        fields = set(typing.get_type_hints(obj))
        if name == "Repetition":  # Counter & {earlier} in JSDoc
            assert "earlier" in fields
            continue
        assert name in js, f"{name} has no @typedef in web/src/contract.js"
        assert js[name] == fields, f"{name}: Python {sorted(fields)} vs JSDoc {sorted(js[name])}"
        checked += 1
    assert checked >= 15
