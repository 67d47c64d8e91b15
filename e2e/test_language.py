"""The page in the browser's language: a page opened with the browser's
locale set to German, French, Spanish or Russian starts in that language,
announces a threefold claim with its intended move and a dead position in
it (no English words of the catalogs in the panel), and its picker switches
to English and back without losing the game. One page per locale, a short game."""

from __future__ import annotations

import gettext
import re
from functools import cache
from pathlib import Path

import pytest
from conftest import fresh_app
from playwright.sync_api import expect

LOCALE = Path(__file__).resolve().parents[1] / "pychessdraw" / "locale"
REPEATED = ("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")  # Ng8 then repeats the start a third time
DEAD = "4k3/8/8/p2p2p1/P2P2P1/8/8/4K3 w - - 0 1"  # blocked pawns: no checkmate for either side
TYPED = "Write the move in the move box, then claim with it (FIDE {threefold_with_move}, {fifty_with_move})"
TYPED_ARTICLES = {"threefold_with_move": "9.2.1.1", "fifty_with_move": "9.3.1"}  # the claims with a written move


@cache
def translations(code: str, domain: str) -> gettext.GNUTranslations:
    with (LOCALE / code / "LC_MESSAGES" / f"{domain}.mo").open("rb") as f:
        return gettext.GNUTranslations(f)


def say(code: str, domain: str, msgid: str) -> str:
    return translations(code, domain).gettext(msgid)


@cache
def english_fragments(code: str) -> tuple[str, ...]:
    """Stretches of English words of both catalogs (between placeholders, at
    least 8 characters and two words) that the language's translation does not keep."""
    return fragments(code, english=True)


def fragments(code: str, *, english: bool) -> tuple[str, ...]:
    """Stretches (between placeholders, at least 8 characters and two words)
    of the English message ids, or of the translations, that the other side
    of the same message does not write."""
    out = set()
    for domain in ("pychessdraw", "page"):
        for key, text in translations(code, domain)._catalog.items():  # noqa: SLF001
            msgid = key[0] if isinstance(key, tuple) else key
            if not msgid:
                continue
            whole, other = (msgid, text) if english else (text, msgid)
            for part in re.split(r"\{\w*\}", whole):
                part = part.strip(" .,:;()")
                if len(part) >= 8 and " " in part and part not in other:
                    out.add(part)
    return tuple(sorted(out))


def english_on(text: str, code: str) -> list[str]:
    return [f for f in english_fragments(code) if f in text]


@pytest.mark.parametrize("locale", ["de-DE", "fr-FR", "es-ES", "ru-RU"])
def test_the_page_speaks_the_browsers_language_and_switches_without_losing_the_game(browser, base_url, locale):
    code = locale[:2]
    ctx, app = fresh_app(browser, base_url, locale=locale, viewport={"width": 1280, "height": 900})
    try:
        page = app.page
        page.wait_for_function(f"() => document.documentElement.lang === '{code}'")
        assert app.tid("language").input_value() == code
        expect(app.tid("view-play")).to_have_text(say(code, "page", "Play"))
        expect(app.tid("claim-typed")).to_have_text(say(code, "page", "Claim with typed move"))
        # the markup's articles, filled from the laws the referee sends, in the language's words
        expect(app.tid("claim-typed")).to_have_attribute("title", say(code, "page", TYPED).format(**TYPED_ARTICLES))
        assert "(FIDE 5.2.2, 6.9)" in (page.locator("#dp-mat-title").text_content() or "")

        # a dead position, in the language (FIDE 5.2.2)
        app.set_fen(DEAD)
        assert app.tid("result").get_attribute("data-termination") == "dead_position"
        dead = say(code, "pychessdraw", "dead position").lower()
        assert dead in app.text("dead-line").lower()
        shown = app.text("draw-panel") + "\n" + app.text("result")
        assert english_on(shown, code) == [], shown

        # a threefold claim with its intended move (FIDE 9.2.1.1)
        app.new_game()
        for move in REPEATED:
            app.type_move(move)
        app.tid("move-input").fill("Ng8")
        app.click("claim-typed")
        assert app.tid("result").get_attribute("data-termination") == "threefold_repetition"
        threefold = say(code, "pychessdraw", "threefold repetition").lower()
        shown = app.text("result") + "\n" + app.text("draw-panel")
        assert threefold in shown.lower(), shown
        assert english_on(shown, code) == [], shown
        moves = app.sans()
        assert moves[-1] == "Ng8"

        # English and back: the same game, no reload
        page.evaluate("() => { window.__sameDocument = true; }")
        app.acting(lambda: app.tid("language").select_option("en"))
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(app.tid("view-play")).to_have_text("Play")
        # the game is over: the reason, then the button's own words with their articles
        expect(app.tid("claim-typed")).to_have_attribute(
            "title", re.compile(re.escape(f"({TYPED.format(**TYPED_ARTICLES)})"))
        )
        assert "threefold repetition" in app.text("result").lower()
        assert app.sans() == moves and app.tid("result").get_attribute("data-termination") == "threefold_repetition"
        app.acting(lambda: app.tid("language").select_option(code))
        expect(page.locator("html")).to_have_attribute("lang", code)
        assert threefold in app.text("result").lower()
        assert app.sans() == moves
        assert page.evaluate("() => window.__sameDocument === true")
        assert page.evaluate("() => localStorage.getItem('pychessdraw.language')") == code
        assert page.evaluate("() => document.documentElement.dir") == "ltr"
    finally:
        ctx.close()


