"""No Python function or method over 80 lines (the developers' guide): a
longer one is split before it lands. Lines are counted from ``def`` to the
last line of the body, docstring included."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pychessdraw"
LIMIT = 80
EXEMPT: tuple[str, ...] = ()


def long_functions(root: Path, limit: int = LIMIT) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.py")):
        if any(part in EXEMPT for part in path.relative_to(root).parts):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    out.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name}: {lines} lines")
    return out


def test_no_function_over_80_lines() -> None:
    found = long_functions(PACKAGE)
    assert not found, f"functions over {LIMIT} lines (split them):\n" + "\n".join(found)


def test_the_check_sees_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(f"def short():\n    pass\n\n\ndef long():\n{body}\n")
    assert [f.split(" ")[1] for f in long_functions(tmp_path / "pkg")] == ["long:"]
