"""Item 8 of issue 24: a game loaded from a snapshot holds its whole history.

``store.load`` and ``store.play`` resume a game from its newest snapshot (so a load re-decides
at most ``snapshot_every`` entries); the entries before it are fetched from the store the
first time anything reaches back that far. Seqs and counts are the whole game's, ``undo``
goes past the snapshot, and ``replay(store.log(id)) == game``.
"""

from __future__ import annotations

import pickle

import pytest

import cardkit
import cardkit.store
from cardkit.errors import IllegalActionError
from cardkit.rng import Rng

from .helpers import random_moves


def _long_match(store: cardkit.store.Store) -> tuple[str, cardkit.Game]:
    game, _ = random_moves(cardkit.new_game("wizard", players=3, seed=17), Rng(5), 70)
    assert not game.is_over and len(game.log.entries) > 60
    return store.create(game, match_id="long"), game


def test_a_loaded_game_has_the_whole_log(url: str) -> None:
    with cardkit.store.open(url, snapshot_every=8, cache_size=0) as store:
        match_id, game = _long_match(store)
        loaded = store.load(match_id)
        # counts are absolute even before anything is fetched
        assert loaded.entry_count == game.entry_count
        assert loaded.seat_actions == game.seat_actions
        assert loaded.last_entry == game.last_entry
        assert loaded.log == game.log == store.log(match_id)
        assert cardkit.dumps(loaded.log) == cardkit.dumps(game.log)
        assert cardkit.replay(store.log(match_id)) == loaded
        assert loaded == game and hash(loaded) == hash(game)
        assert loaded.events == game.events
        for seat in (None, 0, 1, 2):
            assert loaded.entries_for(seat) == game.entries_for(seat)
            assert loaded.events_for(seat) == game.events_for(seat)
            assert loaded.log_for(seat) == game.log_for(seat)
        assert pickle.loads(pickle.dumps(loaded)) == game


def test_undo_reaches_past_the_snapshot(url: str) -> None:
    with cardkit.store.open(url, snapshot_every=8, cache_size=0) as store:
        match_id, game = _long_match(store)
        loaded = store.load(match_id)
        played = game.seat_actions
        for steps in (1, 5, 20, played - 1, played):
            back = loaded.undo(steps)
            assert back == game.undo(steps), steps
            assert back.state == game.undo(steps).state
            assert back.entry_count == game.undo(steps).entry_count
            assert back.legal_actions() == game.undo(steps).legal_actions()
        with pytest.raises(IllegalActionError, match=f"only {played} were played"):
            loaded.undo(played + 1)
        # a game undone past the snapshot plays on and keeps the whole history
        back = loaded.undo(20)
        on = back.play(back.legal_actions()[0])
        assert on.log.entries[: back.entry_count] == game.log.entries[: back.entry_count]
        assert cardkit.replay(on.log) == on
        assert on.undo(on.seat_actions).state == game.undo(played).state


def test_games_from_play_hold_the_whole_log_too(url: str) -> None:
    with cardkit.store.open(url, snapshot_every=8) as store:
        match_id, game = _long_match(store)
        for _ in range(20):  # crosses snapshots: the store restarts the game it keeps at each
            action = game.legal_actions()[0]
            game = game.play(action)
            played = store.play(match_id, action)
            assert played.entry_count == game.entry_count
        assert played.log == game.log
        assert played.undo(40) == game.undo(40)
        assert cardkit.replay(store.log(match_id)) == played


def test_the_history_is_fetched_once_and_needs_the_store_until_then(url: str) -> None:
    store = cardkit.store.open(url, snapshot_every=8, cache_size=0)
    match_id, game = _long_match(store)
    fetched = store.load(match_id)
    assert fetched.log == game.log  # fetched now
    unfetched = store.load(match_id)
    store.close()
    # the fetched history is kept: undo and the log need no store any more
    assert fetched.undo(30) == game.undo(30)
    assert fetched.play(fetched.legal_actions()[0]).log.entries[:-1] == game.log.entries
    # the tail needs none either; reaching back without the store is a StoreError
    assert unfetched.state == game.state and unfetched.undo(1).state == game.undo(1).state
    with pytest.raises(cardkit.store.StoreError):
        unfetched.log  # noqa: B018
