"""Whole-game random playouts of Crazy Eights: the kernel (compiled and interpreted) vs the
reference reducer and OpenSpiel's C++ ``crazy_eights`` (``evaluate_bots``), interleaved.

Run from the repository root: ``python benchmarks/kernel_crazy_eights.py [rounds]``. The
kernel side is measured twice in one process: as imported (compiled when a mypyc build of
``cardkit.kernels`` is present) and as plain Python (its sources loaded again under
another name, so a compiled build does not shadow them). Units are player actions per
CPU-second (the issue's measure) and whole games per CPU-second.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cardkit  # noqa: E402
from cardkit.kernels import _base  # noqa: E402
from cardkit.kernels import crazy_eights as kernel_module  # noqa: E402

from harness import Workload, measure, units  # noqa: E402
from workloads import CONFIGS, openspiel_cpp_workload, openspiel_missing, pure_workload  # noqa: E402

SRC = Path(kernel_module.__file__).resolve().parent


def interpreted_module() -> types.ModuleType:
    """The kernel module and its base loaded from their ``.py`` sources, never a ``.so``."""
    base_spec = importlib.util.spec_from_file_location("ck_pure_base", SRC / "_base.py")
    assert base_spec is not None and base_spec.loader is not None
    base = importlib.util.module_from_spec(base_spec)
    sys.modules["ck_pure_base"] = base
    base_spec.loader.exec_module(base)
    text = (SRC / "crazy_eights.py").read_text().replace("from cardkit.kernels._base import", "from ck_pure_base import")
    module = types.ModuleType("ck_pure_crazy_eights")
    sys.modules["ck_pure_crazy_eights"] = module
    exec(compile(text, str(SRC / "crazy_eights.py"), "exec"), module.__dict__)
    return module


def kernel_workload(label: str, config: Any, kernel_class: Any, krng: Any) -> Workload:
    """Random whole games on the kernel: one ``random_playout`` call per game."""
    rules = cardkit.get_rules(config.game)
    bridge = rules.kernel_bridge(rules.config(config.players, **config.options))
    template = bridge.blank()
    args = [getattr(template, name) for name in (
        "players", "points_mode", "until_playable", "reshuffle", "two_draws_two", "queen_draws_five",
        "jack_skips", "ace_reverses", "target", "decks", "hand_size", "max_turns")]

    def prepare(games: int, first: int = 1) -> Callable[[], object]:
        def body() -> int:
            total = 0
            for seed in range(first, first + games):
                total += kernel_class(*args).random_playout(krng(seed), 1 << 30)
            return total

        return body

    return Workload(f"{label} {config.label}", f"kernel {label}", "player actions", prepare, units)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    compiled = kernel_module.__file__.endswith((".so", ".pyd"))
    pure = interpreted_module()
    print(f"kernel module as imported: {'compiled' if compiled else 'interpreted'} ({Path(kernel_module.__file__).name})")
    missing = openspiel_missing()
    for config in CONFIGS:
        if config.game != "crazy-eights":
            continue
        loads = [pure_workload(config)]
        if compiled:
            loads.append(kernel_workload("compiled", config, kernel_module.CrazyEightsKernel, _base.KRng))
        loads.append(kernel_workload("interpreted", config, pure.CrazyEightsKernel, sys.modules["ck_pure_base"].KRng))
        if missing is None:
            loads.append(openspiel_cpp_workload(config))
        results = measure(loads, rounds, 0.5, slices=4)
        ref = results[loads[0].key]
        os_key = loads[-1].key if missing is None else None
        print(f"== {config.label} ({rounds} rounds, median / best, player actions per CPU-second)")
        for w in loads:
            m = results[w.key]
            line = f"  {w.label:30s} {m.median:12,.0f} {m.best:12,.0f}  x{m.median / ref.median:6.2f} reducer"
            if os_key is not None:
                line += f"  x{m.median / results[os_key].median:6.3f} OpenSpiel"
            print(line)
    if missing is not None:
        print(missing)


if __name__ == "__main__":
    main()
