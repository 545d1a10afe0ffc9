"""The private cattrs converter of :mod:`cardkit.serde` and what reads a record's fields.

The converter's hooks are strict (logs are machine-written): a card is its canonical code,
an int is an int (not a bool), a str a str. :func:`_fast_field` gives, per field type, a
converter that accepts exactly what those hooks accept and declines (``_Slow``) anything
else, so the fast paths never accept what cattrs would refuse.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any, Callable, Literal, Union

import cattrs

from cardkit.cards import Card
from cardkit.core.rules import Pick, Rules, Shuffle
from cardkit.errors import LogError, NotationError

AnyRules = Rules[Any, Any, Any, Any]

# Messages about a log's values never quote them: a value of a log can be a hidden card
# (a chance entry is the deck order, an event a card dealt face down), and hosts show
# these messages to people. They say what is wrong and where (the entry, the field).


def _structure_card(value: Any, _: Any) -> Card:
    # Logs are machine-written: only the canonical code (Card.parse is for people).
    if not isinstance(value, str):
        raise _safe(NotationError(f"a card must be a code string, not {_kind_of(value)}"))
    try:
        return Card(value)
    except NotationError:
        pass  # raised below, outside the except clause: the first error quotes the value
    raise _safe(
        NotationError(
            "a card is not a canonical card code (a log writes each card as its code: "
            "rank then suit, upper case, T for ten, no spaces)"
        )
    )


def _safe(exc: Exception) -> Exception:
    """``exc``, marked as one of our hooks' errors, whose message quotes no value."""
    exc._cardkit_safe = True  # type: ignore[attr-defined]
    return exc


def _kind_of(value: Any) -> str:
    """What ``value`` is, without its content (for messages about a log's values)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def _bounded(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _strict_int(value: Any, _: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _safe(TypeError(f"expected an integer, not {_kind_of(value)}"))
    return value


def _strict_str(value: Any, _: Any) -> str:
    if not isinstance(value, str):
        raise _safe(TypeError(f"expected a string, not {_kind_of(value)}"))
    return value


def _strict_bool(value: Any, _: Any) -> bool:
    if not isinstance(value, bool):
        raise _safe(TypeError(f"expected true or false, not {_kind_of(value)}"))
    return value


_converter = cattrs.Converter(forbid_extra_keys=True)
_converter.register_unstructure_hook(Card, lambda card: card.code)
_converter.register_structure_hook(Card, _structure_card)
_converter.register_structure_hook(int, _strict_int)
_converter.register_structure_hook(str, _strict_str)
_converter.register_structure_hook(bool, _strict_bool)


_TYPE_NAMES: dict[type, str] = {}


def type_name(cls: type) -> str:
    """The ``"type"`` tag of an action or event class: its name in snake_case."""
    name = _TYPE_NAMES.get(cls)
    if name is None:
        # cached: the regex cost about a quarter of dumps
        name = _TYPE_NAMES[cls] = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
    return name


# Keyed by the classes themselves (never by id(rules): a dropped rules object's address
# can be reused by a new one, which then got a stale table). A table is a pure function
# of its key, so entries never go stale; the key keeps the classes alive, which they
# are anyway while any of their instances exist.
_TYPE_TABLES: dict[tuple[str, tuple[type, ...]], dict[str, type]] = {}


def _types(rules: AnyRules, kind: str) -> dict[str, type]:
    classes = rules.action_types + (Shuffle, Pick) if kind == "action" else rules.event_types
    key = (kind, classes)
    cached = _TYPE_TABLES.get(key)
    if cached is not None:
        return cached
    table: dict[str, type] = {}
    for cls in classes:
        name = type_name(cls)
        if name in table and table[name] is not cls:
            raise LogError(f"{rules.name}: two {kind} types share the name {name!r}")
        table[name] = cls
    _TYPE_TABLES[key] = table
    return table


class _Slow(Exception):
    """The fast structurer declines: cattrs decides (and words the error)."""


_Field = Callable[[Any], Any]


def _fast_field(annotation: Any) -> _Field:
    """A converter for one field that accepts exactly what the cattrs hooks above accept
    (and returns the same value), raising :class:`_Slow` for anything else."""
    if annotation is Card:
        interned = Card._interned

        def card(value: Any) -> Any:
            found = interned.get(value) if isinstance(value, str) else None
            if found is None:
                raise _Slow
            return found

        return card
    if annotation is int:

        def integer(value: Any) -> Any:
            if type(value) is not int:
                raise _Slow
            return value

        return integer
    if annotation is str or annotation is bool:
        exact = annotation

        def plain(value: Any) -> Any:
            if type(value) is not exact:
                raise _Slow
            return value

        return plain
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _fast_field(args[0])

        def items(value: Any) -> Any:
            if type(value) is not list:
                raise _Slow
            return tuple([item(v) for v in value])

        return items
    if (origin is Union or origin is types.UnionType) and len(args) == 2 and type(None) in args:
        inner = _fast_field(args[0] if args[1] is type(None) else args[1])

        def optional(value: Any) -> Any:
            return None if value is None else inner(value)

        return optional
    if origin is Literal and all(type(a) is str for a in args):
        allowed = frozenset(args)

        def literal(value: Any) -> Any:
            if type(value) is not str or value not in allowed:
                raise _Slow
            return value

        return literal
    # any other type: cattrs's own hook for it, called directly (no dispatch per record)
    hook = _converter.get_structure_hook(annotation)

    def other(value: Any) -> Any:
        try:
            return hook(value, annotation)
        except Exception:  # noqa: BLE001 - cattrs redoes the record and words the error
            raise _Slow from None

    return other


def _describe(exc: BaseException) -> str:
    """What is wrong, without quoting a value of the log: our own hooks' messages (which
    never quote one), else the kind of error and the field it is in."""
    if isinstance(exc, cattrs.BaseValidationError):
        inner = exc.exceptions
        parts = sorted({_describe(e) for e in inner}) if inner else [type(exc).__name__]
        return "; ".join(parts[:5]) + (f"; and {len(parts) - 5} more" if len(parts) > 5 else "")
    where = ""
    for note in getattr(exc, "__notes__", ()):
        name = getattr(note, "name", None)
        if isinstance(name, str) and name.isidentifier():
            where = f" (field {name})"
            break
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        return f"unknown key(s) for {exc.cl.__name__}"
    if isinstance(exc, KeyError):
        return f"a field is missing{where}"
    if isinstance(exc, (NotationError, TypeError)) and getattr(exc, "_cardkit_safe", False):
        return f"{exc}{where}"
    return f"{type(exc).__name__}{where}"


def _optional_of(annotation: Any) -> Any:
    """``X`` for ``X | None``, else None."""
    args = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    if (origin is Union or origin is types.UnionType) and len(args) == 2 and type(None) in args:
        return args[0] if args[1] is type(None) else args[1]
    return None
