"""``Game.resume(..., history=...)``: a game resumed from a state holds its whole history,
fetched once, the first time anything reaches back past the state (issue 24 item 8)."""

from __future__ import annotations

import pytest

import cardkit
from cardkit.core.game import Game
from cardkit.errors import LogError
from cardkit.rng import Rng


def _played(n: int, seed: int = 8) -> cardkit.Game:
    game = cardkit.new_game("crazy-eights", players=3, seed=seed)
    rng = Rng(2)
    for _ in range(n):
        legal = game.legal_actions()
        game = game.play(legal[rng.below(len(legal))])
    return game


def _resumed(game: cardkit.Game, base: int, calls: list[int], history: object = None) -> cardkit.Game:
    entries = game.log.entries
    state = game.rules.initial_state(game.config)
    for entry in entries[:base]:
        for event in entry.events:
            state = game.rules.evolve(state, event)
    chances = sum(1 for e in entries[:base] if e.actor == cardkit.CHANCE)

    def fetch() -> tuple[cardkit.LogEntry, ...]:
        calls.append(base)
        return entries[:base] if history is None else history  # type: ignore[return-value]

    return Game.resume(
        game.rules, game.config, game.seed, game.auto_chance, entries[base:], state=state,
        chances=chances, history=fetch,
    )  # fmt: skip


def test_a_resumed_game_fetches_its_history_once() -> None:
    game = _played(60)
    base = 40
    calls: list[int] = []
    resumed = _resumed(game, base, calls)
    # the state, the moves and the counts need no history
    assert resumed.state == game.state and resumed.entry_count == game.entry_count
    assert resumed.seat_actions == game.seat_actions
    moved = resumed.play(resumed.legal_actions()[0])
    assert moved.undo(1).state == game.state and calls == []
    # anything that reaches back fetches it, once for the whole line of play
    assert resumed.log == game.log and calls == [base]
    assert resumed == game and moved.log.entries[:-1] == game.log.entries
    for steps in (3, 30, game.seat_actions):
        assert resumed.undo(steps) == game.undo(steps)
    with pytest.raises(cardkit.IllegalActionError, match=f"only {game.seat_actions} were played"):
        resumed.undo(game.seat_actions + 1)
    assert resumed.entries_for(1) == game.entries_for(1)
    assert calls == [base]


def test_a_history_that_does_not_lead_to_the_state_is_refused() -> None:
    game = _played(60)
    calls: list[int] = []
    short = _resumed(game, 40, calls, history=game.log.entries[:39])
    with pytest.raises(LogError, match="before seq 40 did not come back whole"):
        short.log  # noqa: B018
    other = _played(60, seed=9).log.entries[:40]  # another deal: the same seqs, other events
    wrong = _resumed(game, 40, calls, history=other)
    with pytest.raises(LogError, match="before seq 40 do not lead to the state"):
        wrong.undo(40)
