"""Rule 1 (players), rule 4 (rounds) and the options: validation and round trips."""

from __future__ import annotations

import json

import pytest

import cardkit
from cardkit import ConfigError
from cardkit.games.wizard.config import WizardConfig
from cardkit.games.wizard.rules import RULES


def test_registered() -> None:
    assert "wizard" in cardkit.available_games()
    assert cardkit.get_rules("wizard") is RULES
    assert RULES.min_players == 3 and RULES.max_players == 6
    assert RULES.rules_version == 1


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_rule1_three_to_six_players(players: int) -> None:
    game = cardkit.new_game("wizard", players=players, seed=1)
    assert len(game.scores) == players


@pytest.mark.parametrize("players", [0, 1, 2, 7, 8, -3, True, "4", 4.0, None])
def test_rule1_other_player_counts_are_config_errors(players: object) -> None:
    with pytest.raises(ConfigError, match="3 to 6 players"):
        cardkit.new_game("wizard", players=players, seed=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("players,rounds", [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_rule4_rounds_default_is_60_over_players(players: int, rounds: int) -> None:
    config = RULES.config(players)
    assert config.rounds == rounds
    assert config.forbid_even_bids is False


def test_rounds_option_in_range() -> None:
    assert RULES.config(4, rounds=1).rounds == 1
    assert RULES.config(4, rounds=15).rounds == 15
    assert RULES.config(4, rounds=None).rounds == 15
    for bad in (0, 16, -1, 2.5, "3", True):
        with pytest.raises(ConfigError, match="'rounds' must be 1..15"):
            RULES.config(4, rounds=bad)


def test_forbid_even_bids_must_be_bool() -> None:
    assert RULES.config(3, forbid_even_bids=True).forbid_even_bids is True
    for bad in (1, "yes", None, 0):
        with pytest.raises(ConfigError, match="'forbid_even_bids' must be True or False"):
            RULES.config(3, forbid_even_bids=bad)


def test_unknown_option_names_the_allowed_ones() -> None:
    with pytest.raises(ConfigError, match="unknown option 'target'.*forbid_even_bids, rounds"):
        cardkit.new_game("wizard", players=4, seed=1, target=100)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("options", [{}, {"rounds": 2}, {"forbid_even_bids": True, "rounds": 1}])
def test_as_options_round_trips_through_json(players: int, options: dict[str, object]) -> None:
    config = RULES.config(players, **options)
    assert isinstance(config, WizardConfig)
    again = RULES.config(players, **json.loads(json.dumps(config.as_options())))
    assert again == config
    assert set(config.as_options()) == {"forbid_even_bids", "rounds"}
