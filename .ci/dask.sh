#!/usr/bin/env bash
# Source this from .ci/run before the test command: starts a real Dask cluster for the cluster
# tests (tests/cli/test_dask_cluster.py), a `dask scheduler` and two `dask worker` processes
# on loopback, exports CARDKIT_TEST_DASK (the scheduler's address), and stops them when the
# shell exits (chained before any EXIT trap already set, e.g. .ci/postgres.sh's).
# The dask extra's requirements (pyproject.toml), installed before the README's command, which
# installs them again as part of the dev extra (a no-op then).
python -m pip install -q 'dask>=2023.1' 'distributed>=2023.1'
DASK_DIR="$(mktemp -d "${TMPDIR:-/tmp}/cardkit-dask.XXXXXX")"
# The workers unpickle cardkit's functions: they import this checkout's src/ (the editable
# install that follows adds a .pth file, which processes already running would not read).
DASK_PYTHONPATH="$(pwd)/src${PYTHONPATH:+:$PYTHONPATH}"
PYTHONPATH="$DASK_PYTHONPATH" python -m dask scheduler --host 127.0.0.1 --port 0 --no-dashboard \
    --scheduler-file "$DASK_DIR/scheduler.json" >"$DASK_DIR/scheduler.log" 2>&1 &
DASK_PIDS="$!"
for _ in $(seq 600); do [ -s "$DASK_DIR/scheduler.json" ] && break; sleep 0.1; done
DASK_ADDRESS="$(python -c 'import json,sys; print(json.load(open(sys.argv[1]))["address"])' "$DASK_DIR/scheduler.json")"
for name in ci-worker-a ci-worker-b; do
    PYTHONPATH="$DASK_PYTHONPATH" python -m dask worker "$DASK_ADDRESS" --name "$name" --nthreads 1 --no-dashboard \
        >"$DASK_DIR/$name.log" 2>&1 &
    DASK_PIDS="$DASK_PIDS $!"
done
python -c 'import sys, distributed
with distributed.Client(sys.argv[1], timeout=60) as client:
    client.wait_for_workers(2, timeout=60)' "$DASK_ADDRESS"
stop_dask() {
    # shellcheck disable=SC2086
    kill $DASK_PIDS 2>/dev/null || true
    wait $DASK_PIDS 2>/dev/null || true
    rm -rf "$DASK_DIR"
}
_previous_exit_trap="$(trap -p EXIT | sed -e "s/^trap -- '//" -e "s/' EXIT\$//")"
trap "stop_dask; ${_previous_exit_trap}" EXIT
export CARDKIT_TEST_DASK="$DASK_ADDRESS"
echo "dask: scheduler $DASK_ADDRESS, 2 workers (pids $DASK_PIDS)"
