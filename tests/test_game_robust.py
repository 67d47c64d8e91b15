"""Bad input never escapes as a Python exception, and a failed call leaves
the game unchanged: every public Game and pgn function, fuzzed with
hypothesis (wrong types, junk text, odd chess.Move objects, huge input)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from unittest import mock

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pychessdraw import Game, Termination, pgn
from pychessdraw.errors import BadFenError, BadRequestError, GameOverError, RefereeError
from pychessdraw.rules import dead

START_FENS = [
    None,
    "8/8/4k3/8/8/4K3/8/R7 w - - 99 80",  # fifty-move claims with intended moves
    "7k/8/6K1/8/8/8/8/R7 w - - 99 60",  # a mate in one at clock 99
    "4k3/8/8/KPp4r/8/8/8/8 w - c6 0 2",  # en passant that is not legal
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate: over
    "8/8/4k3/8/8/4K3/8/8 w - - 0 1",  # bare kings: over
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
]

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True),
    st.binary(max_size=10),
    st.text(max_size=12),
    st.text(alphabet="abcdefgh12345678xNBRQKO-=+#!? ", max_size=8),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.builds(
        chess.Move,
        st.integers(-2, 70),
        st.integers(-2, 70),
        st.sampled_from([None, 1, 2, 5, 6, 7]),
        st.sampled_from([None, None, 1]),
    ),
    st.sampled_from(
        [
            "e4",
            "Nf3",
            "e2e4",
            "O-O",
            "Ra2",
            "Ra8#",
            "Kd2",
            "e8",
            "--",
            "0000",
            "Qxz9",
            " ",
            "",
            "[" * 1000,
            "e" * 100_000,
            "\x00",
            "Kh1\n",
            chess.Move.from_uci("e2e4"),
            chess.Move.null(),
            chess.WHITE,
            chess.BLACK,
            dead.STATIC,
            Termination.FIFTY_MOVES,
            Termination.CHECKMATE,
            "fifty_moves",
            "threefold_repetition",
            chess.Move(52, 60, promotion=5.0),
        ]
    ),  # type: ignore[arg-type]
)


def snapshot(game: Game) -> tuple[Any, ...]:
    return (
        game.fen(),
        game.ply,
        game.moves,
        game.declared_outcome(),
        game.start_fen,
        game.flag_rules,
        game.search,
        [tuple(h) for h in game.history()],
    )


def small(value: object) -> object:
    """Keep searches short: a budget argument becomes the page's budget."""
    return dead.PAGE if isinstance(value, dead.SearchBudget) else value


CALLS: dict[str, Callable[[Game, object], object]] = {
    "play": lambda g, a: g.play(a),  # type: ignore[arg-type]
    "parse_move": lambda g, a: g.parse_move(a),  # type: ignore[arg-type]
    "claim_draw": lambda g, a: g.claim_draw(a),  # type: ignore[arg-type]
    "resign": lambda g, a: g.resign(a),  # type: ignore[arg-type]
    "flag": lambda g, a: g.flag(a, search=dead.PAGE),  # type: ignore[arg-type]
    "flag_search": lambda g, a: g.flag(chess.WHITE, search=small(a)),  # type: ignore[arg-type]
    "status_search": lambda g, a: g.status(search=small(a)),  # type: ignore[arg-type]
    "status_moves": lambda g, a: g.status(legal_moves=a),  # type: ignore[arg-type]
    "repetitions": lambda g, a: g.repetitions(a),  # type: ignore[arg-type]
    "is_irreversible": lambda g, a: g.is_irreversible(a),  # type: ignore[arg-type]
    "position_key": lambda g, a: g.position_key(a),  # type: ignore[arg-type]
    "san": lambda g, a: g.san(a),  # type: ignore[arg-type]
    "uci": lambda g, a: g.uci(a),  # type: ignore[arg-type]
    "intended_moves": lambda g, a: g.intended_moves(a),  # type: ignore[arg-type]
    "winnable": lambda g, a: g.winnable(small(a)),  # type: ignore[arg-type]
    "dead_check": lambda g, a: g.automatic_outcome(dead_check=a),  # type: ignore[arg-type]
    "agree_draw": lambda g, a: g.agree_draw(),
    "undo": lambda g, a: g.undo(),
}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    fen=st.sampled_from(START_FENS),
    prefix=st.lists(st.sampled_from(["Nf3", "Ra2", "Kd2", "Nf6", "e4"]), max_size=3),
    calls=st.lists(st.tuples(st.sampled_from(sorted(CALLS)), junk), min_size=1, max_size=6),
)
def test_a_failed_call_leaves_the_game_unchanged(
    fen: str | None, prefix: list[str], calls: list[tuple[str, object]]
) -> None:
    game = Game(fen)
    for text in prefix:
        try:
            game.play(text)
        except RefereeError:
            pass
    for name, arg in calls:
        before = snapshot(game)
        try:
            CALLS[name](game, arg)
        except RefereeError as exc:
            assert snapshot(game) == before, (name, arg, exc.code)
            assert exc.to_dict()["code"] == exc.code and len(exc.message) < 600, (name, arg)


