"""Spacc 'u Mazz options (docs/games/spacc-u-mazz.md: Options) and their validation."""

from __future__ import annotations

from typing import Any, Final, Literal, Mapping

import attrs

from cardkit.cards import RANK_CHARS
from cardkit.core.config import check_players
from cardkit.core.options import OptionSpec, check_known, option_at_fault
from cardkit.errors import ConfigError

__all__ = [
    "SpaccConfig",
    "make_config",
    "OPTIONS",
    "OPTION_NAMES",
    "DEFAULT_CARD_POINTS",
    "DEFAULT_FIXED_POINTS",
    "GAME",
]

GAME: Final = "spacc-u-mazz"
"""The registry name of the game."""


DEFAULT_CARD_POINTS: Final[tuple[int, ...]] = (
    # 2  3   4   5  6  7  8  9  T  J  Q  K  A   (index rank - 2) -- rule 24, provisional
    1, 11, 10, 9, 8, 7, 6, 5, 1, 4, 3, 2, 1,
)
"""Rule 24 card points (provisional), indexed by ``rank - 2``."""

DEFAULT_FIXED_POINTS: Final[tuple[tuple[int, ...], ...]] = (
    (25, 0),  # 2 players
    (25, 10, 0),  # 3 players
    (25, 15, 5, 0),  # 4 players
)
"""Rule 26 fixed points by place for 2, 3 and 4 players (provisional except 2p first = 25)."""

OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec("rank_order", "str", "standard", "the order of the ordinary ranks: standard (J<Q<K) or as_printed (J<K<Q)",
               choices=("standard", "as_printed")),
    OptionSpec("card_points", "mapping", {RANK_CHARS[i]: p for i, p in enumerate(DEFAULT_CARD_POINTS)},
               "points per rank left in hand (rank -> integer >= 0; ranks not given keep their default)"),
    OptionSpec("fixed_points", "mapping", {str(n + 2): list(t) for n, t in enumerate(DEFAULT_FIXED_POINTS)},
               "points per place by player count ('2'..'4' -> one integer >= 0 per place), or the list for this count"),
    OptionSpec("target_score", "int", None, "play hands until someone has this many points (null: one hand)",
               minimum=1, nullable=True),
    OptionSpec("max_turns", "int", 2000, "turns in one hand before the guard ends it (a red-joker decision is part of its turn)", minimum=1),
)  # fmt: skip
"""Every Spacc 'u Mazz option: the schema ``config`` validates with."""

OPTION_NAMES: Final = tuple(spec.name for spec in OPTIONS)
"""Every option name accepted by the Spacc 'u Mazz config."""


@attrs.frozen
class SpaccConfig:
    """Every Spacc 'u Mazz option, resolved.

    ``card_points`` is indexed by ``rank - 2`` (13 entries); ``fixed_points`` holds the
    tables for 2, 3 and 4 players in that order (one int per place, last place last).
    """

    players: int
    rank_order: Literal["standard", "as_printed"] = "standard"
    card_points: tuple[int, ...] = DEFAULT_CARD_POINTS
    fixed_points: tuple[tuple[int, ...], ...] = DEFAULT_FIXED_POINTS
    target_score: int | None = None
    max_turns: int = 2000

    @property
    def places_points(self) -> tuple[int, ...]:
        """The fixed points by place for this config's player count."""
        return self.fixed_points[self.players - 2]

    def as_options(self) -> dict[str, Any]:
        """Every option but ``players``, JSON-compatible (tables as mappings of strings)."""
        return {
            "rank_order": self.rank_order,
            "card_points": {RANK_CHARS[i]: p for i, p in enumerate(self.card_points)},
            "fixed_points": {str(n + 2): list(t) for n, t in enumerate(self.fixed_points)},
            "target_score": self.target_score,
            "max_turns": self.max_turns,
        }


def _rank_index(key: object) -> int:
    """Index ``rank - 2`` of a card_points key: a rank character (``"T"``/``"10"``) or 2..14."""
    if isinstance(key, int) and not isinstance(key, bool):
        if 2 <= key <= 14:
            return key - 2
    elif isinstance(key, str):
        norm = key.strip().upper()
        if norm == "10":
            norm = "T"
        if len(norm) == 1 and norm in RANK_CHARS:
            return RANK_CHARS.index(norm)
    raise ConfigError(
        f"option 'card_points': {key!r} is not a rank; use 2-9, T (or 10), J, Q, K, A"
    )


