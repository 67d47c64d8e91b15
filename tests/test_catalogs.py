"""The referee's sentences in every shipped language: the catalogs are whole
and current (every message translated, the placeholders kept, nothing the
sources say missing, each .mo its .po compiled), plurals take the forms of
Russian and Polish, English stays the message ids byte for byte, and the
codes, tags and the PGN Termination word stay English in every language
(the library, the CLI and the page's bridge)."""

from __future__ import annotations

import functools
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import chess
import pytest

from pychessdraw import Game, i18n
from pychessdraw.errors import BadFenError, BadRequestError
from pychessdraw.web import present
from pychessdraw.web.bridge import Bridge

ROOT = Path(__file__).resolve().parents[1]
FOOLS_MATE = ("f3", "e5", "g4", "Qh4")
REPEATED = ("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")  # Ng8 repeats the start a third time


@functools.cache
def catalogs() -> ModuleType:
    """docs/catalogs.py (Babel: the test extra)."""
    if importlib.util.find_spec("babel") is None:
        pytest.skip("Babel is not installed: pip install -e '.[test]'")
    spec = importlib.util.spec_from_file_location("pychessdraw_catalogs", ROOT / "docs" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def played(*moves: str) -> Game:
    game = Game()
    for move in moves:
        game.play(move)
    return game


def test_the_catalogs_are_whole_and_current() -> None:
    """Every message of the sources is in the template and every catalog,
    translated, with its placeholders, in the language's plural forms, and
    each .mo is its .po compiled (else: make catalogs, then translate)."""
    assert catalogs().problems() == []


def test_the_check_catches_a_dropped_placeholder_a_missing_translation_and_a_stale_catalog() -> None:
    cat = catalogs()
    german = cat.read("de")
    wanted = {cat.message_ids(m.id) for m in cat.template() if m.id}
    assert cat.catalog_problems("de", german, wanted) == []
    german["{side} wins"].string = "Sieg"  # the placeholder dropped
    german["{side} resigns"].string = "{side} gibt {extra} auf"  # one added
    german["Draw"].string = ""
    del german["{side}'s claim refused"]
    found = "\n".join(cat.catalog_problems("de", german, wanted))
    assert "'{side} wins': placeholders [] instead of ['side']" in found
    assert "'{side} resigns': placeholders ['extra', 'side'] instead of ['side']" in found
    assert "'Draw': no translation" in found
    assert 'missing "{side}\'s claim refused"' in found
    assert cat.catalog_problems("de", german, wanted | {("A new sentence",)}) != []


def test_the_template_holds_what_the_sources_mark() -> None:
    ids = {catalogs().message_ids(m.id)[0] for m in catalogs().template() if m.id}
    for sentence in ("{side} may claim a draw now: {rule} (FIDE {article})", "threefold repetition", "White", "king"):
        assert sentence in ids


def test_every_shipped_language_loads_with_the_standard_library_alone() -> None:
    for code in i18n.LANGUAGES:
        with i18n.language(code):
            assert i18n.current() == code
            white = i18n.gettext("White")
        assert (white == "White") == (code == "en"), code
    assert i18n.current() == "en"


@pytest.mark.parametrize(
    ("language", "plies", "words"),
    [
        ("ru", 1, "1 полуход без"),
        ("ru", 2, "2 полухода без"),
        ("ru", 5, "5 полуходов без"),
        ("ru", 11, "11 полуходов без"),
        ("ru", 21, "21 полуход без"),
        ("ru", 22, "22 полухода без"),
        ("pl", 1, "1 półruch bez"),
        ("pl", 3, "3 półruchy bez"),
        ("pl", 5, "5 półruchów bez"),
        ("pl", 12, "12 półruchów bez"),
        ("pl", 21, "21 półruchów bez"),
        ("pl", 24, "24 półruchy bez"),
        ("de", 1, "1 Halbzug ohne"),
        ("de", 2, "2 Halbzüge ohne"),
        ("fr", 0, "0 demi-coup sans"),
        ("fr", 2, "2 demi-coups sans"),
        ("en", 1, "1 ply without"),
        ("en", 2, "2 plies without"),
    ],
)
def test_plural_forms_follow_the_language(language: str, plies: int, words: str) -> None:
    with i18n.language(language):
        assert present.halfmove(plies)["text"].startswith(words)


def test_english_is_the_message_ids_byte_for_byte() -> None:
    game = played(*REPEATED)
    facts = present.facts(game, game.status(legal_moves=True), label=str)
    assert facts["claims"][0]["text"] == "Ng8 lets Black claim a draw by threefold repetition (FIDE 9.2.1.1)"
    assert facts["repetition"]["text"] == (
        "2 occurrences of this position so far (3 allow a claim, FIDE 9.2; 5 end the game, FIDE 9.6.1)"
    )
    assert facts["turn_text"] == "Black to move" and facts["claims_text"] == "Black may claim a draw:"
    assert present.halfmove(150)["auto_text"] == "75-move rule: 150 of 150 plies (reached: game over) (FIDE 9.6.2)"


def test_the_facts_in_german_keep_codes_san_and_articles() -> None:
    game = played(*REPEATED)
    status = game.status(legal_moves=True)
    english = present.facts(game, status, label=str)
    german = present.facts(game, status, label=str, language="de")
    claim = german["claims"][0]
    assert claim["text"] == "Ng8 erlaubt Schwarz, Remis zu reklamieren: dreifache Stellungswiederholung (FIDE 9.2.1.1)"
    assert claim["rule"] == "threefold_repetition" and claim["article"] == "9.2.1.1"
    assert (
        claim["moves"][0]["san"] == "Ng8"
        and german["turn"] == "black"
        and german["legal_moves"] == english["legal_moves"]
    )
    assert german["turn_text"] == "Schwarz am Zug"
    assert i18n.current() == "en"  # the language= of one call does not stay


def test_a_claim_verdict_is_made_in_the_current_language() -> None:
    game = played(*REPEATED)
    with i18n.language("fr"):
        result = game.claim_draw("Ng8")
    assert result.accepted and result.reason.startswith("Réclamation de nulle justifiée")
    assert result.to_dict()["rule"] == "threefold_repetition"


def test_the_outcome_is_translated_but_the_pgn_record_stays_english() -> None:
    from pychessdraw import pgn

    game = played(*FOOLS_MATE)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.reason(language="ru") == "Мат" and outcome.reason() == "Checkmate"
    assert outcome.to_dict(language="de")["reason"] == "Schachmatt"
    with i18n.language("de"):
        text = pgn.export(game)
        assert outcome.words() == "Black wins by checkmate (FIDE 5.1.1)"
    assert '[TerminationDetails "Checkmate (FIDE 5.1.1)"]' in text and '[Termination "normal"]' in text


def test_the_bridge_answers_in_the_pages_language_and_keeps_pgn_english() -> None:
    bridge = Bridge()
    for move in FOOLS_MATE[:-1]:
        assert bridge.call({"op": "play", "args": {"move": move}})["ok"]
    english = bridge.call({"op": "state"})
    german = bridge.call({"op": "set_language", "args": {"language": "de-DE"}})
    assert german["ok"] and german["facts"]["turn_text"] == "Schwarz am Zug"
    mated = bridge.call({"op": "play", "args": {"move": "Qh4"}})
    assert mated["facts"]["outcome"]["reason"] == "Schachmatt"
    assert mated["facts"]["outcome"]["termination"] == "checkmate" and mated["facts"]["outcome"]["result"] == "0-1"
    after = bridge.call({"op": "play", "args": {"move": "e4"}})
    assert (
        after["error"]["code"] == "game_over"
        and after["error"]["message"] == "die Partie ist beendet: Schachmatt (0-1)"
    )
    exported = bridge.call({"op": "export_pgn"})["pgn"]
    assert '[Termination "normal"]' in exported and "Schachmatt" not in exported
    assert "{ Black wins by checkmate (FIDE 5.1.1) }" in exported
    refused = bridge.call({"op": "set_language", "args": {"language": "tlh"}})
    assert not refused["ok"] and refused["error"]["code"] == "bad_request"
    assert "language must be one of en, de, fr" in refused["error"]["message"]
    bridge.call({"op": "undo"})
    back = bridge.call({"op": "set_language", "args": {"language": "en"}})
    assert back["facts"] == english["facts"]


def test_language_names_are_read_as_browsers_send_them() -> None:
    assert [i18n.check_language(t) for t in ("de-DE", "pt_BR", "FR", " ru ")] == ["de", "pt", "fr", "ru"]
    for bad in ("", "xx", "english", None, 7):
        with pytest.raises(BadRequestError, match="language must be one of"):
            i18n.check_language(bad)


def test_numbers_are_grouped_as_the_language_writes_them() -> None:
    assert (i18n.number(12345), i18n.number(4_000_000), i18n.number(999)) == ("12,345", "4,000,000", "999")
    with i18n.language("de"):
        assert (i18n.number(12345), i18n.number(9999)) == ("12.345", "9.999")
    with i18n.language("fr"):
        assert i18n.number(1234567) == "1\u202f234\u202f567"
    with i18n.language("pl"):
        assert (i18n.number(9999), i18n.number(12345)) == ("9999", "12\u00a0345")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pychessdraw", *args], capture_output=True, text=True, cwd=ROOT, timeout=120
    )


