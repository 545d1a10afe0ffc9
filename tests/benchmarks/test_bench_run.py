"""The benchmark harness cannot rot: its smoke run passes, and its measuring is honest.

No timing is asserted here (targets are printed by ``benchmarks/run.py``, never tested);
what is asserted is that every measure runs, that each comparison is named for what it
is, that interleaving and counting work as documented, and that the OpenSpiel sides count
player actions exactly.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import harness  # noqa: E402
import workloads  # noqa: E402


@pytest.fixture(scope="module")
def quick_output() -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick"],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_quick_run_measures_the_cardkit_under_test(quick_output: str) -> None:
    assert f"from {ROOT / 'src' / 'cardkit'}" in quick_output.splitlines()[0]
    assert "CHECK FAILED" not in quick_output


def test_quick_run_prints_every_target_measure(quick_output: str) -> None:
    for text in (
        "pure / naive mutable Python",
        "Game.play / pure reducer",
        "replay entries/s / pure reducer actions/s",
        "loads / json.loads, same",
        "dumps / json.dumps, same log",
        "events_for(seat), the whole game",
        "import cardkit / import attrs",
        "cardkit games / import attrs",
    ):
        assert text in quick_output, text
    for config in workloads.CONFIGS:
        assert f"memory per logged entry, {config.label} " in quick_output
        assert f"{config.label:<20} cardkit pure reducer" in quick_output
    if workloads.openspiel_missing() is None:
        assert "pure reducer / OpenSpiel C++ evaluate_bots (crazy_eights 4p)" in quick_output
        assert "pure / OpenSpiel Python-driven (spades 4p)" in quick_output
    else:
        assert "OpenSpiel not measured" in quick_output
    if workloads.rlcard_missing() is None:
        assert "RLCard UNO 2p (Python)" in quick_output
    else:
        assert "RLCard UNO not measured" in quick_output


def test_target_lines_name_their_target(quick_output: str) -> None:
    targets = [line for line in quick_output.splitlines() if " target " in line]
    assert len(targets) >= 6 + 4 + 2 + 6  # ratios per configuration, serde, start-up, memory
    assert all(line.endswith((": met", ": not met")) for line in targets)


def test_a_python_driven_run_is_never_called_cpp(quick_output: str) -> None:
    for line in quick_output.splitlines():
        if "Python-driven" in line or "naive" in line or "RLCard" in line:
            assert "C++" not in line.replace("OpenSpiel C++ evaluate_bots", ""), line


def test_same_games_are_checked(quick_output: str) -> None:
    checked = [line for line in quick_output.splitlines() if "made the same player actions per game" in line]
    assert len(checked) == len(workloads.CONFIGS)
    assert all("naive Python" in line for line in checked if line.startswith("crazy-eights"))


def _counting(key: str, calls: list[str], units: list[int]) -> harness.Workload:
    """A workload that records its runs and does ``units`` (in turn), then ``games`` units."""

    def prepare(games: int, first: int = 1) -> Callable[[], object]:
        def body() -> object:
            calls.append(key)
            return units.pop(0) if units else games

        return body

    def count(result: object) -> int:
        assert isinstance(result, int)
        return result

    return harness.Workload(key, key, "things", prepare, count)


def test_rounds_are_interleaved_and_counted() -> None:
    calls: list[str] = []
    a, b = _counting("A", calls, []), _counting("B", calls, [])
    results = harness.measure([a, b], rounds=3, batch_seconds=0.0)
    assert calls[-6:] == ["A", "B", "A", "B", "A", "B"]
    for key in ("A", "B"):
        measured = results[key]
        assert len(measured.times) == 3 and measured.units == measured.games
        assert measured.best >= measured.median > 0


def _seeded(key: str, runs: list[tuple[str, int, int]]) -> harness.Workload:
    """A workload that records (key, first seed, games) for every run and does ``games`` units."""

    def prepare(games: int, first: int = 1) -> Callable[[], object]:
        def body() -> object:
            runs.append((key, first, games))
            return games

        return body

    return harness.Workload(key, key, "games", prepare, lambda result: int(result))  # type: ignore[call-overload]


def test_slices_cut_the_batch_into_consecutive_seeds_run_in_turn() -> None:
    runs: list[tuple[str, int, int]] = []

    a, b = _seeded("A", runs), _seeded("B", runs)
    results = harness.measure([a, b], rounds=2, batch_seconds=0.0, warm_up=False, slices=3)
    # batch_seconds=0 sizes every batch to one game: one slice, whatever was asked
    assert results["A"].games == 1 and runs[-2:] == [("A", 1, 1), ("B", 1, 1)]
    assert harness._cuts(10, 3) == [0, 3, 6, 10] and harness._cuts(2, 5) == [0, 1, 2]
    runs.clear()
    bodies = {k: [w.prepare(e - s, s + 1) for s, e in zip(harness._cuts(10, 3), harness._cuts(10, 3)[1:])]
              for k, w in (("A", a), ("B", b))}
    for part in range(3):
        for key in ("A", "B"):
            bodies[key][part]()
    # every seed 1..10 exactly once per workload, in slices taken in turn
    assert runs == [("A", 1, 3), ("B", 1, 3), ("A", 4, 3), ("B", 4, 3), ("A", 7, 4), ("B", 7, 4)]


def test_sliced_rounds_interleave_the_slices_and_sum_their_work(monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[tuple[str, int, int]] = []

    monkeypatch.setattr(harness, "_batch_size", lambda workload, seconds, warm_up: 5)
    results = harness.measure([_seeded("A", runs), _seeded("B", runs)], rounds=2, batch_seconds=1.0, slices=2)
    one_round = [("A", 1, 2), ("B", 1, 2), ("A", 3, 3), ("B", 3, 3)]
    assert runs == one_round * 2
    for key in ("A", "B"):
        assert results[key].units == 5 and len(results[key].times) == 2


def test_prepared_batches_are_frozen_while_the_rounds_run_and_only_then() -> None:
    import gc

    frozen_in_rounds: list[int] = []
    kept = [[object()] for _ in range(100)]  # prepared by the workload, before the rounds

    def prepare(games: int, first: int = 1) -> Callable[[], object]:
        def body() -> object:
            frozen_in_rounds.append(gc.get_freeze_count())
            return len(kept)

        return body

    assert gc.get_freeze_count() == 0
    harness.measure([harness.Workload("F", "F", "things", prepare, lambda r: int(r))],  # type: ignore[call-overload]
                    rounds=2, batch_seconds=0.0, warm_up=False)
    # sizing runs before the freeze; both rounds ran with the prepared objects frozen
    assert frozen_in_rounds[0] == 0 and all(n > 0 for n in frozen_in_rounds[-2:])
    assert gc.get_freeze_count() == 0


def test_a_workload_that_changes_its_work_is_refused() -> None:
    calls: list[str] = []
    # warm-up and sizing take one run each; then the first round does 5 units and the second 6
    shifty = _counting("S", calls, [1, 1, 5, 6])
    with pytest.raises(AssertionError, match="did other work"):
        harness.measure([shifty], rounds=2, batch_seconds=0.0)


def _need_pyspiel() -> Any:
    return pytest.importorskip("pyspiel")


@pytest.mark.parametrize("config", [c for c in workloads.CONFIGS if c.openspiel], ids=lambda c: c.label)
def test_openspiel_chance_is_uniform_where_the_python_driver_assumes_it(config: workloads.Config) -> None:
    spiel = _need_pyspiel()
    game = spiel.load_game(config.openspiel, config.openspiel_params)
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert [a for a, _ in outcomes] == state.legal_actions()
                assert max(p for _, p in outcomes) - min(p for _, p in outcomes) < 1e-12
            state.apply_action(rng.choice(state.legal_actions()))


def test_evaluate_bots_actions_are_counted_exactly() -> None:
    spiel = _need_pyspiel()
    config = workloads.CONFIGS[1]
    cpp = workloads.openspiel_cpp_workload(config)
    finished = cpp.prepare(5)()
    assert isinstance(finished, list) and all(state.is_terminal() for state in finished)
    # Re-play each finished game's history from Python and count the steps taken at seats.
    game = spiel.load_game(config.openspiel, config.openspiel_params)
    by_hand = 0
    for done in finished:
        state = game.new_initial_state()
        for step in done.full_history():
            assert step.player == state.current_player()
            by_hand += not state.is_chance_node()
            state.apply_action(step.action)
        assert state.is_terminal()
    assert cpp.count(finished) == by_hand > 0
    # The same batch plays the same games every round (fresh bots, same seeds).
    assert cpp.count(cpp.prepare(5)()) == by_hand


def test_python_driven_openspiel_plays_whole_games() -> None:
    _need_pyspiel()
    config = workloads.CONFIGS[0]
    driven = workloads.openspiel_python_workload(config)
    body = driven.prepare(4)
    first = driven.count(body())
    assert first > 0 and driven.count(body()) == first


def test_naive_workload_plays_the_pure_reducers_games() -> None:
    for config in workloads.CONFIGS[:2]:
        pure = workloads.pure_workload(config).prepare(6)()
        naive = workloads.naive_workload(config).prepare(6)()
        game = workloads.game_workload(config).prepare(6)()
        assert pure == naive == game


def test_serde_only_prints_just_the_serde_lines() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--serde-only"],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert f"from {ROOT / 'src' / 'cardkit'}" in lines[0] and "serde only" in lines[0]
    assert [line.split(",")[0] for line in lines[1:]] == ["loads / json.loads", "dumps / json.dumps"]


def test_kernel_sides_are_measured_and_named(quick_output: str) -> None:
    import kernel_sides

    lines = quick_output.splitlines()
    assert lines[3].startswith("kernels: "), "the fourth line says which kernel builds were measured"
    compiled = kernel_sides.compiled_importable()
    for config in workloads.CONFIGS:
        if not kernel_sides.has_kernel(config.game, config.players, config.options):
            continue
        assert f"{config.label:<20} kernel interpreted, " in quick_output
        assert (f"{config.label:<20} kernel compiled, " in quick_output) is compiled
        if config.openspiel is not None and workloads.openspiel_missing() is None:
            assert f"kernel interpreted / OpenSpiel C++ evaluate_bots ({config.openspiel}" in quick_output
        elif config.openspiel is None and compiled:
            assert "kernel compiled / pure reducer (no OpenSpiel counterpart)" in quick_output


def test_both_kernel_builds_play_the_same_games() -> None:
    """The interpreted side runs the sources (its module is not the compiled one) and plays,
    from the same seeds, exactly what the compiled side plays."""
    import kernel_sides

    for config in workloads.CONFIGS[:3]:
        if not kernel_sides.has_kernel(config.game, config.players, config.options):
            continue
        interpreted = kernel_sides.kernel_workload(config, "interpreted").prepare(2, 5)()
        assert isinstance(interpreted, int) and interpreted > 0
        if kernel_sides.compiled_importable():
            assert kernel_sides.kernel_workload(config, "compiled").prepare(2, 5)() == interpreted
