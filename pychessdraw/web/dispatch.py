"""The one dispatcher of the page's two workers: a request ``{"op", "args"}``
(JSON text or an already decoded object) checked against an operations
TypedDict (:class:`pychessdraw.web.contract.Operations` for the game's
bridge, :class:`~pychessdraw.web.contract.FollowOperations` for the Arbiter
view's), then handed to the operation's method.

What is checked here, for every operation alike: the request is JSON (and
not too large), an object with a known ``op``; ``args`` is an object whose
names are the ones the TypedDict gives, with every required one present,
and whose values have the annotated JSON types (``str``, ``int``, ``float``,
``bool``, ``None``, ``Literal`` sets, ``list[...]``, ``dict[str, ...]``,
nested TypedDicts). Anything else is a ``bad_request`` naming the argument.
What only an operation knows (a length limit, a range, a FEN) its method
checks, with the helpers of :mod:`pychessdraw.web.args`.

Limits: a ``float`` argument takes a JSON integer too (JSON does not tell
them apart); a value's type is checked as deep as its annotation goes, so
a deeply nested value is refused at its first level, never walked.
"""

from __future__ import annotations

import functools
import json
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Generic, Literal, NotRequired, Required, TypeVar, Union, get_args, get_origin, get_type_hints

from ..errors import BadRequestError, shown
from ..i18n import gettext, marked

MAX_REQUEST = 32_000_000  # characters of one request
R = TypeVar("R")
#: One operation's method: the checked arguments in, the reply out.
Handler = Callable[[dict[str, Any]], R]


class ArgSpec:
    """The arguments one operation takes, read once from its TypedDict."""

    def __init__(self, args_type: type) -> None:
        self.types: dict[str, object] = get_type_hints(args_type)
        self.required: frozenset[str] = frozenset(getattr(args_type, "__required_keys__", frozenset()))

    def check(self, args: Mapping[str, object]) -> None:
        """Raise ``bad_request`` for a name the operation does not take, a
        required one missing, or a value of another type than annotated."""
        for name in args:
            if name not in self.types:
                raise BadRequestError(gettext("unknown argument {name}").format(name=repr(str(name)[:40])))
        for name in sorted(self.required):
            if name not in args:
                raise BadRequestError(gettext("{name} is missing").format(name=repr(name)))
        for name, value in args.items():
            annotation = self.types[name]
            if conforms(value, annotation):
                continue
            nested = _typeddict_in(annotation)
            if nested is not None and isinstance(value, dict):  # say which part of it is wrong
                try:
                    ArgSpec(nested).check(value)
                except BadRequestError as exc:
                    raise BadRequestError(
                        gettext("in {name}: {reason}").format(name=repr(name), reason=exc.message)
                    ) from None
            raise BadRequestError(
                gettext("{name} must be {wanted}, not {given}").format(
                    name=repr(name), wanted=type_words(annotation), given=json_kind(value)
                )
            )


@functools.cache
def op_specs(operations: type) -> dict[str, ArgSpec]:
    """Each operation's :class:`ArgSpec`, from ``Op[Args, Reply]`` annotations
    (read once per operations type: a bridge made again costs nothing)."""
    return {op: ArgSpec(get_args(spec)[0]) for op, spec in get_type_hints(operations).items()}


def json_kind(value: object) -> str:
    """A JSON value for a refusal: short, in JSON's words (never Python's type names)."""
    if isinstance(value, list):
        return gettext("a list")
    if isinstance(value, dict):
        return gettext("a map {{...}}")
    return shown(value)


def _typeddict_in(annotation: object) -> type | None:
    """The TypedDict an annotation names (alone, or beside None), if any."""
    if _is_typeddict(annotation):
        return typing.cast(type, annotation)
    if get_origin(annotation) in (Union, types.UnionType, NotRequired, Required):
        return next((found for arm in get_args(annotation) if (found := _typeddict_in(arm)) is not None), None)
    return None


def _is_typeddict(annotation: object) -> bool:
    return isinstance(annotation, type) and typing.is_typeddict(annotation)


