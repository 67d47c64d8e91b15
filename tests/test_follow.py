"""The Arbiter view's Python side (pychessdraw.web.follow): the CLI watch's events,
word for word, plus the boards as the page shows them and the log's voids."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_watch import FOOLS_MATE, SHUFFLE, pgn, prefixes, scanned

from pychessdraw.contract import WatchEventDict
from pychessdraw.records.tracker import Tracker
from pychessdraw.web.follow import (
    MAX_INLINE_MOVES,
    STATES,
    ArbiterBridge,
    Follower,
    arbiter_line,
    board_number,
    clock_text,
)

# White: king and queen; Black: a lone king. Black to move, not stalemated.
KQK = "4k3/8/8/8/8/8/8/3QK3 b - - 0 1"


def follow(texts: list[str]) -> tuple[Follower, list[dict[str, Any]], dict[int, dict[str, Any]]]:
    """Follow every text; the events, and each board's latest view."""
    follower, events, boards = Follower(), [], {}
    for text in texts:
        out = follower.update(text)
        events += out["events"]
        boards.update({b["game"]: b for b in out["boards"]})
    return follower, events, boards


def standing(follower: Follower, voided: set[int]) -> dict[int, list[tuple[int, str, str]]]:
    rows: dict[int, list[tuple[int, str, str]]] = {}
    for e in follower.log:
        if e["id"] not in voided and e["kind"] in ("automatic", "claimable", "claimable_with_move"):
            rows.setdefault(e["game"], []).append((e["ply"], e["rule"], e["kind"]))
    return {g: sorted(r) for g, r in rows.items()}


def test_the_events_are_the_watchs_word_for_word_with_an_id_and_its_line() -> None:
    texts = [pgn("A", "B", m) + pgn("C", "D", FOOLS_MATE) for m in prefixes(SHUFFLE)]
    follower, events, _ = follow(texts)
    tracker = Tracker()
    expected = [e for text in texts for e in tracker.update(text)]
    assert [
        {k: v for k, v in e.items() if k not in ("id", "text", "board", "line", "more")} for e in events
    ] == expected
    assert [e["id"] for e in events] == list(range(1, len(events) + 1))
    assert (
        events[1]["text"]
        == "game 1 (A - B, round 1) after 4.Ng1: threefold repetition can be claimed with Ng8 (FIDE 9.2.1.1)"
    )


def test_the_arbiters_line_says_board_players_move_and_event() -> None:
    texts = [pgn("A", "B", m) for m in prefixes(SHUFFLE)]
    _, events, boards = follow(texts)
    claim = next(e for e in events if e["kind"] == "claimable_with_move")
    assert claim["line"] == (
        "Board 1 · A – B · after 4.Ng1 · threefold repetition can be claimed with Ng8 (FIDE 9.2.1.1)"
    )
    assert claim["board"] == boards[1]["board"] == 1
    assert claim["more"] == ""


def _claim(moves: list[str]) -> WatchEventDict:
    return {
        "game": 3,
        "white": "A",
        "black": "B",
        "round": "5.12",
        "ply": 81,
        "move": "Kg1",
        "label": "41.Kg1",
        "rule": "fifty_moves",
        "kind": "claimable_with_move",
        "moves": moves,
    }


