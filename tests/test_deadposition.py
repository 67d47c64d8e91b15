# SPDX-License-Identifier: GPL-3.0-or-later
"""Dead position / flag fall solver: traps, classic endings, API contract."""

from __future__ import annotations

import dataclasses

import chess
import pytest

from pychessdraw.deadposition import Verdict, can_checkmate, is_dead, quick_verdict
from pychessdraw.deadposition.material import needs_blockers

W, B = chess.WHITE, chess.BLACK


def assert_line(board: chess.Board, color: chess.Color, v: Verdict) -> None:
    assert v.winnable is True and v.line is not None
    b = board.copy()
    for move in v.line:
        assert b.is_legal(move)
        b.push(move)
    assert b.is_checkmate() and b.turn != color


def verdicts(fen: str, nodes: int = 100_000) -> tuple[Verdict, Verdict]:
    board = chess.Board(fen)
    return can_checkmate(board, W, nodes=nodes), can_checkmate(board, B, nodes=nodes)


def test_bare_kings_dead() -> None:
    w, b = verdicts("8/8/4k3/8/8/4K3/8/8 w - - 0 1")
    assert w.winnable is False and b.winnable is False
    assert "bare king" in w.reason
    assert is_dead(chess.Board("8/8/4k3/8/8/4K3/8/8 w - - 0 1")) is True


def test_same_coloured_bishops_dead() -> None:
    fen = "8/8/4k3/3b4/8/3BK3/8/8 w - - 0 1"  # d5 and d3 are both light
    w, b = verdicts(fen)
    assert w.winnable is False and b.winnable is False
    assert is_dead(chess.Board(fen)) is True


def test_opposite_coloured_bishops_alive() -> None:
    fen = "8/8/4k3/4b3/8/3BK3/8/8 w - - 0 1"
    board = chess.Board(fen)
    w, b = verdicts(fen)
    assert_line(board, W, w)
    assert_line(board, B, b)
    assert is_dead(board) is False


def test_knight_against_knight_alive() -> None:
    fen = "8/8/4k3/3n4/8/3NK3/8/8 w - - 0 1"
    board = chess.Board(fen)
    w, b = verdicts(fen, nodes=200_000)
    assert_line(board, W, w)
    assert_line(board, B, b)


def test_lone_knight_against_queen_dead_for_knight() -> None:
    board = chess.Board("8/8/4kq2/8/8/3NK3/8/8 w - - 0 1")
    assert can_checkmate(board, W).winnable is False
    assert quick_verdict(board, W).winnable is False
    assert_line(board, B, can_checkmate(board, B))


def test_blockers_of_the_other_colour_make_bishops_mate() -> None:
    # White is already mated by two dark-squared bishops: its own rooks block.
    board = chess.Board("8/8/8/8/8/2b1k1b1/8/3RKR2 w - - 0 1")
    b = can_checkmate(board, B)
    assert b.winnable is True and b.line == ()
    assert quick_verdict(board, B).winnable is True
    assert can_checkmate(board, W).winnable is False
    assert is_dead(board) is False


def test_only_move_captures_last_mating_piece() -> None:
    # Black's only legal move is Kxb7, leaving White a bare king.
    board = chess.Board("k7/1R6/8/8/8/8/8/7K b - - 0 1")
    assert quick_verdict(board, W).winnable is None  # material alone says "alive"
    assert can_checkmate(board, W).winnable is False
    assert is_dead(board) is True
    # With White to move the rook escapes and the position is alive.
    board = chess.Board("k7/1R6/8/8/8/8/8/7K w - - 0 1")
    assert_line(board, W, can_checkmate(board, W))


def test_only_move_captures_last_mating_piece_after_check() -> None:
    # Black in check from the queen; the only legal reply captures it.
    board = chess.Board("7k/6Q1/8/8/8/8/8/K7 b - - 0 1")
    assert can_checkmate(board, W).winnable is False


