# SPDX-License-Identifier: GPL-3.0-or-later
"""The staged move generator of the dead-position walk gives exactly the
order of sorting every pseudo-legal move (so found lines and node counts do
not depend on which of the two the walk uses)."""

from __future__ import annotations

import random

import chess
import pytest

from pychessdraw.deadposition.distances import DISTANCE
from pychessdraw.deadposition.first_move import best_first_move
from pychessdraw.deadposition.legal import checkers_mask, has_free_flights, legal_moves
from pychessdraw.deadposition.ordering import (
    dive_moves,
    dive_moves_anywhere,
    mating_corner,
    needs_loser_promotion,
    ordered_moves,
    staged_moves,
)

# Positions where the deferred moves matter: under-promotions with and
# without capture, castling both ways, en passant, a loser king in its corner.
SPECIAL = [
    "r3k2r/1P4P1/8/3pP3/8/8/p5p1/R3K2R w KQkq d6 0 1",
    "r3k2r/1P4P1/8/8/3pP3/8/p5p1/R3K2R b KQkq e3 0 1",
    "7k/5PPP/8/8/8/8/8/K6R w - - 0 1",
    "1n5k/P5pp/8/8/8/8/6PP/6RK w - - 0 1",
    "k7/8/8/8/8/8/1p6/K7 b - - 0 1",
]


def _positions(seed: int, games: int, chess960: bool) -> list[chess.Board]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        for _ in range(rng.randrange(10, 160)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
            out.append(board.copy(stack=False))
    return out


def _sparse(seed: int, count: int) -> list[chess.Board]:
    """``count`` legal positions of the two kings and up to five men placed
    at random (endings, where the winner's king walks into attacks)."""
    rng = random.Random(seed)
    out: list[chess.Board] = []
    while len(out) < count:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 7)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square in squares[2:]:
            kind = rng.choice(chess.PIECE_TYPES[:-1])
            if kind != chess.PAWN or chess.square_rank(square) not in (0, 7):
                board.set_piece_at(square, chess.Piece(kind, rng.random() < 0.5))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            out.append(board)
    return out


def _full_order(board: chess.Board, winner: chess.Color) -> list[chess.Move]:
    moves = list(board.generate_pseudo_legal_moves())
    corner = mating_corner(board, winner)
    return [m for m, _ in ordered_moves(board, moves, winner, corner, needs_loser_promotion(board, winner))]


@pytest.mark.parametrize("chess960", [False, True])
def test_staged_order_equals_the_full_sort_on_random_games(chess960: bool) -> None:
    boards = _positions(7 if chess960 else 3, 40, chess960)
    assert len(boards) > 1000
    for board in boards:
        for winner in chess.COLORS:
            assert list(staged_moves(board, winner)) == _full_order(board, winner), (board.fen(), winner)


@pytest.mark.parametrize("fen", SPECIAL)
def test_staged_order_with_promotions_castling_and_en_passant(fen: str) -> None:
    board = chess.Board(fen)
    for winner in chess.COLORS:
        staged = list(staged_moves(board, winner))
        assert staged == _full_order(board, winner), winner
        assert len(staged) == len(set(staged)) == len(list(board.generate_pseudo_legal_moves()))


