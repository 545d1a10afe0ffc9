"""Field types of actions, checked at the boundary (``Game.play`` and replay).

An action is a value a host builds from untrusted input, so ``Blind(True)`` or
``Shuffle([...])`` must not slip into a game (and then into a log that no longer
loads). The check is generic: it reads the attrs field annotations of the action's
class once, builds one small checker per field and caches them per class, so every
game (a user's too) gets it for a dictionary lookup and a few ``isinstance`` calls.

Understood annotations: ``int`` (``bool`` excluded), ``bool``, ``str``, ``float``,
:class:`~cardkit.cards.Card`, enums (``Rank``), ``Literal[...]`` (``Suit``), ``None``,
``Optional``/unions, ``tuple[X, ...]`` and fixed ``tuple[X, Y]``, and any other class
(an ``isinstance`` check). Anything else (``Any``, unresolvable names) is not checked.
"""

from __future__ import annotations

import enum
import itertools
import types
import typing
from typing import Any, Callable, Final, Literal, Union

import attrs

from cardkit.core.records import is_frozen_record
from cardkit.errors import IllegalActionError

__all__ = ["CHECKED_ACTIONS", "check_fields", "describe_expected", "wrong_field"]

Check = Callable[[object], bool]
_FieldChecks = tuple[tuple[str, Check, str], ...]

_CACHE: dict[type, _FieldChecks] = {}


def _always(_: object) -> bool:
    return True


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _checker(annotation: Any) -> tuple[Check, str]:
    """A predicate for ``annotation`` and the words that describe it."""
    if annotation is Any or annotation is object:
        return _always, "anything"
    if annotation is None or annotation is type(None):
        return (lambda v: v is None), "None"
    if annotation is int:
        return _is_int, "an integer"
    if annotation is bool:
        return (lambda v: isinstance(v, bool)), "True or False"
    if annotation is float:
        return (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)), "a number"
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is Literal:
        allowed = tuple(args)
        shown = [a if isinstance(a, str) else repr(a) for a in allowed]
        words = shown[0] if len(shown) == 1 else "one of " + ", ".join(shown)
        if all(type(a) is str for a in allowed):
            # the common Literal of strings (a suit, a mode): one set lookup per check
            strings = frozenset(allowed)
            return (lambda v: type(v) is str and v in strings), words
        return (lambda v: any(type(v) is type(a) and v == a for a in allowed)), words
    if origin is Union or origin is types.UnionType:
        plain = tuple(type(None) if a is None else a for a in args)
        if all(isinstance(a, type) and a not in (int, bool, float) and typing.get_origin(a) is None for a in plain):
            # the common `Card | None`: one isinstance call (this runs on every Game.play)
            words = " or ".join("None" if a is type(None) else f"a {a.__name__}" for a in plain)
            return (lambda v: isinstance(v, plain)), words
        parts = [_checker(a) for a in args]
        checks = tuple(p[0] for p in parts)
        words = " or ".join(p[1] for p in parts)
        if len(args) == 2 and type(None) in args:
            # `X | None` (e.g. `Suit | None`): no generator per check
            inner = parts[0][0] if args[1] is type(None) else parts[1][0]
            return (lambda v: v is None or inner(v)), words
        return (lambda v: any(c(v) for c in checks)), words
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item, item_words = _checker(args[0])
            kind = args[0]
            if isinstance(kind, type) and kind not in (int, bool, float) and typing.get_origin(kind) is None:
                # a tuple of cards (a Play): isinstance called from C, no Python call per item
                kinds = itertools.repeat(kind)
                return (
                    lambda v: isinstance(v, tuple) and all(map(isinstance, v, kinds))
                ), f"a tuple of {_plural(item_words)}"
            # map, not a generator: this runs on every Game.play of a Play(cards) action
            return (
                lambda v: isinstance(v, tuple) and all(map(item, v))
            ), f"a tuple of {_plural(item_words)}"
        if not args:
            return (lambda v: isinstance(v, tuple)), "a tuple"
        parts = [_checker(a) for a in args]
        checks = tuple(p[0] for p in parts)
        return (
            lambda v: isinstance(v, tuple)
            and len(v) == len(checks)
            and all(c(x) for c, x in zip(checks, v))
        ), f"a tuple of ({', '.join(p[1] for p in parts)})"
    if origin is not None:
        # a parametrised container we do not model: check the container type only
        if isinstance(origin, type):
            return (lambda v: isinstance(v, origin)), f"a {origin.__name__}"
        return _always, "anything"
    if isinstance(annotation, type):
        if issubclass(annotation, enum.Enum):
            return (lambda v: isinstance(v, annotation)), f"a {annotation.__name__}"
        return (lambda v: isinstance(v, annotation)), f"a {annotation.__name__}"
    return _always, "anything"