@pytest.mark.parametrize(
    "fen",
    [
        "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1",
        "7k/8/4p1p1/1p1pP1Pp/1P1P3P/8/8/2BK4 w - - 0 1",
        "k7/8/8/1p1p1p1p/1P1P1P1P/8/8/K7 w - - 0 1",
    ],
)
def test_locked_pawn_walls_dead(fen: str) -> None:
    board = chess.Board(fen)
    for color in chess.COLORS:
        v = can_checkmate(board, color, nodes=50)
        assert v.winnable is False, v.reason
    assert is_dead(board) is True


def test_locked_wall_quick_verdict_is_cheap_and_decides() -> None:
    board = chess.Board("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1")
    assert quick_verdict(board, W).winnable is False
    assert quick_verdict(board, B).winnable is False


def test_alive_only_for_one_side() -> None:
    board = chess.Board("8/8/8/4k3/8/8/8/3QK3 w - - 0 1")
    assert_line(board, W, can_checkmate(board, W))
    assert can_checkmate(board, B).winnable is False
    assert is_dead(board) is False


def test_alive_for_one_side_behind_a_wall() -> None:
    # From the labelled hard set: W- and, one pawn step different, --.
    alive = chess.Board("Bb1k1b2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 w - - 0 1")
    assert_line(alive, W, can_checkmate(alive, W, nodes=200_000))
    assert can_checkmate(alive, B, nodes=200_000).winnable is False
    dead = chess.Board("Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - - 0 1")
    assert can_checkmate(dead, W, nodes=200_000).winnable is False
    assert can_checkmate(dead, B, nodes=200_000).winnable is False


def test_one_side_walled_in_by_bishop_colour() -> None:
    # Hard-set pair: with a second dark bishop Black is dead, White alive-or-open.
    board = chess.Board("7b/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N7 b - - 0 1")
    assert can_checkmate(board, B, nodes=1_000).winnable is False
    assert can_checkmate(board, W, nodes=2_000).winnable is not False
    dead = chess.Board("8/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N3b3 b - - 0 1")
    assert is_dead(dead, nodes=1_000) is True


def test_en_passant_matters() -> None:
    # Locked-looking wall, but the last double step can be taken en passant.
    board = chess.Board("4k3/8/8/1pPp1p1p/1P1P1P1P/8/8/4K3 w - d6 0 1")
    for color in chess.COLORS:
        v = can_checkmate(board, color, nodes=200_000)
        assert v.winnable is not False


def test_castling_line_is_legal_and_chess960_works() -> None:
    board = chess.Board("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1", chess960=True)
    for color in chess.COLORS:
        v = can_checkmate(board, color)
        assert_line(board, color, v)


def test_board_not_mutated() -> None:
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    board.push_san("Bc4")
    fen, stack = board.fen(), list(board.move_stack)
    can_checkmate(board, W)
    can_checkmate(board, B)
    quick_verdict(board, W)
    is_dead(board)
    assert board.fen() == fen and board.move_stack == stack


def test_checkmate_and_stalemate_on_board() -> None:
    mate = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert can_checkmate(mate, B).winnable is True
    assert can_checkmate(mate, W).winnable is False
    stale = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert can_checkmate(stale, W).winnable is False
    assert can_checkmate(stale, B).winnable is False
    assert is_dead(stale) is True


def test_budget_exhaustion_is_undecided_not_wrong() -> None:
    board = chess.Board("8/8/4k3/3n4/8/3NK3/8/8 w - - 0 1")
    v = can_checkmate(board, W, nodes=10)
    assert v.winnable in (None, True)
    if v.winnable is None:
        assert v.line is None and v.reason == "budget exhausted"


def test_quick_verdict_open_in_ordinary_positions() -> None:
    board = chess.Board()
    for color in chess.COLORS:
        v = quick_verdict(board, color)
        assert v.winnable is None and v.nodes == 0


def test_verdict_is_immutable() -> None:
    v = can_checkmate(chess.Board("8/8/4k3/8/8/4K3/8/8 w - - 0 1"), W)
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.winnable = True  # type: ignore[misc]


