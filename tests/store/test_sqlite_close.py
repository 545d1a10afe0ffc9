"""Closing a SQLite store never closes a connection another thread is using.

A web host's background poll can be inside a read when the host shuts down; closing that
connection under it crashed the process (SQLite's C library, a segfault). ``close`` now
closes the idle connections and leaves a borrowed one to be closed when it is given back."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from cardkit.store.errors import StoreError
from cardkit.store.sqlite import SqliteBackend


def test_close_leaves_a_borrowed_connection_working_until_it_is_given_back(tmp_path: Path) -> None:
    backend = SqliteBackend(str(tmp_path / "s.db"))
    with backend._transaction(immediate=False) as cur:
        backend.close()  # another "thread" is mid-transaction on this connection
        assert cur.execute("SELECT 1").fetchone() == (1,)  # not closed under it
    assert backend._all == [] and backend._idle == []  # closed once given back
    with pytest.raises(StoreError, match="closed"):
        with backend._transaction(immediate=False):
            pass


def test_closing_while_threads_read_never_crashes(tmp_path: Path) -> None:
    backend = SqliteBackend(str(tmp_path / "s.db"))
    started = threading.Barrier(5)
    errors: list[BaseException] = []

    def read() -> None:
        started.wait()
        for _ in range(200):
            try:
                with backend._transaction(immediate=False) as cur:
                    cur.execute("SELECT count(*) FROM sqlite_master").fetchone()
            except StoreError:
                return  # closed: the one error a reader may see
            except BaseException as exc:  # pragma: no cover - what the fix prevents
                errors.append(exc)
                return

    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    started.wait()
    backend.close()
    for thread in threads:
        thread.join()
    assert errors == []
