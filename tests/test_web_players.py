"""The player bars' facts and the exported game's tags: the material
difference the bridge sends (pychessdraw.web.material), the players' names,
Event and Date export_pgn writes."""

from __future__ import annotations

import datetime
import json
from typing import Any

import chess
import pytest

from pychessdraw.web.bridge import Bridge
from pychessdraw.web.material import material


def call(bridge: Bridge, op: str, **args: Any) -> dict[str, Any]:
    return json.loads(bridge.handle(json.dumps({"op": op, "args": args})))


def test_level_material_gives_no_advantage() -> None:
    m = material(chess.Board())
    assert m["white"] == {"advantage": "", "value": 0, "captured": ""}
    assert m["black"] == m["white"]


def test_the_side_ahead_gets_plus_and_the_pieces_it_is_up_by() -> None:
    # White is a knight and a pawn up, Black a rook's worth... net: White rook+knight+pawn vs Black queen
    m = material(chess.Board("4k3/8/8/8/8/8/P7/RN2K3 w - - 0 1"))
    assert m["white"]["advantage"] == "+9" and m["white"]["value"] == 9
    assert m["white"]["captured"] == "♟♞♜"
    assert m["black"] == {"advantage": "", "value": -9, "captured": ""}
    # a queen against a rook: +4 for the queen, each side shows the piece it is up by
    m = material(chess.Board("4k3/8/8/8/8/8/8/r3K2Q w - - 0 1"))
    assert m["white"]["advantage"] == "+4" and m["white"]["captured"] == "♛"
    assert m["black"]["advantage"] == "" and m["black"]["captured"] == "♖"


def test_the_facts_carry_the_material_after_a_capture() -> None:
    bridge = Bridge()
    call(bridge, "new")
    for uci in ("e2e4", "d7d5"):
        call(bridge, "play", move=uci)
    facts = call(bridge, "play", move="e4d5")["facts"]
    assert facts["material"]["white"]["advantage"] == "+1"
    assert facts["material"]["black"]["advantage"] == ""


def test_export_carries_the_names_event_and_date() -> None:
    bridge = Bridge()
    call(bridge, "new")
    call(bridge, "play", move="e2e4")
    pgn = call(bridge, "export_pgn", players={"white": "Ann", "black": "Stockfish level 3"}, date="2026.11.29")["pgn"]
    assert '[White "Ann"]' in pgn and '[Black "Stockfish level 3"]' in pgn
    assert '[Date "2026.11.29"]' in pgn and '[Event "Casual game"]' in pgn
    # no date given: today's
    today = datetime.date.today().strftime("%Y.%m.%d")
    assert f'[Date "{today}"]' in call(bridge, "export_pgn", event="Club night")["pgn"]
    assert '[Event "Club night"]' in call(bridge, "export_pgn", event="Club night")["pgn"]


def test_an_imported_game_keeps_its_tags() -> None:
    bridge = Bridge()
    text = '[Event "Open"]\n[Date "1999.01.02"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'
    assert call(bridge, "load_pgn", pgn=text)["ok"]
    pgn = call(bridge, "export_pgn", players={"white": "X", "black": "Y"}, date="2026.11.29")["pgn"]
    assert '[White "A"]' in pgn and '[Date "1999.01.02"]' in pgn  # exactly as imported
    # a game to continue on the page: the page's names, the record's date and event
    assert call(bridge, "load_pgn", pgn=text.replace("1-0", "*"))["ok"]
    call(bridge, "play", move="g1f3")
    pgn = call(bridge, "export_pgn", players={"white": "X", "black": "Y"}, date="2026.11.29")["pgn"]
    assert '[White "X"]' in pgn and '[Date "1999.01.02"]' in pgn and '[Event "Open"]' in pgn


@pytest.mark.parametrize(
    "args",
    [
        {"players": "Ann"},
        {"players": {"red": "x"}},
        {"players": {"white": "a\nb"}},
        {"date": "29.11.2026"},
        {"event": 3},
    ],
)
def test_bad_tags_are_refused(args: dict[str, Any]) -> None:
    bridge = Bridge()
    call(bridge, "new")
    reply = call(bridge, "export_pgn", **args)
    assert reply["ok"] is False and reply["error"]["code"] == "bad_request"
