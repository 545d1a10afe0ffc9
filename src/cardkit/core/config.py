"""Option validation shared by every game's ``Rules.config``.

Each helper returns the validated value or raises :class:`~cardkit.errors.ConfigError`
with a sentence naming the option and what is allowed.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence, TypeVar

from cardkit.core.records import is_frozen_record
from cardkit.errors import ConfigError

if TYPE_CHECKING:
    from cardkit.core.rules import Rules

__all__ = [
    "reject_unknown",
    "check_players",
    "choice",
    "boolean",
    "int_in_range",
    "optional_int_in_range",
    "reject_inapplicable",
    "resolve_config",
]

T = TypeVar("T")


def reject_unknown(game: str, options: Mapping[str, Any], known: Iterable[str]) -> None:
    """ConfigError if ``options`` has a key outside ``known``."""
    allowed = sorted(known)
    for key in sorted(options):
        if key not in allowed:
            raise ConfigError(
                f"unknown option {key!r} for {game}; its options are: {', '.join(allowed)}",
                key,
                options[key],
            )


def check_players(game: str, players: object, low: int, high: int) -> int:
    """``players`` as an int in ``low..high``."""
    if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= high:
        raise ConfigError(f"{game} is for {low} to {high} players, not {players!r}", "players", players)
    return players


def choice(name: str, value: object, allowed: Sequence[T]) -> T:
    """``value`` if it is one of ``allowed``."""
    for candidate in allowed:
        if type(value) is type(candidate) and value == candidate:
            return candidate
    shown = ", ".join(repr(a) for a in allowed)
    raise ConfigError(f"option {name!r} must be one of {shown}, not {value!r}", name, value)


def boolean(name: str, value: object) -> bool:
    """``value`` if it is a bool (no truthy strings or ints)."""
    if not isinstance(value, bool):
        raise ConfigError(f"option {name!r} must be True or False, not {value!r}", name, value)
    return value


def int_in_range(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` if it is an int in ``low..high`` (no upper bound when ``high`` is None)."""
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < low
        or (high is not None and value > high)
    ):
        span = f"{low}..{high}" if high is not None else f"an integer >= {low}"
        raise ConfigError(f"option {name!r} must be {span}, not {value!r}", name, value)
    return value


def optional_int_in_range(name: str, value: object, low: int, high: int | None = None) -> int | None:
    """``None`` or an int in ``low..high``."""
    if value is None:
        return None
    return int_in_range(name, value, low, high)


def reject_inapplicable(name: str, given: Mapping[str, Any], default: object, why: str) -> None:
    """ConfigError if option ``name`` was given explicitly with a non-default value.

    The library's convention: an option that does not apply to the chosen configuration
    is an error when given with a non-default value.
    """
    if name in given and given[name] != default:
        raise ConfigError(f"option {name!r} does not apply: {why}", name, given[name])


_PARAMETERS: dict[type, frozenset[str]] = {}


def _named_parameters(rules: Rules[Any, Any, Any, Any]) -> frozenset[str]:
    cls = type(rules)
    names = _PARAMETERS.get(cls)
    if names is None:
        try:
            signature = inspect.signature(cls.config)
        except (TypeError, ValueError, AttributeError):
            names = frozenset({"self", "players"})
        else:
            names = frozenset(
                p.name
                for p in signature.parameters.values()
                if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)
            ) | {"self", "players"}
        _PARAMETERS[cls] = names
    return names


def resolve_config(
    rules: Rules[Any, Any, Any, Any], players: object, options: Mapping[str, Any]
) -> Any:
    """``rules.config(players, **options)``, with option names checked first.

    An option name that is not a string, or that collides with a parameter of
    ``config`` itself (``self``, ``players``), would be a ``TypeError`` inside Python's
    call machinery; here it is a :class:`ConfigError` naming the option.
    """
    taken = _named_parameters(rules)
    for key in options:
        if not isinstance(key, str):
            raise ConfigError(f"option names must be strings, not {key!r}", None, key)
        if key in taken:
            raise ConfigError(f"{key!r} is not an option of {rules.name}", key, options[key])
    # A frozen config made from the same (typed) inputs is reused: validating the options
    # again costs about as much as ten moves of a game. Types are part of the key, so
    # True is never taken for 1; unhashable inputs are simply not cached.
    cache_key = (rules, type(players), players, tuple((k, type(v), v) for k, v in sorted(options.items())))
    try:
        config = _CONFIGS.get(cache_key)
    except TypeError:
        return rules.config(players, **options)  # type: ignore[arg-type]
    if config is None:
        config = rules.config(players, **options)  # type: ignore[arg-type]
        if is_frozen_record(config):
            if len(_CONFIGS) >= _CONFIGS_LIMIT:
                _CONFIGS.clear()
            _CONFIGS[cache_key] = config
    return config


_CONFIGS: dict[tuple[Any, ...], Any] = {}
_CONFIGS_LIMIT = 256
