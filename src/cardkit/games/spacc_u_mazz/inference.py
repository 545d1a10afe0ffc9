"""Spacc 'u Mazz determinization hooks: rebuilding a state from zones, and the one thing
every seat knows about the other hands.

Used by :mod:`cardkit.core.resample` through ``SpaccUMazzRules.with_zones`` and
``SpaccUMazzRules.constraints``. Cards a seat saw go into a hand are in the hand's public
``known`` zone, so resampling keeps them where they are. A seat may always draw or take
the pile, so no refusal reveals anything about a hand; but no hand ever holds a joker (a
drawn joker acts at once and is removed, rule 20), so a sample must not deal one into a
hand either: :func:`constraints` says so for every other seat's concealed hand.
"""

from __future__ import annotations

from typing import Any, Sequence

from cardkit.cards import Card, sort_cards
from cardkit.core.resample import Constraint
from cardkit.core.rules import Zone
from cardkit.games.spacc_u_mazz.state import SpaccState, replace

__all__ = ["constraints", "with_zones"]

_JOKERS = frozenset((Card("RJ"), Card("BJ")))


def constraints(state: SpaccState, seat: int, events: Sequence[Any]) -> tuple[Constraint, ...]:
    """No concealed hand holds a joker: for every other seat with a private part of its
    hand, a :class:`~cardkit.core.resample.Constraint` forbidding both jokers on all of it
    (``events`` are not needed: the rule alone says it)."""
    out: list[Constraint] = []
    for other in range(state.config.players):
        if other == seat:
            continue
        private = len(state.hands[other]) - len(state.known[other])
        if private > 0:
            out.append(Constraint("hand", other, _JOKERS, private))
    return tuple(out)


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