def test_is_dead_undecided_on_tiny_budget() -> None:
    # Dead only by tempo counting (hard set): no proof within a few nodes.
    board = chess.Board("1k6/1P5p/BP3p2/1P6/8/8/5PKP/8 b - - 0 1")
    assert is_dead(board, nodes=50) is None
    # Once the same, now proven statically: White's king only shuffles
    # between h3 and h4, and Black's may never come near (deadposition.reach).
    assert is_dead(chess.Board("8/b7/7p/1k3p1P/5p1K/5Pp1/6P1/8 w - - 0 1"), nodes=50) is True


def test_two_legal_moves_both_capture_the_last_piece() -> None:
    # Black must take the checking queen, with the king or the rook: either
    # way White is left with a bare king.  Black itself can still mate.
    board = chess.Board("k7/1Q5r/8/8/8/8/8/7K b - - 0 1")
    assert sorted(m.uci() for m in board.legal_moves) == ["a8b7", "h7b7"]
    assert can_checkmate(board, W).winnable is False
    assert_line(board, B, can_checkmate(board, B))
    assert is_dead(board) is False


def test_lone_bishop_cannot_mate_against_queen() -> None:
    # Flag fall with K+Q against K+B: the bishop side cannot mate (a queen
    # always parries a single bishop check; checked exhaustively for K+Q).
    board = chess.Board("3kb3/8/8/8/8/8/3K1Q2/8 w - - 0 1")
    v = can_checkmate(board, B)
    assert v.winnable is False and "bishop" in v.reason
    assert_line(board, W, can_checkmate(board, W))
    # Two bishops of one colour can mate with a double check against queens.
    mated = chess.Board("8/8/8/8/8/2b1k1b1/8/3QKQ2 w - - 0 1")
    assert can_checkmate(mated, B).winnable is True


def test_found_lines_are_shortened_and_verified() -> None:
    board = chess.Board("8/8/3k4/8/3b4/8/3NK3/8 w - - 0 1")
    v = can_checkmate(board, B, nodes=200_000)
    assert_line(board, B, v)
    assert v.line is not None and len(v.line) < 400


# -- the mate-in-one probe of the dive ------------------------------------------
MATES_IN_ONE = [
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"),  # back rank
    ("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", "b1b8"),  # queen, king in support
    ("6rk/6pp/7N/8/8/8/8/6K1 w - - 0 1", "h6f7"),  # smothered
    ("7k/P7/6K1/8/8/8/8/8 w - - 0 1", None),  # a8=Q gives no check
    ("k7/2P5/1K6/8/8/8/8/8 w - - 0 1", "c7c8q"),  # promotion
    ("k7/8/1K6/8/8/8/8/2B1R3 w - - 0 1", None),  # no check mates here
    ("1k6/1p6/1K6/8/8/8/8/4B2R w - - 0 1", "h1h8"),  # rook along the rank, bishop covers
    ("k7/2K5/8/8/8/8/8/1R5B w - - 0 1", "b1b8"),
    ("4k3/4P3/4K3/8/8/8/8/R7 w - - 0 1", "a1a8"),
    ("2kr4/3p4/8/8/8/8/8/R3K3 w Q - 0 1", None),
    ("6k1/6P1/5K2/8/8/8/8/B7 w - - 0 1", None),
    ("7k/5K2/8/8/8/8/8/6R1 w - - 0 1", "g1h1"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", None),
    ("8/8/8/8/8/5k2/4p3/4K1Q1 b - - 0 1", None),
    ("8/8/1K6/8/6Q1/3k3P/2N5/4Qq2 w - - 0 1", "c2b4"),  # the knight covers one of the flights
    ("5r2/5k2/8/4QNK1/8/8/8/8 w - - 0 1", "f5h6"),  # the knight covers g8
    ("4r1Q1/4k3/6R1/4Pp2/3QK3/8/8/3R4 w - f6 0 1", "e5f6"),  # en passant, the only mate
]


def _mates_in_one(board: chess.Board) -> list[chess.Move]:
    out = []
    for move in board.legal_moves:
        board.push(move)
        if board.is_checkmate():
            out.append(move)
        board.pop()
    return out


@pytest.mark.parametrize("fen,_hint", MATES_IN_ONE)
def test_mating_move_returns_only_mates_and_finds_plain_ones(fen: str, _hint: str | None) -> None:
    from pychessdraw.deadposition.helpmate import mating_move

    board = chess.Board(fen)
    before = board.fen()
    move, _ = mating_move(board, board.turn)
    assert board.fen() == before  # restored
    mates = _mates_in_one(board.copy())
    if move is None:
        assert not mates, f"missed {[m.uci() for m in mates]} in {fen}"
    else:
        assert move in mates


def _sparse_positions(rng, n: int):
    """Legal random positions, White to move: two kings and two to six other
    pieces, mostly White's (mates in one are common among them)."""
    types = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN]
    for _ in range(n):
        board = chess.Board(None)
        squares = rng.sample(range(64), 8)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for i, sq in enumerate(squares[2 : 2 + rng.randrange(2, 7)]):
            kind = rng.choice(types)
            if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                kind = chess.KNIGHT
            board.set_piece_at(sq, chess.Piece(kind, chess.WHITE if i % 3 != 2 else chess.BLACK))
        if board.is_valid():
            yield board


