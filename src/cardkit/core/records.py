"""Cheap construction of frozen attrs records, for reducers that build one per event.

A game state (or event) is an ordinary ``@attrs.frozen`` class: immutable (setting an
attribute raises ``attrs.exceptions.FrozenInstanceError``), compared by class and value
(records of different classes are never equal), hashable, pickled and read and written
by cattrs like any attrs class. What is cheaper is how a reducer builds one. A frozen
class forbids plain attribute stores, so its ``__init__`` stores every field through
``object.__setattr__``, which costs about 90 ns a field: 1.5-2 us for a state of 18
fields, built once per event.

:func:`maker` and :func:`replacer` build the record as an instance of a private
*twin* class instead: the same slots, no frozen ``__setattr__``, so each field is a plain
slot store of a few ns. The finished record then becomes an instance of the frozen class
by assigning ``__class__``, which Python allows between classes of the same memory
layout. The class must be declared without a ``__weakref__`` slot (Python refuses the
switch otherwise)::

    @attrs.frozen(weakref_slot=False)
    class State:
        seat: int
        ...

    make_state = maker(State)          # make_state(seat, ...) == State(seat, ...)
    replace_state = replacer(State)    # replace_state(s, seat=1) == attrs.evolve(s, seat=1)

The result is exactly a ``State``: same class, equal to and hashed like one built by
``State(...)``. Fields must be plain values: the fast paths run no converters, validators
or ``__attrs_post_init__``, which :func:`maker` refuses to skip.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

import attrs

__all__ = ["maker", "replacer", "is_frozen_record"]

T = TypeVar("T")

_MISSING = object()


@attrs.frozen
class _FrozenProbe:
    """Any frozen attrs class: its ``__setattr__`` is the one every frozen attrs class shares."""


_FROZEN_SETATTR = _FrozenProbe.__setattr__


def is_frozen_record(value: object) -> bool:
    """True if ``value`` is an instance of a frozen attrs class (its fields cannot be
    reassigned, so what was checked about it stays true)."""
    return type(value).__setattr__ is _FROZEN_SETATTR


def _twin(cls: type[Any]) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The field names of ``cls`` and a namespace with its mutable twin, after checking
    that ``cls`` has the shape described in the module docs."""
    if not attrs.has(cls) or cls.__bases__ != (object,) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} must be a slotted attrs class with no base class")
    slots = tuple(cls.__dict__["__slots__"])
    if "__weakref__" in slots or "__dict__" in slots:
        raise TypeError(f"{cls.__name__} must be declared with weakref_slot=False")
    if hasattr(cls, "__attrs_post_init__"):
        raise TypeError(f"{cls.__name__} has an __attrs_post_init__ that the fast paths would skip")
    names = []
    for field in attrs.fields(cls):
        if field.converter is not None or field.validator is not None or not field.init:
            raise TypeError(f"{cls.__name__}.{field.name} has a converter or a validator, or no init")
        names.append(field.name)
    if sorted(names) != sorted(slots):
        raise TypeError(f"the slots of {cls.__name__} are not exactly its fields")
    twin = type(f"_Building{cls.__name__}", (object,), {"__slots__": slots})
    probe: Any = object.__new__(twin)
    try:
        probe.__class__ = cls
    except TypeError as exc:  # a layout Python will not switch: refuse now, not per record
        raise TypeError(f"{cls.__name__} cannot be built through a twin: {exc}") from None
    return tuple(names), {"_new": object.__new__, "_twin": twin, "_cls": cls, "_MISSING": _MISSING}


def _compile(source: str, name: str, namespace: dict[str, Any], doc: str) -> Callable[..., Any]:
    exec(compile(source, f"<cardkit.core.records {name}>", "exec"), namespace)
    made: Callable[..., Any] = namespace[name]
    made.__doc__ = doc
    return made


def maker(cls: type[T]) -> Callable[..., T]:
    """A positional constructor of ``cls``: ``maker(cls)(a, b, ...) == cls(a, b, ...)``,
    every field given in order, built without ``cls.__init__`` (see the module docs)."""
    names, namespace = _twin(cls)
    stores = "".join(f"    _obj.{name} = {name}\n" for name in names)
    name = f"make_{cls.__name__}"
    source = (
        f"def {name}({', '.join(names)}):\n"
        f"    _obj = _new(_twin)\n{stores}    _obj.__class__ = _cls\n    return _obj\n"
    )
    return _compile(source, name, namespace, f"A new {cls.__name__} from every field, in order.")


def replacer(cls: type[T]) -> Callable[..., T]:
    """``replace(record, **changes)``: a copy of a ``cls`` record with the named fields
    changed, what ``attrs.evolve`` returns, for a fraction of its cost; an unknown field
    name is a ``TypeError``."""
    names, namespace = _twin(cls)
    stores = "".join(
        f"    _obj.{name} = _old.{name} if {name} is _MISSING else {name}\n" for name in names
    )
    name = f"replace_{cls.__name__}"
    source = (
        f"def {name}(_old, *, {', '.join(f'{n}=_MISSING' for n in names)}):\n"
        f"    _obj = _new(_twin)\n{stores}    _obj.__class__ = _cls\n    return _obj\n"
    )
    return _compile(source, name, namespace, f"A copy of a {cls.__name__} with the given fields changed.")
