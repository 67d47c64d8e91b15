"""The PGN reader against python-chess's reader on mutated PGN: every game
python-chess reads without error, pychessdraw reads too, with the same tags
and the same main line. Plus the broken inputs that used to lose games or
memory: a ';' comment holding '{', a broken tag line, a '{' left open, and
text with no newline at all."""

from __future__ import annotations

import io
import random
import re
import tracemalloc
from collections import Counter

import chess
import chess.pgn
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pychessdraw.errors import RefereeError
from pychessdraw.pgn import LINE_LIMIT, PgnGame, game_from_headers, play_tokens, read_games

SEVEN_TAGS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?", "Result": "*"}


def random_game(rng: random.Random, number: int) -> str:
    board = chess.Board()
    game = chess.pgn.Game()
    game.headers.update(
        {
            "Event": f"Event {number}",
            "Site": "Here",
            "White": f"W{rng.randrange(100)}",
            "Black": "B b",
            "Round": str(number),
        }
    )
    node: chess.pgn.GameNode = game
    for ply in range(rng.randrange(1, 40)):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        if ply and rng.random() < 0.1 and len(moves) > 1:  # a variation of one move
            other = rng.choice([m for m in moves if m != move])
            node.add_variation(other).comment = "side line"
        node = node.add_main_variation(move)
        if rng.random() < 0.15:
            node.comment = rng.choice(["fine", "[%clk 0:01:00]", "a (bracket", "semi ; colon", "two\nlines"])
        if rng.random() < 0.1:
            node.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 14]))
        board.push(move)
    game.headers["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    return str(game)


def mutate(text: str, rng: random.Random, count: int) -> str:
    lines = text.split("\n")
    for _ in range(count):
        i = rng.randrange(len(lines))
        line = lines[i]
        kind = rng.randrange(9)
        in_moves = bool(line) and not line.startswith("[")
        if kind == 0 and in_moves:  # a ';' comment holding braces and brackets
            lines[i] = line + rng.choice([" ; a { in a comment", " ; } and {", ' ; [Event "x"]', ";(("])
        elif kind == 1 and in_moves and " " in line:  # a { comment between two words
            cut = rng.choice([j for j, ch in enumerate(line) if ch == " "])
            comment = rng.choice(["{ ; ( ) [x] }", "{}", "{ a\n\n b }", "{ 1. e4 }", '{ [Event "not"] }'])
            lines[i] = line[:cut] + " " + comment + line[cut:]
        elif kind == 2 and line.startswith("[") and not line.startswith("[Event") and len(line) > 2:  # broken tag
            lines[i] = line[: rng.randrange(1, len(line) - 1)]
        elif kind == 3 and line.startswith("[Event"):  # a broken tag line before a game
            lines.insert(i, rng.choice(['[Event "b', "[Site", '[ "x"]', "[]"]))
        elif kind == 4 and in_moves and " " in line:  # a '{' left open
            cut = rng.choice([j for j, ch in enumerate(line) if ch == " "])
            lines[i] = line[:cut] + " {open" + line[cut:]
        elif kind == 5:  # escape lines and ';' lines
            lines.insert(i, rng.choice(['% escaped [Event "x"] {', "; a whole-line comment {"]))
        elif kind == 6 and in_moves and " " in line:  # NAGs and annotations standing alone
            cut = rng.choice([j for j, ch in enumerate(line) if ch == " "])
            lines[i] = line[:cut] + rng.choice([" $12", " !?", " ??", " $0"]) + line[cut:]
        elif kind == 7 and line == "" and 0 < i < len(lines) - 1 and lines[i + 1].startswith("[Event"):
            del lines[i]  # no blank line between two games
        elif kind == 8:  # Windows line ends
            lines[i] = line + "\r"
    return "\n".join(lines)


# A blank line, then (after any other lines: a ';' comment line, say) a tag line.
TAG_SECTION = re.compile(r'\n[ \t\r]*\n(?:[^\n]*\n)*?[ \t]*\[[A-Za-z0-9]+ *"')


def spans_a_tag_section(game: chess.pgn.Game) -> bool:
    """A comment of this game runs over a blank line and, on a later line,
    a tag: a '{' left open that python-chess closed in a later game (our
    reader ends it at the first tag line after a blank line instead; a
    documented limit)."""
    nodes: list[chess.pgn.GameNode] = [game]
    while nodes:
        node = nodes.pop()
        if TAG_SECTION.search(node.comment) or TAG_SECTION.search(node.starting_comment):
            return True
        nodes.extend(node.variations)
    return False


def python_chess_games(text: str) -> list[tuple[tuple[tuple[str, str], ...], tuple[str, ...]]]:
    out = []
    handle = io.StringIO(text)
    while True:
        try:
            game = chess.pgn.read_game(handle)
        except IndexError:
            # python-chess 1.10-1.11 itself crashes on some broken text (a ')'
            # closing no variation after an escaped line): it reads no further
            break
        if game is None:
            break
        moves = tuple(m.uci() for m in game.mainline_moves())
        if not game.errors and moves and not spans_a_tag_section(game):
            out.append((tuple(sorted(game.headers.items())), moves))
    return out


def our_games(text: str) -> list[tuple[tuple[tuple[str, str], ...], tuple[str, ...]]]:
    out = []
    for parsed in read_games(io.StringIO(text)):
        if parsed.error is not None and parsed.error.details["token"] not in ("{", "("):
            continue  # broken move text; an open comment or variation at the end keeps the moves before it
        try:
            game = game_from_headers(parsed.headers)
            play_tokens(game, parsed.tokens)
        except RefereeError:
            continue
        headers = {**SEVEN_TAGS, **parsed.headers}
        if headers["Result"] == "*" and parsed.result:  # as python-chess fills in a missing Result tag
            headers["Result"] = parsed.result
        out.append((tuple(sorted(headers.items())), tuple(m.uci() for m in game.moves)))
    return out


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), games=st.integers(1, 4), mutations=st.integers(0, 9))
@example(seed=1_384_405_741, games=1, mutations=6)  # python-chess's reader raises IndexError on it
@example(seed=206_107_297, games=4, mutations=5)  # a ';' line between the blank line and the tags
def test_every_game_python_chess_reads_is_read_the_same(seed: int, games: int, mutations: int) -> None:
    rng = random.Random(seed)
    text = "\n\n".join(random_game(rng, n) for n in range(games)) + "\n"
    text = mutate(text, rng, mutations)
    assert not unmatched(python_chess_games(text), our_games(text)), text