def test_mating_move_finds_a_mate_in_one_whenever_there_is_one() -> None:
    """The probe tries only checking moves and plays a direct check only
    when the king keeps no free square after it, yet it misses no mate:
    checked on every mate in one of random sparse positions (discovered
    checks, promotions and mates that open a line included)."""
    import random

    from pychessdraw.deadposition.helpmate import mating_move

    found = 0
    for board in _sparse_positions(random.Random(11), 8000):
        mates = _mates_in_one(board)
        move, _ = mating_move(board, chess.WHITE)
        if not mates:
            assert move is None
            continue
        assert move in mates, (board.fen(), [m.uci() for m in mates])
        found += 1
    assert found > 150


def test_mating_move_finds_mates_in_one_by_en_passant() -> None:
    """As above, on random positions where Black's pawn has just stepped
    two squares beside a White pawn (the probe leaves en passant, whose
    taken pawn opens a line, to python-chess)."""
    import random

    from pychessdraw.deadposition.helpmate import mating_move

    rng = random.Random(5)
    tried = found = 0
    for board in _sparse_positions(rng, 20000):
        file = rng.randrange(8)
        pawn, stepped = chess.square(file, 4), chess.square(file + rng.choice((-1, 1)) % 8, 4)
        if abs(chess.square_file(pawn) - chess.square_file(stepped)) != 1:
            continue
        behind = (chess.square(chess.square_file(stepped), 5), chess.square(chess.square_file(stepped), 6))
        if any(board.piece_at(square) for square in (pawn, stepped, *behind)):
            continue
        board.set_piece_at(pawn, chess.Piece(chess.PAWN, chess.WHITE))
        board.set_piece_at(stepped, chess.Piece(chess.PAWN, chess.BLACK))
        board.ep_square = behind[0]
        if not board.is_valid() or not board.has_legal_en_passant():
            continue
        tried += 1
        mates = _mates_in_one(board)
        move, _ = mating_move(board, chess.WHITE)
        assert (move is None) == (not mates) and (move is None or move in mates), (board.fen(), mates)
        found += bool(mates)
    assert tried > 500 and found > 50, (tried, found)


@pytest.mark.parametrize(
    "fen, white_needs_blockers",
    [
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", True),  # a lone knight
        ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", False),  # two knights mate a bare king (not by force)
        ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", False),  # bishops of both colours mate a bare king
        ("4k3/8/8/8/8/8/8/B3K1B1 w - - 0 1", True),  # bishops of one colour (a1 and g1 are dark)
        ("4k3/8/8/8/8/8/P7/4KN2 w - - 0 1", False),  # a pawn can become a queen
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", False),  # a bare king is the material proof's case
    ],
)
def test_material_that_needs_the_losers_blockers(fen: str, white_needs_blockers: bool) -> None:
    """Such sides skip the iterative-deepening search (the walk finds their long lines)."""
    assert needs_blockers(chess.Board(fen), chess.WHITE) is white_needs_blockers


