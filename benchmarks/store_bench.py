"""Store benchmarks, side by side in one run: min and median of interleaved rounds.

    PYTHONPATH=src python benchmarks/store_bench.py [--postgres DSN] [--rounds 5]

1. SQLite ``store.play`` (one transaction per move: load from cache, decide, append) and
   ``store.append`` of the same entries (verified against the rules) vs raw ``sqlite3``
   inserting the same entry rows, one transaction per move, same file settings (WAL;
   synchronous=FULL, the store's default, then NORMAL, for both). Target: >= 0.5x.
2. ``store.play`` on a match of ~10,000 entries vs one of ~100 (SQLite), with the game cache
   off (every move re-decides the tail after the snapshot) and on (the default). Target: <= 1.2x.
3. PostgreSQL (with --postgres): ``store.play`` moves/s with 1 and 4 writer processes (each
   on its own match) vs the ``eventsourcing`` 9.5 PostgreSQL recorder appending the same
   entries, one ``insert_events`` per move, to the same server. Target: >= 3x. Also printed:
   the floor, a bare psycopg transaction per move inserting the same rows (the cost of a
   durable commit on this server, which bounds every durable store), and first the
   server's commit latency. Every writer makes ``WARMUP`` untimed moves first, on a
   connection of its own.
4. ``load`` (cache off) of a ~100,000-entry match vs a ~1,000-entry one: bounded by the
   snapshot interval.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sqlite3
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, Callable

import cardkit
import cardkit.store
from cardkit.core.log import LogEntry
from cardkit.rng import Rng
from cardkit.store.records import entry_to_row


def long_game(entries: int, seed: int = 1) -> tuple[cardkit.Game, list[Any]]:
    """A Crazy Eights points game played at random to at least ``entries`` entries (or its end)."""
    game = cardkit.new_game("crazy-eights", players=4, seed=seed, mode="points", target=10**9, max_turns=10**9)
    rng = Rng(seed)
    moves = []
    while not game.is_over and (game.last_entry.seq + 1 if game.last_entry else 0) < entries:
        legal = game.legal_actions()
        action = legal[rng.below(len(legal))]
        moves.append(action)
        game = game.play(action)
    return game, moves


def continuation(game: cardkit.Game, n: int, seed: int) -> list[Any]:
    """``n`` random moves that follow ``game``."""
    rng = Rng(seed)
    moves = []
    for _ in range(n):
        legal = game.legal_actions()
        moves.append(legal[rng.below(len(legal))])
        game = game.play(moves[-1])
    return moves


def stats(times: list[float]) -> tuple[float, float]:
    return min(times), statistics.median(times)


def bench_sqlite_vs_raw(tmp: Path, rounds: int, moves: int, sync: str) -> None:
    base = cardkit.new_game("crazy-eights", players=4, seed=3, mode="points", target=10**9, max_turns=10**9)
    store_times, append_times, raw_times = [], [], []
    for r in range(rounds):
        moves_r = continuation(base, moves, r)
        # the rows raw sqlite3 inserts: exactly the entry rows the store writes
        g, batches, entry_batches = base, [], []
        for m in moves_r:
            n = len(g.log.entries)
            g = g.play(m)
            entry_batches.append(list(g.log.entries[n:]))
            batches.append([entry_to_row(e) for e in entry_batches[-1]])
        url = f"sqlite:///{tmp}/s{sync}{r}.db?synchronous={sync}"
        with cardkit.store.open(url) as store:
            mid = store.create(base)
            t = time.perf_counter()
            for m in moves_r:
                store.play(mid, m)
            store_times.append((time.perf_counter() - t) / moves)
        url = f"sqlite:///{tmp}/a{sync}{r}.db?synchronous={sync}"
        with cardkit.store.open(url) as store:
            mid = store.create(base)
            seq = len(base.log.entries) - 1
            t = time.perf_counter()
            for entries in entry_batches:
                store.append(mid, entries, expected_seq=seq)
                seq = entries[-1].seq
            append_times.append((time.perf_counter() - t) / moves)
        conn = sqlite3.connect(tmp / f"r{sync}{r}.db", isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={sync.upper()}")
        conn.execute("CREATE TABLE e (match_id TEXT, seq INTEGER, actor INTEGER, action TEXT, events TEXT, PRIMARY KEY (match_id, seq)) WITHOUT ROWID")
        t = time.perf_counter()
        for rows in batches:
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany("INSERT INTO e VALUES (?, ?, ?, ?, ?)", [("m", x.seq, x.actor, x.action, x.events) for x in rows])
            conn.execute("COMMIT")
        raw_times.append((time.perf_counter() - t) / moves)
        conn.close()
    s_min, s_med = stats(store_times)
    a_min, a_med = stats(append_times)
    r_min, r_med = stats(raw_times)
    print(f"sqlite synchronous={sync}: store.play {1/s_min:7.0f} moves/s (best) {1/s_med:7.0f} (median)")
    print(f"sqlite synchronous={sync}: store.append {1/a_min:7.0f} moves/s (best) {1/a_med:7.0f} (median)")
    print(f"sqlite synchronous={sync}: raw inserts {1/r_min:7.0f} moves/s (best) {1/r_med:7.0f} (median)")
    print(f"  ratio store/raw: {r_min/s_min:.2f}x (best), {r_med/s_med:.2f}x (median)   target >= 0.5x")
    print(f"  ratio append/raw: {r_min/a_min:.2f}x (best), {r_med/a_med:.2f}x (median)")


def bench_long_vs_short(tmp: Path, rounds: int, moves: int, cache_size: int) -> None:
    short, _ = long_game(100, seed=4)
    long, _ = long_game(10_000, seed=5)
    url = f"sqlite:///{tmp}/len{cache_size}.db?synchronous=normal"
    times: dict[str, list[float]] = {"short": [], "long": []}
    with cardkit.store.open(url, cache_size=cache_size) as store:
        ids = {"short": store.create(short), "long": store.create(long)}
        games = {"short": short, "long": long}
        for r in range(rounds):
            for name in ("short", "long"):  # interleaved
                ms = continuation(games[name], moves, 100 + r)
                t = time.perf_counter()
                for m in ms:
                    store.play(ids[name], m)
                times[name].append((time.perf_counter() - t) / moves)
                for m in ms:
                    games[name] = games[name].play(m)
    (s_min, s_med), (l_min, l_med) = stats(times["short"]), stats(times["long"])
    print(f"cache_size={cache_size}: store.play at {len(short.log.entries)} entries: {s_min*1e3:.3f} ms (best) {s_med*1e3:.3f} ms (median)")
    print(f"cache_size={cache_size}: store.play at {len(long.log.entries)} entries: {l_min*1e3:.3f} ms (best) {l_med*1e3:.3f} ms (median)")
    print(f"  ratio long/short: {l_min/s_min:.2f}x (best), {l_med/s_med:.2f}x (median)   target <= 1.2x")


def bench_load(tmp: Path, rounds: int) -> None:
    small, _ = long_game(1_000, seed=6)
    big, _ = long_game(100_000, seed=7)
    url = f"sqlite:///{tmp}/load.db?synchronous=normal"
    times: dict[str, list[float]] = {"small": [], "big": []}
    with cardkit.store.open(url, cache_size=0) as store:
        ids = {"small": store.create(small), "big": store.create(big)}
        for _ in range(rounds * 4):
            for name in ("small", "big"):
                t = time.perf_counter()
                store.load(ids[name])
                times[name].append(time.perf_counter() - t)
    (a_min, a_med), (b_min, b_med) = stats(times["small"]), stats(times["big"])
    print(f"load of {len(small.log.entries)} entries: {a_min*1e3:.2f} ms (best) {a_med*1e3:.2f} ms (median)")
    print(f"load of {len(big.log.entries)} entries: {b_min*1e3:.2f} ms (best) {b_med*1e3:.2f} ms (median)")
    print(f"  ratio: {b_min/a_min:.2f}x (best), {b_med/a_med:.2f}x (median)   (bounded by snapshot_every=64)")


WARMUP = 10
"""Moves each PostgreSQL writer makes before the clock starts (a new server connection's
first statements fill its caches and get prepared: the same for every kind of writer)."""


def _pg_store_writer(dsn: str, match_id: str, moves: list[Any], start: Any, out: Any) -> None:
    with cardkit.store.open(dsn, max_size=1) as store:
        store.load(match_id)
        for m in moves[:WARMUP]:
            store.play(match_id, m)
        start.wait()
        t = time.perf_counter()
        for m in moves[WARMUP:]:
            store.play(match_id, m)
        out.put(time.perf_counter() - t)


def _es_recorder(dsn: str) -> tuple[Any, Any]:
    from urllib.parse import urlsplit

    from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

    u = urlsplit(dsn)
    ds = PostgresDatastore(
        dbname=u.path.lstrip("/"), host=u.hostname or "localhost", port=u.port or 5432,
        user=u.username or "postgres", password=u.password or "", pool_size=1,
    )
    return ds, PostgresApplicationRecorder(ds)


def _es_writer(dsn: str, rows: list[list[Any]], start: Any, out: Any) -> None:
    from eventsourcing.persistence import StoredEvent

    ds, rec = _es_recorder(dsn)
    originator = uuid.uuid4()  # the benchmark's own ids, not game data
    version = 0
    for i, batch in enumerate(rows):
        if i == WARMUP:
            start.wait()
            t = time.perf_counter()
        events = []
        for row in batch:
            version += 1
            events.append(StoredEvent(originator, version, "cardkit.entry", (row.action + row.events).encode()))
        rec.insert_events(events)
    out.put(time.perf_counter() - t)
    ds.close()


def _bare_writer(dsn: str, rows: list[list[Any]], start: Any, out: Any) -> None:
    import psycopg

    with psycopg.connect(dsn) as conn:
        table = f"bare_{uuid.uuid4().hex}"  # the benchmark's own table name, not game data
        conn.execute(f"CREATE TABLE {table} (seq INTEGER PRIMARY KEY, action TEXT, events TEXT)")
        conn.commit()
        for i, batch in enumerate(rows):
            if i == WARMUP:
                start.wait()
                t = time.perf_counter()
            with conn.transaction():
                conn.cursor().executemany(
                    f"INSERT INTO {table} VALUES (%s, %s, %s)", [(r.seq, r.action, r.events) for r in batch]
                )
        out.put(time.perf_counter() - t)
        conn.execute(f"DROP TABLE {table}")
        conn.commit()


def commit_latency(dsn: str, commits: int = 200) -> None:
    """Print what one durable commit of a one-row insert costs on this server (min, median)."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        table = f"latency_{uuid.uuid4().hex}"  # the benchmark's own table name, not game data
        conn.execute(f"CREATE TABLE {table} (n INTEGER PRIMARY KEY)")
        setting = conn.execute("SHOW synchronous_commit").fetchone()
        fsync = conn.execute("SHOW fsync").fetchone()
        times = []
        for n in range(commits):
            t = time.perf_counter()
            conn.execute(f"INSERT INTO {table} VALUES (%s)", (n,))
            times.append(time.perf_counter() - t)
        conn.execute(f"DROP TABLE {table}")
    best, median = stats(times)
    print(f"postgres commit latency (one-row insert, autocommit; synchronous_commit={setting[0] if setting else '?'}, "
          f"fsync={fsync[0] if fsync else '?'}): {best*1e3:.3f} ms (best) {median*1e3:.3f} ms (median)")


