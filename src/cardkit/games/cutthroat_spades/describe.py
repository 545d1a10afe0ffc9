"""Cutthroat Spades events as sentences for people (``CutthroatSpadesRules.describe``)."""

from __future__ import annotations

from typing import Any, Callable

from cardkit.cards import sort_cards
from cardkit.games.cutthroat_spades import events as ev
from cardkit.render import card_text, count_text, generic_describe, hand_text, seat_name

__all__ = ["describe", "DESCRIBERS", "SUMMARY"]

SUMMARY = """\
Spades without partners for 3 to 5 players. Spades are always trumps. Before bidding you
may look at your hand, or bid blind without looking. Everyone bids the tricks they will
take (or nil, or one of the special bids); follow the suit led if you can, and spades may
not be led until they are broken. Making a bid scores ten a trick and overtricks become
bags, which cost points when they pile up; a failed bid loses. Games go to a target score,
each game won earns a token, and the first to the tokens needed wins the tournament.
Type: look, bid N, bid nil, bid blind-nil, bid b6, bid 1f, bid 2f, bid moon, play CARD."""
"""A short rules summary for people (``cardkit rules cutthroat-spades``)."""

_Describer = Callable[[Any, "int | None"], str]

_BID_WORDS = {
    "nil": "nil",
    "blind_nil": "blind nil",
    "blind_six": "blind six",
    "one_for_fifty": "one for fifty",
    "two_for_forty": "two for forty",
    "moon": "the moon",
}


def _bid(e: ev.BidMade, v: int | None) -> str:
    what = str(e.tricks) if e.kind == "normal" else _BID_WORDS.get(e.kind, e.kind)
    return f"{seat_name(e.seat, v)} bids {what}."


def _scored(e: ev.HandScored, v: int | None) -> str:
    parts = [
        f"seat {s} took {x.tricks} of {x.bid}, {x.total:+d} (score {x.score}, bags {x.bags})"
        for s, x in enumerate(e.seats)
    ]
    return f"Game {e.game_number}, hand {e.hand_number} scored: {'; '.join(parts)}."


def _winners(winners: tuple[int, ...], v: int | None) -> str:
    return ", ".join(seat_name(s, v) for s in winners) or "nobody"


DESCRIBERS: dict[type, _Describer] = {
    ev.DealerChosen: lambda e, v: f"{seat_name(e.seat, v)} is the first dealer.",
    ev.CardsDealt: lambda e, v: (  # the host form: every hand, as dealt (nobody has looked yet)
        f"{seat_name(e.dealer, v)} deals {count_text(len(e.hands[0]), 'card')} each: "
        + "; ".join(f"seat {s}: {hand_text(sort_cards(h))}" for s, h in enumerate(e.hands)) + "."
    ),
    ev.HandsDealt: lambda e, v: f"{seat_name(e.dealer, v)} deals {count_text(e.sizes[0], 'card')} each.",
    ev.HandLooked: lambda e, v: f"{seat_name(e.seat, v)} looks at the hand: {hand_text(e.cards)}.",
    ev.HandLookedPublic: lambda e, v: f"{seat_name(e.seat, v)} looks at the hand.",
    ev.BidMade: _bid,
    ev.BiddingEnded: lambda e, v: f"Bidding is over: {seat_name(e.leader, v)} leads.",
    ev.CardPlayed: lambda e, v: f"{seat_name(e.seat, v)} plays {card_text(e.card)}.",
    ev.SpadesBroken: lambda e, v: f"Spades are broken by seat {e.seat}.",
    ev.TrickWon: lambda e, v: f"{seat_name(e.seat, v)} wins trick {e.trick_number}.",
    ev.HandScored: _scored,
    ev.GameTied: lambda e, v: f"Game {e.game_number} is tied at the top: another hand is played.",
    ev.GameWon: lambda e, v: (
        f"Game {e.game_number} is won by {_winners(e.winners, v)}; "
        f"tokens: {', '.join(map(str, e.tokens))}."
    ),
    ev.GameStarted: lambda e, v: f"Game {e.game_number} begins.",
    ev.TournamentWon: lambda e, v: (
        f"The tournament is won by {_winners(e.winners, v)}; tokens: {', '.join(map(str, e.tokens))}."
    ),
}
"""One sentence maker per event class (tests check that every event type has one)."""


def describe(event: object, viewer: int | None) -> str:
    """A sentence for ``event`` as ``viewer`` sees it."""
    make = DESCRIBERS.get(type(event))
    return make(event, viewer) if make is not None else generic_describe(event, viewer)
