"""Web host load: many concurrent WebSocket clients on loopback playing bot-filled matches.

    PYTHONPATH=src python benchmarks/web_load.py [--clients 50] [--seconds 20] [--postgres DSN [--by-match]] [--bare-floor]

Each match is Crazy Eights for 3: two human seats played by WebSocket clients (random legal
moves, sent as soon as the client's update says it may) and a rule bot the server runs.
``--clients`` clients play ``clients / 2`` matches at once; a finished match is replaced by a
new one until ``--seconds`` have passed (then the clients finish the move in flight and stop).

Runs: first the floor (``web_floor.py``: a trivial Starlette WebSocket server speaking the
same protocol, no rules and no store) under the same clients; then one ``cardkit serve`` process on a SQLite file (synchronous=normal); and with
``--postgres``, one process on PostgreSQL and then two processes on the same PostgreSQL
store, the two clients of each match connected to different processes (each hears of the
other's moves through LISTEN/NOTIFY only).
With ``--by-match``, two processes once more with both clients of each match on the same
process (as a load balancer routing by match id would place them: no process follows
another's moves). ``--bare-floor`` also runs the floor with the smaller updates of the
protocol before the card table (no ``table``, no ``sentences``).

Checked, per run: no error message and no unexpected close; every client received every
entry of its match exactly once, in order (no lost or duplicated entry); each acknowledged
move is in the match exactly once, at the seq after the one it expected, by that seat.
Reported: human moves/s, all entries/s, p50/p99 latency from sending a move to receiving
the update that contains it, and the CPU time per human move of the server processes (read
from /proc: on a shared machine the least noisy of these figures) and of the clients (this
process: all of them share one event loop, so with a light server they are the bottleneck).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

import httpx
import websockets

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


_PIDS: dict[str, int] = {}  # base URL -> its server's process id (for its CPU time)


def _cpu_seconds(bases: list[str]) -> float:
    """CPU time (user + system) the servers at ``bases`` have used so far; NaN where
    /proc is not there to tell."""
    total = 0.0
    for base in bases:
        try:
            fields = Path(f"/proc/{_PIDS[base]}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, KeyError, ValueError, IndexError):
            return float("nan")
    return total


@contextlib.contextmanager
def server(store_url: str, src: str = SRC) -> Iterator[str]:
    """A ``cardkit serve`` process (of the cardkit in ``src``) on a free loopback port, stopped
    at the end; ``store_url`` ``"floor"``: the Starlette floor (``web_floor.py``) instead
    (``"floor-bare"``: the floor without the table and sentences)."""
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    if store_url.startswith("floor"):
        command = [sys.executable, str(Path(__file__).with_name("web_floor.py")), "--port", str(port),
                   *(["--bare"] if store_url == "floor-bare" else [])]
    else:
        command = [sys.executable, "-m", "cardkit.cli.main", "serve", "--store", store_url, "--host", "127.0.0.1",
                   "--port", str(port), "--log-level", "warning",
                   # Every simulated client comes from 127.0.0.1: the per-address socket cap is for real clients.
                   "--max-connections-per-client", "0"]
    proc = subprocess.Popen(command, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise SystemExit("the server exited at start")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        _PIDS[base] = proc.pid
        yield base
    finally:
        _PIDS.pop(base, None)
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Tally:
    """What all clients of a run saw."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.entries = 0
        self.errors: list[str] = []
        self.matches_finished = 0
        self.cpu = float("nan")  # the servers' CPU seconds during the run
        self.client_cpu = float("nan")  # this process's (all the clients')
        self.db_cpu = float("nan")  # the PostgreSQL backends' serving the benchmark's database


