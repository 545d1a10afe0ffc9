"""Cutthroat Spades: :class:`MCBidBot`, Monte-Carlo bidding in front of a card-play search.

A bid decides a whole hand, and its value is easy to measure: deal the hidden cards
many times, play the hand out once per deal for every bid it could make, and keep the
bid with the best mean payoff. :class:`MCBidBot` does that at every bidding turn
(:func:`cardkit.kernels.spades_bidding.bid_totals`, compiled with the kernels) and leaves
the card play to another bot (by default :class:`~cardkit.bots.ISMCTSBot`).

* **Common random numbers.** Every candidate bid is played on the same determinizations
  and, inside one of them, on the same random stream, so two bids are compared on the
  same cards and the same playout choices; the noise of the deals cancels out of the
  differences.
* **Every bid the rules offer** is a candidate: the tricks 1..hand, nil, one-for-fifty,
  two-for-forty, shoot the moon; before looking, ``look``, blind nil and (when allowed)
  blind six. A blind bid is judged before the seat has seen its hand: its own hand is
  concealed from it then, and the determinizations deal it too, so a blind bid is worth
  what it is worth on the hands the seat could hold, against the score situation;
  ``look`` is valued as the rule strategy's seen bid on each of those hands (a floor: the
  seat bids better than that once it has looked, so a blind bid is taken only when it
  beats a sound seen bid).
* **Playouts.** The seats still to bid bid as the rule strategy does, every card is
  played by the game's playout policy (the rule strategy with a random share), and the
  payoff is the search's: after the last hand of a game the win share, else the hand
  value (half the rank, half the place between the lowest and highest score), so bags,
  set penalties, bag-outs and the score situation all count.
* **Bids made before.** Each determinization is weighed by how close the rule
  strategy's bid on the sampled hands is to what the other seats did bid
  (``sharpness`` per trick of difference): a seat that bid 7 holds a strong hand.

The budget: ``bid_iterations`` playouts per bidding decision (default four times the
play's iterations: a seat bids once a hand and plays 10 to 17 cards, so the bids add
little to a hand's time and nothing to the median decision), spread evenly over the
candidates; ``time_ms`` of the :class:`~cardkit.bots.Limit` caps the bid's clock too.
With ``iterations`` only, the bot is deterministic for a given rng.

No-peek: the determinizations come from :func:`cardkit.bots.kernel_search.deal_sampler`
of the seat's own :class:`~cardkit.core.seat.SeatState`, the weights from the bids in
its masked state; two true states the seat cannot tell apart bid alike.
"""

from __future__ import annotations

import random
import time
from typing import Any

from cardkit.bots.base import require_turn
from cardkit.bots.explain import Explanation
from cardkit.bots.ismcts import ISMCTSBot
from cardkit.bots.kernel_search import deal_sampler
from cardkit.bots.limit import Limit
from cardkit.bots.playout import EPSILON, POLICY_EPSILONS
from cardkit.core.seat import SeatState
from cardkit.errors import ConfigError
from cardkit.kernels._base import KRng
from cardkit.kernels.bridge import bridge_for
from cardkit.kernels.cutthroat_spades import BID
from cardkit.kernels.spades_bidding import (
    ROWS,
    R_COUNTED,
    R_ENDED,
    R_MADE,
    R_MARGIN,
    R_PAYOFF,
    R_POINTS,
    bid_totals,
)

__all__ = ["BID_FACTOR", "BID_FIGHT", "BID_SHARPNESS", "METRICS", "BidValue", "MCBidBot"]

METRICS: tuple[str, ...] = ("auto", "payoff", "margin")
"""What :class:`MCBidBot` maximizes: ``"payoff"`` (the search's payoff), ``"margin"`` (the
bidder's score change less the others' mean change) or ``"auto"`` (the payoff when the
hand ends the game in most deals, else the margin)."""

BID_FACTOR = 4
"""Bid playouts per play iteration when ``bid_iterations`` is not given."""

BID_SHARPNESS = 0.3
"""The weight of a determinization per trick between a seat's bid and the rule
strategy's bid on its sampled hand."""

BID_FIGHT = 1.0
"""The share of determinizations in which the other seats fight a bid of tricks: while
the bidder still needs tricks, they play to win every trick themselves."""

_CHUNK = 8  # deals per compiled call when the clock is watched

BidValue = tuple[Any, float, float, float, int, float]
"""``(bid, mean payoff, mean points, share made, deals, score)`` of one candidate bid,
``score`` being what the bot maximizes (its ``metric``)."""


