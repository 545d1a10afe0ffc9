"""Spacc 'u Mazz determinization hooks: rebuilding a state from zones.

Used by :mod:`cardkit.core.resample` through ``SpaccUMazzRules.with_zones``. Cards a seat
saw go into a hand are in the hand's public ``known`` zone, so resampling keeps them where
they are. There is no ``constraints`` hook: a seat may always draw or take the pile, so no
refusal reveals anything about a hand.
"""

from __future__ import annotations

from cardkit.cards import Card, sort_cards
from cardkit.core.rules import Zone
from cardkit.games.spacc_u_mazz.state import SpaccState, replace

__all__ = ["with_zones"]


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

