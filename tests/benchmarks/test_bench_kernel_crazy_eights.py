"""benchmarks/kernel_crazy_eights.py measures what it says: its interpreted side is the
kernel's plain Python source (even beside a compiled build) and plays the same games as
the kernel as imported."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import kernel_crazy_eights as bench  # noqa: E402
from workloads import CONFIGS  # noqa: E402

from cardkit.kernels import _base  # noqa: E402
from cardkit.kernels import crazy_eights  # noqa: E402


def test_interpreted_side_is_plain_python_and_plays_the_same_games() -> None:
    pure = bench.interpreted_module()
    assert type(pure.CrazyEightsKernel.legal).__name__ == "function"  # not a compiled method
    config = next(c for c in CONFIGS if c.game == "crazy-eights")
    fast = bench.kernel_workload("imported", config, crazy_eights.CrazyEightsKernel, _base.KRng)
    slow = bench.kernel_workload("interpreted", config, pure.CrazyEightsKernel, sys.modules["ck_pure_base"].KRng)
    played = fast.prepare(5, 1)()
    assert isinstance(played, int) and played > 5
    assert slow.prepare(5, 1)() == played
