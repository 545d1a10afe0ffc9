"""The batch kernel of VectorEnv (kernels/vector_crazy_eights.py) equals the AEC encoding.

A short slice of tests/rl/test_vector.py kept here so that tests/test_kernel_build.py runs
it under the other build too (the incremental encoder is kernel code: both builds must
give the reference vectors).
"""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from cardkit.rl.vector import VectorEnv  # noqa: E402

from tests.rl.test_vector import _lockstep  # noqa: E402


@pytest.mark.parametrize(
    "players,options",
    [(2, {}), (3, {"mode": "points", "target": 60, "two_draws_two": True, "stock_empty": "reshuffle"})],
)
def test_vector_kernel_matches_the_aec_encoding(players: int, options: dict[str, object]) -> None:
    venv = VectorEnv("crazy-eights", 2, players=players, engine="kernel", **options)
    assert _lockstep(venv, 120, seed=7) >= 1
