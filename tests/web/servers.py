"""Real server processes for the browser, multi-process and load tests: ``cardkit serve`` on
a free loopback port, stopped (and waited for) when the ``with`` block ends."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator, Sequence

import httpx

SRC = str(Path(__file__).resolve().parents[2] / "src")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_server(store_url: str, startup: float = 30.0, args: Sequence[str] = ()) -> Iterator[str]:
    """``cardkit serve --store store_url [args]`` on a free port; yields its base URL."""
    with server_process(store_url, startup, args) as (base, _proc):
        yield base


@contextlib.contextmanager
def server_process(store_url: str, startup: float = 30.0,
                   args: Sequence[str] = ()) -> Iterator[tuple[str, "subprocess.Popen[bytes]"]]:
    """As :func:`running_server`, yielding the base URL and the process (a test may kill it)."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardkit.cli.main", "serve", "--store", store_url,
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning", *args],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + startup
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited: {proc.stderr.read().decode()[-2000:] if proc.stderr else ''}")
            try:
                if httpx.get(base + "/api/games", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start in time")
            time.sleep(0.1)
        yield base, proc
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        if proc.stderr is not None:
            proc.stderr.close()
