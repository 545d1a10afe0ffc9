"""The environment's contract: errors, illegal actions, rewards, truncation, seeding, ids."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import cardkit  # noqa: E402
import cardkit.rl  # noqa: E402
from cardkit.rl import CardkitEnv  # noqa: E402
from rl_setups import register_example_game  # noqa: E402


def _play_out(env: CardkitEnv, seed: int = 0, limit: int = 100_000) -> list[Any]:
    """Random legal play to the end; returns (agent, reward, terminated, truncated) of each last()."""
    rng = random.Random(seed)
    trace = []
    for _ in range(limit):
        if not env.agents:
            return trace
        agent = env.agent_selection
        obs, reward, term, trunc, info = env.last()
        trace.append((agent, reward, term, trunc))
        if term or trunc:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    raise AssertionError("episode did not end")


def test_ids_make_and_modules() -> None:
    ids = cardkit.rl.env_ids()
    assert {
        "cardkit/crazy_eights_v0",
        "cardkit/cutthroat_spades_v0",
        "cardkit/spacc_u_mazz_v0",
        "cardkit/wizard_v0",
    } <= set(ids)
    assert ids == tuple(cardkit.rl.env_id(g) for g in cardkit.available_games())
    env = cardkit.rl.make("cardkit/wizard_v0", players=4, seed=1, rounds=2)
    assert env.rules.name == "wizard" and env.possible_agents == [f"player_{i}" for i in range(4)]
    assert str(env) == "cardkit/wizard_v0" and env.metadata["name"] == "cardkit/wizard_v0"
    from cardkit.rl import crazy_eights_v0, cutthroat_spades_v0, spacc_u_mazz_v0, wizard_v0

    for module, game in [
        (crazy_eights_v0, "crazy-eights"),
        (wizard_v0, "wizard"),
        (cutthroat_spades_v0, "cutthroat-spades"),
        (spacc_u_mazz_v0, "spacc-u-mazz"),
    ]:
        assert module.env(players=3).rules.name == game
        assert module.raw_env(players=3).rules.name == game
    with pytest.raises(cardkit.UnknownGameError, match="cardkit/wizard_v0"):
        cardkit.rl.make("cardkit/wizzard_v0", players=3)


def test_the_user_game_gets_an_env_through_the_same_path() -> None:
    register_example_game()
    assert "cardkit/high_card_v0" in cardkit.rl.env_ids()
    env = cardkit.rl.make("cardkit/high_card_v0", players=2, seed=4)
    env.reset()
    trace = _play_out(env)
    finals = {a: r for a, r, term, _ in trace if term}
    assert set(finals) == {"player_0", "player_1"} and sorted(finals.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_bad_construction_is_a_cardkit_error() -> None:
    with pytest.raises(cardkit.UnknownGameError):
        cardkit.rl.env("gin-rummy", players=2)
    with pytest.raises(cardkit.ConfigError):
        cardkit.rl.env("crazy-eights", players=9)
    with pytest.raises(cardkit.ConfigError):
        cardkit.rl.env("crazy-eights", players=3, colour="red")
    with pytest.raises(cardkit.ConfigError, match="rewards"):
        cardkit.rl.env("crazy-eights", players=3, rewards="money")
    with pytest.raises(cardkit.ConfigError, match="illegal"):
        cardkit.rl.env("crazy-eights", players=3, illegal="ignore")
    with pytest.raises(cardkit.ConfigError, match="seed"):
        cardkit.rl.env("crazy-eights", players=3, seed=-1)
    with pytest.raises(cardkit.ConfigError, match="seed"):
        cardkit.rl.env("crazy-eights", players=3, seed="7")
    with pytest.raises(cardkit.ConfigError, match="render_mode"):
        cardkit.rl.env("crazy-eights", players=3, render_mode="rgb_array")


def test_a_registered_game_without_action_space_is_refused_clearly() -> None:
    register_example_game()
    from custom_game import HighCardRules

    class Bare(HighCardRules):
        name = "high-card-bare"

    Bare.action_space = None  # type: ignore[assignment,method-assign]
    if "high-card-bare" not in cardkit.available_games():
        cardkit.register(Bare())
    with pytest.raises(cardkit.ConfigError, match="no action_space"):
        cardkit.rl.env("high-card-bare", players=2)


def test_step_before_reset_and_bad_agents() -> None:
    env = cardkit.rl.env("crazy-eights", players=3)
    with pytest.raises(cardkit.IllegalActionError, match="reset"):
        env.observe("player_0")
    with pytest.raises(cardkit.IllegalActionError, match="reset"):
        env.step(0)
    with pytest.raises(cardkit.IllegalActionError, match="reset"):
        env.last()
    assert list(env.agent_iter()) == []
    env.reset(seed=1)
    with pytest.raises(cardkit.SeatError):
        env.observe("player_9")
    with pytest.raises(cardkit.SeatError):
        env.action_space("dealer")


@pytest.mark.parametrize("bad", [70, -1, 2.0, "3", None, True])
def test_a_malformed_action_raises_and_changes_nothing(bad: Any) -> None:
    env = cardkit.rl.env("crazy-eights", players=3, seed=2)
    env.reset()
    before = env.game
    with pytest.raises(cardkit.IllegalActionError, match="0..69"):
        env.step(bad)
    assert env.game is before


def test_an_illegal_action_raises_and_is_never_remapped() -> None:
    env = cardkit.rl.env("crazy-eights", players=3, seed=2)
    env.reset()
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before, agent = env.game, env.agent_selection
    with pytest.raises(cardkit.IllegalActionError, match="not legal") as info:
        env.step(illegal)
    assert info.value.action == env.actions[illegal]
    assert env.game is before and env.agent_selection == agent
    assert not any(env.terminations.values())


def test_illegal_terminate_mode_penalises_the_offender() -> None:
    env = cardkit.rl.env("wizard", players=3, seed=2, rounds=1, illegal="terminate", illegal_reward=-5)
    env.reset()
    obs, *_ = env.last()
    offender = env.agent_selection
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[offender] == -5.0
    assert all(r == 0.0 for a, r in env.rewards.items() if a != offender)
    assert env.infos[offender]["illegal_action_text"]
    trace = _play_out(env)
    assert [t[1] for t in trace if t[0] == offender] == [-5.0]
    assert env.agents == []


@pytest.mark.parametrize("mode", ["win_loss", "score"])
def test_rewards_come_from_the_result_at_the_end(mode: str) -> None:
    env = cardkit.rl.env("wizard", players=4, seed=8, rounds=3, rewards=mode)
    env.reset()
    trace = _play_out(env)
    result = env.game.result
    assert result is not None
    finals = {a: r for a, r, term, trunc in trace if term or trunc}
    assert len(finals) == 4
    assert all(term and not trunc for _, _, term, trunc in trace[-4:])
    if mode == "score":
        assert [finals[f"player_{s}"] for s in range(4)] == [float(x) for x in result.scores]
    else:
        expect = [1.0 if s in result.winners else -1.0 for s in range(4)]
        if len(result.winners) in (0, 4):
            expect = [0.0] * 4
        assert [finals[f"player_{s}"] for s in range(4)] == expect
    # every reward before the end is zero, and the episode ends with no agents
    assert all(r == 0.0 for a, r, term, trunc in trace if not (term or trunc))
    assert env.agents == [] and env.terminations == {} and env.rewards == {}


def test_a_draw_gives_zero_to_everyone() -> None:
    from cardkit.rl.outcome import rewards_of

    assert rewards_of(cardkit.Result((3, 3), (0, 1)), 2, "win_loss") == (0.0, 0.0)
    assert rewards_of(cardkit.Result((0, 0, 0), ()), 3, "win_loss") == (0.0, 0.0, 0.0)
    assert rewards_of(cardkit.Result((9, 9, 1), (0, 1)), 3, "win_loss") == (1.0, 1.0, -1.0)


def _final_flags(env: CardkitEnv, seed: int) -> tuple[bool, bool]:
    env.reset(seed=seed)
    trace = _play_out(env, seed)
    ends = [(term, trunc) for _, _, term, trunc in trace if term or trunc]
    assert ends and len(set(ends)) == 1  # every agent ends the same way
    return ends[0]


def test_crazy_eights_max_turns_is_a_truncation() -> None:
    env = cardkit.rl.env("crazy-eights", players=4, max_turns=3)
    assert _final_flags(env, 1) == (False, True)
    natural = cardkit.rl.env("crazy-eights", players=2)
    flags = {_final_flags(natural, s) for s in range(5)}
    assert flags == {(True, False)}


def test_spacc_u_mazz_max_turns_is_a_truncation() -> None:
    env = cardkit.rl.env("spacc-u-mazz", players=2, max_turns=20)
    assert _final_flags(env, 3) == (False, True)


def test_cutthroat_max_hands_is_a_truncation_only_when_it_decides() -> None:
    env = cardkit.rl.env("cutthroat-spades", players=3, max_hands=1, wins_needed=1, target=500)
    assert _final_flags(env, 2) == (False, True)
    natural = cardkit.rl.env("cutthroat-spades", players=3, wins_needed=1, target=20)
    assert _final_flags(natural, 2) == (True, False)


def test_wizard_always_terminates() -> None:
    env = cardkit.rl.env("wizard", players=3, rounds=2)
    assert _final_flags(env, 5) == (True, False)


def test_reset_with_a_seed_repeats_the_episode_and_reset_without_one_moves_on() -> None:
    env = cardkit.rl.env("crazy-eights", players=3)
    env.reset(seed=42)
    first = env.game.log
    obs = env.last()[0]["observation"].copy()
    env.reset(seed=42)
    assert env.game.log == first and np.array_equal(env.last()[0]["observation"], obs)
    env.reset()
    second = env.game.seed
    assert second != 42
    again = cardkit.rl.env("crazy-eights", players=3, seed=42)
    again.reset()
    again.reset()
    assert again.game.seed == second  # the sequence of episodes is a function of the seed
    with pytest.raises(cardkit.ConfigError):
        env.reset(seed=2**64)


def test_observation_layout_is_documented_field_by_field() -> None:
    env = cardkit.rl.env("cutthroat-spades", players=4)
    fields = env.encoder.fields
    assert fields[0].start == 0 and fields[-1].stop == env.encoder.size
    assert all(a.stop == b.start for a, b in zip(fields, fields[1:]))
    assert all(f.doc and f.low <= f.high for f in fields)
    names = [f.name for f in fields]
    assert "hand[0].cards" in names and "bid_kind" in names and "scores" in names
    env.reset(seed=3)
    obs = env.last()[0]["observation"]
    # before looking, your own hand is concealed from you: only its size is shown
    hand = env.encoder.field("hand[0].cards")
    assert not obs[hand.start : hand.stop].any()
    assert obs[env.encoder.field("hand[0].size").start] == 13.0
    with pytest.raises(ValueError, match="no observation field"):
        env.encoder.field("nope")


def test_render_and_close() -> None:
    env = cardkit.rl.env("crazy-eights", players=2, seed=1, render_mode="ansi")
    env.reset()
    text = env.render()
    assert isinstance(text, str) and "discard" in text
    env.close()
    assert cardkit.rl.env("crazy-eights", players=2).render() is None


def test_check_env_passes_for_the_user_game_and_catches_a_bad_action_space() -> None:
    register_example_game()
    assert cardkit.rl.check_env("high-card", players=3, steps=300) == 300
    from custom_game import HighCardRules
    from cardkit.testing.invariants import InvariantViolation

    class Short(HighCardRules):
        name = "high-card-short"

        def action_space(self, config: Any) -> tuple[Any, ...]:
            return super().action_space(config)[:-1]  # forgets 9S

    if "high-card-short" not in cardkit.available_games():
        cardkit.register(Short())
    with pytest.raises((InvariantViolation, cardkit.ConfigError), match="action_space"):
        cardkit.rl.check_env("high-card-short", players=4, steps=300)


def test_a_game_that_conjures_a_card_gets_a_config_error_not_a_key_error() -> None:
    register_example_game()
    from custom_game import HighCardRules

    class Conjurer(HighCardRules):
        name = "high-card-conjurer"

        def zones(self, state: Any) -> Any:
            zones = super().zones(state)
            if state.to_act is None or state.dealer < 0:
                return zones
            from cardkit.core.rules import Zone

            return zones + (Zone("conjured", None, (cardkit.Card("AS"),), tuple(range(state.config.players))),)

    if "high-card-conjurer" not in cardkit.available_games():
        cardkit.register(Conjurer())
    env = cardkit.rl.env("high-card-conjurer", players=2, seed=1)
    env.reset()
    with pytest.raises(cardkit.ConfigError, match="AS"):
        env.last()


def test_cutthroat_mercy_is_a_termination() -> None:
    try:
        env = cardkit.rl.env("cutthroat-spades", players=3, mercy=1, max_hands=1, wins_needed=1)
    except cardkit.ConfigError:
        pytest.skip("this Cutthroat Spades has no mercy option")
    seen = set()
    for seed in range(12):
        flags = _final_flags(env, seed)
        mercy = min(env.game.state.scores) <= -1
        seen.add(mercy)
        # on its only hand, a game ended by mercy terminates; one cut by max_hands truncates
        assert flags == ((True, False) if mercy else (False, True))
    assert True in seen  # the mercy branch was exercised (the other is tested above)


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_an_environment_copies_mid_episode(how: str) -> None:
    import copy
    import pickle

    env = cardkit.rl.env("spacc-u-mazz", players=3, seed=9, max_turns=60)
    env.reset()
    for _ in range(10):
        obs = env.last()[0]
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    twin = pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)
    assert twin.rules is env.rules and twin.agent_selection == env.agent_selection
    assert _play_out(env, 3) == _play_out(twin, 3)
    assert env.game.log == twin.game.log
