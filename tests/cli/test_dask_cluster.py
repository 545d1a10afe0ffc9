"""Games on a real Dask cluster (issue 28, item 2): a ``dask scheduler`` and two ``dask
worker`` processes, separate processes as on a real cluster.

Under CI the cluster is CI's own: ``.ci/dask.sh`` (sourced by ``.ci/run``) starts it before
the suite and exports its address as ``CARDKIT_TEST_DASK``; without it these tests fail
under CI. Elsewhere, without ``CARDKIT_TEST_DASK``, each test starts a cluster of its own.
The worker-kill test always starts its own (it kills one of the workers, which a cluster
shared by the whole suite must keep).

Checks: the same results as ``--workers 1`` (simulate and arena, byte for byte); a worker
killed mid-run changes nothing (Dask re-runs its chunks on the other); progress advances
as chunks finish. Without Dask installed these tests skip, except under ``CI``, where the
``dask`` extra is installed (.ci/run) and a missing Dask is a failure.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

IN_CI = bool(os.environ.get("CI"))
if IN_CI:
    import distributed  # under CI the extra is installed: its absence fails here
else:
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed (pip install 'cardkit[dask]')")

from cardkit.cli.main import main  # noqa: E402
from cardkit.cli.simulate import play_games  # noqa: E402
from cardkit.cluster import open_cluster  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # the workers import this checkout's cardkit, as the test process does
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "src"), env.get("PYTHONPATH", "")) if p)
    return env


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    # SIGKILL: a test cluster keeps nothing, and a worker's graceful close can take seconds
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
    for proc in procs:
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


class DaskCluster:
    """A scheduler's address and its two worker processes, by name."""

    def __init__(self, address: str, workers: dict[str, subprocess.Popen[bytes]]) -> None:
        self.address = address
        self.workers = workers

    @property
    def spec(self) -> str:
        return "dask://" + self.address.removeprefix("tcp://")


@pytest.fixture
def dask_cluster(tmp_path: Path) -> Iterator[DaskCluster]:
    """The suite's Dask cluster: CI's (``CARDKIT_TEST_DASK``, two workers started by
    ``.ci/dask.sh``), else one of this test's own (:func:`own_dask_cluster`)."""
    address = os.environ.get("CARDKIT_TEST_DASK")
    if address:
        with distributed.Client(address, timeout=START_TIMEOUT) as client:
            client.wait_for_workers(2, timeout=START_TIMEOUT)
        yield DaskCluster(address, {})
        return
    assert not IN_CI, "under CI, .ci/run starts the Dask cluster (.ci/dask.sh) and exports CARDKIT_TEST_DASK"
    yield from _start_cluster(tmp_path)


@pytest.fixture
def own_dask_cluster(tmp_path: Path) -> Iterator[DaskCluster]:
    """A cluster of this test's own, whatever the suite's, for a test that kills a worker."""
    yield from _start_cluster(tmp_path)


