"""Hand scoring, rules 12–18, as pure functions (unit-testable without a game)."""

from __future__ import annotations

from typing import Sequence

from cardkit.cards import Card
from cardkit.games.cutthroat_spades.config import CutthroatConfig
from cardkit.games.cutthroat_spades.events import SeatScore
from cardkit.games.cutthroat_spades.state import BidInfo

__all__ = ["moon_threshold", "bid_result", "prize_jacks_won", "score_seat"]

_JD = Card("JD")
_JC = Card("JC")
_JH = Card("JH")


def moon_threshold(tricks: int) -> int:
    """Rule 4: 14 of 17 tricks; with ``T`` tricks ``ceil(14 * T / 17)`` (integer arithmetic)."""
    return -(-14 * tricks // 17) if tricks > 0 else 0


def bid_result(bid: BidInfo, taken: int) -> tuple[int, int]:
    """Points and bags of a bid given the tricks ``taken`` (rules 12–16). A set bid earns no bags."""
    kind = bid.kind
    if kind == "normal":
        b = bid.tricks
        return (10 * b, taken - b) if taken >= b else (-10 * b, 0)
    if kind == "nil":
        return (100, 0) if taken == 0 else (-100, 0)
    if kind == "blind_nil":
        return (200, 0) if taken == 0 else (-200, 0)
    if kind == "one_for_fifty":
        if taken == 1:
            return 50, 0
        return (10, taken - 1) if taken > 1 else (-50, 0)
    if kind == "two_for_forty":
        if taken == 2:
            return 40, 0
        return (20, taken - 2) if taken > 2 else (-40, 0)
    if kind == "blind_six":
        return (100, taken - 6) if taken >= 6 else (-100, 0)
    # moon: bid.tricks is the threshold; no bags when made
    return (150, 0) if taken >= bid.tricks else (-150, 0)


def prize_jacks_won(captured: Sequence[Card], prize_jacks: Sequence[str]) -> tuple[Card, ...]:
    """The prize jacks that pay for a seat that captured ``captured`` (rule 18).

    One prize jack pays; more than one pays nothing, unless all three are in play and the
    seat captured all three.
    """
    jacks = tuple(c for c in (_JD, _JC, _JH) if c.code in prize_jacks and c in captured)
    if len(jacks) <= 1:
        return jacks
    if len(jacks) == 3:
        return jacks
    return ()


def score_seat(
    config: CutthroatConfig,
    bid: BidInfo,
    taken: int,
    captured: Sequence[Card],
    score: int,
    bag_count: int,
) -> SeatScore:
    """Score one seat's hand in the order of rule 18: bid → bags → J♥ → bag-out."""
    bid_points, bags_taken = bid_result(bid, taken)
    jacks = prize_jacks_won(captured, config.prize_jacks)
    prize_points = 10 * sum(1 for j in jacks if j is not _JH)
    bags_removed = 0
    bag_out_points = 0
    if config.bags == "limit":
        limit = config.bag_limit if config.bag_limit is not None else 10
        bag_points = bags_taken
        count = bag_count + bags_taken
        if _JH in jacks and count > 0:
            bags_removed = 1
            count -= 1
        if config.bag_out == "reset":
            if count >= limit:
                bag_out_points = -10 * count
                count = 0
        else:
            while count >= limit:
                bag_out_points -= 10 * limit
                count -= limit
    else:
        bag_points = -10 * bags_taken
        count = 0
        if _JH in jacks and bags_taken > 0:
            prize_points += 10
    total = bid_points + bag_points + prize_points + bag_out_points
    return SeatScore(
        kind=bid.kind, bid=bid.tricks, tricks=taken, bid_points=bid_points,
        bags_taken=bags_taken, bag_points=bag_points, jacks=jacks, prize_points=prize_points,
        bags_removed=bags_removed, bag_out_points=bag_out_points, total=total,
        score=score + total, bags=count,
    )
