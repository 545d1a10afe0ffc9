"""Beliefs: determinizations weighed by how well the other seats' moves fit the rule strategy."""

from __future__ import annotations

import random
from typing import Iterator

import pytest

import cardkit
from cardkit.bots import ISMCTSBot, RuleBot
from cardkit.bots.beliefs import FITS, hand_events, weighted_sampler
from cardkit.core.seat import SeatState
from cardkit.errors import ConfigError

from bots_helpers import permuted


def _against_rule_bots(seed: int, count: int) -> Iterator[tuple[cardkit.Game, SeatState]]:
    """Positions of 5-round Wizard where seat 0 (playing at random) is to act after
    another seat moved in the round; seats 1 and 2 are RuleBots."""
    rng = random.Random(seed)
    bot = RuleBot()
    entry = FITS["wizard"]
    game = cardkit.new_game("wizard", players=3, seed=seed, rounds=5)
    found = 0
    while found < count and not game.is_over:
        seat = game.to_act
        assert seat is not None
        if seat == 0:
            ss = game.seat_state(0)
            moved = [e for e in hand_events(ss.events, entry.starts) if type(e) in entry.moves and e.seat != 0]
            if moved:
                found += 1
                yield game, ss
            game = game.play(rng.choice(game.legal_actions()), 0)
        else:
            game = game.play(bot.choose(game.seat_state(seat), rng), seat)
    assert found == count


def _fit(ss: SeatState, state: object, epsilon: float) -> float:
    entry = FITS["wizard"]
    return entry.fit(ss.rules, state, hand_events(ss.events, entry.starts), ss.seat, epsilon)


def test_true_state_fits_the_rule_bots_exactly() -> None:
    # With no random share a deal either explains every move of the rule bots or not; the
    # true deal always does (ties between equal cards included), and some samples do not.
    ruled_out = 0
    for seed in range(3):
        for game, ss in _against_rule_bots(seed, 6):
            assert _fit(ss, game.state, 0.0) == 1.0
            fits = [_fit(ss, ss.sample(random.Random(k)), 0.0) for k in range(40)]
            assert set(fits) <= {0.0, 1.0}
            ruled_out += fits.count(0.0)
    assert ruled_out > 0


def test_hand_events_start_at_the_current_deal() -> None:
    game, ss = next(_against_rule_bots(2, 1))
    events = hand_events(ss.events, FITS["wizard"].starts)
    assert type(events[0]).__name__ == "HandDealt" and events[0].round == game.state.round
    assert not any(type(e).__name__ == "HandDealt" for e in events[1:])
    assert tuple(events) == ss.events[len(ss.events) - len(events) :]


def test_random_share_keeps_every_deal_possible() -> None:
    for game, ss in _against_rule_bots(7, 5):
        for k in range(20):
            sample = ss.sample(random.Random(k))
            exact, loose = _fit(ss, sample, 0.0), _fit(ss, sample, 0.2)
            assert 0.0 < loose <= 1.0
            # a move the strategy would not make had another legal choice beside it, so
            # its factor is at most 0.2 / 2 (the others are at most 1)
            assert exact == 1.0 or loose <= 0.1


def test_weighted_draws_fit_better_than_uniform_ones() -> None:
    uniform = weighted = 0
    for game, ss in _against_rule_bots(11, 6):
        sample = weighted_sampler(ss, random.Random(1), pool=200)
        assert sample is not None
        rng = random.Random(2)
        for k in range(100):
            draw = sample(rng)
            assert ss.rules.view(draw, 0) == game.view(0)  # every draw is a sound sample
            assert ss.rules.legal_actions(draw) == game.legal_actions()
            weighted += _fit(ss, draw, 0.0) == 1.0
            uniform += _fit(ss, ss.sample(random.Random(1000 + k)), 0.0) == 1.0
    # 600 draws each: 529 against 386 when written; a tenth more is far outside the noise
    assert weighted > uniform + 60


