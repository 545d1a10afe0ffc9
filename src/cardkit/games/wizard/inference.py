"""Wizard determinization hooks: rebuilding a state from zones, and voids.

Used by :mod:`cardkit.core.resample` through ``WizardRules.with_zones`` and
``WizardRules.constraints``.
"""

from __future__ import annotations

from typing import Any, Sequence

from cardkit.cards import SUITS, Card, Suit, sort_cards, standard_deck
from cardkit.core.resample import Constraint
from cardkit.core.rules import Zone
from cardkit.games.wizard.events import CardPlayed, HandDealt, RoundDealt, RoundStarted, TrickWon
from cardkit.games.wizard.state import WizardState
from cardkit.games.wizard.tricks import suit_to_follow

__all__ = ["with_zones", "constraints"]

_NUMBER_CARDS = {s: frozenset(c for c in standard_deck() if c.suit == s) for s in SUITS}


def with_zones(state: WizardState, zones: tuple[Zone, ...]) -> WizardState:
    """``state`` with the cards of ``zones`` (in ``WizardRules.zones`` order): the stock
    and the hands are replaced; the turned card, the trick and won cards are public."""
    n = state.config.players
    hands = tuple(sort_cards(zones[2 + s].cards) for s in range(n))
    return WizardState(
        state.config, state.phase, state.round, state.dealer, state.turn, hands,
        zones[0].cards, state.turned, state.trump, state.bids, state.tricks_won, state.trick,
        state.last_trick, state.last_winner, state.won, state.scores, state.history,
    )  # fmt: skip


def constraints(state: WizardState, seat: int, events: Sequence[Any]) -> tuple[Constraint, ...]:
    """Voids of this round: a seat that played a suited card of another suit than the one
    to follow holds no number card of that suit (Wizards and Jesters may always be
    played, so they are not ruled out)."""
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if isinstance(events[i], (RoundDealt, HandDealt, RoundStarted)):
            start = i + 1
            break
    voids: dict[int, set[Suit]] = {}
    trick: list[Card] = []
    for event in events[start:]:
        if isinstance(event, CardPlayed):
            led = suit_to_follow(trick)
            card = event.card
            if led is not None and card.suit is not None and card.suit != led:
                voids.setdefault(event.seat, set()).add(led)
            trick.append(card)
        elif isinstance(event, TrickWon):
            trick = []
    out = []
    for who in sorted(voids):
        if who == seat:
            continue
        size = len(state.hands[who])
        for suit in sorted(voids[who]):
            out.append(Constraint("hand", who, _NUMBER_CARDS[suit], size))
    return tuple(out)