def bench_postgres(dsn: str, rounds: int, moves: int) -> None:
    commit_latency(dsn)
    ctx = multiprocessing.get_context("fork")
    base = cardkit.new_game("crazy-eights", players=4, seed=8, mode="points", target=10**9, max_turns=10**9)
    ds, rec = _es_recorder(dsn)
    rec.create_table()  # once, here: concurrent creates collide in PostgreSQL's catalog
    ds.close()
    results: dict[tuple[str, int], list[float]] = {}
    for r in range(rounds):
        for writers in (1, 4):
            plans = [continuation(base, WARMUP + moves, 1000 * r + w) for w in range(writers)]
            for kind in ("store", "eventsourcing", "bare"):  # interleaved
                start, out = ctx.Event(), ctx.Queue()
                procs = []
                if kind == "store":
                    with cardkit.store.open(dsn) as store:
                        ids = [store.create(base) for _ in range(writers)]
                    for w in range(writers):
                        procs.append(ctx.Process(target=_pg_store_writer, args=(dsn, ids[w], plans[w], start, out)))
                else:
                    for w in range(writers):
                        g, batches = base, []
                        for m in plans[w]:
                            n = len(g.log.entries)
                            g = g.play(m)
                            batches.append([entry_to_row(e) for e in g.log.entries[n:]])
                        target = _es_writer if kind == "eventsourcing" else _bare_writer
                        procs.append(ctx.Process(target=target, args=(dsn, batches, start, out)))
                for p in procs:
                    p.start()
                time.sleep(1.0)  # let every writer connect
                start.set()
                elapsed = max(out.get(timeout=600) for _ in procs)
                for p in procs:
                    p.join()
                results.setdefault((kind, writers), []).append(writers * moves / elapsed)
    for writers in (1, 4):
        s = results[("store", writers)]
        e = results[("eventsourcing", writers)]
        print(f"postgres {writers} writer(s): store.play {max(s):7.0f} moves/s (best) {statistics.median(s):7.0f} (median); "
              f"eventsourcing {max(e):7.0f} (best) {statistics.median(e):7.0f} (median)")
        print(f"  ratio store/eventsourcing: {max(s)/max(e):.2f}x (best), {statistics.median(s)/statistics.median(e):.2f}x (median)   target >= 3x")
        b = results[("bare", writers)]
        print(f"  floor: one bare psycopg transaction per move inserting the same rows {max(b):7.0f} moves/s (best) "
              f"{statistics.median(b):7.0f} (median); store/bare {max(s)/max(b):.2f}x (best)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--postgres", default="", help="DSN of a scratch database")
    parser.add_argument("--skip-sqlite", action="store_true", help="only the PostgreSQL and load parts")
    parser.add_argument("--skip-load", action="store_true", help="skip the 100,000-entry load (slow to build)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if not args.skip_sqlite:
            for sync in ("full", "normal"):
                bench_sqlite_vs_raw(Path(tmp), args.rounds, args.moves, sync)
            for cache_size in (0, 256):
                bench_long_vs_short(Path(tmp), args.rounds, args.moves, cache_size)
        if args.postgres:
            bench_postgres(args.postgres, args.rounds, args.moves)
        if not args.skip_load:
            bench_load(Path(tmp), args.rounds)


if __name__ == "__main__":
    main()
