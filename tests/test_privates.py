"""No module reaches into another's privates (the library's public surface is its API).

Every ``x._name`` in the package must be on ``self`` or ``cls``: a module that
needs something of ``Game`` (or of another module) uses its public API.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pychessdraw"


def _private_reaches(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_reads_anothers_privates() -> None:
    reaches = [r for p in sorted(PACKAGE.rglob("*.py")) for r in _private_reaches(p)]
    assert reaches == []


def test_the_check_sees_a_private_reach(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("def f(game):\n    return game._board, self_like._x\n")
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path
    try:
        assert len(_private_reaches(probe)) == 2
    finally:
        PACKAGE = saved
