"""Words players and other programs use: SAN in any letter case where it is
unambiguous (as lichess reads typed moves), FEN errors in chess words, and
the PGN standard's Termination values on export."""

from __future__ import annotations

import chess
import pytest

from pychessdraw import Game
from pychessdraw.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, PromotionNeededError

# -- SAN in any case --------------------------------------------------------

CASTLE_BOTH = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
# White: a b2-pawn and a d2-bishop can both take on c3; a b4-pawn can go to b5
B_PAWN_OR_BISHOP = "4k3/8/8/8/1P6/2p5/1P1B4/4K3 w - - 0 1"
PROMOTE = "8/4P3/8/8/8/k7/8/K7 w - - 0 50"


@pytest.mark.parametrize(
    "fen, text, uci",
    [
        (None, "nf3", "g1f3"),
        (None, "NF3", "g1f3"),
        (None, "Nf3", "g1f3"),
        (None, "E4", "e2e4"),
        (None, "E2E4", "e2e4"),
        (None, "G1F3", "g1f3"),
        (None, "nc3", "b1c3"),
        (CASTLE_BOTH, "o-o", "e1g1"),
        (CASTLE_BOTH, "O-O", "e1g1"),
        (CASTLE_BOTH, "0-0", "e1g1"),
        (CASTLE_BOTH, "0-0-0", "e1c1"),
        (CASTLE_BOTH, "o-o-o", "e1c1"),
        (CASTLE_BOTH, "O-0-o", "e1c1"),
        (CASTLE_BOTH, "o-o+", "e1g1"),
        (CASTLE_BOTH, "ra2", "a1a2"),
        (CASTLE_BOTH, "kf1", "e1f1"),
        (PROMOTE, "e8=q", "e7e8q"),
        (PROMOTE, "e8q", "e7e8q"),
        (PROMOTE, "e8=n", "e7e8n"),
        (PROMOTE, "E8=Q", "e7e8q"),
        (PROMOTE, "e7e8Q", "e7e8q"),
        (B_PAWN_OR_BISHOP, "b5", "b4b5"),
        (B_PAWN_OR_BISHOP, "be3", "d2e3"),  # no pawn can go to e3: the bishop
        (B_PAWN_OR_BISHOP, "Bxc3", "d2c3"),
        ("4k3/8/8/8/8/2p5/1P6/4K3 w - - 0 1", "bxc3", "b2c3"),  # no bishop: the pawn
        ("4k3/8/8/8/8/2p5/3B4/4K3 w - - 0 1", "bxc3", "d2c3"),  # no b-pawn: the bishop
    ],
)
def test_san_in_any_case_is_read_where_one_move_fits(fen: str | None, text: str, uci: str) -> None:
    for typed in (False, True):
        game = Game(fen)
        assert game.parse_move(text, typed=typed).uci() == uci
    game = Game(fen)
    game.play(text)
    assert game.moves[-1].uci() == uci


def test_typed_lowercase_b_that_fits_a_pawn_and_a_bishop_is_ambiguous() -> None:
    game = Game(B_PAWN_OR_BISHOP)
    before = game.fen()
    for text in ("bxc3", "bc3", "bxc3+"):
        with pytest.raises(AmbiguousMoveError) as info:
            game.parse_move(text, typed=True)
        error = info.value
        assert error.code == "ambiguous_move"
        assert {c["uci"] for c in error.details["candidates"]} == {"b2c3", "d2c3"}
        assert {c["san"] for c in error.details["candidates"]} == {"bxc3", "Bxc3"}
        assert error.message == f"1.{text} is ambiguous: write bxc3, Bxc3"
    assert game.fen() == before and game.ply == 0
    # in a PGN, SAN is the standard's: lowercase b is the b-pawn
    assert game.parse_move("bxc3").uci() == "b2c3"


def test_typed_lowercase_b_that_fits_a_pawn_and_two_bishops_lists_all_three() -> None:
    game = Game("4k3/8/8/4B3/8/2p5/1P1B4/4K3 w - - 0 1")
    with pytest.raises(AmbiguousMoveError) as info:
        game.parse_move("bxc3", typed=True)
    assert {c["san"] for c in info.value.details["candidates"]} == {"bxc3", "Bdxc3", "Bexc3"}
    assert game.parse_move("bxc3").uci() == "b2c3" and game.ply == 0