def test_the_cli_says_its_sentences_in_german_and_keeps_the_json_codes_english() -> None:
    german = run("status", "--lang", "de", *FOOLS_MATE)
    english = run("status", *FOOLS_MATE)
    assert german.returncode == english.returncode == 0, german.stderr + english.stderr
    de, en = json.loads(german.stdout), json.loads(english.stdout)
    assert de["outcome"]["reason"] == "Schachmatt" and en["outcome"]["reason"] == "Checkmate"
    assert de["outcome"]["termination"] == en["outcome"]["termination"] == "checkmate"
    assert {k: v for k, v in de.items() if k != "outcome"} == {k: v for k, v in en.items() if k != "outcome"}


def test_the_cli_refuses_an_unknown_language_and_names_the_shipped_ones() -> None:
    done = run("status", "--lang", "tlh", "e4")
    assert done.returncode == 2 and done.stdout == ""
    assert "language must be one of en, de, fr, es, ru, it, pt, nl, pl" in done.stderr


def test_russian_names_the_sides_and_the_pieces() -> None:
    with i18n.language("ru"):
        words = present.describe(chess.Board())
    assert words.startswith("Ходят Белые.") and "ладьи a1, h1" in words and "король e8" in words


def test_a_refused_move_is_told_in_the_pages_language_with_its_code_and_fields() -> None:
    bridge = Bridge()
    bridge.call({"op": "set_language", "args": {"language": "de"}})
    refused = bridge.call({"op": "play", "args": {"move": "e5"}})
    assert not refused["ok"] and refused["error"]["code"] == "illegal_move"
    assert refused["error"]["message"] == "1.e5 ist hier nicht legal"
    assert refused["error"]["move_label"] == "1.e5" and refused["error"]["token"] == "e5"


