""":class:`ISMCTSBot`: single-observer information-set Monte Carlo tree search.

Each iteration draws a determinization with ``seat_state.sample(rng)`` (a full state
consistent with what the seat knows; with ``beliefs="policy"`` one of a pool of them,
drawn in proportion to how well the other seats' moves fit the game's rule strategy, see
:mod:`cardkit.bots.beliefs`), then walks one tree shared by all determinizations
(Cowling, Powley and Whitehouse, 2012, "SO-ISMCTS"):

* nodes are reached by the sequence of actions from the root; in these games every seat
  action is public, so a node is an information set of whoever acts there; children are
  kept per (mover, action), since a hidden card can decide who moves next (a Spacc 'u
  Mazz draw that turns up a red joker) and one node must hold one seat's payoffs;
* the other seats' moves are searched the same way (``opponents="search"``), or, with
  ``opponents="policy"``, played inside the tree by the game's playout policy, so their
  nodes keep no statistics (:data:`cardkit.bots.playout.OPPONENT_MODELS` holds each game's
  default: ``"policy"`` in Spacc 'u Mazz, ``"search"`` elsewhere);
* at a node only the actions legal in the current determinization are considered; each
  such child counts one more *availability*, and UCB uses it instead of the parent's visits
  (``mean + c * sqrt(ln(available) / visits)``), so rarely possible actions are not
  over-explored;
* the first untried legal action is expanded (chosen with the bot's rng), then a playout
  runs on the pure reducer (``legal_actions / decide / evolve``, ``decide`` without the
  shared guards where the rules offer it) until the game ends or the
  current hand has been scored, every seat playing the game's rule strategy with some
  random moves (:mod:`cardkit.bots.playout`); chance nodes met on the way
  (a reshuffle) are answered by the bot's rng, never by the game's chance stream; a
  playout cut off after ``playout_limit`` steps is scored by cards still held;
* the payoff of a seat is 1 for a win (shared among tied winners) once the game is over;
  after a scored hand of a longer game it is the game's hand value
  (:data:`cardkit.bots.playout.HAND_VALUES`: in Wizard the chance of winning that the
  lead leaves, see :func:`~cardkit.bots.playout.wizard_hand_value`), else half the
  seat's rank share and half its position between the lowest and highest score, both
  in [0, 1];
* the chosen action is the root child visited most (ties: the earlier legal action).

With ``iterations`` only, the bot is deterministic for a given rng state. ``time_ms``
stops the search by the wall clock instead (or as well): faster machines then search
more, so the decision is no longer reproducible.

Two engines run the same search. ``engine="reducer"`` plays on the game's reference
rules (``legal_actions / decide / evolve``) as above. ``engine="kernel"`` runs the whole
iteration on the game's kernel (:mod:`cardkit.kernels`, :mod:`cardkit.kernels.search`):
determinizations dealt in kernel ints from what the seat knows (the generic resampler's
zones, pool and constrained slots; with ``beliefs="policy"`` the weighted pool, each
state converted once), the same tree, UCB, expansion, playout policy and payoffs, with
the kernel's own generator seeded once from the bot's rng. Its random draws differ from
the reducer engine's, so the two engines make the same kind of decision, not the same
decisions. ``engine="auto"`` (the default) takes the kernel when the game has one for its
config (:func:`cardkit.kernels.bridge.bridge_for`), else the reducer.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Callable

from cardkit.bots.base import require_turn
from cardkit.bots.explain import Explanation
from cardkit.bots.limit import Limit
from cardkit.bots.reasons import search_reason
from cardkit.bots.beliefs import BELIEF_MODEL_NAMES, BELIEF_MODELS, BELIEF_POOL, weighted_sampler
from cardkit.bots.kernel_search import new_search
from cardkit.bots.kernel_search import root_stats as kernel_root_stats
from cardkit.bots.kernel_search import root_visits as kernel_root_visits
from cardkit.bots.playout import (
    EPSILON,
    EVALUATIONS,
    HAND_VALUES,
    HORIZONS,
    OPPONENT_MODEL_NAMES,
    OPPONENT_MODELS,
    POLICIES,
    POLICY_EPSILONS,
    HandValue,
    Policy,
)
from cardkit.core.rules import CHANCE, Pick, PickSpec, Shuffle
from cardkit.core.seat import SeatState
from cardkit.errors import ConfigError
from cardkit.kernels.bridge import KernelBridge, bridge_for
from cardkit.kernels.search import Search

__all__ = ["ENGINES", "ISMCTSBot", "payoffs", "playout"]

ENGINES: tuple[str, ...] = ("auto", "kernel", "reducer")
"""The values of :class:`ISMCTSBot`'s ``engine`` (see the module docs)."""