# ------------------------------------------------------------------ no English left on screen
REVIEWED = (
    '[Event "x"]\n[White "P"]\n[Black "Q"]\n[Result "1-0"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1-0\n\n'
    '[Event "x"]\n[White "R"]\n[Black "S"]\n[Result "0-1"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"]\n'
    '[Termination "time forfeit"]\n\n1. Kd2 Kd7 0-1\n'
)
FOLLOWED = '[White "P"]\n[Black "Q"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *\n'


def on_screen(page) -> str:
    """Every word a person sees: the rendered text, and the titles and labels of what is shown."""
    return page.evaluate(
        """() => document.body.innerText + "\\n" + [...document.querySelectorAll("[title], [aria-label]")]
            .filter((e) => e.checkVisibility && e.checkVisibility())
            .map((e) => `${e.getAttribute("title") || ""} ${e.getAttribute("aria-label") || ""}`).join("\\n")"""
    )


@cache
def english_words(code: str) -> frozenset[str]:
    """The English words (four letters or more) of both catalogs' message ids
    that no translation of the language uses anywhere (a word both languages
    write, such as "Start" or "Material", is not one)."""
    return words_only_in(code, english=True)


def words_only_in(code: str, *, english: bool) -> frozenset[str]:
    """The words (four letters or more) of the message ids, or of the
    translations, that the other side never writes in any message."""
    own, other = set(), set()
    letters = r"[A-Za-z]{4,}" if english else r"[^\W\d_]{4,}"
    for domain in ("pychessdraw", "page"):
        for key, text in translations(code, domain)._catalog.items():  # noqa: SLF001
            msgid = key[0] if isinstance(key, tuple) else key
            mine, theirs = (msgid, text) if english else (text, msgid)
            own |= set(re.findall(letters, re.sub(r"\{\w*\}", " ", mine)))
            other |= {w.lower() for w in re.findall(r"\w+", theirs)}
    return frozenset(w for w in own if w.lower() not in other)


def no_english(page, code: str, where: str) -> None:
    shown = on_screen(page)
    assert english_on(shown, code) == [], f"{where}: {english_on(shown, code)}\n{shown}"
    words = sorted({w for w in re.findall(r"[A-Za-z]{4,}", shown) if w in english_words(code)})
    assert words == [], f"{where}: English words {words}\n{shown}"