def test_the_bridge_move_box_refuses_the_ambiguous_b_and_keeps_the_game() -> None:
    import json

    from pychessdraw.web.bridge import Bridge

    bridge = Bridge()
    assert json.loads(bridge.handle(json.dumps({"op": "new", "args": {"fen": B_PAWN_OR_BISHOP}})))["ok"]
    reply = json.loads(bridge.handle(json.dumps({"op": "play", "args": {"move": "bxc3"}})))
    assert not reply["ok"] and reply["error"]["code"] == "ambiguous_move"
    state = json.loads(bridge.handle(json.dumps({"op": "state", "args": {}})))
    assert state["moves"]["add"] == []
    reply = json.loads(bridge.handle(json.dumps({"op": "play", "args": {"move": "kf1"}})))
    assert reply["ok"] and reply["moves"]["add"][-1]["uci"] == "e1f1"


def test_rook_ambiguity_in_lowercase_lists_the_rooks() -> None:
    game = Game("4k3/8/8/8/8/8/4K3/R6R w - - 0 1")
    with pytest.raises(AmbiguousMoveError) as info:
        game.play("rf1")
    assert {c["san"] for c in info.value.details["candidates"]} == {"Raf1", "Rhf1"}
    assert info.value.message.startswith("1.rf1 is ambiguous: write ")
    assert game.ply == 0


@pytest.mark.parametrize(
    "fen, text, error, message",
    [
        (None, "nf6", IllegalMoveError, "1.nf6 is not legal here"),
        (None, "o-o", IllegalMoveError, "1.o-o is not legal here"),
        (None, "0-0-0", IllegalMoveError, "1.0-0-0 is not legal here"),
        (None, "qq4", InvalidMoveError, "1.qq4 is not a move"),
        (None, "o-o-o-o", InvalidMoveError, "1.o-o-o-o is not a move"),
        (None, "nz3", InvalidMoveError, "1.nz3 is not a move"),
        (PROMOTE, "e8=k", IllegalMoveError, "50.e8=k is not legal here"),
        (PROMOTE, "E8", PromotionNeededError, "50.E8: say which piece the pawn becomes: e8=Q, e8=R, e8=B, e8=N"),
    ],
)
def test_refused_text_says_why_and_leaves_the_game_unchanged(
    fen: str | None, text: str, error: type, message: str
) -> None:
    game = Game(fen)
    before, ply = game.fen(), game.ply
    for typed in (False, True):
        with pytest.raises(error) as info:
            game.parse_move(text, typed=typed)
        assert info.value.message.startswith(message), info.value.message
    with pytest.raises(error):
        game.play(text)
    assert game.fen() == before and game.ply == ply


def test_typed_must_be_true_or_false() -> None:
    from pychessdraw.errors import BadRequestError

    with pytest.raises(BadRequestError):
        Game().parse_move("e4", typed="yes")  # type: ignore[arg-type]


# -- FEN errors in chess words ----------------------------------------------

# python-chess's own wording, which no message may show
PYTHON_CHESS_WORDS = (
    "expected",
    "invalid",
    "fen string",
    "opposite check",
    "bad castling rights",
    "ep square",
    "no white king",
    "no black king",
    "too many checkers",
    "impossible check",
    "cannot be negative",
    "more parts",
    "turn part",
    "position part",
    "'w' or 'b'",
    "subsequent digits",
    "8 rows",
    "column",
)

