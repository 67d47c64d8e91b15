"""The streaming review session: the same reports as ``scan`` whatever the
chunking, each verdict, errors in chess words, offsets, bounded memory."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from itertools import islice
from typing import Any

import pytest

from pychessdraw.errors import BadRequestError
from pychessdraw.pgn import read_games
from pychessdraw.records.scan import scan, scan_game
from pychessdraw.rules import dead
from pychessdraw.web.review import ReviewSession, error_in_words

SHUFFLE = " ".join(f"{2 * i + 1}. Nf3 Nf6 {2 * i + 2}. Ng1 Ng8" for i in range(5))
GAMES = {
    "ok": '[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n',
    "ended_earlier": f'[White "C"]\n[Black "D"]\n[Result "1-0"]\n\n{SHUFFLE} 11. e4 1-0\n',
    "wrong_result": (
        '[White "E"]\n[Black "F"]\n[FEN "4k3/8/8/8/8/8/r7/4KB2 w - - 0 1"]\n[SetUp "1"]\n'
        '[Result "1-0"]\n[Termination "time forfeit"]\n\n1. Bd3 Kd7 1-0\n'
    ),
    "error": '[White "G"]\n[Black "H"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Qxz9 3. Nc3 *\n',
    "ok2": '[White "I"]\n[Black "J"]\n[Result "1/2-1/2"]\n\n1. d4 d5 1/2-1/2\n',
}
TEXT = "\n".join(GAMES.values())


def review(text: str, sizes: Callable[[], int] = lambda: 65536, **options: Any) -> list[dict[str, Any]]:
    session = ReviewSession(**options)
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(text):
        n = sizes()
        out += session.feed(text[i : i + n])
        i += n
    out += session.finish()
    return out


def scanned(text: str, **options: Any) -> list[str]:
    """The lines ``pychessdraw scan`` prints (its default search: auto)."""
    return [json.dumps(r) for r in scan(text.splitlines(keepends=True), **options)]


@pytest.mark.parametrize("seed", range(6))
def test_same_lines_as_scan_whatever_the_chunks(seed: int) -> None:
    rnd = random.Random(seed)
    sizes = [1, 2, 3, 17, 64, 1000]
    out = review(TEXT, lambda: rnd.choice(sizes))
    assert [r["line"] for r in out] == scanned(TEXT)


def test_static_review_is_scan_static() -> None:
    out = review(TEXT, lambda: 17, final_search=dead.STATIC)
    assert [r["line"] for r in out] == scanned(TEXT, final_search=dead.STATIC)


def test_each_verdict_and_the_row() -> None:
    rows = [r["row"] for r in review(TEXT)]
    assert [r["verdict"] for r in rows] == ["ok", "ended_earlier", "wrong_result", "error", "ok"]
    assert [r["game"] for r in rows] == [1, 2, 3, 4, 5]
    assert [(r["white"], r["black"], r["result"]) for r in rows][:2] == [("A", "B", "1-0"), ("C", "D", "1-0")]
    assert rows[1]["ended_at"] == 16 and rows[1]["expected_result"] == "1/2-1/2"
    assert {
        "ply": 16,
        "rule": "fivefold_repetition",
        "kind": "automatic",
        "label": "Fivefold repetition ended the game after Black's move 8",
    } in rows[1]["events"]
    assert rows[1]["detail"] == "fivefold repetition ended it after Black's move 8: the rules give 1/2-1/2"
    assert rows[2]["detail"] == "the rules give 1/2-1/2"
    assert rows[2]["expected_result"] == "1/2-1/2"
    # the error is named by move number and side, and the next game is read as usual
    assert rows[3]["error"].startswith("2...Qxz9 (Black's move 2) is not a move")
    assert "ply" not in rows[3]["error"]
    assert rows[0]["error"] is None and rows[4]["verdict"] == "ok"


def test_offsets_give_back_each_game() -> None:
    text = TEXT.replace("\n", "\r\n")  # CRLF lines
    for result in review(text, lambda: 5):
        row = result["row"]
        again = list(read_games(text[row["start"] : row["end"]].splitlines(keepends=True)))
        assert len(again) == 1
        assert again[0].headers.get("White") == row["white"]
    assert review(text)[-1]["row"]["end"] == len(text)


def test_a_game_without_final_newline_and_empty_input() -> None:
    out = review(GAMES["ok2"].rstrip("\n"))
    assert [r["row"]["verdict"] for r in out] == ["ok"]
    assert review("") == [] and review("\n\n  \n") == []


def test_old_mac_line_ends() -> None:
    text = TEXT.replace("\n", "\r")
    assert [r["row"]["verdict"] for r in review(text, lambda: 50)] == [
        "ok",
        "ended_earlier",
        "wrong_result",
        "error",
        "ok",
    ]


def test_feed_after_finish_is_refused() -> None:
    session = ReviewSession()
    session.feed(GAMES["ok"])
    assert len(session.finish()) == 1
    assert session.finish() == []
    with pytest.raises(BadRequestError):
        session.feed("1. e4 *\n")
    assert (session.games, session.plies) == (1, 7)


def test_games_numbered_from_start_and_uscf_rules() -> None:
    session = ReviewSession(start=10, flag_rules="uscf")
    out = session.feed(GAMES["ok"] + "\n" + GAMES["ok2"]) + session.finish()
    assert [r["row"]["game"] for r in out] == [10, 11]
    assert json.loads(out[0]["line"])["final"]["flag_rules"] == "uscf"
    with pytest.raises(BadRequestError):
        ReviewSession(flag_rules="blitz")
    with pytest.raises(BadRequestError):
        ReviewSession(part=2, parts=2)


@pytest.mark.parametrize("parts", [2, 3])
def test_parts_share_the_games(parts: int) -> None:
    text = "\n".join([TEXT] * 3)
    whole = review(text, start=4)
    split = [review(text, lambda: 100, start=4, part=k, parts=parts) for k in range(parts)]
    numbers = [[r["row"]["game"] for r in s] for s in split]
    assert all(n % parts == (4 + k) % parts for k, ns in enumerate(numbers) for n in ns)
    merged = sorted((r for s in split for r in s), key=lambda r: r["row"]["game"])
    assert merged == whole


def test_memory_is_bounded_by_the_longest_game() -> None:
    garbage = '[White "X"]\n\n' + "e4 e5 " * 2000 + "\n" + ("Nf3 " * 20 + "\n") * 200
    text = GAMES["ok"] + "\n" + garbage + "\n" + GAMES["ok2"]
    session = ReviewSession(max_game_chars=3000)
    out: list[dict[str, Any]] = []
    held = 0
    for i in range(0, len(text), 500):
        out += session.feed(text[i : i + 500])
        held = max(held, sum(map(len, session._lines)) + len(session._partial))
    out += session.finish()
    assert held <= 3000 + 500
    rows = [r["row"] for r in out]
    assert [r["verdict"] for r in rows] == ["ok", "error", "ok"]
    assert "longer than 3,000 characters" in rows[1]["error"]
    assert json.loads(out[1]["line"])["error"]["code"] == "bad_pgn"
    assert rows[2]["white"] == "I" and text[rows[2]["start"] :].lstrip().startswith('[White "I"]')


def test_an_over_long_game_at_the_end_is_reported() -> None:
    session = ReviewSession(max_game_chars=100)
    out = session.feed(GAMES["ok"] + '\n[White "Z"]\n\n' + "e4 " * 100 + "\n") + session.finish()
    assert [r["row"]["verdict"] for r in out] == ["ok", "error"]


@pytest.mark.parametrize(
    "code,reason,ply,token,fen,expected",
    [
        ("illegal_move", "1.Ke2 is not legal here", 1, "Ke2", "", "1.Ke2 (White's move 1) is not legal here"),
        ("invalid_move", "bad", 4, "Qxz9", "", "2...Qxz9 (Black's move 2): bad"),
        (
            "illegal_move",
            "40...a5 is not legal here",
            1,
            "a5",
            "4k3/8/8/8/8/8/8/4K3 b - - 0 40",
            "40...a5 (Black's move 40) is not legal here",
        ),
        ("illegal_move", "x", 2, "Ke2", "4k3/8/8/8/8/8/8/4K3 b - - 0 40", "41.Ke2 (White's move 41): x"),
    ],
)
def test_move_error_in_words(code: str, reason: str, ply: int, token: str, fen: str, expected: str) -> None:
    """A scan's move error as scan writes it: the message names the ply and
    the token, ``reason`` is the move's own error."""
    headers = {"FEN": fen} if fen else {}
    error = {"code": code, "message": f"ply {ply} ({token!r}): {reason}", "reason": reason, "ply": ply, "token": token}
    assert error_in_words(error, headers) == expected


