"""All or nothing: every failed bridge operation, whatever
the exception inside, leaves the game, its headers, its ending and its
explanations exactly as they were; restored headers are checked like
imported ones; errors are in the project's words with stable codes and
arguments of the wrong type are bad requests. (The library's side:
tests/test_game_robust.py.)"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pychessdraw import Game, pgn
from pychessdraw.errors import CODES
from pychessdraw.web import clockpgn, flagfall, present
from pychessdraw.web.bridge import Bridge

FLAG_FEN = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
PYTHON_WORDS = ("unhashable", "Error", "object", "NoneType", "attribute", "argument", "'list'", "'dict'")


def call(bridge: Bridge, op: str, **args: Any) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(bridge.handle(json.dumps({"op": op, "args": args})))
    return reply


def observe(bridge: Bridge) -> str:
    """Everything the page can see of the game: the state (facts with the
    ending's explanation, every move row, headers, start, record, the saved
    ending), both exports, the status at the start and in the middle."""
    state = call(bridge, "state")
    ply = len(state["moves"]["add"])
    seen = [
        state,
        call(bridge, "export_pgn"),
        call(bridge, "export_pgn", time_control={"base_s": 60, "increment_s": 1}, clocks={"1": 59_000}),
        call(bridge, "status_at", ply=0),
        call(bridge, "status_at", ply=ply // 2),
    ]
    return json.dumps(seen, sort_keys=True)


def _bridge(*requests: tuple[str, dict[str, Any]]) -> Bridge:
    bridge = Bridge()
    for op, args in requests:
        reply = call(bridge, op, **args)
        assert reply["ok"], reply
    return bridge


C960 = "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w KQkq - 0 1"
HEADERS = {"Event": "Club", "White": "A", "Black": "B", "Round": "3"}
PGN = "".join(f'[{k} "{v}"]\n' for k, v in HEADERS.items()) + '[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 *\n'
# Games in the states the page meets: one in progress (history, headers), one
# ended by a flag fall (its explanation names the rule and a mating line), one
# imported as recorded, one whose moves go on after the rules ended it, and
# a Chess960 game with castling.
BASES = {
    "in_progress": _bridge(("load_pgn", {"pgn": PGN}), ("play", {"move": "d3"})),
    "flag_fall": _bridge(
        (
            "restore",
            {
                "start_fen": FLAG_FEN,
                "moves": ["e1f2", "e8d8"],
                "headers": HEADERS,
                "ending": {"op": "flag", "color": "black"},
            },
        )
    ),
    "recorded": _bridge(("load_pgn", {"pgn": '[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 1-0'})),
    "after_end": _bridge(
        ("load_pgn", {"pgn": '[FEN "4k3/8/8/8/8/8/8/4KB2 w - - 0 1"]\n[SetUp "1"]\n\n1. Bc4 Kd7 2. Bd5 Kd6 *'})
    ),
    "chess960": _bridge(
        ("load_pgn", {"pgn": f'[Variant "Chess960"]\n[FEN "{C960}"]\n[SetUp "1"]\n\n1. Nf3 Nf6 2. O-O O-O *'})
    ),
}
OBSERVED = {name: observe(bridge) for name, bridge in BASES.items()}


def check_the_states() -> None:
    """The states the fuzz starts from are what they claim to be."""
    detail = json.loads(OBSERVED["flag_fall"])[0]["facts"]["outcome"]["detail"]
    assert "flag fell" in detail and "mating line" in detail
    assert json.loads(OBSERVED["recorded"])[0]["ending"] == {"op": "recorded"}
    assert any(row["after_end"] for row in json.loads(OBSERVED["after_end"])[0]["moves"]["add"])
    assert json.loads(OBSERVED["in_progress"])[0]["game"]["headers"]["White"] == "A"
    for name, bridge in BASES.items():
        assert observe(copy.deepcopy(bridge)) == OBSERVED[name]


# -- the faults found, one by one ---------------------------------------------
def test_restore_with_a_bad_ending_colour_changes_nothing() -> None:
    bridge = copy.deepcopy(BASES["in_progress"])
    for color in (["white"], {"a": 1}, 1, 1.5, True, "White", None):
        reply = call(bridge, "restore", moves=["d2d4"], ending={"op": "resign", "color": color})
        assert reply["ok"] is False and reply["error"]["code"] == "bad_request"
        assert "'color'" in reply["error"]["message"] and "unhashable" not in reply["error"]["message"]
        assert observe(bridge) == OBSERVED["in_progress"]


def test_colours_and_rules_of_any_json_type_are_bad_requests() -> None:
    bridge = copy.deepcopy(BASES["in_progress"])
    for value in (["white"], {"white": 1}, [], {}, 0, 2.5, False):
        for op, args in (
            ("resign", {"color": value}),
            ("flag", {"color": value}),
            ("rules", {"flag_rules": value}),
            ("new", {"flag_rules": value}),
            ("restore", {"ending": {"op": "flag", "color": value}}),
        ):
            reply = call(bridge, op, **args)
            assert reply["ok"] is False and reply["error"]["code"] == "bad_request", (op, value)
            assert not any(w in reply["error"]["message"] for w in PYTHON_WORDS), reply["error"]["message"]
    assert observe(bridge) == OBSERVED["in_progress"]


def test_a_failed_restore_keeps_the_flag_fall_explanation() -> None:
    bridge = copy.deepcopy(BASES["flag_fall"])
    # the saved claim does not hold: refused once the new game is built
    reply = call(bridge, "restore", moves=["e2e4"], ending={"op": "claim"})
    assert reply["ok"] is False and reply["error"]["code"] == "bad_request"
    assert observe(bridge) == OBSERVED["flag_fall"]


BAD_HEADERS = [
    {"FEN": FLAG_FEN},  # another position than the saved start
    {"FEN": "not a fen"},
    {"Variant": "Chess960"},  # the saved game is standard chess
    {"Variant": "Crazyhouse"},
    {"bad name": "x"},
    {"Event": "two\nlines"},
]


def test_restored_headers_are_checked_like_imported_ones() -> None:
    bridge = copy.deepcopy(BASES["in_progress"])
    for headers in BAD_HEADERS:
        reply = call(bridge, "restore", moves=["e2e4"], headers=headers)
        assert reply["ok"] is False and reply["error"]["code"] in ("bad_request", "bad_fen", "unsupported_variant")
        assert observe(bridge) == OBSERVED["in_progress"], headers
    # headers that name the saved start are kept, and the game exports
    headers = {"FEN": FLAG_FEN, "SetUp": "1", "White": "A"}
    assert call(bridge, "restore", start_fen=FLAG_FEN, moves=["e1g1"], headers=headers)["ok"]
    assert call(bridge, "state")["game"]["headers"] == headers
    exported = call(bridge, "export_pgn")
    assert exported["ok"] and "1. O-O" in exported["pgn"] and f'[FEN "{FLAG_FEN}"]' in exported["pgn"]
    for name, base in BASES.items():  # what the page saves of a game restores to that game
        state = call(base, "state")
        saved = {
            "start_fen": state["game"]["start_fen"],
            "chess960": state["game"]["chess960"],
            "moves": [row["uci"] for row in state["moves"]["add"]],
            "ending": state["ending"],
            "headers": state["game"]["headers"],
        }
        assert call(bridge, "restore", **saved)["ok"], name
        assert call(bridge, "state")["facts"] == state["facts"], name


def test_an_imported_variant_name_python_chess_does_not_know_still_exports() -> None:
    # "Freestyle" is read as Chess960; python-chess's writer would look it up by name and fail
    bridge = Bridge()
    assert call(bridge, "load_pgn", pgn='[Variant "Freestyle"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *')["ok"]
    for args in ({}, {"time_control": {"base_s": 60}, "clocks": {"1": 1000}}):
        reply = call(bridge, "export_pgn", **args)
        assert reply["ok"], reply
        assert "4. O-O" in reply["pgn"] and '[Variant "Chess960"]' in reply["pgn"]


@contextlib.contextmanager
def faults(at: int, kind: type[Exception], message: str = "unhashable type: 'list'") -> Iterator[list[int]]:
    """Make the ``at``-th call (from 0) into the functions a bridge operation
    goes through raise ``kind``: an unexpected failure in the middle of it."""
    count = [0, 0]  # calls, faults raised

    def wrap(func: Callable[..., Any]) -> Callable[..., Any]:
        def faulty(*args: Any, **kwargs: Any) -> Any:
            count[0] += 1
            if count[0] - 1 == at:
                count[1] += 1
                raise kind(message)
            return func(*args, **kwargs)

        return faulty

    targets = [
        (Game, "push"),
        (Game, "status"),
        (Game, "claim_draw"),
        (Game, "outcome"),
        (present, "make_row"),
        (present, "facts"),
        (flagfall, "explain"),
        (pgn, "export"),
        (pgn, "game_from_headers"),
        (clockpgn, "export_with_clocks"),
    ]
    with contextlib.ExitStack() as stack:
        for owner, name in targets:
            stack.enter_context(mock.patch.object(owner, name, wrap(getattr(owner, name))))
        yield count


def test_an_unexpected_exception_after_a_move_puts_the_move_back_and_says_so_in_our_words() -> None:
    bridge = copy.deepcopy(BASES["in_progress"])
    with mock.patch.object(present, "facts", side_effect=TypeError("unhashable type: 'list'")) as facts:
        reply = call(bridge, "play", move="a6")  # the move is played, then the reply's facts fail
    assert facts.called
    assert reply["ok"] is False and reply["error"]["code"] == "internal"
    assert not any(w in reply["error"]["message"] for w in PYTHON_WORDS)
    assert observe(bridge) == OBSERVED["in_progress"]
    assert "internal" in CODES


GOOD_REQUESTS = [
    ("play", {"move": "a6"}),
    ("play", {"move": "a6", "offer_claim": True}),
    ("play", {"move": "Nc3"}),
    ("undo", {}),
    ("claim", {}),
    ("claim", {"move": "a6"}),
    ("agree", {}),
    ("resign", {"color": "white"}),
    ("flag", {"color": "black"}),
    ("rules", {"flag_rules": "uscf"}),
    ("analyse", {"level": 0}),
    ("state", {}),
    ("status_at", {"ply": 1}),
    ("export_pgn", {}),
    ("export_pgn", {"time_control": {"base_s": 60}, "clocks": {"1": 1000}}),
    ("new", {"fen": FLAG_FEN}),
    ("load_pgn", {"pgn": PGN}),
    ("load_pgn", {"pgn": PGN + "\n" + PGN, "index": 1}),
    ("restore", {"moves": ["e2e4", "e7e5"], "headers": HEADERS, "ending": {"op": "resign", "color": "black"}}),
    ("restore", {"start_fen": FLAG_FEN, "moves": ["e1f2"], "ending": {"op": "flag", "color": "white"}}),
    ("engine_facts", {"moves": ["a3", "h3"]}),
]


FAULTS = [TypeError, KeyError, ValueError, AttributeError, RuntimeError, IndexError, ZeroDivisionError]


def examples(full: bool, sample: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A sample by default, ten times more with --full."""
    return settings(
        max_examples=sample * 10 if full else sample, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


def test_any_exception_anywhere_inside_an_operation_changes_nothing(full: bool) -> None:
    examples(full, 200)(
        given(
            base=st.sampled_from(sorted(BASES)),
            request=st.sampled_from(GOOD_REQUESTS),
            at=st.integers(0, 12),
            kind=st.sampled_from(FAULTS),
        )(_fault_changes_nothing)
    )()


def _fault_changes_nothing(base: str, request: tuple[str, dict[str, Any]], at: int, kind: type[Exception]) -> None:
    bridge = copy.deepcopy(BASES[base])
    op, args = request
    with faults(at, kind) as count:
        reply = call(bridge, op, **args)
    if count[1]:  # the fault struck
        assert reply["ok"] is False and reply["error"]["code"] == "internal", reply
        assert not any(w in reply["error"]["message"] for w in PYTHON_WORDS)
    if not reply["ok"]:
        assert observe(bridge) == OBSERVED[base], (op, at, kind)


# -- the property: random JSON against every operation ---------------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**6) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=6), kids, max_size=3),
    max_leaves=8,
)
PLAUSIBLE: dict[str, list[Any]] = {
    "fen": [FLAG_FEN, "x", "8/8/8/8/8/8/8/8 w - - 0 1"],
    "start_fen": [FLAG_FEN, "", "x"],
    "chess960": [True, False],
    "flag_rules": ["fide", "uscf", "none"],
    "offer_claim": [True],
    "move": ["Nc3", "e8", "Ke3", "zz", "O-O", "a3", "Rh8+"],
    "partial": [True],
    "pgn": ["1. e4 e5 *", '[FEN "bad"]\n\n1. e4 *', "1. e4 e5 2. Ke3 *", "junk", PGN + PGN, '[Variant "x"]\n\n*'],
    "index": [0, 1, 5],
    "ply": [0, 1, 2, 100],
    "level": [0, 1, 9],
    "color": ["white", "black", "red", ["white"]],
    "moves": [["e2e4"], ["e2e4", "e2e4"], ["zz"], ["e1f2", "e8d8"], ["a3", "h3"]],
    "ending": [
        {"op": "flag", "color": "white"},
        {"op": "claim"},
        {"op": "agree"},
        {"op": "recorded"},
        {"op": "resign", "color": ["white"]},
        {"op": "resign"},
        {"op": "agree", "x": 1},
    ],
    "headers": [
        HEADERS,
        {"FEN": FLAG_FEN},
        {"Variant": "Chess960"},
        {"bad name": "x"},
        {"Event": "a\nb"},
        {"Result": "1-0", "Termination": "time forfeit"},
    ],
    "time_control": [{"base_s": 60}, {"base_s": -1}],
    "clocks": [{"1": 1000}, {"x": 1}],
    "text": [PGN, "junk"],
    "search": ["static", "deep"],
    "start": [0],
    "part": [0],
    "parts": [1],
}
ARGS = {
    "new": ["fen", "chess960", "flag_rules"],
    "play": ["move", "offer_claim"],
    "undo": [],
    "load_pgn": ["pgn", "index", "partial"],
    "claim": ["move"],
    "agree": [],
    "resign": ["color"],
    "flag": ["color"],
    "status_at": ["ply"],
    "export_pgn": ["time_control", "clocks"],
    "state": [],
    "analyse": ["level"],
    "restore": ["start_fen", "chess960", "moves", "ending", "headers", "flag_rules"],
    "rules": ["flag_rules"],
    "engine_facts": ["moves"],
    "review_start": ["flag_rules", "start", "part", "parts", "search"],
    "review_feed": ["text"],
    "review_finish": [],
}


