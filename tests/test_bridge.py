"""The bridge as the page uses it: argument validation (never an escaping
exception, the game unchanged on any error), replies that carry what changed,
display-ready facts, imported games as recorded, and the claim question."""

from __future__ import annotations

import json
import typing
from typing import Any, get_args

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pychessdraw.web.bridge import Bridge
from pychessdraw.web.contract import Operations, OpName


def call(bridge: Bridge, op: str, **args: Any) -> dict:
    return json.loads(bridge.handle(json.dumps({"op": op, "args": args})))


def snapshot(bridge: Bridge) -> str:
    reply = call(bridge, "state")
    return json.dumps([reply["facts"], reply["moves"], reply["game"], reply["ending"]], sort_keys=True)


def played(*moves: str) -> Bridge:
    bridge = Bridge()
    for move in moves:
        assert call(bridge, "play", move=move)["ok"]
    return bridge


BAD_REQUESTS = [
    "[" * 100_000,
    "{",
    "null",
    "5",
    '"play"',
    "[]",
    '{"op": 5}',
    '{"op": "play"}',
    '{"op": "play", "args": []}',
    '{"op": "new", "args": {"fen": 5}}',
    '{"op": "new", "args": {"chess960": "yes"}}',
    '{"op": "new", "args": {"flag_rules": "none"}}',
    '{"op": "play", "args": {"move": ["e4"]}}',
    '{"op": "play", "args": {"move": "e4", "extra": 1}}',
    '{"op": "play", "args": {"move": "' + "e" * 10_000 + '"}}',
    '{"op": "status_at", "args": {"ply": true}}',
    '{"op": "status_at", "args": {"ply": -1}}',
    '{"op": "analyse", "args": {"level": 9}}',
    '{"op": "resign", "args": {"color": "red"}}',
    '{"op": "load_pgn", "args": {"pgn": 5}}',
    '{"op": "load_pgn", "args": {"pgn": "1. e4", "index": "0"}}',
    '{"op": "restore", "args": {"moves": "e2e4"}}',
    '{"op": "restore", "args": {"moves": [5]}}',
    '{"op": "restore", "args": {"moves": ["e2e4", "e2e4"]}}',
    '{"op": "restore", "args": {"ending": {"op": "x"}}}',
    '{"op": "restore", "args": {"headers": {"White": 5}}}',
    '{"op": "batch", "args": {"requests": 5}}',
    '{"op": "batch", "args": {"requests": [{"op": "batch", "args": {}}]}}',
    '{"op": "claim", "args": {"move": 5}}',
    '{"op": "undo", "args": {"x": 1}}',
    '{"op": "\\u0000"}',
]


