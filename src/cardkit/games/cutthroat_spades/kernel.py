"""The bridge between Cutthroat Spades' reference rules and its kernel
(:mod:`cardkit.kernels.cutthroat_spades`): configs into the kernel's params, states into
kernels, actions to and from ids, chance outcomes and the zones a search redeals.

Every option is covered, so :meth:`CutthroatSpadesRules.kernel_bridge` never answers
``None`` for a Cutthroat Spades config.
"""

from __future__ import annotations

from typing import Any, Final, Sequence

from cardkit.cards import Card
from cardkit.games.cutthroat_spades.action_space import action_space
from cardkit.games.cutthroat_spades.config import CutthroatConfig
from cardkit.games.cutthroat_spades.state import CutthroatState
from cardkit.kernels import cutthroat_spades as ks
from cardkit.games.kernel_bridge import apply_chance_outcome
from cardkit.kernels._base import Kernel

__all__ = ["CutthroatSpadesBridge", "bridge", "params_of"]

_PHASES: Final[dict[str, int]] = {"pick": ks.PICK, "deal": ks.DEAL, "bid": ks.BID, "play": ks.PLAY, "over": ks.DONE}
_KINDS: Final[dict[str, int]] = {
    "normal": ks.K_NORMAL, "nil": ks.K_NIL, "blind_nil": ks.K_BLIND_NIL, "blind_six": ks.K_BLIND_SIX,
    "one_for_fifty": ks.K_ONE_FOR_FIFTY, "two_for_forty": ks.K_TWO_FOR_FORTY, "moon": ks.K_MOON,
}  # fmt: skip
_CARD_INT: Final[dict[Card, int]] = {
    Card(code): ks.card_int(code) for code in ("RJ", "BJ", "XJ", *(r + s for s in "SHDC" for r in "23456789TJQKA"))
}
_JACKS: Final = (Card("JD"), Card("JC"), Card("JH"))


def params_of(config: CutthroatConfig) -> list[int]:
    """The kernel's params list (``cardkit.kernels.cutthroat_spades.P_*``) for ``config``."""
    params = [0] * ks.P_SIZE
    params[ks.P_PLAYERS] = config.players
    params[ks.P_JOKERS] = config.jokers
    params[ks.P_TARGET] = config.target
    params[ks.P_MINUS_10] = 1 if config.bags == "each_minus_10" else 0
    params[ks.P_BAG_LIMIT] = config.bag_limit if config.bag_limit is not None else 10
    params[ks.P_CARRY] = 1 if config.bag_out == "carry" else 0
    params[ks.P_BLIND_SIX] = -1 if config.blind_six_per_game is None else config.blind_six_per_game
    params[ks.P_JD] = 1 if "JD" in config.prize_jacks else 0
    params[ks.P_JC] = 1 if "JC" in config.prize_jacks else 0
    params[ks.P_JH] = 1 if "JH" in config.prize_jacks else 0
    params[ks.P_WINS] = config.wins_needed
    params[ks.P_MAX_HANDS] = -1 if config.max_hands is None else config.max_hands
    params[ks.P_MERCY] = -1 if config.mercy is None else config.mercy
    return params


class CutthroatSpadesBridge:
    """The :class:`~cardkit.kernels.bridge.KernelBridge` of Cutthroat Spades under one config."""

    def __init__(self, config: CutthroatConfig) -> None:
        """Build the action index and a template kernel for ``config``."""
        self.config = config
        self.actions: tuple[Any, ...] = action_space(config)
        self._ids: dict[Any, int] = {a: i for i, a in enumerate(self.actions)}
        self._template = ks.CutthroatSpadesKernel(params_of(config))

    def kernel(self, state: CutthroatState) -> ks.CutthroatSpadesKernel:
        """A kernel equal to ``state``."""
        k = self._template.copy()
        k.restore(self.snapshot_of(state))
        return k

    def snapshot_of(self, state: CutthroatState) -> list[int]:
        """The kernel snapshot (:meth:`CutthroatSpadesKernel.snapshot`) of ``state``."""
        n = state.config.players
        ci = _CARD_INT
        out = [
            _PHASES[state.phase], state.dealer, state.turn, len(state.trick), state.trick_count,
            int(state.spades_broken), state.game_number, state.hands_in_game, state.hands_played,
            int(state.overtime), len(state.deck),
        ]  # fmt: skip
        out.extend(ci[c] for c in state.deck)
        for hand in state.hands:
            out.append(len(hand))
            out.extend(ci[c] for c in hand)
        out.extend(int(x) for x in state.looked)
        out.extend(-1 if b is None else _KINDS[b.kind] for b in state.bids)
        out.extend(0 if b is None else b.tricks for b in state.bids)
        out.extend(state.tricks_won)
        out.extend(state.scores)
        out.extend(state.bags)
        out.extend(state.tokens)
        out.extend(state.blind_six_used)
        out.extend(s for s, _ in state.trick)
        out.extend(ci[c] for _, c in state.trick)
        for jack in _JACKS:
            out.append(next((s for s in range(n) if jack in state.won[s]), -1))
        winners = state.winners if state.phase == "over" else ()
        out.append(len(winners))
        out.extend(winners)
        return out

    def action_id(self, action: Any) -> int:
        """The id of a seat action (its index in :attr:`actions`)."""
        return self._ids[action]

    def apply_chance(self, kernel: Kernel, outcome: Any) -> None:
        """Answer the kernel's pending chance node with a reference ``Pick`` or ``Shuffle``."""
        apply_chance_outcome(kernel, outcome, self.card_ints)

    def card_ints(self, cards: Sequence[Card]) -> list[int]:
        """The kernel's ints for ``cards`` (in order)."""
        ci = _CARD_INT
        return [ci[c] for c in cards]

    def zone_code(self, name: str, owner: int | None) -> tuple[int, int]:
        """``deck`` and ``hand`` (the only zones that can be concealed) as kernel zones."""
        if name == "deck":
            return ks.ZONE_DECK, -1
        if name == "hand" and owner is not None:
            return ks.ZONE_HAND, owner
        raise ValueError(f"zone {name!r} is public in Cutthroat Spades: nothing to redeal")


def bridge(config: CutthroatConfig) -> CutthroatSpadesBridge:
    """The bridge for ``config`` (every Cutthroat Spades config has one)."""
    return CutthroatSpadesBridge(config)