def value(name: str) -> st.SearchStrategy[Any]:
    """Mostly values the operation may take, some random JSON."""
    plausible = st.sampled_from(PLAUSIBLE.get(name, [None]))
    return st.one_of(plausible, plausible, plausible, JSON)


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    op = draw(st.sampled_from(sorted(ARGS)))
    names = ARGS[op] + ["x"]
    chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names)))
    args = {name: draw(value(name)) for name in chosen}
    return {"op": op, "args": draw(st.sampled_from([args, args, args, None])) if chosen else draw(JSON | st.just({}))}


def test_every_refused_request_leaves_everything_as_it_was(full: bool) -> None:
    check_the_states()
    examples(full, 300)(
        given(base=st.sampled_from(sorted(BASES)), sequence=st.lists(requests(), min_size=1, max_size=5))(
            _refused_changes_nothing
        )
    )()


def _refused_changes_nothing(base: str, sequence: list[dict[str, Any]]) -> None:
    bridge = copy.deepcopy(BASES[base])
    before = OBSERVED[base]
    for request in sequence:
        reply = json.loads(bridge.handle(json.dumps(request)))
        assert isinstance(reply["ok"], bool)
        if reply["ok"]:
            before = observe(bridge)
            assert all(seen["ok"] for seen in json.loads(before)), f"{request} left a game that cannot be shown"
            continue
        error = reply["error"]
        assert error["code"] in CODES, error
        assert not any(w in error["message"] for w in ("unhashable", "TypeError", "KeyError", "NoneType")), error
        assert observe(bridge) == before, request