def test_weighted_sampler_only_when_there_is_something_to_weigh() -> None:
    game = cardkit.new_game("wizard", players=3, seed=4, rounds=5)
    first = game.to_act
    assert first is not None and game.view(first)["phase"] == "bid"
    assert weighted_sampler(game.seat_state(first), random.Random(0)) is None  # nobody moved yet
    game = game.play(game.legal_actions()[0])
    assert weighted_sampler(game.seat_state(game.to_act), random.Random(0)) is not None  # type: ignore[arg-type]
    spacc = cardkit.new_game("spacc-u-mazz", players=3, seed=4)  # a game without a fit
    for _ in range(6):
        spacc = spacc.play(spacc.legal_actions()[0])
    assert weighted_sampler(spacc.seat_state(spacc.to_act), random.Random(0)) is None  # type: ignore[arg-type]


def test_weighted_sampler_is_deterministic_and_blind_to_the_arrangement() -> None:
    for game, ss in _against_rule_bots(5, 4):
        twin_state = permuted(game.rules, game.state, 0, random.Random(3))
        twin = SeatState.of(game.rules, game.config, twin_state, 0, game.events_for(0))
        a = weighted_sampler(ss, random.Random(8), pool=50)
        b = weighted_sampler(twin, random.Random(8), pool=50)
        assert a is not None and b is not None
        ra, rb = random.Random(4), random.Random(4)
        assert [a(ra) for _ in range(10)] == [b(rb) for _ in range(10)]


@pytest.mark.parametrize("beliefs", ["uniform", "policy"])
def test_ismcts_beliefs_setting(beliefs: str) -> None:
    game, ss = next(_against_rule_bots(3, 1))
    bot = ISMCTSBot(iterations=40, beliefs=beliefs)
    first = bot.choose(ss, random.Random(6))
    assert first in game.legal_actions()
    assert bot.choose(ss, random.Random(6)) == first
    assert f"beliefs={beliefs!r}" in repr(bot)


def test_ismcts_searches_the_weighted_samples() -> None:
    # The setting must reach the search: with the same rng, weighted samples give another
    # tree than uniform ones (were "policy" ignored, the two would be identical).
    _, ss = next(_against_rule_bots(3, 1))
    uniform = ISMCTSBot(iterations=60, beliefs="uniform").root_visits(ss, random.Random(2))
    weighted = ISMCTSBot(iterations=60, beliefs="policy").root_visits(ss, random.Random(2))
    assert sum(uniform.values()) == sum(weighted.values()) == 60
    assert uniform != weighted


def test_weighted_sampler_settings() -> None:
    _, ss = next(_against_rule_bots(3, 1))
    for bad in ({"pool": 0}, {"pool": 2.5}, {"epsilon": -0.1}, {"epsilon": 1.5}):
        with pytest.raises(ValueError):
            weighted_sampler(ss, random.Random(0), **bad)  # type: ignore[arg-type]
    exact = weighted_sampler(ss, random.Random(0), pool=30, epsilon=0.0)
    assert exact is not None
    rng = random.Random(1)
    for _ in range(20):  # with no random share only deals that explain every move are drawn
        assert _fit(ss, exact(rng), 0.0) == 1.0


def test_the_pool_setting_sizes_the_belief_pool() -> None:
    from cardkit.bots.kernel_search import pool_sampler
    from cardkit.kernels._base import KRng
    from cardkit.kernels.bridge import bridge_for

    with pytest.raises(ConfigError, match="pool"):
        ISMCTSBot(iterations=10, pool=0)
    with pytest.raises(ConfigError, match="pool"):
        ISMCTSBot(iterations=10, pool=True)  # type: ignore[arg-type]
    assert "pool=50" in repr(ISMCTSBot(iterations=10, pool=50))
    ss = [ss for _, ss in _against_rule_bots(5, 6) if len(ss.legal_actions) > 2][-1]
    bridge = bridge_for(ss.rules, ss.config)
    if bridge is not None:
        sampler = pool_sampler(ss, bridge, random.Random(0), KRng(1), 37)
        assert sampler is not None and len(sampler.kernels) == 37
    # a bigger pool is a different search; each is deterministic for its rng
    small, big = ISMCTSBot(iterations=60, pool=20), ISMCTSBot(iterations=60, pool=400)
    assert small.root_visits(ss, random.Random(4)) == small.root_visits(ss, random.Random(4))
    assert big.root_visits(ss, random.Random(4)) != small.root_visits(ss, random.Random(4))
