"""The cached encoder gives exactly the reference observation, at every step, for every seat.

The environment encodes built-in games with :class:`cardkit.rl.incremental.CachedEncoder`
fed by a game's reader (:mod:`cardkit.rl.readers`), which reads the state instead of
building the view and the zones. These tests hold it to the reference encoding of
``rules.view`` and ``rules.zones`` (``env.reference_observation_of``): at every step of
random games of every game, after every reset, for every seat, with the seats observed in
random orders (so a seat's cache is several steps old, or fresh), and they check that a
reader gives the very zones and view values of the game.
"""

from __future__ import annotations

import os
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import cardkit  # noqa: E402
import cardkit.rl  # noqa: E402
from cardkit.rl.readers import reader_for  # noqa: E402
from rl_setups import IDS, SETUPS, register_example_game  # noqa: E402

LONG = os.environ.get("CARDKIT_LONG") == "1"
STEPS = 6_000 if LONG else 1_500
BUILTIN = [(g, p, o) for g, p, o in SETUPS if g != "high-card"]
BUILTIN_IDS = [i for i, (g, _, _) in zip(IDS, SETUPS) if g != "high-card"]


def _json(value: Any) -> Any:
    """Tuples as lists, recursively: a reader may hand out the state's tuples where the
    view has lists of equal items."""
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    return value


def _check_state(env: Any, game: cardkit.Game, seats: list[int]) -> None:
    for seat in seats:
        fast = env.observation_of(game, seat)
        slow = env.reference_observation_of(game, seat)
        assert fast.dtype == slow.dtype == np.float32
        if not np.array_equal(fast, slow):
            wrong = [f.name for f in env.encoder.fields if not np.array_equal(fast[f.start : f.stop], slow[f.start : f.stop])]
            raise AssertionError(f"seat {seat}, entry {game.log.entries[-1].seq}: cached encoding differs in {wrong}")


def _play(env: Any, rng: random.Random, steps: int) -> int:
    """Random steps through the AEC API, checking observe() and observation_of() of seats
    in random orders against the reference; a new episode (seeded) after each end."""
    players = env.players
    done = 0
    env.reset(seed=rng.randrange(2**32))
    _check_state(env, env.game, list(range(players)))  # right after a reset: every seat
    while done < steps:
        agent = env.agent_selection
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset(seed=rng.randrange(2**32))
                _check_state(env, env.game, rng.sample(range(players), players))
            continue
        game = env.game
        seat = env.possible_agents.index(agent)
        assert np.array_equal(obs["observation"], env.reference_observation_of(game, seat))
        # Every other seat, in a random order, on half the steps; a random few otherwise,
        # so that a seat's cache is sometimes one step old and sometimes many.
        others = [s for s in range(players) if s != seat]
        rng.shuffle(others)
        _check_state(env, game, others if rng.random() < 0.5 else others[: rng.randrange(players)])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]).tolist())))
        done += 1
    return done


@pytest.mark.parametrize(("name", "players", "options"), BUILTIN, ids=BUILTIN_IDS)
def test_cached_observation_equals_the_reference_at_every_step(name: str, players: int, options: dict[str, Any]) -> None:
    env = cardkit.rl.env(name, players=players, **options)
    assert _play(env, random.Random(f"{name}-{players}"), STEPS) == STEPS


@settings(max_examples=40 if LONG else 6, deadline=None)
@given(setup=st.sampled_from(BUILTIN), seed=st.integers(0, 2**32 - 1))
def test_cached_observation_equals_the_reference_any_seed(setup: tuple[str, int, dict[str, Any]], seed: int) -> None:
    name, players, options = setup
    env = cardkit.rl.env(name, players=players, **options)
    _play(env, random.Random(seed), 60)


@pytest.mark.parametrize(("name", "players", "options"), BUILTIN, ids=BUILTIN_IDS)
def test_a_reader_gives_the_games_zones_and_view_values(name: str, players: int, options: dict[str, Any]) -> None:
    rules = cardkit.get_rules(name)
    env = cardkit.rl.env(name, players=players, seed=5, **options)
    read = reader_for(rules, env.config)
    assert read is not None
    rng = random.Random(9)
    env.reset()
    game = env.game
    for _ in range(150):
        state = game.state
        for seat in range(players):
            reading = read(state, seat)
            zones = rules.zones(state)
            assert list(reading.keys) == [(z.name, z.owner) for z in zones]
            assert [tuple(c) for c in reading.cards] == [z.cards for z in zones]
            assert list(reading.visible_to) == [z.visible_to for z in zones]
            view = game.view(seat)
            assert {k: _json(v) for k, v in reading.view.items()} == {k: _json(view[k]) for k in reading.view}
        if game.is_over:
            break
        legal = game.legal_actions()
        game = game.play(legal[rng.randrange(len(legal))])


def test_a_returned_observation_is_the_callers_own() -> None:
    env = cardkit.rl.env("crazy-eights", players=2, seed=3)
    env.reset()
    first = env.observe("player_0")["observation"]
    kept = first.copy()
    first[:] = 7.0  # the caller scribbles on its vector: the next observation is unaffected
    assert np.array_equal(env.observe("player_0")["observation"], kept)
    rng = random.Random(1)
    mine = env.observe("player_0")["observation"]
    for _ in range(30):  # later steps do not change a vector already handed out
        if not env.agents or env.terminations[env.agent_selection]:
            break
        env.step(int(rng.choice(np.flatnonzero(env.last()[0]["action_mask"]).tolist())))
        env.observe("player_0")
    assert np.array_equal(mine, kept)


def test_a_users_game_is_encoded_from_its_view_and_zones() -> None:
    register_example_game()
    env = cardkit.rl.env("high-card", players=3, seed=1)
    assert reader_for(env.rules, env.config) is None
    env.reset()
    game = env.game
    for seat in range(3):
        assert np.array_equal(env.observation_of(game, seat), env.reference_observation_of(game, seat))


def test_a_card_outside_the_layout_is_a_config_error_and_the_cache_starts_afresh() -> None:
    from cardkit.rl.incremental import Reading

    env = cardkit.rl.env("wizard", players=3, seed=2, rounds=2)
    env.reset()
    game = env.game
    reading = env._reader(game.state, 0)
    alien = cardkit.Card("RJ")  # Wizard has no jokers
    seen = next(k for k, v in enumerate(reading.visible_to) if 0 in v)  # a zone seat 0 sees
    cards = [tuple(c) + (alien,) if k == seen else c for k, c in enumerate(reading.cards)]
    bad = Reading(reading.keys, cards, reading.visible_to, reading.view)
    with pytest.raises(cardkit.ConfigError, match="RJ"):
        env._cached.encode(bad, 0, game.to_act)
    # the half-written cache was dropped: the next observation is the reference one
    assert np.array_equal(env.observation_of(game, 0), env.reference_observation_of(game, 0))
