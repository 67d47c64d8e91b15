"""``[%clk]`` comments and the ``TimeControl`` tag: read, write, round trip."""

from __future__ import annotations

import pytest

from pychessdraw import Game
from pychessdraw.errors import BadRequestError
from pychessdraw.pgn import parse_one, read_games
from pychessdraw.records.scan import scan
from pychessdraw.rules import dead
from pychessdraw.web.clockpgn import (
    export_with_clocks,
    format_clk,
    move_clocks,
    parse_clk,
    parse_time_control_tag,
    time_control_tag,
)

LICHESS = """[Event "Rated Blitz game"]
[White "a"]
[Black "b"]
[Result "1-0"]
[TimeControl "180+2"]

1. e4 { [%clk 0:03:00] } 1... e5 { [%eval 0.2] [%clk 0:02:59.5] } 2. Nf3 { [%clk 0:02:58] }
(2. Nc3 { [%clk 0:00:01] } Nc6) 2... Nc6 3. Bb5 { a comment } { [%clk 0:02:51] } 1-0
"""


@pytest.mark.parametrize(
    "comment,ms",
    [
        ("[%clk 0:03:00]", 180_000),
        ("[%eval 0.2] [%clk 0:02:59.5]", 179_500),
        ("[%clk 1:30:00]", 5_400_000),
        ("[%clk 10:00:00.25]", 36_000_250),
        ("no clock", None),
        ("[%clk 0:3]", None),
        ("[%emt 0:00:05]", None),
    ],
)
def test_parse_clk(comment: str, ms: int | None) -> None:
    assert parse_clk(comment) == ms


def test_clocks_per_ply_skip_variations_and_other_comments() -> None:
    parsed = next(read_games(LICHESS.splitlines(keepends=True)))
    assert parsed.tokens == ["e4", "e5", "Nf3", "Nc6", "Bb5"]
    assert move_clocks(parsed) == [180_000, 179_500, 178_000, None, 171_000]
    assert parsed.comments[5] == "a comment [%clk 0:02:51]"  # whitespace normalised by the reader


def test_comments_do_not_change_what_a_scan_reports() -> None:
    plain = LICHESS.replace("{ [%clk 0:03:00] }", "")
    a = next(scan(LICHESS.splitlines(True), final_search=dead.STATIC))
    b = next(scan(plain.splitlines(True), final_search=dead.STATIC))
    assert a["events"] == b["events"] and a["final"] == b["final"] and a["verdict"] == b["verdict"]


@pytest.mark.parametrize(
    "ms,text",
    [
        (0, "[%clk 0:00:00]"),
        (2_999, "[%clk 0:00:02]"),
        (-5, "[%clk 0:00:00]"),
        (180_000, "[%clk 0:03:00]"),
        (5_400_000, "[%clk 1:30:00]"),
        (3_661_900, "[%clk 1:01:01]"),
    ],
)
def test_format_clk(ms: int, text: str) -> None:
    assert format_clk(ms) == text


def test_time_control_tag() -> None:
    assert time_control_tag(180, 2) == "180+2"
    assert time_control_tag(300) == "300"
    assert time_control_tag(3) == "3"
    assert time_control_tag(300, delay_s=3) == "300d3"
    assert time_control_tag(90, 1.5) == "90+1.5"
    for bad in [(0, 0, 0), (60, -1, 0), (60, 2, 3)]:
        with pytest.raises(BadRequestError):
            time_control_tag(*bad)
    assert parse_time_control_tag("180+2") == {"base_s": 180, "increment_s": 2, "delay_s": 0}
    assert parse_time_control_tag("300d3") == {"base_s": 300, "increment_s": 0, "delay_s": 3}
    assert parse_time_control_tag("600") == {"base_s": 600, "increment_s": 0, "delay_s": 0}
    for other in ["-", "?", "40/9000:300", "*180", "0+1"]:
        assert parse_time_control_tag(other) is None


def test_round_trip_export_then_import() -> None:
    game = Game()
    for move in ["e4", "e5", "Nf3", "Nc6"]:
        game.play(move)
    clocks = {1: 3_000, 2: 2_950, 3: 1_200, 4: 0}
    text = export_with_clocks(game, {"White": "W"}, {"base_s": 3, "increment_s": 0, "delay_s": 0}, clocks)
    assert '[TimeControl "3"]' in text
    assert "1. e4 { [%clk 0:00:03] } 1... e5 { [%clk 0:00:02] } 2. Nf3 { [%clk 0:00:01] }" in text
    again, parsed = parse_one(text)
    assert again.ply == 4
    assert move_clocks(parsed) == [3_000, 2_000, 1_000, 0]
    assert parse_time_control_tag(parsed.headers["TimeControl"]) == {"base_s": 3, "increment_s": 0, "delay_s": 0}


def test_export_from_a_position_and_without_clocks() -> None:
    game = Game("4k3/8/8/8/8/8/8/R3K3 b - - 0 40")
    game.play("Kd7")
    game.play("Ra7+")
    text = export_with_clocks(game, {}, {"base_s": 300, "delay_s": 5}, {2: 61_000, 9: 5})
    assert '[TimeControl "300d5"]' in text
    assert "40... Kd7 41. Ra7+ { [%clk 0:01:01] }" in text
    plain = export_with_clocks(game, {}, None, {})
    assert "TimeControl" not in plain and "{" not in plain
