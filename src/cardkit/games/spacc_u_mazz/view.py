"""The typed shape of a Spacc 'u Mazz view (plain JSON; see the game's docs page)."""

from __future__ import annotations

from cardkit.core.views import CommonView

__all__ = ["SpaccView"]


class SpaccView(CommonView):
    """A Spacc 'u Mazz view: the common fields plus the game's own.

    ``phase`` is the state's phase (``"first_dealer"``, the dealing phases, ``"play"``,
    ``"over"``; listed on the game's page).
    """

    hand_number: int
    pending: str | None
    face_up: list[list[str]]
    face_down_counts: list[int]
    pile: list[str]
    reference: str | None
    main_stock_size: int
    main_stock_buried: list[str]
    reserve_stock_size: int
    removed_count: int
    removed: list[str]
    places: list[int]
    turns: int
    max_turns: int
    rank_order: str
    target_score: int | None
    hand_points: list[int]
    revealed_hands: list[list[str]] | None
    revealed_face_down: list[list[str]] | None
