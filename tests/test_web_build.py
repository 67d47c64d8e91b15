"""The site build's own helpers (web/build_page.py), without building:
the stylesheet links inlined into index.html are found by the HTML parser,
whatever the attributes' order or quotes."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

WEB = Path(__file__).resolve().parents[1] / "web"


@pytest.fixture(scope="module")
def build_page() -> ModuleType:
    sys.path.insert(0, str(WEB))
    try:
        return __import__("build_page")
    finally:
        sys.path.remove(str(WEB))


def test_the_first_stylesheet_becomes_the_style_and_the_others_go(build_page: ModuleType) -> None:
    html = (
        "<head>\n<link rel=\"stylesheet\" href=\"cg/a.css\">\n<link href='app.css' rel='StyleSheet'>\n"
        '<link rel="icon" href="favicon.svg">\n</head>'
    )
    out = build_page.inline_stylesheets(html, "a{b:c}")
    assert out == '<head>\n<style>a{b:c}</style>\n<link rel="icon" href="favicon.svg">\n</head>'


def test_the_hrefs_in_the_page_order(build_page: ModuleType) -> None:
    html = '<link rel="stylesheet" href="x.css"><p>text</p><link rel="stylesheet" href="y.css" media="all">'
    assert [href for _text, href in build_page.Stylesheets(html).tags] == ["x.css", "y.css"]


def test_the_committed_page_holds_its_stylesheets(build_page: ModuleType) -> None:
    hrefs = [href for _text, href in build_page.Stylesheets((WEB / "src" / "index.html").read_text()).tags]
    assert "app.css" in hrefs and any(h.startswith("cg/") for h in hrefs)