def test_a_claims_line_names_five_intended_moves_and_counts_the_rest() -> None:
    many = [f"R{f}1" for f in "abcdefgh"] + [f"K{s}" for s in ("f2", "g2", "h2", "f1", "h1")] + ["a4", "b4", "c4", "d4"]
    assert len(many) == 17
    line, more = arbiter_line(_claim(many), 12)
    assert line.startswith("Board 12 · A – B · after 41.Kg1 · fifty-move rule can be claimed with ")
    assert ", ".join(many[:MAX_INLINE_MOVES]) + " or any of 17 moves (FIDE" in line
    assert many[MAX_INLINE_MOVES] not in line
    assert more == "all 17 moves: " + ", ".join(many)
    few = many[:MAX_INLINE_MOVES]
    line, more = arbiter_line(_claim(few), 12)
    assert " or ".join(few) in line and "any of" not in line and more == ""


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        ({"Board": "7", "Round": "5.12"}, 7),
        ({"Round": "5.12"}, 12),
        ({"Round": "5"}, 4),
        ({"Round": "5.x", "Board": " "}, 4),
        ({"Board": "0"}, 4),
        ({"Board": "-3", "Round": "2.9"}, 9),
        ({"Board": "\u0663"}, 4),  # a digit, but not an ASCII one
    ],
)
def test_the_board_number_comes_from_board_then_rounds_board_part_then_place(
    tags: dict[str, str], expected: int
) -> None:
    assert board_number(tags, 4) == expected


def test_the_boards_number_is_sent_with_its_view() -> None:
    text = pgn("A", "B", "1. e4 e5", Round="3.21")
    _, _, boards = follow([text + pgn("C", "D", "1. d4")])
    assert (boards[1]["board"], boards[2]["board"]) == (21, 2)


def test_the_board_states_follow_the_game_move_by_move() -> None:
    follower = Follower()
    words = SHUFFLE.split()
    seen, said = {}, {}
    for n in (6, 7, 8, 16):
        out = follower.update(pgn("A", "B", " ".join(words[:n])))
        (board,) = out["boards"]
        seen[n] = (board["state"], board["claim_moves"], board["last_move"], board["plies"], board["moves"])
        said[n] = board["state_text"]
        assert board["last_uci"] == ("f3g1" if n == 7 else "f6g8" if n in (8, 16) else "g8f6")
    # the state in the referee's words: who may claim what, with which move
    assert said == {
        6: "playing",
        7: "Black may claim threefold repetition with 4...Ng8",
        8: "White may claim threefold repetition",
        16: "must stop: fivefold repetition",
    }
    assert seen == {
        6: ("playing", [], "Nf6", 6, 3),
        7: ("claimable_with_move", ["Ng8"], "Ng1", 7, 4),
        8: ("claimable", [], "Ng8", 8, 4),
        16: ("must_stop", [], "Ng8", 16, 8),
    }
    assert {"playing", "claimable_with_move", "claimable", "must_stop"} < set(STATES)


def test_the_last_move_is_numbered_by_the_referee_from_the_games_start() -> None:
    """The page shows ``move_text`` as sent: the move number comes from the
    game's FEN tag, not from ply arithmetic in the page."""
    follower = Follower()
    (board,) = follower.update(pgn("A", "B", "e4 e5"))["boards"]
    assert (board["move_text"], board["moves"]) == ("1...e5", 1)
    fen = '[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 23"]\n[SetUp "1"]\n'
    text = '[White "C"]\n[Black "D"]\n' + fen + "\n23... Kd7 24. e4 *\n"
    (board,) = Follower().update(text)["boards"]
    assert (board["move_text"], board["moves"], board["plies"]) == ("24.e4", 24, 2)


def test_a_boards_note_gives_the_record_and_what_the_rules_give_in_words() -> None:
    """No verdict name reaches the card: the note says the record, what the
    rules give and the verdict in words; %clk clocks are one line of text."""
    _, _, boards = follow([pgn("A", "B", SHUFFLE, result="1-0")])
    note = boards[1]["note"]
    assert note.startswith("1-0 recorded; the rules give 1/2-1/2 (") and "_" not in note
    text = '[White "C"]\n[Black "D"]\n\n1. e4 { [%clk 0:05:00] } e5 { [%clk 0:04:58] } *\n'
    (board,) = Follower().update(text)["boards"]
    assert board["clocks_text"] == "Clocks: White 5:00 · Black 4:58" and board["note"] == ""


