"""The watch's tracker (pychessdraw.batch.watch): successive texts of a live PGN
give events that, once the text stops changing, are scan's events."""

from __future__ import annotations

import os
from typing import Any

import pytest

from pychessdraw.batch.watch import MAX_BACKOFF, FileSource, SourceDown, open_source, ticks
from pychessdraw.errors import BadRequestError
from pychessdraw.pgn import LINE_LIMIT, read_games
from pychessdraw.records.scan import scan
from pychessdraw.records.tracker import Tracker, describe, split_games, split_games_by_lines

SCAN_KINDS = ("automatic", "claimable", "claimable_with_move")
# Knights out and back: threefold claimable with a move at ply 7, claimable at 8,
# fivefold (automatic) at ply 16.
SHUFFLE = "Nf3 Nf6 Ng1 Ng8 " * 4
FOOLS_MATE = "f3 e5 g4 Qh4#"


def pgn(white: str, black: str, moves: str, result: str = "*", **tags: str) -> str:
    head = {"White": white, "Black": black, "Round": "1", "Result": result, **tags}
    lines = "".join(f'[{k} "{v}"]\n' for k, v in head.items())
    return f"{lines}\n{moves} {result}\n\n"


def standing(events: list[dict[str, Any]]) -> dict[int, list[tuple[int, str, str]]]:
    """Per game, the scan-kind events that stand after restarts, corrections
    and removals voided the earlier ones, as (ply, rule, kind)."""
    games: dict[int, list[tuple[int, str, str]]] = {}
    for e in events:
        rows = games.setdefault(e["game"], [])
        if e["kind"] == "restarted":
            rows.clear()
        elif e["kind"] == "corrected":
            rows[:] = [r for r in rows if r[0] <= e["ply"]]
        elif e["kind"] in SCAN_KINDS:
            rows.append((e["ply"], e["rule"], e["kind"]))
    return {g: sorted(rows) for g, rows in games.items() if rows}


def scanned(text: str) -> dict[int, list[tuple[int, str, str]]]:
    found = {
        r["game"]: sorted((e["ply"], e["rule"], e["kind"]) for e in r["events"])
        for r in scan(text.splitlines(keepends=True))
    }
    return {g: rows for g, rows in found.items() if rows}