def test_a_lone_knight_still_mates_with_blockers_after_the_dive() -> None:
    """A knight mate that needs the loser's own pieces around its king is
    found without the iterative-deepening search, and verified."""
    board = chess.Board("5k2/3n4/5BP1/5K2/7P/4N3/P7/8 b - - 0 63")  # real game: black's knight against everything
    # 10,642 nodes; no clock: the answer must not depend on the machine's load
    assert_line(board, chess.BLACK, can_checkmate(board, chess.BLACK, nodes=100_000))


def test_a_pawn_ending_where_a_blocked_pawn_must_be_set_free_is_decided_by_the_dive() -> None:
    """A TCEC ending the page left open after 16 moves in a row (2,142
    nodes): Black's f-pawn steps once, for White to take it and free e6
    or g6, where the dive's pawn ran into f4."""
    board = chess.Board("6k1/3K1p2/4p1p1/4P1P1/5P2/8/8/8 b - - 18 85")
    v = can_checkmate(board, chess.BLACK, nodes=100)
    assert_line(board, chess.BLACK, v)
    assert v.line is not None and v.line[0] == chess.Move.from_uci("f7f6")
    # a lichess ending where the pawn must step into the block (h5-h4 against h3) to be fed
    board = chess.Board("8/5k2/5P2/7p/P7/2P4P/1P4P1/6K1 b - - 0 46")
    assert_line(board, chess.BLACK, can_checkmate(board, chess.BLACK, nodes=300))


# Positions of the hard set where CHA 2.6.1 (built from D3-Chess for
# benchmarks/bench_cha.py) answers "unwinnable" although a helpmate exists:
# pinned so that no shortcut of ours ever agrees with it.
CHA_WRONG = [
    ("8/1p2p1p1/1P2P1P1/Bp2pBp1/1P2P1P1/7k/1P2P3/7K b - - 0 1", W),
    pytest.param("k7/1pK3p1/6Pb/1p4pB/bP4P1/Bp6/1P4P1/8 b - - 0 1", B, marks=pytest.mark.slow),  # 4 s
    ("3b4/4p1p1/1p1pP1P1/1P1PpBp1/1pBpP1P1/1P1P4/4K1P1/2k5 w - - 0 1", W),
]


@pytest.mark.parametrize(("fen", "color"), CHA_WRONG)
def test_winnable_where_cha_says_unwinnable(fen: str, color: chess.Color) -> None:
    board = chess.Board(fen)
    v = can_checkmate(board, color, nodes=100_000)
    assert_line(board, color, v)


# Real-game endings where the loser's king is cut off from its own back rank
# (a queen's rank, a rook's file): the dive towards the back rank's corners
# wanders through its hundred nodes, the second dive heads for the nearest
# corner on either side of the board.
CUT_OFF = [
    ("8/8/8/8/1K6/2Q5/8/7k w - - 15 79", W),  # lichess-dev: was 405 nodes, by the deepening
    ("8/8/8/3r4/K7/1Q1k4/8/8 b - - 5 63", W),  # was 526 nodes
]


@pytest.mark.parametrize(("fen", "color"), CUT_OFF)
def test_a_king_cut_off_from_its_back_rank_is_mated_in_the_nearest_corner(fen: str, color: chess.Color) -> None:
    from pychessdraw.deadposition.budget import Budget
    from pychessdraw.deadposition.closure import explore
    from pychessdraw.deadposition.ordering import dive_moves

    board = chess.Board(fen)
    first = explore(board.copy(), color, Budget(100, None), reach_proofs=False, mate_probes=True, order=dive_moves)
    assert first == (None, [])  # the back rank's dive alone does not find it
    v = can_checkmate(board, color, nodes=250)
    assert_line(board, color, v)
    assert v.nodes <= 250