BAD_FENS = [
    # syntax, field by field
    ("", "piece placement", "bad FEN, piece placement: the FEN is empty"),
    ("not a fen", "piece placement", "'not' is not the pieces: a FEN starts with the 8 ranks"),
    ("4k3/8/8/8/8/8/4K3 w - - 0 1", "piece placement", "7 ranks, not 8"),
    ("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", "piece placement", "9 ranks, not 8"),
    ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", "piece placement", "rank 1 ('4K2') has 7 squares, not 8"),
    ("4k4/8/8/8/8/8/8/4K3 w - - 0 1", "piece placement", "rank 8 ('4k4') has 9 squares, not 8"),
    ("4k3/9/8/8/8/8/8/4K3 w - - 0 1", "piece placement", "rank 7 holds '9': digits count empty squares, from 1 to 8"),
    ("4k3/8/44/8/8/8/8/4K3 w - - 0 1", "piece placement", "rank 6 ('44') has two digits in a row"),
    ("4k3/8/8/8/3X4/8/8/4K3 w - - 0 1", "piece placement", "rank 4 holds 'X', which is no piece"),
    ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move", "'x' is neither w (White to move) nor b (Black to move)"),
    ("4k3/8/8/8/8/8/8/4K3 W - - 0 1", "side to move", "'W' is neither w"),
    ("4k3/8/8/8/8/8/8/4K3 w KX - 0 1", "castling", "'KX' is not castling rights"),
    ("4k3/8/8/8/8/8/8/4K3 w KK - 0 1", "castling", "'KK' is not castling rights"),
    ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "en passant", "'e9' is not a square"),
    ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock", "'-1' is not a whole number"),
    ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock", "'x' is not a whole number"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1.5", "fullmove number", "'1.5' is not a whole number"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 -3", "fullmove number", "'-3' is not a whole number"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 7", None, "bad FEN: 7 fields, a FEN has at most 6"),
    # impossible positions
    ("8/8/8/8/8/8/8/8 w - - 0 1", "piece placement", "White has no king (piece placement); Black has no king"),
    ("4k3/8/8/8/8/8/8/8 w - - 0 1", "piece placement", "impossible position: White has no king"),
    ("4k3/8/8/8/8/8/8/4K1K1 w - - 0 1", "piece placement", "too many kings: White has 2"),
    ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "piece placement", "Black has 9 pawns, at most 8"),
    ("P3k3/8/8/8/8/8/8/4K2p w - - 0 1", "piece placement", "pawns on the first or last rank (h1, a8)"),
    (
        "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
        "side to move",
        "Black is in check but it is White's move: the side not to move cannot be in check",
    ),
    (
        "4k3/8/8/8/8/8/8/r3K2r w - - 0 1",
        "piece placement",
        "White is in check from the rook on a1 and the rook on h1 at once, which no last move can give",
    ),
    (
        "4k3/8/8/3p4/1b6/8/8/4K3 w - d6 0 1",
        "en passant",
        "White is in check from the bishop on b4, which Black's last move, a pawn's two-square move past d6, "
        "cannot have given",
    ),
    ("4k3/8/8/8/8/8/8/4K2R w KQ - 0 1", "castling", "White cannot castle queen side: there is no white rook on a1"),
    ("r3k2r/8/8/8/8/8/4K3/R6R b KQkq - 0 1", "castling", "White cannot castle king side: the white king is not on e1"),
    (
        "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
        "en passant",
        "e3 cannot be the en passant square with White to move: it must be on rank 6",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
        "en passant",
        "e6 is not the square a black pawn has just passed over: that needs a black pawn on e5, and e6 and e7 empty",
    ),
]


@pytest.mark.parametrize("fen, field, words", BAD_FENS)
def test_bad_fen_says_what_is_wrong_and_where_in_chess_words(fen: str, field: str | None, words: str) -> None:
    from pychessdraw.errors import BadFenError

    with pytest.raises(BadFenError) as info:
        Game(fen)
    error = info.value
    assert words in error.message, error.message
    assert error.details.get("field") == field
    if field is not None:
        assert field in error.message
    assert error.code == "bad_fen" and error.details["fen"] == fen
    assert not any(phrase in error.message.lower() for phrase in PYTHON_CHESS_WORDS), error.message


@pytest.mark.parametrize(
    "good, bad, field",
    [
        # missing fields take their defaults (as python-chess and lichess read them); present ones are checked
        ("4k3/8/8/8/8/8/8/4K3", "4k3/8/8/8/8/8/8/4K3 v", "side to move"),
        ("4k3/8/8/8/8/8/8/4K3 b", "4k3/8/8/8/8/8/8/4K3 b k", "castling"),
        ("  4k3/8/8/8/8/8/8/4K3   w  -  -  0  1 ", "  4k3/8/8/8/8/8/8/4K3   w  -  -  0  1 2", None),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "4k3/8/8/8/8/8/8/4K3 w - - 0 O", "fullmove number"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1", "castling"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w HAhah - 0 1", "castling"),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1",
            "en passant",
        ),
    ],
)
def test_good_fens_are_read_as_before_and_their_neighbours_refused(good: str, bad: str, field: str | None) -> None:
    from pychessdraw.errors import BadFenError

    assert Game(good).board.board_fen() == chess.Board(good).board_fen()
    with pytest.raises(BadFenError) as info:
        Game(bad)
    assert info.value.details.get("field") == field
    assert not any(phrase in info.value.message.lower() for phrase in PYTHON_CHESS_WORDS), info.value.message


def test_chess960_castling_is_checked_on_the_rooks() -> None:
    from pychessdraw.errors import BadFenError

    assert Game("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", chess960=True).chess960
    with pytest.raises(BadFenError) as info:
        Game("rk5r/8/8/8/8/8/8/RK5R w HAhb - 0 1", chess960=True)
    assert "Black cannot castle queen side: there is no black rook on b8" in info.value.message


