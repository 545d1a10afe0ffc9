"""Record builders generated once per class: a record from its JSON object without
cattrs's per-call dispatch (as attrs generates ``__init__``).

Used by the record readers (:mod:`cardkit.serde._records`, from a parsed dict) and the
one-pass log reader (:mod:`cardkit.serde._fast`, from a JSON object's key/value pairs).
"""

from __future__ import annotations

import types
import typing
from typing import Any, Callable, Literal

import attrs

from cardkit.cards import Card
from cardkit.serde._convert import _fast_field

__all__ = ["record_builder"]


class _GiveUp(Exception):
    """The fast path declines the text; the generic path reads it."""


def _field_code(i: int, annotation: Any, names: dict[str, Any]) -> list[str] | None:
    """Statements that check the JSON value ``v{i}`` and bind the field's value to ``x{i}``
    (or raise), for the kinds of field the games use; None for any other kind."""
    v, x = f"v{i}", f"x{i}"
    if annotation is Card:
        # KeyError for anything but a canonical code (ints, lists, "qs"): caught by the hook
        return [f"{x} = _cards[{v}]"]
    if annotation is int or annotation is str or annotation is bool:
        return [f"if type({v}) is not {annotation.__name__}: raise _Mismatch", f"{x} = {v}"]
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis and args[0] is Card:
        return [f"if type({v}) is not list: raise _Mismatch", f"{x} = tuple(map(_cards.__getitem__, {v}))"]
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis and args[0] is int:
        return [
            f"if type({v}) is not list: raise _Mismatch",
            f"{x} = tuple({v})",
            f"for _e in {x}:",
            "    if type(_e) is not int: raise _Mismatch",
        ]
    if origin is Literal and args and all(type(a) is str for a in args):
        names[f"_allowed{i}"] = frozenset(args)
        return [f"if type({v}) is not str or {v} not in _allowed{i}: raise _Mismatch", f"{x} = {v}"]
    if (origin is typing.Union or origin is types.UnionType) and len(args) == 2 and type(None) in args:
        inner = _field_code(i, args[0] if args[1] is type(None) else args[1], names)
        if inner is not None:
            return [f"if {v} is None:", f"    {x} = None", "else:"] + [f"    {line}" for line in inner]
    return None


def record_builder(cls: type, source: Literal["pairs", "dict"]) -> Callable[[Any], Any] | None:
    """A function that builds a ``cls`` record from its JSON object, generated once per
    class (as attrs generates ``__init__``); it raises where the object is not exactly
    what :func:`cardkit.dumps` writes, and the caller then leaves the record to cattrs.

    ``source`` ``"pairs"``: the key/value pairs of the object (what the JSON object hook
    gets), keys in field order after ``"type"``. ``"dict"``: the parsed dict, whose keys
    the caller has checked. None for a class whose fields are not all plain init
    arguments (cattrs alone builds those).
    """
    try:
        hints = typing.get_type_hints(cls)
        fields = attrs.fields(cls)
    except Exception:  # noqa: BLE001 - not an attrs class, or unresolvable hints
        return None
    if not all(
        f.init and f.alias == f.name and f.name in hints and f.name != "type" and f.name.isidentifier()
        for f in fields
    ):
        return None
    names: dict[str, Any] = {"_cls": cls, "_cards": Card._interned, "_Mismatch": _GiveUp}
    lines: list[str] = []
    if source == "dict":
        lines += [f"v{i} = p[{f.name!r}]" for i, f in enumerate(fields)]
    elif fields:
        unpack = ", ".join(["_t"] + [f"(k{i}, v{i})" for i in range(len(fields))])
        keys = " or ".join(f"k{i} != {f.name!r}" for i, f in enumerate(fields))
        lines += [f"{unpack} = p", f"if {keys}: raise _Mismatch"]
    else:
        lines.append("if len(p) != 1: raise _Mismatch")
    for i, f in enumerate(fields):
        code = _field_code(i, hints[f.name], names)
        if code is None:
            # any other kind of field: the converter serde's own fast plans use
            names[f"_conv{i}"] = _fast_field(hints[f.name])
            code = [f"x{i} = _conv{i}(v{i})"]
        lines += code
    lines.append("return _cls(" + ", ".join(f"x{i}" for i in range(len(fields))) + ")")
    source_code = "def build(p):\n" + "".join(f"    {line}\n" for line in lines)
    exec(source_code, names)  # noqa: S102 - generated from attrs field names (identifiers)
    build: Callable[[Any], Any] = names["build"]
    return build
