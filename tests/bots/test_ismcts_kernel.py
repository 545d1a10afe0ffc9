"""ISMCTS on the game kernels (``engine="kernel"``): deterministic, legal, blind to what
the seat cannot see, sampling exactly what the seat's knowledge allows, and stronger
than random play. Every game that has a kernel is covered; the others are skipped."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import attrs
import pytest

import cardkit
from cardkit.bots import ISMCTSBot
from cardkit.bots.arena import run_arena
from cardkit.bots.kernel_search import deal_sampler, new_search
from cardkit.core.resample import deal_plan
from cardkit.core.seat import SeatState
from cardkit.errors import ConfigError
from cardkit.kernels._base import KRng
from cardkit.kernels.bridge import KernelBridge, bridge_for
from cardkit.kernels.search import DealSampler
from cardkit.testing.reach import secrets_reachable

from bots_helpers import GAMES, SHORT, positions, twin_seat_state


def _bridge(name: str) -> KernelBridge | None:
    game = cardkit.new_game(name, players=3, seed=0, **SHORT[name])
    return bridge_for(game.rules, game.config)


KERNEL_GAMES = tuple(name for name in GAMES if _bridge(name) is not None)
"""The games with a kernel under the test configs (3 players, short options)."""

needs_kernel = pytest.mark.parametrize("name", KERNEL_GAMES)



def test_engine_setting() -> None:
    with pytest.raises(ConfigError, match="engine"):
        ISMCTSBot(engine="fast")
    assert ISMCTSBot().engine == "auto"
    assert "engine='reducer'" in repr(ISMCTSBot(engine="reducer"))


def test_kernel_engine_without_a_kernel_is_a_config_error() -> None:
    from test_ismcts_search import CoinSeatState

    seat_state: Any = CoinSeatState()  # a hand-made game: no kernel_bridge
    assert ISMCTSBot(iterations=50, engine="auto").choose(seat_state, random.Random(0)) in ("safe", "risky")
    with pytest.raises(ConfigError, match="no kernel"):
        ISMCTSBot(iterations=50, engine="kernel").choose(seat_state, random.Random(0))


@needs_kernel
def test_kernel_search_is_deterministic_and_legal(name: str) -> None:
    for game in positions(name, 11, 4):
        seat = game.to_act
        assert seat is not None
        ss = game.seat_state(seat)
        legal = game.legal_actions()
        bot = ISMCTSBot(iterations=40, engine="kernel")
        first = bot.root_visits(ss, random.Random(5))
        assert first == bot.root_visits(ss, random.Random(5))
        assert set(first) <= set(legal)
        if len(legal) > 1:
            # every iteration passes through one root child of the seat
            assert sum(first.values()) == 40
        choice = bot.choose(ss, random.Random(5))
        assert choice in legal
        assert choice == bot.choose(ss, random.Random(5))
        if len(legal) > 1:
            assert bot.last_iterations == 40
            assert first.get(choice, 0) == max(first.values())


@needs_kernel
def test_auto_engine_takes_the_kernel(name: str) -> None:
    game = next(positions(name, 12, 1))
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    auto = ISMCTSBot(iterations=30).root_visits(ss, random.Random(1))
    assert auto == ISMCTSBot(iterations=30, engine="kernel").root_visits(ss, random.Random(1))


@needs_kernel
def test_no_peek_on_the_kernel_path(name: str) -> None:
    """Two true states the seat cannot tell apart: the same samples, the same visits."""
    checked = 0
    for seed in range(2):
        for game in positions(name, 20 + seed, 3):
            seat = game.to_act
            assert seat is not None
            mine = game.seat_state(seat)
            twin = twin_seat_state(game, seat, random.Random(seed))
            assert twin.masked == mine.masked
            bridge = bridge_for(game.rules, game.config)
            assert bridge is not None
            a, b = deal_sampler(mine, bridge), deal_sampler(twin, bridge)
            for k in range(3):
                assert a.draw(KRng(k)).snapshot() == b.draw(KRng(k)).snapshot()
            bots = (
                ISMCTSBot(iterations=30, engine="kernel"),
                ISMCTSBot(iterations=30, engine="kernel", opponents="search", beliefs="uniform"),
                ISMCTSBot(iterations=30, engine="kernel", opponents="policy", beliefs="policy"),
                ISMCTSBot(iterations=30, engine="kernel", opponents="policy", beliefs="policy", pool=40),
            )
            for bot in bots:
                # choose is the most visited of these (test_kernel_search_is_deterministic_and_legal)
                assert bot.root_visits(mine, random.Random(9)) == bot.root_visits(twin, random.Random(9))
            checked += 1
    assert checked >= 4


@needs_kernel
def test_the_search_keeps_no_secret(name: str) -> None:
    """Nothing the kernel search holds reaches the game, its true state, log or seed."""
    game = cardkit.new_game(name, players=3, seed=9_876_543_211, **SHORT[name])
    rng = random.Random(3)
    for _ in range(12):
        game = game.play(rng.choice(game.legal_actions()))
        if game.is_over:
            break
    seat = game.to_act
    assert seat is not None
    ss = game.seat_state(seat)
    bridge = bridge_for(game.rules, game.config)
    assert bridge is not None
    for beliefs in ("uniform", "policy"):
        bot = ISMCTSBot(iterations=20, engine="kernel", beliefs=beliefs)
        search = bot._kernel_search(ss, random.Random(1), bridge)
        assert secrets_reachable([bot, search, search.root, search.sampler], game) == []


def _cards_of(bridge: KernelBridge, cards: Any) -> dict[int, Any]:
    return dict(zip(bridge.card_ints(list(cards)), cards))


def _state_of(ss: SeatState, bridge: KernelBridge, fills: list[list[int]]) -> Any:
    """The full state a sampler's deal stands for (the fills written into the masked state)."""
    rules = ss.rules
    plan = deal_plan(rules, ss.masked, ss.seat, ss.constraints)
    card = _cards_of(bridge, plan.pool)
    zones = list(plan.zones)
    for n, i in enumerate(plan.hidden):
        zones[i] = attrs.evolve(zones[i], cards=tuple(card[c] for c in fills[n]))
    return rules.with_zones(ss.masked, tuple(zones))