def _start_cluster(tmp_path: Path) -> Iterator[DaskCluster]:
    """``dask scheduler`` (ephemeral port, no dashboard) and two ``dask worker`` processes
    (one thread each, no nanny: killing one kills the worker), stopped at the end."""
    scheduler_file = tmp_path / "scheduler.json"
    quiet = subprocess.DEVNULL
    procs: list[subprocess.Popen[bytes]] = []
    try:
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--dashboard-address", "127.0.0.1:0", "--scheduler-file", str(scheduler_file)],
            env=_env(), stdout=quiet, stderr=quiet,
        ))  # fmt: skip
        deadline = time.monotonic() + START_TIMEOUT
        while not scheduler_file.exists() or not scheduler_file.read_text():
            assert procs[0].poll() is None, "dask scheduler exited"
            assert time.monotonic() < deadline, "dask scheduler did not start"
            time.sleep(0.05)
        time.sleep(0.05)  # the file is written whole, but let it land
        address = json.loads(scheduler_file.read_text())["address"]
        workers = {}
        for name in ("worker-a", "worker-b"):
            workers[name] = subprocess.Popen(
                [sys.executable, "-m", "dask", "worker", address, "--name", name, "--nthreads", "1",
                 "--no-nanny", "--no-dashboard", "--death-timeout", "30"],
                env=_env(), stdout=quiet, stderr=quiet,
            )  # fmt: skip
            procs.append(workers[name])
        with distributed.Client(address, timeout=START_TIMEOUT) as client:
            client.wait_for_workers(2, timeout=START_TIMEOUT)
        yield DaskCluster(address, workers)
    finally:
        _stop(procs[::-1])


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_dask_cluster_gives_the_results_of_one_worker_and_progress_by_chunk(
    dask_cluster: DaskCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = ["simulate", "wizard", "--players", "3", "--games", "24", "--seed", "5", "-o", "rounds=2",
           "--bots", "rule,random,rule", "--json"]  # fmt: skip
    code, want, _ = _cli([*sim, "--workers", "1"], capsys)
    assert code == 0 and json.loads(want)["played"] == 24
    code, out, err = _cli([*sim, "--cluster", dask_cluster.spec, "--chunk-size", "3"], capsys)
    assert (code, out) == (0, want), err
    # progress on a pipe: a line at each tenth of the run, reached a whole chunk at a time
    done = [int(line.split()[1].split("/")[0]) for line in err.splitlines() if line.startswith("simulate:")]
    assert done == sorted(done) and done[-1] == 24 and len(done) >= 4 and all(d % 3 == 0 for d in done)

    arena = ["arena", "crazy-eights", "--players", "3", "--bots", "rule,random,random", "--games", "12",
             "--seed", "2", "--json"]  # fmt: skip
    code, want, _ = _cli(arena, capsys)
    assert code == 0
    assert _cli([*arena, "--cluster", dask_cluster.spec, "--chunk-size", "2"], capsys)[:2] == (0, want)
    code, want, _ = _cli([*arena, "--sprt", "--games", "60"], capsys)
    assert _cli([*arena, "--sprt", "--games", "60", "--cluster", dask_cluster.spec], capsys)[:2] == (0, want)

    # the library call: progress(n) once per chunk, as each finishes, while the run goes on
    seen: list[tuple[int, float]] = []
    with open_cluster(dask_cluster.spec) as cluster:
        assert cluster.workers == 2
        start = time.monotonic()
        got = list(play_games("wizard", 3, 24, seed=5, bots=["rule", "random", "rule"], options={"rounds": 2},
                              executor=cluster.executor, workers=cluster.workers, chunk_size=4,
                              progress=lambda n: seen.append((n, time.monotonic() - start))))  # fmt: skip
    assert [n for n, _ in seen] == [4] * 6
    assert seen[0][1] < seen[-1][1], "the first chunk was counted before the last one finished"
    reference = list(play_games("wizard", 3, 24, seed=5, bots=["rule", "random", "rule"], options={"rounds": 2}))
    assert got == reference


def test_a_worker_killed_mid_run_changes_nothing(own_dask_cluster: DaskCluster) -> None:
    dask_cluster = own_dask_cluster
    kwargs: dict[str, Any] = dict(seed=11, bots=["rule", "random", "rule"], options={"rounds": 3}, engine="reducer")
    reference = list(play_games("wizard", 3, 36, **kwargs))
    killed: list[str] = []
    busy: list[int] = []
    watcher = distributed.Client(dask_cluster.address, timeout=START_TIMEOUT)

    def kill_a_busy_worker(n: int) -> None:
        if killed:
            return
        # the first chunk is done: kill a worker that is playing one now
        info = watcher.scheduler_info()["workers"]
        processing = watcher.processing()
        for address, keys in sorted(processing.items()):
            name = info[address]["name"]
            if keys and name in dask_cluster.workers:
                busy.append(len(keys))
                dask_cluster.workers[name].send_signal(signal.SIGKILL)
                dask_cluster.workers[name].wait(10)
                killed.append(name)
                return

    try:
        with open_cluster(dask_cluster.spec) as cluster:
            got = list(play_games("wizard", 3, 36, executor=cluster.executor, workers=cluster.workers,
                                  chunk_size=2, progress=kill_a_busy_worker, **kwargs))  # fmt: skip
        assert killed and busy[0] >= 1, "a worker was killed while it had chunks to play"
        assert dask_cluster.workers[killed[0]].returncode == -signal.SIGKILL
        assert got == reference, "Dask re-ran the lost chunks: the same outcomes"
        deadline = time.monotonic() + 30
        while len(watcher.scheduler_info()["workers"]) != 1:
            assert time.monotonic() < deadline, "the scheduler still lists the killed worker"
            time.sleep(0.1)
    finally:
        watcher.close()


def test_a_local_dask_cluster_for_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    sim = ["simulate", "crazy-eights", "--players", "3", "--games", "30", "--seed", "8", "--bots", "rule", "--json"]
    code, want, _ = _cli(sim, capsys)
    assert code == 0
    assert _cli([*sim, "--cluster", "local:2"], capsys)[:2] == (0, want)
