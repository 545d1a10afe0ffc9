"""Game.resume: a game rebuilt from a state and the entries after it, each re-decided."""

from __future__ import annotations

import attrs
import pytest

import cardkit
from cardkit.core.game import Game
from cardkit.core.log import LogEntry
from cardkit.errors import IllegalActionError, LogError, ReplayMismatchError
from cardkit.rng import Rng

from .helpers import random_moves


def _state_after(game: cardkit.Game, n: int) -> object:
    state = game.rules.initial_state(game.config)
    for entry in game.log.entries[:n]:
        for event in entry.events:
            state = game.rules.evolve(state, event)
    return state


def test_resume_from_a_middle_state_equals_the_whole_game() -> None:
    game, _ = random_moves(cardkit.new_game("wizard", players=4, seed=3), Rng(1), 80)
    entries = game.log.entries
    for cut in (1, 17, len(entries) // 2, len(entries) - 1):
        chances = sum(1 for e in entries[:cut] if e.actor == cardkit.CHANCE)
        resumed = Game.resume(
            game.rules, game.config, game.seed, True, entries[cut:],
            state=_state_after(game, cut), chances=chances,
        )
        assert resumed.state == game.state
        assert resumed.legal_actions() == game.legal_actions()
        assert resumed.log.entries == entries[cut:]
        # it plays on exactly as the whole game does (chance drawn from the right stream)
        later, moves = random_moves(game, Rng(cut), 20)
        for move in moves:
            resumed = resumed.play(move)
        assert resumed.state == later.state


def test_resume_from_the_start_checks_everything() -> None:
    game, _ = random_moves(cardkit.new_game("crazy-eights", players=3, seed=4), Rng(2), 30)
    entries = game.log.entries
    assert Game.resume(game.rules, game.config, game.seed, True, entries).state == game.state
    with pytest.raises(LogError):
        Game.resume(game.rules, game.config, game.seed, True, entries[:3] + entries[4:])
    first = entries[0]
    other = cardkit.Pick((first.action.index + 1) % 3)
    forged = (attrs.evolve(first, action=other),) + entries[1:]
    with pytest.raises(ReplayMismatchError):
        Game.resume(game.rules, game.config, game.seed, True, forged)
    with pytest.raises(ReplayMismatchError):
        Game.resume(game.rules, game.config, game.seed, True,
                    (entries[0], LogEntry(1, entries[1].actor, entries[1].action, ())) + entries[2:])
    with pytest.raises(LogError):
        Game.resume(game.rules, game.config, game.seed, True, (), state=game.state, chances=1)


def test_undo_reaches_back_to_the_resumed_state_only() -> None:
    game, _ = random_moves(cardkit.new_game("crazy-eights", players=3, seed=6), Rng(3), 30)
    entries = game.log.entries
    cut = len(entries) - 4
    chances = sum(1 for e in entries[:cut] if e.actor == cardkit.CHANCE)
    resumed = Game.resume(game.rules, game.config, game.seed, True, entries[cut:],
                          state=_state_after(game, cut), chances=chances)
    seat_entries = sum(1 for e in entries[cut:] if e.actor != cardkit.CHANCE)
    assert resumed.undo(seat_entries).state == game.undo(seat_entries).state
    with pytest.raises(IllegalActionError):
        resumed.undo(seat_entries + 1)


def test_a_resumed_game_pickles_with_its_place_in_the_log() -> None:
    import copy
    import pickle

    game, _ = random_moves(cardkit.new_game("spacc-u-mazz", players=2, seed=8), Rng(4), 70)
    entries = game.log.entries
    cut = len(entries) - 5
    chances = sum(1 for e in entries[:cut] if e.actor == cardkit.CHANCE)
    resumed = Game.resume(game.rules, game.config, game.seed, True, entries[cut:],
                          state=_state_after(game, cut), chances=chances)
    for clone in (pickle.loads(pickle.dumps(resumed)), copy.deepcopy(resumed)):
        assert clone.log == resumed.log and clone.log.entries[0].seq == cut
        later, moves = random_moves(game, Rng(9), 10)
        for move in moves:
            clone = clone.play(move)
        assert clone.state == later.state
        assert clone.last_entry == later.last_entry