@needs_kernel
def test_samples_keep_the_seat_view_and_the_constraints(name: str) -> None:
    for seed in range(2):
        for game in positions(name, 40 + seed, 5):
            seat = game.to_act
            assert seat is not None
            rules = game.rules
            ss = game.seat_state(seat)
            bridge = bridge_for(rules, game.config)
            assert bridge is not None
            sampler = deal_sampler(ss, bridge)
            deck = Counter(c for z in game.zones() for c in z.cards)
            for k in range(4):
                fills = sampler.deal(KRng(100 + k))
                state = _state_of(ss, bridge, fills)
                assert rules.view(state, seat) == game.view(seat)
                assert rules.legal_actions(state) == game.legal_actions()
                assert Counter(c for z in rules.zones(state) for c in z.cards) == deck
                for c in ss.constraints:
                    zone = next(z for z in rules.zones(state) if (z.name, z.owner) == (c.name, c.owner))
                    assert sum(1 for card in zone.cards if card not in c.forbidden) >= c.at_least
                # the kernel a draw builds (set_zone on the masked kernel) is that state's kernel
                assert sampler.draw(KRng(100 + k)).snapshot() == bridge.kernel(state).snapshot()


@needs_kernel
def test_constrained_slots_take_only_allowed_cards(name: str) -> None:
    """Tight slots (one allowed card each) are always dealt what they allow; the others
    get the rest; an impossible slot falls back to an unconstrained deal."""
    game = next(positions(name, 50, 1))
    seat = game.to_act
    assert seat is not None
    ss = game.seat_state(seat)
    bridge = bridge_for(game.rules, game.config)
    assert bridge is not None
    fair = deal_sampler(ss, bridge)
    pool = fair.pool
    zones = len(fair.zone_sizes)
    assert zones >= 1 and len(pool) >= 2
    width = fair.width
    wanted = sorted(set(pool))[:2]
    # two slots of the last concealed zone, each allowing just one card
    forbidden = [1] * (2 * width)
    forbidden[wanted[0]] = 0
    forbidden[width + wanted[1]] = 0
    last = max(range(zones), key=lambda z: fair.zone_sizes[z])  # the largest concealed zone
    assert fair.zone_sizes[last] >= 2
    tight = DealSampler(
        fair.base, pool, fair.zone_codes, fair.zone_owners, fair.zone_sizes, [last, last], forbidden, width,
        64,
    )
    for k in range(20):
        fills = tight.deal(KRng(k))
        assert fills[last][:2] == wanted
        assert sorted(c for fill in fills for c in fill) == sorted(pool)
        assert [len(f) for f in fills] == fair.zone_sizes
    impossible = DealSampler(
        fair.base, pool, fair.zone_codes, fair.zone_owners, fair.zone_sizes, [last], [1] * width, width, 64
    )
    fills = impossible.deal(KRng(1))
    assert sorted(c for fill in fills for c in fill) == sorted(pool)


