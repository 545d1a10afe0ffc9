"""The exact last-tricks solver (cardkit.kernels.trick_solver) and the search and the
Monte-Carlo bidding built on it. Runs against whichever build of the kernels is loaded
(tests/test_kernel_build.py runs it under the other one too)."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import cardkit
from cardkit.bots.kernel_search import deal_sampler, new_search
from cardkit.kernels._base import Kernel, KRng
from cardkit.kernels.bridge import bridge_for
from cardkit.kernels.trick_solver import OWN_SPREAD, SolvedSearch, bid_totals, hand_points, solve

SHORT: dict[str, dict[str, Any]] = {"wizard": {"rounds": 5}, "cutthroat-spades": {"max_hands": 3, "wins_needed": 1}}

TRICK_GAMES = ("wizard", "cutthroat-spades")


def _late_positions(name: str, seed: int, most_cards: int, count: int) -> list[cardkit.Game]:
    """Positions of card play (RuleBots at every seat) where the seat to act holds at
    most ``most_cards`` cards, from games of ``seed``, ``seed + 1``, ..."""
    rule = cardkit.bots.RuleBot()
    out: list[cardkit.Game] = []
    while len(out) < count:
        game = cardkit.new_game(name, players=3, seed=seed, **SHORT[name])
        rng = random.Random(seed)
        while not game.is_over and len(out) < count:
            seat = game.to_act
            assert seat is not None
            ss = game.seat_state(seat)
            bridge = bridge_for(game.rules, game.config)
            assert bridge is not None
            k = bridge.kernel(game.state)
            if k.solvable() and 1 < k.held(seat) <= most_cards and rng.random() < 0.5:
                out.append(game)
            game = game.play(rule.choose(ss, rng), seat)
        seed += 1
    return out


def _maxn(k: Kernel, start: list[int]) -> list[int]:
    """Each seat's points for the hand under max-n with the solver's tie-breaks, by brute
    force over every line (the oracle: the values of every child, then the choice)."""
    if k.actor() < 0 or not k.solvable():
        return [s - b for s, b in zip(k.scores(), start)]
    me = k.actor()
    best: list[int] | None = None
    for action in k.legal():
        child = k.copy()
        child.apply(action)
        value = _maxn(child, start)
        others = sum(value) - value[me]
        if best is None or (value[me], -others) > (best[me], -(sum(best) - best[me])):
            best = value
    assert best is not None
    return best


@pytest.mark.parametrize("name", TRICK_GAMES)
def test_the_solver_is_exact_max_n(name: str) -> None:
    """On the true deals of late positions the solver's line ends the hand and is worth to
    every seat what brute-force max-n says; no first card gives the mover more."""
    for game in _late_positions(name, 40, 3, 6):
        bridge = bridge_for(game.rules, game.config)
        assert bridge is not None
        k = bridge.kernel(game.state)
        start = k.scores()
        leaf = solve(k.copy(), start)
        assert leaf.actor() < 0 or not leaf.solvable()
        got = [s - b for s, b in zip(leaf.scores(), start)]
        assert got == _maxn(k, start)
        me = k.actor()
        for action in k.legal():
            child = k.copy()
            child.apply(action)
            assert solve(child, start).scores()[me] - start[me] <= got[me]


def test_a_solved_search_ends_playouts_by_the_solver_and_stays_deterministic() -> None:
    game = _late_positions("wizard", 60, 3, 1)[0]
    seat = game.to_act
    assert seat is not None
    ss = game.seat_state(seat)
    bridge = bridge_for(ss.rules, ss.config)
    assert bridge is not None

    def run(solve_at: int, seed: int) -> Any:
        search = new_search(
            ss, bridge, random.Random(seed), c=0.7, policy=True, epsilon=0.2, opponent_policy=True,
            limit=400, has_eval=False, has_hand=True, beliefs="policy", pool=50, solve_at=solve_at,
        )  # fmt: skip
        search.run(60)
        return search

    solved = run(3, 1)
    assert isinstance(solved, SolvedSearch) and solved.solved > 0
    assert solved.root_visits() == run(3, 1).root_visits()
    assert not isinstance(run(0, 1), SolvedSearch)


def test_bid_totals_play_every_bid_on_the_same_deals() -> None:
    """Common random numbers: a bid's total is the sum of its hand points over the deals
    the sampler draws, each deal played out on one stream for every bid."""
    game = cardkit.new_game("wizard", players=3, seed=8, rounds=5)
    rule = cardkit.bots.RuleBot()
    while game.state.round < 3 or game.state.phase != "bid":
        seat = game.to_act
        assert seat is not None
        game = game.play(rule.choose(game.seat_state(seat), random.Random(0)), seat)
    seat = game.to_act
    assert seat is not None
    ss = game.seat_state(seat)
    bridge = bridge_for(ss.rules, ss.config)
    assert bridge is not None
    ids = [bridge.action_id(a) for a in ss.legal_actions]
    scores = [int(s) for s in ss.rules.scores(ss.masked)]
    totals = bid_totals(deal_sampler(ss, bridge), KRng(3), ids, 5, seat, 0.2, 400, scores, 2, False)
    sampler, rng = deal_sampler(ss, bridge), KRng(3)
    expect = [0.0] * len(ids)
    for _ in range(5):
        base = sampler.draw(rng)
        stream = rng.below(1 << 30)
        for i, action in enumerate(ids):
            k = base.copy()
            k.apply(action)
            expect[i] += hand_points(k, KRng(stream), seat, 0.2, 400, scores, 2, False)
    assert totals == expect
    # a bid of every trick in the hand is worth less than the rule bot's estimate here
    assert len(set(totals)) > 1


def test_own_points_weigh_into_the_payoff() -> None:
    """``own=1``: a finished hand pays each seat the logistic of its own points for it."""
    game = _late_positions("wizard", 70, 2, 1)[0]
    seat = game.to_act
    assert seat is not None
    ss = game.seat_state(seat)
    bridge = bridge_for(ss.rules, ss.config)
    assert bridge is not None
    search = new_search(
        ss, bridge, random.Random(0), c=0.7, policy=True, epsilon=0.2, opponent_policy=True,
        limit=400, has_eval=False, has_hand=True, beliefs="uniform", own=1.0,
    )  # fmt: skip
    k = bridge.kernel(game.state)
    start = k.scores()
    leaf = solve(k.copy(), start)
    got = search.payoffs(leaf, False)
    want = [1.0 / (1.0 + math.exp(-(a - b) / OWN_SPREAD)) for a, b in zip(leaf.scores(), start)]
    assert got == pytest.approx(want)
    plain = new_search(
        ss, bridge, random.Random(0), c=0.7, policy=True, epsilon=0.2, opponent_policy=True,
        limit=400, has_eval=False, has_hand=True, beliefs="uniform",
    )  # fmt: skip
    assert plain.payoffs(leaf, False) != pytest.approx(want)
