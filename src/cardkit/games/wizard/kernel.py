"""The bridge between the Wizard rules and :class:`cardkit.kernels.wizard.WizardKernel`.

Pure Python (never compiled): states into kernels, actions to and from action ids, chance
outcomes, the concealed zones a search redeals, and the moves a belief fit replays. Every
Wizard config is covered (3-6 players, ``forbid_even_bids``, any ``rounds``).
"""

from __future__ import annotations

from typing import Any, Final, Sequence

from cardkit.cards import SUITS, Card
from cardkit.games.wizard.actions import Bid, ChooseTrump, Play
from cardkit.games.wizard.config import WizardConfig
from cardkit.games.wizard.events import BidMade, CardPlayed, TrumpChosen
from cardkit.games.wizard.state import DECK, WizardState
from cardkit.games.kernel_bridge import apply_chance_outcome
from cardkit.kernels._base import Kernel
from cardkit.kernels.wizard import ZONE_HAND, ZONE_STOCK, WizardKernel

__all__ = ["WizardBridge", "CARD_INT", "INT_CARD", "PHASE_CODE"]

INT_CARD: Final[tuple[Card, ...]] = tuple(dict.fromkeys(DECK))
"""Card int → card: the Wizard, the Jester, then the 52 suited cards in display order."""

CARD_INT: Final[dict[Card, int]] = {card: i for i, card in enumerate(INT_CARD)}
"""Card → the kernel's card int."""

PHASE_CODE: Final[dict[str, int]] = {"pick": 0, "deal": 1, "trump": 2, "bid": 3, "play": 4, "over": 5}
"""The reference phase → the kernel's phase code."""

_SUIT_INT: Final[dict[str, int]] = {s: i for i, s in enumerate(SUITS)}


class WizardBridge:
    """Wizard under one config and its kernel (the ``KernelBridge`` protocol)."""

    actions: tuple[Any, ...]
    """``rules.action_space(config)``: action id ``i`` is ``actions[i]``."""

    def __init__(self, config: WizardConfig) -> None:
        from cardkit.games.wizard.action_space import action_space

        self.config = config
        self.actions = action_space(config)
        self._ids: dict[Any, int] = {a: i for i, a in enumerate(self.actions)}

    def kernel(self, state: WizardState) -> WizardKernel:
        """A kernel equal to ``state`` (any reachable state, a determinization included)."""
        config = self.config
        k = WizardKernel(config.players, config.rounds, config.forbid_even_bids)
        k.load(self.state_ints(state))
        return k

    def state_ints(self, state: WizardState) -> list[int]:
        """``state`` in the kernel's :meth:`~WizardKernel.snapshot` layout (without the
        derived ``led`` and ``best``)."""
        out = [
            PHASE_CODE[state.phase],
            state.round,
            state.dealer,
            state.turn,
            CARD_INT[state.turned] if state.turned is not None else -1,
            _SUIT_INT[state.trump] if state.trump is not None else -1,
        ]
        for hand in state.hands:
            out.append(len(hand))
            out.extend(CARD_INT[c] for c in hand)
        out.append(len(state.stock))
        out.extend(CARD_INT[c] for c in state.stock)
        out.extend(b if b is not None else -1 for b in state.bids)
        out.extend(state.tricks_won)
        out.extend(state.scores)
        out.append(len(state.trick))
        for seat, card in state.trick:
            out.append(seat)
            out.append(CARD_INT[card])
        return out

    def action_id(self, action: Any) -> int:
        """The id of a Wizard action (its index in :attr:`actions`); ``KeyError`` if
        it is not one."""
        return self._ids[action]

    def action(self, action_id: int) -> Any:
        """The action of an id."""
        return self.actions[action_id]

    def apply_chance(self, kernel: Kernel, outcome: Any) -> None:
        """Answer the kernel's first-dealer pick or round shuffle with the reference outcome."""
        apply_chance_outcome(kernel, outcome, self.card_ints)

    def card_ints(self, cards: Sequence[Card]) -> list[int]:
        """The card ints of ``cards`` (in order)."""
        return [CARD_INT[c] for c in cards]

    def zone_code(self, name: str, owner: int | None) -> tuple[int, int]:
        """``stock`` and ``hand`` (the concealed zones); ``ValueError`` for a public one."""
        if name == "stock":
            return ZONE_STOCK, -1
        if name == "hand" and owner is not None:
            return ZONE_HAND, owner
        raise ValueError(f"{name!r} is not a concealed Wizard zone")

    def fit_moves(self, events: Sequence[Any]) -> list[int]:
        """The seat moves among ``events`` (a seat's events of the current round, as
        ``cardkit.bots.beliefs.hand_events`` gives them) as flat ``[mover, action id,
        ...]`` pairs, for :meth:`WizardKernel.fit`."""
        out: list[int] = []
        ids = self._ids
        for event in events:
            kind = type(event)
            if kind is CardPlayed:
                out.append(event.seat)
                out.append(ids[Play(event.card)])
            elif kind is BidMade:
                out.append(event.seat)
                out.append(ids[Bid(event.tricks)])
            elif kind is TrumpChosen:
                out.append(event.seat)
                out.append(ids[ChooseTrump(event.suit)])
        return out
