"""PGN reading and export, and the JSON bridge the browser worker calls."""

from __future__ import annotations

import json

from pychessdraw import Termination
from pychessdraw.pgn import export, parse_one, read_games
from pychessdraw.web.bridge import Bridge

TWO_GAMES = """[Event "one"]
[Result "1-0"]

1. e4 {a comment with [brackets]
[Event "not a header"]} e5 (1... c5 2. Nf3 (2. c3)) 2. Qh5 $1 Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0

[Event "two"]
[Variant "Chess960"]
[SetUp "1"]
[FEN "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1"]

1. a3 a6 2. O-O O-O *
"""


def test_reader_skips_comments_variations_and_nags() -> None:
    games = list(read_games(TWO_GAMES.splitlines(keepends=True)))
    assert [g.headers["Event"] for g in games] == ["one", "two"]
    assert games[0].tokens == ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6??", "Qxf7#"]
    assert games[0].result == "1-0" and games[1].tokens == ["a3", "a6", "O-O", "O-O"]


def test_broken_text_is_reported_with_ply_and_token() -> None:
    games = list(read_games(['[Event "x"]\n', "\n", "1. e4 e5 ( 2. Nf3\n"]))  # a variation never closed
    assert games[0].error is not None and games[0].error.details["ply"] == 3


def test_parse_one_restores_a_claimed_ending_and_exports_termination() -> None:
    game, _ = parse_one('[Termination "threefold_repetition"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2')
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.THREEFOLD_REPETITION and outcome.claimed
    text = export(game)
    assert '[Result "1/2-1/2"]' in text and '[Termination "normal"]' in text  # the PGN standard's word
    assert '[TerminationDetails "Threefold repetition, claimed (FIDE 9.2)"]' in text


def test_chess960_pgn_round_trip() -> None:
    game, parsed = parse_one(TWO_GAMES.split("\n\n", 2)[2])
    assert game.chess960 and game.ply == 4
    again, _ = parse_one(export(game, parsed.headers))
    assert again.fen() == game.fen()


def call(bridge: Bridge, op: str, **args: object) -> dict:
    return json.loads(bridge.handle(json.dumps({"op": op, "args": args})))


def rows(bridge: Bridge) -> list[dict]:
    return call(bridge, "state")["moves"]["add"]


def test_bridge_plays_claims_and_keeps_the_game_on_errors() -> None:
    bridge = Bridge()
    for move in "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1".split():
        reply = call(bridge, "play", move=move)
        assert reply["ok"] and len(reply["moves"]["add"]) == 1  # a move sends its own row only
    facts = call(bridge, "state")["facts"]
    [group] = facts["claims"]
    assert group["rule"] == "threefold_repetition" and group["article"] == "9.2.1.1" and not group["now"]
    assert [(m["uci"], m["san"]) for m in group["moves"]] == [("f6g8", "Ng8")]
    assert [m["san"] for m in rows(bridge)] == "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1".split()
    bad = call(bridge, "play", move="Qxh7")
    assert not bad["ok"] and bad["error"]["code"] == "illegal_move" and len(rows(bridge)) == 7
    bad = call(bridge, "load_pgn", pgn="1. e4 e5 2. Ke3")
    assert not bad["ok"] and bad["error"]["code"] == "illegal_move" and len(rows(bridge)) == 7
    assert bad["error"]["message"] == "2.Ke3 is not legal here"
    bad = call(bridge, "new", fen="8/8/8")
    assert not bad["ok"] and bad["error"]["code"] == "bad_fen" and len(rows(bridge)) == 7
    claimed = call(bridge, "claim", move="Ng8")
    assert claimed["claim"]["accepted"] and claimed["facts"]["outcome"]["termination"] == "threefold_repetition"
    assert claimed["moves"] == {"keep": 7, "add": [claimed["moves"]["add"][0]]}
    assert claimed["moves"]["add"][0]["san"] == "Ng8" and claimed["moves"]["add"][0]["repetition_count"] == 3
    assert claimed["facts"]["legal_moves"] == [] and claimed["ending"] == {"op": "claim"}
    assert call(bridge, "undo")["facts"]["outcome"] is None
    undone = call(bridge, "undo")
    assert undone["moves"] == {"keep": 7, "add": []} and len(rows(bridge)) == 7


def test_bridge_status_at_and_export_and_bad_requests() -> None:
    bridge = Bridge()
    call(bridge, "play", move="e4")
    at0 = call(bridge, "status_at", ply=0)["facts"]
    assert at0["ply"] == 0 and not at0["live"] and at0["where"] == "the start position"
    assert not call(bridge, "status_at", ply=5)["ok"]
    assert "1. e4 *" in call(bridge, "export_pgn")["pgn"]
    assert call(bridge, "nonsense")["error"]["code"] == "bad_request"
    assert json.loads(bridge.handle("{not json"))["error"]["code"] == "bad_request"
    legal = call(bridge, "state")["facts"]["legal_moves"]
    assert {"uci": "e7e5", "san": "e5", "from": "e7", "to": "e5", "promotion": None} in legal