async def client(base: str, match_id: str, seat: int, token: str, deadline: float, rng: random.Random,
                 tally: Tally) -> None:
    """One seat: join, move whenever allowed, check what arrives, until the end or the deadline."""
    url = base.replace("http", "ws") + f"/api/matches/{match_id}/ws"
    seen: list[int] = []
    sent: dict[int, tuple[str, float]] = {}  # expected_seq -> (action, time sent)
    texts: dict[int, tuple[Any, str | None]] = {}
    async with websockets.connect(url, open_timeout=20, close_timeout=5) as ws:
        await ws.send(json.dumps({"type": "join", "seat": seat, "token": token}))
        waiting_for: int | None = None
        last: dict[str, Any] = {}
        while True:
            # Past the deadline the other seat may have stopped: 3 s of silence then ends this one.
            wait = min(60.0, max(0.0, deadline - time.monotonic()) + 3.0)
            try:
                raw = await asyncio.wait_for(ws.recv(), wait)
            except asyncio.TimeoutError:
                if time.monotonic() > deadline:
                    break
                tally.errors.append(f"{match_id} seat {seat}: no update for 60 s (last seq {last.get('seq')}, "
                                    f"to act {last.get('to_act')}, legal {len(last.get('legal', []))}, waiting for {waiting_for})")
                return
            now = time.perf_counter()
            message = json.loads(raw)
            last = message
            if message["type"] != "update":
                tally.errors.append(f"{match_id} seat {seat}: {message}")
                return
            for entry in message["entries"]:
                seen.append(entry["seq"])
                texts[entry["seq"]] = (entry["actor"], entry["text"])
            if waiting_for is not None and message["seq"] > waiting_for:
                action, at = sent[waiting_for]
                tally.latencies.append(now - at)
                waiting_for = None
            if message["is_over"]:
                if seat == 0:
                    tally.matches_finished += 1
                break
            if message["legal"] and waiting_for is None:
                if time.monotonic() > deadline:
                    break
                action = rng.choice(message["legal"])
                waiting_for = message["seq"]
                sent[waiting_for] = (action, time.perf_counter())
                await ws.send(json.dumps({"type": "move", "expected_seq": waiting_for, "action": action}))
    if seen != list(range(len(seen))):
        tally.errors.append(f"{match_id} seat {seat}: entries lost or duplicated: {seen[:5]}...{seen[-5:]}")
    for expected, (action, _) in sent.items():
        if expected + 1 not in texts:
            if expected != max(sent):  # only the last move may still be in flight at the deadline
                tally.errors.append(f"{match_id} seat {seat}: move at {expected} never came back")
            continue
        if texts[expected + 1] != (seat, action):
            tally.errors.append(f"{match_id} seat {seat}: entry {expected + 1} is {texts[expected + 1]}, sent {action}")
        else:
            tally.moves += 1
    tally.entries += len(seen) if seat == 0 else 0


async def table(bases: list[str], index: int, deadline: float, tally: Tally, by_match: bool = False) -> None:
    """One table: matches one after another until the deadline, seat 0 and 1 on bases 0 and -1
    (``by_match``: both seats on base ``index % len(bases)``, as a load balancer routing by
    match id would place them)."""
    if by_match:
        bases = [bases[index % len(bases)]]
    rng = random.Random(index)
    async with httpx.AsyncClient(timeout=30) as http:
        while time.monotonic() < deadline:
            response = await http.post(bases[0] + "/api/matches", json={
                "game": "crazy-eights", "players": 3, "bots": {"2": "rule"}})  # the host deals from secrets
            if response.status_code != 201:
                tally.errors.append(f"create: {response.status_code} {response.text}")
                return
            created = response.json()
            await asyncio.gather(*(
                client(bases[0] if seat == 0 else bases[-1], created["match_id"], seat, created["tokens"][str(seat)],
                       deadline, random.Random(rng.getrandbits(32)), tally)
                for seat in (0, 1)
            ))


def _db_cpu(dsn: str | None) -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend connected to ``dsn``'s database (the
    server must run on this machine: read from /proc); empty without ``dsn``."""
    if not dsn:
        return {}
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        pids = [int(r[0]) for r in conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")]
    out = {}
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            out[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


async def run(bases: list[str], clients: int, seconds: float, dsn: str | None = None, by_match: bool = False) -> Tally:
    """``clients`` clients (``clients / 2`` tables) for ``seconds``; with ``dsn``, the
    database's backends' CPU time too."""
    tally = Tally()
    deadline = time.monotonic() + seconds
    db = _db_cpu(dsn)
    cpu, own = _cpu_seconds(bases), time.process_time()
    await asyncio.gather(*(table(bases, i, deadline, tally, by_match) for i in range(clients // 2)))
    tally.cpu, tally.client_cpu = _cpu_seconds(bases) - cpu, time.process_time() - own
    if dsn:
        after = _db_cpu(dsn)
        tally.db_cpu = sum(after[pid] - db.get(pid, 0.0) for pid in after)
    return tally


def _p99(tally: Tally) -> float:
    lat = sorted(tally.latencies)
    return lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else float("nan")


def report(name: str, tally: Tally, seconds: float) -> None:
    """Print one run's figures."""
    lat = sorted(tally.latencies)
    p50 = statistics.median(lat) * 1000 if lat else float("nan")
    p99 = _p99(tally)
    print(f"{name}: {tally.moves / seconds:7.1f} human moves/s, {tally.entries / seconds:7.1f} entries/s, "
          f"latency p50 {p50:6.1f} ms p99 {p99:6.1f} ms, CPU per move: server {tally.cpu * 1000 / max(tally.moves, 1):4.2f} "
          f"ms, clients {tally.client_cpu * 1000 / max(tally.moves, 1):4.2f} ms"
          + ("" if tally.db_cpu != tally.db_cpu else f", database {tally.db_cpu * 1000 / max(tally.moves, 1):4.2f} ms")
          + f"; {tally.matches_finished} matches finished, {len(tally.errors)} errors")
    for error in tally.errors[:10]:
        print("   error:", error)