class _Node:
    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self) -> None:
        self.children: dict[tuple[int, Any], _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


def payoffs(rules: Any, state: Any, players: int) -> list[float]:
    """Each seat's payoff in [0, 1] at the end of a playout (see the module docs)."""
    result = rules.result(state)
    if result is not None:
        out = [0.0] * players
        if result.winners:
            share = 1.0 / len(result.winners)
            for seat in result.winners:
                out[seat] = share
        return out
    scores = rules.scores(state)
    low, high = min(scores), max(scores)
    span = high - low
    out = []
    for s in scores:
        above = sum(1 for t in scores if t < s)
        ties = sum(1 for t in scores if t == s)
        rank = (above + (ties - 1) / 2) / (players - 1) if players > 1 else 1.0
        spread = (s - low) / span if span else 0.5
        out.append(0.5 * rank + 0.5 * spread)
    return out


def _decider(rules: Any) -> Callable[[Any, Any, Any], Any]:
    """``decide(state, action, mover)`` without the shared guards where the rules offer
    it (``decide_after_guard``, as ``Game.play`` calls after its own checks): the search
    only plays legal actions for the seat to act and outcomes of the pending chance, which
    the guards would pass, and in a playout they cost about a twentieth of the time."""
    after_guard = getattr(rules, "decide_after_guard", None)
    if after_guard is not None:
        return after_guard  # type: ignore[no-any-return]
    decide = rules.decide
    return lambda state, action, mover: decide(state, action)


def playout(
    rules: Any,
    state: Any,
    rng: random.Random,
    scores: Any,
    limit: int,
    policy: Policy | None = None,
) -> tuple[Any, bool]:
    """Play ``policy`` (default: uniformly random legal actions; chance answered by
    ``rng``) until the game is over, the scores differ from ``scores`` at a chance node (a
    hand was scored), or ``limit`` steps. Returns the state and whether it was cut off."""
    to_act_of = rules.to_act
    legal_of = rules.legal_actions
    decide = _decider(rules)
    evolve = rules.evolve
    randrange = rng.randrange
    for _ in range(limit):
        to_act = to_act_of(state)
        if to_act is None:
            return state, False
        if to_act == CHANCE:
            if rules.scores(state) != scores:
                return state, False
            spec = rules.pending_chance(state)
            if isinstance(spec, PickSpec):
                action: Any = Pick(randrange(spec.n))
            else:
                order = list(spec.cards)
                rng.shuffle(order)
                action = Shuffle(tuple(order))
        else:
            actions = legal_of(state)
            if policy is None:
                action = actions[randrange(len(actions))]
            else:
                action = policy(state, actions, rng)
        for event in decide(state, action, to_act):
            state = evolve(state, event)
    return state, rules.to_act(state) is not None


class ISMCTSBot:
    """Information-set MCTS over ``seat_state.sample`` (see the module docs).

    ``iterations``: determinizations searched per decision (default 1000); ``time_ms``: a
    wall-clock budget (non-deterministic; with both, whichever ends first); ``c``: the UCB
    exploration constant for payoffs in [0, 1]; ``playout_limit``: most steps of a
    playout, after which the game's cut-off evaluation (or the scores) give the payoffs
    (default: :data:`cardkit.bots.playout.HORIZONS` for the game, else 400);
    ``opponents``: ``"search"`` (the other seats' moves are searched like the bot's own)
    or ``"policy"`` (they play the game's playout policy inside the tree; a game without
    one is searched); default :data:`cardkit.bots.playout.OPPONENT_MODELS` for the game,
    else ``"search"``; ``beliefs``: ``"uniform"`` (every determinization consistent with
    the seat's knowledge alike) or ``"policy"`` (weighed by how well the other seats' moves
    of the hand fit the game's rule strategy, :func:`cardkit.bots.beliefs.weighted_sampler`;
    a game without a fit samples uniformly); default
    :data:`cardkit.bots.beliefs.BELIEF_MODELS` for the game, else ``"uniform"``;
    ``engine``: ``"auto"`` (the game's kernel if it has one for the config, else the
    reference reducer), ``"kernel"`` (a game without a kernel is a :class:`ConfigError`
    at the decision) or ``"reducer"`` (see the module docs); ``limit``: a
    :class:`~cardkit.bots.Limit`, the same budget as ``iterations``/``time_ms`` in one
    value (give one or the other); ``pool``: how many determinizations a belief pool draws
    and weighs per decision (``beliefs="policy"`` only; default
    :data:`cardkit.bots.beliefs.BELIEF_POOL`): the more, the more of them fit the other
    seats' moves, at the cost of a fit each; ``solve_at``: on the kernel engine, once the
    hand is card play alone and the bot holds at most this many cards, a playout ends by
    the exact last-tricks solver (:func:`cardkit.kernels.trick_solver.solve`, max-n on the
    determinization) instead of the playout policy (0, the default: never; the reducer
    engine ignores it); ``own``: on the kernel engine, the weight in [0, 1] of each seat's
    own points for the hand in its payoff (the logistic of the points over
    :data:`cardkit.kernels.trick_solver.OWN_SPREAD`), the rest the game's payoff (0, the
    default: the game's payoff alone; measured in Wizard, docs/bots.md).
    """

    name = "ismcts"

    def __init__(
        self,
        iterations: int | None = 1000,
        time_ms: float | None = None,
        c: float = 0.7,
        playout_limit: int | None = None,
        opponents: str | None = None,
        beliefs: str | None = None,
        engine: str = "auto",
        *,
        limit: Limit | None = None,
        pool: int | None = None,
        solve_at: int = 0,
        own: float = 0.0,
    ) -> None:
        if limit is not None:
            if not isinstance(limit, Limit):
                raise ConfigError(f"limit is a cardkit.bots.Limit, not {limit!r}")
            if time_ms is not None or iterations not in (None, 1000):
                raise ConfigError("give ISMCTSBot a limit or iterations/time_ms, not both")
            iterations, time_ms = limit.iterations, limit.time_ms
        if iterations is None and time_ms is None:
            raise ConfigError("ISMCTSBot needs iterations or time_ms (or both)")
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise ConfigError(f"iterations must be a positive integer, not {iterations!r}")
        if time_ms is not None and not time_ms > 0:
            raise ConfigError(f"time_ms must be positive, not {time_ms!r}")
        if not c >= 0:
            raise ConfigError(f"c must be a non-negative number, not {c!r}")
        self.iterations = iterations
        self.time_ms = time_ms
        self.c = float(c)
        if playout_limit is not None and (not isinstance(playout_limit, int) or playout_limit < 1):
            raise ConfigError(f"playout_limit must be a positive integer, not {playout_limit!r}")
        self.playout_limit = playout_limit
        if opponents is not None and opponents not in OPPONENT_MODEL_NAMES:
            names = " or ".join(repr(name) for name in OPPONENT_MODEL_NAMES)
            raise ConfigError(f"opponents must be {names}, not {opponents!r}")
        self.opponents = opponents
        if beliefs is not None and beliefs not in BELIEF_MODEL_NAMES:
            names = " or ".join(repr(name) for name in BELIEF_MODEL_NAMES)
            raise ConfigError(f"beliefs must be {names}, not {beliefs!r}")
        self.beliefs = beliefs
        if engine not in ENGINES:
            names = ", ".join(repr(name) for name in ENGINES)
            raise ConfigError(f"engine must be one of {names}, not {engine!r}")
        self.engine = engine
        if pool is not None and (isinstance(pool, bool) or not isinstance(pool, int) or pool < 1):
            raise ConfigError(f"pool must be a positive integer, not {pool!r}")
        self.pool = pool
        if isinstance(solve_at, bool) or not isinstance(solve_at, int) or solve_at < 0:
            raise ConfigError(f"solve_at must be a whole number of cards >= 0, not {solve_at!r}")
        self.solve_at = solve_at
        if not 0.0 <= own <= 1.0:
            raise ConfigError(f"own must be in [0, 1], not {own!r}")
        self.own = float(own)
        self.last_iterations = 0
        """Iterations run by the last :meth:`choose` (useful with ``time_ms``)."""
        self._policy: Policy | None = None
        self._evaluate: Callable[[Any], list[float]] | None = None
        self._hand_value: HandValue | None = None
        self._limit = 400
        self._opponent_policy: Policy | None = None
        self._me = -1

    @property
    def limit(self) -> Limit:
        """The bot's budget as a :class:`~cardkit.bots.Limit`."""
        return Limit(iterations=self.iterations, time_ms=self.time_ms)

    def explain(self, seat_state: SeatState, rng: random.Random, top: int = 3) -> tuple[Explanation, ...]:
        """The ``top`` most visited root actions after one search (the first is what
        :meth:`choose` plays with an rng in the same state), each with its mean payoff
        over the deals searched and a one-line reason (see :mod:`cardkit.bots.reasons`)."""
        legal = require_turn(seat_state)
        if len(legal) == 1:
            return (Explanation(legal[0], 1.0, f"{legal[0]}: the only legal action", 0),)
        bridge = self._bridge(seat_state)
        stats: dict[Any, tuple[int, float]]
        if bridge is not None:
            stats = kernel_root_stats(self._kernel_search(seat_state, rng, bridge), bridge)
        else:
            root = self._reducer_search(seat_state, rng)
            stats = {
                a: (ch.visits, ch.total / ch.visits)
                for (mover, a), ch in root.children.items()
                if mover == seat_state.seat and ch.visits
            }
        # The order of choose: most visits first, ties to the earlier legal action.
        order = sorted(range(len(legal)), key=lambda i: (-stats.get(legal[i], (0, 0.0))[0], i))
        rows = []
        for i in order[: max(1, top)]:
            action = legal[i]
            visits, value = stats.get(action, (0, 0.0))
            rows.append(Explanation(action, value, search_reason(seat_state, action, value, visits), visits))
        return tuple(rows)

    def choose(self, seat_state: SeatState, rng: random.Random) -> Any:
        """The most visited root action after the search."""
        legal = require_turn(seat_state)
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        bridge = self._bridge(seat_state)
        if bridge is not None:
            visits_of = self._kernel_visits(seat_state, rng, bridge)
            best = legal[0]
            most = -1
            for action in legal:
                visits = visits_of.get(action, 0)
                if visits > most:
                    best, most = action, visits
            return best
        root = self.search(seat_state, rng)
        seat = seat_state.seat
        best = legal[0]
        most = -1
        for action in legal:
            child = root.children.get((seat, action))
            visits = child.visits if child is not None else 0
            if visits > most:
                best, most = action, visits
        return best

    def root_visits(self, seat_state: SeatState, rng: random.Random) -> dict[Any, int]:
        """The visit count of every root action after one search (for tests and tools)."""
        bridge = self._bridge(seat_state)
        if bridge is not None:
            return self._kernel_visits(seat_state, rng, bridge)
        root = self._reducer_search(seat_state, rng)
        return {a: ch.visits for (_, a), ch in root.children.items()}

    def search(self, seat_state: SeatState, rng: random.Random) -> Any:
        """Run the search; returns the root node (internal structure: on the reducer
        engine children are keyed by ``(mover, action)``, on the kernel engine by
        ``mover * len(actions) + action id``)."""
        bridge = self._bridge(seat_state)
        if bridge is not None:
            return self._kernel_search(seat_state, rng, bridge).root
        return self._reducer_search(seat_state, rng)

    def _bridge(self, seat_state: SeatState) -> KernelBridge | None:
        """The kernel bridge the search runs on, or ``None`` for the reducer."""
        if self.engine == "reducer":
            return None
        bridge = bridge_for(seat_state.rules, seat_state.config)
        if bridge is None and self.engine == "kernel":
            raise ConfigError(
                f"engine='kernel': {seat_state.rules.name} has no kernel for this config "
                "(use engine='auto' or 'reducer')"
            )
        return bridge

    def _kernel_visits(
        self, seat_state: SeatState, rng: random.Random, bridge: KernelBridge
    ) -> dict[Any, int]:
        return kernel_root_visits(self._kernel_search(seat_state, rng, bridge), bridge)

    def _kernel_search(self, seat_state: SeatState, rng: random.Random, bridge: KernelBridge) -> Search:
        """The search on the game's kernel (see the module docs); returns the kernel
        :class:`~cardkit.kernels.search.Search`."""
        name = seat_state.rules.name
        policy = name in POLICIES
        model = self.opponents or OPPONENT_MODELS.get(name, "search")
        search = new_search(
            seat_state, bridge, rng,
            c=self.c,
            policy=policy,
            epsilon=POLICY_EPSILONS.get(name, EPSILON),
            opponent_policy=policy and model == "policy",
            limit=self.playout_limit or HORIZONS.get(name, 400),
            has_eval=name in EVALUATIONS,
            has_hand=name in HAND_VALUES,
            beliefs=self.beliefs or BELIEF_MODELS.get(name, "uniform"),
            pool=self.pool or BELIEF_POOL,
            solve_at=self.solve_at,
            own=self.own,
        )  # fmt: skip
        if self.time_ms is None:
            assert self.iterations is not None
            search.run(self.iterations)
            self.last_iterations = self.iterations
            return search
        # By the wall clock: the deadline is looked at every 8 iterations, as the reducer does.
        deadline = time.perf_counter() + self.time_ms / 1000
        limit = self.iterations
        done = 0
        while limit is None or done < limit:
            if time.perf_counter() >= deadline:
                break
            step = 8 if limit is None else min(8, limit - done)
            search.run(step)
            done += step
        self.last_iterations = done
        return search

    def _reducer_search(self, seat_state: SeatState, rng: random.Random) -> _Node:
        """The search on the reference reducer; returns the root node."""
        rules = seat_state.rules
        players = int(seat_state.config.players)
        scores = rules.scores(seat_state.masked)
        self._policy = POLICIES.get(rules.name)
        self._evaluate = EVALUATIONS.get(rules.name)
        self._hand_value = HAND_VALUES.get(rules.name)
        self._limit = self.playout_limit or HORIZONS.get(rules.name, 400)
        model = self.opponents or OPPONENT_MODELS.get(rules.name, "search")
        self._opponent_policy = self._policy if model == "policy" else None
        self._me = seat_state.seat
        sample: Callable[[random.Random], Any] = seat_state.sample
        if (self.beliefs or BELIEF_MODELS.get(rules.name, "uniform")) == "policy":
            weighted = weighted_sampler(seat_state, rng, self.pool or BELIEF_POOL)
            if weighted is not None:
                sample = weighted
        root = _Node()
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000
        limit = self.iterations
        done = 0
        while limit is None or done < limit:
            if deadline is not None and done % 8 == 0 and time.perf_counter() >= deadline:
                break
            self._iterate(rules, root, sample(rng), rng, scores, players)
            done += 1
        self.last_iterations = done
        return root

    def _iterate(
        self, rules: Any, root: _Node, state: Any, rng: random.Random, scores: Any, players: int
    ) -> None:
        c = self.c
        log = math.log
        sqrt = math.sqrt
        to_act_of = rules.to_act
        legal_of = rules.legal_actions
        decide = _decider(rules)
        evolve = rules.evolve
        opponent_policy = self._opponent_policy
        me = self._me
        node = root
        path: list[tuple[_Node, int]] = []
        to_act = to_act_of(state)
        while to_act is not None and to_act != CHANCE:
            if opponent_policy is not None and to_act != me:
                # Another seat plays the playout policy: its node is only a step on the
                # way (no statistics), keyed as any other so that the bot's own nodes
                # below it are shared by the determinizations that reach them.
                legal = legal_of(state)
                action = opponent_policy(state, legal, rng)
                key = (to_act, action)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node()
                for event in decide(state, action, to_act):
                    state = evolve(state, event)
                node = child
                to_act = to_act_of(state)
                continue
            # Children are keyed by (mover, action): the same public action sequence can
            # lead to different movers in different determinizations (a Spacc 'u Mazz draw
            # that turns up a joker keeps the turn, another passes it), and one node's
            # statistics must be one seat's payoffs.
            legal = legal_of(state)
            children = node.children
            untried = []
            for action in legal:
                child = children.get((to_act, action))
                if child is None:
                    untried.append(action)
                else:
                    child.avail += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = children[(to_act, action)] = _Node()
                for event in decide(state, action, to_act):
                    state = evolve(state, event)
                path.append((child, to_act))
                break
            best_action = legal[0]
            best_score = -1.0
            for action in legal:
                child = children[(to_act, action)]
                score = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                if score > best_score:
                    best_action, best_score = action, score
            node = children[(to_act, best_action)]
            for event in decide(state, best_action, to_act):
                state = evolve(state, event)
            path.append((node, to_act))
            to_act = to_act_of(state)
        state, cut = playout(rules, state, rng, scores, self._limit, self._policy)
        evaluate = self._evaluate
        if cut and evaluate is not None:
            value = evaluate(state)
        elif self._hand_value is not None and rules.to_act(state) is not None:  # a hand, not the game, ended
            value = self._hand_value(rules, state, players)
        else:
            value = payoffs(rules, state, players)
        for child, mover in path:
            child.visits += 1
            child.total += value[mover]

    def __repr__(self) -> str:
        return (
            f"ISMCTSBot(iterations={self.iterations}, time_ms={self.time_ms}, c={self.c}, "
            f"opponents={self.opponents!r}, beliefs={self.beliefs!r}, engine={self.engine!r}"
            + (f", pool={self.pool})" if self.pool is not None else ")")
        )
