"""The typed shape of a Wizard view (plain JSON; see the game's docs page)."""

from __future__ import annotations

from cardkit.core.views import CommonView

__all__ = ["WizardView"]


class WizardView(CommonView):
    """A Wizard view: the common fields plus the game's own.

    ``trick`` and ``last_trick`` are ``[[seat, "card"], ...]`` in play order;
    ``trick_winner`` is the seat whose card is winning the current trick so far
    (``None`` while the trick is empty).
    """

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
