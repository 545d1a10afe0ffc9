"""Spacc 'u Mazz: avoid picking up the pile; shed low cards first, keep 2s and 10s."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from cardkit.core.seat import SeatState
from cardkit.games.spacc_u_mazz.actions import (
    Blind,
    Decline,
    Draw,
    Dump,
    Keep,
    Pass,
    Play,
    RemoveDown,
    RemoveUp,
    Take,
)
from cardkit.games.spacc_u_mazz.scoring import rank_orders
from cardkit.games.spacc_u_mazz.state import SpaccState

__all__ = ["choose", "decide"]

Reason = Callable[[], str]

_ORDERS = {name: rank_orders(name) for name in ("standard", "as_printed")}


def choose(ss: SeatState) -> tuple[Any, str]:
    """The action and a one-line reason."""
    action, reason = decide(ss.masked, ss.seat, ss.legal_actions)
    return action, reason()


def decide(state: SpaccState, seat: int, legal: Sequence[Any]) -> tuple[Any, Reason]:
    """The strategy on a full state (``seat`` to act, ``legal`` its actions): the action
    and its reason, built only when called (ISMCTS playouts call this in their inner loop
    on determinized states and never ask why)."""
    order = _ORDERS[state.config.rank_order]
    if state.pending:  # a red joker waits: dump or keep, or remove a card (or decline)
        if any(isinstance(a, Dump) for a in legal):
            return next(a for a in legal if isinstance(a, Dump)), lambda: "dump my hand: fewer cards to shed"
        downs = [a for a in legal if isinstance(a, RemoveDown)]
        if downs:
            return downs[0], lambda: "remove a face-down card: it could have failed blind"
        ups = [a for a in legal if isinstance(a, RemoveUp)]
        if ups:
            low = min(ups, key=lambda a: order[a.card.rank] if a.card.rank not in (2, 10) else 99)
            return low, lambda: f"remove {low.card}: my hardest face-up card to play"
    # One pass over the plays (this runs in every ISMCTS playout step): the ordinary rank
    # lowest in the rank order, most copies first (the first such play on ties); else,
    # with only 2s and 10s, draw if allowed, else a 2 before a 10, fewest copies.
    best: Any = None
    best_key = (99, 0)
    special: Any = None
    special_key = (True, 99)
    for a in legal:
        if type(a) is not Play:
            continue
        rank = a.hand[0].rank if a.hand else a.up[0].rank
        copies = len(a.hand) + len(a.up)
        if rank == 2 or rank == 10:
            k2 = (rank != 2, copies)
            if k2 < special_key:
                special, special_key = a, k2
        else:
            k = (order[rank], -copies)
            if k < best_key:
                best, best_key = a, k
    if best is not None:
        chosen = best
        return chosen, lambda: f"{chosen}: my lowest playable rank, so I keep 2s and 10s"
    if special is not None:
        if any(isinstance(a, Draw) for a in legal):
            return next(a for a in legal if isinstance(a, Draw)), lambda: "draw: keep my 2s and 10s"
        saver = special
        return saver, lambda: f"{saver}: a 2 or a 10 saves me from the pile"
    for kind, why in (
        (Draw, "draw: I cannot play, and drawing beats taking the pile"),
        (Blind, "play a face-down card blind: it may save me the pile"),
        (Take, "take the pile: nothing else is allowed"),
        (Keep, "keep the red joker"),
        (Decline, "decline"),
        (Pass, "pass: nothing else is allowed"),
    ):
        for a in legal:
            if isinstance(a, kind):
                return a, lambda: why
    return legal[0], lambda: f"{legal[0]}: the only choice"
