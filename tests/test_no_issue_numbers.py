"""No reference to an issue tracker's numbers in the repository's text.

The repository never links a tracker, so "issue #21" or "(#7)" tells a
reader nothing: code, comments, docs and tests say why in their own words
instead. Every file git tracks is read (binary ones skipped). Legitimate
``#`` uses are not references: CSS colours (``#333;``, ``color: #111``),
HTML entities (``&#123;``), URL fragments and mates in SAN (``page#1``,
``Qh7#``: a word character before), markdown headers (``# Title``).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: "issue 20", "Issue #21", "issues #3"
ISSUE_WORD = re.compile(r"\bissues?\s*#?\d+\b", re.IGNORECASE)
#: a bare "#21" or "(#7)": not after a word character, "&", "/" or "#", and
#: not followed by a word character (a longer hex colour, a name)
BARE_NUMBER = re.compile(r"(?<![\w&/#])#\d{1,3}(?![\w-])")
#: a CSS declaration's colour: after a property's colon, or among a
#: border's or shadow's values, or ended by ";" as declarations are
CSS_COLOUR = re.compile(r"(?:color|background|border|shadow|fill|stroke|outline)[\w-]*\s*:[^;{}]*$", re.IGNORECASE)
STYLE_SUFFIXES = {".css", ".svg"}


def issue_references(text: str, suffix: str = "") -> list[str]:
    """The issue references in ``text``, one ``"line: match"`` each."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        worded = list(ISSUE_WORD.finditer(line))
        hits = [m.group() for m in worded]
        if suffix not in STYLE_SUFFIXES:
            for m in BARE_NUMBER.finditer(line):
                after = line[m.end() : m.end() + 1]
                inside = any(w.start() <= m.start() < w.end() for w in worded)
                if inside or after == ";" or CSS_COLOUR.search(line[: m.start()]):
                    continue
                hits.append(m.group())
        found += [f"{number}: {hit}" for hit in hits]
    return found


def _tracked_texts() -> list[tuple[str, str]]:
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"not a git checkout, nothing to list ({exc})")
    texts = []
    for name in listed.stdout.decode().split("\0"):
        path = ROOT / name
        if not name or name == "tests/test_no_issue_numbers.py" or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            texts.append((name, data.decode("utf-8")))
        except UnicodeDecodeError:
            continue
    return texts


def test_the_matcher_finds_references_and_leaves_other_hashes() -> None:
    assert issue_references("see issue #21 for why") == ["1: issue #21"]
    assert issue_references("(issue 20, item 6)") == ["1: issue 20"]
    assert issue_references("fixed in a later round (#7).") == ["1: #7"]
    assert issue_references("# ---- engine #9") == ["1: #9"]
    legitimate = [
        "border: 2px solid #333;",
        "text-shadow: 0 0 2px #000, 0 0 3px #000;",
        ".x { color: #111 }",
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
        "# Benchmarks",
        "&#123; and page#12 and /#3",
        "8/8/8/8/8/2b1k1b1/8/3RKR2 w - - 0 1",
        "location.hash = '#arbiter'",
    ]
    assert [issue_references(line) for line in legitimate] == [[]] * len(legitimate)
    assert issue_references("fill: #123", ".svg") == []


def test_no_tracked_file_refers_to_an_issue_number() -> None:
    texts = _tracked_texts()
    assert len(texts) > 100, "git listed too few files to be this repository"
    found = {name: refs for name, text in texts if (refs := issue_references(text, Path(name).suffix))}
    assert not found, "issue numbers in the repository's text (say why in words instead): " + "; ".join(
        f"{name} line {ref}" for name, refs in sorted(found.items()) for ref in refs[:5]
    )
