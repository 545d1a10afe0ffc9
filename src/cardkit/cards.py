"""Cards and their notation.

A :class:`Card` is an interned, immutable value: ``Card("QS") is Card.parse("qs")``.
Its text form is its *code*: rank ``2-9 T J Q K A`` followed by suit ``S H D C``
(``"QS"``, ``"TH"``), or one of the special codes

======  ==========================================================
``RJ``  red joker (Cutthroat Spades: the Big joker)
``BJ``  black joker (Cutthroat Spades: the Little joker)
``XJ``  a third joker (Cutthroat Spades, five players, three jokers)
``W``   Wizard
``N``   Jester (Wizard)
======  ==========================================================

Parsing is case-insensitive and accepts ``10`` for ``T``. Output is always canonical.
In JSON a card is its code. Several decks simply repeat values: zones are multisets.
"""

from __future__ import annotations

from enum import IntEnum
from operator import attrgetter
from typing import Callable, Final, Literal, Sequence

from cardkit.errors import NotationError

__all__ = [
    "Suit",
    "SUITS",
    "Rank",
    "RANK_CHARS",
    "SPECIAL_CODES",
    "Card",
    "standard_deck",
    "sort_cards",
    "parse_cards",
    "format_cards",
]

Suit = Literal["S", "H", "D", "C"]
"""A suit letter: spades, hearts, diamonds, clubs."""

SUITS: Final[tuple[Suit, ...]] = ("S", "H", "D", "C")
"""The four suits in the library's display order."""


class Rank(IntEnum):
    """Ranks of suited cards as integers, ace high (``Card.rank`` equals these)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14


RANK_CHARS: Final[str] = "23456789TJQKA"
"""Rank code characters, index ``rank - 2``."""

SPECIAL_CODES: Final[tuple[str, ...]] = ("RJ", "BJ", "XJ", "W", "N")
"""Codes of the cards that have no suit and no ordinary rank (``rank`` 0, ``suit`` None)."""

_SUIT_ORDER: Final[dict[str, int]] = {"S": 0, "H": 1, "D": 2, "C": 3}


class Card:
    """One playing card, identified by its code (see the module docs).

    Instances are interned, so equal cards are the same object and comparison is by
    identity. ``rank`` is 2..14 (ace high) for suited cards and 0 for special cards;
    ``suit`` is the suit letter, or ``None`` for special cards.
    """

    __slots__ = ("code", "rank", "suit", "sort_key")

    code: str
    rank: int
    suit: Suit | None
    sort_key: int

    _interned: dict[str, Card] = {}

    def __new__(cls, code: str) -> Card:
        try:
            return cls._interned[code]
        except KeyError:
            raise NotationError(
                f"{code!r} is not a canonical card code; use Card.parse for free-form text"
            ) from None

    @classmethod
    def _make(cls, code: str, rank: int, suit: Suit | None, sort_key: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "code", code)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "sort_key", sort_key)
        cls._interned[code] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    @property
    def is_special(self) -> bool:
        """True for jokers, Wizards and Jesters (cards without a suit)."""
        return self.suit is None

    @property
    def rank_char(self) -> str:
        """The rank's code character (``"T"`` for a ten); the whole code for specials."""
        return self.code if self.suit is None else self.code[0]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a card from text: case-insensitive, ``10`` accepted for ``T``.

        Raises :class:`~cardkit.errors.NotationError` if the text is not a card.
        """
        if not isinstance(text, str):
            raise NotationError(f"a card must be text, not {type(text).__name__}")
        norm = text.strip().upper()
        if norm.startswith("10"):
            norm = "T" + norm[2:]
        card = cls._interned.get(norm)
        if card is None:
            raise NotationError(
                f"{text!r} is not a card: expected rank 2-9/T/J/Q/K/A (or 10) and suit "
                f"S/H/D/C, or one of {', '.join(SPECIAL_CODES)}",
                text,
            )
        return card

    @classmethod
    def all(cls) -> tuple[Card, ...]:
        """Every distinct card value the library knows, in sort order."""
        return tuple(sorted(cls._interned.values(), key=_key))


# A C-level key (sort_cards runs on many hot paths): the same order as card.sort_key.
_key: Callable[[Card], int] = attrgetter("sort_key")


def _build_cards() -> None:
    for i, code in enumerate(SPECIAL_CODES):
        Card._make(code, 0, None, i)
    for suit in SUITS:
        for rank in range(2, 15):
            code = RANK_CHARS[rank - 2] + suit
            Card._make(code, rank, suit, 100 + _SUIT_ORDER[suit] * 100 + rank)


_build_cards()


_DECKS: dict[int, tuple[Card, ...]] = {}


def standard_deck(copies: int = 1) -> tuple[Card, ...]:
    """The 52 suited cards in display order (S, H, D, C; 2..A), repeated ``copies`` times."""
    deck = _DECKS.get(copies)
    if deck is None:
        one = tuple(Card(RANK_CHARS[r - 2] + s) for s in SUITS for r in range(2, 15))
        deck = _DECKS[copies] = one * copies
    return deck


def sort_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Cards in display order: specials (RJ BJ XJ W N), then S, H, D, C, each by rank 2..A."""
    return tuple(sorted(cards, key=_key))


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse whitespace- or comma-separated cards (``"QS 10h, 2c"``)."""
    return tuple(Card.parse(t) for t in text.replace(",", " ").split())


def format_cards(cards: Sequence[Card]) -> str:
    """Cards as space-separated codes."""
    return " ".join(c.code for c in cards)
