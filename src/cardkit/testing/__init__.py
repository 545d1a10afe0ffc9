"""Generic checks any game (ours or a user's) can run, and random play helpers.

:func:`check_invariants` plays a random game and checks, entry by entry: card
conservation through zones, no hidden-information leak in views and per-seat events,
accepted ⇔ listed in ``legal_actions()``, notation and JSON round trips, determinism,
``replay(loads(dumps(log)))`` equality and exact undo. Hypothesis strategies live in
:mod:`cardkit.testing.strategies` (needs the ``testing`` extra).
"""

from cardkit.testing.invariants import (
    InvariantReport,
    InvariantViolation,
    Policy,
    cards_mentioned,
    check_invariants,
    random_playout,
    safe_undo_leaks,
    tampered_chance_log,
    visible_counts,
)
from cardkit.testing.leaks import card_tokens, excess_mentions

__all__ = [
    "InvariantReport",
    "InvariantViolation",
    "Policy",
    "cards_mentioned",
    "check_invariants",
    "random_playout",
    "safe_undo_leaks",
    "tampered_chance_log",
    "visible_counts",
    "card_tokens",
    "excess_mentions",
]
