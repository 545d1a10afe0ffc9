"""Crazy Eights beliefs, PIMC, Spacc 'u Mazz's eager shedder and per-game recipes: sound
(the true state always fits the rule strategy's moves), legal, deterministic for an rng,
blind to what the seat cannot see."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardkit
from cardkit.bots import RuleBot
from cardkit.bots.limit import Limit
from cardkit.bots.per_game import PerGameBot
from cardkit.bots.pimc import PIMCBot
from cardkit.bots.search_crazy_eights import Chose, Moment, Named, crazy_eights_fit, kernel_pool, moments, weight
from cardkit.bots.search_spacc_u_mazz import EagerShedderBot, ShedderSearchBot, candidates, eager_decide, spacc_constraints
from cardkit.bots.kernel_search import deal_sampler
from cardkit.core.seat import SeatState
from cardkit.errors import ConfigError
from cardkit.games.spacc_u_mazz.actions import Draw, Play
from cardkit.kernels._base import KRng
from cardkit.kernels.bridge import bridge_for
from cardkit.testing.reach import secrets_reachable

from bots_helpers import positions, twin_seat_state


def _rule_game(seed: int) -> cardkit.Game:
    return cardkit.new_game("crazy-eights", players=3, seed=seed)


def test_the_true_state_fits_every_belief_of_rule_players() -> None:
    """RuleBots at every seat: every moment, named suit and chosen card holds in the true
    state (the beliefs are necessary conditions of the strategy), and there are some."""
    kinds: set[type] = set()
    checked = 0
    for seed in range(12):
        game = _rule_game(seed)
        bot = RuleBot()
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            ss = game.seat_state(seat)
            found = moments(ss.events, seat)
            kinds.update(type(m) for m in found)
            assert crazy_eights_fit(ss.rules, game.state, ss.events, seat, 0.2) == 1.0
            checked += len(found)
            game = game.play(bot.choose(ss, random.Random(0)), seat)
    assert kinds == {Moment, Named, Chose} and checked > 100


def test_a_draw_says_the_seat_held_no_playable_card() -> None:
    game = _rule_game(3)
    bot = RuleBot()
    while True:  # play until another seat draws by choice while seat 0 watches
        seat = game.to_act
        assert seat is not None
        game = game.play(bot.choose(game.seat_state(seat), random.Random(0)), seat)
        found = [m for m in moments(game.events_for(0), 0) if type(m) is Moment]
        if found:
            break
    m = found[0]
    assert m.seat != 0 and m.later == 0
    # a hand holding two cards of the moment breaks it once; holding none keeps the weight
    two = [i for i in range(52) if m.mask >> i & 1][:2]
    hands = [0, 0, 0]
    assert weight(hands, [m]) == 1.0
    hands[m.seat] = (1 << two[0]) | (1 << two[1])
    assert weight(hands, [m], 0.1) == pytest.approx(0.1)


def test_kernel_pool_prefers_deals_that_fit() -> None:
    for game in positions("crazy-eights", 5, 30):
        ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
        found = moments(ss.events, ss.seat)
        if len(found) < 3:
            continue
        bridge = bridge_for(game.rules, game.config)
        assert bridge is not None
        pooled = kernel_pool(ss, deal_sampler(ss, bridge), KRng(4))
        assert pooled is not None
        kernels, cumulative = pooled
        assert len(kernels) == len(cumulative) and cumulative == sorted(cumulative)
        weights = [weight(k.mask, found) for k in kernels]
        assert cumulative[-1] == pytest.approx(sum(weights))
        return
    pytest.fail("no position with three beliefs")


@pytest.mark.parametrize("name", ["crazy-eights", "spacc-u-mazz"])
def test_pimc_is_legal_deterministic_and_explains_its_choice(name: str) -> None:
    bot = PIMCBot(Limit(iterations=40))
    played = 0
    for game in positions(name, 30, 3):
        ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
        first = bot.choose(ss, random.Random(5))
        assert first in ss.legal_actions
        assert first == bot.choose(ss, random.Random(5))
        rows = bot.explain(ss, random.Random(5))
        assert rows[0].action == first and all(0.0 <= r.value <= 1.0 for r in rows)
        played += 1
    assert played == 3


def test_pimc_settings_are_checked() -> None:
    for bad in (Limit(time_ms=5), Limit(iterations=5, time_ms=5)):
        with pytest.raises(ConfigError):
            PIMCBot(bad)
    with pytest.raises(ConfigError):
        PIMCBot(Limit(iterations=5), beliefs="psychic")
    with pytest.raises(ConfigError):
        PIMCBot(Limit(iterations=5), epsilon=2.0)


@pytest.mark.parametrize("name", ["crazy-eights", "spacc-u-mazz"])
def test_no_peek_for_pimc_and_the_eager_shedder(name: str) -> None:
    """Two true states the seat cannot tell apart: the same values and choices."""
    checked = 0
    for game in positions(name, 21, 3):
        seat = game.to_act
        assert seat is not None
        mine = game.seat_state(seat)
        twin = twin_seat_state(game, seat, random.Random(checked))
        assert twin.masked == mine.masked
        for beliefs in ("uniform", "policy"):
            bot = PIMCBot(Limit(iterations=30), beliefs=beliefs)
            assert bot.values(mine, random.Random(9)) == bot.values(twin, random.Random(9))
            assert secrets_reachable([bot], game) == []
        eager = EagerShedderBot()
        assert eager.explain(mine, random.Random(1)) == eager.explain(twin, random.Random(1))
        checked += 1
    assert checked == 3


def test_the_eager_shedder_plays_a_two_where_the_rule_draws() -> None:
    found = 0
    rule = RuleBot()
    for seed in range(6):
        game = cardkit.new_game("spacc-u-mazz", players=3, seed=seed)
        while not game.is_over and found < 3:
            seat = game.to_act
            assert seat is not None
            ss = game.seat_state(seat)
            drawn = rule.choose(ss, random.Random(0))
            eager, reason = eager_decide(ss.masked, seat, ss.legal_actions)
            if isinstance(drawn, Draw) and any(isinstance(a, Play) for a in ss.legal_actions):
                assert isinstance(eager, Play) and reason.startswith(str(eager))
                assert {c.rank for c in eager.hand + eager.up} <= {2, 10}
                found += 1
            else:
                assert eager == drawn
            game = game.play(drawn, seat)
    assert found == 3


def test_per_game_bot_plays_each_game_by_its_own_bot() -> None:
    bot = PerGameBot(RuleBot(), {"spacc-u-mazz": EagerShedderBot()})
    assert isinstance(bot.bot_for("spacc-u-mazz"), EagerShedderBot)
    assert isinstance(bot.bot_for("wizard"), RuleBot)
    for name in ("crazy-eights", "spacc-u-mazz"):
        game = next(positions(name, 2, 1))
        ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
        assert bot.choose(ss, random.Random(0)) == bot.bot_for(name).choose(ss, random.Random(0))
        assert bot.explain(ss, random.Random(0))[0].action == bot.choose(ss, random.Random(0))


def test_the_kernels_eager_policy_is_the_eager_shedder() -> None:
    """``eager_action`` on the kernel plays what :func:`eager_decide` plays, position by
    position (and the rule where they agree), and ``eager_seats`` picks it for playouts."""
    differ = 0
    checked = 0
    rule = RuleBot()
    for seed in range(3):
        game = cardkit.new_game("spacc-u-mazz", players=3, seed=seed)
        bridge = bridge_for(game.rules, game.config)
        assert bridge is not None
        while not game.is_over and checked < 400:
            seat = game.to_act
            assert seat is not None
            ss = game.seat_state(seat)
            kernel: Any = bridge.kernel(game.state)
            eager = eager_decide(game.state, seat, ss.legal_actions)[0]
            assert kernel.eager_action() == bridge.action_id(eager)
            assert kernel.rule_action() == bridge.action_id(rule.choose(ss, random.Random(0)))
            differ += kernel.eager_action() != kernel.rule_action()
            kernel.eager_seats = 1 << seat
            assert kernel.policy_action(KRng(3), 0.0) == kernel.eager_action()
            assert kernel.copy().eager_seats == 1 << seat
            checked += 1
            game = game.play(rule.choose(ss, random.Random(0)), seat)
    assert checked > 300 and differ > 0


@pytest.mark.parametrize("beliefs", ["policy", "uniform"])
def test_shedder_search_is_legal_deterministic_blind_and_explained(beliefs: str) -> None:
    bot = ShedderSearchBot(Limit(iterations=60), beliefs=beliefs)
    searched = 0
    for game in positions("spacc-u-mazz", 33, 6):
        seat = game.to_act
        assert seat is not None
        ss = game.seat_state(seat)
        eager = eager_decide(ss.masked, seat, ss.legal_actions)[0]
        cands = candidates(ss.masked, seat, ss.legal_actions)
        assert eager in cands and all(a in ss.legal_actions for a in cands)
        first = bot.choose(ss, random.Random(5))
        assert first in cands and first == bot.choose(ss, random.Random(5))
        rows = bot.explain(ss, random.Random(5))
        assert rows[0].action == first and all(0.0 <= r.value <= 1.0 and r.reason for r in rows)
        values = bot.values(ss, random.Random(2))
        assert values[0][0] == eager
        if len(cands) > 1:
            searched += 1
            assert {a for a, _, _ in values} == set(cands) and all(n == 60 // len(cands) for _, _, n in values)
            # an alternative is played only when it wins more often by more than the margin
            best = max(values, key=lambda row: row[1])
            played = bot.choose(ss, random.Random(2))
            assert played == (best[0] if best[1] > values[0][1] + bot.margin else eager)
        twin = twin_seat_state(game, seat, random.Random(searched))
        assert twin.masked == ss.masked
        assert bot.values(ss, random.Random(9)) == bot.values(twin, random.Random(9))
    assert searched >= 2
    assert secrets_reachable([ShedderSearchBot(Limit(iterations=20))], next(positions("spacc-u-mazz", 34, 1))) == []


@pytest.mark.parametrize("beliefs", ["policy", "uniform"])
def test_shedder_search_playouts_play_the_eager_shedder(beliefs: str) -> None:
    """Every determinization the search plays out has the eager shedder at every seat
    (``opponents="rule"``: at its own seat only), with or without the beliefs."""
    game = next(positions("spacc-u-mazz", 33, 1))
    seat = game.to_act
    assert seat is not None
    ss = game.seat_state(seat)
    bridge = bridge_for(game.rules, game.config)
    for opponents, mask in (("eager", 0xFF), ("rule", 1 << seat)):
        sampler = ShedderSearchBot(Limit(iterations=40), opponents=opponents, beliefs=beliefs).sampler(ss, bridge)
        assert all(sampler.draw(KRng(i)).eager_seats == mask for i in range(5))  # type: ignore[attr-defined]


def test_shedder_search_settings_are_checked() -> None:
    for bad in (Limit(time_ms=5), Limit(iterations=5, time_ms=5)):
        with pytest.raises(ConfigError):
            ShedderSearchBot(bad)
    with pytest.raises(ConfigError):
        ShedderSearchBot(Limit(iterations=5), opponents="psychic")
    with pytest.raises(ConfigError):
        ShedderSearchBot(Limit(iterations=5), margin=-0.1)
    with pytest.raises(ConfigError):
        ShedderSearchBot(Limit(iterations=5), beliefs="psychic")
    assert ShedderSearchBot(Limit(iterations=400)).margin == pytest.approx(0.1)
    assert ShedderSearchBot(Limit(iterations=1600)).margin == pytest.approx(0.05)
    # other games: the rule strategy
    game = next(positions("crazy-eights", 2, 1))
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    assert ShedderSearchBot().choose(ss, random.Random(0)) == RuleBot().choose(ss, random.Random(0))


def test_spacc_beliefs_hold_in_the_true_state_of_strategy_players() -> None:
    """RuleBots and eager shedders at every seat: every constraint the beliefs make holds
    in the true state (at most ``size - at_least`` forbidden cards in a private hand), and
    the constrained sampler's deals meet them where uniform deals often do not."""
    bots = [RuleBot(), EagerShedderBot(), RuleBot()]
    checked = 0
    for seed in range(3):
        game = cardkit.new_game("spacc-u-mazz", players=3, seed=seed)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            ss = game.seat_state(seat)
            hands = {z.owner: z.cards for z in game.rules.zones(game.state) if z.name == "hand"}
            for c in spacc_constraints(ss):
                assert c.owner != seat
                held = hands[c.owner]
                assert sum(card in c.forbidden for card in held) <= len(held) - c.at_least
                checked += 1
            game = game.play(bots[seat].choose(ss, random.Random(0)), seat)
    assert checked > 1000


