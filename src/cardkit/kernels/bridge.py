"""The bridge between a game's reference rules and its kernel (pure Python, never compiled).

A game offers a kernel through one optional method of its Rules object,
``rules.kernel_bridge(config) -> KernelBridge`` (the built-in games import their bridge
lazily there). Everything that crosses between the two worlds goes through the bridge:
full states into kernels, action objects to and from action ids, chance outcomes, and
the zones a search redeals. A user's own game adds a kernel the same way (docs/bots.md).
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, runtime_checkable

from cardkit.kernels._base import Kernel

__all__ = ["KernelBridge", "bridge_for"]


@runtime_checkable
class KernelBridge(Protocol):
    """What connects one game under one config with its kernel.

    ``actions`` is ``rules.action_space(config)``: action id ``i`` is ``actions[i]``.
    """

    actions: tuple[Any, ...]

    def kernel(self, state: Any) -> Kernel:
        """A kernel equal to the full state ``state`` (any reachable state, a
        determinization included)."""
        ...

    def action_id(self, action: Any) -> int:
        """The id of a seat action (its index in :attr:`actions`)."""
        ...

    def apply_chance(self, kernel: Kernel, outcome: Any) -> None:
        """Answer the kernel's pending chance node with the reference outcome (a
        ``Shuffle`` or a ``Pick``)."""
        ...

    def card_ints(self, cards: Sequence[Any]) -> list[int]:
        """The kernel's ints for ``cards`` (in order)."""
        ...

    def zone_code(self, name: str, owner: int | None) -> tuple[int, int]:
        """The kernel's ``(zone, owner)`` for a reference zone (``rules.zones``), for
        :meth:`Kernel.set_zone`; ``owner`` is ``-1`` for a zone without one."""
        ...


def bridge_for(rules: Any, config: Any) -> KernelBridge | None:
    """The game's kernel bridge under ``config``, or ``None`` for a game without a kernel
    (``rules.kernel_bridge`` absent) or a config its kernel does not cover (the method
    returns ``None``)."""
    method = getattr(rules, "kernel_bridge", None)
    if method is None:
        return None
    bridge: KernelBridge | None = method(config)
    return bridge
