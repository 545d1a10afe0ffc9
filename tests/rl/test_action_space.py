"""rules.action_space(config): every legal action of random games is in it (no extra needed)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardkit
from cardkit.core.action_space import action_space_of
from cardkit.rng import Rng
from cardkit.testing.strategies import game_setups
from rl_setups import register_example_game

OPTION_SPACES: dict[str, dict[str, Any]] = {
    "crazy-eights": {
        "mode": ["single", "points"],
        "draw": ["one", "until_playable"],
        "stock_empty": ["pass", "reshuffle"],
        "two_draws_two": [False, True],
        "queen_of_spades_draws_five": [False, True],
        "jack_skips": [False, True],
        "ace_reverses": [False, True],
        "decks": [2],
        "max_turns": [40, 1000],
    },
    "wizard": {"forbid_even_bids": [False, True], "rounds": [1, 3, 10]},
    "cutthroat-spades": {
        "preset": ["official", "long"],
        "bags": ["limit", "each_minus_10"],
        "max_hands": [None, 1, 2],
        "wins_needed": [1, 2],
        "target": [50, 150],
    },
    "spacc-u-mazz": {"rank_order": ["standard", "as_printed"], "max_turns": [200, 2000]},
}


def _check_game(setup: Any, steps: int) -> int:
    game = setup.start()
    space = action_space_of(game.rules, game.config)
    members = set(space)
    assert len(members) == len(space)
    assert space == game.rules.action_space(game.rules.config(setup.players, **setup.options))
    rng = Rng.stream(setup.policy_seed, 7)
    seen = 0
    for _ in range(steps):
        if game.is_over:
            break
        legal = game.legal_actions()
        missing = [a for a in legal if a not in members]
        assert not missing, f"{setup.game}: legal actions missing from action_space: {missing}"
        seen += len(legal)
        game = game.play(rng.choice(legal))
    return seen


@pytest.mark.parametrize("name", sorted(OPTION_SPACES))
@settings(max_examples=12)
@given(data=st.data())
def test_every_legal_action_is_in_the_action_space(name: str, data: st.DataObject) -> None:
    options = OPTION_SPACES[name]
    if name == "cutthroat-spades":
        setup = data.draw(game_setups(name, options=options))
    elif name == "crazy-eights":
        setup = data.draw(game_setups(name, players=(6, 7), options=options))
        if not data.draw(st.booleans()):  # one pack for fewer players
            setup = data.draw(game_setups(name, players=(2, 5), options={**options, "decks": [1]}))
    else:
        setup = data.draw(game_setups(name, options=options))
    assert _check_game(setup, 400) > 0


def test_spacc_u_mazz_space_counts_plays_by_rank_and_multiset() -> None:
    rules = cardkit.get_rules("spacc-u-mazz")
    space = rules.action_space(rules.config(2))
    plays = [a for a in space if type(a).__name__ == "Play"]
    assert len(plays) == 13 * (81 * 31 - 1)
    assert len(space) == 32694
    # fixed per config: the same tuple for any options
    assert rules.action_space(rules.config(4, rank_order="as_printed")) == space


def test_sizes_of_the_other_games() -> None:
    assert len(cardkit.get_rules("crazy-eights").action_space(cardkit.get_rules("crazy-eights").config(3))) == 70
    wizard = cardkit.get_rules("wizard")
    assert len(wizard.action_space(wizard.config(3))) == 4 + 21 + 54
    assert len(wizard.action_space(wizard.config(3, rounds=2))) == 4 + 3 + 54
    spades = cardkit.get_rules("cutthroat-spades")
    # 3 players: 51 cards (2C removed), 17 tricks: look, 2 blind bids, 17 bids, 4 seen specials
    assert len(spades.action_space(spades.config(3))) == 3 + 17 + 4 + 51


def test_the_example_user_game_has_an_action_space() -> None:
    register_example_game()
    rules = cardkit.get_rules("high-card")
    game = cardkit.new_game("high-card", players=4, seed=3)
    space = set(action_space_of(rules, game.config))
    while not game.is_over:
        assert set(game.legal_actions()) <= space
        game = game.play(game.legal_actions()[-1])


def test_a_game_without_action_space_gets_a_config_error() -> None:
    class NoSpace:
        name = "no-space"

    with pytest.raises(cardkit.ConfigError, match="no action_space"):
        action_space_of(NoSpace(), None)
