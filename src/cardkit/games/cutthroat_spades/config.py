"""Options of Cutthroat Spades: presets, individual overrides, validation (docs/games/cutthroat-spades.md: Presets, Options)."""

from __future__ import annotations

from typing import Any, Final, Literal, Mapping

import attrs

from cardkit.core.config import check_players, reject_inapplicable
from cardkit.core.options import OptionSpec, check_known, option_at_fault
from cardkit.errors import ConfigError

__all__ = ["CutthroatConfig", "PRESETS", "PRIZE_JACK_CODES", "OPTIONS", "OPTION_NAMES", "make_config"]

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

OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec("preset", "str", "official", "the preset the other options default from",
               choices=tuple(PRESETS)),
    OptionSpec("target", "int", 500, "points that win a game (default from the preset)", minimum=1),
    OptionSpec("bags", "str", "limit", "how bags (overtricks) are scored: a bag-out at bag_limit, or minus 10 each",
               choices=("limit", "each_minus_10")),
    OptionSpec("bag_limit", "int", 10, "the bag count that bags out (bags=limit only; default from the preset)",
               minimum=1, nullable=True),
    OptionSpec("bag_out", "str", "reset", "what a bag-out leaves: reset the count or carry the rest (bags=limit only)",
               choices=("reset", "carry")),
    OptionSpec("blind_six_per_game", "int", 1, "blind-six bids each player may make in one game (null: no limit)",
               minimum=1, nullable=True),
    OptionSpec("prize_jacks", "list", ["JD", "JC"], "the prize jacks in play: distinct codes among JD, JC, JH (default from the preset)",
               choices=None),
    OptionSpec("wins_needed", "int", 5, "games (tokens) that win the tournament (default from the preset)", minimum=1),
    OptionSpec("jokers", "int", 0, "jokers in the five-player layout (non-zero only with 5 players)", choices=(0, 2, 3)),
    OptionSpec("max_hands", "int", None, "the most hands in one game (null: no limit)",
               minimum=1, nullable=True),
    OptionSpec("mercy", "int", None, "a game also ends when a score is at or below -mercy (null: off)",
               minimum=1, nullable=True),
)  # fmt: skip
"""Every Cutthroat Spades option: the schema ``config`` validates with (defaults are the
``official`` preset's; another preset changes them)."""

OPTION_NAMES: Final[tuple[str, ...]] = tuple(spec.name for spec in OPTIONS)
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
    check_known(GAME, options, OPTIONS)
    spec = {s.name: s for s in OPTIONS}
    preset_name = options.get("preset", "official")
    if not isinstance(preset_name, str) or preset_name not in PRESETS:
        raise ConfigError(
            f"unknown preset {preset_name!r} for {GAME}; presets are: {', '.join(PRESETS)}",
            "preset",
            preset_name,
        )
    base = PRESETS[preset_name]

    def get(name: str, default: Any) -> Any:
        return spec[name].check(options.get(name, default))

    target = int(get("target", base["target"]))
    bags: BagsMode = get("bags", base["bags"])
    if bags == "limit":
        raw_limit = options.get("bag_limit", base["bag_limit"])
        if raw_limit is None and "bag_limit" not in options:
            raw_limit = _DEFAULT_BAG_LIMIT
        # None is allowed in the schema only for bags="each_minus_10" (no bag count)
        bag_limit: int | None = attrs.evolve(spec["bag_limit"], nullable=False).check(raw_limit)
        bag_out: BagOut = get("bag_out", spec["bag_out"].default)
    else:
        reject_inapplicable("bag_limit", options, None, 'bags="each_minus_10" has no bag count')
        reject_inapplicable("bag_out", options, "reset", 'bags="each_minus_10" has no bag count')
        bag_limit = None
        bag_out = "reset"
    b6: int | None = get("blind_six_per_game", base["blind_six_per_game"])
    with option_at_fault("prize_jacks", options):
        jacks = _prize_jacks(options.get("prize_jacks", base["prize_jacks"]))
    wins = int(get("wins_needed", base["wins_needed"]))
    if n == 5:
        jokers = int(get("jokers", spec["jokers"].default))
    else:
        reject_inapplicable("jokers", options, 0, f"jokers are only used with 5 players, not {n}")
        jokers = 0
    max_hands: int | None = get("max_hands", spec["max_hands"].default)
    mercy: int | None = get("mercy", spec["mercy"].default)
    return CutthroatConfig(
        players=n, preset=preset_name, target=target, bags=bags, bag_limit=bag_limit,
        bag_out=bag_out, blind_six_per_game=b6, prize_jacks=jacks, wins_needed=wins,
        jokers=jokers, max_hands=max_hands, mercy=mercy,
    )