def test_a_bad_fen_in_the_bridge_keeps_the_game_and_says_where() -> None:
    import json

    from pychessdraw.web.bridge import Bridge

    bridge = Bridge()
    assert json.loads(bridge.handle(json.dumps({"op": "play", "args": {"move": "e4"}})))["ok"]
    reply = json.loads(bridge.handle(json.dumps({"op": "new", "args": {"fen": "4k3/8/8/8/8/8/8/4K3 x - - 0 1"}})))
    assert reply["error"]["code"] == "bad_fen" and reply["error"]["field"] == "side to move"
    assert reply["error"]["message"].startswith("bad FEN, side to move: 'x' is neither w")
    state = json.loads(bridge.handle(json.dumps({"op": "state", "args": {}})))
    assert [row["san"] for row in state["moves"]["add"]] == ["e4"]


# -- the PGN standard's Termination words on export -------------------------

LOCKED = "8/8/8/1k6/p1p1p1p1/P1P1P1P1/8/1K6 w - - 0 1"  # a locked pawn wall: a dead position
STANDARD_WORDS = {
    "abandoned",
    "adjudication",
    "death",
    "emergency",
    "normal",
    "rules infraction",
    "time forfeit",
    "unterminated",
}


def _ended(how: str) -> Game:
    """A game ended in one of the ways a game ends (a name for each)."""
    from pychessdraw.rules import dead

    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
    game = Game(
        {
            "fifty": "4k3/8/8/8/8/8/8/R3K3 w - - 99 60",
            "flag_draw": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
            "stalemate": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "dead": LOCKED,
            "insufficient": "8/8/4k3/8/8/4K3/8/5B2 w - - 0 1",
        }.get(how),
        search=dead.PAGE,
    )
    if how == "threefold":
        for move in shuffle + ["Ng8"]:
            game.play(move)
        game.claim_draw()
    elif how == "threefold_with_move":
        for move in shuffle:
            game.play(move)
        assert game.claim_draw("Ng8").accepted and game.moves[-1].uci() == "f6g8"
    elif how == "fifty":
        game.play("Ra2")
        game.claim_draw()
    elif how == "checkmate":
        for move in ("f3", "e5", "g4", "Qh4#"):
            game.play(move)
    elif how in ("agreement", "resignation", "flag_win"):
        game.play("e4")
        {
            "agreement": lambda: game.agree_draw(),
            "resignation": lambda: game.resign(chess.BLACK),
            "flag_win": lambda: game.flag(chess.BLACK),
        }[how]()
    elif how == "flag_draw":
        game.flag(chess.WHITE)  # a lone black king cannot checkmate: a draw (FIDE 6.9)
    outcome = game.outcome()
    assert outcome is not None and (how != "flag_draw" or outcome.winner is None)
    return game


ENDINGS = [
    "threefold",
    "threefold_with_move",
    "fifty",
    "checkmate",
    "agreement",
    "resignation",
    "flag_win",
    "flag_draw",
    "stalemate",
    "dead",
    "insufficient",
]


def _key(game: Game) -> tuple[object, ...]:
    outcome = game.outcome()
    assert outcome is not None
    return outcome.termination, outcome.winner, outcome.claimed, outcome.result()


@pytest.mark.parametrize("how", ENDINGS)
def test_export_writes_the_standard_word_and_the_rule_and_reads_back_the_same_ending(how: str) -> None:
    from pychessdraw.pgn import export, parse_one

    game = _ended(how)
    outcome = game.outcome()
    assert outcome is not None
    text = export(game)
    headers, moves = text.split("\n\n", 1)
    termination = headers.split('[Termination "')[1].split('"')[0]
    assert termination in STANDARD_WORDS
    assert termination == ("time forfeit" if how.startswith("flag") else "normal")
    assert f'[TerminationDetails "{outcome.reason()} (FIDE {outcome.article})"]' in headers
    assert " ".join(moves.split()).endswith(f"{{ {outcome.words()} }} {outcome.result()}")  # the final comment
    again, _ = parse_one(text)
    assert _key(again) == _key(game)
    # a program that drops pychessdraw's own tag keeps the comment: the rule is still read
    stripped = "\n".join(line for line in text.splitlines() if not line.startswith("[TerminationDetails"))
    assert _key(parse_one(stripped)[0]) == _key(game)


def test_the_final_comment_follows_a_clock_comment_and_stands_alone_without_moves() -> None:
    from pychessdraw.pgn import export
    from pychessdraw.web.clockpgn import export_with_clocks

    game = _ended("flag_win")
    text = export_with_clocks(game, None, {"base_s": 60}, {1: 59_000})
    assert "1. e4 { [%clk 0:00:59] White wins on time: Black's flag fell (FIDE 6.9) } 1-0" in " ".join(text.split())
    assert '[Termination "time forfeit"]' in text
    assert "\n\n{ Draw by stalemate (FIDE 5.2.1) } 1/2-1/2" in export(_ended("stalemate"))


