"""The typed shape of a Cutthroat Spades view (plain JSON; see the game's docs page)."""

from __future__ import annotations

from typing import TypedDict

from cardkit.core.views import ResultView

__all__ = ["CutthroatView", "BidView", "GameRecordView"]


class BidView(TypedDict):
    """A bid in the view: its ``kind`` (``"normal"``, ``"nil"``, ...) and the tricks it needs."""

    kind: str
    tricks: int


class GameRecordView(TypedDict):
    """A finished game of the tournament: its number, final points and winners."""

    game_number: int
    scores: list[int]
    winners: list[int]


class CutthroatView(TypedDict):
    """A Cutthroat Spades view: the fields every game has (the same
    as :class:`cardkit.CommonView`, so it can be used as one) plus the game's own.

    ``trick`` and ``last_trick`` are ``[[seat, "card"], ...]`` in play order;
    ``trick_winner`` is the seat whose card is winning the current trick so far
    (``None`` while the trick is empty).
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
    looked: list[bool]
    bids: list[BidView | None]
    tricks_won: list[int]
    trick: list[list[int | str]]
    trick_winner: int | None
    last_trick: list[list[int | str]]
    spades_broken: bool
    removed: list[str]
    bags: list[int]
    tokens: list[int]
    blind_six_used: list[int]
    game_number: int
    hand_number: int
    hands_played: int
    tie_continues: bool
    target: int
    wins_needed: int
    max_hands: int | None
    mercy: int | None
    games: list[GameRecordView]
    winners: list[int] | None
