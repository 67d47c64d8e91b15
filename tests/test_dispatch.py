"""The one dispatcher of both workers' bridges (pychessdraw.web.dispatch):
every operation of Operations and FollowOperations refuses an argument
name it does not take and a value of the wrong type with ``bad_request``;
any malformed request is ``ok: false`` in our words, from both bridges; the
event path is typed; the page's bridges ship no network code."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pychessdraw.web.bridge import Bridge
from pychessdraw.web.contract import FollowOperations, Operations
from pychessdraw.web.dispatch import ArgSpec, conforms, op_specs
from pychessdraw.web.follow import ArbiterBridge

ROOT = Path(__file__).resolve().parent.parent
#: Words of Python's own that a refusal must never show.
PYTHON_WORDS = ("Traceback", "Error", "NoneType", "unhashable", "'dict'", "'list'", "object at 0x")
#: JSON values of every type: one of them is of a wrong type for any annotation.
JSON_VALUES: tuple[object, ...] = ("text", 7, 1.5, True, None, [], {}, [1], {"x": 1})

BRIDGES: dict[str, tuple[Callable[[], Any], type]] = {
    "game": (Bridge, Operations),
    "arbiter": (ArbiterBridge, FollowOperations),
}
CASES = [(name, op) for name, (_, ops) in BRIDGES.items() for op in typing.get_type_hints(ops)]


def ask(bridge: Any, request: object) -> dict[str, Any]:
    text = request if isinstance(request, str) else json.dumps(request)
    answer: dict[str, Any] = json.loads(bridge.handle(text))
    return answer


def refused(answer: dict[str, Any], code: str = "bad_request") -> bool:
    message = answer.get("error", {}).get("message", "")
    return (
        answer["ok"] is False
        and answer["error"]["code"] == code
        and bool(message)
        and not any(word in message for word in PYTHON_WORDS)
    )


def wrong_value(annotation: object) -> object:
    """A JSON value that is not of the annotated type."""
    return next(v for v in JSON_VALUES if not conforms(v, annotation))


def good_args(spec: ArgSpec) -> dict[str, object]:
    """The required arguments, each with a value of its type (from JSON_VALUES
    or a Literal's first choice): only the one argument under test is wrong."""
    out: dict[str, object] = {}
    for name in spec.required:
        annotation = spec.types[name]
        choices = [v for v in JSON_VALUES if conforms(v, annotation)]
        literal = next((a for a in _arms(annotation) if typing.get_origin(a) is typing.Literal), None)
        out[name] = choices[0] if choices else typing.get_args(literal)[0] if literal is not None else None
    return out


def _arms(annotation: object) -> tuple[object, ...]:
    args = typing.get_args(annotation)
    return args if typing.get_origin(annotation) in (typing.Union, type(int | None)) else (annotation,)


@pytest.mark.parametrize(("bridge_name", "op"), CASES)
def test_every_operation_refuses_an_argument_it_does_not_take(bridge_name: str, op: str) -> None:
    make, ops = BRIDGES[bridge_name]
    spec = op_specs(ops)[op]
    answer = ask(make(), {"op": op, "args": {**good_args(spec), "no_such_argument": 1}})
    assert refused(answer), answer
    assert "no_such_argument" in answer["error"]["message"]


@pytest.mark.parametrize(("bridge_name", "op"), CASES)
def test_every_operation_refuses_a_value_of_the_wrong_type(bridge_name: str, op: str) -> None:
    """Each argument in turn gets a value of another JSON type (the others
    are right); an operation without arguments gets ``args`` that is not an object."""
    make, ops = BRIDGES[bridge_name]
    spec = op_specs(ops)[op]
    if not spec.types:
        assert refused(ask(make(), {"op": op, "args": ["not", "an", "object"]}))
        return
    for name, annotation in spec.types.items():
        value = wrong_value(annotation)
        answer = ask(make(), {"op": op, "args": {**good_args(spec), name: value}})
        assert refused(answer), (name, value, answer)
        assert repr(name) in answer["error"]["message"], answer


@pytest.mark.parametrize(("bridge_name", "op"), [c for c in CASES if op_specs(BRIDGES[c[0]][1])[c[1]].required])
def test_a_missing_required_argument_is_named(bridge_name: str, op: str) -> None:
    make, ops = BRIDGES[bridge_name]
    spec = op_specs(ops)[op]
    name = sorted(spec.required)[0]
    answer = ask(make(), {"op": op, "args": {k: v for k, v in good_args(spec).items() if k != name}})
    assert refused(answer) and repr(name) in answer["error"]["message"], answer


MALFORMED: list[object] = [
    "not json",
    "",
    "[" * 200_000 + "]" * 200_000,  # deeper than the decoder goes
    '{"op": "' + "x" * 100 + '"}',
    "[]",
    "null",
    '"text"',
    "12",
    {"args": {}},  # no op
    {"op": None},
    {"op": 5},
    {"op": ["new"]},
    {"op": "no_such_op"},
    {"op": "__init__"},
    {"op": "handle"},
]


@pytest.mark.parametrize("bridge_name", sorted(BRIDGES))
@pytest.mark.parametrize("request_", MALFORMED, ids=range(len(MALFORMED)))
def test_a_malformed_request_is_answered_in_our_words(bridge_name: str, request_: object) -> None:
    make, _ = BRIDGES[bridge_name]
    bridge = make()
    assert refused(ask(bridge, request_))


@pytest.mark.parametrize("bridge_name", sorted(BRIDGES))
def test_deeply_nested_arguments_are_refused_without_a_walk(bridge_name: str) -> None:
    """Nested as deep as JSON decodes (not beyond): refused at the first level."""
    make, ops = BRIDGES[bridge_name]
    op = next(op for op, spec in op_specs(ops).items() if spec.types)
    name = next(iter(op_specs(ops)[op].types))
    deep = "[" * 5000 + "]" * 5000
    answer = ask(make(), f'{{"op": "{op}", "args": {{"{name}": {deep}}}}}')
    assert refused(answer)


def test_both_bridges_answer_after_refusals() -> None:
    """A refusal leaves each bridge able to answer the next request."""
    game, arbiter = Bridge(), ArbiterBridge()
    for request in MALFORMED:
        ask(game, request)
        ask(arbiter, request)
    assert ask(game, {"op": "play", "args": {"move": "e4"}})["ok"]
    assert ask(arbiter, {"op": "follow_update", "args": {"text": '[White "A"]\n\n1. e4 *\n'}})["ok"]


def test_the_bridges_do_not_share_a_class_name() -> None:
    assert Bridge.__name__ != ArbiterBridge.__name__


def test_the_page_bridges_import_no_network_code() -> None:
    """The page's workers import these two modules only: Pyodide must not
    ship urllib's client code they never run."""
    code = (
        "import sys, pychessdraw.web.bridge, pychessdraw.web.follow; "
        "print(sorted(m for m in ('urllib.request', 'http.client', 'socket', 'ssl') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


#: The modules events pass through, from the tracker to the page.
EVENT_PATH = ("pychessdraw/records/tracker.py", "pychessdraw/web/follow.py", "pychessdraw/web/contract.py")


@pytest.mark.parametrize("path", EVENT_PATH)
def test_the_event_path_has_no_untyped_dict(path: str) -> None:
    """No ``dict[str, Any]`` between the tracker and the page; the only
    ones left are an operation's ``args``, which the dispatcher has checked."""
    tree = ast.parse((ROOT / path).read_text())
    found = []
    for node in ast.walk(tree):
        annotation = getattr(node, "annotation", None) or getattr(node, "returns", None)
        if annotation is None or "dict[str, Any]" not in ast.unparse(annotation):
            continue
        if isinstance(node, ast.arg) and node.arg == "args":
            continue
        found.append(f"{path}:{node.lineno}: {ast.unparse(annotation)}")
    assert found == []