@pytest.mark.parametrize("locale", ["de-DE", "ru-RU"])
def test_no_english_words_of_the_catalogs_on_screen_in_every_flow(browser, base_url, tmp_path, locale):
    """A game with a claim, a flag fall, a review (a file, a game opened)
    and an arbiter round (pasted text): after each, no stretch of English of
    either catalog is on screen, in the text, the titles or the labels."""
    from viewkit import open_view, type_time_control

    code = locale[:2]
    ctx, app = fresh_app(browser, base_url, locale=locale, viewport={"width": 1280, "height": 900})
    try:
        page = app.page
        page.wait_for_function(f"() => document.documentElement.lang === '{code}'")
        no_english(page, code, "start")

        for move in REPEATED:  # a claim with its intended move
            app.type_move(move)
        app.tid("move-input").fill("Ng8")
        app.click("claim-typed")
        assert app.tid("result").get_attribute("data-termination") == "threefold_repetition"
        no_english(page, code, "claim")

        app.new_game()  # a flag fall (0.05+0: three seconds)
        type_time_control(page, "0.05+0")
        app.click_move("e2", "e4")
        expect(app.tid("result")).to_have_attribute("data-termination", "time_forfeit", timeout=15_000)
        app.wait_seq(-1)
        no_english(page, code, "flag fall")
        type_time_control(page, "untimed")

        games = tmp_path / "round.pgn"  # a review: the file, then a game opened
        games.write_text(REVIEWED, encoding="utf-8")
        open_view(page, "review")
        app.tid("pgn-file").set_input_files(str(games))
        expect(app.tid("review-progress")).to_have_attribute("data-state", "done", timeout=120_000)
        no_english(page, code, "review")
        page.locator("[data-testid=review-games] tr[data-game='2'] button").click()
        expect(app.tid("review-stage")).to_have_attribute("data-state", "open", timeout=30_000)
        no_english(page, code, "review game")

        open_view(page, "arbiter")  # an arbiter round, pasted
        page.get_by_test_id("arbiter-source").fill(FOLLOWED)
        page.get_by_test_id("arbiter-follow").click()
        board = page.locator("[data-testid=arbiter-board]")
        expect(board).to_have_attribute("data-state", "claimable_with_move", timeout=120_000)
        expect(page.locator("[data-testid=arbiter-event]").first).to_be_visible()
        no_english(page, code, "arbiter")

        open_view(page, "play")  # the check sees what it should: the same page in English fails it
        app.acting(lambda: app.tid("language").select_option("en"))
        shown = on_screen(page)
        assert len(english_on(shown, code)) > 5, shown
        assert {"Draw", "Review", "Undo"} <= {w for w in re.findall(r"[A-Za-z]{4,}", shown) if w in english_words(code)}
    finally:
        ctx.close()


# ------------------------------------------------------------------ the workers' words after a switch
@cache
def translated_fragments(code: str) -> tuple[str, ...]:
    """Stretches of the language's translations (between placeholders, at
    least 8 characters and two words) that English does not write."""
    return fragments(code, english=False)


@cache
def translated_words(code: str) -> frozenset[str]:
    """The words (four letters or more) of the language's translations that no English message id uses."""
    return words_only_in(code, english=False)


def shown_in(page, testids: tuple[str, ...]) -> str:
    """The words of these parts of the page, with their titles and labels."""
    return page.evaluate(
        """(ids) => ids.flatMap((id) => [...document.querySelectorAll(`[data-testid=${id}]`)]).map((root) =>
            root.innerText + "\\n" + [root, ...root.querySelectorAll("[title], [aria-label]")]
              .map((e) => `${e.getAttribute("title") || ""} ${e.getAttribute("aria-label") || ""}`).join("\\n")).join("\\n")""",
        list(testids),
    )


def foreign_left(page, code: str, testids: tuple[str, ...]) -> list[str]:
    """The language's catalog words still in these parts (the page meant to be in English)."""
    shown = shown_in(page, testids)
    words = {w for w in re.findall(r"[^\W\d_]{4,}", shown) if w in translated_words(code)}
    return [f for f in translated_fragments(code) if f in shown] + sorted(words)


def english_left(page, code: str, testids: tuple[str, ...]) -> list[str]:
    shown = shown_in(page, testids)
    words = {w for w in re.findall(r"[A-Za-z]{4,}", shown) if w in english_words(code)}
    return english_on(shown, code) + sorted(words)


