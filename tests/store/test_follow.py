"""Store.follow: a game kept in memory catches up with moves another process stored."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import cardkit.store
from cardkit.api import new_game
from cardkit.store.errors import BrokenMatchError


def _play(store: cardkit.store.Store, match_id: str, moves: int) -> None:
    game = store.load(match_id)
    for _ in range(moves):
        if game.is_over:
            return
        game = store.play(match_id, game.legal_actions()[0], seat=game.to_act, expected_seq=game.last_entry.seq)


def test_follow_replays_only_the_new_entries_onto_the_game(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'f.db'}"
    with cardkit.store.open(url) as mine, cardkit.store.open(url) as theirs:
        match_id = mine.create(new_game("cutthroat-spades", players=4, seed=4))
        game = mine.load(match_id)
        assert mine.follow(match_id, game) is game  # nothing new
        _play(theirs, match_id, 70)  # past a snapshot (every 64 entries), the hand not over
        followed = mine.follow(match_id, game)
        assert followed.last_entry.seq > 64 and not followed.is_over
        fresh = theirs.load(match_id)
        assert followed.last_entry == fresh.last_entry and followed.state == fresh.state
        assert followed.entries_for(0) == fresh.entries_for(0)
        # The follower's next move is a plain move on the stored newest entry.
        moved = mine.play(match_id, followed.legal_actions()[0], seat=followed.to_act,
                          expected_seq=followed.last_entry.seq)
        assert theirs.load(match_id).last_entry == moved.last_entry


def test_follow_refuses_an_edited_row(tmp_path: Path) -> None:
    db = tmp_path / "f.db"
    url = f"sqlite:///{db}"
    with cardkit.store.open(url) as mine, cardkit.store.open(url) as theirs:
        match_id = mine.create(new_game("crazy-eights", players=3, seed=4))
        game = mine.load(match_id)
        _play(theirs, match_id, 3)
        seq = game.last_entry.seq + 1
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE cardkit_entries SET action = ? WHERE match_id = ? AND seq = ?",
                         ('{"type": "draw"}', match_id, seq))
        with pytest.raises(BrokenMatchError):
            mine.follow(match_id, game)