def test_an_unchanged_board_is_not_sent_again() -> None:
    follower = Follower()
    follower.update(pgn("A", "B", "e4 e5") + pgn("C", "D", "d4"))
    out = follower.update(pgn("A", "B", "e4 e5 Nf3") + pgn("C", "D", "d4"))
    assert [b["game"] for b in out["boards"]] == [1]
    assert out["count"] == 2


def test_a_correction_voids_the_later_events_and_the_restart_all() -> None:
    words = SHUFFLE.split()
    follower = Follower()
    voided: set[int] = set()
    texts = [pgn("A", "B", " ".join(words[:n])) + pgn("C", "D", FOOLS_MATE, "0-1") for n in (8, 16)]
    texts += [pgn("A", "B", " ".join(words[:7]) + " Nc6") + pgn("E", "F", "e4")]  # corrected; another game at 2
    for text in texts:
        voided |= set(follower.update(text)["voided"])
    kinds = [(e["game"], e["kind"]) for e in follower.log if e["id"] in voided]
    assert (1, "claimable") in kinds and (1, "automatic") in kinds  # plies 8 and 16: after the correction
    assert (2, "automatic") in kinds and (2, "ended") in kinds  # the mated game, gone with its restart
    assert standing(follower, voided) == scanned(texts[-1])
    assert follower.ended == {}


def test_games_added_mid_round_and_a_broken_game_leave_the_others_alone() -> None:
    first = pgn("A", "B", "e4 e5") + pgn("C", "D", "d4 d5")
    broken = pgn("A", "B", "e4 e5 Nf3 Nc6") + pgn("C", "D", "d4 d5 Kxe8") + pgn("E", "F", FOOLS_MATE)
    follower, events, boards = follow([first, broken])
    assert [(e["game"], e["kind"]) for e in events] == [(2, "error"), (3, "automatic")]
    assert "Kxe8" in boards[2]["error"] and boards[2]["plies"] == 2 and boards[2]["urgency"] == 1
    assert boards[1]["plies"] == 4 and boards[1]["error"] is None
    assert boards[3]["state"] == "must_stop" and boards[3]["urgency"] == 0
    mended = pgn("A", "B", "e4 e5 Nf3 Nc6") + pgn("C", "D", "d4 d5 c4") + pgn("E", "F", FOOLS_MATE, "0-1")
    out = follower.update(mended)
    views = {b["game"]: b for b in out["boards"]}
    assert views[2]["error"] is None and views[2]["plies"] == 3
    assert views[3]["state"] == "ended" and views[3]["result"] == "0-1" and views[3]["verdict"] == "ok"


def test_clocks_are_each_sides_last_clk() -> None:
    moves = "e4 {[%clk 1:30:00]} e5 {[%clk 0:04:59.5]} Nf3 Nc6 {[%clk 0:00:07.25]}"
    _, _, boards = follow([pgn("A", "B", moves)])
    assert boards[1]["clocks"] == {"white": "1:30:00", "black": "0:07.2"}
    _, _, boards = follow([pgn("A", "B", "e4 e5")])
    assert boards[1]["clocks"] == {"white": None, "black": None}
    assert [clock_text(ms) for ms in (9_950, 10_000, 754_000, 3_600_000)] == ["0:09.9", "0:10", "12:34", "1:00:00"]


def test_a_loss_on_time_says_whether_the_opponent_could_mate() -> None:
    tags = {"SetUp": "1", "FEN": KQK, "Termination": "time forfeit"}
    # Black, with a lone king, loses on time: White can mate, the win stands.
    _, events, boards = follow([pgn("A", "B", "Kf7", "1-0", **tags)])
    ended = events[-1]
    assert ended["kind"] == "ended" and ended["time_forfeit"]["opponent_winnable"] is True
    assert boards[1]["state"] == "ended" and boards[1]["expected_result"] is None
    assert boards[1]["flag"].startswith("Black's flag fell and White can still checkmate (a mating line: 2.")
    # White loses on time: Black has a lone king and cannot mate: a draw, marked.
    _, events, boards = follow([pgn("A", "B", "Kf7", "0-1", **tags)])
    assert boards[1]["result"] == "0-1" and boards[1]["expected_result"] == "1/2-1/2"
    assert boards[1]["verdict"] == "wrong_result" and boards[1]["urgency"] == 3
    assert "Black cannot checkmate by any series of legal moves (proven:" in boards[1]["flag"]
    assert boards[1]["flag"].endswith(": 1/2-1/2 by FIDE 6.9")


