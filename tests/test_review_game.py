"""The Review's own board (``review_game``): the game's clocks from
``[%clk]`` display-ready, the verdict in one sentence with its ply, the marks
at the plies the scan names, the claims at each ply, and nothing of the Play
game touched."""

from __future__ import annotations

import json

import chess
import pytest

from pychessdraw import pgn
from pychessdraw.records.scan import scan_game
from pychessdraw.web.bridge import Bridge
from pychessdraw.web.present import proof_line
from pychessdraw.web.reviewgame import clock_text, review_game

CLOCKED = (
    '[White "A"]\n[Black "B"]\n[Result "1-0"]\n[TimeControl "180+2"]\n[Termination "Time forfeit"]\n\n'
    "1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:02:59] } 2. Nf3 { [%clk 0:02:51.5] } "
    "2... Nc6 { [%clk 1:02:03] } 3. Bc4 { [%clk 0:00:07] } 1-0\n"
)
# 41.Qb6 stalemates Black: a 1-0 record the rules make a draw
STALEMATE = (
    '[White "C"]\n[Black "D"]\n[Result "1-0"]\n[FEN "k7/8/8/8/8/8/8/1Q2K3 w - - 0 41"]\n[SetUp "1"]\n\n41. Qb6 1-0\n'
)
SHUFFLE = " ".join(f"{2 * i + 1}. Nf3 Nf6 {2 * i + 2}. Ng1 Ng8" for i in range(5))


def test_clock_text_is_a_clock_face():
    assert clock_text(None) is None
    assert clock_text(180_000) == "3:00"
    assert clock_text(7_000) == "0:07"
    assert clock_text(3_723_000) == "1:02:03"
    assert clock_text(171_500) == "2:51.5"


def test_the_faces_are_the_time_each_side_had_after_its_last_move():
    g = review_game(CLOCKED, final_search="auto", flag_rules="fide")  # type: ignore[arg-type]
    assert g["has_clocks"]
    faces = [(p["clock_white"], p["clock_black"], p["clock"]) for p in g["plies"]]
    assert faces == [
        (None, None, None),
        ("3:00", None, "3:00"),
        ("3:00", "2:59", "2:59"),
        ("2:51.5", "2:59", "2:51.5"),
        ("2:51.5", "1:02:03", "1:02:03"),
        ("0:07", "1:02:03", "0:07"),
    ]
    assert [p["label"] for p in g["plies"][1:]] == ["1.e4", "1...e5", "2.Nf3", "2...Nc6", "3.Bc4"]


def test_each_ply_says_the_side_to_move_and_whether_it_is_in_check():
    # 2.Bb5+ checks Black, 2...c6 answers it; then a start with Black to move in check
    g = review_game('[Result "*"]\n\n1. e4 d5 2. Bb5+ c6 *\n', final_search="auto", flag_rules="fide")  # type: ignore[arg-type]
    assert [(p["turn"], p["check"]) for p in g["plies"]] == [
        ("white", False),
        ("black", False),
        ("white", False),
        ("black", True),
        ("white", False),
    ]
    checked = '[FEN "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1"]\n[SetUp "1"]\n[Result "*"]\n\n1... Kd7 *\n'
    start = review_game(checked, final_search="auto", flag_rules="fide")["plies"]  # type: ignore[arg-type]
    assert [(p["turn"], p["check"]) for p in start] == [("black", True), ("white", False)]


def test_without_clk_no_clocks():
    g = review_game('[Result "*"]\n\n1. e4 e5 *\n', final_search="auto", flag_rules="fide")  # type: ignore[arg-type]
    assert not g["has_clocks"]
    assert all(p["clock_white"] is None and p["clock_black"] is None for p in g["plies"])


def test_a_flag_fall_is_marked_after_the_last_move():
    g = review_game(CLOCKED, final_search="auto", flag_rules="fide")  # type: ignore[arg-type]
    assert [(m["ply"], m["kind"], m["symbol"]) for m in g["marks"]] == [(5, "flag", "⚑")]
    assert g["marks"][0]["title"] == "Black's flag fell after this move"


def test_the_verdict_sentence_names_the_rule_and_the_move():
    g = review_game(STALEMATE, final_search="auto", flag_rules="fide")  # type: ignore[arg-type]
    end = len(g["plies"]) - 1
    assert g["verdict"] == "wrong_result"
    assert g["sentence"] == "Recorded 1-0; the rules give 1/2-1/2: stalemate after 41.Qb6"
    assert g["goto"] == g["ended_at"] == end
    assert g["ended_text"] == "Stalemate ended the game after White's move 41"
    assert [m["ply"] for m in g["marks"] if m["kind"] == "automatic"] == [end]


def test_marks_and_claims_at_the_plies_the_scan_names():
    text = f'[White "G"]\n[Black "H"]\n[Result "1-0"]\n\n{SHUFFLE} 11. e4 1-0\n'
    g = review_game(text, final_search="auto", flag_rules="fide")  # type: ignore[arg-type]
    report = scan_game(next(iter(pgn.games_in_text(text))), 1)
    assert [m["ply"] for m in g["marks"]] == sorted({e["ply"] for e in report["events"]})
    assert g["plies"][7]["claims"] == ["Black can claim threefold repetition with Ng8"]
    assert g["plies"][8]["claims"] == ["White can claim threefold repetition now"]
    assert g["sentence"] == "Recorded 1-0; the rules give 1/2-1/2: fivefold repetition after 8...Ng8"
    assert [p["after_end"] for p in g["plies"]].index(True) == 17
    assert all(p["claims"] == [] for p in g["plies"][17:])