@settings(max_examples=300, deadline=None)
@given(fen=junk, chess960=junk, flag_rules=junk, search=junk)
def test_bad_constructor_arguments_raise_referee_errors(
    fen: object, chess960: object, flag_rules: object, search: object
) -> None:
    try:
        Game(fen, chess960=chess960, flag_rules=flag_rules, search=small(search))  # type: ignore[arg-type]
    except RefereeError:
        pass


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(junk, st.text(alphabet='[]{}();%"\n 1.-0/2*eNf3x$!?abcdefgh12345678KQRBNO', max_size=200)))
def test_pgn_functions_answer_with_referee_errors(text: object) -> None:
    try:
        game, _ = pgn.parse_one(text)  # type: ignore[arg-type]
    except RefereeError:
        return
    assert isinstance(pgn.export(game), str)


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: Game(fen=123), BadRequestError),  # type: ignore[arg-type]
        (lambda: Game().play(None), BadRequestError),  # type: ignore[arg-type]
        (lambda: Game().claim_draw(5), BadRequestError),  # type: ignore[arg-type]
        (lambda: Game().resign("white"), BadRequestError),  # type: ignore[arg-type]
        (lambda: Game().flag(1), BadRequestError),
        (lambda: Game().repetitions(True), BadRequestError),
        (lambda: Game().repetitions(5), BadRequestError),
        (lambda: Game().play(chess.Move(64, 0)), BadRequestError),
        (lambda: Game().status(search=1_000), BadRequestError),  # type: ignore[arg-type]
        (lambda: dead.SearchBudget(nodes=-1), BadRequestError),
        (lambda: dead.SearchBudget(seconds=float("nan")), BadRequestError),
        (lambda: Game("[" * 100_000), BadFenError),
        (lambda: Game(flag_rules=None), BadRequestError),  # type: ignore[arg-type]
    ],
)
def test_reported_bad_inputs(call: Callable[[], object], error: type[RefereeError]) -> None:
    with pytest.raises(error):
        call()


def test_flag_on_a_finished_game_raises_before_any_search() -> None:
    game = Game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")  # stalemate
    budget = dead.SearchBudget(nodes=5_000_000, seconds=1.0)
    with pytest.raises(GameOverError):
        game.flag(chess.WHITE, search=budget)
    assert game.winnable() is not None and all(v.nodes == 0 for v in game.winnable().values())


def test_flag_in_a_dead_position_answers_with_that_ending() -> None:
    # Locked pawns with the kings walled apart: dead (FIDE 5.2.2), which
    # ends the game before any flag can fall.
    game = Game("Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - - 0 1")
    assert game.outcome() is None  # the static proofs alone do not see it
    outcome = game.flag(chess.WHITE)
    assert outcome.termination is Termination.DEAD_POSITION and not outcome.claimed
    assert game.declared_outcome() is None and game.outcome() == outcome
    with pytest.raises(GameOverError):
        game.flag(chess.BLACK)


@settings(max_examples=200, deadline=None)
@given(
    headers=junk,
    comments=junk,
    lines=junk,
    options=st.dictionaries(st.sampled_from(["search", "flag_rules", "x"]), junk, max_size=2),
)
def test_pgn_helpers_answer_bad_arguments_with_referee_errors(
    headers: object, comments: object, lines: object, options: dict[str, object]
) -> None:
    game = Game()
    game.play("e4")
    before = snapshot(game)
    for call in (
        lambda: pgn.export(game, headers, comments),  # type: ignore[arg-type]
        lambda: pgn.export(headers),  # type: ignore[arg-type]
        lambda: pgn.game_from_headers(headers, **{k: small(v) for k, v in options.items()}),  # type: ignore[arg-type]
        lambda: list(pgn.read_games(lines)),  # type: ignore[arg-type]
        lambda: pgn.parse_one("1. e4 *", **{k: small(v) for k, v in options.items()}),
        lambda: None if isinstance(lines, chess.Move) else game.push(lines),
    ):  # type: ignore[arg-type]
        # (push trusts the legality of a chess.Move: that is its contract)
        try:
            call()
        except RefereeError:
            pass
    assert snapshot(game) == before