def test_the_bridge_answers_json_and_refuses_bad_requests() -> None:
    bridge = ArbiterBridge()
    out = json.loads(bridge.handle(json.dumps({"op": "follow_update", "args": {"text": pgn("A", "B", FOOLS_MATE)}})))
    assert out["ok"] and out["events"][0]["rule"] == "checkmate" and out["boards"][0]["state"] == "must_stop"
    log = json.loads(bridge.handle(json.dumps({"op": "follow_log"})))
    assert log["events"] == out["events"]
    assert json.loads(bridge.handle(json.dumps({"op": "follow_start", "args": {"flag_rules": "uscf"}})))["ok"]
    assert json.loads(bridge.handle(json.dumps({"op": "follow_log"})))["events"] == []
    for bad in (
        {"op": "follow_update", "args": {}},
        {"op": "nope"},
        {"op": "follow_start", "args": {"flag_rules": "x"}},
    ):
        answer = json.loads(bridge.handle(json.dumps(bad)))
        assert answer["ok"] is False and answer["error"]["code"] == "bad_request"
    assert json.loads(bridge.handle("not json"))["error"]["code"] == "bad_request"


@pytest.mark.parametrize("hostile", ['<img src=x onerror="alert(1)">', "</script><b>x", "\x1b[2J"])
def test_hostile_tags_pass_through_as_plain_text(hostile: str) -> None:
    """The page inserts them as text; here they must arrive unchanged in the
    board's data (the CLI's line replaces unprintable characters)."""
    _, events, boards = follow([pgn(hostile, "B", FOOLS_MATE)])
    assert boards[1]["white"] == hostile and events[0]["white"] == hostile


def test_a_fault_in_one_boards_view_is_said_on_that_board(monkeypatch: pytest.MonkeyPatch) -> None:
    import pychessdraw.web.follow as follow_module

    real = follow_module._clocks

    def broken(board: Any) -> Any:
        if board.headers.get("White") == "C":
            raise RuntimeError("boom")
        return real(board)

    monkeypatch.setattr(follow_module, "_clocks", broken)
    follower = Follower()
    out = follower.update(pgn("A", "B", "e4") + pgn("C", "D", "d4"))
    views = {b["game"]: b for b in out["boards"]}
    assert views[1]["error"] is None and views[1]["last_move"] == "e4"
    assert views[2]["error"].startswith("internal error of the referee (RuntimeError)") and views[2]["urgency"] == 1
    assert [(e["game"], e["kind"], e["code"]) for e in out["events"]] == [(2, "error", "internal")]
    assert follower.log == out["events"]


def test_a_stream_that_resends_each_game_is_followed_as_the_round() -> None:
    """Each game's whole PGN again at each change, cut anywhere: the round
    keeps each game at its first place, its latest version, events once."""
    bridge = ArbiterBridge()
    words = SHUFFLE.split()

    def feed(text: str) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(bridge.handle(json.dumps({"op": "follow_feed", "args": {"text": text}})))
        assert answer["ok"], answer
        return answer

    first = pgn("A", "B", " ".join(words[:6]), GameURL="https://x/1") + pgn("C", "D", "e4", GameURL="https://x/2")
    assert feed(first[:40])["count"] == 0  # half a game: nothing yet
    out = feed(first[40:])
    assert out["count"] == 2 and [b["game"] for b in out["boards"]] == [1, 2]
    again = pgn("A", "B", " ".join(words[:8]), GameURL="https://x/1")
    cut = again.index("Nf3")
    assert feed(again[:cut])["boards"] == []  # its tags only: not taken yet
    out = feed(again[cut:])
    assert [(e["game"], e["ply"], e["kind"]) for e in out["events"]] == [
        (1, 7, "claimable_with_move"),
        (1, 8, "claimable"),
    ]
    assert feed(again)["events"] == []  # the same game again: nothing new
    out = feed(pgn("C", "D", "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#", "1-0", GameURL="https://x/2"))
    assert [(e["game"], e["kind"]) for e in out["events"]] == [(2, "automatic"), (2, "ended")]
    assert out["count"] == 2


