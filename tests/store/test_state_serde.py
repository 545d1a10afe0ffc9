"""Every state reachable in random games round-trips through dumps_state / loads_state."""

from __future__ import annotations

import pytest

import cardkit
from cardkit.errors import LogError
from cardkit.rng import Rng
from cardkit.serde import dumps_state, loads_state
from tests.conftest import LONG

from .helpers import PLAYERS

GAMES = sorted(PLAYERS)
SEEDS = range(40 if LONG else 3)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_reachable_state_round_trips(name: str, seed: int) -> None:
    rules = cardkit.get_rules(name)
    players = PLAYERS[name] + seed % 2 if name != "spacc-u-mazz" else 2
    game = cardkit.new_game(name, players=players, seed=seed)
    rng = Rng(1000 + seed)
    checked = 0
    limit = 2_000 if LONG else 150
    while not game.is_over and checked < limit:
        text = dumps_state(rules, game.state)
        back = loads_state(rules, text)
        assert back == game.state, f"{name} seed {seed} step {checked}"
        assert dumps_state(rules, back) == text
        legal = game.legal_actions()
        game = game.play(legal[rng.below(len(legal))])
        checked += 1
    assert loads_state(rules, dumps_state(rules, game.state)) == game.state
    assert checked > 10


def test_bad_state_text_is_a_log_error() -> None:
    rules = cardkit.get_rules("wizard")
    good = dumps_state(rules, cardkit.new_game("wizard", players=3, seed=1).state)
    for bad in ["{", "[]", '{"type": "WizardState"}', good.replace('"round"', '"rownd"'),
                good.replace("WizardState", "Other")]:
        with pytest.raises(LogError):
            loads_state(rules, bad)
    with pytest.raises(LogError):
        loads_state(cardkit.get_rules("crazy-eights"), good)
    with pytest.raises(LogError):
        dumps_state(rules, cardkit.new_game("crazy-eights", players=3, seed=1).state)
