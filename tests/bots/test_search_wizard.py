"""Wizard's Monte-Carlo bidder (BidSearchBot): legal, deterministic for an rng, blind to
what the seat cannot see, honouring ``Limit``. The solver and the bid totals it rests on:
tests/kernels/test_trick_solver.py."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardkit
from cardkit.bots import ISMCTSBot
from cardkit.bots.limit import Limit
from cardkit.bots.search_wizard import BidSearchBot
from cardkit.errors import ConfigError
from cardkit.testing.reach import secrets_reachable

from bots_helpers import twin_seat_state


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
        twin = twin_seat_state(game, seat, random.Random(checked))
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
