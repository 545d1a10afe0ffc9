"""Wizard options: ``forbid_even_bids`` and ``rounds``."""

from __future__ import annotations

from typing import Any

import attrs

from cardkit.core.config import boolean, check_players, optional_int_in_range, reject_unknown

__all__ = ["WizardConfig", "make_config", "MIN_PLAYERS", "MAX_PLAYERS", "DECK_SIZE"]

MIN_PLAYERS = 3
"""Rule 1: at least three players."""

MAX_PLAYERS = 6
"""Rule 1: at most six players."""

DECK_SIZE = 60
"""Rule 2: 52 suited cards, 4 Wizards, 4 Jesters."""

_OPTIONS = ("forbid_even_bids", "rounds")


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
    reject_unknown("wizard", options, _OPTIONS)
    n = check_players("wizard", players, MIN_PLAYERS, MAX_PLAYERS)
    forbid = boolean("forbid_even_bids", options.get("forbid_even_bids", False))
    full = DECK_SIZE // n
    rounds = optional_int_in_range("rounds", options.get("rounds"), 1, full)
    return WizardConfig(players=n, forbid_even_bids=forbid, rounds=full if rounds is None else rounds)