def test_the_constrained_sampler_meets_the_beliefs() -> None:
    game = cardkit.new_game("spacc-u-mazz", players=3, seed=11)
    for _ in range(90):
        seat = game.to_act
        assert seat is not None
        game = game.play(RuleBot().choose(game.seat_state(seat), random.Random(0)), seat)
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    cons = spacc_constraints(ss)
    assert len(cons) > 10
    bridge = bridge_for(game.rules, game.config)
    assert bridge is not None
    smp, uniform = deal_sampler(ss, bridge, cons), deal_sampler(ss, bridge)

    def meets(kernel: Any) -> bool:
        return all(_private_of(kernel, c) <= _size(ss, c) - c.at_least for c in cons)

    met = sum(meets(smp.draw(KRng(i))) for i in range(40))
    met_uniform = sum(meets(uniform.draw(KRng(i))) for i in range(40))
    assert met == 40 and met_uniform < 40


def _size(ss: SeatState, c: Any) -> int:
    return next(len(z.cards) for z in ss.rules.zones(ss.masked) if z.name == "hand" and z.owner == c.owner)


def _private_of(kernel: Any, c: Any) -> int:
    # the forbidden cards in the kernel's private hand of c.owner (base-3 codes per rank)
    ranks = {card.rank for card in c.forbidden}
    total = 0
    for r in ranks:
        h, k = kernel.hand[c.owner * 15 + r], kernel.known[c.owner * 15 + r]
        total += sum(h // 3**d % 3 for d in range(4)) - sum(k // 3**d % 3 for d in range(4))
    return total
