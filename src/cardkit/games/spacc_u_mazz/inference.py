"""Spacc 'u Mazz determinization hooks: rebuilding a state from zones.

Used by :mod:`cardkit.core.resample` through ``SpaccUMazzRules.with_zones`` and
``SpaccUMazzRules.constraints``. Cards a seat saw go into a hand are in the hand's public
``known`` zone, so resampling keeps them where they are without any inference.
"""

from __future__ import annotations

from typing import Any, Sequence

from cardkit.cards import Card, sort_cards
from cardkit.core.resample import Constraint
from cardkit.core.rules import Zone
from cardkit.games.spacc_u_mazz.state import SpaccState, replace

__all__ = ["with_zones", "constraints"]


def with_zones(state: SpaccState, zones: tuple[Zone, ...]) -> SpaccState:
    """``state`` with the cards of ``zones`` (``SpaccUMazzRules.zones``, any order): hands
    (private part + known part), face-down cards, the main stock (concealed part then
    buried starters), the reserve stock and the undealt packs are replaced."""
    n = state.config.players
    by: dict[tuple[str, int | None], tuple[Card, ...]] = {(z.name, z.owner): z.cards for z in zones}
    hands = tuple(sort_cards(by[("hand", s)] + by[("known", s)]) for s in range(n))
    face_down = tuple(by[("face_down", s)] for s in range(n))
    return replace(
        state,
        hands=hands,
        face_down=face_down,
        main_stock=by[("main_stock", None)] + by[("main_stock_buried", None)],
        reserve_stock=by[("reserve_stock", None)],
        deck=by[("deck", None)],
        pack_b=by[("pack_b", None)],
    )


def constraints(state: SpaccState, seat: int, events: Sequence[Any]) -> tuple[Constraint, ...]:
    """No inferences beyond the known cards (there is no obligation to play that a
    refusal would reveal: a seat may always draw or take the pile)."""
    return ()