def test_the_review_table_speaks_the_language() -> None:
    from pychessdraw.web import review

    event = {"ply": 10, "kind": "claimable", "rule": "threefold_repetition"}
    assert review.event_row(event)["label"] == "White could claim threefold repetition after Black's move 5"
    with i18n.language("de"):
        row = review.event_row(event)
        undecided = review.detail_of({"verdict": "undecided", "events": []})
    assert row["label"] == "Weiß konnte Remis reklamieren (dreifache Stellungswiederholung) nach Zug 5 von Schwarz"
    assert row["rule"] == "threefold_repetition" and row["kind"] == "claimable"
    assert undecided.startswith("im Suchbudget nicht entschieden")
    with i18n.language("pl"):
        assert [review.detail_of({"verdict": "ok", "events": [event] * n}) for n in (1, 2, 5)] == [
            "1 zdarzenie",
            "2 zdarzenia",
            "5 zdarzeń",
        ]


def test_a_bad_fen_is_told_in_the_language_and_its_field_stays_the_english_name() -> None:
    with i18n.language("de"), pytest.raises(BadFenError) as caught:
        Game("8/8/8/8/8/8/8/8 w - - 0 1")
    error = caught.value.to_dict()
    assert error["code"] == "bad_fen" and error["field"] == "piece placement"
    assert (
        error["message"]
        == "unmögliche Stellung: Weiß hat keinen König (Figurenstellung); Schwarz hat keinen König (Figurenstellung)"
    )
    with (
        i18n.language("ru"),
        pytest.raises(ValueError, match=r"расстановка фигур: горизонталь 6 \('44'\) содержит две цифры подряд"),
    ):
        Game("rnbqkbnr/pppppppp/44/8/8/8/8/8 w - - 0 1")