def test_a_stream_game_over_the_limit_is_dropped_with_a_note() -> None:
    from pychessdraw.web.follow import StreamRound

    stream = StreamRound(limit=100)
    changed, note = stream.feed('[White "A"]\n\n1. e4 {' + "x" * 200)
    assert not changed and note is not None and "larger than the limit (100 characters)" in note
    assert stream.feed(pgn("C", "D", "e4")) == (True, None)
    assert stream.text() == pgn("C", "D", "e4")


def test_a_text_cut_short_leaves_its_last_game_cut_not_ended() -> None:
    """follow_update's ``cut`` (the page's size limit): the last game, its
    result tag read but its moves cut, is said cut on its board, never ended."""
    bridge = ArbiterBridge()
    whole = pgn("A", "B", FOOLS_MATE, "0-1") + pgn("C", "D", FOOLS_MATE, "0-1")
    cut_text = whole[: whole.rindex("g4")]  # the second game's moves cut after e5
    ask = {"op": "follow_update", "args": {"text": cut_text, "cut": "larger than the limit"}}
    out = json.loads(bridge.handle(json.dumps(ask)))
    second = [e for e in out["events"] if e["game"] == 2]
    assert [(e["kind"], e.get("code")) for e in second] == [("error", "source_cut")]
    board = next(b for b in out["boards"] if b["game"] == 2)
    assert board["error"] is not None and "cut" in board["error"] and board["state"] != "ended"
    done = json.loads(bridge.handle(json.dumps({"op": "follow_update", "args": {"text": whole}})))
    assert [(e["game"], e["kind"]) for e in done["events"]] == [(2, "automatic"), (2, "ended")]


def test_several_sources_are_followed_at_once_each_by_its_own_follower() -> None:
    """Two sections with the same game numbers: each source keeps its own
    games and log; dropping one leaves the other; an unknown source is refused."""
    bridge = ArbiterBridge()
    ask = lambda op, **args: json.loads(bridge.handle(json.dumps({"op": op, "args": args})))  # noqa: E731
    assert ask("follow_start", flag_rules="fide", source=1)["ok"] and ask("follow_start", source=2)["ok"]
    one = ask("follow_update", source=1, text=pgn("Open", "B", FOOLS_MATE))
    two = ask("follow_update", source=2, text=pgn("Women", "D", "1. e4 e5"))
    assert one["boards"][0]["white"] == "Open" and one["events"][0]["rule"] == "checkmate"
    assert two["boards"][0]["white"] == "Women" and two["events"] == [] and two["boards"][0]["game"] == 1
    assert [e["white"] for e in ask("follow_log")["events"]] == ["Open"]
    assert ask("follow_drop", source=1)["ok"]
    assert ask("follow_log")["events"] == []
    refused = ask("follow_update", source=1, text=pgn("Open", "B", FOOLS_MATE))
    assert refused["ok"] is False and refused["error"]["code"] == "bad_request"
    assert ask("follow_update", source=2, text=pgn("Women", "D", "1. e4 e5 2. Nf3"))["boards"][0]["plies"] == 3
    assert ask("follow_start")["ok"] and ask("follow_update", source=2, text="")["ok"] is False