def test_the_winners_first_move_is_found_without_generating_moves() -> None:
    """A dive that takes the first move never pays for the rest: the
    winner's first move comes from attack sets (``first_move``), and the
    moves are generated only when the walk asks for a second."""
    board = chess.Board("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    generated: list[chess.Move] = []
    plain = board.generate_pseudo_legal_moves

    def counting(from_mask: int = chess.BB_ALL, to_mask: int = chess.BB_ALL):  # type: ignore[no-untyped-def]
        for move in plain(from_mask, to_mask):
            generated.append(move)
            yield move

    board.generate_pseudo_legal_moves = counting  # type: ignore[method-assign]
    gen = staged_moves(board, chess.WHITE)
    assert next(gen) == chess.Move.from_uci("e4d5")  # the capture comes first
    assert generated == []
    rest = list(gen)
    assert len(rest) == 6 and len(generated) == 7  # five king moves and e5, now (and e4d5 again, skipped)


def _loser_dive_order(board: chess.Board, winner: chess.Color) -> list[chess.Move]:
    """The loser's dive order from python-chess's generator: king steps to
    the corner, other quiet moves, the king's other quiet moves, captures."""
    corner = mating_corner(board, winner)
    them = board.occupied_co[winner]
    king = board.kings & board.occupied_co[not winner]
    quiet = list(board.generate_pseudo_legal_moves(king, ~them))
    closer = [m for m in quiet if DISTANCE[m.to_square][corner] < DISTANCE[m.from_square][corner]]
    return (
        closer
        + list(board.generate_pseudo_legal_moves(~king, ~them))
        + [m for m in quiet if m not in closer]
        + list(board.generate_pseudo_legal_moves(chess.BB_ALL, them))
    )


@pytest.mark.parametrize("chess960", [False, True])
def test_the_dive_order_is_a_permutation_that_keeps_the_winner_order(chess960: bool) -> None:
    """The dive reorders only the loser's moves (king steps to the corner
    first, every capture last, the king's too) and never drops or repeats a move."""
    for board in _positions(11, 20, chess960) + [chess.Board(f) for f in SPECIAL]:
        every = list(board.generate_pseudo_legal_moves())
        for winner in chess.COLORS:
            dive = list(dive_moves(board, winner))
            assert sorted(dive, key=str) == sorted(every, key=str), board.fen()
            if board.turn == winner or needs_loser_promotion(board, winner):
                assert dive == list(staged_moves(board, winner))
            else:
                assert dive == _loser_dive_order(board, winner), board.fen()
                them = board.occupied_co[winner]
                captures = [m for m in dive if chess.BB_SQUARES[m.to_square] & them]
                assert dive[len(dive) - len(captures) :] == captures, board.fen()
                corner = mating_corner(board, winner)
                steps = [
                    m
                    for m in dive
                    if m.from_square == board.king(board.turn)
                    and m not in captures
                    and DISTANCE[m.to_square][corner] < DISTANCE[m.from_square][corner]
                ]
                assert dive[: len(steps)] == steps, board.fen()


@pytest.mark.parametrize("chess960", [False, True])
def test_the_second_dive_heads_for_the_nearest_of_the_four_corners(chess960: bool) -> None:
    """``dive_moves_anywhere`` is ``dive_moves`` with the corner chosen among
    all four (the loser's back rank first on a tie): the same moves, and
    the loser king's first steps go towards that corner."""
    corners = (chess.A1, chess.H1, chess.A8, chess.H8)
    moved = stepped = 0
    for board in _positions(29, 20, chess960) + _sparse(31, 300) + [chess.Board(f) for f in SPECIAL]:
        every = sorted(board.generate_pseudo_legal_moves(), key=str)
        for winner in chess.COLORS:
            assert sorted(dive_moves_anywhere(board, winner), key=str) == every, board.fen()
            king = board.king(not winner)
            if king is None:
                continue
            corner = mating_corner(board, winner, anywhere=True)
            if board.occupied_co[winner] & (board.queens | board.rooks):  # no material special case
                assert DISTANCE[king][corner] == min(DISTANCE[king][c] for c in corners), board.fen()
                moved += corner != mating_corner(board, winner)
            if board.turn == winner or needs_loser_promotion(board, winner) or board.castling_rights:
                continue
            closer = [
                m
                for m in board.generate_pseudo_legal_moves(chess.BB_SQUARES[king], ~board.occupied)
                if DISTANCE[m.to_square][corner] < DISTANCE[king][corner]
            ]
            if closer and not (board.pawns & board.occupied_co[winner]):  # no blocked pawn to feed first
                assert next(dive_moves_anywhere(board, winner)) == closer[0], board.fen()
                stepped += 1
    assert moved > 0 and stepped > 0  # some kings are nearer a corner of the winner's side


# Positions where the first move is special: queen promotion by capture and
# by a step, victims of equal value, castling the only progress, a knight
# nearer the corner, black pawns choosing between ranks, a pinned piece;
# a pawn step against a slider's best quiet move (33: a tie, which the
# piece wins; 34: the pawn's), and the same without a loser's king (the
# slider then reaches the corner itself: 36).
FIRST_MOVE = [
    "1n2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/2n1b3/3P4/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "7k/8/8/8/8/8/8/N3K3 w - - 0 1",
    "4k3/1p3p2/6p1/8/8/8/8/4K3 b - - 0 1",
    "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",
    "7k/R7/8/8/8/8/2P5/4K3 w - - 0 1",
    "7k/R7/8/8/2P5/8/8/4K3 w - - 0 1",
    "8/8/8/8/2P5/8/8/Q3K3 w - - 0 1",
]


@pytest.mark.parametrize("chess960", [False, True])
def test_the_winners_first_move_is_the_first_of_the_full_sort(chess960: bool) -> None:
    """``best_first_move`` (from attack sets) is exactly the move the full
    sort puts first, captures, promotions and castling included."""
    boards = _positions(13 if chess960 else 17, 60, chess960) + [chess.Board(f) for f in FIRST_MOVE]
    found = 0
    for board in boards:
        winner = board.turn
        first = best_first_move(board, mating_corner(board, winner))
        if first is None:
            assert board.ep_square is not None or not any(board.generate_pseudo_legal_moves()), board.fen()
            continue
        found += 1
        assert first == _full_order(board, winner)[0], board.fen()
    assert found > 0.9 * len(boards)


@pytest.mark.parametrize("chess960", [False, True])
def test_the_checkers_are_python_chess_s(chess960: bool) -> None:
    """``checkers_mask`` reads a slider table only where the side has such
    a slider: the same mask as ``Board.checkers_mask``, either side to move."""
    boards = _positions(31 if chess960 else 37, 20, chess960) + _sparse(41, 400) + [chess.Board(f) for f in SPECIAL]
    boards.append(chess.Board(None))  # no king: no checkers
    for board in boards:
        for turn in chess.COLORS:
            board.turn = turn
            assert checkers_mask(board) == board.checkers_mask(), (board.fen(), turn)


@pytest.mark.parametrize("chess960", [False, True])
def test_the_walk_gets_exactly_the_legal_moves_in_its_order(chess960: bool) -> None:
    """``legal_moves`` tests legality once per position (checkers and pins),
    yet drops exactly the moves python-chess calls illegal: in check, pinned,
    the king onto an attacked square, en passant exposing the king (the
    sparse endings: kings stepping next to the other side's men)."""
    boards = (
        _positions(19 if chess960 else 23, 20, chess960)
        + _sparse(31 if chess960 else 37, 400)
        + [chess.Board(f) for f in SPECIAL + FIRST_MOVE]
        + [
            chess.Board("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1"),  # en passant would expose the king
            chess.Board("4k3/8/8/8/8/8/3n4/R3K2R w KQ - 0 1"),  # in check: castling is no evasion
            chess.Board("4k3/8/8/8/1b6/3n4/8/R3K2R w KQ - 0 1"),  # double check: only the king moves
            chess.Board("8/8/8/8/r3K3/8/8/7k w - - 0 1"),  # the king may not step back along the check
            chess.Board("8/8/8/3k4/3pP3/8/8/K7 b - e3 0 1"),  # en passant takes the checking pawn
            chess.Board("4r2k/8/8/8/1b6/8/4R3/4K3 w - - 0 1"),  # a pinned rook cannot block
            chess.Board("k7/8/8/8/8/8/1q6/K7 w - - 0 1"),  # the king takes the checker
        ]
    )
    in_check = 0
    for board in boards:
        in_check += board.is_check()
        for winner in chess.COLORS:
            for order in (staged_moves, dive_moves):
                want = [m for m in order(board, winner) if board.is_legal(m)]
                assert list(legal_moves(board, winner, order)) == want, (board.fen(), winner, order.__name__)
    assert in_check > 20


def test_the_winners_moves_after_an_illegal_first_one_keep_the_full_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the winner's first move is illegal (its king onto an attacked
    square, a pinned piece, a move that ignores a check), the walk's next
    moves come from the other pieces' attack sets (``best_quiet_move``) or,
    in check, from the evasions alone, and are still the legal moves of the
    full sort, in its order."""
    from pychessdraw.deadposition import ordering

    calls = []
    plain = ordering.best_quiet_move

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        return plain(*args, **kwargs)

    monkeypatch.setattr(ordering, "best_quiet_move", counting)
    seen = {True: 0, False: 0}  # in check or not
    for board in _sparse(29, 1000):
        winner = board.turn
        first = best_first_move(board, mating_corner(board, winner))
        if first is None or board.is_legal(first):
            continue
        seen[board.is_check()] += 1
        want = [m for m in _full_order(board, winner) if board.is_legal(m)]
        assert list(legal_moves(board, winner, dive_moves)) == want, board.fen()
    assert seen[True] > 20 and seen[False] > 20 and len(calls) > 20, (seen, len(calls))


# Endings from a corpus game (a bishop and rook pawns against a bare king):
# the corner nearest the loser's king is the pawns' promotion corner, where
# the king stands in their way; the dive then wandered and failed.
PROMOTE_FIRST = [
    ("6k1/8/7K/7P/8/5B2/8/8 b - - 23 394", chess.WHITE),
    ("8/8/2K1k3/7B/7P/8/7P/8 b - - 4 58", chess.WHITE),
    ("5K2/7k/8/8/4B2P/8/7P/8 b - - 52 82", chess.WHITE),
    ("8/6kP/8/8/6K1/8/2B5/8 b - - 2 482", chess.WHITE),
    ("8/8/8/8/5B2/p7/8/2k3K1 w - - 0 1", chess.BLACK),  # the mirror, for Black
]


@pytest.mark.parametrize("fen,winner", PROMOTE_FIRST)
def test_a_bare_king_makes_way_for_the_pawn_that_must_promote(fen: str, winner: chess.Color) -> None:
    from pychessdraw.deadposition.budget import Budget
    from pychessdraw.deadposition.closure import explore
    from pychessdraw.deadposition.solver import DIVE_NODES

    board = chess.Board(fen)
    pawn = (chess.msb if winner == chess.WHITE else chess.lsb)(board.pawns & board.occupied_co[winner])
    corner = mating_corner(board, winner)
    assert chess.square_rank(corner) == (7 if winner == chess.WHITE else 0)
    assert abs(chess.square_file(corner) - chess.square_file(pawn)) >= 4  # the other wing
    found, line = explore(
        board, winner, Budget(DIVE_NODES, None), reach_proofs=False, mate_probes=True, order=dive_moves
    )
    assert found is True
    for move in line:
        assert board.is_legal(move)
        board.push(move)
    assert board.is_checkmate() and board.turn != winner


@pytest.mark.parametrize(
    "fen,corner",
    [
        ("6k1/8/7K/7P/8/5B2/8/8 b - - 0 1", chess.A8),  # bishop and pawn: must promote
        ("6k1/8/7K/7P/8/5B2/8/N7 b - - 0 1", chess.H8),  # bishop and knight mate without it
        ("6k1/8/7K/7P/8/5B2/5B2/8 b - - 0 1", chess.H8),  # two bishops of both colours too
        ("6k1/7p/7K/7P/8/5B2/8/8 b - - 0 1", chess.H8),  # not a bare king
    ],
)
def test_the_far_corner_only_where_mate_needs_a_promotion(fen: str, corner: int) -> None:
    assert mating_corner(chess.Board(fen), chess.WHITE) == corner


def test_the_loser_first_feeds_a_blocked_pawn_when_the_winner_has_only_pawns() -> None:
    # Black's a6 pawn is blocked by a5 and must take on b5 to promote: White's
    # bishop goes there first, and each of White's moves comes once.
    board = chess.Board("8/3k4/p2P1K2/P7/8/3B4/8/8 w - - 0 1")
    moves = list(dive_moves(board, chess.BLACK))
    assert moves[0] == chess.Move.from_uci("d3b5")
    assert len(moves) == len(set(moves)) and set(moves) == set(board.generate_pseudo_legal_moves())
    # With a piece besides its pawns the winner needs no feeding: the king's steps come first.
    board = chess.Board("8/3k4/p2P1K2/P7/8/3B4/8/n7 w - - 0 1")
    assert list(dive_moves(board, chess.BLACK))[0].from_square == chess.F6


def test_a_pawn_steps_once_short_of_a_head_on_block() -> None:
    # TCEC pawn ending, Black to mate: f7-f5 would stand blocked by f4 for
    # good, f7-f6 offers itself to e5 or g5 and frees e6 or g6.  Both the
    # staged order and the shortcut for its first move step once.
    board = chess.Board("6k1/3K1p2/4p1p1/4P1P1/5P2/8/8/8 b - - 18 85")
    first = chess.Move.from_uci("f7f6")
    assert next(staged_moves(board, chess.BLACK)) == first
    assert best_first_move(board, mating_corner(board, chess.BLACK)) == first
    order = [
        m for m, _ in ordered_moves(board, list(board.generate_pseudo_legal_moves()), chess.BLACK, chess.A1, False)
    ]
    # the step into the block still comes, after the king's steps towards the corner
    assert order.index(chess.Move.from_uci("f7f5")) > order.index(chess.Move.from_uci("g8f8"))
    # A single step into a block keeps its place: h5-h4 against h3 is Black's
    # only way on (White's g-pawn then feeds it a capture on g3).
    board = chess.Board("8/5k2/5P2/7p/P7/2P4P/1P4P1/6K1 b - - 0 46")
    order = list(staged_moves(board, chess.BLACK))
    steps = [m for m in order if m.from_square == chess.F7 and not board.is_capture(m)]
    assert order.index(chess.Move.from_uci("h5h4")) < min(order.index(m) for m in steps)


def test_free_flights_are_counted_as_python_chess_attacks_them() -> None:
    """``has_free_flights`` (the mate probe's gate) against a count made
    with ``is_attacked_by``, the king on its square: the squares next to it
    that hold no man of its own and that the other side does not attack."""
    boards = _sparse(41, 1500) + _positions(43, 10, False)
    answers = set()
    for board in boards:
        for winner in chess.COLORS:
            king = board.king(not winner)
            assert king is not None
            free = sum(
                1
                for square in chess.SquareSet(chess.BB_KING_ATTACKS[king] & ~board.occupied_co[not winner])
                if not board.is_attacked_by(winner, square)
            )
            for count in range(1, 5):
                got = has_free_flights(board, winner, king, count)
                assert got == (free >= count), (board.fen(), winner, count)
                answers.add((count, got))
    assert len(answers) == 8  # every count answered both ways


def test_the_probe_asks_python_chess_for_pawn_moves_only_where_pawns_reach() -> None:
    """``helpmate._pawns_reach`` (which spares the mate probe a generator
    where no pawn can check or promote) holds every square python-chess
    generates a pawn move to, and no other: random games and sparse
    endings, either side to move, en passant apart (the probe asks
    python-chess whenever it is possible)."""
    from pychessdraw.deadposition.helpmate import _pawns_reach

    kinds = set()
    for board in _positions(5, 20, False) + _sparse(7, 500):
        if board.ep_square is not None:
            continue
        pawns = board.pawns & board.occupied_co[board.turn]
        want = 0
        for move in board.generate_pseudo_legal_moves(pawns):
            want |= chess.BB_SQUARES[move.to_square]
            kinds.add((board.is_capture(move), abs(move.to_square - move.from_square) == 16))
        got = _pawns_reach(pawns, board.turn, board.occupied, board.occupied_co[not board.turn])
        assert got == want, board.fen()
    assert kinds == {(False, False), (False, True), (True, False)}  # steps, double steps, captures
