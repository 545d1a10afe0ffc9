"""Crazy Eights events as sentences for people (``CrazyEightsRules.describe``)."""

from __future__ import annotations

from typing import Any, Callable

from cardkit.cards import sort_cards
from cardkit.games.crazy_eights import events as ev
from cardkit.render import SUIT_NAMES, card_text, count_text, generic_describe, hand_text, seat_name

__all__ = ["describe", "DESCRIBERS", "SUMMARY"]

SUMMARY = """\
A shedding game for 2 to 7 players. Each player gets a hand (five cards, seven with two
players); one card starts the discard pile. On your turn play a card that matches the top
card's suit or rank; an 8 is wild and names the suit to follow. If you cannot or will not
play, draw (then you may play the drawn card, or pass). The first to empty the hand wins;
with the points option the others' cards count for the winner, up to a target. Optional
action cards (2s make the next player draw, the queen of spades draws five, jacks skip,
aces reverse) are off unless switched on.
Type: play CARD (an 8: play 8H S to name spades), draw, pass."""
"""A short rules summary for people (``cardkit rules crazy-eights``)."""

_Describer = Callable[[Any, "int | None"], str]


def _played(e: ev.CardPlayed, v: int | None) -> str:
    text = f"{seat_name(e.seat, v)} plays {card_text(e.card)}"
    if e.suit is not None:
        text += f" and names {SUIT_NAMES[e.suit]}"
    if e.pending_draw:
        text += f": {count_text(e.pending_draw, 'card')} to draw are pending"
    return text + "."


def _drawn(e: ev.CardsDrawn, v: int | None) -> str:
    why = {"draw": "", "pending": " (the pending 2s)", "penalty": " (the queen of spades)"}[e.reason]
    cards = f": {hand_text(e.cards)}" if e.cards is not None else ""
    return f"{seat_name(e.seat, v)} draws {count_text(e.count, 'card')}{why}{cards}."


def _dealt(e: ev.HandDealt, v: int | None) -> str:
    text = (
        f"Hand {e.hand_number}: seat {e.dealer} deals {count_text(e.hand_sizes[0], 'card')} each; "
        f"the starter is {card_text(e.starter)}"
    )
    if v is not None and 0 <= v < len(e.hands) and e.hands[v] is not None:
        text += f"; your hand: {hand_text(sort_cards(e.hands[v] or ()))}"
    elif v is None and e.hands and all(h is not None for h in e.hands):
        # the host form (cardkit show without --seat): every hand
        text += "; " + "; ".join(f"seat {s}: {hand_text(sort_cards(h or ()))}" for s, h in enumerate(e.hands))
        if e.stock is not None:
            text += f"; the stock, top first: {hand_text(e.stock)}"
    return text + "."


def _ended(e: ev.HandEnded, v: int | None) -> str:
    if e.blocked or e.winner is None:
        head = f"Hand {e.hand_number} is blocked"
    else:
        head = f"Hand {e.hand_number}: {seat_name(e.winner, v)} goes out"
    return f"{head}; points this hand: {', '.join(map(str, e.points))}."


def _game_ended(e: ev.GameEnded, v: int | None) -> str:
    who = ", ".join(seat_name(s, v) for s in e.winners) or "nobody"
    return f"Game over: scores {', '.join(map(str, e.scores))}; winner: {who}."


DESCRIBERS: dict[type, _Describer] = {
    ev.DealerChosen: lambda e, v: f"{seat_name(e.dealer, v)} is the first dealer.",
    ev.HandDealt: _dealt,
    ev.CardPlayed: _played,
    ev.DirectionReversed: lambda e, v: (
        "Play now goes " + ("clockwise." if e.direction == 1 else "anticlockwise.")
    ),
    ev.TurnSkipped: lambda e, v: f"{seat_name(e.seat, v)} loses a turn.",
    ev.CardsDrawn: _drawn,
    ev.Passed: lambda e, v: f"{seat_name(e.seat, v)} passes.",
    ev.ReshuffleNeeded: lambda e, v: (
        f"The stock is empty with {count_text(e.owed, 'card')} still owed to seat {e.seat}: "
        "the discards are shuffled."
    ),
    ev.StockRebuilt: lambda e, v: f"The discards become a new stock of {count_text(e.count, 'card')}.",
    ev.HandEnded: _ended,
    ev.NextHandDue: lambda e, v: f"{seat_name(e.dealer, v)} deals the next hand.",
    ev.GameEnded: _game_ended,
}
"""One sentence maker per event class (tests check that every event type has one)."""


def describe(event: object, viewer: int | None) -> str:
    """A sentence for ``event`` as ``viewer`` sees it."""
    make = DESCRIBERS.get(type(event))
    return make(event, viewer) if make is not None else generic_describe(event, viewer)