@pytest.mark.parametrize(
    "message,ply,token,expected",
    [
        ("unterminated comment '{'", 4, "{", "at Black's move 2 (2...): unterminated comment '{'"),
        ("broken header", 0, "[x", "broken header"),
    ],
)
def test_broken_text_in_words(message: str, ply: int, token: str, expected: str) -> None:
    assert error_in_words({"code": "bad_pgn", "message": message, "ply": ply, "token": token}, {}) == expected


def test_scan_keeps_the_moves_own_error_beside_its_message() -> None:
    report = scan_game(next(read_games(['[Event "x"]\n', "\n", "1. e4 e5 2. Ke3 *\n"])), 1)
    error = report["error"]
    assert error["message"] == f"ply 3 ('Ke3'): {error['reason']}"
    assert error_in_words(error, {}) == f"2.Ke3 (White's move 2){error['reason'][len('2.Ke3') :]}"


@pytest.mark.slow  # left out by `make test-quick`
def test_corpus_slice_matches_scan(shared: Callable[..., Any], full: bool) -> None:
    path = shared("corpus", "tcec-dev.pgn")
    with open(path, encoding="utf-8", errors="replace") as handle:
        text = handle.read() if full else "".join(islice(handle, 6000))
    rnd = random.Random(7)
    out = review(text, lambda: rnd.choice([4096, 65536, 100_000]))
    assert [r["line"] for r in out] == scanned(text)
    assert out[-1]["row"]["end"] == len(text)