class MCBidBot:
    """Monte-Carlo bidding, then ``play`` for the cards (see the module docs).

    ``limit``: the play search's budget (an :class:`~cardkit.bots.ISMCTSBot` of that
    limit plays the cards unless ``play`` is given); ``bid_iterations``: playouts per
    bidding decision (default :data:`BID_FACTOR` times ``limit.iterations``, or 4,000);
    ``sharpness``: :data:`BID_SHARPNESS`. In another game than Cutthroat Spades the
    ``play`` bot makes every decision.
    """

    name = "mc-bid"

    def __init__(
        self,
        limit: Limit | None = None,
        bid_iterations: int | None = None,
        play: Any = None,
        sharpness: float = BID_SHARPNESS,
        pool: int | None = None,
        metric: str = "auto",
        fight: float = BID_FIGHT,
    ) -> None:
        limit = limit if limit is not None else Limit(iterations=1000)
        if not isinstance(limit, Limit):
            raise ConfigError(f"limit is a cardkit.bots.Limit, not {limit!r}")
        if bid_iterations is not None and (
            isinstance(bid_iterations, bool) or not isinstance(bid_iterations, int) or bid_iterations < 1
        ):
            raise ConfigError(f"bid_iterations must be a positive integer, not {bid_iterations!r}")
        if not 0.0 <= sharpness <= 1.0:
            raise ConfigError(f"sharpness must be in [0, 1], not {sharpness!r}")
        if metric not in METRICS:
            raise ConfigError(f"metric must be one of {', '.join(METRICS)}, not {metric!r}")
        self.metric = metric
        if not 0.0 <= fight <= 1.0:
            raise ConfigError(f"fight must be in [0, 1], not {fight!r}")
        self.fight = float(fight)
        self.limit = limit
        self.bid_iterations = bid_iterations or BID_FACTOR * (limit.iterations or 1000)
        self.sharpness = float(sharpness)
        self.play = play if play is not None else ISMCTSBot(limit=limit, pool=pool)

    def bidding(self, seat_state: SeatState) -> bool:
        """Whether the seat is to bid (or look) in Cutthroat Spades, on the game's kernel."""
        if seat_state.rules.name != "cutthroat-spades":
            return False
        return getattr(seat_state.masked, "phase", None) == "bid"

    def bid_values(self, seat_state: SeatState, rng: random.Random) -> list[BidValue]:
        """Every legal bid (or ``look``) with its Monte-Carlo value, in legal order."""
        legal = require_turn(seat_state)
        bridge = bridge_for(seat_state.rules, seat_state.config)
        if bridge is None:  # every Cutthroat Spades config has a kernel
            raise ConfigError(f"MCBidBot: {seat_state.rules.name} has no kernel for this config")
        krng = KRng(rng.getrandbits(32))
        sampler = deal_sampler(seat_state, bridge)
        assert getattr(sampler.base, "phase", BID) == BID
        ids = [bridge.action_id(a) for a in legal]
        n = len(ids)
        deals = max(1, self.bid_iterations // n)
        epsilon = POLICY_EPSILONS.get(seat_state.rules.name, EPSILON)
        scores = [int(s) for s in seat_state.rules.scores(seat_state.masked)]
        me = seat_state.seat
        if self.limit.time_ms is None:
            sums = bid_totals(sampler, krng, ids, deals, me, epsilon, scores, self.sharpness, self.fight)
            done = deals
        else:
            # By the clock: chunks of deals until the deadline (at least one chunk).
            deadline = time.perf_counter() + self.limit.time_ms / 1000
            sums = [0.0] * (ROWS * n + 1)
            done = 0
            while done < deals and (done == 0 or time.perf_counter() < deadline):
                step = min(_CHUNK, deals - done)
                part = bid_totals(sampler, krng, ids, step, me, epsilon, scores, self.sharpness, self.fight)
                sums = [a + b for a, b in zip(sums, part)]
                done += step
        total = sums[ROWS * n] or 1.0
        ended = sum(sums[R_ENDED * n + i] for i in range(n)) / (n * total)
        by_payoff = self.metric == "payoff" or (self.metric == "auto" and ended >= 0.5)
        rows: list[BidValue] = []
        for i, action in enumerate(legal):
            counted = sums[R_COUNTED * n + i]
            points = sums[R_POINTS * n + i] / counted if counted > 0 else 0.0
            margin = sums[R_MARGIN * n + i] / counted if counted > 0 else 0.0
            payoff = sums[R_PAYOFF * n + i] / total
            score = payoff if by_payoff else margin
            rows.append((action, payoff, points, sums[R_MADE * n + i] / total, done, score))
        return rows

    def choose(self, seat_state: SeatState, rng: random.Random) -> Any:
        """The bid with the best mean score by the ``metric`` (ties: the earlier legal bid),
        or the play bot's card."""
        legal = require_turn(seat_state)
        if len(legal) == 1:
            return legal[0]
        if not self.bidding(seat_state):
            return self.play.choose(seat_state, rng)
        return _best(self.bid_values(seat_state, rng))[0]

    def explain(self, seat_state: SeatState, rng: random.Random, top: int = 3) -> tuple[Explanation, ...]:
        """At a bid: the ``top`` bids by mean payoff, each with what it scores on average
        and how often it is made; in play: the play bot's explanation."""
        legal = require_turn(seat_state)
        if len(legal) == 1 or not self.bidding(seat_state):
            return self.play.explain(seat_state, rng, top)
        rows = self.bid_values(seat_state, rng)
        first = _best(rows)
        ordered = [first] + sorted((r for r in rows if r is not first), key=lambda r: -r[5])
        return tuple(Explanation(a, v, _bid_reason(a, v, p, m, d), d) for a, v, p, m, d, _ in ordered[: max(1, top)])

    def __repr__(self) -> str:
        return f"MCBidBot(limit={self.limit}, bid_iterations={self.bid_iterations}, play={self.play!r})"


def _best(rows: list[BidValue]) -> BidValue:
    best = rows[0]
    for row in rows[1:]:
        if row[5] > best[5]:
            best = row
    return best


def _bid_reason(action: Any, value: float, points: float, made: float, deals: int) -> str:
    what = str(action)
    if type(action).__name__ == "Look":
        return f"{what}: a bid after seeing the hand scores about {points:+.0f} on {deals} deals"
    return (
        f"{what}: scores about {points:+.0f} on average, made in {round(100 * made)}% of {deals} deals "
        f"(worth {round(100 * value)}% of a win)"
    )
