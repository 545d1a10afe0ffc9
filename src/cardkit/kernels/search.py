"""SO-ISMCTS on a game kernel: the whole iteration (determinization, tree walk, playout,
backup) in compiled code.

Compiled with mypyc together with :mod:`cardkit.kernels._base` and the game kernels, so
this module is restricted typed Python like them (ints, floats, ``list[int]``, native
classes; it imports nothing of cardkit but the kernel base). It mirrors
:mod:`cardkit.bots.ismcts` step for step; the Python side (:mod:`cardkit.bots.kernel_search`)
prepares a :class:`Sampler` from what the seat knows and drives :class:`Search`.

* A :class:`Node`'s children are keyed by ``mover * actions + action id`` (the reference
  keys by ``(mover, action)``: one node holds one seat's payoffs).
* UCB uses the availability count: ``mean + c * sqrt(ln(avail) / visits)``.
* Opponents are searched, or (``opponent_policy``) play ``policy_action`` inside the tree,
  their nodes keeping no statistics.
* A random untried legal action is expanded, then a playout runs the game's policy (or
  uniformly random moves) until the game is over, the scores changed at a chance node (a
  hand was scored) or the step limit; chance is answered by ``chance_random``.

Every random number comes from one :class:`~cardkit.kernels._base.KRng`, so a search of a
fixed number of iterations is deterministic for a given seed.
"""

from __future__ import annotations

import math
from typing import Final

from cardkit.kernels._base import OVER, Kernel, KRng

_MASK: Final = 0xFFFFFFFF


def shuffle(rng: KRng, items: list[int]) -> None:
    """``rng.shuffle(items)`` with the generator's steps inlined: the same draws and the
    same result, without a method call per card (a determinization shuffles ~50 cards)."""
    x = rng.state
    i = len(items) - 1
    while i > 0:
        x ^= (x << 13) & _MASK
        x ^= x >> 17
        x ^= (x << 5) & _MASK
        j = (x * (i + 1)) >> 32
        t = items[i]
        items[i] = items[j]
        items[j] = t
        i -= 1
    rng.state = x


class Node:
    """A tree node: an information set of the seat that moved into it."""

    children: dict[int, Node]
    visits: int
    total: float
    avail: int

    def __init__(self) -> None:
        self.children = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


class Sampler:
    """Draws a determinization as a fresh kernel (base class: always the same kernel)."""

    base: Kernel

    def __init__(self, base: Kernel) -> None:
        self.base = base

    def draw(self, rng: KRng) -> Kernel:
        """A new kernel consistent with what the seat knows."""
        return self.base.copy()


class DealSampler(Sampler):
    """The generic resampler's deal, in kernel ints (see :class:`cardkit.core.resample.Resampler`).

    ``pool``: the concealed cards (canonical order); the concealed zones, in zone order,
    as ``zone_codes``/``zone_owners``/``zone_sizes``; the constrained slots, most
    constrained first, as ``slot_zones`` (an index into the concealed zones) and
    ``forbidden`` (``width`` flags per slot: ``forbidden[s * width + card]`` is 1 when the
    slot may not take ``card``). Each draw shuffles the pool, deals the slots (each takes
    the first card left it allows), fills the zones in order with the rest, and retries
    with a fresh shuffle up to ``max_tries`` times. With ``hard_zones`` and
    ``hard_forbidden`` (the slots of the game's own constraints alone, where the slots above
    add a bot's beliefs), it then tries ``max_tries`` more times with those slots only, so
    that beliefs no deal can meet never cost the rules' certainties (a Spacc 'u Mazz joker is
    never in a hand). Then it deals the last shuffle unconstrained.
    """

    pool: list[int]
    zone_codes: list[int]
    zone_owners: list[int]
    zone_sizes: list[int]
    slot_zones: list[int]
    forbidden: list[int]
    width: int
    max_tries: int
    hard_zones: list[int]
    hard_forbidden: list[int]
    has_hard: bool

    def __init__(
        self,
        base: Kernel,
        pool: list[int],
        zone_codes: list[int],
        zone_owners: list[int],
        zone_sizes: list[int],
        slot_zones: list[int],
        forbidden: list[int],
        width: int,
        max_tries: int,
        hard_zones: list[int] | None = None,
        hard_forbidden: list[int] | None = None,
    ) -> None:
        super().__init__(base)
        self.pool = pool
        self.zone_codes = zone_codes
        self.zone_owners = zone_owners
        self.zone_sizes = zone_sizes
        self.slot_zones = slot_zones
        self.forbidden = forbidden
        self.width = width
        self.max_tries = max_tries
        self.hard_zones = hard_zones if hard_zones is not None else []
        self.hard_forbidden = hard_forbidden if hard_forbidden is not None else []
        self.has_hard = hard_zones is not None

    def deal(self, rng: KRng) -> list[list[int]]:
        """The cards of each concealed zone (in zone order) for one draw."""
        zones = len(self.zone_sizes)
        slots = len(self.slot_zones)
        order: list[int] = []
        if slots == 0:
            order = self.pool[:]
            shuffle(rng, order)
            return self._slices(order)
        for _ in range(self.max_tries):
            order = self.pool[:]
            shuffle(rng, order)
            fills = self._fill(order, self.slot_zones, self.forbidden)
            if len(fills) == zones:
                return fills
        if self.has_hard:
            # A bot's own beliefs could not all be met: keep the game's constraints (what
            # the rules make certain, such as where a card can never be), drop the beliefs.
            for _ in range(self.max_tries):
                order = self.pool[:]
                shuffle(rng, order)
                fills = self._fill(order, self.hard_zones, self.hard_forbidden)
                if len(fills) == zones:
                    return fills
        return self._fill(order, [], self.forbidden)

    def _slices(self, order: list[int]) -> list[list[int]]:
        """``order`` cut into the zones, in zone order (a deal without constraints)."""
        fills: list[list[int]] = []
        at = 0
        for size in self.zone_sizes:
            fills.append(order[at : at + size])
            at += size
        return fills

    def _fill(self, order: list[int], slot_zones: list[int], forbidden: list[int]) -> list[list[int]]:
        """Deal ``order`` to the slots (``slot_zones``, ``forbidden`` flags per slot),
        then the zones; ``[]`` if a slot finds no card it allows."""
        n = len(order)
        width = self.width
        used = [0] * n
        fills: list[list[int]] = []
        for _ in range(len(self.zone_sizes)):
            fills.append([])
        for s in range(len(slot_zones)):
            row = s * width
            k = 0
            while k < n and (used[k] != 0 or forbidden[row + order[k]] != 0):
                k += 1
            if k == n:
                return []
            used[k] = 1
            fills[slot_zones[s]].append(order[k])
        k = 0
        for z in range(len(self.zone_sizes)):
            fill = fills[z]
            need = self.zone_sizes[z] - len(fill)
            while need > 0:
                while used[k] != 0:
                    k += 1
                fill.append(order[k])
                k += 1
                need -= 1
        return fills

    def draw(self, rng: KRng) -> Kernel:
        """A copy of the base kernel with every concealed zone redealt."""
        kernel = self.base.copy()
        if len(self.zone_sizes) == 0:
            return kernel
        fills = self.deal(rng)
        for z in range(len(fills)):
            kernel.set_zone(self.zone_codes[z], self.zone_owners[z], fills[z])
        return kernel


