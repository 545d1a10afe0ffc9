"""Wizard events as sentences for people (``WizardRules.describe``)."""

from __future__ import annotations

from typing import Any, Callable

from cardkit.games.wizard import events as ev
from cardkit.render import SUIT_NAMES, card_text, count_text, generic_describe, hand_text, seat_name

__all__ = ["describe", "DESCRIBERS", "SUMMARY"]

SUMMARY = """\
A trick-taking game for 3 to 6 players over several rounds: in round r everyone gets r
cards and a card is turned for trumps (a Wizard lets the dealer choose, a Jester means no
trumps). Everyone then bids exactly how many tricks they will take. Follow the suit led if
you can; a Wizard or a Jester may always be played. The first Wizard wins the trick; a
Jester loses to every other card, but when every card of a trick is a Jester the first
Jester wins it. An exact bid scores 20 plus 10 a trick; a wrong bid loses 10 for each
trick it was off. The highest total after the last round wins.
Type: bid N, trump S (after a turned Wizard), play CARD (W is a Wizard, N a Jester)."""
"""A short rules summary for people (``cardkit rules wizard``)."""

_Describer = Callable[[Any, "int | None"], str]


def _turned(e: ev.TrumpTurned, v: int | None) -> str:
    if e.card is None:
        return "No card is left to turn: there are no trumps this round."
    if e.trump is None:
        return f"{card_text(e.card)} is turned: " + (
            "the dealer chooses trumps." if e.card.code == "W" else "no trumps this round."
        )
    return f"{card_text(e.card)} is turned: {SUIT_NAMES[e.trump]} are trumps."


def _trick(e: ev.TrickWon, v: int | None) -> str:
    cards = ", ".join(f"{card_text(c)} by seat {s}" for s, c in e.trick)
    return f"{seat_name(e.seat, v)} wins the trick ({cards})."


def _scored(e: ev.RoundScored, v: int | None) -> str:
    parts = [
        f"seat {s} bid {b}, took {t}, scores {p:+d}"
        for s, (b, t, p) in enumerate(zip(e.bids, e.tricks, e.points))
    ]
    return f"Round {e.round}: {'; '.join(parts)}. Totals: {', '.join(map(str, e.scores))}."


def _game_ended(e: ev.GameEnded, v: int | None) -> str:
    who = ", ".join(seat_name(s, v) for s in e.winners) or "nobody"
    return f"Game over: scores {', '.join(map(str, e.scores))}; winner: {who}."


DESCRIBERS: dict[type, _Describer] = {
    ev.DealerChosen: lambda e, v: f"{seat_name(e.seat, v)} is the first dealer.",
    ev.RoundDealt: lambda e, v: (  # the host form: every hand
        f"Round {e.round}: seat {e.dealer} deals: "
        + "; ".join(f"seat {s}: {hand_text(h)}" for s, h in enumerate(e.hands))
        + (f"; undealt, top first: {hand_text(e.stock)}." if e.stock else ".")
    ),
    ev.HandDealt: lambda e, v: f"{seat_name(e.seat, v)} is dealt {hand_text(e.cards)}.",
    ev.RoundStarted: lambda e, v: (
        f"Round {e.round}: seat {e.dealer} deals {count_text(e.cards_each, 'card')} each."
    ),
    ev.TrumpTurned: _turned,
    ev.TrumpChosen: lambda e, v: f"{seat_name(e.seat, v)} chooses {SUIT_NAMES[e.suit]} as trumps.",
    ev.BidMade: lambda e, v: f"{seat_name(e.seat, v)} bids {e.tricks}.",
    ev.CardPlayed: lambda e, v: f"{seat_name(e.seat, v)} plays {card_text(e.card)}.",
    ev.TrickWon: _trick,
    ev.RoundScored: _scored,
    ev.GameEnded: _game_ended,
}
"""One sentence maker per event class (tests check that every event type has one)."""


def describe(event: object, viewer: int | None) -> str:
    """A sentence for ``event`` as ``viewer`` sees it."""
    make = DESCRIBERS.get(type(event))
    return make(event, viewer) if make is not None else generic_describe(event, viewer)
