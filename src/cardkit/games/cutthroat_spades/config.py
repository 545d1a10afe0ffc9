"""Options of Cutthroat Spades: presets, individual overrides, validation (docs/games/cutthroat-spades.md: Presets, Options)."""

from __future__ import annotations

from typing import Any, Final, Literal, Mapping

import attrs

from cardkit.core.config import (
    check_players,
    choice,
    int_in_range,
    optional_int_in_range,
    reject_inapplicable,
    reject_unknown,
)
from cardkit.errors import ConfigError

__all__ = ["CutthroatConfig", "PRESETS", "PRIZE_JACK_CODES", "OPTION_NAMES", "make_config"]

GAME: Final = "cutthroat-spades"

BagsMode = Literal["limit", "each_minus_10"]
BagOut = Literal["reset", "carry"]

PRIZE_JACK_CODES: Final[tuple[str, ...]] = ("JD", "JC", "JH")
"""The possible prize jacks, in the canonical order used by the config."""

PRESETS: Final[Mapping[str, Mapping[str, Any]]] = {
    "official": {
        "target": 500, "bags": "limit", "bag_limit": 10, "blind_six_per_game": 1,
        "prize_jacks": ("JD", "JC"), "wins_needed": 5,
    },
    "short": {
        "target": 300, "bags": "limit", "bag_limit": 5, "blind_six_per_game": 1,
        "prize_jacks": ("JC",), "wins_needed": 3,
    },
    "short_minus_10": {
        "target": 300, "bags": "each_minus_10", "bag_limit": None, "blind_six_per_game": 1,
        "prize_jacks": ("JC",), "wins_needed": 3,
    },
    "long": {
        "target": 500, "bags": "limit", "bag_limit": 10, "blind_six_per_game": None,
        "prize_jacks": ("JD", "JC", "JH"), "wins_needed": 5,
    },
}
"""The presets of the rules (``bag_limit`` None where it does not apply)."""

OPTION_NAMES: Final[tuple[str, ...]] = (
    "preset", "target", "bags", "bag_limit", "bag_out", "blind_six_per_game",
    "prize_jacks", "wins_needed", "jokers", "max_hands", "mercy",
)
"""Every option name accepted by :func:`make_config`."""

_DEFAULT_BAG_LIMIT: Final = 10


@attrs.frozen
class CutthroatConfig:
    """A validated Cutthroat Spades configuration, every option resolved."""

    players: int
    preset: str = "official"
    target: int = 500
    bags: BagsMode = "limit"
    bag_limit: int | None = 10
    bag_out: BagOut = "reset"
    blind_six_per_game: int | None = 1
    prize_jacks: tuple[str, ...] = ("JD", "JC")
    wins_needed: int = 5
    jokers: int = 0
    max_hands: int | None = None
    mercy: int | None = None

    def as_options(self) -> dict[str, Any]:
        """Every option except ``players``, JSON-compatible (round-trips through ``config``)."""
        return {
            "preset": self.preset,
            "target": self.target,
            "bags": self.bags,
            "bag_limit": self.bag_limit,
            "bag_out": self.bag_out,
            "blind_six_per_game": self.blind_six_per_game,
            "prize_jacks": list(self.prize_jacks),
            "wins_needed": self.wins_needed,
            "jokers": self.jokers,
            "max_hands": self.max_hands,
            "mercy": self.mercy,
        }


def _prize_jacks(value: object) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise ConfigError(
            f"option 'prize_jacks' must be a list of distinct codes among "
            f"{', '.join(PRIZE_JACK_CODES)}, not {value!r}"
        )
    seen: list[str] = []
    for item in value:
        code = item.strip().upper() if isinstance(item, str) else item
        if code not in PRIZE_JACK_CODES or code in seen:
            raise ConfigError(
                f"option 'prize_jacks' must be a list of distinct codes among "
                f"{', '.join(PRIZE_JACK_CODES)}, not {value!r}"
            )
        seen.append(str(code))
    return tuple(c for c in PRIZE_JACK_CODES if c in seen)


def make_config(players: object, options: Mapping[str, Any]) -> CutthroatConfig:
    """Validate ``players`` and ``options`` (see docs/games/cutthroat-spades.md) into a config."""
    n = check_players(GAME, players, 3, 5)
    reject_unknown(GAME, options, OPTION_NAMES)
    preset_name = options.get("preset", "official")
    if not isinstance(preset_name, str) or preset_name not in PRESETS:
        raise ConfigError(
            f"unknown preset {preset_name!r} for {GAME}; presets are: {', '.join(PRESETS)}"
        )
    base = PRESETS[preset_name]
    target = int_in_range("target", options.get("target", base["target"]), 1)
    bags: BagsMode = choice("bags", options.get("bags", base["bags"]), ("limit", "each_minus_10"))
    if bags == "limit":
        raw_limit = options.get("bag_limit", base["bag_limit"])
        if raw_limit is None and "bag_limit" not in options:
            raw_limit = _DEFAULT_BAG_LIMIT
        bag_limit: int | None = int_in_range("bag_limit", raw_limit, 1)
        bag_out: BagOut = choice("bag_out", options.get("bag_out", "reset"), ("reset", "carry"))
    else:
        reject_inapplicable("bag_limit", options, None, 'bags="each_minus_10" has no bag count')
        reject_inapplicable("bag_out", options, "reset", 'bags="each_minus_10" has no bag count')
        bag_limit = None
        bag_out = "reset"
    b6 = optional_int_in_range(
        "blind_six_per_game", options.get("blind_six_per_game", base["blind_six_per_game"]), 1
    )
    jacks = _prize_jacks(options.get("prize_jacks", base["prize_jacks"]))
    wins = int_in_range("wins_needed", options.get("wins_needed", base["wins_needed"]), 1)
    if n == 5:
        jokers = choice("jokers", options.get("jokers", 0), (0, 2, 3))
    else:
        reject_inapplicable("jokers", options, 0, f"jokers are only used with 5 players, not {n}")
        jokers = 0
    max_hands = optional_int_in_range("max_hands", options.get("max_hands", None), 1)
    mercy = optional_int_in_range("mercy", options.get("mercy", None), 1)
    return CutthroatConfig(
        players=n, preset=preset_name, target=target, bags=bags, bag_limit=bag_limit,
        bag_out=bag_out, blind_six_per_game=b6, prize_jacks=jacks, wins_needed=wins,
        jokers=jokers, max_hands=max_hands, mercy=mercy,
    )