@needs_kernel
def test_opponents_played_by_the_policy_keep_no_statistics(name: str) -> None:
    game = next(positions(name, 3, 1))
    seat = game.to_act
    assert seat is not None
    ss = game.seat_state(seat)
    bridge = bridge_for(game.rules, game.config)
    assert bridge is not None
    actions = len(bridge.actions)

    def visits(root: Any) -> tuple[int, int, int]:
        own = others = other_nodes = 0
        stack = [root]
        while stack:
            node = stack.pop()
            for key, child in node.children.items():
                if key // actions == seat:
                    own += child.visits
                else:
                    others += child.visits
                    other_nodes += 1
                stack.append(child)
        return own, others, other_nodes

    policy = ISMCTSBot(iterations=120, opponents="policy", engine="kernel")
    own, others, nodes = visits(policy.search(ss, random.Random(4)))
    assert own > 0 and nodes > 0 and others == 0
    searched = ISMCTSBot(iterations=120, opponents="search", engine="kernel")
    own, others, nodes = visits(searched.search(ss, random.Random(4)))
    assert own > 0 and others > 0


@needs_kernel
def test_time_budget_on_the_kernel(name: str) -> None:
    game = next(positions(name, 2, 1))
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    bot = ISMCTSBot(iterations=None, time_ms=20, engine="kernel")
    assert bot.choose(ss, random.Random(0)) in game.legal_actions()
    assert bot.last_iterations >= 1
    capped = ISMCTSBot(iterations=13, time_ms=10_000, engine="kernel")
    capped.root_visits(ss, random.Random(0))
    assert capped.last_iterations == 13


def test_new_search_seeds_once_from_the_bot_rng() -> None:
    if "crazy-eights" not in KERNEL_GAMES:
        pytest.skip("no Crazy Eights kernel")
    game = next(positions("crazy-eights", 8, 1))
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    bridge = bridge_for(game.rules, game.config)
    assert bridge is not None
    kw: dict[str, Any] = dict(
        c=0.7, policy=True, epsilon=0.1, opponent_policy=False, limit=400, has_eval=True, has_hand=False,
        beliefs="uniform",
    )  # fmt: skip
    rng = random.Random(77)
    search = new_search(ss, bridge, rng, **kw)
    assert rng.getstate() != random.Random(77).getstate()
    expected = random.Random(77).getrandbits(32)
    assert search.rng.state == KRng(expected).state


@pytest.mark.skipif("crazy-eights" not in KERNEL_GAMES, reason="no Crazy Eights kernel")
def test_kernel_search_beats_random_play() -> None:
    """A cheap sanity check of strength: kernel ISMCTS against two random bots in Crazy
    Eights wins well over its third of the games."""
    report = run_arena("crazy-eights", 3, ["ismcts:40::::kernel", "random", "random"], games=9, seed=3)
    assert report.bots[0].share > 0.5, report.table()


@pytest.mark.skipif("wizard" not in KERNEL_GAMES, reason="no Wizard kernel")
def test_belief_pool_weighed_in_the_kernel_is_the_reference_fit() -> None:
    """With ``beliefs="policy"`` a kernel with a fit draws its pool with the deal sampler
    and weighs each draw in the kernel: each weight is the reference fit of the state
    that draw stands for."""
    from cardkit.bots.beliefs import BELIEF_EPSILON, FITS, hand_events, wizard_fit
    from cardkit.bots.kernel_search import pool_sampler
    from cardkit.kernels.search import PoolSampler

    pooled = 0
    for game in positions("wizard", 60, 6):
        seat = game.to_act
        assert seat is not None
        ss = game.seat_state(seat)
        bridge = bridge_for(game.rules, game.config)
        assert bridge is not None
        pool = pool_sampler(ss, bridge, random.Random(0), KRng(3))
        if pool is None:
            continue
        assert isinstance(pool, PoolSampler)
        pooled += 1
        sampler = deal_sampler(ss, bridge)
        again = KRng(3)
        events = hand_events(ss.events, FITS["wizard"].starts)
        previous = 0.0
        for i in range(12):
            state = _state_of(ss, bridge, sampler.deal(again))
            weight = pool.cumulative[i] - previous
            previous = pool.cumulative[i]
            assert weight == pytest.approx(wizard_fit(game.rules, state, events, seat, BELIEF_EPSILON))
            assert pool.kernels[i].snapshot() == bridge.kernel(state).snapshot()
    assert pooled >= 2


