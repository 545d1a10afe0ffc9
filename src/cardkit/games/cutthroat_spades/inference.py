"""Cutthroat Spades determinization hooks: rebuilding a state from zones, and voids.

Used by :mod:`cardkit.core.resample` through ``CutthroatSpadesRules.with_zones`` and
``CutthroatSpadesRules.constraints``.
"""

from __future__ import annotations

from typing import Any, Sequence

from cardkit.cards import SUITS, Card, Suit, sort_cards, standard_deck
from cardkit.core.resample import Constraint
from cardkit.core.rules import Zone
from cardkit.games.cutthroat_spades.events import (
    CardPlayed,
    CardsDealt,
    HandsDealt,
    SpadesBroken,
    TrickWon,
)
from cardkit.games.cutthroat_spades.state import CutthroatState, replace

__all__ = ["with_zones", "constraints"]

_JOKERS = tuple(Card(code) for code in ("RJ", "BJ", "XJ"))


def _suit(card: Card) -> Suit:
    # Jokers count as spades (rule 2).
    return "S" if card.suit is None else card.suit


_OF_SUIT: dict[Suit, frozenset[Card]] = {
    s: frozenset(c for c in standard_deck() + _JOKERS if _suit(c) == s) for s in SUITS
}


def with_zones(state: CutthroatState, zones: tuple[Zone, ...]) -> CutthroatState:
    """``state`` with the cards of ``zones`` (in ``CutthroatSpadesRules.zones`` order): the
    undealt deck and the hands are replaced; removed, trick and won cards are public."""
    n = state.config.players
    hands = tuple(sort_cards(zones[2 + s].cards) for s in range(n))
    return replace(state, deck=zones[0].cards, hands=hands)


def constraints(state: CutthroatState, seat: int, events: Sequence[Any]) -> tuple[Constraint, ...]:
    """Voids of this hand: a seat that did not follow the suit led holds none of it (a
    joker counts as a spade); a seat that led a spade or joker before spades were broken
    held only spades and jokers."""
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if isinstance(events[i], (CardsDealt, HandsDealt)):
            start = i + 1
            break
    voids: dict[int, set[Suit]] = {}
    trick: list[Card] = []
    broken = False
    for event in events[start:]:
        if isinstance(event, CardPlayed):
            card = event.card
            if trick:
                led = _suit(trick[0])
                if _suit(card) != led:
                    voids.setdefault(event.seat, set()).add(led)
            elif _suit(card) == "S" and not broken:
                voids.setdefault(event.seat, set()).update(("H", "D", "C"))
            trick.append(card)
        elif isinstance(event, SpadesBroken):
            broken = True
        elif isinstance(event, TrickWon):
            trick = []
    out = []
    for who in sorted(voids):
        if who == seat:
            continue
        size = len(state.hands[who])
        for suit in SUITS:
            if suit in voids[who]:
                out.append(Constraint("hand", who, _OF_SUIT[suit], size))
    return tuple(out)