def test_a_catalog_not_yet_unpacked_is_asked_for_through_the_import_system(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page restored from a snapshot unpacks the package's files at the
    first import lookup (web/snapshot_files.py): the catalog's first read
    makes one, so that a language chosen before any other import still works."""
    real = i18n.LOCALE_DIR / "nl" / "LC_MESSAGES" / "pychessdraw.mo"
    lookups = []

    class Unpacker:
        def find_spec(self, name: str, path: object = None, target: object = None) -> None:
            lookups.append(name)
            (tmp_path / "nl" / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
            (tmp_path / "nl" / "LC_MESSAGES" / "pychessdraw.mo").write_bytes(real.read_bytes())

    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(sys, "meta_path", [Unpacker(), *sys.meta_path])
    i18n._catalog.cache_clear()
    try:
        with i18n.language("nl"):
            assert i18n.gettext("White") == "Wit"
    finally:
        i18n._catalog.cache_clear()
    assert lookups == ["pychessdraw_catalog_files"]


def test_scan_reports_keep_their_codes_and_say_the_reason_in_the_language(tmp_path: Path) -> None:
    games = tmp_path / "games.pgn"
    games.write_text('[Event "x"]\n[Result "1-0"]\n\n1. e4 e5 2. Ke3 1-0\n')
    done = run("scan", "--lang", "ru", str(games))
    report = json.loads(done.stdout.splitlines()[0])
    assert done.returncode == 1 and report["verdict"] == "error"
    assert report["error"]["code"] == "illegal_move" and report["error"]["token"] == "Ke3"
    assert report["error"]["reason"] == "2.Ke3 здесь невозможен"


def test_the_clis_own_lines_on_standard_error_follow_the_language(tmp_path: Path) -> None:
    lost = tmp_path / "lost.pgn"
    lost.write_text(
        '[Event "x"]\n[Result "0-1"]\n[Termination "time forfeit"]\n[SetUp "1"]\n'
        '[FEN "4k3/8/8/8/8/8/8/4KR2 w - - 0 1"]\n\n1. Rf2 Kd8 0-1\n'
    )
    german, english = run("scan", "--lang", "de", str(lost)), run("scan", str(lost))
    assert german.stdout == english.stdout  # the reports: codes and numbers only here
    assert (
        german.stderr == "pychessdraw: 1 durch Zeitüberschreitung verlorene Partie hätte remis sein müssen (fide): 1\n"
    )
    assert english.stderr == "pychessdraw: 1 game(s) lost on time should have been draws (fide): 1\n"
    empty = tmp_path / "empty.pgn"
    empty.write_text("")
    done = run("scan", "--lang", "pl", str(empty))
    assert done.returncode == 1 and done.stderr == f"pychessdraw: file_error: brak partii PGN w {str(empty)!r}\n"


def test_the_page_is_sent_every_language_by_its_own_name_and_each_is_accepted() -> None:
    from pychessdraw.web.contract import sent_facts

    languages = sent_facts()["LANGUAGES"]
    assert isinstance(languages, dict) and list(languages) == list(i18n.LANGUAGES)
    assert languages["ru"] == "Русский" and languages["en"] == "English"
    bridge = Bridge()
    for code in languages:
        reply = bridge.call({"op": "set_language", "args": {"language": code}})
        assert reply["ok"] and reply["facts"]["turn"] == "white", code


# ------------------------------------------------------------------ the page's own words
WEB_SRC = ROOT / "web" / "src"
# a call of the page's markers with its message as a string literal ('...', "..." or `...` without ${})
_CALL = re.compile(r"""\b(t|tn|tText|tAttr)\(""")
_LITERAL = re.compile(r"""\s*(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\$]|\\.)*)`)""")
# the modules that define the markers pass their message on as a variable
_DEFINERS = {"i18n.js", "ui/language.js"}


def _page_calls() -> tuple[set[str], list[str]]:
    """The message ids of every t()/tn()/tText()/tAttr() in web/src, read
    here independently of Babel, and the calls whose message is not a literal."""
    found: set[str] = set()
    not_literal: list[str] = []
    for path in sorted(WEB_SRC.rglob("*.js")):
        rel = path.relative_to(WEB_SRC).as_posix()
        text = path.read_text(encoding="utf-8")
        code = re.sub(r"(?:^|(?<=\s))//[^\n]*|/\*.*?\*/", "", text, flags=re.S | re.M)  # comments name the markers too
        for call in _CALL.finditer(code):
            at = call.end()
            if call.group(1) == "tAttr":  # tAttr(element, "name", "message")
                depth, i = 0, at
                commas = 0
                while i < len(code) and commas < 2:
                    c = code[i]
                    depth += c in "([{"
                    depth -= c in ")]}"
                    if depth < 0:
                        break
                    commas += c == "," and depth == 0
                    i += 1
                at = i
            m = _LITERAL.match(code, at)
            if not m:
                if rel not in _DEFINERS and not code[call.start() - 8 : call.start()].rstrip().endswith("function"):
                    not_literal.append(f"{rel}: {code[call.start() : call.start() + 40]!r}")
                continue
            found.add(
                next(g for g in m.groups() if g is not None)
                .encode()
                .decode("unicode_escape")
                .encode("latin-1")
                .decode()
            )
    return found, not_literal


def test_every_message_of_the_pages_code_is_in_the_page_catalog() -> None:
    """Each t()/tn() message of web/src (found by a reading of the sources
    apart from Babel's) is in the template and translated in every language;
    a call whose message is not a literal string would never reach a catalog."""
    cat = catalogs()
    found, not_literal = _page_calls()
    assert not_literal == []
    assert len(found) > 100
    pot = {cat.message_ids(m.id)[0] for m in cat.template("page") if m.id}
    assert found - pot == set()
    for language in cat.languages():
        translated = {
            cat.message_ids(m.id)[0] for m in cat.read(language, "page") if m.id and all(cat.message_ids(m.string))
        }
        assert found - translated == set(), language


def test_the_markups_words_are_in_the_page_catalog() -> None:
    cat = catalogs()
    html = (WEB_SRC / "index.html").read_text(encoding="utf-8")
    marked = cat.MarkedWords(html)
    assert marked.problems == []
    pot = {cat.message_ids(m.id)[0] for m in cat.template("page") if m.id}
    for words in (
        "Claim a draw with this move",
        "Draw rules",
        "Chess board",
        "Language",
        "pychessdraw: chess draw referee",
    ):
        assert words in marked.found and words in pot
    assert 'data-testid="language"' in html
    bad = cat.MarkedWords('<p data-i18n>two <b>parts</b></p><i data-i18n-attr="title">x</i>')
    assert len(bad.problems) == 2


def test_the_page_check_catches_a_dropped_placeholder_a_missing_translation_and_a_stale_catalog() -> None:
    cat = catalogs()
    german = cat.read("de", "page")
    wanted = {cat.message_ids(m.id) for m in cat.template("page") if m.id}
    assert cat.catalog_problems("de", german, wanted) == []
    german["Waiting for the referee: {moves}"].string = "Warten auf den Schiedsrichter"  # dropped
    german["Viewing {where} (End returns)"].string = "Ansicht: {where} {ply}"  # added
    german["Undo"].string = ""
    del german["Flip"]
    russian = cat.read("ru", "page")
    plural = russian[("{n} ply toward the fifty-move rule.", "{n} plies toward the fifty-move rule.")]
    plural.string = plural.string[:2]  # Russian needs three forms
    found = "\n".join(cat.catalog_problems("de", german, wanted) + cat.catalog_problems("ru", russian, wanted))
    assert "'Waiting for the referee: {moves}': placeholders [] instead of ['moves']" in found
    assert "'Viewing {where} (End returns)': placeholders ['ply', 'where'] instead of ['where']" in found
    assert "'Undo': no translation" in found
    assert "missing 'Flip'" in found
    assert "2 plural forms, the language has 3" in found


def test_the_page_catalogs_are_built_with_each_languages_plural_rule(tmp_path: Path) -> None:
    """web/build_i18n.py: one JSON catalog a language, the plural forms as a
    list, the Plural-Forms expression one web/src/ui/language.js knows."""
    sys.path.insert(0, str(ROOT / "web"))
    try:
        import build_i18n
    finally:
        sys.path.remove(str(ROOT / "web"))
    build_i18n.write_catalogs(tmp_path)
    known = build_i18n.known_plurals()
    assert len(known) == 4
    for code in i18n.LANGUAGES[1:]:
        cat = json.loads((tmp_path / "i18n" / f"{code}.json").read_text(encoding="utf-8"))
        assert cat["plural"] in known
        forms = cat["messages"]["{n} ply toward the fifty-move rule."]
        assert len(forms) == (3 if code in ("ru", "pl") else 2)
    assert not (tmp_path / "i18n" / "en.json").exists()
    german = json.loads((tmp_path / "i18n" / "de.json").read_text(encoding="utf-8"))
    assert german["messages"]["Claim a draw with this move"] == "Mit diesem Zug Remis reklamieren"