# arguments of the wrong type are refused, and a checkpoint puts a game back
PROMOTING = "k7/4P3/8/8/8/8/8/4K3 w - - 0 1"


def test_a_move_of_the_wrong_types_is_refused_by_play_and_push() -> None:
    game = Game(PROMOTING)
    odd = [
        chess.Move(52, 60, promotion=5.0),  # type: ignore[arg-type]
        chess.Move(True, 18),
        chess.Move(52, 60, promotion=True),
        chess.Move(52.0, 60, promotion=chess.QUEEN),
    ]  # type: ignore[arg-type]
    for move in odd:
        for action in (game.play, game.push, game.san, game.claim_draw):
            with pytest.raises(BadRequestError):
                action(move)
    assert game.ply == 0 and game.fen() == chess.Board(PROMOTING).fen()
    game.play(chess.Move(52, 60, promotion=chess.QUEEN))
    assert "1. e8=Q+" in pgn.export(game)


def test_intended_moves_takes_a_rule_or_its_name_and_refuses_other_text() -> None:
    game = Game("8/8/4k3/8/8/4K3/8/R7 w - - 99 80")
    by_rule = game.intended_moves(Termination.FIFTY_MOVES)
    assert by_rule and game.intended_moves("fifty_moves") == by_rule
    assert game.intended_moves("threefold_repetition") == game.intended_moves(Termination.THREEFOLD_REPETITION)
    for bad in ("fifty moves", "FIFTY_MOVES", "checkmate", "", Termination.CHECKMATE, 5, None, ["fifty_moves"]):
        with pytest.raises(BadRequestError):
            game.intended_moves(bad)  # type: ignore[arg-type]


def test_a_checkpoint_puts_back_moves_ending_rules_and_history() -> None:
    game = Game()
    for move in ("e4", "e5", "Nf3", "Nc6"):
        game.play(move)
    seen = (game.fen(), game.moves, game.history(), game.declared_outcome(), game.flag_rules, game.status())
    point = game.checkpoint()
    game.undo()
    game.undo()
    game.play("d4")
    game.flag_rules = "uscf"
    game.resign(chess.WHITE)
    game.rollback(point)
    assert (game.fen(), game.moves, game.history(), game.declared_outcome(), game.flag_rules, game.status()) == seen
    game.play("Bb5")  # the game goes on from there
    with pytest.raises(BadRequestError):
        game.rollback(Game().checkpoint())
    point = game.checkpoint()
    again = (game.fen(), game.moves, game.history(), game.status())
    game.undo()
    game._board.push(chess.Move.from_uci("a2a3"))  # a search that stopped between its push and its pop
    game.rollback(point)
    assert (game.fen(), game.moves, game.history(), game.status()) == again


def test_export_refuses_tags_a_pgn_file_cannot_hold() -> None:
    game = Game()
    game.play("e4")
    for headers in ({"bad name": "x"}, {"": "x"}, {"Event": "two\nlines"}, {"Site": "a\rb"}):
        with pytest.raises(BadRequestError):
            pgn.export(game, headers)
    assert '[Event "x"]' in pgn.export(game, {"Event": "x", "WhiteElo": "2000", "A1_+#=:-": "y"})


def test_a_claim_that_fails_after_its_move_takes_the_move_back() -> None:
    game = Game("8/8/4k3/8/8/4K3/8/R7 w - - 99 80")
    before = snapshot(game)
    with mock.patch.object(Game, "claimable_now", side_effect=RuntimeError("a fault inside the referee")):
        with pytest.raises(RuntimeError):
            game.claim_draw("Ra2")
    assert snapshot(game) == before
    assert game.claim_draw("Ra2").accepted  # and the game is whole


def test_a_push_that_fails_leaves_board_and_history_in_step() -> None:
    game = Game()
    game.play("e4")
    before = snapshot(game)
    with mock.patch("pychessdraw.game.position_key", side_effect=MemoryError()):
        with pytest.raises(MemoryError):
            game.play("e5")
    assert snapshot(game) == before and game.fen() == game.board.fen()
