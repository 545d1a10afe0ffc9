"""The payoffs of a playout that stops after a scored hand of a longer game."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import cardkit
from cardkit.bots import ISMCTSBot
from cardkit.bots import ismcts as ismcts_module
from cardkit.bots.playout import HAND_VALUES, WIZARD_SPREAD, lead_chances, wizard_hand_value


def test_lead_chances_are_one_half_when_level_and_grow_with_the_lead() -> None:
    assert lead_chances([10, 10, 0], 15.0)[:2] == [0.5, 0.5]
    ahead, level, behind = lead_chances([40, 20, 20], 15.0)
    assert ahead > 0.5 and level < 0.5 and behind == level
    # the leader's chance is the logistic of its lead over the best other seat
    assert ahead == pytest.approx(1 / (1 + math.exp(-20 / 15)))
    assert level == pytest.approx(1 / (1 + math.exp(20 / 15)))
    assert lead_chances([0, 3000, 0], 1.0)[0] == 0.0  # far behind: no overflow
    bigger = lead_chances([60, 20, 20], 15.0)[0]
    assert bigger > ahead


def _scored_wizard_state(rounds: int) -> Any:
    """A Wizard state at the chance node after round 1 was scored (the game goes on).

    A ``Game`` answers chance itself and never rests there, so the state is rebuilt
    from the events of a random game's log, stopping at the deal of round 2."""
    game = cardkit.new_game("wizard", players=3, seed=11, rounds=rounds)
    rng = random.Random(3)
    while game.state.round < 2:
        game = game.play(rng.choice(game.legal_actions()))
    rules = game.rules
    state = rules.initial_state(game.config)
    for entry in game.log.entries:
        for event in entry.events:
            state = rules.evolve(state, event)
        if state.round == 1 and rules.to_act(state) == cardkit.CHANCE:
            return rules, state
    raise AssertionError("round 1 was never scored")


def test_wizard_hand_value_is_the_lead_chance_with_a_spread_that_grows_with_rounds_left() -> None:
    for rounds in (2, 5, 20):
        rules, state = _scored_wizard_state(rounds)
        assert state.round == 1 and rules.to_act(state) == cardkit.CHANCE and rules.result(state) is None
        left = rounds - 1
        expected = lead_chances(rules.scores(state), WIZARD_SPREAD * math.sqrt(left + 1))
        assert wizard_hand_value(rules, state, 3) == pytest.approx(expected)
    # a lead counts for more when fewer rounds can overturn it
    rules, short = _scored_wizard_state(2)
    _, long = _scored_wizard_state(20)
    scores = rules.scores(short)
    assert scores == rules.scores(long) and len(set(scores)) > 1
    leader = scores.index(max(scores))
    assert wizard_hand_value(rules, short, 3)[leader] > wizard_hand_value(rules, long, 3)[leader] > 0.5


def test_the_search_scores_a_finished_hand_with_the_games_hand_value(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def recorded(rules: Any, state: Any, players: int) -> list[float]:
        calls.append(state.round)
        return wizard_hand_value(rules, state, players)

    monkeypatch.setitem(HAND_VALUES, "wizard", recorded)
    game = cardkit.new_game("wizard", players=3, seed=5, rounds=5)
    seat = game.to_act
    assert seat is not None
    # The reducer engine's payoff functions (the kernel engine's: test_ismcts_kernel.py).
    ISMCTSBot(iterations=30, engine="reducer").choose(game.seat_state(seat), random.Random(0))
    # round 1 of 5: every playout stopped after the round was scored, never at the game's end
    assert len(calls) == 30 and set(calls) == {1}

    # a game's last round ends the game: the real result counts, not the hand value
    calls.clear()
    last = cardkit.new_game("wizard", players=3, seed=5, rounds=1)
    seat = last.to_act
    assert seat is not None
    called_payoffs: list[int] = []
    real = ismcts_module.payoffs

    def counted(rules: Any, state: Any, players: int) -> list[float]:
        called_payoffs.append(1)
        return real(rules, state, players)

    monkeypatch.setattr(ismcts_module, "payoffs", counted)
    ISMCTSBot(iterations=30, engine="reducer").choose(last.seat_state(seat), random.Random(0))
    assert calls == [] and len(called_payoffs) == 30