def _card_points(value: object) -> tuple[int, ...]:
    if not isinstance(value, Mapping):
        raise ConfigError(
            "option 'card_points' must be a mapping rank -> points, e.g. {'3': 11, 'A': 1}"
        )
    points = list(DEFAULT_CARD_POINTS)
    seen: set[int] = set()
    for key, pts in value.items():
        index = _rank_index(key)
        if index in seen:
            raise ConfigError(f"option 'card_points': rank {RANK_CHARS[index]} is given twice")
        seen.add(index)
        if not isinstance(pts, int) or isinstance(pts, bool) or pts < 0:
            raise ConfigError(
                f"option 'card_points': points of rank {RANK_CHARS[index]} must be an "
                f"integer >= 0, not {pts!r}"
            )
        points[index] = pts
    return tuple(points)


def _places(count: int, value: object) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)) or len(value) != count:
        raise ConfigError(
            f"option 'fixed_points': the {count}-player table must be a list of {count} "
            f"integers (one per place, last place last), not {value!r}"
        )
    for pts in value:
        if not isinstance(pts, int) or isinstance(pts, bool) or pts < 0:
            raise ConfigError(
                f"option 'fixed_points': points must be integers >= 0, not {pts!r}"
            )
    return tuple(value)


def _fixed_points(value: object, players: int) -> tuple[tuple[int, ...], ...]:
    tables = list(DEFAULT_FIXED_POINTS)
    if isinstance(value, (list, tuple)):  # shorthand: the table of the configured count
        tables[players - 2] = _places(players, value)
        return tuple(tables)
    if not isinstance(value, Mapping):
        raise ConfigError(
            "option 'fixed_points' must be a mapping player count -> list of points per "
            "place (e.g. {'3': [25, 10, 0]}) or the list for the configured player count"
        )
    seen: set[int] = set()
    for key, places in value.items():
        count: int | None = None
        if isinstance(key, int) and not isinstance(key, bool):
            count = key
        elif isinstance(key, str) and key.strip().isascii() and key.strip().isdigit() and len(key) < 20:
            count = int(key.strip())
        if count not in (2, 3, 4):
            raise ConfigError(
                f"option 'fixed_points': {key!r} is not a player count (2, 3 or 4)"
            )
        assert count is not None
        if count in seen:
            raise ConfigError(f"option 'fixed_points': player count {count} is given twice")
        seen.add(count)
        tables[count - 2] = _places(count, places)
    return tuple(tables)


def make_config(players: int, options: Mapping[str, Any]) -> SpaccConfig:
    """Validate ``options`` and resolve defaults; :class:`ConfigError` on bad input."""
    check_known(GAME, options, OPTIONS)
    n = check_players(GAME, players, 2, 4)
    spec = {s.name: s for s in OPTIONS}
    rank_order: Literal["standard", "as_printed"] = spec["rank_order"].check(
        options.get("rank_order", spec["rank_order"].default)
    )
    with option_at_fault("card_points", options):
        card_points = (
            _card_points(options["card_points"]) if "card_points" in options else DEFAULT_CARD_POINTS
        )
    with option_at_fault("fixed_points", options):
        fixed_points = (
            _fixed_points(options["fixed_points"], n)
            if "fixed_points" in options
            else DEFAULT_FIXED_POINTS
        )
    target_score: int | None = spec["target_score"].check(
        options.get("target_score", spec["target_score"].default)
    )
    max_turns = int(spec["max_turns"].check(options.get("max_turns", spec["max_turns"].default)))
    if target_score is not None and fixed_points[n - 2][0] <= 0:
        raise ConfigError(
            "option 'target_score' needs fixed points > 0 for first place "
            f"(the {n}-player table of 'fixed_points'), or a match might never end",
            "target_score",
            target_score,
        )
    return SpaccConfig(
        players=n,
        rank_order=rank_order,
        card_points=card_points,
        fixed_points=fixed_points,
        target_score=target_score,
        max_turns=max_turns,
    )