@pytest.mark.parametrize(
    "tag, result, termination, winner",
    [
        # pychessdraw's old values and the standard's and lichess's words are all read on import
        ("threefold_repetition", "1/2-1/2", "threefold_repetition", None),
        ("threefold repetition", "1/2-1/2", "threefold_repetition", None),
        ("time_forfeit", "0-1", "time_forfeit", chess.BLACK),
        ("time forfeit", "0-1", "time_forfeit", chess.BLACK),
        ("Time forfeit", "1-0", "time_forfeit", chess.WHITE),
        ("normal", "1-0", "resignation", chess.WHITE),
        ("Normal", "1/2-1/2", "agreement", None),
        ("agreement", "1/2-1/2", "agreement", None),
        ("rules infraction", "0-1", "resignation", chess.BLACK),
    ],
)
def test_old_values_and_other_words_are_read_and_written_again_in_standard_words(
    tag: str, result: str, termination: str, winner: chess.Color | None
) -> None:
    from pychessdraw.pgn import export, parse_one

    moves = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8" if termination == "threefold_repetition" else "1. e4 e5"
    game, _ = parse_one(f'[Termination "{tag}"]\n\n{moves} {result}')
    outcome = game.outcome()
    assert outcome is not None and outcome.termination.value == termination and outcome.winner == winner
    text = export(game)
    assert f'[Termination "{"time forfeit" if termination == "time_forfeit" else "normal"}"]' in text
    again = parse_one(text)[0].outcome()
    assert again is not None and (again.termination, again.winner) == (outcome.termination, outcome.winner)


def test_the_rule_in_words_is_read_where_the_tag_says_normal() -> None:
    from pychessdraw.pgn import parse_one

    moves = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"
    by_tag, _ = parse_one(
        f'[Termination "normal"]\n[TerminationDetails "Threefold repetition, claimed (FIDE 9.2)"]\n\n{moves} 1/2-1/2'
    )
    by_comment, _ = parse_one(f"{moves} {{ Draw by threefold repetition, claimed (FIDE 9.2) }} 1/2-1/2")
    agreed, _ = parse_one(f'[Termination "normal"]\n\n{moves} 1/2-1/2')
    for game, rule in ((by_tag, "threefold_repetition"), (by_comment, "threefold_repetition"), (agreed, "agreement")):
        outcome = game.outcome()
        assert outcome is not None and outcome.termination.value == rule


def test_recorded_view_and_lost_on_time_read_the_exported_words() -> None:
    from pychessdraw.pgn import export, read_games
    from pychessdraw.records.scan import lost_on_time
    from pychessdraw.web import present

    view = present.recorded_view("1/2-1/2", "normal", "Threefold repetition, claimed (FIDE 9.2)")
    assert view["termination"] == "threefold_repetition"
    assert present.recorded_view("1/2-1/2", "normal")["termination"] == "unknown"
    assert present.recorded_view("0-1", "Time forfeit")["termination"] == "time_forfeit"
    assert present.recorded_view("0-1", "time_forfeit")["termination"] == "time_forfeit"
    assert present.recorded_view("1-0", "adjudication")["termination"] == "unknown"
    headers = next(read_games(export(_ended("flag_win")).splitlines(keepends=True))).headers
    assert lost_on_time(headers) == chess.BLACK
    headers = next(read_games(export(_ended("resignation")).splitlines(keepends=True))).headers
    assert lost_on_time(headers) is None


def test_the_page_exports_standard_words_and_shows_the_rule_again_on_import() -> None:
    import json

    from pychessdraw.web.bridge import Bridge

    def call(bridge: Bridge, op: str, **args: object) -> dict:
        return json.loads(bridge.handle(json.dumps({"op": op, "args": args})))

    bridge = Bridge()
    for move in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]:
        assert call(bridge, "play", move=move, offer_claim=False)["ok"]
    assert call(bridge, "claim")["ok"]
    text = call(bridge, "export_pgn")["pgn"]
    assert '[Termination "normal"]' in text and "{ Draw by threefold repetition, claimed (FIDE 9.2) }" in text
    outcome = call(Bridge(), "load_pgn", pgn=text)["facts"]["outcome"]
    assert outcome["termination"] == "threefold_repetition" and outcome["result"] == "1/2-1/2"
