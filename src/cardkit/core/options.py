"""Option schemas: what every option of a game is, the one source its config validation reads.

Each built-in game lists its options as :class:`OptionSpec` values (``rules.options()``).
Its ``config`` validates through them (:meth:`OptionSpec.check`, :func:`check_known`), so
the schema a lobby builds its form from cannot drift from what the game accepts. Checks
that span several options (a hand size that must fit the deck, an option that applies
only in one mode) stay in the game's config module and say so in the spec's ``doc``.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Literal, Mapping, Sequence

import attrs

from cardkit.core.config import boolean, choice, int_in_range, reject_unknown
from cardkit.errors import ConfigError

__all__ = ["OptionSpec", "OptionType", "check_known", "options_json", "spec_named", "option_at_fault", "options_of"]

OptionType = Literal["bool", "int", "str", "list", "mapping"]
"""The JSON type of an option's value (``"int"`` options may also allow ``null``)."""


@attrs.frozen
class OptionSpec:
    """One option of a game: its name, JSON type, default, allowed values and a one-line doc.

    ``default`` is the value used when the option is not given; ``None`` with
    ``default_depends`` set means the default depends on the player count (the doc says
    how). ``choices`` lists the allowed values of a ``"str"`` (or fixed-set ``"int"``)
    option; ``minimum``/``maximum`` bound an ``"int"`` option (``maximum`` ``None``: no
    upper bound, or one that depends on the player count); ``nullable`` says whether
    ``None`` (JSON ``null``) is an allowed value.
    """

    name: str
    type: OptionType
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    default_depends: bool = False

    def check(self, value: object, maximum: int | None = None) -> Any:
        """``value`` validated against this spec; :class:`ConfigError` naming the option.

        ``maximum`` overrides the spec's upper bound (for a bound that depends on the
        player count). ``"list"`` and ``"mapping"`` options are returned as given: their
        game checks their items.
        """
        if value is None and self.nullable:
            return None
        if self.choices is not None:
            return choice(self.name, value, self.choices)
        if self.type == "bool":
            return boolean(self.name, value)
        if self.type == "int":
            return int_in_range(
                self.name,
                value,
                self.minimum if self.minimum is not None else -(2**63),
                maximum if maximum is not None else self.maximum,
            )
        return value

    def to_json(self) -> dict[str, Any]:
        """This spec as a JSON-compatible dict (the form :func:`options_json` lists)."""
        return {
            "name": self.name,
            "type": self.type,
            "default": _jsonable(self.default),
            "default_depends_on_players": self.default_depends,
            "choices": None if self.choices is None else [_jsonable(c) for c in self.choices],
            "minimum": self.minimum,
            "maximum": self.maximum,
            "nullable": self.nullable,
            "doc": self.doc,
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


def check_known(game: str, options: Mapping[str, Any], specs: Sequence[OptionSpec]) -> None:
    """:class:`ConfigError` if ``options`` has a name that no spec of ``specs`` has."""
    reject_unknown(game, options, [s.name for s in specs])


def spec_named(specs: Sequence[OptionSpec], name: str) -> OptionSpec:
    """The spec called ``name``; :class:`ConfigError` if there is none."""
    for spec in specs:
        if spec.name == name:
            return spec
    raise ConfigError(f"no option named {name!r}", name)


def options_json(specs: Sequence[OptionSpec]) -> list[dict[str, Any]]:
    """Every spec as JSON-compatible data, in order (what ``cardkit rules GAME --json`` prints)."""
    return [s.to_json() for s in specs]


@contextmanager
def option_at_fault(name: str, options: Mapping[str, Any]) -> Iterator[None]:
    """Fill in ``option`` (``name``) and ``value`` (the value given) of a
    :class:`ConfigError` raised inside the block that does not name its option yet (the
    checks of list and mapping options raise plain sentences)."""
    try:
        yield
    except ConfigError as exc:
        if exc.option is None:
            exc.option = name
            exc.value = options.get(name)
        raise


def options_of(rules: object) -> tuple[OptionSpec, ...]:
    """``rules.options()`` (optional in the :class:`~cardkit.core.rules.Rules` protocol);
    ``()`` for a game that does not describe its options."""
    method = getattr(rules, "options", None)
    if not callable(method):
        return ()
    specs = method()
    if not isinstance(specs, tuple) or not all(isinstance(s, OptionSpec) for s in specs):
        raise ConfigError(f"options() of {getattr(rules, 'name', rules)!r} must return a tuple of OptionSpec")
    return specs
