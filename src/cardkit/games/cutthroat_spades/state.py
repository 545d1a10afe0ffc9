"""The immutable state of a Cutthroat Spades tournament."""

from __future__ import annotations

from typing import Literal

import attrs

from cardkit.cards import Card
from cardkit.core.records import maker, replacer
from cardkit.games.cutthroat_spades.actions import BidKind
from cardkit.games.cutthroat_spades.config import CutthroatConfig

__all__ = ["BidInfo", "GameRecord", "CutthroatState", "Phase", "make_state", "replace"]

Phase = Literal["pick", "deal", "bid", "play", "over"]
"""``pick``: chance picks the first dealer; ``deal``: chance shuffles the next hand; ``bid``; ``play``; ``over``."""


@attrs.frozen
class BidInfo:
    """A bid made: its kind and the tricks it needs (nil 0, B6 6, 1F 1, 2F 2, SM the threshold)."""

    kind: BidKind
    tricks: int


@attrs.frozen
class GameRecord:
    """A finished game of the tournament: its number, final scores and winners."""

    game_number: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]


@attrs.frozen(weakref_slot=False)  # no __weakref__ slot: see cardkit.core.records
class CutthroatState:
    """Everything about a tournament in progress (host side; views are per seat).

    ``phase``: ``"pick"`` (first dealer), ``"deal"`` (shuffle pending), ``"bid"``,
    ``"play"``, ``"over"``. ``turn`` is the seat to act while bidding or playing.
    ``hands`` are kept in display order. ``won`` holds each seat's captured cards this
    hand (they stay there after the hand until the next deal). ``deck`` holds the layout's
    cards before the first deal only.
    """

    config: CutthroatConfig
    phase: Phase
    dealer: int
    turn: int
    deck: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]
    looked: tuple[bool, ...]
    bids: tuple[BidInfo | None, ...]
    trick: tuple[tuple[int, Card], ...]
    trick_count: int
    tricks_won: tuple[int, ...]
    won: tuple[tuple[Card, ...], ...]
    last_trick: tuple[tuple[int, Card], ...]
    spades_broken: bool
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    tokens: tuple[int, ...]
    blind_six_used: tuple[int, ...]
    game_number: int
    hands_in_game: int
    hands_played: int
    overtime: bool
    history: tuple[GameRecord, ...]
    winners: tuple[int, ...]


make_state = maker(CutthroatState)
"""``make_state(...)``: ``CutthroatState(...)`` from every field in order, built cheaply."""
replace = replacer(CutthroatState)
"""``replace(state, field=value, ...)``: what ``attrs.evolve(state, ...)`` returns, built cheaply."""