def settles(check, timeout_s: float = 60.0) -> list[str]:
    """The check's findings once they are none (the workers' words come after the switch), or the last ones."""
    import time

    end = time.monotonic() + timeout_s
    while True:
        left = check()
        if not left or time.monotonic() > end:
            return left
        time.sleep(0.2)


REVIEW_PARTS = ("review-games", "review-summary", "review-stage", "review-timeline")
ARBITER_PARTS = ("arbiter-grid", "arbiter-log", "arbiter-urgent", "arbiter-summary")


def test_a_switch_says_the_review_and_the_arbiter_again_keeping_what_is_open(browser, base_url, tmp_path):
    """German, a reviewed file with a game opened at a ply and a followed
    round; English: no German of the catalogs is left in the table, the
    opened game, the cards or the log; German again: no English. The opened
    game, its ply, the boards and the log (its rows, their order and times)
    stay as they were through both switches."""
    from viewkit import open_view

    code = "de"
    ctx, app = fresh_app(browser, base_url, locale="de-DE", viewport={"width": 1280, "height": 900})
    try:
        page = app.page
        page.wait_for_function("() => document.documentElement.lang === 'de'")
        games = tmp_path / "round.pgn"
        games.write_text(REVIEWED, encoding="utf-8")
        open_view(page, "review")
        app.tid("pgn-file").set_input_files(str(games))
        expect(app.tid("review-progress")).to_have_attribute("data-state", "done", timeout=120_000)
        page.locator("[data-testid=review-games] tr[data-game='1'] button").click()
        stage = app.tid("review-stage")
        expect(stage).to_have_attribute("data-state", "open", timeout=30_000)
        page.locator("[data-testid=review-moves] button[data-ply='6']").click()
        expect(stage).to_have_attribute("data-ply", "6")
        assert english_left(page, code, REVIEW_PARTS) == []
        german_events = app.text("review-timeline")
        assert "reklamieren" in german_events, german_events

        open_view(page, "arbiter")
        page.get_by_test_id("arbiter-source").fill(FOLLOWED)
        page.get_by_test_id("arbiter-follow").click()
        expect(page.locator("[data-testid=arbiter-board]")).to_have_attribute(
            "data-state", "claimable_with_move", timeout=120_000
        )
        rows = page.locator("[data-testid=arbiter-event]")
        expect(rows.first).to_be_visible()
        log = lambda: rows.evaluate_all(  # noqa: E731
            "rs => rs.map((r) => [r.dataset.id, r.dataset.kind, r.querySelector('time').textContent])"
        )
        before = log()
        assert english_left(page, code, ARBITER_PARTS) == []

        for shown, there in (
            ("en", lambda: foreign_left(page, code, ARBITER_PARTS)),
            (code, lambda: english_left(page, code, ARBITER_PARTS)),
        ):
            app.tid("language").select_option(shown)
            expect(page.locator("html")).to_have_attribute("lang", shown)
            assert settles(there) == [], shown_in(page, ARBITER_PARTS)
            whole = on_screen(page)  # the view's own words too (its messages, the controls)
            left = [f for f in translated_fragments(code) if f in whole] if shown == "en" else english_on(whole, code)
            assert left == [], whole
            assert log() == before
            assert page.locator("[data-testid=arbiter-board]").get_attribute("data-state") == "claimable_with_move"
            open_view(page, "review")
            review_left = (
                (lambda: foreign_left(page, code, REVIEW_PARTS))
                if shown == "en"
                else (lambda: english_left(page, code, REVIEW_PARTS))
            )
            assert settles(review_left) == [], shown_in(page, REVIEW_PARTS)
            whole = on_screen(page)  # the view's own words too (the run's sentence, the filters, the headings)
            left = [f for f in translated_fragments(code) if f in whole] if shown == "en" else english_on(whole, code)
            assert left == [], whole
            assert stage.get_attribute("data-state") == "open" and stage.get_attribute("data-game") == "1"
            assert stage.get_attribute("data-ply") == "6"
            assert (
                page.locator("[data-testid=review-moves] button[data-ply='6']").get_attribute("aria-current") == "true"
            )
            assert page.locator("[data-testid=review-games] tr[data-game]").count() == 2
            open_view(page, "arbiter")
        assert "could claim" not in app.text("review-timeline") and "reklamieren" in shown_in(
            page, ("review-timeline",)
        )
    finally:
        ctx.close()


