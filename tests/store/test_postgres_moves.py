"""The PostgreSQL backend's one-round-trip move (libpq pipeline, prepared statements):
what it does when its statements or its connection are gone."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

import pytest

import cardkit
import cardkit.store
from cardkit.rng import Rng
from cardkit.errors import ConcurrencyError
from cardkit.store.errors import StoreError

from .conftest import store_url
from .helpers import random_moves


@pytest.fixture
def pg_url(tmp_path: Any) -> str:
    return store_url("postgres", tmp_path)


def _pool(store: cardkit.store.Store) -> Any:
    """The connection pool of a PostgreSQL store (opened here with ``max_size=1``, so the
    connection it hands out is the one the moves use)."""
    return store._backend._pool  # type: ignore[attr-defined]


@contextmanager
def _match(url: str, game: cardkit.Game, moves: list[Any], **options: Any) -> Iterator[tuple[Any, str]]:
    """A store of one connection holding ``game`` as a match, ``moves`` played on it."""
    with cardkit.store.open(url, max_size=1, **options) as store:
        match_id = store.create(game)
        store.load(match_id)
        for move in moves:
            store.play(match_id, move)
        yield store, match_id


def test_moves_go_on_after_the_prepared_statements_are_dropped(pg_url: str) -> None:
    # psycopg deallocates every prepared statement of a connection after a rollback on
    # it: the move must notice, prepare again and write exactly once.
    game = cardkit.new_game("crazy-eights", players=3, seed=11)
    final, moves = random_moves(game, Rng(5), 40)
    with _match(pg_url, game, moves[:10]) as (store, match_id):
        with _pool(store).connection() as conn:
            conn.execute("DEALLOCATE ALL")
        for move in moves[10:20]:
            store.play(match_id, move)
        with _pool(store).connection() as conn:
            conn.execute("DEALLOCATE ALL")
            conn.commit()
        for move in moves[20:]:
            store.play(match_id, move)
        assert store.log(match_id) == final.log
        assert cardkit.replay(store.log(match_id)) == final


def test_a_lost_connection_fails_one_move_and_is_replaced(pg_url: str) -> None:
    import psycopg

    game = cardkit.new_game("crazy-eights", players=3, seed=12)
    final, moves = random_moves(game, Rng(6), 12)
    with _match(pg_url, game, moves[:5]) as (store, match_id):
        with _pool(store).connection() as conn:
            pid = conn.info.backend_pid
        with psycopg.connect(pg_url, autocommit=True) as killer:
            killer.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(StoreError):
            store.play(match_id, moves[5])
        # Nothing of the failed move was written; the pool made a new connection.
        before = game
        for move in moves[:5]:
            before = before.play(move)
        assert store.log(match_id) == before.log
        for move in moves[5:]:
            store.play(match_id, move)
        assert store.log(match_id) == final.log


def test_without_pipelines_moves_take_psycopgs_path(pg_url: str) -> None:
    # libpq older than 14 has no pipeline mode: the same moves go through psycopg.
    game = cardkit.new_game("wizard", players=3, seed=4, rounds=2)
    final, moves = random_moves(game, Rng(7), 10_000)
    assert final.is_over
    with _match(pg_url, game, [], snapshot_every=8) as (store, match_id):
        store._backend._pipelines = False
        for move in moves:
            store.play(match_id, move)
        assert store.log(match_id) == final.log
        assert store.load(match_id).is_over


def test_an_entry_already_at_the_seq_is_a_concurrency_error_and_writes_nothing(pg_url: str) -> None:
    # The match row says the move may go on, but a row already holds its seq (written
    # by hand here; a writer outside the store could): the primary key refuses the
    # entry, the whole move is rolled back, and the caller hears ConcurrencyError.
    import psycopg

    game = cardkit.new_game("crazy-eights", players=3, seed=13)
    _, moves = random_moves(game, Rng(8), 6)
    with _match(pg_url, game, moves[:3]) as (store, match_id):
        before = store.log(match_id)
        seq = len(before.entries)
        with psycopg.connect(pg_url, autocommit=True) as other:
            other.execute(
                "INSERT INTO cardkit_entries (match_id, seq, actor, action, events) VALUES (%s, %s, 0, '{}', '[]')",
                (match_id, seq),
            )
            with pytest.raises(ConcurrencyError):
                store.play(match_id, moves[3])
            length = other.execute("SELECT length FROM cardkit_matches WHERE match_id = %s", (match_id,)).fetchone()
        assert length == (seq,)


def test_no_free_connection_is_a_store_error_and_nothing_is_written(pg_url: str) -> None:
    game = cardkit.new_game("crazy-eights", players=3, seed=13)
    final, moves = random_moves(game, Rng(7), 6)
    with _match(pg_url, game, moves[:3], timeout=0.5) as (store, match_id):
        pool = _pool(store)
        held = pool.getconn()  # the only connection: the next move finds none free
        try:
            with pytest.raises(StoreError, match="no PostgreSQL connection free"):
                store.play(match_id, moves[3])
            with pytest.raises(StoreError, match="no PostgreSQL connection free"):
                store.wait(match_id, after=0, timeout=0.1)
        finally:
            pool.putconn(held)
        for move in moves[3:]:
            store.play(match_id, move)
        assert store.log(match_id) == final.log
