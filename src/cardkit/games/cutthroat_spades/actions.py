"""Actions of Cutthroat Spades and their text notation.

=====================  ======================================================
notation               action
=====================  ======================================================
``look``               :class:`Look` — look at your own hand (rule 5)
``bid N``              :class:`Bid` — a normal bid of ``N`` tricks (seen)
``bid nil``            :class:`SpecialBid` ``nil`` (seen)
``bid blind-nil``      :class:`SpecialBid` ``blind_nil`` (before looking)
``bid b6``             :class:`SpecialBid` ``blind_six`` (before looking)
``bid 1f``             :class:`SpecialBid` ``one_for_fifty`` (seen)
``bid 2f``             :class:`SpecialBid` ``two_for_forty`` (seen)
``bid moon``           :class:`SpecialBid` ``moon`` (seen)
``play QS``            :class:`Play` — play a card
=====================  ======================================================

Parsing is case-insensitive and tolerant of extra spaces; aliases are accepted on input:
``bn``/``blind_nil``/``blindnil``/``blind nil``, ``blind-six``/``blind_six``/``blind6``/``blind 6``,
``sm``/``shoot-the-moon``, ``10`` for ``T`` in cards.
"""

from __future__ import annotations

from typing import Final, Literal, Union

import attrs

from cardkit.cards import Card

__all__ = ["Look", "Bid", "SpecialBid", "Play", "SpecialKind", "BidKind", "SPECIAL_NOTATION", "Action", "CutthroatAction"]

SpecialKind = Literal["nil", "blind_nil", "blind_six", "one_for_fifty", "two_for_forty", "moon"]
"""The kinds of special bid (the view's ``bids[i].kind`` values other than ``"normal"``)."""

BidKind = Literal["normal", "nil", "blind_nil", "blind_six", "one_for_fifty", "two_for_forty", "moon"]
"""Every bid kind."""

SPECIAL_NOTATION: Final[dict[str, str]] = {
    "nil": "nil",
    "blind_nil": "blind-nil",
    "blind_six": "b6",
    "one_for_fifty": "1f",
    "two_for_forty": "2f",
    "moon": "moon",
}
"""Canonical notation word of each special bid kind."""


@attrs.frozen
class Look:
    """Look at your own hand during your bidding turn (``look``)."""

    def __str__(self) -> str:
        return "look"


@attrs.frozen
class Bid:
    """A normal bid of ``tricks`` (1..T) tricks, made after looking (``bid 4``)."""

    tricks: int

    def __str__(self) -> str:
        return f"bid {self.tricks}"


@attrs.frozen
class SpecialBid:
    """A special bid (``bid nil``, ``bid blind-nil``, ``bid b6``, ``bid 1f``, ``bid 2f``, ``bid moon``)."""

    kind: SpecialKind

    def __str__(self) -> str:
        # a hand-built SpecialBid of an unknown kind still prints (decide refuses it)
        return "bid " + SPECIAL_NOTATION.get(self.kind, repr(self.kind))


@attrs.frozen
class Play:
    """Play ``card`` to the current trick (``play QS``)."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card}"


Action = Union[Look, Bid, SpecialBid, Play]
"""Any Cutthroat Spades seat action."""

CutthroatAction = Action
"""Any Cutthroat Spades action (the same union as :data:`Action`, named like the other games')."""