def conforms(value: object, annotation: object) -> bool:
    """Whether a decoded JSON value has the annotated type (see the module's limits)."""
    origin = get_origin(annotation)
    if origin in (NotRequired, Required):
        return conforms(value, get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        return any(conforms(value, arm) for arm in get_args(annotation))
    if origin is Literal:
        return any(type(value) is type(choice) and value == choice for choice in get_args(annotation))
    if annotation is None or annotation is type(None):
        return value is None
    if annotation is bool:
        return isinstance(value, bool)
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if annotation is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if annotation is str:
        return isinstance(value, str)
    if origin is list:
        (item,) = get_args(annotation)
        return isinstance(value, list) and all(conforms(v, item) for v in value)
    if origin is dict:
        key, item = get_args(annotation)
        return isinstance(value, dict) and all(conforms(k, key) and conforms(v, item) for k, v in value.items())
    if _is_typeddict(annotation):
        if not isinstance(value, dict):
            return False
        try:
            ArgSpec(typing.cast(type, annotation)).check(value)
        except BadRequestError:
            return False
        return True
    if annotation is object:
        return True
    raise TypeError(f"the dispatcher cannot check {annotation!r}")  # a contract the checker does not know: a test fails


def type_words(annotation: object) -> str:
    """The annotated type in the page's words: "text", "a whole number or null"."""
    origin = get_origin(annotation)
    if origin in (NotRequired, Required):
        return type_words(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        return gettext(" or ").join(type_words(arm) for arm in get_args(annotation))
    if origin is Literal:
        return gettext("one of {choices}").format(choices=", ".join(repr(c) for c in get_args(annotation)))
    if origin is list:
        return gettext("a list of ({items})").format(items=type_words(get_args(annotation)[0]))
    if origin is dict:
        return gettext("a map of ({items})").format(items=type_words(get_args(annotation)[1]))
    if _is_typeddict(annotation):
        return "{" + ", ".join(get_type_hints(annotation)) + "}"
    if annotation is None or annotation is type(None):
        return "null"
    return gettext(_TYPE_WORDS[annotation]) if annotation in _TYPE_WORDS else str(annotation)


#: JSON's types in words (a refusal names the type an argument must have).
_TYPE_WORDS: dict[object, str] = {
    str: marked("text"),
    int: marked("a whole number"),
    float: marked("a number"),
    bool: marked("true or false"),
}


def decode(request: object) -> dict[str, object]:
    """A request as an object: JSON text decoded (bounded in size; nesting too
    deep for the decoder is a ``bad_request``), anything but an object refused."""
    if isinstance(request, str):
        if len(request) > MAX_REQUEST:
            raise BadRequestError(gettext("the request is too large"))
        try:
            request = json.loads(request)
        except RecursionError:
            raise BadRequestError(gettext("the request is nested too deeply")) from None
        except ValueError:
            raise BadRequestError(gettext("the request is not JSON")) from None
    if not isinstance(request, dict):
        raise BadRequestError(gettext("a request is an object {{op, args}}"))
    return request


class Dispatcher(Generic[R]):
    """Requests checked against ``operations`` and run by ``handlers`` (one
    per operation: a handler missing or one too many is a fault of the
    code, raised at once)."""

    def __init__(self, operations: type, handlers: Mapping[str, Handler[R]]) -> None:
        self.specs = op_specs(operations)
        if set(handlers) != set(self.specs):
            raise TypeError(f"handlers {sorted(handlers)} are not the operations {sorted(self.specs)}")
        self.handlers = dict(handlers)

    def run(self, request: object) -> R:
        """Decode, check and run one request; raises ``bad_request`` (or the
        operation's own error) on any failure."""
        decoded = decode(request)
        op = decoded.get("op")
        if not isinstance(op, str) or op not in self.specs:
            raise BadRequestError(gettext("unknown operation {op}").format(op=shown(op)))
        args = decoded.get("args")
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise BadRequestError(gettext("args must be an object"))
        self.specs[op].check(args)
        return self.handlers[op](args)
