"""probe_moves: what each candidate move does to the draw rules, one ply ahead."""

from __future__ import annotations

import pytest

from pychessdraw import Game, Termination
from pychessdraw.errors import BadRequestError, GameOverError, IllegalMoveError
from pychessdraw.web.probe import MAX_CANDIDATES, engine_facts, probe_moves


def play(game: Game, moves: str) -> Game:
    for move in moves.split():
        game.play(move)
    return game


def by_san(game: Game, moves: list[str]) -> dict[str, dict]:
    return {p.san: p.to_dict() for p in probe_moves(game, moves)}


def test_a_third_occurrence_lets_the_opponent_claim_now() -> None:
    game = play(Game(), "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1")
    found = by_san(game, ["Ng8", "Nh5", "e5"])
    assert found["Ng8"]["repetition_count"] == 3
    assert found["Ng8"]["opponent_claims_now"] == ["threefold_repetition"]
    assert found["Ng8"]["draw"] is False and found["Ng8"]["automatic"] is None
    assert found["Nh5"]["opponent_claims_now"] == [] and found["Nh5"]["repetition_count"] == 1
    assert found["e5"]["opponent_claims"] == [] and found["e5"]["halfmove_clock"] == 0


def test_a_move_leaving_a_repeating_reply_lets_the_opponent_claim_with_that_reply() -> None:
    # After 1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6, White's Ng1 makes the position
    # after 2.Ng1 stand twice; Black's Ng8 would then make the start position
    # stand for the third time: Black could claim with Ng8.
    game = play(Game(), "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6")
    found = by_san(game, ["Ng1", "Nh4"])
    claims = found["Ng1"]["opponent_claims"]
    assert found["Ng1"]["opponent_claims_with_move"] == ["threefold_repetition"]
    assert {c["san"] for c in claims} == {"Ng8"} and claims[0]["article"] == "9.2.1.1"
    assert found["Ng1"]["opponent_claims_now"] == []
    assert found["Nh4"]["opponent_claims"] == []


def test_fifty_moves_now_and_with_a_move() -> None:
    # Clock 98 with White to move: any quiet move brings it to 99, and then
    # any quiet reply completes the fifty moves (9.3.1).
    game = Game("8/8/8/4k3/8/8/3R4/4K3 w - - 98 80")
    found = by_san(game, ["Rd3", "Kf2"])
    assert found["Rd3"]["halfmove_clock"] == 99
    assert found["Rd3"]["opponent_claims_with_move"] == ["fifty_moves"]
    assert all(c["article"] == "9.3.1" for c in found["Rd3"]["opponent_claims"])
    game = Game("8/8/8/4k3/8/8/3R4/4K3 w - - 99 80")
    found = by_san(game, ["Rd3"])
    assert found["Rd3"]["opponent_claims_now"] == ["fifty_moves"]
    assert found["Rd3"]["opponent_claims"][0]["article"] == "9.3.2"


def test_a_move_that_stalemates_ends_in_a_draw() -> None:
    # White king f7, queen on c6, Black king h8: Qg6 stalemates, Qh6 mates.
    game = Game("7k/5K2/2Q5/8/8/8/8/8 w - - 0 1")
    found = by_san(game, ["Qg6", "Qc8+", "Qh6#"])
    assert found["Qg6"]["automatic"] == {"termination": "stalemate", "winner": None}
    assert found["Qg6"]["draw"] is True and found["Qg6"]["opponent_claims"] == []
    assert found["Qh6#"]["automatic"] == {"termination": "checkmate", "winner": "white"}
    assert found["Qh6#"]["draw"] is False
    assert found["Qc8+"]["automatic"] is None


def test_fivefold_is_automatic_not_a_claim() -> None:
    moves = "Nf3 Nf6 Ng1 Ng8 Nc3 Nc6 Nb1 Nb8 Nf3 Nf6 Ng1 Ng8 Nh3 Nh6 Ng1"
    game = play(Game(), moves)
    (probe,) = probe_moves(game, ["Ng8"])
    assert probe.automatic is Termination.FIVEFOLD_REPETITION and probe.ends_in_draw
    assert probe.opponent_claims == ()


def test_the_game_is_unchanged_and_uci_is_accepted() -> None:
    game = play(Game(), "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1")
    before = (game.fen(), game.ply, game.repetition_count(), [c.to_dict() for c in game.claims()])
    probes = probe_moves(game, ["f6g8", "Ng8", "h7h6"])
    assert [p.uci for p in probes] == ["f6g8", "f6g8", "h7h6"]
    assert (game.fen(), game.ply, game.repetition_count(), [c.to_dict() for c in game.claims()]) == before


@pytest.mark.parametrize("bad", ["e4", ["e4", 5], ["e4"] * (MAX_CANDIDATES + 1), None])
def test_bad_lists_are_refused(bad: object) -> None:
    with pytest.raises(BadRequestError):
        probe_moves(Game(), bad)  # type: ignore[arg-type]


def test_an_illegal_move_is_refused_before_any_move_is_played() -> None:
    game = Game()
    with pytest.raises(IllegalMoveError):
        probe_moves(game, ["e4", "e5"])
    assert game.ply == 0 and game.fen() == Game().fen()


def test_a_finished_game_is_refused() -> None:
    game = play(Game(), "f3 e5 g4 Qh4#")
    with pytest.raises(GameOverError):
        probe_moves(game, ["a3"])


def test_engine_facts_give_the_claims_and_hints_of_the_position() -> None:
    game = play(Game(), "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1")
    facts = engine_facts(game, ["Ng8", "e6"])
    assert facts["turn"] == "black" and facts["ply"] == 7
    assert facts["claims"] == [{"rule": "threefold_repetition", "move": "f6g8", "san": "Ng8", "article": "9.2.1.1"}]
    assert facts["repetition_count"] == 2 and facts["halfmove_clock"] == 7
    assert facts["practical_draw"] is None
    assert [p["san"] for p in facts["probes"]] == ["Ng8", "e6"]
    minor = engine_facts(Game("8/8/4k3/3n4/8/2B5/2K5/8 b - - 0 1"), [])
    assert minor["practical_draw"] == "one minor piece each"
    assert minor["probes"] == [] and minor["claims"] == []


def test_the_bridge_op_answers_and_validates() -> None:
    from pychessdraw.web.bridge import Bridge

    bridge = Bridge()
    for move in "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1".split():
        assert bridge.call({"op": "play", "args": {"move": move, "offer_claim": False}})["ok"]
    reply = bridge.call({"op": "engine_facts", "args": {"moves": ["f6g8", "e7e6"]}})
    assert reply["ok"], reply
    facts = reply["engine_facts"]
    assert facts["claims"][0]["move"] == "f6g8"
    assert facts["probes"][0]["opponent_claims_now"] == ["threefold_repetition"]
    ply = bridge.game.ply
    for bad in ({"moves": "f6g8"}, {"moves": [1]}, {"moves": ["x" * 21]}, {"moves": ["e4"], "extra": 1}, {}):
        r = bridge.call({"op": "engine_facts", "args": bad})
        assert not r["ok"] and r["error"]["code"] == "bad_request", (bad, r)
    r = bridge.call({"op": "engine_facts", "args": {"moves": ["e2e4"]}})
    assert not r["ok"] and r["error"]["code"] == "illegal_move"
    assert bridge.game.ply == ply
    assert bridge.call({"op": "resign", "args": {"color": "black"}})["ok"]
    r = bridge.call({"op": "engine_facts", "args": {"moves": []}})
    assert not r["ok"] and r["error"]["code"] == "game_over"
