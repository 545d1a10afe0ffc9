"""Scale-out (issue 28, item 1): any executor, work in chunks, results byte-identical
whatever the executor, chunk size or number of workers; progress as chunks finish."""

from __future__ import annotations

import concurrent.futures as cf
import json
import multiprocessing
import threading
from typing import Any

import pytest

from cardkit.bots.arena import run_arena, run_sprt
from cardkit.cli.main import main
from cardkit.cli.simulate import play_games
from cardkit.errors import ConfigError
from cardkit.parallel import CHUNKS_PER_WORKER, MAX_CHUNK, auto_chunk_size, chunks_of, map_ordered


def _square(x: int) -> int:
    return x * x


def _fail_on_five(x: int) -> int:
    if x == 5:
        raise KeyError("five")
    return x


def test_auto_chunk_size_aims_at_chunks_per_worker_within_bounds() -> None:
    assert auto_chunk_size(2000, 2) == -(-2000 // (2 * CHUNKS_PER_WORKER))
    assert auto_chunk_size(10, 4) == 1
    assert auto_chunk_size(10**7, 2) == MAX_CHUNK
    assert auto_chunk_size(0, 3) == 1
    for jobs in (1, 7, 31, 200, 2000):
        for workers in (1, 2, 5):
            size = auto_chunk_size(jobs, workers)
            assert 1 <= size <= MAX_CHUNK
            assert len(chunks_of(list(range(jobs)), size)) <= max(workers * CHUNKS_PER_WORKER, -(-jobs // MAX_CHUNK))
    assert [list(c) for c in chunks_of([1, 2, 3, 4, 5], 2)] == [[1, 2], [3, 4], [5]]
    with pytest.raises(ValueError):
        chunks_of([1], 0)


@pytest.mark.parametrize("chunk_size", [None, 1, 3, 50])
def test_map_ordered_keeps_job_order_on_any_executor(chunk_size: int | None) -> None:
    jobs = list(range(23))
    want = [x * x for x in jobs]
    assert list(map_ordered(_square, jobs, 1, chunk_size=chunk_size)) == want
    with cf.ThreadPoolExecutor(3) as pool:
        assert list(map_ordered(_square, jobs, 3, executor=pool, chunk_size=chunk_size)) == want
    assert list(map_ordered(_square, jobs, 2, chunk_size=chunk_size)) == want


def test_map_ordered_on_a_process_pool_executor() -> None:
    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(2, mp_context=ctx) as pool:
        for size in (None, 4):
            assert list(map_ordered(_square, list(range(23)), 2, executor=pool, chunk_size=size)) == [
                x * x for x in range(23)
            ]


def test_progress_counts_each_chunk_as_it_finishes() -> None:
    seen: list[int] = []
    with cf.ThreadPoolExecutor(2) as pool:
        out = list(map_ordered(_square, list(range(10)), 2, executor=pool, chunk_size=3, progress=seen.append))
    assert out == [x * x for x in range(10)]
    assert sorted(seen) == [1, 3, 3, 3] and sum(seen) == 10
    seen.clear()
    assert list(map_ordered(_square, list(range(4)), 1, progress=seen.append)) == [0, 1, 4, 9]
    assert seen == [1, 1, 1, 1], "one local worker: progress game by game"


def test_progress_moves_before_the_last_chunk_finishes() -> None:
    # a chunk held back by a gate: progress must already have counted the others
    gate = threading.Event()
    seen: list[int] = []

    def slow_first(x: int) -> int:
        if x == 0:
            assert gate.wait(10)
        return x

    def count(n: int) -> None:
        seen.append(n)
        if sum(seen) == 8:  # every chunk but the first: let it finish
            gate.set()

    with cf.ThreadPoolExecutor(2) as pool:
        out = list(map_ordered(slow_first, list(range(10)), 5, executor=pool, chunk_size=2, progress=count))
    assert out == list(range(10)) and sum(seen) == 10 and len(seen) == 5


def _slow_pid(x: int) -> tuple[int, int]:
    import os
    import time

    time.sleep(0.03)
    return x, os.getpid()


def test_spawned_helpers_play_once_up_and_order_holds() -> None:
    # 90 jobs of 30 ms: this process starts at once, the spawned one joins when it is up
    # (started after two chunks: 28 chunks of 90 ms left are worth more than a second)
    import os

    out = list(map_ordered(_slow_pid, list(range(90)), 2, chunk_size=3))
    assert [x for x, _ in out] == list(range(90))
    pids = {pid for _, pid in out}
    assert os.getpid() in pids and len(pids) == 2, "both processes played"
    # and a run too short for a process to start finishes here without waiting for it
    short = list(map_ordered(_slow_pid, list(range(2)), 2, chunk_size=1))
    assert [x for x, _ in short] == [0, 1]


def test_a_chunk_error_is_the_runs_error_and_closing_early_stops() -> None:
    with cf.ThreadPoolExecutor(2) as pool:
        with pytest.raises(KeyError):
            list(map_ordered(_fail_on_five, list(range(10)), 2, executor=pool, chunk_size=2))
    with pytest.raises(KeyError):
        list(map_ordered(_fail_on_five, list(range(10)), 2, chunk_size=2))
    results = map_ordered(_square, list(range(1000)), 2, chunk_size=5)
    assert [next(results) for _ in range(3)] == [0, 1, 4]
    results.close()  # ends the spawned process; nothing hangs


@pytest.mark.parametrize("engine", ["reducer", "auto"])
def test_play_games_is_identical_for_any_executor_chunk_size_and_workers(engine: str) -> None:
    kwargs: dict[str, Any] = dict(seed=4, bots=["rule", "random", "rule"], options={"rounds": 2}, engine=engine)
    one = list(play_games("wizard", 3, 14, **kwargs))
    assert [o.number for o in one] == list(range(14)) and len({o.seed for o in one}) == 14
    assert list(play_games("wizard", 3, 14, workers=2, chunk_size=3, **kwargs)) == one
    assert list(play_games("wizard", 3, 14, workers=2, **kwargs)) == one
    with cf.ThreadPoolExecutor(2) as pool:
        for size in (1, 4, 14):
            assert list(play_games("wizard", 3, 14, executor=pool, workers=2, chunk_size=size, **kwargs)) == one


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_simulate_json_is_byte_identical_for_any_chunk_size_and_workers(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["simulate", "crazy-eights", "--players", "3", "--games", "40", "--seed", "3", "--bots", "rule", "--json"]
    code, want, _ = _cli([*base, "--workers", "1"], capsys)
    assert code == 0 and json.loads(want)["played"] == 40
    for extra in (["--workers", "2"], ["--workers", "2", "--chunk-size", "1"], ["--chunk-size", "7"],
                  ["--workers", "2", "--chunk-size", "40"]):  # fmt: skip
        assert _cli([*base, *extra], capsys)[:2] == (0, want), extra


def test_chunk_size_and_cluster_are_checked_before_any_game(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "wizard", "--players", "3", "--chunk-size", "0"])
    assert "chunk-size" in capsys.readouterr().err
    for spec in ("dask://host", "local:0", "ray://x:1", "local:two"):
        code, out, err = _cli(["simulate", "wizard", "--players", "3", "--cluster", spec], capsys)
        assert code == 1 and "--cluster" in err and out == "", spec
    code, out, err = _cli(["arena", "wizard", "--players", "3", "--bots", "rule,rule,random",
                           "--cluster", "local:2", "--workers", "2"], capsys)  # fmt: skip
    assert code == 1 and "exclude each other" in err


def test_progress_lines_follow_chunks_on_a_pipe(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _cli(["simulate", "crazy-eights", "--players", "2", "--games", "40", "--seed", "1",
                         "--workers", "2", "--chunk-size", "8"], capsys)  # fmt: skip
    done = [int(line.split()[1].split("/")[0]) for line in err.splitlines()]
    assert code == 0 and done == sorted(done) and done[-1] == 40
    assert all(d % 8 == 0 for d in done) and len(done) >= 4, "lines as whole chunks finish"


def test_arena_and_sprt_are_identical_for_any_executor_and_chunk_size() -> None:
    specs = ["rule", "random", "random"]
    opts: dict[str, Any] = dict(seed=5, design="permutations")
    one = run_arena("crazy-eights", 3, specs, 24, **opts)
    with cf.ThreadPoolExecutor(2) as pool:
        for size in (1, 5, 24):
            other = run_arena("crazy-eights", 3, specs, 24, executor=pool, workers=2, chunk_size=size, **opts)
            assert other.outcomes == one.outcomes and other.as_json() == one.as_json()
    assert run_arena("crazy-eights", 3, specs, 24, workers=2, chunk_size=4, **opts).as_json() == one.as_json()
    sprt = run_sprt("crazy-eights", 3, ("rule", "random", "random"), 120, seed=2)
    with cf.ThreadPoolExecutor(2) as pool:
        for size in (1, 7, 120):
            again = run_sprt("crazy-eights", 3, ("rule", "random", "random"), 120, seed=2, executor=pool,
                             workers=2, chunk_size=size)  # fmt: skip
            assert again.as_json() == sprt.as_json()


def test_arena_cli_json_is_identical_with_chunk_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["arena", "crazy-eights", "--players", "3", "--bots", "rule,random,random", "--games", "12",
            "--seed", "1", "--json"]  # fmt: skip
    code, want, _ = _cli(base, capsys)
    assert code == 0
    assert _cli([*base, "--workers", "2", "--chunk-size", "5"], capsys)[:2] == (0, want)


def test_workers_check_in_the_library() -> None:
    with pytest.raises(ConfigError):
        run_arena("wizard", 3, ["rule"] * 3, 3, workers=0)
