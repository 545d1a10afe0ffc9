"""An exact solver for the last tricks of a hand, and Monte-Carlo bidding, on any
trick-taking game kernel.

Compiled with mypyc together with the kernels (restricted typed Python, see
:mod:`cardkit.kernels._base`; it imports nothing of cardkit but the kernel base and the
search). It reads a kernel only through the contract of :mod:`cardkit.kernels._base`,
plus :meth:`~cardkit.kernels._base.Kernel.solvable` (the rest of the hand is card play
alone: no chance, no bid, no choice of trump), so any trick-taking kernel that answers
``solvable()`` is served (Wizard's does; a kernel that keeps the base's ``False`` is never
solved).

The solver (:func:`solve`) plays a *determinization* (every hand known) to the end of the
hand by **max-n**: at each position the seat to act picks the legal card that gives it the
most points *this hand* (its score at the end of the hand minus its score now, the
game's own scoring, so an exact bid pays and a missed one costs), assuming each later
seat does the same; among plays worth the same to it, the one that leaves the other
seats the fewest points together (a slightly *paranoid* tie-break: a seat whose own
score no longer depends on the trick spoils the others' bids rather than help them),
then the earlier legal play. The answer is the kernel at the end of the hand reached by
that line (its scores, and whatever payoff the game gives a finished hand). Max-n has no
alpha-beta pruning; the cost grows like the product of the seats' choices per trick, so
the search uses it for the last few tricks only (``solve_at`` cards in the searching
seat's hand): about 200 lines for three tricks of three seats, at most 14,000 for four.

:class:`SolvedSearch` is :class:`~cardkit.kernels.search.Search` whose playouts, once the
hand is solvable and the searching seat holds at most ``solve_at`` cards, end by the
solver's line instead of the playout policy. :func:`bid_totals` is Monte-Carlo bidding
(and trump naming): for each sampled deal, every candidate action is played and the hand
played out on the *same* deal and the same random stream (common random numbers), by the
playout policy and the solver for its last tricks; it returns each action's total of the
searching seat's points for the hand.
"""

from __future__ import annotations

import math
from typing import Final

from cardkit.kernels._base import Kernel, KRng
from cardkit.kernels.search import Sampler, Search

__all__ = ["solve", "SolvedSearch", "bid_totals", "hand_points", "OWN_SPREAD"]

OWN_SPREAD: Final = 20.0
"""Points of a hand worth one logistic unit in :meth:`SolvedSearch.payoffs`' own-points term."""


def solve(k: Kernel, start: list[int]) -> Kernel:
    """The kernel at the end of the hand reached by max-n play from ``k`` (see the module
    docs; ``start``: every seat's score before the hand, so that a line's worth to a seat
    is its score then minus ``start``). ``k`` must be solvable or at the end of the hand;
    it may be played on in place (pass a copy to keep it)."""
    if k.actor() < 0 or not k.solvable():
        return k
    legal = k.legal()
    if len(legal) == 1:
        k.apply(legal[0])
        return solve(k, start)
    me = k.actor()
    best: Kernel = k
    best_mine = 0
    best_others = 0
    found = False
    last = len(legal) - 1
    for i in range(len(legal)):
        child = k if i == last else k.copy()
        child.apply(legal[i])
        leaf = solve(child, start)
        scores = leaf.scores()
        mine = scores[me] - start[me]
        others = 0
        for s in range(len(scores)):
            if s != me:
                others += scores[s] - start[s]
        if not found or mine > best_mine or (mine == best_mine and others < best_others):
            best = leaf
            best_mine = mine
            best_others = others
            found = True
    return best


class SolvedSearch(Search):
    """:class:`~cardkit.kernels.search.Search` whose playouts end by :func:`solve` once
    the hand is solvable and the searching seat holds at most ``solve_at`` cards."""

    solve_at: int
    solved: int

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
        solve_at: int,
        own: float,
    ) -> None:
        super().__init__(
            sampler, rng, me, actions, c, policy, epsilon, opponent_policy, limit, has_eval, has_hand, scores
        )
        self.solve_at = solve_at
        self.own = own
        self.solved = 0

    def payoffs(self, k: Kernel, cut: bool) -> list[float]:
        """The game's payoffs, blended with weight ``own`` with each seat's own points for
        the hand (the logistic of its points over :data:`OWN_SPREAD`)."""
        value = Search.payoffs(self, k, cut)
        own = self.own
        if own <= 0.0:
            return value
        now = k.scores()
        start = self.scores
        for s in range(len(value)):
            z = (now[s] - start[s]) / OWN_SPREAD
            value[s] = (1.0 - own) * value[s] + own / (1.0 + math.exp(-z))
        return value

    def finish(self, k: Kernel) -> list[float]:
        """A playout by the policy, ended by the solver's line once solvable."""
        rng = self.rng
        scores = self.scores
        me = self.me
        for _ in range(self.limit):
            to_act = k.actor()
            if to_act >= 0 and self.solve_at > 0 and k.held(me) <= self.solve_at and k.solvable():
                self.solved += 1
                leaf = solve(k, scores)
                return self.payoffs(leaf, False)
            if to_act == -2:
                return self.payoffs(k, False)
            if to_act < 0:
                if k.scores() != scores:
                    return self.payoffs(k, False)
                k.chance_random(rng)
            elif self.policy:
                k.apply(k.policy_action(rng, self.epsilon))
            else:
                legal = k.legal()
                k.apply(legal[rng.below(len(legal))])
        return self.payoffs(k, k.actor() != -2)


def hand_points(
    k: Kernel, rng: KRng, me: int, epsilon: float, limit: int, scores: list[int], solve_at: int, lead: bool
) -> float:
    """``me``'s points for the hand after ``k`` (played on in place) is played to its end
    by the playout policy, the last tricks by :func:`solve` (``solve_at`` > 0), chance by
    ``rng``; a playout cut off by ``limit`` counts the points so far. With ``lead``, the
    game's payoff of the finished hand instead (``hand_values``, or ``final_values`` once
    the game is over), in [0, 1]."""
    for _ in range(limit):
        to_act = k.actor()
        if to_act >= 0 and solve_at > 0 and k.held(me) <= solve_at and k.solvable():
            k = solve(k, scores)
            break
        if to_act == -2:
            break
        if to_act < 0:
            if k.scores() != scores:
                break
            k.chance_random(rng)
        else:
            k.apply(k.policy_action(rng, epsilon))
    if lead:
        if k.actor() == -2:
            return k.final_values()[me]
        return k.hand_values()[me]
    return float(k.scores()[me] - scores[me])


def bid_totals(
    sampler: Sampler,
    rng: KRng,
    ids: list[int],
    deals: int,
    me: int,
    epsilon: float,
    limit: int,
    scores: list[int],
    solve_at: int,
    lead: bool,
) -> list[float]:
    """Monte-Carlo bidding: for ``deals`` determinizations drawn by ``sampler``, each
    action of ``ids`` played, then the hand by :func:`hand_points`; returns each action's
    total points for ``me`` (with ``lead``: its total payoff). Every action of one deal plays out on the same random stream
    (common random numbers), seeded by one draw of ``rng``."""
    totals = [0.0] * len(ids)
    for _ in range(deals):
        base = sampler.draw(rng)
        stream = rng.below(1 << 30)
        for i in range(len(ids)):
            k = base.copy()
            k.apply(ids[i])
            totals[i] += hand_points(k, KRng(stream), me, epsilon, limit, scores, solve_at, lead)
    return totals
