"""The Ray recipe of docs/scale.md, run as written, when Ray is installed.

Ray is not a dependency of cardkit (not even of the ``dev`` extra: its wheel and start-up
are too heavy for the default suite), so this test skips without it; ``.ci/run`` installs
Ray after the default run and runs this file on its own."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed: the recipe of docs/scale.md is not run")

from cardkit.bots.arena import run_arena  # noqa: E402
from cardkit.cli.simulate import play_games  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _recipe() -> dict[str, Any]:
    text = (ROOT / "docs" / "scale.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```python no-run\n(.*?)```", text, re.S) if "class RayExecutor" in b]
    definitions = block.split("ray.init(")[0]  # the adapter, without connecting to a cluster
    namespace: dict[str, Any] = {}
    exec(compile(definitions, "docs/scale.md", "exec"), namespace)
    return namespace


def test_the_ray_recipe_gives_the_results_of_one_worker() -> None:
    recipe = _recipe()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        executor = recipe["RayExecutor"]()
        kwargs: dict[str, Any] = dict(seed=3, bots=["rule", "random", "rule"], options={"rounds": 2})
        got = list(play_games("wizard", 3, 30, executor=executor, workers=2, chunk_size=4, **kwargs))
        assert got == list(play_games("wizard", 3, 30, **kwargs))
        specs = ["rule", "random", "random"]
        report = run_arena("crazy-eights", 3, specs, 24, seed=2, design="permutations", executor=executor, workers=2)
        assert report.as_json() == run_arena("crazy-eights", 3, specs, 24, seed=2, design="permutations").as_json()
    finally:
        ray.shutdown()
