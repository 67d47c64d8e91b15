"""The verdict word of a scanned game (shared by scan, the page's review and audit)."""

from typing import Any

import pytest

from pychessdraw.records import final_search
from pychessdraw.records.judge import VERDICTS, judge
from pychessdraw.records.scan import scan
from pychessdraw.rules import dead
from pychessdraw.rules.dead import SearchBudget


def _one(pgn: str) -> dict:
    return next(scan(pgn.splitlines(keepends=True)))


def test_ok_game() -> None:
    r = _one('[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n')
    assert (r["verdict"], r["expected_result"], r["ended_at"]) == ("ok", None, 7)


def test_move_after_mate_is_an_error() -> None:
    r = _one('[Result "0-1"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# Ke7 0-1\n')
    assert r["verdict"] == "error"  # no legal move exists after mate


def test_ended_earlier_by_fivefold() -> None:
    shuffle = " ".join(f"{2 * i + 1}. Nf3 Nf6 {2 * i + 2}. Ng1 Ng8" for i in range(5))
    r = _one(f'[Result "1-0"]\n\n{shuffle} 11. e4 1-0\n')
    assert r["verdict"] == "ended_earlier"
    assert r["expected_result"] == "1/2-1/2"
    assert r["ended_at"] == 16  # the fifth occurrence of the start position


def test_wrong_result_on_time() -> None:
    # Black lost on time, but a lone bishop cannot mate against a rook (FIDE 6.9).
    r = _one(
        '[FEN "4k3/8/8/8/8/8/r7/4KB2 w - - 0 1"]\n[SetUp "1"]\n[Result "1-0"]\n'
        '[Termination "time forfeit"]\n\n1. Bd3 Kd7 1-0\n'
    )
    assert (r["verdict"], r["expected_result"]) == ("wrong_result", "1/2-1/2")


def test_wrong_result_against_mate_on_board() -> None:
    r = _one('[Result "0-1"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1\n')
    assert (r["verdict"], r["expected_result"]) == ("wrong_result", "1-0")


def test_error_verdict() -> None:
    r = _one('[Result "*"]\n\n1. e4 e5 2. Qxz9 *\n')
    assert r["verdict"] == "error"


@pytest.mark.parametrize("fen_turn,ply,expected", [("w", 1, "1-0"), ("b", 1, "0-1"), ("w", 2, "0-1")])
def test_mate_result_follows_side_to_move(fen_turn: str, ply: int, expected: str) -> None:
    from pychessdraw.records.judge import _result_of

    fen = f"8/8/8/8/8/8/8/8 {fen_turn} - - 0 1"
    assert _result_of("checkmate", ply, {"headers": {"FEN": fen}}) == expected


# -- undecided: a result the referee could not judge within its budget --------

# White (K+R) against a lone knight: whether White can mate needs a search.
ROOK_V_KNIGHT = (
    '[FEN "4k3/8/8/8/8/8/n7/4K2R w - - 0 1"]\n[SetUp "1"]\n[Result "{result}"]\n{tags}\n1. Kd2 Kd7 {result}\n'
)
# White (K+R) against a bare king: Black cannot mate (material), White's mate needs a search.
ROOK_V_KING = '[FEN "4k3/8/8/8/8/8/8/4K2R w - - 0 1"]\n[SetUp "1"]\n[Result "{result}"]\n{tags}\n1. Kd2 Kd7 {result}\n'
ON_TIME = '[Termination "Time forfeit"]\n'


def _scanned(template: str, result: str, tags: str = "", **options: object) -> dict:
    text = template.format(result=result, tags=tags)
    return next(scan(text.splitlines(keepends=True), **options))  # type: ignore[arg-type]


def test_the_issues_flag_fall_is_a_wrong_result() -> None:
    # Two light bishops against a lone rook: no checkmate exists, so White's
    # flag fall is a draw (FIDE 6.9). The old referee left it open and said ok.
    r = _one(
        '[FEN "4K3/8/8/8/8/3b1b2/7k/5R2 w - - 0 1"]\n[SetUp "1"]\n[Result "0-1"]\n[Termination "Time forfeit"]\n\n0-1\n'
    )
    assert r["time_forfeit"]["opponent_winnable"] is False
    assert (r["verdict"], r["expected_result"]) == ("wrong_result", "1/2-1/2")


def test_a_loss_on_time_left_open_is_undecided_never_ok() -> None:
    r = _scanned(ROOK_V_KNIGHT, "1-0", ON_TIME, final_search=dead.STATIC)
    assert r["time_forfeit"]["opponent_winnable"] is None
    assert (r["verdict"], r["expected_result"], r["ended_at"]) == ("undecided", None, None)
    # The default (auto) search decides it: White can mate, the win stands.
    r = _scanned(ROOK_V_KNIGHT, "1-0", ON_TIME)
    assert r["time_forfeit"]["opponent_winnable"] is True and r["verdict"] == "ok"


