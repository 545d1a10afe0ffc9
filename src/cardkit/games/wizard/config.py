"""Wizard options: ``forbid_even_bids`` and ``rounds``."""

from __future__ import annotations

from typing import Any

import attrs

from cardkit.core.config import check_players
from cardkit.core.options import OptionSpec, check_known

__all__ = ["WizardConfig", "make_config", "OPTIONS", "MIN_PLAYERS", "MAX_PLAYERS", "DECK_SIZE"]

MIN_PLAYERS = 3
"""Rule 1: at least three players."""

MAX_PLAYERS = 6
"""Rule 1: at most six players."""

DECK_SIZE = 60
"""Rule 2: 52 suited cards, 4 Wizards, 4 Jesters."""

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("forbid_even_bids", "bool", False, "the dealer, bidding last, may not make the bids total the cards dealt"),
    OptionSpec("rounds", "int", None, "rounds to play, 1 to 60 / players (default: all of them)",
               minimum=1, nullable=True, default_depends=True),
)  # fmt: skip
"""Every Wizard option: the schema ``config`` validates with."""


@attrs.frozen
class WizardConfig:
    """A resolved Wizard configuration.

    ``rounds`` is always an int here (the default ``None`` resolves to ``60 // players``).
    """

    players: int
    forbid_even_bids: bool = False
    rounds: int = 20

    @property
    def max_rounds(self) -> int:
        """Rule 4: ``60 / players`` rounds in a full game."""
        return DECK_SIZE // self.players

    def as_options(self) -> dict[str, Any]:
        """Every option with its resolved, JSON-compatible value."""
        return {"forbid_even_bids": self.forbid_even_bids, "rounds": self.rounds}


def make_config(players: int, options: dict[str, Any]) -> WizardConfig:
    """Validate ``players`` and options (:class:`~cardkit.errors.ConfigError` on bad input)."""
    check_known("wizard", options, OPTIONS)
    n = check_players("wizard", players, MIN_PLAYERS, MAX_PLAYERS)
    forbid_spec, rounds_spec = OPTIONS
    forbid = bool(forbid_spec.check(options.get("forbid_even_bids", forbid_spec.default)))
    full = DECK_SIZE // n
    rounds = rounds_spec.check(options.get("rounds", rounds_spec.default), maximum=full)
    return WizardConfig(players=n, forbid_even_bids=forbid, rounds=full if rounds is None else rounds)
