# SPDX-License-Identifier: GPL-3.0-or-later
"""The rules' names and citations, as every sentence of the page and the reports gives them."""

import re
from pathlib import Path
from typing import Any

import pytest

from pychessdraw import laws


def test_rule_names_read_as_in_a_sentence() -> None:
    assert laws.rule_name("threefold_repetition") == "threefold repetition"
    assert laws.rule_in_sentence("threefold_repetition") == "threefold repetition"
    assert laws.rule_in_sentence("fifty_moves") == "the fifty-move rule"
    assert laws.rule_in_sentence("seventyfive_moves") == "the 75-move rule"
    # a name the laws do not know is passed through, not lost
    assert laws.rule_name("adjudication") == "adjudication"
    assert laws.rule_in_sentence("adjudication") == "adjudication"


def test_a_flag_fall_cites_the_rules_it_is_judged_under() -> None:
    assert laws.flag_citation("fide") == "FIDE 6.9"
    assert laws.flag_citation("uscf") == "US Chess rules"


WEB_SRC = Path(__file__).resolve().parents[1] / "web" / "src"
GENERATED = WEB_SRC / "contract.js"  # written from laws.py by `make contract`
BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
LINE_COMMENT = re.compile(r"(?:^|(?<=[\s;,(){}]))//[^\n]*")
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')
# An article or a rule set's numbered rule as a person reads it: "FIDE 6.9",
# "Article 9.2", "US Chess 14E", "USCF 14E", or a bare "14E".
ARTICLE = re.compile(r"\b(?:FIDE|Article|Art\.|US Chess|USCF)\s*\d|\b\d{1,2}[A-H]\d?\b")


def typed_articles(source: str) -> list[str]:
    """The string literals of a JavaScript source (comments left out) that
    name an article or a numbered rule."""
    code = LINE_COMMENT.sub("", BLOCK_COMMENT.sub("", source))
    return [s for s in STRING.findall(code) if ARTICLE.search(s)]


HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)


def typed_in_markup(source: str) -> list[str]:
    """The articles or numbered rules an HTML source names (its text and
    attributes; comments left out)."""
    return [found.group(0) for found in ARTICLE.finditer(HTML_COMMENT.sub("", source))]


def test_the_article_finder_sees_a_typed_article_and_not_a_comment() -> None:
    assert typed_articles('el("option", {}, "FIDE 6.9"), text: "US Chess 14E" }') == ['"FIDE 6.9"', '"US Chess 14E"']
    assert typed_articles("const t = `FIDE ${x}`; // FIDE 9.5.3\n/* US Chess 14E */") == []
    assert typed_articles('const a = "3+2", b = "https://x//y", c = "5 d 3";') == []


@pytest.mark.skipif(not WEB_SRC.is_dir(), reason="web/src is not in this checkout")
def test_no_article_or_rule_number_is_typed_in_the_page() -> None:
    """Articles and rule names have one owner (laws.py), sent to the page
    through the generated contract.js; no page module types one."""
    typed = {
        str(path.relative_to(WEB_SRC)): found
        for path in sorted(WEB_SRC.rglob("*.js"))
        if path != GENERATED and (found := typed_articles(path.read_text(encoding="utf-8")))
    }
    assert typed == {}


def test_the_markup_finder_sees_an_article_in_a_text_or_an_attribute_and_not_in_a_comment() -> None:
    assert typed_in_markup('<b title="claim it (FIDE 9.3.2)">x</b><p>Can mate? (FIDE 5.2.2)</p>') == [
        "FIDE 9",
        "FIDE 5",
    ]
    assert typed_in_markup('<!-- FIDE 6.9 --><p title="(FIDE {flag_fall})">US Chess rules</p>') == []


@pytest.mark.skipif(not WEB_SRC.is_dir(), reason="web/src is not in this checkout")
def test_no_article_or_rule_number_is_typed_in_the_markup() -> None:
    """The markup's words cite articles by name ({dead_position}), filled
    from the laws the referee sends (``ui/language.js``)."""
    typed = {
        str(path.relative_to(WEB_SRC)): found
        for path in sorted(WEB_SRC.rglob("*.html"))
        if (found := typed_in_markup(path.read_text(encoding="utf-8")))
    }
    assert typed == {}


def laws_sent() -> dict[str, Any]:
    """The laws as the generated contract.js carries them to the page."""
    from pychessdraw.web.contract import sent_facts

    sent = sent_facts()["LAWS"]
    assert isinstance(sent, dict)
    return sent


def test_the_page_gets_the_flag_rules_names_from_the_laws() -> None:
    assert laws_sent()["flag_rules"] == {"fide": "FIDE 6.9", "uscf": laws.USCF_INSUFFICIENT}


def test_the_page_gets_each_rule_as_a_sentence_names_it() -> None:
    """The page adds no article to a rule's name: the referee sends "the fifty-move rule"."""
    sent = laws_sent()
    in_sentence = sent["rule_in_sentence"]
    assert set(in_sentence) == set(sent["rule_name"])
    assert (
        in_sentence["fifty_moves"] == "the fifty-move rule"
        and in_sentence["threefold_repetition"] == "threefold repetition"
    )
    assert all(laws.rule_in_sentence(rule) == words for rule, words in in_sentence.items())
