"""The bridge between the Spacc 'u Mazz rules and their kernel (:mod:`cardkit.kernels.spacc_u_mazz`).

Pure Python, never compiled: full states into kernels, action objects to and from the
kernel's action ids (the indices of ``action_space(config)``), chance outcomes, card ints
and zone codes. Every config of the game has a kernel.
"""

from __future__ import annotations

from typing import Any, Final, Sequence

from cardkit.cards import SUITS, Card
from cardkit.games.spacc_u_mazz.action_space import action_space
from cardkit.games.spacc_u_mazz.config import SpaccConfig
from cardkit.games.spacc_u_mazz.state import SpaccState
from cardkit.kernels import spacc_u_mazz as K
from cardkit.games.kernel_bridge import apply_chance_outcome
from cardkit.kernels._base import Kernel

__all__ = ["SpaccKernelBridge", "kernel_bridge", "card_int", "card_of"]

_PHASES: Final = {
    "first_dealer": K.P_FIRST_DEALER,
    "deal": K.P_DEAL,
    "deal_face_down": K.P_DEAL_FACE_DOWN,
    "deal_reserve": K.P_DEAL_RESERVE,
    "play": K.P_PLAY,
    "next_hand": K.P_NEXT_HAND,
    "over": K.P_OVER,
}
_PENDING: Final = {"": K.NO_CHOICE, "dump": K.CHOICE_DUMP, "remove": K.CHOICE_REMOVE}
_ZONES: Final = {
    "hand": K.Z_HAND,
    "known": K.Z_KNOWN,
    "face_up": K.Z_FACE_UP,
    "face_down": K.Z_FACE_DOWN,
    "pile": K.Z_PILE,
    "main_stock": K.Z_MAIN,
    "main_stock_buried": K.Z_MAIN_BURIED,
    "reserve_stock": K.Z_RESERVE,
    "removed": K.Z_REMOVED,
    "deck": K.Z_DECK,
    "jokers": K.Z_JOKERS,
    "pack_b": K.Z_PACK_B,
}

_CARDS: Final[tuple[Card, ...]] = (Card("RJ"), Card("BJ")) + tuple(
    Card("23456789TJQKA"[rank - 2] + suit) for suit in SUITS for rank in range(2, 15)
)
_INTS: Final[dict[Card, int]] = {card: i for i, card in enumerate(_CARDS)}


def card_int(card: Card) -> int:
    """The kernel's int of ``card`` (0 red joker, 1 black joker, then by suit and rank)."""
    return _INTS[card]


def card_of(value: int) -> Card:
    """The card of a kernel int."""
    return _CARDS[value]


def _ints(cards: Sequence[Card]) -> list[int]:
    ints = _INTS
    return [ints[c] for c in cards]


def _codes(kernel_codes: list[int], seat: int, cards: Sequence[Card]) -> None:
    base = seat * K.SLOTS
    for card in cards:
        value = _INTS[card]
        kernel_codes[base + (value - 2) % 13 + 2] += K.POW3[(value - 2) // 13]


_IDS: dict[Any, int] | None = None


class SpaccKernelBridge:
    """The kernel bridge of Spacc 'u Mazz under one config (see
    :class:`cardkit.kernels.bridge.KernelBridge`)."""

    def __init__(self, config: SpaccConfig) -> None:
        self.config = config
        self.actions: tuple[Any, ...] = action_space(config)
        global _IDS
        if _IDS is None:
            _IDS = {action: i for i, action in enumerate(self.actions)}
        self._ids = _IDS

    def new_kernel(self) -> K.SpaccUMazzKernel:
        """A kernel of this config before the first dealer is chosen."""
        cfg = self.config
        return K.SpaccUMazzKernel(
            cfg.players,
            cfg.rank_order == "as_printed",
            list(cfg.card_points),
            list(cfg.places_points),
            0 if cfg.target_score is None else cfg.target_score,
            cfg.max_turns,
        )

    def kernel(self, state: SpaccState) -> Kernel:
        """A kernel equal to the full state ``state`` (of this bridge's config)."""
        if state.config is not self.config and state.config != self.config:
            raise ValueError("the state was made under another config than this kernel bridge's")
        k = self.new_kernel()
        n = self.config.players
        k.phase = _PHASES[state.phase]
        k.hand_number = state.hand_number
        k.dealer = state.dealer
        k.to_act = state.to_act
        k.pending = _PENDING[state.pending]
        k.turns = state.turns
        k.deck = _ints(state.deck)
        k.jokers = _ints(state.jokers)
        k.pack_b = _ints(state.pack_b)
        for seat in range(n):
            _codes(k.hand, seat, state.hands[seat])
            _codes(k.known, seat, state.known[seat])
            _codes(k.up, seat, state.face_up[seat])
            k.hand_n[seat] = len(state.hands[seat])
            k.up_n[seat] = len(state.face_up[seat])
            down = state.face_down[seat]
            k.down_n[seat] = len(down)
            for i, card in enumerate(down):
                k.down[seat * K.DOWN_SLOTS + i] = _INTS[card]
        k.pile = _ints(state.pile)
        k.reference = state.reference
        k.main = _ints(state.main_stock)
        k.main_known = state.main_known
        k.reserve = _ints(state.reserve_stock)
        k.removed = _ints(state.removed)
        k.places = list(state.places)
        k.revealed = state.revealed
        k.totals = list(state.totals)
        k.hand_points = list(state.hand_points)
        k.won = list(state.result.winners) if state.result is not None else []
        return k

    def action_id(self, action: Any) -> int:
        """The index of ``action`` in ``action_space(config)``."""
        return self._ids[action]

    def apply_chance(self, kernel: Kernel, outcome: Any) -> None:
        """Answer the kernel's pending pick or shuffle with the reference outcome."""
        apply_chance_outcome(kernel, outcome, _ints)

    def card_ints(self, cards: Sequence[Any]) -> list[int]:
        """The kernel's ints for ``cards``."""
        return _ints(cards)

    def zone_code(self, name: str, owner: int | None) -> tuple[int, int]:
        """The kernel zone of a reference zone (``SpaccRules.zones``)."""
        return _ZONES[name], -1 if owner is None else owner


def kernel_bridge(config: SpaccConfig) -> SpaccKernelBridge:
    """The bridge for ``config`` (every Spacc 'u Mazz config has a kernel)."""
    return SpaccKernelBridge(config)
