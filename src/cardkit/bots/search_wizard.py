""":class:`BidSearchBot`: Monte-Carlo bidding, then a search of the card play.

Built for Wizard (its levels 3-5), written for any game whose kernel says when the hand
is card play alone (``kernel.solvable()``, :mod:`cardkit.kernels._base`):

* **Bids and trump** (every decision of the hand before card play): Monte-Carlo bidding.
  Deals of the hidden cards are drawn from what the seat knows (the game's belief pool
  where it has one, so the bids already made weigh the deals; else uniform deals); on
  *each* deal *every* candidate bid (or trump suit) is played, and the rest of the hand
  played out on the same deal with the same random stream (common random numbers: two
  bids differ by what they lead to, not by the playouts' luck): the later bids and the
  early tricks by the game's playout policy (every seat plays its rule strategy, which
  plays to make its own bid, with the game's random share), the last ``solve_at``
  tricks exactly by :func:`cardkit.kernels.trick_solver.solve`. The bid with the most
  points on average is made (the game's own scoring: an exact bid pays, each trick off
  costs; ties: the lower bid, the earlier legal action). The budget counts playouts,
  spread evenly over the candidates, as :class:`~cardkit.bots.pimc.PIMCBot`'s does.
* **Card play**: :class:`~cardkit.bots.ISMCTSBot` on the game's kernel with the level's
  iterations and belief pool, its playouts ended by the exact solver once the bot holds
  at most ``solve_at`` cards (``solve_at=0``: the plain search).

With ``Limit(iterations=N)`` the bot is deterministic for a given rng; with ``time_ms``
both halves stop by the clock (the bidding after whole rounds of deals). It needs the
game's kernel (a :class:`ConfigError` at the decision otherwise).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from cardkit.bots.base import require_turn
from cardkit.bots.beliefs import BELIEF_POOL
from cardkit.bots.explain import Explanation
from cardkit.bots.ismcts import ISMCTSBot
from cardkit.bots.kernel_search import deal_sampler, pool_sampler
from cardkit.bots.limit import Limit
from cardkit.bots.playout import EPSILON, HORIZONS, POLICY_EPSILONS
from cardkit.bots.reasons import action_phrase
from cardkit.core.seat import SeatState
from cardkit.errors import ConfigError
from cardkit.kernels._base import KRng
from cardkit.kernels.bridge import KernelBridge, bridge_for
from cardkit.kernels.trick_solver import OWN_SPREAD, bid_totals

__all__ = ["BidSearchBot"]

_CHUNK = 8
"""Deals per step of a bidding search under ``time_ms`` (the clock is read between steps)."""


class BidSearchBot:
    """Monte-Carlo bidding and a search of the card play (see the module docs).

    ``limit``: the budget of every decision (``iterations``: the card-play search's
    iterations and the bidding's playouts; ``time_ms``: a cap by the clock); ``pool``:
    the belief pool of both halves (default :data:`cardkit.bots.beliefs.BELIEF_POOL`);
    ``solve_at``: the exact solver plays the last tricks once the bot holds at most this
    many cards (0: never); ``bid_epsilon``: the random share of the bidding's playouts
    (default: the game's playout share); ``own``: the card-play search's weight of its own
    points for the hand (``ISMCTSBot(own=...)``); ``bid_lead``: judge a bid by the game's
    payoff of the finished hand (in Wizard the lead it leaves) instead of the points.
    """

    name = "bid-search"

    def __init__(
        self,
        limit: Limit | None = None,
        pool: int | None = None,
        solve_at: int = 0,
        bid_epsilon: float | None = None,
        own: float = 0.0,
        bid_lead: bool = False,
    ) -> None:
        limit = limit if limit is not None else Limit(iterations=1000)
        if not isinstance(limit, Limit):
            raise ConfigError(f"limit is a cardkit.bots.Limit, not {limit!r}")
        if isinstance(solve_at, bool) or not isinstance(solve_at, int) or solve_at < 0:
            raise ConfigError(f"solve_at must be a whole number of cards >= 0, not {solve_at!r}")
        if bid_epsilon is not None and not 0.0 <= bid_epsilon <= 1.0:
            raise ConfigError(f"bid_epsilon must be in [0, 1], not {bid_epsilon!r}")
        self.limit = limit
        self.pool = pool
        self.solve_at = solve_at
        self.bid_epsilon = bid_epsilon
        self.own = own
        self.bid_lead = bid_lead
        self.play = ISMCTSBot(limit=limit, pool=pool, solve_at=solve_at, own=own, engine="kernel")
        self.last_deals = 0
        """Deals the last bidding decision played out (each for every candidate)."""

    def _bridge(self, seat_state: SeatState) -> KernelBridge:
        bridge = bridge_for(seat_state.rules, seat_state.config)
        if bridge is None:
            raise ConfigError(f"BidSearchBot: {seat_state.rules.name} has no kernel for this config")
        return bridge

    def bidding(self, seat_state: SeatState) -> bool:
        """Whether this decision comes before the card play (a bid, a trump): the seat
        state's kernel is not :meth:`~cardkit.kernels._base.Kernel.solvable`."""
        return not self._bridge(seat_state).kernel(seat_state.masked).solvable()

    def bid_values(self, seat_state: SeatState, rng: random.Random) -> list[tuple[Any, float, int]]:
        """``(action, mean points for the hand, deals)`` of every legal action of a bidding
        decision, in legal order (see the module docs)."""
        legal = require_turn(seat_state)
        bridge = self._bridge(seat_state)
        name = seat_state.rules.name
        krng = KRng(rng.getrandbits(32))
        sampler: Any = pool_sampler(seat_state, bridge, rng, krng, self.pool or BELIEF_POOL)
        if sampler is None:
            sampler = deal_sampler(seat_state, bridge)
        ids = [bridge.action_id(a) for a in legal]
        epsilon = self.bid_epsilon if self.bid_epsilon is not None else POLICY_EPSILONS.get(name, EPSILON)
        steps = HORIZONS.get(name, 400)
        me = seat_state.seat
        scores = [int(s) for s in seat_state.rules.scores(seat_state.masked)]
        totals = [0.0] * len(ids)
        deals = 0
        if self.limit.time_ms is None:
            assert self.limit.iterations is not None
            deals = max(1, self.limit.iterations // len(ids))
            totals = bid_totals(sampler, krng, ids, deals, me, epsilon, steps, scores, self.solve_at, self.bid_lead)
        else:
            most = None if self.limit.iterations is None else max(1, self.limit.iterations // len(ids))
            deadline = time.perf_counter() + self.limit.time_ms / 1000
            while (most is None or deals < most) and (deals == 0 or time.perf_counter() < deadline):
                step = _CHUNK if most is None else min(_CHUNK, most - deals)
                more = bid_totals(sampler, krng, ids, step, me, epsilon, steps, scores, self.solve_at, self.bid_lead)
                totals = [t + m for t, m in zip(totals, more)]
                deals += step
        self.last_deals = deals
        return [(legal[i], totals[i] / deals, deals) for i in range(len(ids))]

    def choose(self, seat_state: SeatState, rng: random.Random) -> Any:
        """The bid (or trump) with the most points on average; in card play the search's choice."""
        legal = require_turn(seat_state)
        if len(legal) == 1:
            return legal[0]
        if not self.bidding(seat_state):
            return self.play.choose(seat_state, rng)
        rows = self.bid_values(seat_state, rng)
        best = rows[0]
        for row in rows[1:]:
            if row[1] > best[1]:
                best = row
        return best[0]

    def explain(self, seat_state: SeatState, rng: random.Random, top: int = 3) -> tuple[Explanation, ...]:
        """The ``top`` actions (the first is what :meth:`choose` plays with an rng in the
        same state): bids by their mean points over the deals played out, card plays by the
        search (:meth:`cardkit.bots.ISMCTSBot.explain`). A bid's value is the logistic of
        its mean points over :data:`~cardkit.kernels.trick_solver.OWN_SPREAD`."""
        legal = require_turn(seat_state)
        if len(legal) == 1:
            return (Explanation(legal[0], 1.0, f"{legal[0]}: the only legal action", 0),)
        if not self.bidding(seat_state):
            return self.play.explain(seat_state, rng, top)
        rows = self.bid_values(seat_state, rng)
        order = sorted(range(len(rows)), key=lambda i: (-rows[i][1], i))
        out = []
        for i in order[: max(1, top)]:
            action, points, deals = rows[i]
            phrase = action_phrase(seat_state, action)
            figure = f"{points:+.1f} points a round on average over {deals} deals played out"
            head = f"{action}: {phrase}" if phrase else str(action)
            # the value a row holds is in [0, 1]: the logistic of the points, as the search's own term
            value = 1.0 / (1.0 + math.exp(-points / OWN_SPREAD))
            out.append(Explanation(action, value, f"{head}; {figure}", deals))
        return tuple(out)

    def __repr__(self) -> str:
        return f"BidSearchBot(limit={self.limit}, pool={self.pool}, solve_at={self.solve_at})"
