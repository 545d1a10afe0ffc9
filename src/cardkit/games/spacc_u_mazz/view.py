"""The typed shape of a Spacc 'u Mazz view (plain JSON; see the game's docs page)."""

from __future__ import annotations

from typing import TypedDict

from cardkit.core.views import ResultView

__all__ = ["SpaccView"]


class SpaccView(TypedDict):
    """A Spacc 'u Mazz view: the fields every game has (the same
    as :class:`cardkit.CommonView`, so it can be used as one) plus the game's own.

    ``phase`` is the state's phase (``"first_dealer"``, the dealing phases, ``"play"``,
    ``"over"``; listed on the game's page).
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
    hand_number: int
    pending: str | None
    known: list[list[str]]
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
