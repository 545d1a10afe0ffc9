"""The last-tricks solver (any trick-taking kernel), Monte-Carlo bidding and the search
that ends its playouts by the solver: exact, legal, deterministic for an rng, blind to what
the seat cannot see, honouring ``Limit``."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardkit
from cardkit.bots import ISMCTSBot
from cardkit.bots.kernel_search import new_search
from cardkit.bots.limit import Limit
from cardkit.bots.search_wizard import BidSearchBot
from cardkit.core.seat import SeatState
from cardkit.errors import ConfigError
from cardkit.kernels._base import Kernel, KRng
from cardkit.kernels.bridge import bridge_for
from cardkit.kernels.trick_solver import SolvedSearch, bid_totals, hand_points, solve
from cardkit.testing.reach import secrets_reachable

from bots_helpers import SHORT, permuted

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
    from cardkit.bots.kernel_search import deal_sampler

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


def _bot(**kw: Any) -> BidSearchBot:
    return BidSearchBot(Limit(iterations=kw.pop("iterations", 40)), pool=30, **kw)


def _decisions(seed: int, count: int) -> list[cardkit.Game]:
    """Wizard positions with a choice: bids and trumps first, then card plays."""
    rng = random.Random(seed)
    game = cardkit.new_game("wizard", players=3, seed=seed, rounds=5)
    out = []
    while not game.is_over and len(out) < count:
        if len(game.legal_actions()) > 1 and game.state.round >= 2 and rng.random() < 0.4:
            out.append(game)
        game = game.play(rng.choice(game.legal_actions()))
    return out


def test_bid_search_is_legal_deterministic_and_explains() -> None:
    bot = _bot(solve_at=2)
    kinds = set()
    for game in _decisions(5, 6):
        ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
        first = bot.choose(ss, random.Random(4))
        assert first in ss.legal_actions and first == bot.choose(ss, random.Random(4))
        rows = bot.explain(ss, random.Random(4))
        assert rows[0].action == first and all(0.0 <= r.value <= 1.0 and r.reason for r in rows)
        kinds.add(bot.bidding(ss))
        if bot.bidding(ss):
            assert "points a round on average" in rows[0].reason
    assert kinds == {True, False}


def test_bid_search_never_peeks() -> None:
    """Two true states the seat cannot tell apart: the same bid values and choices, and
    nothing of the true state reachable from the bot."""
    checked = 0
    for game in _decisions(9, 6):
        seat = game.to_act
        assert seat is not None
        mine = game.seat_state(seat)
        other = permuted(game.rules, game.state, seat, random.Random(checked))
        twin = SeatState.of(game.rules, game.config, other, seat, game.events_for(seat))
        assert twin.masked == mine.masked
        bot = _bot(solve_at=2)
        if bot.bidding(mine):
            assert bot.bid_values(mine, random.Random(2)) == bot.bid_values(twin, random.Random(2))
        assert bot.choose(mine, random.Random(2)) == bot.choose(twin, random.Random(2))
        assert secrets_reachable([bot, bot.play], game) == []
        checked += 1
    assert checked == 6


def test_bid_search_honours_its_limit() -> None:
    game = next(g for g in _decisions(5, 6) if BidSearchBot().bidding(g.seat_state(g.to_act)))  # type: ignore[arg-type]
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    capped = BidSearchBot(Limit(iterations=10**6, time_ms=30), pool=20)
    capped.choose(ss, random.Random(0))
    assert 0 < capped.last_deals < 10**6 // len(ss.legal_actions)
    counted = _bot(iterations=len(ss.legal_actions) * 7)
    counted.choose(ss, random.Random(0))
    assert counted.last_deals == 7


def test_bid_search_settings_are_checked() -> None:
    for bad in ({"solve_at": -1}, {"solve_at": True}, {"bid_epsilon": 2.0}, {"own": 1.5}):
        with pytest.raises(ConfigError):
            BidSearchBot(Limit(iterations=5), **bad)
    with pytest.raises(ConfigError):
        ISMCTSBot(iterations=5, solve_at=-2)
    with pytest.raises(ConfigError):
        BidSearchBot("fast")  # type: ignore[arg-type]


def test_bid_search_spec() -> None:
    from cardkit.bots.spec import make_bot

    bot = make_bot("bid-search:50:2")
    assert isinstance(bot, BidSearchBot) and bot.limit == Limit(iterations=50)
    assert bot.pool == 50 and bot.solve_at == 2 and bot.play.solve_at == 2
    assert make_bot("bid-search").solve_at == 0
    for bad in ("bid-search:0", "bid-search:x", "bid-search:5:2:1", "bid-search:5:-1"):
        with pytest.raises(ConfigError):
            make_bot(bad)


def test_wizard_levels_climb_by_algorithm_and_budget() -> None:
    """Wizard's own recipes: level 3 the search, levels 4 and 5 Monte-Carlo bidding with
    the last-tricks solver, each with more budget and belief pool."""
    from cardkit.bots import LEVELS
    from cardkit.bots.per_game import PerGameBot
    from cardkit.bots.spec import make_bot

    bots = [make_bot(f"level:{n}") for n in (3, 4, 5)]
    assert all(isinstance(b, PerGameBot) for b in bots)
    wizard = [b.bot_for("wizard") for b in bots]
    assert isinstance(wizard[0], ISMCTSBot) and wizard[0].solve_at == 0
    assert all(isinstance(w, BidSearchBot) for w in wizard[1:])
    budgets = [w.limit.iterations for w in wizard]
    assert budgets == sorted(budgets) and len(set(budgets)) == 3
    assert [w.solve_at for w in wizard] == [0, 2, 2]
    assert "Monte-Carlo bidding" in str(LEVELS[3].recipe) and "exact last 2 tricks" in str(LEVELS[4].recipe)


def test_own_points_weigh_into_the_payoff() -> None:
    """``own=1``: a finished hand pays each seat the logistic of its own points for it."""
    import math

    from cardkit.kernels.trick_solver import OWN_SPREAD

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