def test_auto_search_that_runs_out_leaves_a_flag_fall_undecided(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(final_search, "AUTO_BUDGET", SearchBudget(nodes=1))
    r = _scanned(ROOK_V_KNIGHT, "1-0", ON_TIME)
    assert r["time_forfeit"]["opponent_winnable"] is None and r["verdict"] == "undecided"


def test_a_resignation_in_a_position_that_might_be_dead_and_is_open_is_undecided(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Black cannot mate; if White could not either, the position would be
    # dead and 1-0 wrong. Static search leaves White open: undecided.
    r = _scanned(ROOK_V_KING, "1-0", final_search=dead.STATIC)
    assert r["dead_undecided"] is True and r["verdict"] == "undecided"
    assert _scanned(ROOK_V_KING, "1/2-1/2", final_search=dead.STATIC)["verdict"] == "ok"  # a draw either way
    assert _scanned(ROOK_V_KING, "1-0")["verdict"] == "ok"  # auto searches it: White can mate
    monkeypatch.setattr(final_search, "AUTO_BUDGET", SearchBudget(nodes=1))
    assert _scanned(ROOK_V_KING, "1-0")["verdict"] == "undecided"  # ... unless the search runs out


def test_an_ordinary_resignation_is_ok_without_any_search() -> None:
    r = _one('[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n')
    assert r["dead_undecided"] is False and r["verdict"] == "ok"


@pytest.mark.parametrize(
    "forfeit, dead_open, recorded, expected",
    [
        ({"should_be_draw": False, "opponent_winnable": None}, False, "1-0", "undecided"),
        ({"should_be_draw": False, "opponent_winnable": True}, True, "1-0", "ok"),
        ({"should_be_draw": True, "opponent_winnable": None}, False, "0-1", "wrong_result"),  # US Chess: a draw anyway
        (None, True, "0-1", "undecided"),
        (None, True, "1/2-1/2", "ok"),
        (None, True, "*", "ok"),
        (None, False, "1-0", "ok"),
    ],
)
def test_judge_undecided_cases(forfeit: dict | None, dead_open: bool, recorded: str, expected: str) -> None:
    report = {
        "headers": {"Result": recorded},
        "final": {"outcome": None},
        "plies": 4,
        "events": [],
        "time_forfeit": forfeit,
        "dead_undecided": dead_open,
        "error": None,
    }
    assert judge(report)["verdict"] == expected
    assert expected in VERDICTS


def test_the_audit_counts_and_explains_undecided_games() -> None:
    pytest.importorskip("pyarrow")
    pytest.importorskip("dask")
    from pychessdraw.batch.audit.run import format_summary, summarize
    from pychessdraw.batch.audit.schema import row, table

    report = _scanned(ROOK_V_KNIGHT, "1-0", ON_TIME, final_search=dead.STATIC)
    column = table([row(report, "games.pgn", 0)]).column("verdict").to_pylist()
    assert column == ["undecided"]
    chunk = {"status": "done", "games": 3, "plies": 6, "rules": {}, "wrong": [], "verdicts": {"ok": 1, "undecided": 2}}
    summary = summarize({"chunks": [{"summary": chunk}]})
    assert summary["verdicts"] == {"ended_earlier": 0, "error": 0, "ok": 1, "undecided": 2, "wrong_result": 0}
    text = format_summary(summary)
    assert "undecided 2" in text and "2 undecided: the result stands unless a draw is proven" in text
    quiet = summarize({"chunks": [{"summary": dict(chunk, verdicts={"ok": 3})}]})
    assert quiet["verdicts"]["undecided"] == 0 and "undecided:" not in format_summary(quiet)


# -- the page's words for a flag fall: a default is never shown as a finding ---
@pytest.mark.parametrize(
    "result, answer, expected",
    [
        (
            "0-1",
            "unknown",
            "0-1 unless a draw is proven: undecided, whether Black can checkmate is not decided yet (FIDE 6.9)",
        ),
        ("0-1", "yes", "0-1 (Black wins: Black can still checkmate, FIDE 6.9)"),
        ("1/2-1/2", "no", "1/2-1/2 (draw: Black cannot checkmate, FIDE 6.9)"),
        ("1/2-1/2", "unknown", "1/2-1/2 (draw: US Chess 14E)"),
    ],
)
def test_flag_fall_words(result: str, answer: str, expected: str) -> None:
    import chess

    from pychessdraw.web.present import flag_view

    assert flag_view(result, chess.WHITE, answer) == {"result": result, "text": expected}


def test_the_panel_says_an_open_flag_fall_is_undecided() -> None:
    from pychessdraw.web.bridge import Bridge

    bridge = Bridge()
    # K+R v K+N: static proofs leave both sides open; the panel's first answer searches nothing.
    reply: Any = bridge.call({"op": "new", "args": {"fen": "4k3/8/8/8/8/8/n7/4K2R w - - 0 1"}})
    facts = reply["facts"]
    answers = {c: facts["winnable"][c]["answer"] for c in ("white", "black")}
    assert "unknown" in answers.values()  # the case this test is about
    for color, other in (("white", "black"), ("black", "white")):
        text = facts["flag_fall"][color]["text"]
        if answers[other] == "unknown":
            assert "undecided" in text and "wins" not in text
        else:
            assert "undecided" not in text


def test_a_real_lichess_flag_fall_the_search_leaves_open_is_undecided() -> None:
    """lichess.org/YewWbJob (in ../shared/corpus/lichess-dev.pgn.zst): White
    lost on time with K+B+3P against K+2N. Black can mate (a helpmate of 64
    plies, found with 100,141 nodes), but not within auto's 30,000: the
    record is undecided, and its win stands; it was "ok" before."""
    r = _one(
        '[Site "https://lichess.org/YewWbJob"]\n[FEN "8/8/3n3B/3knK2/8/P7/1P5P/8 w - - 2 61"]\n[SetUp "1"]\n'
        '[Result "0-1"]\n[Termination "Time forfeit"]\n\n0-1\n'
    )
    assert r["time_forfeit"]["opponent_winnable"] is None
    assert (r["verdict"], r["expected_result"]) == ("undecided", None)
