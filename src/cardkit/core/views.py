"""The typed shape of views: the fields every game's view has, as TypedDicts.

A view is plain JSON-compatible data (a ``dict``); these classes only describe it to a
type checker. Every built-in game's view type (``CrazyEightsView``, ``WizardView``, ...)
declares the fields of :class:`CommonView` with the same types, and TypedDicts match by
their fields: host code typed against ``CommonView`` works for every game, and code typed
against one game's view gets its own fields checked too.
"""

from __future__ import annotations

from typing import TypedDict

__all__ = ["CommonView", "ResultView", "TurnViewFields", "COMMON_VIEW_FIELDS"]


class ResultView(TypedDict):
    """A finished game's result in a view: points per seat and the winning seats."""

    scores: list[int]
    winners: list[int]


class TurnViewFields(TypedDict):
    """The two view fields the shared helper ``turn_view_fields`` computes."""

    legal_actions: list[str]
    result: ResultView | None


class CommonView(TypedDict):
    """The fields of every game's view.

    ``game`` the registry name; ``players`` the number of seats; ``seat`` the viewer
    (``None``: a spectator); ``phase`` the game's phase (its values are on each game's
    page; every game says ``"over"`` once it has ended); ``to_act`` the seat to act,
    ``-1`` at a pending chance node, ``None`` once over; ``dealer`` the current dealer
    (``None`` before the first one is chosen); ``scores`` points per seat, as
    ``game.scores``; ``hand`` the viewer's cards as codes (``None`` for a spectator, and
    in Cutthroat Spades before the viewer looked); ``hand_sizes`` cards held per seat;
    ``legal_actions`` the viewer's legal actions as notation (empty unless the viewer
    is to act); ``result`` the result once over, else ``None``.
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


COMMON_VIEW_FIELDS: tuple[str, ...] = tuple(CommonView.__annotations__)
"""The names of the fields every view has, in the order of :class:`CommonView`."""
