"""Whole random games inside a kernel: the loop compiled with the kernels.

Restricted typed Python like every kernel module (see :mod:`cardkit.kernels._base`), so
that with the compiled build the whole game, its chance and its random choices run in
compiled code, one Python call per game: the counterpart of OpenSpiel's
``evaluate_bots`` with uniform random bots (``benchmarks/run.py`` races the two).
"""

from __future__ import annotations

from cardkit.kernels._base import CHANCE, OVER, Kernel, KRng

__all__ = ["random_game"]


def random_game(kernel: Kernel, rng: KRng, max_actions: int) -> int:
    """Play ``kernel`` to its end (or ``max_actions`` seat actions): every seat a uniformly
    random legal action, every chance node ``chance_random``; returns the seat actions."""
    actions = 0
    while True:
        actor = kernel.actor()
        if actor == OVER:
            return actions
        if actor == CHANCE:
            kernel.chance_random(rng)
            continue
        if actions >= max_actions:
            return actions
        legal = kernel.legal()
        kernel.apply(legal[rng.below(len(legal))])
        actions += 1