def test_review_ops_validate_and_answer() -> None:
    from pychessdraw.web.bridge import Bridge
    from pychessdraw.web.review import ReviewOps

    ops = ReviewOps()
    with pytest.raises(BadRequestError, match="review_start first"):
        ops.feed({"text": "x"})
    for bad in [
        {"parts": 0},
        {"part": 2, "parts": 2},
        {"start": 0},
        {"flag_rules": "blitz"},
        {"search": "deep"},
        {"start": True},
        {"start": "1"},
        {"search": ["auto"]},
        {"search": None},
    ]:
        with pytest.raises(BadRequestError):
            ops.start(bad)
    # unknown arguments are refused by the bridge, from the names of bridge_contract.Operations
    bridge = Bridge()
    for op, bad in [("review_start", {"colour": "white"}), ("review_feed", {"text": "", "more": 1})]:
        reply = bridge.call({"op": op, "args": bad})
        assert not reply["ok"] and reply["error"]["code"] == "bad_request", (op, reply)
    assert ops.start({"flag_rules": "uscf", "start": 1, "part": 0, "parts": 1}) == {"ok": True, "results": []}
    with pytest.raises(BadRequestError):
        ops.feed({"text": 5})
    first = ops.feed({"text": TEXT[:300]})["results"]
    rest = ops.feed({"text": TEXT[300:]})["results"] + ops.finish({})["results"]
    assert [r["row"]["game"] for r in first + rest] == [1, 2, 3, 4, 5]
    assert json.loads(rest[-1]["line"])["final"]["flag_rules"] == "uscf"
    # a new start drops the old review
    ops.start({})
    assert ops.finish({})["results"] == []


def test_review_words_say_a_reviewed_games_sentences_again_in_the_new_language() -> None:
    """review_words: the rows' sentences (reason, events, error) said again
    from the games' reports in the current language, the same as a review
    made in that language; anything but the review's reports is refused."""
    from pychessdraw import i18n
    from pychessdraw.web.bridge import Bridge

    bridge = Bridge()
    bridge.call({"op": "set_language", "args": {"language": "de"}})
    bridge.call({"op": "review_start", "args": {}})
    results = bridge.call({"op": "review_feed", "args": {"text": TEXT}})["results"]
    results += bridge.call({"op": "review_finish", "args": {}})["results"]
    bridge.call({"op": "set_language", "args": {"language": "en"}})
    said = bridge.call({"op": "review_words", "args": {"lines": [r["line"] for r in results]}})
    assert said["ok"], said
    english = review(TEXT)
    assert [w["game"] for w in said["review_words"]] == [r["row"]["game"] for r in english]
    for words, row in zip(said["review_words"], (r["row"] for r in english), strict=True):
        assert (words["detail"], words["events"]) == (row["detail"], row["events"])
        assert (words["error"] is None) == (row["error"] is None)
    assert any(r["row"]["events"] for r in results), "the sample has events to say again"
    german = [r["row"]["events"] for r in results]
    assert german != [w["events"] for w in said["review_words"]]
    with i18n.language("de"):
        assert [r["row"]["detail"] for r in review(TEXT)] == [r["row"]["detail"] for r in results]
    for bad in (["not json"], ["{}"], ["[1]"]):
        refused = bridge.call({"op": "review_words", "args": {"lines": bad}})
        assert refused["ok"] is False and refused["error"]["code"] == "bad_request", bad
    refused = bridge.call({"op": "review_words", "args": {"lines": "x"}})
    assert refused["ok"] is False and refused["error"]["code"] == "bad_request"


