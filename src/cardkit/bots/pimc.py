""":class:`PIMCBot`: perfect-information Monte Carlo on the game's kernel.

Per decision: determinizations are drawn from what the seat knows (the kernel deal
sampler, or the game's weighted belief pool, :func:`cardkit.bots.kernel_search.pool_sampler`),
and in each of them *every* legal action is tried and the hand played out by the game's
playout policy (its rule strategy with a random share, every seat; chance answered by the
search's own generator) until it is over or the step limit (then the game's cut-off
evaluation). The action with the best mean payoff over the same determinizations is
played (ties: the earlier legal action). Unlike ISMCTS there is no tree: the other seats'
answers come from the playout policy, the model of the opponents is the rule strategy,
and the determinizations are the model of their cards.

The budget ``iterations`` counts playouts, spread evenly over the legal actions (at least
one determinization each). One 32-bit draw of the bot's rng seeds everything after, so
with ``iterations`` only the bot is deterministic for a given rng state.
"""

from __future__ import annotations

import random
from typing import Any

from cardkit.bots.base import require_turn
from cardkit.bots.explain import Explanation
from cardkit.bots.kernel_search import deal_sampler, pool_sampler
from cardkit.bots.limit import Limit
from cardkit.bots.playout import EPSILON, HAND_VALUES, HORIZONS, POLICY_EPSILONS
from cardkit.bots.reasons import search_reason
from cardkit.bots.rule import RuleBot
from cardkit.core.seat import SeatState
from cardkit.errors import ConfigError
from cardkit.kernels._base import KRng
from cardkit.kernels.bridge import KernelBridge, bridge_for
from cardkit.kernels.search import flat_totals

__all__ = ["PIMCBot"]


class PIMCBot:
    """Perfect-information Monte Carlo over determinizations (see the module docs).

    ``limit``: the budget (``Limit(iterations=N)``: N playouts per decision; ``time_ms``
    is not supported: a flat search has no natural point to stop early); ``beliefs``:
    ``"policy"`` (the game's weighted belief pool where it has one) or ``"uniform"``;
    ``playout_limit``: most steps of a playout (default: the game's horizon, else 400);
    ``epsilon``: the playouts' random share (default: the game's, :data:`cardkit.bots.playout.POLICY_EPSILONS`);
    ``margin``: the rule strategy's action is played unless another action's mean payoff
    beats it by more than this (0: the best mean, ties to the earlier legal action).
    Needs the game's kernel: a game without one is a :class:`ConfigError` at the decision.
    """

    name = "pimc"

    def __init__(
        self,
        limit: Limit | None = None,
        beliefs: str = "policy",
        playout_limit: int | None = None,
        epsilon: float | None = None,
        margin: float = 0.0,
    ) -> None:
        limit = limit if limit is not None else Limit(iterations=1000)
        if not isinstance(limit, Limit) or limit.iterations is None or limit.time_ms is not None:
            raise ConfigError(f"PIMCBot needs Limit(iterations=N) alone, not {limit!r}")
        if beliefs not in ("uniform", "policy"):
            raise ConfigError(f"beliefs must be 'uniform' or 'policy', not {beliefs!r}")
        if playout_limit is not None and (not isinstance(playout_limit, int) or playout_limit < 1):
            raise ConfigError(f"playout_limit must be a positive integer, not {playout_limit!r}")
        self.limit = limit
        self.beliefs = beliefs
        self.playout_limit = playout_limit
        if epsilon is not None and not 0.0 <= epsilon <= 1.0:
            raise ConfigError(f"epsilon must be in [0, 1], not {epsilon!r}")
        self.epsilon = epsilon
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0.0 <= margin <= 1.0:
            raise ConfigError(f"margin must be in [0, 1], not {margin!r}")
        self.margin = float(margin)

    def values(self, seat_state: SeatState, rng: random.Random) -> list[tuple[Any, float, int]]:
        """``(action, mean payoff, playouts)`` of every legal action, in legal order."""
        legal = require_turn(seat_state)
        bridge = bridge_for(seat_state.rules, seat_state.config)
        if bridge is None:
            raise ConfigError(f"PIMCBot: {seat_state.rules.name} has no kernel for this config")
        return self._values(seat_state, rng, bridge, legal)

    def _values(
        self, seat_state: SeatState, rng: random.Random, bridge: KernelBridge, legal: tuple[Any, ...]
    ) -> list[tuple[Any, float, int]]:
        name = seat_state.rules.name
        krng = KRng(rng.getrandbits(32))
        sampler: Any = None
        if self.beliefs == "policy":
            sampler = pool_sampler(seat_state, bridge, rng, krng)
        if sampler is None:
            sampler = deal_sampler(seat_state, bridge)
        ids = [bridge.action_id(a) for a in legal]
        assert self.limit.iterations is not None
        deals = max(1, self.limit.iterations // len(ids))
        epsilon = self.epsilon if self.epsilon is not None else POLICY_EPSILONS.get(name, EPSILON)
        steps = self.playout_limit or HORIZONS.get(name, 400)
        me = seat_state.seat
        scores = [int(s) for s in seat_state.rules.scores(seat_state.masked)]
        hand = name in HAND_VALUES
        totals = flat_totals(sampler, krng, ids, deals, me, epsilon, steps, scores, hand)
        return [(legal[i], totals[i] / deals, deals) for i in range(len(ids))]

    def choose(self, seat_state: SeatState, rng: random.Random) -> Any:
        """The legal action with the best mean payoff."""
        legal = require_turn(seat_state)
        if len(legal) == 1:
            return legal[0]
        return self._pick(seat_state, self.values(seat_state, rng))

    def _pick(self, seat_state: SeatState, rows: list[tuple[Any, float, int]]) -> Any:
        best = max(rows, key=lambda row: row[1])
        if self.margin <= 0.0:
            return best[0]
        rule = RuleBot().choose(seat_state, random.Random(0))
        kept = next((row for row in rows if row[0] == rule), None)
        if kept is not None and best[1] <= kept[1] + self.margin:
            return rule
        return best[0]

    def explain(self, seat_state: SeatState, rng: random.Random, top: int = 3) -> tuple[Explanation, ...]:
        """The ``top`` actions by mean payoff (the first is what :meth:`choose` plays with
        an rng in the same state), each with a one-line reason."""
        legal = require_turn(seat_state)
        if len(legal) == 1:
            return (Explanation(legal[0], 1.0, f"{legal[0]}: the only legal action", 0),)
        rows = sorted(self.values(seat_state, rng), key=lambda row: -row[1])
        chosen = self._pick(seat_state, rows)
        rows = [row for row in rows if row[0] == chosen] + [row for row in rows if row[0] != chosen]
        return tuple(
            Explanation(a, v, search_reason(seat_state, a, v, n), n) for a, v, n in rows[: max(1, top)]
        )

    def __repr__(self) -> str:
        if self.margin:
            return f"PIMCBot(limit={self.limit}, beliefs={self.beliefs!r}, margin={self.margin})"
        return f"PIMCBot(limit={self.limit}, beliefs={self.beliefs!r})"

