"""The typed shape of a Wizard view (plain JSON; see the game's docs page)."""

from __future__ import annotations

from typing import TypedDict

from cardkit.core.views import ResultView

__all__ = ["WizardView"]


class WizardView(TypedDict):
    """A Wizard view: the fields every game has (the same
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
    round: int
    rounds: int
    turned_card: str | None
    trump: str | None
    bids: list[int | None]
    tricks_won: list[int]
    trick: list[list[int | str]]
    trick_winner: int | None
    suit_to_follow: str | None
    last_trick: list[list[int | str]]
    last_trick_winner: int | None
    forbid_even_bids: bool
    forbidden_bid: int | None
    round_points: list[list[int]]
