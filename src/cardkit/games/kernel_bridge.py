"""What every built-in game's kernel bridge shares: answering a kernel's chance node with a
reference outcome (``Pick`` or ``Shuffle``)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from cardkit.core.rules import Pick, Shuffle
from cardkit.errors import IllegalActionError
from cardkit.kernels._base import Kernel

__all__ = ["apply_chance_outcome"]


def apply_chance_outcome(kernel: Kernel, outcome: Any, card_ints: Callable[[Sequence[Any]], list[int]]) -> None:
    """Answer ``kernel``'s pending chance node with the reference ``outcome``: a ``Pick`` by
    its index, a ``Shuffle`` by its order in the kernel's card ints (``card_ints``);
    :class:`IllegalActionError` for anything else."""
    if isinstance(outcome, Pick):
        kernel.chance_pick(outcome.index)
    elif isinstance(outcome, Shuffle):
        kernel.chance_shuffle(card_ints(outcome.order))
    else:
        raise IllegalActionError(f"{outcome!r} is not a chance outcome")
