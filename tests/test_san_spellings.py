"""SAN as PGN writes it: every disambiguation python-chess reads (by file,
by rank, by square) is read as the same move, and a game the library
exported always loads back (random long games, promotions, Chess960)."""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pychessdraw import Game
from pychessdraw.errors import AmbiguousMoveError
from pychessdraw.pgn import export, parse_one

# Two bishops on one file reach one square: PGN names each by its rank.
RANK_NAMED = [
    ("4k3/8/8/2B5/8/8/8/2B1K3 w - - 0 1", "B1e3", "c1e3"),
    ("4k3/8/8/2B5/8/8/8/2B1K3 w - - 0 1", "B5e3", "c5e3"),
    ("4k3/8/8/8/8/8/2B5/2B1K3 w - - 0 1", "B2d3", "c2d3"),
    ("4k3/8/6b1/8/8/8/6b1/4K3 b - - 0 1", "B6e4", "g6e4"),
    ("4k3/8/6b1/8/8/8/6b1/4K3 b - - 0 1", "B2xe4", "g2e4"),
]


@pytest.mark.parametrize(("fen", "san", "uci"), RANK_NAMED)
def test_a_bishop_named_by_its_rank_is_a_bishop_not_uci(fen: str, san: str, uci: str) -> None:
    board = chess.Board(fen)
    assert board.parse_san(san) == chess.Move.from_uci(uci)  # python-chess plays it
    game = Game(fen)
    assert game.parse_move(san) == chess.Move.from_uci(uci)


def test_uci_in_capitals_still_reads_where_no_bishop_move_fits() -> None:
    assert Game().parse_move("B1C3") == chess.Move.from_uci("b1c3")
    assert Game().parse_move("E2E4") == chess.Move.from_uci("e2e4")


def test_typed_b_rank_square_that_fits_a_bishop_and_another_piece_is_ambiguous() -> None:
    # A knight on b1 goes to d2 (b1d2); bishops on c1 and c3 both reach d2: "B1d2" is c1d2 in SAN.
    fen = "4k3/8/8/8/8/2B5/8/1NB1K3 w - - 0 1"
    board = chess.Board(fen)
    assert board.parse_san("B1d2") == chess.Move.from_uci("c1d2")
    assert board.is_legal(chess.Move.from_uci("b1d2"))
    assert Game(fen).parse_move("B1d2") == chess.Move.from_uci("c1d2")  # PGN: SAN, as the standard says
    with pytest.raises(AmbiguousMoveError) as info:
        Game(fen).parse_move("B1d2", typed=True)
    assert {c["uci"] for c in info.value.details["candidates"]} == {"c1d2", "b1d2"}


def _spellings(board: chess.Board, move: chess.Move) -> list[str]:
    """Every SAN for ``move`` that python-chess reads as ``move``: as it
    writes it, and with the origin's file, rank or square added."""
    san = board.san(move)
    found = [san]
    piece = board.piece_type_at(move.from_square)
    if piece in (None, chess.PAWN, chess.KING) or board.is_castling(move):
        return found
    letter = chess.piece_symbol(piece).upper()
    rest = ("x" if board.is_capture(move) else "") + chess.square_name(move.to_square)
    rest += "+" if board.gives_check(move) else ""
    square = chess.square_name(move.from_square)
    for origin in (square[0], square[1], square):
        spelling = letter + origin + rest
        try:
            if board.parse_san(spelling) == move:
                found.append(spelling)
        except ValueError:
            continue
    return found


def _random_game(rng: random.Random, chess960: bool, plies: int) -> chess.Board:
    if chess960:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
    else:
        # Few pawns and many pieces: disambiguations and promotions come often.
        board = chess.Board(rng.choice([chess.STARTING_FEN, "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1"]))
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        promotions = [m for m in moves if m.promotion]
        board.push(rng.choice(promotions if promotions and rng.random() < 0.5 else moves))
    return board


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), chess960=st.booleans(), plies=st.integers(1, 200))
def test_every_spelling_python_chess_reads_is_read_as_the_same_move(seed: int, chess960: bool, plies: int) -> None:
    board = _random_game(random.Random(seed), chess960, plies)
    replay = board.root()
    game = Game(replay.fen(), chess960=chess960)
    for move in board.move_stack:
        for spelling in _spellings(replay, move):
            assert game.parse_move(spelling) == move, (replay.fen(), spelling)
        replay.push(move)
        game.push(move)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), chess960=st.booleans(), plies=st.integers(1, 400))
def test_a_game_the_library_exported_loads_back(seed: int, chess960: bool, plies: int) -> None:
    board = _random_game(random.Random(seed), chess960, plies)
    start = board.root().fen()
    game = Game(start, chess960=chess960)
    played = []
    for move in board.move_stack:
        if game.outcome() is not None:  # mate, a dead position, the 75-move rule: the game ends there
            break
        game.push(move)
        played.append(move)
    headers = {"Variant": "Chess960"} if chess960 else {}
    if start != chess.STARTING_FEN:
        headers |= {"SetUp": "1", "FEN": start}
    text = export(game, headers)
    loaded, _ = parse_one(text)
    assert loaded.board.move_stack == played
    assert export(loaded, headers) == text