class PoolSampler(Sampler):
    """One of a pool of kernels drawn in proportion to its weight (``cumulative``: the
    running sums of the weights; uniform when they sum to nothing)."""

    kernels: list[Kernel]
    cumulative: list[float]
    total: float

    def __init__(self, kernels: list[Kernel], cumulative: list[float]) -> None:
        super().__init__(kernels[0])
        self.kernels = kernels
        self.cumulative = cumulative
        self.total = cumulative[len(cumulative) - 1] if len(cumulative) > 0 else 0.0

    def draw(self, rng: KRng) -> Kernel:
        """A copy of a pooled kernel."""
        n = len(self.kernels)
        if self.total <= 0.0:
            return self.kernels[rng.below(n)].copy()
        x = rng.random() * self.total
        # The first running sum above x (bisect_right), as the reference sampler does.
        lo = 0
        hi = n
        cumulative = self.cumulative
        while lo < hi:
            mid = (lo + hi) // 2
            if x < cumulative[mid]:
                hi = mid
            else:
                lo = mid + 1
        if lo > n - 1:
            lo = n - 1
        return self.kernels[lo].copy()


class Search:
    """One decision's search settings and state; :meth:`run` adds iterations to ``root``.

    ``me``: the searching seat; ``actions``: the size of the game's action space (for the
    child keys); ``c``: the UCB constant; ``policy``: whether the game has a playout
    policy (``policy_action`` with ``epsilon``; else uniformly random moves);
    ``opponent_policy``: the other seats play that policy inside the tree; ``limit``: the
    playout's step limit; ``has_eval`` / ``has_hand``: the game judges a cut-off playout
    (``cutoff_values``) / a scored hand of a game that goes on (``hand_values``);
    ``scores``: the scores at the root (a playout stops when they change at a chance node).
    """

    root: Node
    sampler: Sampler
    rng: KRng
    me: int
    actions: int
    c: float
    policy: bool
    epsilon: float
    opponent_policy: bool
    limit: int
    has_eval: bool
    has_hand: bool
    scores: list[int]

    def __init__(
        self,
        sampler: Sampler,
        rng: KRng,
        me: int,
        actions: int,
        c: float,
        policy: bool,
        epsilon: float,
        opponent_policy: bool,
        limit: int,
        has_eval: bool,
        has_hand: bool,
        scores: list[int],
    ) -> None:
        self.root = Node()
        self.sampler = sampler
        self.rng = rng
        self.me = me
        self.actions = actions
        self.c = c
        self.policy = policy
        self.epsilon = epsilon
        self.opponent_policy = opponent_policy and policy
        self.limit = limit
        self.has_eval = has_eval
        self.has_hand = has_hand
        self.scores = scores

    def run(self, iterations: int) -> None:
        """Run ``iterations`` iterations, each on a fresh determinization."""
        for _ in range(iterations):
            self.iterate(self.sampler.draw(self.rng))

    def root_visits(self) -> list[int]:
        """``[action id, visits, ...]`` of the root's children of the searching seat."""
        out: list[int] = []
        for key, child in self.root.children.items():
            if key // self.actions == self.me:
                out.append(key % self.actions)
                out.append(child.visits)
        return out

    def iterate(self, k: Kernel) -> None:
        """One iteration on the determinization ``k`` (played on in place)."""
        rng = self.rng
        actions = self.actions
        c = self.c
        me = self.me
        node = self.root
        path: list[Node] = []
        movers: list[int] = []
        to_act = k.actor()
        while to_act >= 0:
            if self.opponent_policy and to_act != me:
                # Another seat plays the playout policy: its node is only a step on the way.
                action = k.policy_action(rng, self.epsilon)
                key = to_act * actions + action
                step = node.children.get(key)
                if step is None:
                    step = Node()
                    node.children[key] = step
                k.apply(action)
                node = step
                to_act = k.actor()
                continue
            legal = k.legal()
            children = node.children
            base = to_act * actions
            untried: list[int] = []
            for a in legal:
                child = children.get(base + a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if len(untried) > 0:
                a = untried[rng.below(len(untried))]
                fresh = Node()
                children[base + a] = fresh
                k.apply(a)
                path.append(fresh)
                movers.append(to_act)
                break
            best_action = legal[0]
            best_score = -1.0
            for a in legal:
                child = children[base + a]
                score = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if score > best_score:
                    best_action = a
                    best_score = score
            node = children[base + best_action]
            k.apply(best_action)
            path.append(node)
            movers.append(to_act)
            to_act = k.actor()
        value = self.finish(k)
        for i in range(len(path)):
            child = path[i]
            child.visits += 1
            child.total += value[movers[i]]

    def finish(self, k: Kernel) -> list[float]:
        """The payoffs of an iteration that left the tree at ``k``: a playout, judged by
        :meth:`payoffs` (a subclass may end playouts otherwise:
        :class:`cardkit.kernels.trick_solver.SolvedSearch`)."""
        return self.payoffs(k, self.playout(k))

    def playout(self, k: Kernel) -> bool:
        """Play on until over, a hand scored (the scores changed at a chance node) or the
        step limit; True when cut off by the limit (the reference ``playout``)."""
        rng = self.rng
        scores = self.scores
        for _ in range(self.limit):
            to_act = k.actor()
            if to_act == OVER:
                return False
            if to_act < 0:
                if k.scores() != scores:
                    return False
                k.chance_random(rng)
            elif self.policy:
                k.apply(k.policy_action(rng, self.epsilon))
            else:
                legal = k.legal()
                k.apply(legal[rng.below(len(legal))])
        return k.actor() != OVER

    def payoffs(self, k: Kernel, cut: bool) -> list[float]:
        """Each seat's payoff in [0, 1], by the reference's order of cases."""
        over = k.actor() == OVER
        if cut and self.has_eval:
            return k.cutoff_values()
        if self.has_hand and not over:
            return k.hand_values()
        if over:
            return k.final_values()
        return k.score_values()



def flat_totals(
    sampler: Sampler,
    rng: KRng,
    ids: list[int],
    deals: int,
    me: int,
    epsilon: float,
    limit: int,
    scores: list[int],
    has_hand: bool,
) -> list[float]:
    """Perfect-information Monte Carlo (``cardkit.bots.pimc``): for ``deals``
    determinizations drawn by ``sampler``, every action of ``ids`` played and followed by
    a playout of the game's policy; returns each action's total payoff for ``me``. Every
    action of one determinization plays out on the same random stream (common random
    numbers), seeded by one draw of ``rng``."""
    totals = [0.0] * len(ids)
    for _ in range(deals):
        base = sampler.draw(rng)
        stream = rng.below(1 << 30)
        for i in range(len(ids)):
            k = base.copy()
            k.apply(ids[i])
            totals[i] += flat_value(k, KRng(stream), me, epsilon, limit, scores, has_hand)
    return totals


def flat_value(
    k: Kernel, rng: KRng, me: int, epsilon: float, limit: int, scores: list[int], has_hand: bool
) -> float:
    """``me``'s payoff after a playout of ``k`` (in place) by the policy, judged as
    :meth:`Search.payoffs` judges one (game over, a hand scored, or cut off)."""
    for _ in range(limit):
        to_act = k.actor()
        if to_act == OVER:
            return k.final_values()[me]
        if to_act < 0:
            if k.scores() != scores:
                if has_hand:
                    return k.hand_values()[me]
                return k.score_values()[me]
            k.chance_random(rng)
        else:
            k.apply(k.policy_action(rng, epsilon))
    if k.actor() == OVER:
        return k.final_values()[me]
    return k.cutoff_values()[me]
