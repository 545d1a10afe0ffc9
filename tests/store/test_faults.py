"""Faults: racing writer processes, and writers killed with SIGKILL mid-append.

Default run: a few seconds per backend; ``CARDKIT_LONG=1`` runs many more moves and kills.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

import cardkit
import cardkit.store
from cardkit.errors import ConcurrencyError
from cardkit.rng import Rng
from tests.conftest import LONG

from .conftest import store_url

WRITERS = 6 if LONG else 4
MOVES = 60 if LONG else 8
KILLS = 40 if LONG else 3

# fork: a child starts in milliseconds; the parent holds no open store when it forks.
_CTX = multiprocessing.get_context("fork")


def _writer(url: str, match_id: str, worker: int, moves: int, out: "multiprocessing.Queue[tuple[int, int, int]]") -> None:
    rng = Rng(worker)
    made = retries = 0
    with cardkit.store.open(url, snapshot_every=8) as store:
        while made < moves:
            game = store.load(match_id)
            if game.is_over:
                break
            legal = game.legal_actions()
            seq = game.last_entry.seq if game.last_entry is not None else -1
            try:
                store.play(match_id, legal[rng.below(len(legal))], expected_seq=seq)
                made += 1
            except ConcurrencyError:
                retries += 1
    out.put((worker, made, retries))


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_racing_writers_lose_nothing(backend: str, tmp_path: Path) -> None:
    url = store_url(backend, tmp_path)
    game = cardkit.new_game("crazy-eights", players=4, seed=77, max_turns=10_000)
    with cardkit.store.open(url, snapshot_every=8) as store:
        match_id = store.create(game, match_id="race")
    out: multiprocessing.Queue[tuple[int, int, int]] = _CTX.Queue()
    procs = [_CTX.Process(target=_writer, args=(url, match_id, w, MOVES, out)) for w in range(WRITERS)]
    for p in procs:
        p.start()
    results = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    made = sum(r[1] for r in results)
    with cardkit.store.open(url) as store:
        log = store.log(match_id)
        info = store.info(match_id)
        loaded = store.load(match_id)
    assert [e.seq for e in log.entries] == list(range(len(log.entries)))  # gap-free, no duplicate
    assert info.entries == len(log.entries)
    seat_moves = sum(1 for e in log.entries if e.actor != cardkit.CHANCE)
    assert seat_moves == game.seat_actions + made  # every accepted move is there exactly once
    replayed = cardkit.replay(log)
    assert replayed.state == loaded.state and replayed.log == log


def _killable_writer(url: str, start: int) -> None:
    rng = Rng(start)
    with cardkit.store.open(url, snapshot_every=4, cache_size=0) as store:
        i = start
        while True:
            game = cardkit.new_game("wizard", players=3, seed=i)
            match_id = store.create(game, match_id=f"k{i}")
            for _ in range(30):
                if game.is_over:
                    break
                legal = game.legal_actions()
                game = store.play(match_id, legal[rng.below(len(legal))])
            i += 1


_OTHER_SESSIONS = (
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
    " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
)


def _sessions_seen_by(conn: Any) -> set[int]:
    """The server sessions on the test database, ``conn``'s own excluded."""
    return {row[0] for row in conn.execute(_OTHER_SESSIONS).fetchall()}


def _server_sessions(dsn: str) -> set[int]:
    """The server sessions on the test database now."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        return _sessions_seen_by(conn)


def _wait_for_new_sessions_to_end(dsn: str, before: set[int]) -> None:
    """Wait until every server session that was not in ``before`` has ended.

    A client killed right after sending its move leaves a server session that still
    commits it: the move lands a moment after the client is gone, which is durability
    working, not a torn write. Checking before it lands would read a match's summary
    before the commit and its entries after it. Sessions open before the writer started
    (another test's store, say) are not waited for.
    """
    import psycopg

    deadline = time.monotonic() + 30
    with psycopg.connect(dsn, autocommit=True) as conn:  # one connection: no session of its own to wait for
        while _sessions_seen_by(conn) - before:
            assert time.monotonic() < deadline, "the killed writer's server session never ended"
            time.sleep(0.01)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_sigkill_mid_append_leaves_whole_entries(backend: str, tmp_path: Path) -> None:
    url = store_url(backend, tmp_path)
    cardkit.store.open(url).close()
    rng = Rng(99)
    for k in range(KILLS):
        before = _server_sessions(url) if backend == "postgres" else set()
        proc = _CTX.Process(target=_killable_writer, args=(url, 1000 * (k + 1)))
        proc.start()
        # Let it get going (spawn imports take a while), then kill it at a random moment.
        deadline = time.monotonic() + 30
        with cardkit.store.open(url) as store:
            while not store.matches(game="wizard") or len(store.matches()) <= k:
                assert time.monotonic() < deadline, "the writer never wrote"
                time.sleep(0.02)
        time.sleep(rng.below(200) / 1000)
        assert proc.pid is not None
        os.kill(proc.pid, signal.SIGKILL)
        proc.join()
        assert proc.exitcode == -signal.SIGKILL
        if backend == "postgres":
            _wait_for_new_sessions_to_end(url, before)
        with cardkit.store.open(url) as store:
            for info in store.matches():
                log = store.log(info.match_id)
                assert len(log.entries) == info.entries
                assert [e.seq for e in log.entries] == list(range(info.entries))
                assert store.load(info.match_id).state == cardkit.replay(log).state


def _opener(url: str) -> None:
    cardkit.store.open(url).close()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_simultaneous_first_opens_migrate_once(backend: str, tmp_path: Path) -> None:
    for attempt in range(3):
        url = store_url(backend, tmp_path / str(attempt))
        procs = [_CTX.Process(target=_opener, args=(url,)) for _ in range(6)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(timeout=60)
        assert [p.exitcode for p in procs] == [0] * 6
        with cardkit.store.open(url) as store:
            assert store.matches() == ()
