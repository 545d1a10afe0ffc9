"""Wizard: bid from Wizards, trumps and aces; then play to make the bid exactly."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from cardkit.cards import SUITS, Card, Suit
from cardkit.core.seat import SeatState
from cardkit.games.wizard.actions import Bid, ChooseTrump, Play
from cardkit.games.wizard.state import JESTER, WIZARD, WizardState
from cardkit.games.wizard.tricks import suit_to_follow, trick_winner

__all__ = ["choose", "decide", "estimate_tricks"]

Reason = Callable[[], str]


def estimate_tricks(hand: tuple[Card, ...], trump: Suit | None, players: int) -> float:
    """Expected tricks of ``hand``: a Wizard is a trick, high trumps nearly, aces often."""
    total = 0.0
    for card in hand:
        if card is WIZARD:
            total += 1.0
        elif card is JESTER or card.suit is None:
            continue
        elif card.suit == trump:
            total += 0.95 if card.rank >= 12 else 0.6 if card.rank >= 9 else 0.3
        elif card.rank == 14:
            total += 0.75 if players <= 4 else 0.55
        elif card.rank == 13:
            total += 0.35 if players <= 4 else 0.2
    return total


def _strength(card: Card, trump: Suit | None) -> int:
    if card is WIZARD:
        return 100
    if card is JESTER:
        return -1
    return card.rank + (20 if card.suit == trump else 0)


def _wins_now(trick: tuple[tuple[int, Card], ...], card: Card, trump: Suit | None) -> bool:
    cards = [c for _, c in trick] + [card]
    return trick_winner(cards, trump) == len(cards) - 1


def choose(ss: SeatState) -> tuple[Any, str]:
    """The action and a one-line reason."""
    action, reason = decide(ss.masked, ss.seat, ss.legal_actions)
    return action, reason()


def decide(state: WizardState, seat: int, legal: Sequence[Any]) -> tuple[Any, Reason]:
    """The strategy on a full state (``seat`` to act, ``legal`` its actions): the action
    and its reason, built only when called (ISMCTS playouts call this in their inner loop
    on determinized states and never ask why)."""
    hand = state.hands[seat]
    n = state.config.players
    if isinstance(legal[0], ChooseTrump):
        counts = {s: sum(1 for c in hand if c.suit == s) for s in SUITS}
        high = {s: sum(c.rank for c in hand if c.suit == s) for s in SUITS}
        suit = max(SUITS, key=lambda s: (counts[s], high[s]))
        return ChooseTrump(suit), lambda: f"trump {suit}: my longest suit ({counts[suit]} cards)"
    if isinstance(legal[0], Bid):
        want = estimate_tricks(hand, state.trump, n)
        bids = [a.tricks for a in legal if isinstance(a, Bid)]
        bid_now = min(bids, key=lambda b: (abs(b - want), b))
        return Bid(bid_now), lambda: f"bid {bid_now}: my Wizards, trumps and aces are worth about {want:.1f} tricks"
    plays = [a for a in legal if isinstance(a, Play)]
    bid = state.bids[seat] or 0
    need = bid - state.tricks_won[seat]
    trump = state.trump
    trick = state.trick
    key = lambda a: _strength(a.card, trump)  # noqa: E731
    if need > 0:
        if not trick:
            lead = max(plays, key=key)
            return lead, lambda: f"lead {lead.card}: I still need {need} trick(s)"
        winners = [a for a in plays if _wins_now(trick, a.card, trump)]
        if winners:
            # last to play: the cheapest winner; otherwise a safe margin: the strongest
            last = len(trick) == n - 1
            pick = min(winners, key=key) if last else max(winners, key=key)
            return pick, lambda: f"play {pick.card} to win this trick: I still need {need}"
        low = min(plays, key=key)
        return low, lambda: f"play {low.card}: I cannot win this trick, keep my strong cards"
    losers = [a for a in plays if not trick or not _wins_now(trick, a.card, trump)]
    if trick and losers:
        loser = max(losers, key=key)
        return loser, lambda: f"play {loser.card}: it loses, and I have made my bid of {bid}"
    low = min(plays, key=key)
    return low, lambda: f"play {low.card}: my lowest card, I want no more tricks (bid {bid})"