def _wipe(dsn: str) -> None:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        for t in ("cardkit_entries", "cardkit_snapshots", "cardkit_matches", "cardkit_schema", "cardkit_web_seats",
                  "cardkit_web_access", "cardkit_web_rematches"):
            conn.execute(f"DROP TABLE IF EXISTS {t}")


def main() -> int:
    """Run the benchmark; exit status 1 if any run saw an error."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--postgres", help="DSN of a database the benchmark may empty")
    parser.add_argument("--no-sqlite", action="store_true", help="skip the floor and SQLite runs")
    parser.add_argument("--by-match", action="store_true",
                        help="with --postgres, also two processes with both seats of each match on one of them")
    parser.add_argument("--bare-floor", action="store_true",
                        help="also run the floor without the table and sentences (the protocol's older, smaller updates)")
    parser.add_argument("--src", default=SRC, help="the cardkit sources to serve (another checkout's src/, "
                        "to compare two versions in one sitting); default: this checkout's")
    args = parser.parse_args()
    if args.clients < 2 or not 0 < args.seconds <= 600:
        parser.error("--clients >= 2 and 0 < --seconds <= 600")
    src = str(Path(args.src).resolve())
    print(f"{args.clients} WebSocket clients ({args.clients // 2} matches at a time, Crazy Eights for 3 with a rule bot), "
          f"{args.seconds:g} s per run, loopback" + ("" if src == SRC else f", serving {src}"))
    failed = False
    if not args.no_sqlite:
        if args.bare_floor:
            with server("floor-bare") as base:
                bare = asyncio.run(run([base], args.clients, args.seconds))
                report("floor, bare updates   ", bare, args.seconds)
                failed |= bool(bare.errors)
        with server("floor") as base:
            floor = asyncio.run(run([base], args.clients, args.seconds))
            report("starlette floor       ", floor, args.seconds)
            failed |= bool(floor.errors)
        with tempfile.TemporaryDirectory() as tmp:
            with server(f"sqlite:///{tmp}/load.db?synchronous=normal", src) as base:
                tally = asyncio.run(run([base], args.clients, args.seconds))
                report("sqlite, 1 process     ", tally, args.seconds)
                failed |= bool(tally.errors)
        rate = tally.moves / floor.moves if floor.moves else float("nan")
        tail = _p99(tally) / _p99(floor)
        print(f"sqlite / floor: {rate:.2f}x the moves/s (target >= 0.6x: {'met' if rate >= 0.6 else 'not met'}), "
              f"{tail:.1f}x the p99 (target <= 5x: {'met' if tail <= 5 else 'not met'})")
        if args.bare_floor and bare.moves:
            print(f"sqlite / bare floor: {tally.moves / bare.moves:.2f}x the moves/s, {_p99(tally) / _p99(bare):.1f}x the p99")
    if args.postgres:
        _wipe(args.postgres)
        with server(args.postgres, src) as base:
            one = asyncio.run(run([base], args.clients, args.seconds, args.postgres))
            report("postgres, 1 process   ", one, args.seconds)
            failed |= bool(one.errors)
        with server(args.postgres, src) as first, server(args.postgres, src) as second:
            two = asyncio.run(run([first, second], args.clients, args.seconds, args.postgres))
            report("postgres, 2 processes ", two, args.seconds)
            failed |= bool(two.errors)
        scale = two.moves / one.moves if one.moves else float("nan")
        print(f"postgres 2 / 1 process: {scale:.2f}x the moves/s (target >= 1.8x: {'met' if scale >= 1.8 else 'not met'})")
        if args.by_match:
            with server(args.postgres, src) as first, server(args.postgres, src) as second:
                routed = asyncio.run(run([first, second], args.clients, args.seconds, args.postgres, by_match=True))
                report("postgres, 2, by match ", routed, args.seconds)
                failed |= bool(routed.errors)
            print(f"postgres 2 by match / 1 process: {routed.moves / one.moves if one.moves else float('nan'):.2f}x the moves/s")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