def _plural(words: str) -> str:
    for article in ("a ", "an "):
        if words.startswith(article):
            return words[len(article):] + "s"
    return words


def _field_checks(cls: type) -> _FieldChecks:
    checks = _CACHE.get(cls)
    if checks is not None:
        return checks
    if not attrs.has(cls):
        checks = ()
    else:
        try:
            hints = typing.get_type_hints(cls)
        except Exception:  # noqa: BLE001 - unresolvable annotations are simply not checked
            hints = {}
        built = []
        for field in attrs.fields(cls):
            annotation = hints.get(field.name, field.type)
            if annotation is None or isinstance(annotation, str):
                continue
            check, words = _checker(annotation)
            if check is not _always:
                built.append((field.name, check, words))
        checks = tuple(built)
    _CACHE[cls] = checks
    return checks


def describe_expected(cls: type, field: str) -> str:
    """What the field ``field`` of action class ``cls`` must be, in words (for messages)."""
    for name, _, words in _field_checks(cls):
        if name == field:
            return words
    return "anything"


# Frozen actions that passed the check, by identity (the object itself is the value, so an
# id cannot be reused while it is here). Hosts and bots play the same few shared action
# objects again and again (legal_actions returns them), so most checks are one lookup.
# Only frozen attrs instances are kept: their fields cannot be reassigned after the check.
CHECKED_ACTIONS: dict[int, object] = {}
"""Frozen actions that passed :func:`check_fields`, by ``id`` (a caller on a hot path may
look an action up here before calling it; the check itself does too)."""
# Bounded, and shared by every game of the process (about 100 B an entry, under 1 MB
# full). Crazy Eights plays under 100 distinct actions, but Spacc 'u Mazz hands out
# thousands of distinct play objects (6,261 over 30 random 4-player hands): at 512
# entries 40% of its checks missed and the field check cost Game.play about 4%.
_CHECKED_LIMIT: Final = 8192


def wrong_field(action: object) -> str | None:
    """The first field of ``action`` whose value does not have its annotated type, in words
    that do not quote the value (``Pick.index must be an integer, not bool``); ``None`` if
    every field fits. For messages about a log's entries, which must not name a card."""
    cls = type(action)
    for name, check, words in _field_checks(cls):
        value = getattr(action, name)
        if not check(value):
            return f"{cls.__name__}.{name} must be {words}, not {type(value).__name__}"
    return None


def check_fields(action: object, seat: int | None = None) -> None:
    """:class:`IllegalActionError` naming the first field of ``action`` whose value does not
    have its annotated type (``Blind(True)``: ``Blind.nil`` must be ..., not True)."""
    if CHECKED_ACTIONS.get(id(action)) is action:
        return
    cls = type(action)
    checks = _CACHE.get(cls)
    if checks is None:
        checks = _field_checks(cls)
    for name, check, words in checks:
        value = getattr(action, name)
        if not check(value):
            shown = repr(value)
            if len(shown) > 60:
                shown = shown[:57] + "..."
            raise IllegalActionError(
                f"{cls.__name__}.{name} must be {words}, not {shown} ({type(value).__name__})",
                action,
                seat,
            )
    if is_frozen_record(action):
        if len(CHECKED_ACTIONS) >= _CHECKED_LIMIT:
            CHECKED_ACTIONS.clear()
        CHECKED_ACTIONS[id(action)] = action