def test_bad_requests_answer_an_error_and_keep_the_game() -> None:
    bridge = played("e4", "e5", "Nf3")
    before = snapshot(bridge)
    for text in BAD_REQUESTS:
        reply = json.loads(bridge.handle(text))
        assert reply["ok"] is False, text[:60]
        assert set(reply["error"]) >= {"code", "message"} and reply["error"]["code"], text[:60]
        assert len(reply["error"]["message"]) <= 160
        assert snapshot(bridge) == before, f"{text[:60]} changed the game"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=12,
)
# The game's operations from the contract (not the review's and the engine's,
# which keep state of their own), and two that do not exist.
OPS = st.sampled_from(
    [op for op in get_args(OpName) if not op.startswith(("review_", "engine_")) and op != "rules"]
    + ["batch", "nonsense"]
)
ARG_NAMES = st.sampled_from(
    [
        "fen",
        "chess960",
        "flag_rules",
        "move",
        "offer_claim",
        "pgn",
        "index",
        "ply",
        "level",
        "color",
        "moves",
        "ending",
        "headers",
        "requests",
        "start_fen",
        "x",
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(op=OPS, args=st.one_of(JSON, st.dictionaries(ARG_NAMES, JSON, max_size=4)))
def test_fuzz_never_raises_and_an_error_changes_nothing(op: str, args: Any) -> None:
    bridge = played("e4", "e5")
    before = snapshot(bridge)
    reply = json.loads(bridge.handle(json.dumps({"op": op, "args": args})))
    assert isinstance(reply["ok"], bool)
    if not reply["ok"]:
        assert reply["error"]["code"] and isinstance(reply["error"]["message"], str)
        assert snapshot(bridge) == before


def test_a_move_reply_does_not_grow_with_the_game() -> None:
    bridge = Bridge()
    sizes = []
    game = (
        "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4 c6 cxb5 axb5 Nc3 Bb7 "
        "Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 Bxe7 Qxe7 exd6 Qf6 Nbd2 Nxd6"
    ).split()
    for i, move in enumerate(game):
        reply = call(bridge, "play", move=move, offer_claim=False)
        assert reply["ok"], reply
        assert len(reply["moves"]["add"]) == 1 and reply["moves"]["keep"] == i
        sizes.append(len(json.dumps(reply)))
    assert max(sizes[20:]) < 1.3 * min(sizes[:10]) + 2000


def test_restore_is_one_request_and_refuses_a_bad_move() -> None:
    bridge = Bridge()
    reply = call(bridge, "restore", moves=["e2e4", "e7e5", "g1f3"], ending={"op": "resign", "color": "black"})
    assert reply["ok"] and [r["label"] for r in reply["moves"]["add"]] == ["1.e4", "1...e5", "2.Nf3"]
    assert reply["facts"]["outcome"]["termination"] == "resignation" and reply["ending"] == {
        "op": "resign",
        "color": "black",
    }
    before = snapshot(bridge)
    bad = call(bridge, "restore", moves=["e2e4", "e2e4"])
    assert not bad["ok"] and bad["error"]["message"] == "1...e2e4 is not legal here"
    assert snapshot(bridge) == before


def test_dead_position_every_part_agrees() -> None:
    facts = call(Bridge(), "new", fen="4k3/8/8/p2p2p1/P2P2P1/8/8/4K3 w - - 0 1")["facts"]
    assert facts["outcome"]["termination"] == "dead_position"
    assert {c: w["answer"] for c, w in facts["winnable"].items()} == {"white": "no", "black": "no"}
    assert "dead position" in facts["dead_text"] and facts["hints"] == [] and facts["claims"] == []
    assert facts["offer"] is None and facts["legal_moves"] == []


def test_checkmate_leaves_no_hints() -> None:
    bridge = played("f3", "e5", "g4", "Qh4#")
    facts = call(bridge, "state")["facts"]
    assert facts["outcome"]["termination"] == "checkmate" and facts["hints"] == []
    assert facts["winnable"]["black"]["answer"] == "yes"


def test_background_search_proves_a_dead_position() -> None:
    bridge = Bridge()
    facts = call(bridge, "new", fen="2k5/6p1/6P1/6PK/6P1/6PR/7P/8 b - - 0 1")["facts"]
    assert facts["outcome"] is None
    last = None
    for level in range(4):
        last = call(bridge, "analyse", level=level)
        if last["analysed"]["final"]:
            break
    assert last is not None and last["facts"]["outcome"]["termination"] == "dead_position"
    assert not call(bridge, "play", move="Kb7")["ok"]


def drawn_facts(bridge: Bridge) -> dict:
    return call(bridge, "state")["facts"]


def test_imported_result_is_shown_and_exported_as_recorded() -> None:
    bridge = Bridge()
    reply = call(bridge, "load_pgn", pgn="1. e4 e5 1-0")
    out = reply["facts"]["outcome"]
    assert out["termination"] == "unknown" and out["result"] == "1-0" and out["how"] == "recorded"
    assert "resign" not in json.dumps(out).lower() and "reason not recorded" in out["detail"]
    pgn = call(bridge, "export_pgn")["pgn"]
    assert '[Result "1-0"]' in pgn and "Termination" not in pgn and pgn.rstrip().endswith("1-0")
    drawn = call(bridge, "load_pgn", pgn='[Termination "adjudication"]\n\n1. e4 e5 1/2-1/2')["facts"]["outcome"]
    assert drawn["termination"] == "unknown" and "agreement" not in json.dumps(drawn).lower()
    assert '[Termination "adjudication"]' in call(bridge, "export_pgn")["pgn"]
    assert {w["word"] for w in drawn_facts(bridge)["winnable"].values()} <= {"Yes", "No", "Not searched"}
    # undo lifts the recorded result; the game goes on
    assert call(bridge, "undo")["facts"]["outcome"] is None


def test_moves_after_an_automatic_ending_load_and_are_marked() -> None:
    shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 " * 4
    reply = call(Bridge(), "load_pgn", pgn=f"{shuffle} 9. e4 e5 1/2-1/2")
    assert reply["ok"]
    rows = reply["moves"]["add"]
    assert len(rows) == 18 and [r["after_end"] for r in rows].index(True) == 16
    out = reply["facts"]["outcome"]
    assert (
        out["termination"] == "fivefold_repetition"
        and out["ended_at"] == 16
        and out["ended_at_label"] == "after 8...Ng8"
    )


def test_several_games_are_listed_and_one_is_picked() -> None:
    bridge = played("d4")
    text = '[White "A"]\n[Black "B"]\n\n1. e4 e5 *\n\n[White "C"]\n[Black "D"]\n\n1. d4 d5 2. c4 *\n'
    listed = call(bridge, "load_pgn", pgn=text)
    assert listed["ok"] and [g["index"] for g in listed["games"]] == [0, 1] and "facts" not in listed
    assert "C - D" in listed["games"][1]["label"]
    assert len(call(bridge, "state")["moves"]["add"]) == 1  # nothing loaded yet
    picked = call(bridge, "load_pgn", pgn=text, index=1)
    assert [r["san"] for r in picked["moves"]["add"]] == ["d4", "d5", "c4"]


def test_fifty_move_claim_said_once_with_the_moves_to_pick() -> None:
    facts = call(Bridge(), "new", fen="4k3/8/8/8/8/8/8/R3K3 w - - 99 80")["facts"]
    [group] = facts["claims"]
    assert group["rule"] == "fifty_moves" and not group["arrows"] and len(group["moves"]) > 10
    assert group["text"].startswith("Any move that is not a pawn move or a capture lets White claim")


def test_playing_a_claiming_move_asks_first() -> None:
    bridge = played("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
    ask = call(bridge, "play", move="Ng8", offer_claim=True)
    assert ask == {
        "ok": True,
        "ask": {
            "rule": "threefold_repetition",
            "uci": "f6g8",
            "san": "Ng8",
            "question": "Ng8 repeats the position a third time: claim a draw with this move?",
        },
    }
    assert len(call(bridge, "state")["moves"]["add"]) == 7  # not played yet
    assert call(bridge, "play", move="Ng8", offer_claim=False)["ok"]


def test_promotion_without_a_piece_lists_the_choices() -> None:
    bridge = Bridge()
    call(bridge, "new", fen="8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    reply = call(bridge, "play", move="e8")
    assert not reply["ok"] and reply["error"]["code"] == "promotion_needed"
    assert [c["uci"] for c in reply["error"]["choices"]] == ["e7e8q", "e7e8r", "e7e8b", "e7e8n"]


def test_errors_name_the_move_not_the_position() -> None:
    bridge = played("e4", "e5", "Nf3")
    err = call(bridge, "play", move="Qxz9")["error"]
    assert err["message"].startswith(("2...Qxz9 is not a move", "2...Qxz9 is not legal here"))
    assert "/" not in err["message"]
    err = call(bridge, "new", fen="1. e4 e5 2. Nf3 Nc6 " * 50)["error"]
    assert err["code"] == "bad_fen" and len(err["message"]) <= 160


def test_draw_offer_comes_from_the_player_who_has_just_moved() -> None:
    facts = call(played("e4"), "state")["facts"]
    assert facts["offer"]["by"] == "white" and facts["offer"]["to"] == "black"


def test_the_operations_are_the_contracts() -> None:
    """The bridge answers exactly the operations of bridge_contract.Operations
    (the page never sent ``batch``: it is gone), and refuses an argument the
    contract does not name, for every operation."""
    bridge = Bridge()
    assert set(bridge.dispatcher.specs) == set(Operations.__annotations__) == set(typing.get_args(OpName))
    gone = call(bridge, "batch", requests=[{"op": "play", "args": {"move": "e4"}}])
    assert not gone["ok"] and gone["error"]["code"] == "bad_request" and "unknown operation" in gone["error"]["message"]
    for op in Operations.__annotations__:
        reply = call(bridge, op, nonsense=1)
        assert not reply["ok"] and reply["error"]["message"] == "unknown argument 'nonsense'", op


def test_a_record_that_contradicts_the_board_is_named() -> None:
    reply = call(Bridge(), "load_pgn", pgn="1. f3 e5 2. g4 Qh4# 1-0")
    out = reply["facts"]["outcome"]
    assert out["termination"] == "checkmate" and out["result"] == "0-1" and "the record says 1-0" in out["detail"]


def _check_one_story(facts: dict) -> None:
    out = facts["outcome"]
    answers = {c: w["answer"] for c, w in facts["winnable"].items()}
    if out is not None:
        assert facts["hints"] == [] and facts["claims"] == [] and facts["offer"] is None and facts["legal_moves"] == []
        assert facts["turn_text"] == "Game over"
        if out["termination"] in ("dead_position", "insufficient_material"):
            assert answers == {"white": "no", "black": "no"} and "dead position" in facts["dead_text"]
    else:
        assert facts["legal_moves"] and facts["offer"] is not None
        assert answers != {"white": "no", "black": "no"}, "both sides proven unable to mate, yet the game goes on"
        if "yes" in answers.values():
            assert facts["dead_text"].startswith("Not a dead position")
    for color, answer in answers.items():
        if answer == "no":
            assert not any(h.startswith(color.capitalize()) for h in facts["hints"]), facts["hints"]


def test_every_part_of_the_facts_tells_one_story_over_random_games() -> None:
    import random

    rng = random.Random(7)
    for _ in range(6):
        bridge = Bridge()
        facts = call(bridge, "state")["facts"]
        for _ply in range(130):
            _check_one_story(facts)
            if facts["outcome"] is not None:
                break
            moves = facts["legal_moves"]
            captures = [m for m in moves if "x" in m["san"]]
            move = rng.choice(captures if captures and rng.random() < 0.6 else moves)
            reply = call(bridge, "play", move=move["uci"])
            assert reply["ok"]
            facts = reply["facts"]
            if rng.random() < 0.2:
                analysed = call(bridge, "analyse", level=0)
                facts = analysed["facts"]
        _check_one_story(facts)


def test_a_claimed_ending_says_claimed_once() -> None:
    bridge = Bridge()
    call(bridge, "new")
    for move in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        call(bridge, "play", move=move)
    reply = call(bridge, "claim", move="Ng8")
    detail = reply["facts"]["outcome"]["detail"]
    assert detail.count("claimed") == 1, detail
    # the outcome cites the article the claim's verdict cites: made with an intended move
    assert "(FIDE 9.2.1.1," in detail and reply["facts"]["outcome"]["article"] == "9.2.1.1", detail


def test_endings_no_one_claims_have_no_claim_article() -> None:
    from pychessdraw import Outcome, Termination

    assert Outcome(Termination.FIVEFOLD_REPETITION, None).claim_article is None
    assert Outcome(Termination.AGREEMENT, None, claimed=True).claim_article is None


def test_a_move_row_is_formatted_without_touching_the_game() -> None:
    """present.make_row reads the game after the move; it never plays one."""
    from pychessdraw import Game
    from pychessdraw.web import present

    game = Game()
    for san in ("e4", "e5", "Nf3"):
        game.push(game.parse_move(san))
    before = (game.ply, game.fen())
    row = present.make_row(game, "Nf3", "g1f3")
    assert (game.ply, game.fen()) == before
    assert row["ply"] == 3 and row["label"] == "2.Nf3" and row["number"] == 2 and row["white"] is True
    game.push(game.parse_move("Nc6"))
    black = present.make_row(game, "Nc6", "b8c6")
    assert black["label"] == "2...Nc6" and black["number"] == 2 and black["white"] is False


def test_a_claims_verdict_names_the_claimer() -> None:
    """Either side may claim: the verdict says whose claim it was."""
    bridge = played("Nf3", "Nf6")
    refused = call(bridge, "claim")  # White claims now: no rule allows it
    assert refused["claim"]["headline"] == "White's claim refused"
    bridge = played("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
    refused = call(bridge, "claim")  # Black, before the third occurrence
    assert refused["claim"]["headline"] == "Black's claim refused"
    accepted = call(bridge, "claim", move="Ng8")
    assert accepted["claim"]["headline"] == "Black's claim accepted"


def test_an_automatic_claim_is_recorded_as_one() -> None:
    """A claim made by the page's auto-claim setting: the verdict, the saved
    ending and the exported PGN say so, and a restore keeps it; the PGN's
    ending is still read back from it."""
    from pychessdraw import pgn
    from pychessdraw.outcome import Termination

    moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]
    bridge = played(*moves)
    reply = call(bridge, "claim", auto=True)  # White, the position there a third time
    assert reply["claim"]["accepted"] and "made automatically" in reply["claim"]["text"]
    assert reply["ending"] == {"op": "claim", "color": "white", "auto": True}
    text = call(bridge, "export_pgn")["pgn"]
    assert "White's claim was made automatically, by the page's auto-claim setting." in text
    # the ending is read back from the comment alone, the note before its words
    game, _ = pgn.parse_one("\n".join(line for line in text.splitlines() if "TerminationDetails" not in line))
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.THREEFOLD_REPETITION and outcome.claimed
    uci = [row["uci"] for row in call(bridge, "state")["moves"]["add"]]
    restored = call(Bridge(), "restore", start_fen=None, moves=uci, headers={}, ending=reply["ending"])
    assert restored["ok"] and restored["ending"] == reply["ending"]
    plain = played(*moves)
    assert call(plain, "claim")["ending"] == {"op": "claim"}
    assert "automatically" not in call(plain, "export_pgn")["pgn"]
