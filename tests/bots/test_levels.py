"""Levels (``level:N``), budgets (:class:`Limit`) and ``explain``: parsed everywhere, legal,
deterministic, explained, and blind to what the seat cannot see."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import cardkit
from cardkit.bots import (
    DEFAULT_LEVEL,
    LEVELS,
    BeginnerBot,
    Explanation,
    ISMCTSBot,
    Limit,
    RandomBot,
    RuleBot,
    level_bot,
    make_bot,
)
from cardkit.bots.arena import run_arena
from cardkit.bots.per_game import PerGameBot
from cardkit.bots.pimc import PIMCBot
from cardkit.bots.search_spacc_u_mazz import EagerShedderBot
from cardkit.errors import ConfigError

from bots_helpers import GAMES, SHORT, positions, twin_seat_state

SMALL = Limit(iterations=40)
"""Levels 3-5 differ only in their budget: the tests search this much (their budgets are
checked separately), so every level plays every game in a few seconds (a per-game recipe
with a budget searches this much too)."""


def _small(number: int) -> Any:
    recipe = LEVELS[number - 1].recipe
    if recipe.limit is not None:
        games = tuple(
            (name, attrs.evolve(r, limit=SMALL, bids=None if r.bids is None else 4 * (SMALL.iterations or 1)) if r.limit is not None else r)
            for name, r in recipe.games
        )  # a Monte-Carlo bidder bids on as small a budget as it plays
        recipe = attrs.evolve(recipe, limit=SMALL, games=games)
    return recipe.make()



def test_the_levels_table() -> None:
    assert [lv.number for lv in LEVELS] == [1, 2, 3, 4, 5] and DEFAULT_LEVEL == 3
    assert [lv.spec for lv in LEVELS] == [f"level:{n}" for n in range(1, 6)]
    assert len({lv.name for lv in LEVELS}) == 5 and all(lv.summary for lv in LEVELS)
    assert isinstance(make_bot("level:1"), BeginnerBot)
    assert isinstance(make_bot("level:2"), RuleBot)
    budgets = [make_bot(f"level:{n}").limit.iterations for n in (3, 4, 5)]
    assert budgets == sorted(budgets) and len(set(budgets)) == 3, "more budget each level"
    assert all(make_bot(f"level:{n}").limit.deterministic for n in (3, 4, 5))


@pytest.mark.parametrize("spec", ["level", "level:0", "level:6", "level:x", "level:", "level:1:2", "level:-1", "level:²"])
def test_bad_level_specs(spec: str) -> None:
    with pytest.raises(ConfigError, match="level"):
        make_bot(spec)
    with pytest.raises(ConfigError):
        level_bot(True)  # type: ignore[arg-type]


def test_level_names_in_the_cli_and_the_arena() -> None:
    from cardkit.cli.play import PlaySession

    session = PlaySession.start("crazy-eights", players=3, seat=0, bots="level:1,level:3", seed=1)
    assert isinstance(session.bots[1], BeginnerBot) and isinstance(session.bots[2], PerGameBot)
    # level 3: ISMCTS by default, PIMC in Crazy Eights, the eager shedder in Spacc 'u Mazz
    assert isinstance(session.bots[2].default, ISMCTSBot) and session.bots[2].default.iterations == 1000
    crazy = session.bots[2].bot_for("crazy-eights")
    assert isinstance(crazy, PIMCBot) and crazy.limit == Limit(iterations=1000)
    assert isinstance(session.bots[2].bot_for("spacc-u-mazz"), EagerShedderBot)
    report = run_arena("crazy-eights", 2, ["level:1", "level:2"], games=4, seed=3)
    assert report.games == 4 and len(report.outcomes) == 4 and report.unfinished == 0


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("number", [1, 2, 3, 4, 5])
def test_every_level_plays_legal_moves(name: str, number: int) -> None:
    bot = _small(number)
    played = 0
    for game in positions(name, 40 + number, 3):
        seat = game.to_act
        assert seat is not None
        ss = game.seat_state(seat)
        action = bot.choose(ss, random.Random(played))
        assert action in ss.legal_actions
        played += 1
    assert played == 3


def test_the_default_level_at_its_full_budget() -> None:
    game = next(positions("wizard", 5, 1))
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    assert make_bot("level:3").choose(ss, random.Random(0)) in ss.legal_actions


@pytest.mark.parametrize("name", GAMES)
def test_iterations_make_the_bots_deterministic(name: str) -> None:
    for game in positions(name, 60, 2):
        ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
        for bot in (_small(1), ISMCTSBot(limit=Limit(iterations=60))):
            first = [bot.choose(ss, random.Random(s)) for s in range(3)]
            assert first == [bot.choose(ss, random.Random(s)) for s in range(3)]
            assert bot.explain(ss, random.Random(7)) == bot.explain(ss, random.Random(7))


def test_the_beginner_slips_sometimes_and_plays_the_rule_otherwise() -> None:
    game = next(g for g in positions("crazy-eights", 8, 10) if len(g.legal_actions()) >= 3)
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    rule = RuleBot().choose(ss, random.Random(0))
    picks = [BeginnerBot(0.3).choose(ss, random.Random(s)) for s in range(200)]
    slips = sum(p != rule for p in picks)
    assert 30 <= slips <= 90, slips  # about 30% of 200
    assert all(BeginnerBot(0.0).choose(ss, random.Random(s)) == rule for s in range(20))
    with pytest.raises(ConfigError):
        BeginnerBot(1.5)


def test_the_beginner_slips_only_to_near_actions() -> None:
    from cardkit.games.cutthroat_spades.actions import Bid, SpecialBid

    legal = (Bid(1), Bid(2), Bid(3), Bid(4), SpecialBid("nil"))
    assert BeginnerBot.near(Bid(2), legal) == [Bid(1), Bid(3)]
    assert BeginnerBot.near(SpecialBid("nil"), legal) == []


def test_limit_validation() -> None:
    assert Limit(iterations=5).deterministic and not Limit(time_ms=5).deterministic
    assert str(Limit(iterations=10, time_ms=2.5)) == "10 iterations or 2.5 ms"
    for bad in ({}, {"iterations": 0}, {"iterations": 1.5}, {"iterations": True}, {"time_ms": 0},
                {"time_ms": -1}, {"time_ms": float("nan")}, {"time_ms": "5"}, {"iterations": None, "time_ms": None}):
        with pytest.raises(ConfigError, match="Limit"):
            Limit(**bad)  # type: ignore[arg-type]
    bot = ISMCTSBot(limit=Limit(time_ms=50))
    assert bot.iterations is None and bot.time_ms == 50 and bot.limit == Limit(time_ms=50)
    assert ISMCTSBot(iterations=300).limit == Limit(iterations=300)  # the old parameters still work
    with pytest.raises(ConfigError, match="not both"):
        ISMCTSBot(iterations=10, limit=Limit(iterations=10))
    with pytest.raises(ConfigError, match="Limit"):
        ISMCTSBot(limit=1000)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_explain_lists_legal_actions_in_order_with_reasons(name: str) -> None:
    checked = 0
    for game in positions(name, 70, 3):
        ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
        for bot in (ISMCTSBot(limit=Limit(iterations=80)), RuleBot(), _small(1), RandomBot()):
            rows = bot.explain(ss, random.Random(4))
            assert rows and all(isinstance(r, Explanation) for r in rows)
            assert all(r.action in ss.legal_actions and r.reason.strip() and "\n" not in r.reason for r in rows)
            assert all(0.0 <= r.value <= 1.0 for r in rows)
            assert len({str(r.action) for r in rows}) == len(rows)
            assert rows[0].action == bot.choose(ss, random.Random(4)), "the first row is the choice"
            if isinstance(bot, ISMCTSBot) and len(ss.legal_actions) > 1:
                visits = [r.visits for r in rows]
                assert visits == sorted(visits, reverse=True) and sum(visits) <= 80  # type: ignore[arg-type]
                assert "deals searched" in rows[0].reason
            else:
                values = [r.value for r in rows]
                assert values == sorted(values, reverse=True)
        checked += 1
    assert checked == 3


def test_explain_gives_player_reasons() -> None:
    # a bid says what it expects; the rule strategy's reason is kept where the search agrees
    game = cardkit.new_game("wizard", players=3, seed=3, rounds=3)
    while not all(str(a).startswith("bid") for a in game.legal_actions()):
        game = game.play(game.legal_actions()[0])
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    rows = ISMCTSBot(limit=Limit(iterations=200)).explain(ss, random.Random(1), top=5)
    assert all(r.reason.startswith(str(r.action)) for r in rows)
    assert all(("expects to take" in r.reason) or ("worth about" in r.reason) for r in rows), rows


@pytest.mark.parametrize("name", GAMES)
def test_no_peek_for_every_level(name: str) -> None:
    """Two true states the seat cannot tell apart: the same choice and the same explanation."""
    checked = 0
    for game in positions(name, 80, 2):
        seat = game.to_act
        assert seat is not None
        mine = game.seat_state(seat)
        twin = twin_seat_state(game, seat, random.Random(checked))
        assert twin.masked == mine.masked
        for number in range(1, 6):
            bot = _small(number)
            assert bot.choose(mine, random.Random(2)) == bot.choose(twin, random.Random(2))
            assert bot.explain(mine, random.Random(3)) == bot.explain(twin, random.Random(3))
        checked += 1
    assert checked == 2


def test_explain_on_a_game_without_a_rule_strategy() -> None:
    from test_ismcts_search import CoinSeatState

    seat_state: Any = CoinSeatState()
    rows = ISMCTSBot(limit=Limit(iterations=300)).explain(seat_state, random.Random(0), top=2)
    assert [r.action for r in rows] == ["safe", "risky"]
    assert abs(rows[0].value - 1 / 3) < 1e-9 and rows[1].value < rows[0].value  # safe: a three-way tie
    assert rows[0].reason == f"safe: wins about 33% in {rows[0].visits} deals searched"


def test_the_search_levels_weigh_more_beliefs_each_level() -> None:
    pools = [LEVELS[n - 1].recipe.pool for n in (3, 4, 5)]
    assert all(p is not None for p in pools) and pools == sorted(pools) and len(set(pools)) == 3  # type: ignore[type-var]
    bot = make_bot("level:3")
    assert isinstance(bot, PerGameBot)
    wizard = bot.bot_for("wizard")  # the game with beliefs searches with the level's pool
    assert isinstance(wizard, ISMCTSBot) and wizard.pool == pools[0]
    assert "belief pool" in str(LEVELS[2].recipe)