@pytest.mark.parametrize("locale", ["de-DE", "ru-RU"])
@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_the_review_verdicts_read_whole_in_a_longer_language(browser, base_url, tmp_path, locale, size):
    """German's and Russian's longer reasons wrap in the verdict's cell: none is cut (no ellipsis, nothing hidden)."""
    from test_review_file import MADE
    from viewkit import open_view

    width, height = size
    ctx, app = fresh_app(browser, base_url, locale=locale, viewport={"width": width, "height": height})
    try:
        page = app.page
        page.wait_for_function(f"() => document.documentElement.lang === '{locale[:2]}'")
        games = tmp_path / "made.pgn"
        games.write_text("\n".join(text for _, text in MADE) + "\n" + REVIEWED, encoding="utf-8")
        open_view(page, "review")
        app.tid("pgn-file").set_input_files(str(games))
        expect(app.tid("review-progress")).to_have_attribute("data-state", "done", timeout=240_000)
        cells = page.eval_on_selector_all(
            "[data-testid=review-games] td.verdict-cell",
            """tds => tds.map((td) => ({text: td.innerText, wraps: getComputedStyle(td).whiteSpace === "normal",
                cut: td.scrollWidth > td.clientWidth + 1 || td.scrollHeight > td.clientHeight + 1}))""",
        )
        assert len(cells) == len(MADE) + 2
        assert [c for c in cells if c["cut"] or not c["wraps"]] == [], cells
        assert max(len(c["text"]) for c in cells) > 80, "a long reason is among them"
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width, "the page does not scroll sideways"
    finally:
        ctx.close()


def whole_document(page) -> str:
    """Every word the page holds, shown or not (closed dialogs, settings,
    options), with every title, label and placeholder."""
    return page.evaluate(
        """() => document.body.textContent + "\\n" + [...document.querySelectorAll("[title], [aria-label], [placeholder]")]
            .map((e) => ["title", "aria-label", "placeholder"].map((a) => e.getAttribute(a) || "").join(" ")).join("\\n")"""
    )


def test_a_switch_leaves_no_word_of_the_other_language_anywhere_in_the_page(browser, base_url):
    """German with a game in progress (a claim on offer), then English: no
    German of the catalogs anywhere in the document, hidden parts included
    (what a player opens later: the settings, the dialogs, the sections made
    once when the page started); German again: no English words of the
    catalogs there either."""
    code = "de"
    ctx, app = fresh_app(browser, base_url, locale="de-DE", viewport={"width": 1280, "height": 900})
    try:
        page = app.page
        page.wait_for_function("() => document.documentElement.lang === 'de'")
        for move in REPEATED:
            app.type_move(move)
        # a started referee: no button still says it is waiting for it
        waiting = say(code, "page", "Waiting for the referee to start")
        assert waiting != "Waiting for the referee to start"
        assert waiting not in whole_document(page)

        def foreign() -> list[str]:
            text = whole_document(page)
            words = {w for w in re.findall(r"[^\W\d_]{4,}", text) if w in translated_words(code)}
            return [f for f in translated_fragments(code) if f in text] + sorted(words)

        app.acting(lambda: app.tid("language").select_option("en"))
        expect(page.locator("html")).to_have_attribute("lang", "en")
        left = settles(foreign)
        assert left == [], left

        def english() -> list[str]:
            text = whole_document(page)
            # whole words ("Frühere" holds no "here")
            return english_on(text, code) + sorted(
                {w for w in re.findall(r"[^\W\d_]{4,}", text) if w in english_words(code)}
            )

        app.acting(lambda: app.tid("language").select_option(code))
        expect(page.locator("html")).to_have_attribute("lang", code)
        left = settles(english, 20)
        assert left == [], left
    finally:
        ctx.close()
