"""Crazy Eights determinization hooks: rebuilding a state from zones, and what a pass proves.

Used by :mod:`cardkit.core.resample` through ``CrazyEightsRules.with_zones`` and
``CrazyEightsRules.constraints``.

Under these rules a seat may draw whenever the stock can give a card, playable card or
not, so a draw proves nothing; passing after a draw proves nothing either (the drawn card
may be kept). A pass *without* drawing is allowed only when the stock cannot give a card
and the seat holds no playable card: it proves that every card held then was neither an
8, nor of the suit to follow, nor of the top card's rank.
"""

from __future__ import annotations

from typing import Any, Sequence

import attrs

from cardkit.cards import Card, Suit, standard_deck
from cardkit.core.resample import Constraint
from cardkit.core.rules import CHANCE, Zone
from cardkit.games.crazy_eights.events import (
    CardPlayed,
    CardsDrawn,
    HandDealt,
    Passed,
)
from cardkit.games.crazy_eights.state import CrazyEightsState

__all__ = ["with_zones", "constraints"]

_DECK = standard_deck()


def with_zones(state: CrazyEightsState, zones: tuple[Zone, ...]) -> CrazyEightsState:
    """``state`` with the cards of ``zones`` (in ``CrazyEightsRules.zones`` order): the
    stock and the hands are replaced (hand order kept: a drawn card is last), and the card
    the seat to act drew this turn is the last card of its new hand."""
    n = state.config.players
    hands = tuple(zones[2 + s].cards for s in range(n))
    drawn = state.drawn
    to_act = state.to_act
    if drawn is not None and to_act is not None and to_act != CHANCE and hands[to_act]:
        drawn = hands[to_act][-1]
    return attrs.evolve(state, stock=zones[0].cards, hands=hands, drawn=drawn)


def _playable_set(active: Suit | None, top: Card) -> frozenset[Card]:
    return frozenset(c for c in _DECK if c.rank == 8 or c.suit == active or c.rank == top.rank)


def constraints(state: CrazyEightsState, seat: int, events: Sequence[Any]) -> tuple[Constraint, ...]:
    """For each pass without a draw this hand: the cards held then (those of them that can
    still be in the hand: the hand size then minus the cards played since) are not playable
    on the discard of that moment."""
    start = None
    for i in range(len(events) - 1, -1, -1):
        if isinstance(events[i], HandDealt):
            start = i
            break
    if start is None:
        return ()
    dealt = events[start]
    assert isinstance(dealt, HandDealt)
    sizes = list(dealt.hand_sizes)
    top: Card = dealt.starter
    active: Suit | None = dealt.starter.suit
    drew_this_turn: int | None = None
    # per seat: [forbidden cards, cards held then that may still be held]
    proofs: list[tuple[int, frozenset[Card], list[int]]] = []
    for event in events[start + 1 :]:
        if isinstance(event, CardPlayed):
            sizes[event.seat] -= 1
            top = event.card
            active = event.suit or event.card.suit
            drew_this_turn = None
            for who, _, left in proofs:
                if who == event.seat:
                    left[0] -= 1
        elif isinstance(event, CardsDrawn):
            sizes[event.seat] += event.count
            drew_this_turn = event.seat if event.next_seat is None else None
        elif isinstance(event, Passed):
            if drew_this_turn != event.seat:
                proofs.append((event.seat, _playable_set(active, top), [sizes[event.seat]]))
            drew_this_turn = None
    out = []
    for who, forbidden, left in proofs:
        if who != seat and left[0] > 0:
            out.append(Constraint("hand", who, forbidden, min(left[0], len(state.hands[who]))))
    return tuple(out)
