"""One owner for every fact: the FIDE articles, rule names, thresholds and
move numbers are written once in Python (pychessdraw.laws, the rules'
modules, pychessdraw.moves) and sent to the page (the generated
web/src/contract.js, and the replies). These tests fail when a fact gets a
second owner: an article number in a Python string outside pychessdraw.laws,
and JavaScript that works chess out for itself (splits a FEN, counts moves
from plies, cites an article, turns an enum name into prose, names a colour)
outside the generated contract."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "web" / "src"

ARTICLE = re.compile(r"(?<![\d.])(?:5\.[12](?:\.\d)?|6\.9|9\.[1-6](?:\.\d+)*)(?![\d.])")

JS_PATTERNS = {
    "splits a FEN": re.compile(r"\bfen\w*\s*\.\s*split\s*\(|split\(\s*[\"' ]+\s*\)\s*\[\s*1\s*\]", re.I),
    "counts moves from plies": re.compile(r"\b\w*(?:ply|plies|half)\w*\s*(?:[-+]\s*[\w.]+\s*)?\)?\s*[%/]\s*2\b", re.I),
    "cites a FIDE article": ARTICLE,
    "turns an enum name into prose": re.compile(r"replace\(\s*/_/g"),
    "names a colour inline": re.compile(r"[\"']white[\"']\s*\?\s*[\"']White[\"']"),
}


def _strip_js_comments(text: str) -> str:
    """The code without its comments (a comment may cite the Laws), line numbers kept."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"(?<![:\"'\\])//.*", "", text)


def js_offences(text: str) -> list[str]:
    out = []
    for number, line in enumerate(_strip_js_comments(text).splitlines(), 1):
        for what, pattern in JS_PATTERNS.items():
            if pattern.search(line):
                out.append(f"{number}: {what}: {line.strip()[:100]}")
    return out


def test_the_page_works_no_chess_out_for_itself() -> None:
    found = []
    for path in sorted(SRC.rglob("*.js")):
        rel = path.relative_to(SRC).as_posix()
        if rel == "contract.js":
            continue
        found += [f"web/src/{rel}:{o}" for o in js_offences(path.read_text())]
    assert not found, "facts the page should take from the referee:\n" + "\n".join(found)


def test_the_check_catches_what_the_page_once_did() -> None:
    """The code that moved out of the page, each caught."""
    old = {
        'const white = fen.split(" ")[1] !== "b";': "splits a FEN",
        "const n = firstMove + Math.floor(half / 2);": "counts moves from plies",
        "return (white ? plies % 2 === 0 : plies % 2 === 1);": "counts moves from plies",
        "r.claim.text += ` Two minutes were added (FIDE 9.5.3).`;": "cites a FIDE article",
        'return rule.replace(/_/g, " ");': "turns an enum name into prose",
        'const who = side === "white" ? "White" : "Black";': "names a colour inline",
    }
    for code, what in old.items():
        assert any(what in o for o in js_offences(code)), code
    assert not js_offences("// FIDE 9.5.3: two minutes (a comment may cite the Laws)\nconst x = LAWS.wrong_claim;")


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def test_article_numbers_are_written_once_in_python() -> None:
    """Every article number in a Python string (docstrings aside) is in
    pychessdraw/laws.py, or is a value of a contract Literal in contract.py."""
    found = []
    for path in sorted((ROOT / "pychessdraw").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in ("pychessdraw/laws.py", "pychessdraw/contract.py") or "/deadposition/" in rel:
            continue
        tree = ast.parse(path.read_text())
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docs
                and ARTICLE.search(node.value)
            ):
                found.append(f"{rel}:{node.lineno}: {node.value[:80]!r}")
    assert not found, "article numbers outside pychessdraw/laws.py:\n" + "\n".join(found)


def test_the_thresholds_in_words_follow_the_rules() -> None:
    """A refused claim's "(3 needed ...)", "(100 needed ...)" come from the rules' own constants."""
    from pychessdraw import Game
    from pychessdraw.rules import fifty, repetition

    reason = Game().claim_draw().reason
    assert f"({repetition.CLAIM_COUNT} needed for" in reason and f"({fifty.CLAIM_PLIES} needed for" in reason