def test_the_operation_leaves_the_play_game_alone():
    bridge = Bridge()
    bridge.call({"op": "play", "args": {"move": "d4"}})
    r = bridge.call({"op": "review_game", "args": {"pgn": CLOCKED, "game": 3, "search": "static"}})
    assert r["ok"] and r["review_game"]["plies"][1]["san"] == "e4"
    assert [m.uci() for m in bridge.game.moves] == ["d2d4"]
    json.dumps(r)  # it crosses to the page as JSON


@pytest.mark.parametrize(
    "args",
    [{}, {"pgn": 3}, {"pgn": CLOCKED, "search": "deep"}, {"pgn": CLOCKED, "flag_rules": "x"}, {"pgn": ""}],
)
def test_bad_arguments_are_refused(args):
    r = Bridge().call({"op": "review_game", "args": args})
    assert not r["ok"]


# White K+B against K+B+P; Black's flag falls after 1.Bb5: White can mate (1...Bb8 2.Bc6#), so 1-0 stands
FLAG_FALL = (
    '[White "E"]\n[Black "F"]\n[Result "1-0"]\n[Termination "Time forfeit"]\n'
    '[FEN "k7/2b5/K7/7p/8/8/8/5B2 w - - 0 1"]\n[SetUp "1"]\n\n1. Bb5 1-0\n'
)
# Black has a lone king all game long
LONE_KING = '[Result "*"]\n[FEN "6k1/8/8/8/8/8/8/K6Q w - - 0 1"]\n[SetUp "1"]\n\n1. Qa8+ Kg7 2. Qb7+ *\n'


def test_what_is_proven_of_each_sides_mate_at_every_ply():
    lone = review_game(LONE_KING, final_search="auto", flag_rules="fide")  # type: ignore[arg-type]
    assert [p["can_mate"]["black"] for p in lone["plies"]] == ["no"] * 4  # its material, at every ply
    flag = review_game(FLAG_FALL, final_search="auto", flag_rules="fide")  # type: ignore[arg-type]
    # the final search of the flag fall answers for the flagger's opponent at the last ply only
    assert [p["can_mate"]["white"] for p in flag["plies"]] == ["unknown", "yes"]


def proof_of(bridge: Bridge, g: dict, ply: int, color: str) -> dict:
    moves = [p["uci"] for p in g["plies"][1 : ply + 1]]
    args = {
        "ply": ply,
        "color": color,
        "game": {"start_fen": g["start_fen"], "chess960": g["chess960"], "moves": moves},
    }
    return bridge.call({"op": "proof", "args": args})


def test_the_proof_of_a_reviewed_position_is_that_games_not_the_play_games():
    g = review_game(FLAG_FALL, final_search="auto", flag_rules="fide")  # type: ignore[arg-type]
    bridge = Bridge()
    bridge.call({"op": "play", "args": {"move": "e4"}})
    r = proof_of(bridge, g, 1, "white")
    assert r["ok"], r
    proof = r["proof"]
    assert (proof["ply"], proof["color"], proof["answer"]) == (1, "white", "yes")
    assert proof["start_fen"] == g["plies"][1]["fen"]  # the reviewed position after 1.Bb5
    assert proof["steps"][0]["label"].startswith("1...") and proof["steps"][-1]["mate"]
    assert proof["title"] == f"White can checkmate: a mating line of {len(proof['steps'])} plies"
    # the review's own answer: the line its final search found (as every view shows a line)
    report = scan_game(next(iter(pgn.games_in_text(FLAG_FALL))), 1)
    board = chess.Board(g["plies"][1]["fen"])
    line = proof_line(board, chess.WHITE, report["final"]["winnable_detail"]["white"]["line"])
    assert [s["san"] for s in proof["steps"]] == line
    assert [m.uci() for m in bridge.game.moves] == ["e2e4"]  # the worker's own game untouched
    lone = review_game(LONE_KING, final_search="auto", flag_rules="fide")  # type: ignore[arg-type]
    marks = proof_of(bridge, lone, 2, "black")["proof"]
    assert marks["answer"] == "no" and marks["steps"] == []
    assert [(m["square"], m["kind"]) for m in marks["marks"]] == [("g7", "piece")]  # the lone king


@pytest.mark.parametrize(
    ("game", "ply", "code"),
    [
        ({"start_fen": chess.STARTING_FEN, "moves": ["e2e4"]}, 2, "bad_request"),  # past the moves
        ({"start_fen": chess.STARTING_FEN, "moves": ["e2e4", "e2e4"]}, 2, "illegal_move"),
        ({"start_fen": "8/8/8", "moves": []}, 0, "bad_fen"),
        ({"start_fen": chess.STARTING_FEN, "moves": ["e2e4" * 4]}, 1, "bad_request"),
        ({"moves": []}, 0, "bad_request"),
    ],
)
def test_a_bad_reviewed_position_is_refused(game, ply, code):
    bridge = Bridge()
    r = bridge.call({"op": "proof", "args": {"ply": ply, "color": "white", "game": game}})
    assert not r["ok"] and r["error"]["code"] == code, r
    assert bridge.game.ply == 0