Read = tuple[tuple[tuple[str, str], ...], tuple[str, ...]]


def unmatched(theirs: list[Read], ours: list[Read]) -> list[Read]:
    """python-chess's games that none of ours matches: same moves, and every
    tag python-chess read (other than its defaults) with the same value. Ours
    may know more tags: where a blank line is missing between two games,
    python-chess reads the second one's tags as move text (taking the
    Result tag's value for the first game's result) and its moves as a game
    without tags. Results are not compared for that reason."""
    left = list(ours)
    missing = []
    for headers, moves in theirs:
        wanted = {(k, v) for k, v in headers if SEVEN_TAGS.get(k) != v and k != "Result"}
        for i, (h, m) in enumerate(left):
            if m == moves and wanted <= set(h):
                del left[i]
                break
        else:
            missing.append((headers, moves))
    return missing


def test_unmutated_games_are_all_read() -> None:
    rng = random.Random(1)
    text = "\n\n".join(random_game(rng, n) for n in range(30)) + "\n"
    assert len(python_chess_games(text)) == 30
    assert Counter(our_games(text)) == Counter(python_chess_games(text))


GAME = '[Event "{n}"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'


def test_a_semicolon_comment_holding_a_brace_loses_nothing() -> None:
    text = GAME.format(n=1).replace("1. e4", "1. e4 ; a { that opens nothing\n") + "\n" + GAME.format(n=2)
    games = list(read_games(io.StringIO(text)))
    assert [g.headers["Event"] for g in games] == ["1", "2"]
    assert all(g.error is None and len(g.tokens) == 7 for g in games)


def test_a_broken_tag_line_spoils_nothing() -> None:
    text = '[Event "b\n' + GAME.format(n=1) + "\n" + '[Event "c\n[Site "x"]\n\n1. d4 *\n\n' + GAME.format(n=2)
    games = list(read_games(io.StringIO(text)))
    assert [g.headers.get("Event") for g in games] == ["1", None, "2"]
    assert all(g.error is None for g in games)
    assert games[1].warnings and games[1].tokens == ["d4"] and games[1].headers == {"Site": "x"}