def test_the_arbiter_worker_answers_in_the_pages_language() -> None:
    """set_language: the boards, the events and the refusals made from then
    on are in the page's language; codes, states and SAN stay as they are."""
    bridge = ArbiterBridge()
    ask = lambda op, **args: json.loads(bridge.handle(json.dumps({"op": op, "args": args})))  # noqa: E731
    assert ask("set_language", language="de-DE") == {"ok": True}
    words = SHUFFLE.split()
    out = ask("follow_update", text=pgn("A", "B", " ".join(words[:7])))
    (board,) = out["boards"]
    assert board["state"] == "claimable_with_move" and board["claim_moves"] == ["Ng8"]
    assert board["state_text"] == "Schwarz kann mit 4...Ng8 Remis reklamieren: dreifache Stellungswiederholung"
    (event,) = [e for e in out["events"] if e["kind"] == "claimable_with_move"]
    assert event["rule"] == "threefold_repetition"
    assert event["text"] == (
        "Partie 1 (A - B, Runde 1) nach 4.Ng1: Remis kann mit Ng8 reklamiert werden: "
        "dreifache Stellungswiederholung (FIDE 9.2.1.1)"
    )
    refused = ask("follow_update")
    assert refused["error"]["code"] == "bad_request" and refused["error"]["message"] == "'text' fehlt"
    assert ask("follow_start", flag_rules="x")["error"]["message"].startswith("'flag_rules' muss eines von")
    assert ask("set_language", language="tlh")["error"]["code"] == "bad_request"
    tags = {"SetUp": "1", "FEN": KQK, "Termination": "time forfeit"}
    assert ask("set_language", language="ru")["ok"]
    (board,) = ask("follow_update", text=pgn("A", "B", "Kf7", "0-1", **tags))["boards"]
    assert board["flag"].startswith("Флажок: Белые просрочили время, но Чёрные не могут поставить мат")
    assert board["note"].startswith("записано 0-1; по правилам 1/2-1/2 (неверный результат)")
    assert ask("set_language", language="en")["ok"]
    (board,) = ask("follow_update", text=pgn("A", "B", " ".join(words[:6])))["boards"]
    assert board["state_text"] == "playing"


def test_follow_again_says_the_log_and_the_boards_again_in_the_new_language() -> None:
    """After a switch, follow_again says every sentence already made again
    (the same events, ids and order; every board), and the log's download
    follows; nothing is followed anew and a later update goes on from there."""
    bridge = ArbiterBridge()
    ask = lambda op, **args: json.loads(bridge.handle(json.dumps({"op": op, "args": args})))  # noqa: E731
    assert ask("set_language", language="de")["ok"]
    words = SHUFFLE.split()
    first = ask("follow_update", text=pgn("A", "B", " ".join(words[:7])))
    german = [e for e in first["events"] if e["kind"] == "claimable_with_move"][0]
    assert "reklamiert" in german["line"] and "Remis reklamieren" in first["boards"][0]["state_text"]
    assert ask("set_language", language="en")["ok"]
    again = ask("follow_again", source=0)
    assert [(e["id"], e["kind"], e["ply"]) for e in again["events"]] == [
        (e["id"], e["kind"], e["ply"]) for e in first["events"]
    ]
    said = next(e for e in again["events"] if e["id"] == german["id"])
    assert said["line"] == "Board 1 · A – B · after 4.Ng1 · threefold repetition can be claimed with Ng8 (FIDE 9.2.1.1)"
    assert said["text"].startswith("game 1 (A - B, round 1) after 4.Ng1: threefold repetition can be claimed")
    (board,) = again["boards"]
    assert board["state_text"] == "Black may claim threefold repetition with 4...Ng8" and board["plies"] == 7
    assert again["voided"] == [] and again["count"] == 1
    assert [e["line"] for e in ask("follow_log")["events"]] == [e["line"] for e in again["events"]]
    later = ask("follow_update", text=pgn("A", "B", " ".join(words[:8])))
    assert later["boards"][0]["plies"] == 8 and all(e["id"] > german["id"] for e in later["events"])
    assert ask("follow_again", source=3)["error"]["code"] == "bad_request"
