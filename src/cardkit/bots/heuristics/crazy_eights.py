"""Crazy Eights: shed costly cards of my long suits, keep eights, name my longest suit."""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Sequence

from cardkit.cards import SUITS, Card, Suit
from cardkit.core.seat import SeatState
from cardkit.games.crazy_eights.actions import Draw, Pass, Play
from cardkit.games.crazy_eights.state import CrazyEightsState

__all__ = ["choose", "decide"]

Reason = Callable[[], str]


def _points(card: Card) -> int:
    return 50 if card.rank == 8 else 10 if card.rank >= 10 else card.rank


def _longest_suit(hand: list[Card]) -> Suit:
    counts = Counter(c.suit for c in hand if c.rank != 8)
    return max(SUITS, key=lambda s: (counts.get(s, 0), -SUITS.index(s)))


def choose(ss: SeatState) -> tuple[Any, str]:
    """The action and a one-line reason."""
    action, reason = decide(ss.masked, ss.seat, ss.legal_actions)
    return action, reason()


def decide(state: CrazyEightsState, seat: int, legal: Sequence[Any]) -> tuple[Any, Reason]:
    """The strategy on a full state (``seat`` to act, ``legal`` its actions): the action
    and its reason, built only when called (ISMCTS playouts call this in their inner loop
    on determinized states and never ask why)."""
    hand = list(state.hands[seat])
    plays = [a for a in legal if isinstance(a, Play)]
    plain = [a for a in plays if a.card.rank != 8]
    if plain:
        counts = Counter(c.suit for c in hand)
        best = max(plain, key=lambda a: (counts[a.card.suit], _points(a.card), -a.card.sort_key))
        return best, lambda: f"play {best.card}: sheds {_points(best.card)} points and keeps my eights"
    eights = [a for a in plays if a.card.rank == 8]
    if eights:
        rest = list(hand)
        rest.remove(eights[0].card)
        suit = _longest_suit(rest) if rest else None
        named = [a for a in eights if a.suit == suit] or eights
        pick = named[0]
        if pick.suit is None:
            return pick, lambda: f"play {pick.card}: my last card"
        return pick, lambda: f"play {pick.card} and name {pick.suit}: my longest suit"
    for a in legal:
        if isinstance(a, Draw):
            return a, lambda: "draw: no card I can play"
    passing = next(a for a in legal if isinstance(a, Pass))
    return passing, lambda: "pass: nothing to play and nothing to draw"
