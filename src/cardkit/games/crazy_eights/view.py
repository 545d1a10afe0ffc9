"""The typed shape of a Crazy Eights view (plain JSON; see the game's docs page)."""

from __future__ import annotations

from cardkit.core.views import CommonView

__all__ = ["CrazyEightsView"]


class CrazyEightsView(CommonView):
    """A Crazy Eights view: the common fields plus the game's own.

    ``phase`` is ``"pick"`` (choosing the first dealer), ``"deal"``, ``"reshuffle"``
    (the discards are being shuffled into a new stock), ``"play"`` or ``"over"``.
    """

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