def test_inlined_shuffle_is_the_generators_shuffle() -> None:
    from cardkit.kernels.search import shuffle

    for seed in range(20):
        a, b = KRng(seed), KRng(seed)
        xs, ys = list(range(seed + 1)), list(range(seed + 1))
        a.shuffle(xs)
        shuffle(b, ys)
        assert xs == ys and a.state == b.state


def _search_at(game: cardkit.Game, **settings: Any) -> Any:
    bridge = bridge_for(game.rules, game.config)
    assert bridge is not None
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    kw: dict[str, Any] = dict(
        c=0.7, policy=True, epsilon=0.1, opponent_policy=False, limit=400, has_eval=False, has_hand=False,
        beliefs="uniform",
    )  # fmt: skip
    kw.update(settings)
    return new_search(ss, bridge, random.Random(0), **kw)


@pytest.mark.skipif("wizard" not in KERNEL_GAMES, reason="no Wizard kernel")
def test_playout_payoffs_follow_the_reference_order() -> None:
    """A playout stops once a hand is scored (hand value while the game goes on) or the
    game is over (the result); a cut-off playout takes the game's evaluation if it has
    one, else the hand value, else the scores (cardkit.bots.ismcts._iterate's order)."""
    from cardkit.kernels._base import OVER

    going_on = _search_at(cardkit.new_game("wizard", players=3, seed=5, rounds=5), has_hand=True)
    for _ in range(10):
        k = going_on.sampler.draw(going_on.rng)
        cut = going_on.playout(k)
        assert not cut and k.actor() != OVER and k.scores() != going_on.scores
        assert going_on.payoffs(k, cut) == k.hand_values()
    last = _search_at(cardkit.new_game("wizard", players=3, seed=5, rounds=1), has_hand=True)
    for _ in range(10):
        k = last.sampler.draw(last.rng)
        cut = last.playout(k)
        assert not cut and k.actor() == OVER
        assert last.payoffs(k, cut) == k.final_values()
    # cut off in round 2, scores apart: the hand value differs from the score payoffs
    rng = random.Random(1)
    game = cardkit.new_game("wizard", players=3, seed=5, rounds=5)
    while game.state.round < 2 or len(set(game.scores)) < 3 or game.to_act is None or game.to_act < 0:
        game = game.play(rng.choice(game.legal_actions()))
    seen = set()
    for settings, expected in (
        ({"has_eval": True, "has_hand": True}, "cutoff_values"),
        ({"has_hand": True}, "hand_values"),
        ({}, "score_values"),
    ):
        short = _search_at(game, limit=2, **settings)
        k = short.sampler.draw(short.rng)
        cut = short.playout(k)
        assert cut
        value = short.payoffs(k, cut)
        assert value == getattr(k, expected)()
        seen.add(tuple(value))
    assert len(seen) == 2  # Wizard's cut-off evaluation is its score payoff


@pytest.mark.skipif("crazy-eights" not in KERNEL_GAMES, reason="no Crazy Eights kernel")
def test_a_cut_off_playout_is_judged_by_the_games_evaluation() -> None:
    differed = 0
    for game in positions("crazy-eights", 4, 6):
        judged = _search_at(game, limit=3, has_eval=True)
        plain = _search_at(game, limit=3)
        k = judged.sampler.draw(judged.rng)
        assert judged.playout(k)
        assert judged.payoffs(k, True) == k.cutoff_values()
        assert plain.payoffs(k, True) == k.score_values()
        differed += k.cutoff_values() != k.score_values()
    assert differed > 0
