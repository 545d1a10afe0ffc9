"""Spacc 'u Mazz events as sentences for people (``SpaccUMazzRules.describe``)."""

from __future__ import annotations

from typing import Any, Callable

from cardkit.games.spacc_u_mazz import events as ev
from cardkit.render import card_text, count_text, generic_describe, hand_text, seat_name

__all__ = ["describe", "DESCRIBERS", "SUMMARY"]

SUMMARY = """\
An Italian shedding game for 2 to 4 players with two packs and two jokers. Each player has
a hand, three face-up cards and three face-down cards nobody may look at. On your turn
play one or more hand cards of one rank at least the pile's reference rank (a 2 or a 10
goes on anything: a 2 clears the reference, a 10 burns the pile), play a face-down card
blind, draw, or take the whole pile. Jokers act when they turn up and then leave the game
(a red joker's decision is part of the same turn). The first player to get rid of every
card wins the hand, and a one-hand game; in a match to target_score the hands' points,
counted on the cards left, add up and the highest total wins.
Type: play 9S 9H, play 9S +up:9D, up 7C, blind 2, draw, take, pass; after the red joker:
dump, keep, remove up:KD, remove down:2, decline."""
"""A short rules summary for people (``cardkit rules spacc-u-mazz``)."""

_Describer = Callable[[Any, "int | None"], str]


def _played(e: ev.CardsPlayed, v: int | None) -> str:
    cards = hand_text(e.hand + e.up)
    up = f" ({count_text(len(e.up), 'face-up card')})" if e.up else ""
    return f"{seat_name(e.seat, v)} plays {cards}{up}."


def _drawn(e: ev.CardDrawn, v: int | None) -> str:
    what = card_text(e.card) if e.card is not None else "a card"
    why = " as a penalty" if e.penalty else ""
    return f"{seat_name(e.seat, v)} draws {what} from the {e.stock} stock{why}."


def _starter_drawn(e: ev.StarterDrawn, v: int | None) -> str:
    why = " as a penalty" if e.penalty else ""
    return f"{seat_name(e.seat, v)} draws {card_text(e.card)}, a buried starting card, from the main stock{why}."


def _blind_failed(e: ev.BlindFailed, v: int | None) -> str:
    what = card_text(e.card) if e.card is not None else "a card that does not play"
    return f"{seat_name(e.seat, v)} turns face-down card {e.position}: {what}; it goes to the hand with the pile."


def _ended(e: ev.HandEnded, v: int | None) -> str:
    why = "a player went out" if e.reason == "out" else "the turn limit was reached"
    places = ", ".join(f"seat {s}" for s in e.places)
    return f"Hand {e.hand_number} ends ({why}); places: {places}."


def _revealed(e: ev.CardsRevealed, v: int | None) -> str:
    return (
        f"{seat_name(e.seat, v)} still held hand {hand_text(e.hand)}, face up "
        f"{hand_text(e.face_up)}, face down {hand_text(e.face_down)}."
    )


def _winners(winners: tuple[int, ...], v: int | None) -> str:
    return ", ".join(seat_name(s, v) for s in winners) or "nobody"


DESCRIBERS: dict[type, _Describer] = {
    ev.FirstDealerChosen: lambda e, v: f"{seat_name(e.dealer, v)} is the first dealer.",
    ev.HandStarted: lambda e, v: f"Hand {e.hand_number}: seat {e.dealer} deals.",
    ev.HandDealt: lambda e, v: (
        f"{seat_name(e.seat, v)} is dealt "
        + (hand_text(e.cards) if e.cards is not None else count_text(e.count, "card"))
        + "."
    ),
    ev.FaceUpDealt: lambda e, v: f"{seat_name(e.seat, v)} gets face up {hand_text(e.cards)}.",
    ev.FaceDownDealt: lambda e, v: (  # the host form names the cards, in position order
        f"{seat_name(e.seat, v)} gets {count_text(e.count, 'face-down card')}"
        + (f": {hand_text(e.cards)}." if e.cards is not None else ".")
    ),
    ev.StarterBuried: lambda e, v: f"The turned {card_text(e.card)} goes to the bottom of the stock.",
    ev.StarterTurned: lambda e, v: f"The pile starts with {card_text(e.card)}.",
    ev.StockFormed: lambda e, v: (  # the host form names the cards, top first
        f"The {e.stock} stock has {count_text(e.size, 'card')}"
        + (f", top first: {hand_text(e.cards)}." if e.cards is not None else ".")
    ),
    ev.CardsPlayed: _played,
    ev.PileBurned: lambda e, v: f"The 10 burns the pile: {count_text(len(e.cards), 'card')} leave the game.",
    ev.BlindPlayed: lambda e, v: (
        f"{seat_name(e.seat, v)} plays face-down card {e.position} blind: {card_text(e.card)}."
    ),
    ev.BlindFailed: _blind_failed,
    ev.JokerRevealed: lambda e, v: (
        f"{seat_name(e.seat, v)} turns face-down card {e.position}: the {card_text(e.card)}."
    ),
    ev.CardDrawn: _drawn,
    ev.StarterDrawn: _starter_drawn,
    ev.JokerDrawn: lambda e, v: f"{seat_name(e.seat, v)} draws the {card_text(e.card)} from the {e.stock} stock.",
    ev.PenaltyWaived: lambda e, v: f"Both stocks are empty: {seat_name(e.seat, v)} draws no penalty.",
    ev.PileTaken: lambda e, v: f"{seat_name(e.seat, v)} takes the pile ({count_text(len(e.cards), 'card')}).",
    ev.Passed: lambda e, v: f"{seat_name(e.seat, v)} can do nothing and passes.",
    ev.ChoiceOffered: lambda e, v: (
        f"{seat_name(e.seat, v)} decides what the red joker does: "
        + ("dump the hand or keep it." if e.choice == "dump" else "remove a card or decline.")
    ),
    ev.HandDumped: lambda e, v: (
        f"{seat_name(e.seat, v)} throws the whole hand onto the pile: {hand_text(e.cards)}."
    ),
    ev.HandKept: lambda e, v: f"{seat_name(e.seat, v)} keeps the hand.",
    ev.CardRemoved: lambda e, v: (
        f"{seat_name(e.seat, v)} removes face-{e.zone} {card_text(e.card)} from the game."
    ),
    ev.RemovalDeclined: lambda e, v: f"{seat_name(e.seat, v)} removes nothing.",
    ev.PlayerWentOut: lambda e, v: f"{seat_name(e.seat, v)} has no cards left: place {e.place}.",
    ev.TurnStarted: lambda e, v: f"{seat_name(e.seat, v)} is to play.",
    ev.HandEnded: _ended,
    ev.CardsRevealed: _revealed,
    ev.HandScored: lambda e, v: (
        f"Hand scored: points {', '.join(map(str, e.points))}; totals {', '.join(map(str, e.totals))}."
    ),
    ev.GameEnded: lambda e, v: (
        f"Game over: scores {', '.join(map(str, e.scores))}; winner: {_winners(e.winners, v)}."
    ),
}
"""One sentence maker per event class (tests check that every event type has one)."""


def describe(event: object, viewer: int | None) -> str:
    """A sentence for ``event`` as ``viewer`` sees it."""
    make = DESCRIBERS.get(type(event))
    return make(event, viewer) if make is not None else generic_describe(event, viewer)