def test_an_open_brace_ends_at_the_next_tag_section() -> None:
    text = GAME.format(n=1).replace("3. Bc4", "{ never closed 3. Bc4") + "\n" + GAME.format(n=2)
    games = list(read_games(io.StringIO(text)))
    assert [g.headers["Event"] for g in games] == ["1", "2"]
    assert (
        games[0].error is not None
        and games[0].error.code == "bad_pgn"
        and games[0].tokens == ["e4", "e5", "Qh5", "Nc6"]
    )
    assert games[1].error is None and len(games[1].tokens) == 7


class Endless:
    """A text stream of ``size`` characters with no newline (like /dev/zero)."""

    def __init__(self, size: int, fill: str, head: str = "") -> None:
        self.left, self.fill, self.head = size, fill, head

    def readline(self, limit: int = -1) -> str:
        if self.head:
            out, self.head = self.head, ""
            return out
        n = min(self.left, limit if limit > 0 else self.left)
        self.left -= n
        return self.fill * n


def peak_memory(stream: Endless) -> tuple[int, list[object]]:
    tracemalloc.start()
    try:
        games = list(read_games(stream))
        return tracemalloc.get_traced_memory()[1], list(games)
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "fill, head", [("\x00", ""), ("x", "1. e4 {"), ("e4 ", ""), ("(", ""), ("a ", ""), ("[", ""), ("x", '[Event "')]
)
def test_memory_does_not_grow_with_the_input(fill: str, head: str) -> None:
    """Text with no newline, a comment never closed, endless moves: the peak
    memory is the same for 0.5 MB and for 2 MB of input."""
    small, games = peak_memory(Endless(8 * LINE_LIMIT, fill, head))
    large, again = peak_memory(Endless(32 * LINE_LIMIT, fill, head))
    assert large < small * 1.5 + LINE_LIMIT * 8, (small, large)
    assert len(games) == len(again) <= 1


