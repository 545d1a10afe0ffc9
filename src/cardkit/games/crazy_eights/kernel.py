"""The bridge between the Crazy Eights rules and :mod:`cardkit.kernels.crazy_eights`.

Pure Python (never compiled): states into kernels, actions to and from action ids,
chance outcomes and zones. The kernel covers every config of the game. Imported lazily by
``CrazyEightsRules.kernel_bridge``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

from cardkit.cards import SUITS, Card, standard_deck
from cardkit.core.rules import CHANCE
from cardkit.errors import IllegalActionError
from cardkit.games.crazy_eights.action_space import action_space
from cardkit.games.crazy_eights.config import CrazyEightsConfig
from cardkit.games.crazy_eights.state import CrazyEightsState
from cardkit.games.kernel_bridge import apply_chance_outcome
from cardkit.kernels._base import OVER, Kernel
from cardkit.kernels.crazy_eights import (
    REASON_DRAW,
    REASON_PENALTY,
    REASON_PENDING,
    ZONE_DISCARD,
    ZONE_HAND,
    ZONE_STOCK,
    CrazyEightsKernel,
)

__all__ = ["CrazyEightsBridge", "CARD_INTS", "bridge"]

CARD_INTS: dict[Card, int] = {card: i for i, card in enumerate(standard_deck())}
"""A card's kernel int: ``suit * 13 + rank - 2`` (S, H, D, C; the display order)."""

_SUIT_INTS: dict[str, int] = {suit: i for i, suit in enumerate(SUITS)}
_REASONS: dict[str, int] = {"draw": REASON_DRAW, "pending": REASON_PENDING, "penalty": REASON_PENALTY}
_ZONES: dict[str, int] = {"stock": ZONE_STOCK, "discard": ZONE_DISCARD, "hand": ZONE_HAND}


class CrazyEightsBridge:
    """The :class:`~cardkit.kernels.bridge.KernelBridge` of Crazy Eights under ``config``."""

    def __init__(self, config: CrazyEightsConfig) -> None:
        self.config = config
        self.actions: tuple[Any, ...] = action_space(config)
        self._ids: dict[Any, int] = {action: i for i, action in enumerate(self.actions)}

    def blank(self) -> CrazyEightsKernel:
        """The kernel of the initial state (before the first dealer is picked)."""
        cfg = self.config
        return CrazyEightsKernel(
            cfg.players,
            cfg.mode == "points",
            cfg.draw == "until_playable",
            cfg.stock_empty == "reshuffle",
            cfg.two_draws_two,
            cfg.queen_of_spades_draws_five,
            cfg.jack_skips,
            cfg.ace_reverses,
            cfg.target if cfg.target is not None else 0,
            cfg.decks,
            cfg.hand_size,
            cfg.max_turns,
        )

    def kernel(self, state: CrazyEightsState) -> CrazyEightsKernel:
        """A kernel equal to the full state ``state``."""
        k = self.blank()
        ints = CARD_INTS
        to_act = state.to_act
        k.to_act = OVER if to_act is None else to_act
        k.dealer = state.dealer
        k.hand_number = state.hand_number
        for seat, cards in enumerate(state.hands):
            k.set_zone(ZONE_HAND, seat, [ints[card] for card in cards])
        stock = state.stock
        m = len(stock)
        for i, card in enumerate(stock):
            k.stock[m - 1 - i] = ints[card]
        k.slen = m
        for i, card in enumerate(state.discard):
            k.disc[i] = ints[card]
        k.dlen = len(state.discard)
        k.active = -1 if state.active_suit is None else _SUIT_INTS[state.active_suit]
        k.direction = state.direction
        k.pending = state.pending_draw
        k.drawn = -1 if state.drawn is None else ints[state.drawn]
        k.passes = state.passes
        k.turns = state.turns
        k.score = list(state.scores)
        k.hand_points = list(state.hand_points)
        k.revealed = state.revealed
        owed = state.owed
        if owed is not None:
            k.owed_seat = owed.seat
            k.owed_count = owed.count
            k.owed_reason = _REASONS[owed.reason]
            k.owed_next = -1 if owed.next_seat is None else owed.next_seat
        k.retarget()
        result = state.result
        if result is not None:
            k.over = True
            k.won = list(result.winners)
        return k

    def action_id(self, action: Any) -> int:
        """The action's index in ``rules.action_space(config)``."""
        try:
            return self._ids[action]
        except (KeyError, TypeError):
            raise IllegalActionError(f"{action!r} is not a Crazy Eights action") from None

    def apply_chance(self, kernel: Kernel, outcome: Any) -> None:
        """Answer the kernel's pending chance node with a reference ``Pick`` or ``Shuffle``."""
        apply_chance_outcome(kernel, outcome, self.card_ints)

    def card_ints(self, cards: Sequence[Card]) -> list[int]:
        """The kernel's ints for ``cards``, in order."""
        ints = CARD_INTS
        return [ints[card] for card in cards]

    def zone_code(self, name: str, owner: int | None) -> tuple[int, int]:
        """``stock`` and ``discard`` (owner -1), ``hand`` of a seat."""
        return _ZONES[name], -1 if owner is None else owner


assert CHANCE == -1  # the kernel's CHANCE is the reference's


@lru_cache(maxsize=64)
def bridge(config: CrazyEightsConfig) -> CrazyEightsBridge:
    """The (shared, immutable) bridge for ``config``: ``CrazyEightsRules.kernel_bridge``."""
    return CrazyEightsBridge(config)
