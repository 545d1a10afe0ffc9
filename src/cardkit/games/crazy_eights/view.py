"""The typed shape of a Crazy Eights view (plain JSON; see the game's docs page)."""

from __future__ import annotations

from typing import TypedDict

from cardkit.core.views import ResultView

__all__ = ["CrazyEightsView"]


class CrazyEightsView(TypedDict):
    """A Crazy Eights view: the fields every game has (the same
    as :class:`cardkit.CommonView`, so it can be used as one) plus the game's own.

    ``phase`` is ``"pick"`` (choosing the first dealer), ``"deal"``, ``"reshuffle"``
    (the discards are being shuffled into a new stock), ``"play"`` or ``"over"``.
    """

    game: str
    players: int
    seat: int | None
    phase: str
    to_act: int | None
    dealer: int | None
    scores: list[int]
    hand: list[str] | None
    hand_sizes: list[int]
    legal_actions: list[str]
    result: ResultView | None
    # the game's own fields
    mode: str
    hand_number: int
    top_card: str | None
    active_suit: str | None
    stock_size: int
    discard_size: int
    pending_draw: int
    direction: int
    drawn: str | None
    hand_points: list[int]
    target: int | None
    revealed_hands: list[list[str]] | None
