"""The request-per-move example host, and the promise behind it: a move's cost is bounded
by the snapshot interval, not by the length of the game."""

from __future__ import annotations

from typing import Any

import pytest

import cardkit
import cardkit.store
from cardkit.rng import Rng

from .helpers import random_moves


def test_example_host_serves_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    import store_host  # examples/ is on sys.path (tests/conftest.py)

    store_host.main()
    out = capsys.readouterr().out
    assert "a stale request is refused: stale" in out


@pytest.mark.parametrize("cache_size", [0, 256])
def test_decisions_per_move_do_not_grow(monkeypatch: pytest.MonkeyPatch, cache_size: int) -> None:
    rules = cardkit.get_rules("crazy-eights")
    calls = [0]
    decide = rules.decide
    decide_after_guard = rules.decide_after_guard

    def counting(state: Any, action: Any) -> Any:
        calls[0] += 1
        return decide(state, action)

    def counting_after_guard(state: Any, action: Any, seat: int) -> Any:
        calls[0] += 1
        return decide_after_guard(state, action, seat)

    # Game decides through decide_after_guard (the guards already ran), others through decide.
    monkeypatch.setattr(rules, "decide", counting)
    monkeypatch.setattr(rules, "decide_after_guard", counting_after_guard)
    with cardkit.store.open("memory:", snapshot_every=16, cache_size=cache_size) as store:
        game = cardkit.new_game("crazy-eights", players=4, seed=5, decks=2, max_turns=5000)
        match_id = store.create(game)
        rng = Rng(3)
        per_move = []
        while not game.is_over and len(per_move) < 300:
            legal = game.legal_actions()
            action = legal[rng.below(len(legal))]
            game = game.play(action)
            calls[0] = 0
            store.play(match_id, action)
            per_move.append(calls[0])
    assert len(per_move) > 100
    assert min(per_move) >= 1  # every move is decided at least once: the count is real
    # Re-deciding the tail after a snapshot (<= 16 entries) plus the move and its chance
    # entries; with the cache, only the move and what it causes (and a rebase at a snapshot).
    bound = 16 + 4 if cache_size == 0 else 4 + 16
    assert max(per_move) <= bound
    assert max(per_move[-50:]) <= bound
    if cache_size:
        assert sorted(per_move)[len(per_move) // 2] <= 2