def test_a_long_line_is_read_across_pieces_without_cutting_a_move() -> None:
    moves = "1. Nf3 Nf6 2. Ng1 Ng8 " * (LINE_LIMIT // 20)  # 72,000 characters on one line
    games = list(read_games(io.StringIO('[Event "long"]\n\n' + moves + "*\n")))
    assert len(games) == 1 and games[0].error is None
    assert len(games[0].tokens) == 4 * (LINE_LIMIT // 20)


@pytest.mark.slow
def test_real_games_read_as_python_chess_reads_them(shared) -> None:  # type: ignore[no-untyped-def]
    path = shared("corpus", "tcec-dev.pgn")
    with open(path, encoding="utf-8") as handle:
        text = "".join(line for _, line in zip(range(3_000), handle, strict=False))
    text = text[: text.rfind("\n[Event ")]  # whole games only
    theirs, ours = python_chess_games(text), our_games(text)
    assert len(theirs) > 100 and not unmatched(theirs, ours) and len(ours) == len(theirs)


# -- the known game after mutated ones ---------------------------------------
KNOWN_HEADERS = {"Event": "the known game", "Site": "known-7f3a", "White": "K", "Black": "N", "Result": "1-0"}
KNOWN_TEXT = (
    "".join(f'[{k} "{v}"]\n' for k, v in KNOWN_HEADERS.items()) + "\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"
)
NO_MAIN_LINE_MOVE = ["( 1. e4 e5 1-0", "{ game abandoned }", "only words here", "$1", "( 1. d4 ( 1. c4 ) )"]
GARBAGE = '{}();[]%"\\$!?. \nabcdefghNBRQKO-0123456789x#+=*/'


def mutated_record(rng: random.Random, number: int, sound: bool) -> str:
    """One broken record of a class that used to lose or merge games.
    ``sound``: only classes python-chess delimits as PGN does (not a '{'
    left open, which it closes in a later game, nor a record cut after its
    tags, which it merges into the next one)."""
    text = random_game(rng, number).rstrip("\n")
    head, _, moves = text.partition("\n\n")
    kind = rng.randrange(4) if sound else rng.randrange(4, 9)
    if kind == 0:  # move text with no main-line move and no result
        return head + "\n\n" + rng.choice(NO_MAIN_LINE_MOVE)
    if kind == 1:  # words that are no moves, NAGs and stray ')' in the move text
        for _ in range(rng.randrange(1, 6)):
            at = rng.randrange(len(moves))
            moves = moves[:at] + " " + rng.choice(["$1", "!?", "side", "0:01", ")", "1.", "=="]) + " " + moves[at:]
        return head + "\n\n" + moves
    if kind == 2:  # a ';' comment holding a '{' at the end
        return text + " ; a { in a comment"
    if kind == 3:
        return text
    if kind == 4:  # a record cut after its tags, with a FEN of its own
        return head + '\n[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]' + rng.choice(["", "\n"])
    if kind == 5:  # cut anywhere
        return text[: rng.randrange(1, len(text))]
    if kind == 6:  # garbage inserted
        for _ in range(rng.randrange(1, 6)):
            at = rng.randrange(len(text))
            text = text[:at] + "".join(rng.choice(GARBAGE) for _ in range(rng.randrange(1, 8))) + text[at:]
        return text
    if kind == 7:  # the mutations above: ';' comments holding '{', '{' left open, broken tags...
        return mutate(text, rng, rng.randrange(1, 6))
    return text + " { left open"


def known_games(games: list[chess.pgn.Game]) -> list[chess.pgn.Game]:
    return [g for g in games if g.headers.get("Site") == KNOWN_HEADERS["Site"]]


def python_chess_all(text: str) -> list[chess.pgn.Game] | None:
    """Every game python-chess reads, or None if it crashes."""
    handle, out = io.StringIO(text), []
    try:
        while (game := chess.pgn.read_game(handle)) is not None:
            out.append(game)
    except (IndexError, ValueError):
        return None
    return out


def not_kept(theirs: list[Read], ours: list[PgnGame]) -> list[Read]:
    """python-chess's games that none of ours keeps: a game of ours with the
    same Event (each record has its own) or, for a game python-chess reads
    without tags (a missing blank line makes it read them as move text),
    with one of its first moves. Garbage inserted makes the rest of the moves
    differ (python-chess skips "K6*4" or a lone '"', which we report), and
    other tags where python-chess merges a record cut after its tags into
    the next game, which we read as two."""
    kept = []
    for parsed in ours:
        first: tuple[str, ...] = ()
        try:
            game = game_from_headers(parsed.headers)
            for token in parsed.tokens[:3]:  # the first that plays: garbage words are skipped
                try:
                    game.play(token)
                except RefereeError:
                    continue
                first = (game.moves[-1].uci(),)
                break
        except RefereeError:
            pass
        kept.append((parsed.headers.get("Event"), first))
    return [
        (headers, moves)
        for headers, moves in theirs
        if not any(
            event == dict(headers)["Event"] or (dict(headers)["Event"] == "?" and set(first) & set(moves[:3]))
            for event, first in kept
        )
    ]


def check_known_game_after(text: str, sound: bool) -> None:
    """The known game at the end of ``text`` is read once, whole, with its
    own tags only; every game python-chess reads is kept; and where all the
    records before it are ``sound``, we read as many games as python-chess."""
    ours = list(read_games(io.StringIO(text)))
    mine = [g for g in ours if g.headers.get("Site") == KNOWN_HEADERS["Site"]]
    assert len(mine) == 1, text
    assert mine[0].headers == KNOWN_HEADERS, text  # its own tags only: no FEN of a record before it
    assert mine[0].error is None and len(mine[0].tokens) == 7 and ours[-1] is mine[0], text
    assert not not_kept(python_chess_games(text), ours), text
    theirs = python_chess_all(text)
    if sound and theirs is not None:
        assert len(known_games(theirs)) == 1
        assert len(ours) == len(theirs), text


def test_the_known_game_after_mutated_ones_is_read_with_its_own_tags(full: bool) -> None:
    for seed in range(5_000 if full else 300):
        rng = random.Random(seed)
        sound = seed % 2 == 0
        records = [mutated_record(rng, n, sound) for n in range(rng.randrange(1, 4))]
        gaps = ["\n\n"] if sound else ["\n\n", "\n\n", "\n"]  # python-chess needs the blank line
        text = "".join(r + rng.choice(gaps) for r in records[:-1]) + records[-1]
        check_known_game_after(text + "\n\n" + KNOWN_TEXT, sound)


@pytest.mark.parametrize("movetext", NO_MAIN_LINE_MOVE)
def test_no_main_line_move_keeps_the_games_after_it(movetext: str) -> None:
    text = f'[Event "first"]\n[Result "*"]\n\n{movetext}\n\n' + KNOWN_TEXT
    check_known_game_after(text, True)
    assert len(list(read_games(io.StringIO(text)))) == 2 == len(python_chess_all(text) or [])
