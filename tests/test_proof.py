"""Proofs on the board (op ``proof``) and browsed positions searched as the
live one (``analyse`` with a ply, the verdicts kept per position)."""

from __future__ import annotations

from typing import Any

import chess

from pychessdraw.web.bridge import Bridge
from pychessdraw.web.proof import VerdictCache, cannot_mate_marks, position_id

RUY_LOPEZ = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5".split()
KB_V_KBP = "8/8/5kb1/p7/8/3B4/8/2K5 w - - 0 1"  # White K+B, Black K+B+P: White mates with Black's help
LOCKED = "3k4/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/3K4 w - - 0 1"  # a wall across the board
KB_V_K = "8/8/5k2/8/8/3B4/8/2K5 w - - 0 1"


def call(bridge: Bridge, op: str, **args: Any) -> dict[str, Any]:
    reply = dict(bridge.call({"op": op, "args": args}))
    assert reply["ok"], reply
    return reply


def _replayed(fen: str, steps: list[dict[str, Any]]) -> chess.Board:
    """Each step's SAN legal from the one before, its FEN and squares the position after it."""
    board = chess.Board(fen)
    for step in steps:
        move = board.parse_san(step["san"])
        assert [chess.square_name(move.from_square), chess.square_name(move.to_square)] == step["last_move"]
        board.push(move)
        assert board.fen() == step["fen"]
        assert step["check"] == board.is_check() and step["mate"] == board.is_checkmate()
    return board


def test_a_flag_fall_that_loses_has_a_mating_line_to_play() -> None:
    bridge = Bridge()
    call(bridge, "new", fen=KB_V_KBP)
    ended = call(bridge, "flag", color="black")["facts"]
    assert ended["outcome"]["result"] == "1-0"
    proof = call(bridge, "proof", ply=0, color="white")["proof"]
    assert proof["answer"] == "yes" and proof["color"] == "white" and proof["start_fen"] == KB_V_KBP
    assert proof["steps"] and proof["marks"] == []
    final = _replayed(KB_V_KBP, proof["steps"])
    assert final.is_checkmate() and final.turn == chess.BLACK  # White mates
    assert proof["steps"][-1]["mate"] and proof["steps"][0]["label"].startswith("1.")
    assert proof["steps"][1]["label"].startswith("1...")
    # the game is untouched: no move was played
    assert call(bridge, "state")["moves"]["add"] == []


def test_a_proof_at_a_browsed_ply_starts_from_that_position() -> None:
    bridge = Bridge()
    call(bridge, "new")
    for san in RUY_LOPEZ[:4]:
        call(bridge, "play", move=san)
    proof = call(bridge, "proof", ply=2, color="black")["proof"]
    board = chess.Board()
    board.push_san("e4")
    board.push_san("e5")
    assert proof["ply"] == 2 and proof["start_fen"] == board.fen()
    final = _replayed(board.fen(), proof["steps"])
    assert final.is_checkmate() and final.turn == chess.WHITE
    assert len(call(bridge, "state")["moves"]["add"]) == 4


def test_the_cannot_mate_squares_of_locked_pawns() -> None:
    bridge = Bridge()
    call(bridge, "new", fen=LOCKED)
    proof = call(bridge, "proof", ply=0, color="white")["proof"]
    assert proof["answer"] == "no" and proof["steps"] == [] and proof["legend"]
    walls = {m["square"] for m in proof["marks"] if m["kind"] == "wall"}
    region = {m["square"] for m in proof["marks"] if m["kind"] == "region"}
    board = chess.Board(LOCKED)
    assert walls == {chess.square_name(sq) for sq in board.pieces(chess.PAWN, chess.WHITE)} | {
        chess.square_name(sq) for sq in board.pieces(chess.PAWN, chess.BLACK)
    }
    # the black king stays above the wall, on empty squares; its own square is not shaded
    assert "d7" in region and "d8" not in region
    assert all(chess.square_rank(chess.parse_square(sq)) >= 4 for sq in region)


def test_the_cannot_mate_pieces_of_a_lone_bishop() -> None:
    marks, legend = cannot_mate_marks(chess.Board(KB_V_K), chess.WHITE)
    assert sorted(m["square"] for m in marks) == ["c1", "d3"] and {m["kind"] for m in marks} == {"piece"}
    assert "White" in legend
    bridge = Bridge()
    call(bridge, "new", fen=KB_V_K)
    proof = call(bridge, "proof", ply=0, color="white")["proof"]
    assert proof["answer"] == "no" and proof["marks"] == marks