def test_bridge_castling_destination_is_the_kings_square() -> None:
    bridge = Bridge()
    facts = call(bridge, "new", fen="r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")["facts"]
    castles = [m for m in facts["legal_moves"] if m["san"] == "O-O"]
    assert castles == [{"uci": "e1g1", "san": "O-O", "from": "e1", "to": "g1", "promotion": None}]


def test_bridge_analyse_searches_and_can_end_a_dead_game() -> None:
    bridge = Bridge()
    # Black's only move takes the queen: after it, two bare kings (dead). The
    # static proofs cannot see it; the page-budget search can.
    facts = call(bridge, "new", fen="8/8/8/8/8/5K2/7Q/7k b - - 0 1")["facts"]
    assert facts["outcome"] is None
    analysed = call(bridge, "analyse")
    assert analysed["analysed"]["final"] and analysed["facts"]["outcome"]["termination"] == "dead_position"
    assert not call(bridge, "play", move="Kxh2")["ok"]  # the game is over


def test_bridge_flag_rules_and_flag() -> None:
    bridge = Bridge()
    facts = call(bridge, "new", fen="8/8/4kr2/8/8/4K3/8/4N3 w - - 0 1", flag_rules="uscf")["facts"]
    assert facts["flag_rules"] == "uscf" and facts["flag_fall"]["black"]["result"] == "1/2-1/2"
    flagged = call(bridge, "flag", color="black")
    assert (
        flagged["facts"]["outcome"]["termination"] == "time_forfeit"
        and flagged["facts"]["outcome"]["result"] == "1/2-1/2"
    )
    assert flagged["ending"] == {"op": "flag", "color": "black"}


def test_refused_or_empty_actions_keep_an_imported_game_as_recorded() -> None:
    """A refused resignation, a flag fall of no colour and an undo with
    nothing to take back change nothing: the export stays as imported."""
    bridge = Bridge()
    stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    text = f'[Event "x"]\n[SetUp "1"]\n[FEN "{stalemate}"]\n[Result "1/2-1/2"]\n[Termination "normal"]\n\n1/2-1/2\n'
    assert call(bridge, "load_pgn", pgn=text)["ok"]
    before = call(bridge, "export_pgn")["pgn"]
    assert '[Termination "normal"]' in before
    assert not call(bridge, "resign", color="purple")["ok"]
    assert not call(bridge, "flag", color=None)["ok"]
    assert call(bridge, "undo")["error"]["code"] == "nothing_to_undo"
    assert call(bridge, "export_pgn")["pgn"] == before


def test_an_earlier_positions_facts_say_what_the_current_position_lets_claim() -> None:
    """Browsing: a claim is always made in the current position, so an
    earlier position's panel says whether one is open there (and the
    board's rows carry the check of each position, not the facts)."""
    bridge = Bridge()
    for move in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        call(bridge, "play", move=move)
    at2 = call(bridge, "status_at", ply=2)["facts"]
    assert at2["where"] == "the position after 1...Nf6" and at2["claims"] == []
    assert at2["claims_text"] == "Black may claim a draw in the current position (End returns to it)."
    call(bridge, "new")
    for move in ["e4", "f5", "Qh5+"]:
        reply = call(bridge, "play", move=move)
    assert [row["check"] for row in reply["moves"]["add"]] == [True]
    assert call(bridge, "status_at", ply=1)["facts"]["claims_text"] == "No draw claim in the current position."
    assert call(bridge, "state")["game"]["start_check"] is False


def test_check_fen_changes_nothing_and_undo_is_said_possible_only_with_something_to_take_back() -> None:
    bridge = Bridge()
    call(bridge, "play", move="e4")
    bad = call(bridge, "check_fen", fen="8/8/8/8/8/8/8/K1k5 w - - 0 1 extra")
    assert not bad["ok"] and bad["error"]["code"] == "bad_fen"
    assert call(bridge, "check_fen", fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1") == {"ok": True}
    assert len(rows(bridge)) == 1  # the game is untouched
    assert call(bridge, "state")["facts"]["can_undo"] is True
    stalemate = call(bridge, "new", fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")["facts"]
    assert stalemate["outcome"]["termination"] == "stalemate" and stalemate["can_undo"] is False
    fresh = call(bridge, "new", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert fresh["facts"]["can_undo"] is False
    assert call(bridge, "resign", color="white")["facts"]["can_undo"] is True  # the resignation


def test_the_counters_say_claimable_only_while_the_game_goes_on() -> None:
    bridge = Bridge()
    for move in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]:
        facts = call(bridge, "play", move=move)["facts"]
    assert facts["repetition"]["short"] == "3 of 5, claimable"
    claimed = call(bridge, "claim")["facts"]
    assert claimed["outcome"]["termination"] == "threefold_repetition"
    assert claimed["repetition"]["short"] == "3 of 5"  # the claim was made: nothing is claimable now