def grow(tracker: Tracker, texts: list[str]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for text in texts:
        events += tracker.update(text)
    return events


def prefixes(moves: str) -> list[str]:
    words = moves.split()
    return [" ".join(words[:n]) for n in range(len(words) + 1)]


def test_growth_gives_scans_events_at_one_ply_of_work_per_move() -> None:
    tracker = Tracker()
    texts = [pgn("A", "B", m) + pgn("C", "D", FOOLS_MATE) for m in prefixes(SHUFFLE)]
    events = grow(tracker, texts)
    assert standing(events) == scanned(texts[-1])
    assert (7, "threefold_repetition", "claimable_with_move") in standing(events)[1]
    assert (16, "fivefold_repetition", "automatic") in standing(events)[1]
    assert (4, "checkmate", "automatic") in standing(events)[2]
    assert tracker.plies_pushed == 16 + 4  # each move pushed once, however many reads
    first = next(e for e in events if e["kind"] == "claimable_with_move")
    assert first == {
        "game": 1,
        "white": "A",
        "black": "B",
        "round": "1",
        "ply": 7,
        "move": "Ng1",
        "label": "4.Ng1",
        "rule": "threefold_repetition",
        "kind": "claimable_with_move",
        "moves": ["Ng8"],
    }


def test_the_same_text_again_gives_nothing_and_parses_nothing() -> None:
    tracker = Tracker()
    text = pgn("A", "B", SHUFFLE) + pgn("C", "D", FOOLS_MATE)
    assert tracker.update(text)
    parsed = [b.parsed for b in tracker.boards]
    assert tracker.update(text) == []
    assert [b.parsed for b in tracker.boards] == parsed and all(
        a is b.parsed for a, b in zip(parsed, tracker.boards, strict=False)
    )  # the same objects: not parsed again


def test_a_shorter_pgn_is_a_correction_that_voids_later_events() -> None:
    tracker = Tracker()
    events = tracker.update(pgn("A", "B", SHUFFLE))
    assert any(e["kind"] == "automatic" for e in events)
    later = tracker.update(pgn("A", "B", " ".join(SHUFFLE.split()[:9])))
    assert [e["kind"] for e in later] == ["corrected"]
    assert later[0]["ply"] == 9 and later[0]["move"] == "Nf3"
    assert standing(events + later) == scanned(pgn("A", "B", " ".join(SHUFFLE.split()[:9])))
    again = tracker.update(pgn("A", "B", SHUFFLE))  # the moves come back: the fivefold again
    assert [(e["ply"], e["kind"]) for e in again] == [(16, "automatic")]


def test_a_changed_move_is_corrected_from_where_it_differs() -> None:
    tracker = Tracker()
    events = tracker.update(pgn("A", "B", "e4 e5 Nf3 Nc6 Bb5"))
    fixed = pgn(
        "A", "B", "e4 e5 Nf3 Nc6 Bc4 Nf6 " + SHUFFLE.replace("Nf3 Nf6", "Qe2 Qe7").replace("Ng1 Ng8", "Qd1 Qd8")
    )
    later = tracker.update(fixed)
    assert later[0]["kind"] == "corrected" and later[0]["ply"] == 4
    assert tracker.plies_pushed == 5 + (22 - 4)  # 22 plies now, 4 kept: only the new ones pushed
    assert standing(events + later) == scanned(fixed)
    assert any(e["kind"] == "automatic" for e in later)


def test_other_players_at_a_number_restart_the_game() -> None:
    tracker = Tracker()
    events = grow(tracker, [pgn("A", "B", SHUFFLE), pgn("X", "Y", "e4") + pgn("A", "B", SHUFFLE)])
    kinds = [(e["game"], e["kind"]) for e in events]
    assert (1, "restarted") in kinds
    restarted = next(e for e in events if e["kind"] == "restarted")
    assert restarted["white"] == "A"  # said of the game that was there
    final = pgn("X", "Y", "e4") + pgn("A", "B", SHUFFLE)
    assert standing(events) == scanned(final)
    assert tracker.boards[0].headers["White"] == "X" and tracker.boards[1].game is not None


def test_games_added_mid_round_and_removed() -> None:
    tracker = Tracker()
    one = pgn("A", "B", "e4 e5")
    events = grow(tracker, [one, one + pgn("C", "D", FOOLS_MATE)])
    assert [(e["game"], e["rule"]) for e in events] == [(2, "checkmate")]
    gone = tracker.update(one)
    assert [(e["game"], e["kind"], e["ply"]) for e in gone] == [(2, "removed", 4)]
    assert tracker.update(one) == []  # said once
    pushed = tracker.plies_pushed
    back = tracker.update(one + pgn("C", "D", FOOLS_MATE, "0-1"))  # back, with its result: goes on where it was
    assert [(e["game"], e["kind"]) for e in back] == [(2, "ended")] and tracker.plies_pushed == pushed
    other = tracker.update(one + pgn("E", "F", "e4"))
    assert [(e["game"], e["kind"]) for e in other] == [(2, "restarted")]


def test_a_broken_game_is_an_error_once_and_the_others_go_on() -> None:
    tracker = Tracker()
    broken = pgn("C", "D", "e4 e5 Qxe9 Nf3")
    texts = [pgn("A", "B", m) + broken for m in prefixes(SHUFFLE)]
    events = grow(tracker, texts)
    errors = [e for e in events if e["kind"] == "error"]
    assert len(errors) == 1  # not said again at each read
    assert errors[0]["game"] == 2 and errors[0]["ply"] == 2 and "Qxe9" in errors[0]["reason"]
    assert errors[0]["code"] == "invalid_move"
    assert standing(events) == scanned(texts[-1])  # game 1 went on to its fivefold
    mended = tracker.update(pgn("A", "B", SHUFFLE) + pgn("C", "D", "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#"))
    assert [(e["game"], e["ply"], e["rule"]) for e in mended] == [(2, 7, "checkmate")]


def test_an_illegal_move_and_a_bad_fen_are_errors() -> None:
    tracker = Tracker()
    events = tracker.update(pgn("A", "B", "e4 e5 Ke3") + pgn("C", "D", "e4", FEN="8/8/8 w - - 0 1", SetUp="1"))
    errors = {e["game"]: e for e in events if e["kind"] == "error"}
    assert errors[1]["code"] == "illegal_move" and errors[1]["ply"] == 2
    assert errors[2]["code"] == "bad_fen" and errors[2]["ply"] == 0
    assert tracker.update(pgn("A", "B", "e4 e5 Ke3") + pgn("C", "D", "e4", FEN="8/8/8 w - - 0 1", SetUp="1")) == []


def test_a_result_is_one_ended_event_with_the_verdict() -> None:
    tracker = Tracker()
    events = grow(tracker, [pgn("A", "B", FOOLS_MATE), pgn("A", "B", FOOLS_MATE, "0-1")])
    ended = [e for e in events if e["kind"] == "ended"]
    assert len(ended) == 1 and ended[0]["result"] == "0-1" and ended[0]["verdict"] == "ok"
    assert ended[0]["ply"] == 4 and ended[0]["move"] == "Qh4#"
    assert tracker.update(pgn("A", "B", FOOLS_MATE, "0-1") + "\n") == []
    wrong = tracker.update(pgn("A", "B", FOOLS_MATE, "1-0"))  # a corrected result: said again
    assert [e["kind"] for e in wrong] == ["corrected", "ended"]
    assert wrong[1]["verdict"] == "wrong_result" and wrong[1]["expected_result"] == "0-1"


def test_a_loss_on_time_that_should_be_a_draw() -> None:
    fen = "8/8/8/4k3/8/8/8/K6Q w - - 0 1"  # Black has a bare king: it cannot mate
    text = pgn("A", "B", "Qh2+", "0-1", FEN=fen, SetUp="1", Termination="time forfeit")
    events = Tracker().update(text)
    ended = next(e for e in events if e["kind"] == "ended")
    assert ended["rule"] == "time_forfeit"
    assert ended["time_forfeit"]["should_be_draw"] is True
    assert ended["proof"] == {"line": None, "reason": "bare king", "nodes": 0}  # why Black could not mate
    assert ended["verdict"] == next(scan(text.splitlines(keepends=True)))["verdict"] == "wrong_result"


def test_a_loss_on_time_where_the_opponent_could_mate_shows_the_mate() -> None:
    fen = "8/8/8/4k3/8/8/8/K6Q w - - 0 1"
    events = Tracker().update(pgn("A", "B", "Qh2+", "1-0", FEN=fen, SetUp="1", Termination="time forfeit"))
    ended = next(e for e in events if e["kind"] == "ended")
    assert ended["time_forfeit"]["flagged"] == "black" and ended["verdict"] == "ok"
    assert ended["proof"]["line"][-1].endswith("#")  # White's mating line


@pytest.mark.slow
def test_tcec_games_grown_a_few_plies_at_a_time_match_scan(shared: Any) -> None:
    text = shared("corpus", "tcec-dev.pgn").read_text()
    games = list(read_games("".join(split_games(text)[:24]).splitlines(keepends=True)))

    def render(n: int, done: bool) -> str:
        return "".join(
            pgn(
                g.headers.get("White", "?"),
                g.headers.get("Black", "?"),
                " ".join(g.tokens[:n]),
                g.headers["Result"] if done else "*",
                **{k: v for k, v in g.headers.items() if k not in ("White", "Black", "Result")},
            )
            for g in games
        )

    tracker = Tracker()
    most = max(len(g.tokens) for g in games)
    events = grow(tracker, [render(n, False) for n in range(0, most + 1, 9)] + [render(most, True)])
    final = render(most, True)
    assert standing(events) == scanned(final)
    assert tracker.plies_pushed == sum(len(g.tokens) for g in games)
    reports = list(scan(final.splitlines(keepends=True)))
    ended = {e["game"]: e for e in events if e["kind"] == "ended"}
    assert {g: (e["result"], e["verdict"]) for g, e in ended.items()} == {
        r["game"]: (r["headers"]["Result"], r["verdict"]) for r in reports
    }
    assert any(rows for rows in standing(events).values())  # some claims to find, not only endings


def test_split_games_reads_as_the_whole_text() -> None:
    text = (
        pgn("A", "B", "e4 {a comment\n\n[with a tag-like line]} e5")
        + "garbage\n"
        + pgn("C", "D", FOOLS_MATE)
        + '[White "E"]\n1. d4\n[White "F"]\n\n1. c4 *\n'
    )
    pieces = split_games(text)
    assert "".join(pieces) == text and len(pieces) >= 2
    whole = [(g.headers, g.tokens) for g in read_games(text.splitlines(keepends=True))]
    cut = [(g.headers, g.tokens) for p in pieces for g in read_games(p.splitlines(keepends=True))]
    assert cut == whole


def test_describe_is_one_line_for_people() -> None:
    events = Tracker().update(pgn("A", "B", SHUFFLE[:31]))
    line = describe(next(e for e in events if e["kind"] == "claimable_with_move"))
    assert line == "game 1 (A - B, round 1) after 4.Ng1: threefold repetition can be claimed with Ng8 (FIDE 9.2.1.1)"


class FakeSource:
    name = "fake"

    def __init__(self, answers: list[str | None | Exception]) -> None:
        self.answers, self.asked = answers, 0
        self.cut: str | None = None

    def read(self) -> str | None:
        self.asked += 1
        answer = self.answers.pop(0) if self.answers else None
        if isinstance(answer, Exception):
            raise answer
        return answer


def test_ticks_back_off_when_the_source_fails_and_say_it_once() -> None:
    now = [0.0]
    waits: list[float] = []
    said: list[str] = []

    def sleep(s: float) -> None:
        waits.append(s)
        now[0] += s

    down = SourceDown("refused")
    source = FakeSource(["one", None, down, down, down, "two", None])
    texts = ticks(source, 1.0, said.append, clock=lambda: now[0], sleep=sleep)
    assert next(texts) == "one"
    assert next(texts) == "two"
    assert waits == [1.0, 1.0, 2.0, 4.0, 8.0]  # never more than once an interval; 2, 4, 8 when down
    assert said == ["refused; trying again, less often, until it answers", "fake answers again"]
    waits.clear()

    def sleep_then_stop(s: float) -> None:
        sleep(s)
        if len(waits) == 20:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        next(ticks(FakeSource([down] * 30), 1.0, said.append, clock=lambda: now[0], sleep=sleep_then_stop))
    assert max(waits) == waits[-1] == MAX_BACKOFF and len(said) == 3


def test_a_file_is_read_again_only_when_it_changes_and_cut_at_its_limit(tmp_path: Any) -> None:
    path = tmp_path / "live.pgn"
    source = FileSource(str(path), limit=200)
    with pytest.raises(SourceDown, match="No such file"):
        source.read()
    path.write_text(pgn("A", "B", "e4"))
    assert source.read() == pgn("A", "B", "e4") and source.cut is None
    assert source.read() is None
    path.write_text(pgn("A", "B", "e4 e5") + pgn("C", "D", "d4 " * 100))
    os.utime(path, ns=(1, 2))
    text = source.read()
    assert text is not None and source.cut and "limit (200 bytes" in source.cut
    assert len(text) <= 200 and text.endswith("\n")
    assert pgn("A", "B", "e4 e5") in text


def test_open_source_refuses_other_schemes() -> None:
    with pytest.raises(BadRequestError, match="http"):
        open_source("ftp://example.org/round.pgn")
    assert type(open_source("https://example.org/r.pgn")).__name__ == "HttpSource"


def test_a_hostile_tag_never_reaches_the_terminal_as_an_escape() -> None:
    events = Tracker().update(pgn("\x1b]0;owned\x07\x1b[2J", "B\x9b31mX", SHUFFLE[:31]))
    line = describe(events[0])
    assert line.isprintable() and "owned" in line and "31m" in line
    assert not {"\x1b", "\x07", "\x9b"} & set(line)
    assert events[0]["white"] == "\x1b]0;owned\x07\x1b[2J"  # the JSON keeps the text as it was (escaped by json)


def test_a_fault_of_the_referee_in_one_game_stops_only_that_game(monkeypatch: pytest.MonkeyPatch) -> None:
    import pychessdraw.records.tracker as watch_module

    real = watch_module.observe

    def faulty(game: Any, events: Any, has_legal_move: Any = None) -> None:
        if game.ply == 3 and game.board.piece_at(5) is None:  # only game 2 (1. e4 e5 2. Bc4) gets here
            raise RuntimeError("a bug")
        real(game, events, has_legal_move)

    monkeypatch.setattr(watch_module, "observe", faulty)
    tracker = Tracker()
    events = grow(tracker, [pgn("A", "B", m) + pgn("C", "D", "e4 e5 Bc4 Nc6") for m in prefixes(SHUFFLE)])
    errors = [e for e in events if e["kind"] == "error"]
    assert [(e["game"], e["code"]) for e in errors] == [(2, "internal")]
    assert "RuntimeError" in errors[0]["reason"] and "a bug" not in errors[0]["reason"]
    assert standing(events)[1] == scanned(pgn("A", "B", SHUFFLE))[1]  # game 1 followed to its end


def test_a_file_written_while_it_is_read_is_read_again_whole(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import pychessdraw.batch.watch as watch_module

    path = tmp_path / "live.pgn"
    path.write_text(pgn("A", "B", "e4"))
    real_open = open

    class WrittenMeanwhile:
        """A handle whose file gets more text between its opening and its read."""

        def __init__(self, name: str, mode: str) -> None:
            self.handle = real_open(name, mode)

        def __enter__(self) -> WrittenMeanwhile:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def fileno(self) -> int:
            return self.handle.fileno()

        def read(self, size: int) -> bytes:
            with real_open(path, "a") as writer:
                writer.write(pgn("C", "D", "d4"))
            return self.handle.read(size)

    source = FileSource(str(path))
    monkeypatch.setattr(watch_module, "open", WrittenMeanwhile, raising=False)
    assert source.read() is None  # half a change is no change
    monkeypatch.undo()
    text = source.read()
    assert text == pgn("A", "B", "e4") + pgn("C", "D", "d4")


def test_describe_says_each_rule_and_verdict_in_words_with_its_article() -> None:
    events = Tracker().update(pgn("A", "B", SHUFFLE, "1-0") + pgn("C", "D", FOOLS_MATE, "0-1"))
    lines = [describe(e) for e in events]
    assert "game 1 (A - B, round 1) after 4...Ng8: threefold repetition can be claimed (FIDE 9.2.1.2)" in lines
    assert "game 1 (A - B, round 1) after 8...Ng8: fivefold repetition ends the game (FIDE 9.6.1)" in lines
    assert "game 1 (A - B, round 1) after 8...Ng8: ended 1-0: the rules give 1/2-1/2" in lines
    assert "game 2 (C - D, round 1) after 2...Qh4#: ended 0-1: the record stands" in lines
    assert not [line for line in lines if "_" in line]  # no enum name reaches people


def test_split_games_cuts_where_the_line_by_line_rule_cuts() -> None:
    """The quick cut (a regular expression finds the candidate lines) and
    the walk of every line with GameStarts agree, on texts made of the
    pieces that matter: blank lines of every kind, tag lines and lines that
    only look like them, every line end, comments, a last line without end."""
    import random

    parts = ["\n", "\r\n", "\r", " \t\n", "\f\n", '[White "A"]\n', ' [Black "B"]\r\n', '[Event "x"]\r', "[not a tag]\n",
             "1. e4 e5 *\n", "{open\n", "}\n", '[Round "1.2"]', "text", "\u2028[White \"C\"]\n", "\n\n"]  # fmt: skip
    rnd = random.Random(7)
    lf_only = [p for p in parts if "\r" not in p]  # the quick cut's own path (a CR sends it to the walk)
    for n in range(3000):
        text = "".join(rnd.choice(lf_only if n % 2 else parts) for _ in range(rnd.randint(0, 14)))
        assert split_games(text) == split_games_by_lines(text), repr(text)
    long_last = '\n\n[White "' + "x" * LINE_LIMIT + '"]'
    assert split_games(long_last) == split_games_by_lines(long_last) == [long_last]