def test_no_marks_where_the_side_can_mate() -> None:
    assert cannot_mate_marks(chess.Board(), chess.WHITE) == ([], "")


def test_a_bad_proof_request_is_refused() -> None:
    bridge = Bridge()
    call(bridge, "new")
    assert not bridge.call({"op": "proof", "args": {"ply": 1, "color": "white"}})["ok"]
    assert not bridge.call({"op": "proof", "args": {"ply": 0, "color": "red"}})["ok"]
    assert not bridge.call({"op": "analyse", "args": {"level": 0, "ply": 3}})["ok"]


def test_browsed_positions_are_searched_and_remembered() -> None:
    bridge = Bridge()
    call(bridge, "new")
    for san in RUY_LOPEZ:
        call(bridge, "play", move=san)
    for ply in range(len(RUY_LOPEZ) - 1, -1, -1):
        before = call(bridge, "status_at", ply=ply)["facts"]
        assert not before["live"] and before["ply"] == ply
        for level in range(4):
            reply = call(bridge, "analyse", level=level, ply=ply)
            if reply["analysed"]["final"]:
                break
        facts = reply["facts"]
        assert not facts["live"] and facts["ply"] == ply
        assert facts["winnable"]["white"]["answer"] == "yes" and facts["winnable"]["black"]["answer"] == "yes"
        # browsed again: answered at once from what was found
        again = call(bridge, "status_at", ply=ply)["facts"]
        assert again["winnable"] == facts["winnable"]
    # the live position was not moved by the browsing
    assert call(bridge, "state")["facts"]["ply"] == len(RUY_LOPEZ)


def test_the_cache_keeps_decided_answers_and_its_size() -> None:
    from pychessdraw.deadposition import Verdict
    from pychessdraw.rules.dead import PAGE, STATIC

    cache = VerdictCache(size=2)
    board = chess.Board()
    decided = {chess.WHITE: Verdict(True, (), 1, "x"), chess.BLACK: Verdict(True, (), 1, "x")}
    undecided = {chess.WHITE: Verdict(None, None, 1, "x"), chess.BLACK: Verdict(None, None, 1, "x")}
    cache.put(board, PAGE, decided)
    cache.put(board, STATIC, undecided)  # never trades a decided answer for an undecided one
    assert cache.get(board) == (PAGE, decided)
    for san in ("e4", "e5"):
        board.push_san(san)
        cache.put(board, PAGE, decided)
    assert cache.get(chess.Board()) is None  # the oldest went
    # the move counters are not part of the position
    same = chess.Board(board.fen().replace(" 0 2", " 7 30"))
    assert position_id(same) == position_id(board)


def test_a_position_searched_before_is_answered_with_the_move() -> None:
    """A move back into a position the page had searched (a repetition, the
    move played again after an undo) has both answers in its own reply: no
    search, no second request."""
    bridge = Bridge()
    call(bridge, "new")
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    for san in shuffle:
        assert _answers(call(bridge, "play", move=san)["facts"]) == ("unknown", "unknown")  # the static proofs only
        assert _searched(bridge) == ("yes", "yes")
    for san in shuffle:  # the same positions again: known at once
        assert _answers(call(bridge, "play", move=san)["facts"]) == ("yes", "yes")
    undone = call(bridge, "undo")["facts"]
    assert undone["ply"] == 7 and _answers(undone) == ("yes", "yes")
    # a position never searched still waits for the search
    assert _answers(call(bridge, "play", move="e5")["facts"]) == ("unknown", "unknown")


def _searched(bridge: Bridge) -> tuple[str, str]:
    """The answers once the page's searches have run, one level deeper while
    a side is open, as the page asks (level 0's clock may run out on a loaded
    machine; the cache is what is tested here, not level 0's speed)."""
    answers = ("unknown", "unknown")
    for level in range(4):
        answers = _answers(call(bridge, "analyse", level=level)["facts"])
        if "unknown" not in answers:
            break
    return answers


def _answers(facts: dict[str, Any]) -> tuple[str, str]:
    return facts["winnable"]["white"]["answer"], facts["winnable"]["black"]["answer"]
