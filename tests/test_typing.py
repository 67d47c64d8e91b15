"""Types: ``mypy --strict`` passes on the package and on code that uses it
(py.typed is shipped), and every ``to_dict()`` has exactly the keys its
TypedDict in :mod:`pychessdraw.contract` declares."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
import types
import typing
from pathlib import Path

import chess
import pytest

from pychessdraw import Game, contract, pgn
from pychessdraw.errors import RefereeError
from pychessdraw.rules import dead

ROOT = Path(__file__).resolve().parents[1]

CLIENT = """
from pychessdraw import Game, Outcome, Termination, RefereeError, __version__
from pychessdraw.contract import StatusDict, ClaimResultDict, ErrorDict
from pychessdraw.rules.dead import PAGE
from pychessdraw import pgn

def describe(fen: str | None) -> str:
    game = Game(fen, search=PAGE)
    game.play("e4")
    status: StatusDict = game.status(legal_moves=True).to_dict()
    turn: str = status["turn"]
    count: int = status["repetition_count"]
    moves = status.get("legal_moves", [])
    first: str = moves[0]["from"] if moves else ""
    outcome: Outcome | None = game.outcome()
    claim: ClaimResultDict = game.claim_draw().to_dict()
    try:
        game.play("e5")
    except RefereeError as exc:
        error: ErrorDict = exc.to_dict()
        return error["code"]
    parsed, raw = pgn.parse_one("1. e4 *")
    return f"{turn} {count} {first} {outcome} {claim['accepted']} {parsed.ply} {raw.tokens} {__version__}"

def wrong() -> None:
    Game().play(42)  # mypy must reject this
"""


def mypy(*args: str) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed: pip install -e '.[test]'")
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.slow
def test_mypy_strict_passes_on_the_package() -> None:
    done = mypy("--strict", "-p", "pychessdraw")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_mypy_strict_checks_code_that_uses_the_package(tmp_path: Path) -> None:
    client = tmp_path / "client.py"
    client.write_text(textwrap.dedent(CLIENT))
    done = mypy("--strict", "--cache-dir", str(tmp_path / "cache"), str(client))
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    # Exactly one error: the deliberate one. Anything else means our types
    # are missing (no py.typed), too loose or wrong for real callers.
    assert len(errors) == 1 and "wrong" not in errors[0] and ":26:" in errors[0], done.stdout
    assert '"play" of "Game" has incompatible type "int"' in errors[0]


def check_shape(value: object, hint: object, where: str) -> None:
    """``value`` is of type ``hint``: exactly the keys of each TypedDict
    (generic ones included), the right literals, lists and scalars."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is type(None):
        assert value is None, where
    elif origin in (typing.Union, types.UnionType):
        failures = []
        for arg in args:
            try:
                check_shape(value, arg, where)
                return
            except AssertionError as exc:
                failures.append(str(exc))
        raise AssertionError(f"{where}: {value!r} is none of {args}: {failures}")
    elif origin is typing.Literal:
        assert value in args, (where, value, args)
    elif origin is list:
        assert isinstance(value, list), where
        for i, item in enumerate(value):
            check_shape(item, args[0], f"{where}[{i}]")
    elif typing.is_typeddict(origin or hint):
        td = typing.cast(type, origin or hint)
        assert isinstance(value, dict), (where, value)
        required, optional = set(td.__required_keys__), set(td.__optional_keys__)  # type: ignore[attr-defined]
        assert required <= value.keys() <= required | optional, (where, sorted(value.keys() ^ required))
        params = dict(zip(getattr(td, "__parameters__", ()), args, strict=False))
        hints = typing.get_type_hints(td)
        for key, item in value.items():
            field = hints[key]
            check_shape(item, params.get(field, field), f"{where}.{key}")
    elif hint is bool:
        assert isinstance(value, bool), (where, value)
    elif hint is int:
        assert isinstance(value, int) and not isinstance(value, bool), (where, value)
    elif hint is str:
        assert isinstance(value, str), (where, value)
    else:
        raise AssertionError(f"{where}: no check for {hint!r}")


@pytest.mark.parametrize(
    "fen, moves",
    [
        (None, []),
        (None, ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]),
        ("8/8/4k3/8/8/4K3/8/R7 w - - 99 80", []),
        ("7k/8/6K1/8/8/8/8/R7 w - - 0 60", ["Ra8#"]),
        ("8/P7/8/8/8/k7/8/K7 w - - 0 1", []),
    ],
)
def test_to_dict_matches_the_contract(fen: str | None, moves: list[str]) -> None:
    game = Game(fen)
    for move in moves:
        game.play(move)
    for legal, search in ((False, None), (True, dead.PAGE)):
        check_shape(game.status(legal_moves=legal, search=search).to_dict(), contract.StatusDict, "status")
    if game.outcome() is None:
        check_shape(game.claim_draw().to_dict(), contract.ClaimResultDict, "claim")
        game.resign(chess.WHITE)
    outcome = game.outcome()
    assert outcome is not None
    check_shape(outcome.to_dict(), contract.OutcomeDict, "outcome")
    check_shape(game.status().to_dict(), contract.StatusDict, "status")


def test_error_dicts_match_the_contract() -> None:
    for call in (
        lambda: Game().play("Rd9"),
        lambda: Game("4k3/8/8/8/8/8/R6R/4K3 w - - 0 1").play("Rd2"),
        lambda: Game("bad"),
        lambda: Game().undo(),
        lambda: pgn.parse_one("1. e4 {"),
    ):
        with pytest.raises(RefereeError) as info:
            call()
        check_shape(info.value.to_dict(), contract.ErrorDict, "error")
