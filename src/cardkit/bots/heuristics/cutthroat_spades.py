"""Cutthroat Spades: look, bid from spades and high cards (nil when weak), play to the bid."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from cardkit.cards import Card
from cardkit.core.seat import SeatState
from cardkit.games.cutthroat_spades.actions import Bid, Look, Play, SpecialBid
from cardkit.games.cutthroat_spades.rules import rank_of, suit_of, trick_power
from cardkit.games.cutthroat_spades.state import CutthroatState

__all__ = ["choose", "decide", "estimate_tricks"]

Reason = Callable[[], str]


def estimate_tricks(hand: tuple[Card, ...]) -> float:
    """Expected tricks: jokers and high spades, long spades, side aces and kings, and
    short side suits that let spades ruff."""
    spades = [c for c in hand if suit_of(c) == "S"]
    total = 0.0
    for card in spades:
        rank = rank_of(card)
        total += 1.0 if rank >= 13 else 0.7 if rank == 12 else 0.45 if rank >= 10 else 0.0
    total += max(0, len(spades) - 4) * 0.7
    for suit in ("H", "D", "C"):
        cards = [c for c in hand if suit_of(c) == suit]
        ranks = {rank_of(c) for c in cards}
        if 14 in ranks:
            total += 0.85 if len(cards) <= 5 else 0.6
        if 13 in ranks and len(cards) >= 2:
            total += 0.5 if len(cards) <= 4 else 0.3
        if len(cards) <= 1 and len(spades) >= 3:
            total += 0.6 if not cards else 0.35
    return total


def _nil_safe(hand: tuple[Card, ...]) -> bool:
    """Weak enough for nil: no joker or spade above 9, few spades, no ace or king."""
    if any(suit_of(c) == "S" and rank_of(c) > 9 for c in hand):
        return False
    if sum(1 for c in hand if suit_of(c) == "S") > 3:
        return False
    return not any(rank_of(c) >= 13 for c in hand)


def choose(ss: SeatState) -> tuple[Any, str]:
    """The action and a one-line reason."""
    action, reason = decide(ss.masked, ss.seat, ss.legal_actions)
    return action, reason()


def decide(state: CutthroatState, seat: int, legal: Sequence[Any]) -> tuple[Any, Reason]:
    """The strategy on a full state (``seat`` to act, ``legal`` its actions): the action
    and its reason, built only when called (ISMCTS playouts call this in their inner loop
    on determinized states and never ask why)."""
    hand = state.hands[seat]
    if state.phase == "bid":  # looking and bidding happen only then (a cheap test for playouts)
        if any(isinstance(a, Look) for a in legal):
            return next(a for a in legal if isinstance(a, Look)), lambda: "look at my hand before bidding"
        if any(isinstance(a, Bid) for a in legal):
            want = estimate_tricks(hand)
            nil = SpecialBid("nil")
            if want < 1.0 and _nil_safe(hand) and nil in legal:
                return nil, lambda: f"bid nil: my hand is weak (about {want:.1f} tricks, no high spade)"
            bids = [a.tricks for a in legal if isinstance(a, Bid)]
            bid_now = min(bids, key=lambda b: (abs(b - want), b))
            return Bid(bid_now), lambda: f"bid {bid_now}: spades and high cards are worth about {want:.1f} tricks"
    plays = [a for a in legal if isinstance(a, Play)]
    bid = state.bids[seat]
    need = (bid.tricks if bid is not None else 0) - state.tricks_won[seat]
    trick = state.trick
    led = suit_of(trick[0][1]) if trick else None
    # the power a card must exceed to win the trick now (computed once, not per card)
    top = max(trick_power(c, led) for _, c in trick) if led is not None else 0

    def beats(card: Card) -> bool:
        return led is not None and trick_power(card, led) > top

    def power(a: Play) -> int:
        return trick_power(a.card, led) if led is not None else (100 if suit_of(a.card) == "S" else 0) + rank_of(a.card)

    if need > 0:
        if not trick:
            best = max(plays, key=power)
            return best, lambda: f"lead {best.card}: I still need {need} trick(s)"
        winners = [a for a in plays if beats(a.card)]
        if winners:
            last = len(trick) == state.config.players - 1
            pick = min(winners, key=power) if last else max(winners, key=power)
            return pick, lambda: f"play {pick.card} to win this trick: I still need {need}"
        low = min(plays, key=lambda a: (power(a), rank_of(a.card)))
        return low, lambda: f"play {low.card}: I cannot win this trick"
    losers = [a for a in plays if trick and not beats(a.card)]
    if losers:
        high = max(losers, key=lambda a: (power(a), rank_of(a.card)))
        return high, lambda: f"play {high.card}: it loses, I want no more tricks"
    low = min(plays, key=lambda a: (power(a), rank_of(a.card)))
    return low, lambda: f"play {low.card}: my lowest card, I want no more tricks"
