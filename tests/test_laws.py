# SPDX-License-Identifier: GPL-3.0-or-later
"""The rules' names and citations, as every sentence of the page and the reports gives them."""

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
