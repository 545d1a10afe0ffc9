"""``--cluster SPEC``: an executor on a Dask cluster for :func:`cardkit.parallel.map_ordered`.

Two kinds of spec (docs/scale.md):

* ``dask://HOST:PORT`` — connect to a running Dask scheduler (``dask scheduler``, with
  workers started by ``dask worker HOST:PORT --nthreads 1``, on any machines that have
  cardkit installed); the cluster outlives the run;
* ``local:N`` — start a Dask cluster of ``N`` worker processes (one thread each) on this
  machine for the run, and stop it afterwards.

Both need the optional extra ``cardkit[dask]`` (``dask`` and ``distributed``); without it
a spec is a :class:`~cardkit.errors.ConfigError` that says so. Dask re-runs the chunks of
a worker that dies, and chunks are pure functions of their jobs, so a lost worker changes
nothing in the results.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import re
from typing import Any, Iterator

import attrs

from cardkit.errors import ConfigError

__all__ = ["Cluster", "open_cluster", "parse_cluster", "cluster_executor"]

_DASK = re.compile(r"dask://(?P<host>[^:/\s]+|\[[0-9a-fA-F:]+\]):(?P<port>[0-9]{1,5})/?")
_LOCAL = re.compile(r"local:(?P<n>[0-9]{1,4})")


@attrs.frozen
class Cluster:
    """An open cluster: ``executor`` to hand to ``map_ordered``, ``workers`` the chunks it
    runs at once (its worker threads), ``description`` one line for a report."""

    executor: cf.Executor
    workers: int
    description: str


def parse_cluster(spec: str) -> tuple[str, str | int]:
    """``("dask", "tcp://HOST:PORT")`` or ``("local", N)`` for a spec; ConfigError otherwise."""
    text = spec.strip()
    match = _DASK.fullmatch(text)
    if match:
        port = int(match["port"])
        if not 0 < port < 65536:
            raise ConfigError(f"--cluster {spec!r}: the port must be 1 to 65535")
        return "dask", f"tcp://{match['host']}:{port}"
    match = _LOCAL.fullmatch(text)
    if match:
        n = int(match["n"])
        if n < 1:
            raise ConfigError(f"--cluster {spec!r}: a local cluster needs at least 1 worker")
        return "local", n
    raise ConfigError(f"--cluster {spec!r}: expected dask://HOST:PORT or local:N (N worker processes)")


def _distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise ConfigError(
            "--cluster needs Dask: pip install 'cardkit[dask]' (dask and distributed)"
        ) from exc
    return distributed


@contextlib.contextmanager
def open_cluster(spec: str, connect_timeout: float = 30.0) -> Iterator[Cluster]:
    """Open the cluster ``spec`` names (see the module docs) for the length of a ``with``.

    On leaving, chunks not yet run are cancelled and the client closed (and a ``local:N``
    cluster stopped). A ``dask://`` scheduler that cannot be reached, or that has no
    worker within ``connect_timeout`` seconds, is a :class:`~cardkit.errors.ConfigError`.
    """
    kind, where = parse_cluster(spec)
    distributed = _distributed()
    with contextlib.ExitStack() as stack:
        if kind == "local":
            assert isinstance(where, int)
            # one thread per worker process: games are pure Python, threads would share a GIL
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=where, threads_per_worker=1, processes=True,
                    dashboard_address=":0", silence_logs=40,
                )  # fmt: skip
            )
            client = stack.enter_context(distributed.Client(cluster))
        else:
            try:
                client = stack.enter_context(distributed.Client(where, timeout=connect_timeout))
            except (OSError, TimeoutError) as exc:
                raise ConfigError(f"--cluster {spec}: cannot reach the Dask scheduler at {where} ({exc})") from exc
            try:
                client.wait_for_workers(1, timeout=connect_timeout)
            except TimeoutError as exc:
                raise ConfigError(f"--cluster {spec}: the scheduler has no worker") from exc
        threads = sum(int(w.get("nthreads", 1)) for w in client.scheduler_info()["workers"].values())
        # pure=False: two chunks are never "the same task" to Dask, even with equal jobs
        executor = client.get_executor(pure=False)
        try:
            yield Cluster(executor, max(1, threads), f"dask {client.scheduler.address}, {threads} worker thread(s)")
        finally:
            executor.shutdown(wait=False)


@contextlib.contextmanager
def cluster_executor(spec: str | None) -> Iterator[tuple[cf.Executor | None, int]]:
    """``(executor, workers)`` of the cluster ``spec`` names while in the ``with``, or
    ``(None, 1)`` for ``None`` (local processes: ``--workers`` decides)."""
    if spec is None:
        yield None, 1
        return
    with open_cluster(spec) as opened:
        yield opened.executor, opened.workers