# -- the page's review searches what `scan` (auto) searches ---------------------
# Losses on time the old page (search "static") called ok: the winner's
# chances are decided only by a search (K+R v K+N: White can mate; two light
# bishops v a rook: no mate exists, a draw).
FLAG_FALLS = (
    '[White "K"]\n[Black "L"]\n[FEN "4k3/8/8/8/8/8/n7/4K2R w - - 0 1"]\n[SetUp "1"]\n[Result "1-0"]\n'
    '[Termination "Time forfeit"]\n\n1. Kd2 Kd7 1-0\n\n'
    '[White "M"]\n[Black "N"]\n[FEN "4K3/8/8/8/8/3b1b2/7k/5R2 w - - 0 1"]\n[SetUp "1"]\n[Result "0-1"]\n'
    '[Termination "Time forfeit"]\n\n0-1\n\n'
    '[White "O"]\n[Black "P"]\n[FEN "4k3/8/8/8/8/8/8/4K2R w - - 0 1"]\n[SetUp "1"]\n[Result "1-0"]\n\n1. Kd2 Kd7 1-0\n'
)


@pytest.mark.parametrize("search", [None, "auto"])
def test_review_ops_search_as_scan_does_by_default(search: str | None) -> None:
    from pychessdraw.web.review import ReviewOps

    ops = ReviewOps()
    ops.start({} if search is None else {"search": search})
    out = ops.feed({"text": FLAG_FALLS})["results"] + ops.finish({})["results"]
    assert [r["line"] for r in out] == scanned(FLAG_FALLS)
    assert [r["row"]["verdict"] for r in out] == ["ok", "wrong_result", "ok"]
    assert out[1]["row"]["expected_result"] == "1/2-1/2"


def test_review_ops_static_says_undecided_never_ok() -> None:
    from pychessdraw.web.review import ReviewOps

    ops = ReviewOps()
    ops.start({"search": "static"})
    out = ops.feed({"text": FLAG_FALLS})["results"] + ops.finish({})["results"]
    assert [r["row"]["verdict"] for r in out] == ["undecided", "wrong_result", "undecided"]


def lichess_sample(shared: Callable[..., Any], full: bool) -> str:
    """Text of lichess-dev games: every game with --full, else the first
    1,500 (191 of them losses on time)."""
    from pychessdraw.batch.inputs import open_text

    with open_text(str(shared("corpus", "lichess-dev.pgn.zst"))) as handle:
        if full:
            return handle.read()
        lines = []
        games = 0
        for line in handle:
            games += line.startswith("[Event ")
            if games > 1500:
                break
            lines.append(line)
        return "".join(lines)


@pytest.mark.slow  # left out by `make test-quick`
def test_lichess_review_verdicts_equal_scans(shared: Callable[..., Any], full: bool) -> None:
    """The page's review (ReviewOps, default search, in parts as its workers
    share a file) gives the CLI's scan lines, byte for byte, on real lichess
    games; none says ok about a loss on time left open."""
    from pychessdraw.web.review import ReviewOps

    text = lichess_sample(shared, full)
    parts = [ReviewOps() for _ in range(2)]
    for k, ops in enumerate(parts):
        ops.start({"part": k, "parts": 2})
    out = []
    for i in range(0, len(text), 65536):
        for ops in parts:
            out += ops.feed({"text": text[i : i + 65536]})["results"]
    for ops in parts:
        out += ops.finish({})["results"]
    out.sort(key=lambda r: r["row"]["game"])
    assert [r["line"] for r in out] == scanned(text)
    reports = [json.loads(r["line"]) for r in out]
    on_time = [r for r in reports if r["time_forfeit"] is not None]
    assert len(on_time) > 150
    assert not [r for r in on_time if r["verdict"] == "ok" and r["time_forfeit"]["opponent_winnable"] is None]


def test_event_words_and_move_numbers_come_from_the_referee() -> None:
    """The review's timeline words (once worked out by the page from plies):
    one rule name each (pychessdraw.laws), move numbers from the start
    position's FEN (pychessdraw.moves.move_number)."""
    from pychessdraw.web.review import event_row

    assert (
        event_row({"ply": 33, "rule": "threefold_repetition", "kind": "claimable_with_move"})["label"]
        == "Black could claim threefold repetition with move 17..."  # the claimant moves next
    )
    assert (
        event_row({"ply": 40, "rule": "fifty_moves", "kind": "claimable"})["label"]
        == "White could claim the fifty-move rule after Black's move 20"
    )
    assert (
        event_row({"ply": 60, "rule": "checkmate", "kind": "automatic"})["label"]
        == "Checkmate ended the game after Black's move 30"
    )
    assert (
        event_row({"ply": 1, "rule": "stalemate", "kind": "automatic"}, 40, True)["label"]
        == "Stalemate ended the game after Black's move 40"
    )
    assert event_row({"ply": 2, "rule": "stalemate", "kind": "automatic"}, 40, True)["label"].endswith(
        "White's move 41"
    )
    assert (
        event_row({"ply": 0, "rule": "dead_position", "kind": "automatic"})["label"]
        == "Dead position ended the game at the start"
    )
    assert (
        event_row({"ply": 0, "rule": "threefold_repetition", "kind": "claimable_with_move"}, 60, True)["label"]
        == "Black could claim threefold repetition with move 60..."
    )