def test_a_long_proof_line_is_tightened_for_people_never_lengthened() -> None:
    """``tighten`` (used where a line is shown: a flag fall's banner, the
    Arbiter view) gives a shorter line where the deepening search finds one
    within its small budget, checked by python-chess; never a longer one."""
    from pychessdraw.deadposition.tighten import tighten, tighten_san

    board = chess.Board("4k3/8/8/8/8/8/8/R3K3 b - - 0 1")
    found = can_checkmate(board, W, nodes=100_000)
    assert found.winnable and found.line is not None and len(found.line) > 20  # the dive's walk to a corner
    short = tighten(board, W, found.line)
    assert len(short) < len(found.line)
    assert_line(board, W, Verdict(True, tuple(short), 0, ""))
    replay = board.copy()
    san = [replay.san_and_push(m) for m in found.line]
    assert len(tighten_san(board, W, san)) == len(short)
    assert tighten(board, W, short[:12] if len(short) <= 12 else short) == list(short)  # short lines stay as they are


def test_pawns_set_free_by_the_loser_within_the_default_budget() -> None:
    """Black's pawns each have a White pawn ahead and Black's king is walled
    in: Black mates only after White's king takes a pawn, White's freed pawn
    promotes and the new piece is taken by a Black pawn that then queens.
    The walk in ``pawnwalk``'s order finds it; the general search needed two
    million nodes.  Nodes, not seconds: the bound must not depend on the load."""
    from pychessdraw.deadposition.pawnwalk import applies
    from pychessdraw.rules.dead import DEEP

    board = chess.Board("1k6/1P1p1p1p/BP6/1P5p/8/5K2/3P1P1P/8 w - -")
    assert applies(board, B) and not applies(board, W)
    v = can_checkmate(board, B, nodes=DEEP.nodes)
    assert_line(board, B, v)
    assert v.nodes <= 1_000, v.nodes
    assert any(move.promotion for move in v.line or ()), "the line promotes"


def test_the_pawn_walk_position_white_mates_within_the_default_budgets_nodes() -> None:
    """The same position, "can White mate?": yes, its king takes the pawn
    that stops its f-pawn, which queens on f8 while Black's pawns give the
    tempi, Black's king walled in by White's men.  The walk in which
    White's king frees its pawns (``pawnwalk.king_frees_walk_moves``) finds
    it within a thousand nodes, so within the CLI's budget however loaded
    the machine (the deepening search needed some 40,000: over its share
    of the CLI's second).  Nodes, not seconds, as above."""
    from pychessdraw.deadposition.pawnwalk import king_must_free
    from pychessdraw.rules.dead import DEEP

    board = chess.Board("1k6/1P1p1p1p/BP6/1P5p/8/5K2/3P1P1P/8 w - -")
    assert king_must_free(board, W) and not king_must_free(board, B)
    v = can_checkmate(board, W, nodes=DEEP.nodes, seconds=DEEP.seconds)
    assert_line(board, W, v)
    assert v.nodes <= 1_000, v.nodes
    assert any(move.promotion == chess.QUEEN for move in v.line or ()), "the line queens"


def test_the_pawn_walk_position_is_decided_for_both_sides_by_the_clis_budget() -> None:
    """``pychessdraw status`` on it (the deep budget, both sides): both
    answers are helpmates, each replayed here by python-chess."""
    from pychessdraw.rules.dead import DEEP, verdicts

    board = chess.Board("1k6/1P1p1p1p/BP6/1P5p/8/5K2/3P1P1P/8 w - -")
    found = verdicts(board, DEEP)
    for color in chess.COLORS:
        assert_line(board, color, found[color])


def test_a_set_up_double_check_is_proven_dead_one_ply_on() -> None:
    """Bishops of one colour against two rooks: the start is in double check
    (set up so: no move makes one), so the material proof holds only from the
    next ply. The walk asks it there, although the king's step takes nothing."""
    board = chess.Board("R6R/8/8/8/8/2b1k1b1/8/4K3 w - - 0 1")
    assert len(list(board.legal_moves)) == 2
    verdict = can_checkmate(board, chess.BLACK, nodes=20_000)
    assert verdict.winnable is False and verdict.nodes <= 2, verdict
