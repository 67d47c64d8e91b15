"""The bridge's clock and review operations: flag falls in words, the
flag-rules switch, [%clk] on import and export, the review ops."""

from __future__ import annotations

import json
import re
from typing import Any

from pychessdraw.web.bridge import Bridge


def ask(bridge: Bridge, op: str, **args: Any) -> dict[str, Any]:
    return json.loads(bridge.handle(json.dumps({"op": op, "args": args})))


def test_flag_fall_banner_names_the_rule_and_the_proof() -> None:
    b = Bridge()
    ask(b, "new", fen="4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
    r = ask(b, "flag", color="white")
    out = r["facts"]["outcome"]
    assert out["termination"] == "time_forfeit" and out["result"] == "1/2-1/2"
    assert "Black cannot checkmate by any series of legal moves (proven: " in out["detail"]
    assert out["detail"].endswith("(FIDE 6.9)")
    # a takeback of the flag fall lifts the words with it
    r = ask(b, "undo")
    assert r["facts"]["outcome"] is None


def test_the_banner_and_the_panel_show_the_same_mating_line() -> None:
    """A flag fall's proof is shown twice (the banner, the panel's details):
    the same tightened line both times, not two proofs of one fact."""
    b = Bridge()
    ask(b, "play", move="e4")
    r = ask(b, "flag", color="black")
    detail = r["facts"]["outcome"]["detail"]
    proof = ask(b, "analyse", level=0)["facts"]["winnable"]["white"]["proof"]
    line = proof.removeprefix("a mating line: ").split(" … ")[0]
    assert proof.startswith("a mating line: ") and line.split()[:4] == detail.split("a mating line: ")[1].split()[:4]
    total = re.search(r"\((\d+) plies in all\)", proof)
    assert total and f"({total.group(1)} plies in all)" in detail


def test_flag_rules_switch_decides_the_flag_fall() -> None:
    b = Bridge()
    ask(b, "new", fen="4k3/r7/8/8/8/8/8/4K1N1 w - - 0 1")
    ask(b, "play", move="Nf3")
    r = ask(b, "flag", color="black")
    assert r["facts"]["outcome"]["result"] == "1-0"
    assert "a mating line: 1..." in r["facts"]["outcome"]["detail"]
    ask(b, "undo")
    r = ask(b, "rules", flag_rules="uscf")
    assert r["ok"]
    r = ask(b, "flag", color="black")
    assert r["facts"]["outcome"]["result"] == "1/2-1/2"
    assert "US Chess rule 14E" in r["facts"]["outcome"]["detail"]
    assert not ask(b, "rules", flag_rules="blitz")["ok"]
    assert not ask(b, "rules")["ok"]
    # the rules stay for the next game
    ask(b, "new")
    assert b.game.flag_rules == "uscf"


def test_export_with_clocks_and_import_shows_them() -> None:
    b = Bridge()
    for move in ["e4", "e5", "Nf3"]:
        ask(b, "play", move=move)
    r = ask(
        b,
        "export_pgn",
        time_control={"base_s": 180, "increment_s": 2, "delay_s": 0},
        clocks={"1": 180_000, "2": 178_500, "3": 170_000},
    )
    pgn = r["pgn"]
    assert '[TimeControl "180+2"]' in pgn
    assert re.findall(r"\[%clk ([\d:]+)\]", pgn) == ["0:03:00", "0:02:58", "0:02:50"]
    r = ask(b, "load_pgn", pgn=pgn)
    assert [row.get("clock_ms") for row in r["moves"]["add"]] == [180_000, 178_000, 170_000]
    for bad in [
        {"time_control": {"base_s": "x"}, "clocks": {}},
        {"time_control": {"base_s": 60}, "clocks": {"a": 1}},
        {"time_control": {"base_s": 60}, "clocks": {"1": -1}},
        {"clocks": {"1": 5}},
        {"colour": 1},
    ]:
        assert ask(b, "export_pgn", **bad)["error"]["code"] == "bad_request"
    # without clocks, export is as before
    assert "%clk" not in ask(b, "export_pgn")["pgn"]


def test_review_ops_through_the_bridge() -> None:
    b = Bridge()
    text = (
        '[White "A"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
        '[White "B"]\n[Result "*"]\n\n1. e4 Ke7 *\n'
    )
    assert ask(b, "review_feed", text="x")["error"]["code"] == "bad_request"
    assert ask(b, "review_start", parts=2, part=0)["results"] == []
    first = ask(b, "review_feed", text=text)["results"]
    rest = ask(b, "review_finish")["results"]
    assert [r["row"]["game"] for r in first + rest] == [1]  # part 0 of 2: games 1, 3, ...
    assert ask(b, "review_start", flag_rules="uscf")["ok"]
    got = ask(b, "review_feed", text=text)["results"] + ask(b, "review_finish")["results"]
    assert [r["row"]["verdict"] for r in got] == ["ok", "error"]
    assert got[1]["row"]["error"].startswith("1...Ke7 (Black's move 1) is not legal here")
    assert json.loads(got[0]["line"])["game"] == 1
    # the game on the board is untouched by a review
    assert ask(b, "state")["facts"]["ply"] == 0


def test_load_pgn_partial_stops_before_the_bad_move() -> None:
    b = Bridge()
    text = '[White "E"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Ke7 3. Ke2 Kd9 4. d4 1-0\n'
    assert ask(b, "load_pgn", pgn=text)["error"]["code"] == "invalid_move"
    r = ask(b, "load_pgn", pgn=text, partial=True)
    assert r["ok"] and [m["san"] for m in r["moves"]["add"]] == ["e4", "e5", "Nf3", "Ke7", "Ke2"]
    assert r["facts"]["outcome"] is None and r["game"]["headers"]["Result"] == "*"
    broken = '[White "F"]\n\n1. e4 e5 2. Nf3 { unterminated\n'
    r = ask(b, "load_pgn", pgn=broken, partial=True)
    assert [m["san"] for m in r["moves"]["add"]] == ["e4", "e5", "Nf3"]
    # a whole game loads as usual
    r = ask(b, "load_pgn", pgn='[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n', partial=True)
    assert r["facts"]["outcome"]["termination"] == "checkmate"
    assert not ask(b, "load_pgn", pgn=text, partial="yes")["ok"]


def test_a_refused_claim_names_the_two_minutes_and_who_gets_them() -> None:
    """FIDE 9.5.3, once worked out by the page's clock from the move list:
    the referee names the claimer's opponent and the words; an accepted
    claim names nothing."""
    b = Bridge()
    ask(b, "play", move="e4")
    wrong = ask(b, "claim", move="e5")["claim"]  # Black claims with an intended move: refused, the move stands
    assert not wrong["accepted"] and wrong["wrong_claim"] == {
        "to": "white",
        "bonus_ms": 120_000,
        "text": " Two minutes were added to White's clock (FIDE 9.5.3).",
        "note": "FIDE 9.5.3: White got two more minutes for the wrong claim.",
    }
    now = ask(b, "claim")["claim"]  # White claims now: refused, Black gets the time
    assert now["wrong_claim"]["to"] == "black" and "Black's clock" in now["wrong_claim"]["text"]
    for move in ("Nf3", "Nc6", "Ng1", "Nb8", "Nf3", "Nc6", "Ng1"):
        ask(b, "play", move=move)
    right = ask(b, "claim", move="Nb8")["claim"]
    assert right["accepted"] and right["wrong_claim"] is None
