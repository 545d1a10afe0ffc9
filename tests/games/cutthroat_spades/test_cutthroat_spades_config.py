"""Options, presets and their errors (rules file: Presets, Options)."""

from __future__ import annotations

import json

import pytest

import cardkit
from cardkit import ConfigError
from cardkit.games.cutthroat_spades.config import CutthroatConfig
from cardkit.games.cutthroat_spades.rules import RULES

NAME = "cutthroat-spades"


def test_defaults_are_the_official_preset() -> None:
    cfg = RULES.config(4)
    assert cfg == CutthroatConfig(
        players=4, preset="official", target=500, bags="limit", bag_limit=10, bag_out="reset",
        blind_six_per_game=1, prize_jacks=("JD", "JC"), wins_needed=5, jokers=0, max_hands=None,
    )


@pytest.mark.parametrize(
    "preset, expected",
    [
        ("short", dict(target=300, bags="limit", bag_limit=5, blind_six_per_game=1, prize_jacks=("JC",), wins_needed=3)),
        ("short_minus_10", dict(target=300, bags="each_minus_10", bag_limit=None, blind_six_per_game=1, prize_jacks=("JC",), wins_needed=3)),
        ("long", dict(target=500, bags="limit", bag_limit=10, blind_six_per_game=None, prize_jacks=("JD", "JC", "JH"), wins_needed=5)),
        ("official", dict(target=500, bags="limit", bag_limit=10, blind_six_per_game=1, prize_jacks=("JD", "JC"), wins_needed=5)),
    ],
)
def test_presets(preset: str, expected: dict[str, object]) -> None:
    cfg = RULES.config(3, preset=preset)
    for key, value in expected.items():
        assert getattr(cfg, key) == value, key


def test_individual_options_override_a_preset() -> None:
    cfg = RULES.config(4, preset="short", target=150, prize_jacks=["JH", "JD"], bag_out="carry")
    assert (cfg.target, cfg.bag_limit, cfg.prize_jacks, cfg.bag_out) == (150, 5, ("JD", "JH"), "carry")
    cfg = RULES.config(4, preset="short_minus_10", bags="limit")
    assert cfg.bag_limit == 10  # documented: the official limit when the preset has none
    cfg = RULES.config(4, preset="long", blind_six_per_game=2)
    assert cfg.blind_six_per_game == 2


@pytest.mark.parametrize(
    "players, options",
    [
        (3, {}), (4, {"preset": "long", "max_hands": 3}), (5, {"jokers": 2}),
        (5, {"preset": "short_minus_10", "jokers": 3}), (4, {"prize_jacks": []}),
    ],
)
def test_as_options_round_trips_through_json(players: int, options: dict[str, object]) -> None:
    cfg = RULES.config(players, **options)
    again = RULES.config(players, **json.loads(json.dumps(cfg.as_options())))
    assert again == cfg


@pytest.mark.parametrize(
    "players, options, words",
    [
        (4, {"colour": 1}, "unknown option 'colour'"),
        (4, {"preset": "turbo"}, "unknown preset 'turbo'"),
        (4, {"jokers": 2}, "'jokers' does not apply"),
        (3, {"jokers": 3}, "'jokers' does not apply"),
        (5, {"jokers": 1}, "'jokers' must be one of"),
        (4, {"bags": "each_minus_10", "bag_limit": 7}, "'bag_limit' does not apply"),
        (4, {"preset": "short_minus_10", "bag_out": "carry"}, "'bag_out' does not apply"),
        (4, {"bags": "some"}, "'bags' must be one of"),
        (4, {"bag_out": "keep"}, "'bag_out' must be one of"),
        (4, {"target": 0}, "'target'"),
        (4, {"bag_limit": 0}, "'bag_limit'"),
        (4, {"wins_needed": 0}, "'wins_needed'"),
        (4, {"blind_six_per_game": 0}, "'blind_six_per_game'"),
        (4, {"max_hands": 0}, "'max_hands'"),
        (4, {"prize_jacks": ["JS"]}, "'prize_jacks'"),
        (4, {"prize_jacks": ["JD", "JD"]}, "'prize_jacks'"),
        (4, {"prize_jacks": "JD"}, "'prize_jacks'"),
        (2, {}, "3 to 5 players"),
        (6, {}, "3 to 5 players"),
    ],
)
def test_bad_options_are_config_errors(players: int, options: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigError, match=words.replace("(", r"\(")):
        cardkit.new_game(NAME, players=players, seed=0, **options)


def test_default_valued_inapplicable_options_are_accepted() -> None:
    assert RULES.config(4, jokers=0).jokers == 0
    assert RULES.config(4, bags="each_minus_10", bag_limit=None, bag_out="reset").bag_limit is None


def test_registry_lists_the_game() -> None:
    assert NAME in cardkit.available_games()
    assert cardkit.get_rules(NAME) is RULES
