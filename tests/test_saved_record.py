"""The page's record complete: a game saved as the page saves it (start,
moves, ending, headers, the flag rules in force) and restored gives the
same export and the same results, also where the rules ended an imported
game otherwise than its record says; and the bridge answers any JSON,
however deep or oddly typed, with ok:false in our words."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pychessdraw.web.bridge import Bridge

SHUFFLE = " ".join(
    f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(["Nf3", "Nf6", "Ng1", "Ng8"] * 4 + ["e4", "e5"])
)  # a fivefold repetition (the rules end it) and two moves after it

RECORDS = [
    # the record says White won; the rules drew it by a fivefold repetition before the end
    f'[Event "five"]\n[Result "1-0"]\n\n{SHUFFLE} 1-0\n',
    # a checkmate on the board, recorded as a draw
    '[Event "mate"]\n[Result "1/2-1/2"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n',
    # a draw by agreement the rules do not contradict
    '[Event "agreed"]\n[Result "1/2-1/2"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n',
    # resigned
    '[Event "resigned"]\n[Result "0-1"]\n\n1. d4 d5 2. c4 0-1\n',
]


def ask(bridge: Bridge, op: str, **args: Any) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(bridge.handle(json.dumps({"id": 1, "op": op, "args": args})))
    return reply


def saved(bridge: Bridge, reply: dict[str, Any]) -> dict[str, Any]:
    """The record as the page keeps it (web/src/persist.js), the rules in force included."""
    info = reply["game"]
    return {
        "start_fen": None,
        "chess960": info["chess960"],
        "moves": [row["uci"] for row in reply["moves"]["add"]],
        "ending": reply["ending"],
        "headers": info["headers"],
        "flag_rules": reply["facts"]["flag_rules"],
    }


@pytest.mark.parametrize("record", RECORDS)
@pytest.mark.parametrize("rules", ["fide", "uscf"])
def test_a_reload_gives_the_same_export_and_results(record: str, rules: str) -> None:
    first = Bridge()
    assert ask(first, "rules", flag_rules=rules)["ok"]
    loaded = ask(first, "load_pgn", pgn=record)
    assert loaded["ok"], loaded
    again = Bridge()
    restored = ask(again, "restore", **saved(first, loaded))
    assert restored["ok"], restored
    assert restored["facts"]["outcome"] == loaded["facts"]["outcome"]
    assert restored["facts"]["flag_rules"] == rules
    assert restored["game"]["recorded"] == loaded["game"]["recorded"]
    assert ask(again, "export_pgn")["pgn"] == ask(first, "export_pgn")["pgn"]
    result = record.split('[Result "')[1].split('"')[0]
    assert f'[Result "{result}"]' in ask(again, "export_pgn")["pgn"]  # the record's result, as recorded


def test_the_record_says_its_result_after_a_reload_where_the_rules_disagree() -> None:
    first = Bridge()
    loaded = ask(first, "load_pgn", pgn=RECORDS[0])
    assert loaded["ending"] == {"op": "recorded"}
    again = Bridge()
    restored = ask(again, "restore", **saved(first, loaded))
    assert "the record says 1-0" in restored["facts"]["outcome"]["detail"]


def nested(depth: int, kind: str) -> str:
    return "[" * depth + "]" * depth if kind == "list" else '{"a":' * depth + "1" + "}" * depth


@pytest.mark.parametrize("kind", ["list", "dict"])
@pytest.mark.parametrize("where", ["request", "args", "value"])
def test_deeply_nested_json_is_answered_not_raised(kind: str, where: str) -> None:
    deep = nested(100_000, kind)
    request = {
        "request": deep,
        "args": '{"id": 1, "op": "play", "args": ' + deep + "}",
        "value": '{"id": 1, "op": "play", "args": {"move": ' + deep + "}}",
    }[where]
    reply = json.loads(Bridge().handle(request))
    assert reply["ok"] is False and reply["error"]["code"] == "bad_request"
    assert "Traceback" not in reply["error"]["message"] and "RecursionError" not in reply["error"]["message"]


@pytest.mark.parametrize(
    "args",
    [
        {"pgn": ["not", "text"]},
        {"pgn": {"a": 1}},
        {"pgn": 3.5},
        {"pgn": "1. e4", "index": "0"},
        {"pgn": "1. e4", "index": True},
        {"pgn": "1. e4", "partial": "yes"},
    ],
)
def test_load_pgn_with_wrong_types_answers_ok_false_in_our_words(args: dict[str, Any]) -> None:
    reply = ask(Bridge(), "load_pgn", **args)
    assert reply["ok"] is False and reply["error"]["code"] == "bad_request"


@pytest.mark.parametrize(
    "request_text",
    [
        nested(100_000, "list"),
        nested(100_000, "dict"),
        '{"op": "follow_feed", "args": ' + nested(50_000, "dict") + "}",
        '{"op": "follow_feed", "args": {"text": ' + nested(50_000, "list") + "}}",
        "[1, 2]",
        '"text"',
        '{"op": "follow_feed", "args": [1]}',
        '{"op": ["follow_start"]}',
        "not json",
    ],
)
def test_the_arbiter_bridge_answers_any_input_with_ok_false(request_text: str) -> None:
    from pychessdraw.web.follow import ArbiterBridge as FollowBridge

    bridge = FollowBridge()
    json.loads(bridge.handle('{"op": "follow_start", "args": {}}'))
    reply = json.loads(bridge.handle(request_text))
    assert reply["ok"] is False and reply["error"]["code"] in {"bad_request", "internal"}
    assert "Traceback" not in reply["error"]["message"]
