"""Text for people: cards with suit symbols, hands, actions, views and event sentences.

Reusable by anything that talks to a person (the ``cardkit play`` command, a chat bot,
a web host's log panel)::

    >>> from cardkit import Card
    >>> from cardkit.render import card_text, hand_text
    >>> card_text(Card("TH")), hand_text([Card("QS"), Card("2C")])
    ('10♥', 'Q♠ 2♣')

Colour is opt-in (``color=True``: ANSI red for hearts and diamonds); a caller decides
whether its output is a terminal and whether ``NO_COLOR`` is set (:func:`use_color`).

:func:`describe` turns an event into one sentence: it asks ``rules.describe(event,
viewer)`` when a game provides it (every built-in game does) and otherwise falls back to
a generic sentence built from the event's class name and fields, so a user's own game
gets readable text without writing anything.
"""

from __future__ import annotations

import os
import re
from typing import Any, Iterable, Mapping, TextIO, cast

import attrs

from cardkit.cards import Card

__all__ = [
    "SUIT_SYMBOLS",
    "SUIT_NAMES",
    "card_text",
    "hand_text",
    "action_text",
    "seat_name",
    "describe",
    "generic_describe",
    "view_summary",
    "use_color",
    "symbols_to_codes",
    "count_text",
]

SUIT_SYMBOLS: Mapping[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
"""The suit symbol for each suit letter."""

SUIT_NAMES: Mapping[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
"""The English name of each suit letter (plural, as in "eight of spades")."""

_SPECIAL_NAMES: Mapping[str, str] = {
    "RJ": "red joker",
    "BJ": "black joker",
    "XJ": "third joker",
    "W": "Wizard",
    "N": "Jester",
}
_RED = "\x1b[31m"
_RESET = "\x1b[0m"
_CARD_TOKEN = re.compile(r"\b([2-9TJQKA][SHDC]|RJ|BJ|XJ)\b")


def use_color(stream: TextIO) -> bool:
    """Whether to colour text written to ``stream``: only on a terminal, never with ``NO_COLOR``."""
    if os.environ.get("NO_COLOR", "") != "":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty())


def card_text(card: Card, color: bool = False) -> str:
    """``Q♠``, ``10♥`` (ten is ``10``), ``Wizard``, ``red joker``; hearts and diamonds red if ``color``."""
    if card.suit is None:
        return _SPECIAL_NAMES.get(card.code, card.code)
    rank = "10" if card.code[0] == "T" else card.code[0]
    text = rank + SUIT_SYMBOLS[card.suit]
    if color and card.suit in ("H", "D"):
        return f"{_RED}{text}{_RESET}"
    return text


def hand_text(cards: Iterable[Card | str], color: bool = False) -> str:
    """Cards (or card codes, as in a view) separated by spaces; ``(none)`` when empty."""
    parts = [card_text(_card(c), color) for c in cards]
    return " ".join(parts) if parts else "(none)"


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


def action_text(action: object, color: bool = False) -> str:
    """An action's notation with its card codes shown as cards: ``play 8♥ S`` for ``play 8H S``."""
    return _CARD_TOKEN.sub(lambda m: card_text(Card(m.group(1)), color), str(action))


_SYMBOL_LETTERS = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}


def symbols_to_codes(text: str) -> str:
    """A person's ``play 10♥`` typed back into notation (``play 10H``), so that either works."""
    return "".join(_SYMBOL_LETTERS.get(ch, ch) for ch in text)


def seat_name(seat: int, viewer: int | None) -> str:
    """``Seat 2``, or ``Seat 2 (you)`` when the viewer is that seat."""
    return f"Seat {seat} (you)" if seat == viewer else f"Seat {seat}"


_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def count_text(n: int, noun: str, plural: str | None = None) -> str:
    """``one card``, ``five cards``, ``12 cards`` (words up to ten)."""
    word = _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)
    return f"{word} {noun if n == 1 else (plural or noun + 's')}"


def describe(rules: Any, event: object, viewer: int | None) -> str:
    """One sentence for ``event`` as ``viewer`` sees it (``rules.describe`` when the game has it)."""
    method = getattr(rules, "describe", None)
    if callable(method):
        return str(method(event, viewer))
    return generic_describe(event, viewer)


def _words(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()


def _value_text(value: object, viewer: int | None) -> str:
    if isinstance(value, Card):
        return card_text(value)
    if isinstance(value, (tuple, list)):
        if value and all(isinstance(v, Card) for v in value):
            return hand_text(value)
        return "[" + ", ".join(_value_text(v, viewer) for v in value) + "]"
    if value is None:
        return "hidden"
    if attrs.has(type(value)):
        return generic_describe(value, viewer).rstrip(".")
    return str(value)


def generic_describe(event: object, viewer: int | None = None) -> str:
    """A sentence from any attrs event: ``Card played: seat 2, card Q♠.``

    The fallback for games without ``describe``: the class name in words, then every
    field; a ``None`` field (what a redacted event hides) reads ``hidden``.
    """
    name = _words(type(event).__name__)
    if not attrs.has(type(event)):
        return f"{name.capitalize()}: {event}."
    fields = []
    for field in attrs.fields(cast(Any, type(event))):
        value = getattr(event, field.name)
        label = field.name.replace("_", " ")
        if field.name == "seat" and isinstance(value, int) and value == viewer:
            fields.append("seat " + str(value) + " (you)")
            continue
        fields.append(f"{label} {_value_text(value, viewer)}")
    return f"{name.capitalize()}: {', '.join(fields)}." if fields else f"{name.capitalize()}."


def view_summary(view: Mapping[str, Any], color: bool = False, width: int = 100) -> str:
    """A few readable lines from a seat's view (any game): the hand first, then the table.

    Card codes (alone or in lists) are shown as cards and suit letters under a key naming
    a suit or trump as suit symbols; empty, null and bookkeeping keys (``game``, ``seat``,
    ``to_act``, ``legal_actions``, ``result``) are left out. The table is ``key: value``
    pairs separated by ``;``, wrapped at ``width`` characters.
    """
    skip = {"game", "legal_actions", "result", "seat", "players", "to_act", "hand"}
    lines: list[str] = []
    if "hand" in view:
        hand = view["hand"]
        lines.append(f"Your hand: {_view_value(hand, color) if hand is not None else 'not looked at'}")
    pairs = []
    for key in view:
        value = view[key]
        if key in skip or value is None or value == [] or value == ():
            continue
        if isinstance(value, str) and value in SUIT_SYMBOLS and ("suit" in key or "trump" in key):
            text = SUIT_SYMBOLS[value]
        else:
            text = _view_value(value, color)
        pairs.append(f"{key.replace('_', ' ')}: {text}")
    # wrap between pairs only, so that a colour code is never cut
    line = ""
    for pair in pairs:
        if line and len(line) + 2 + len(pair) > width:
            lines.append(line + ";")
            line = pair
        else:
            line = f"{line}; {pair}" if line else pair
    if line:
        lines.append(line)
    return "\n".join(lines)


def _view_value(value: Any, color: bool) -> str:
    if isinstance(value, str) and _is_card(value):
        return card_text(Card.parse(value), color)
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, str) and _is_card(v) for v in value):
            return hand_text(value, color)
        return "[" + ", ".join(_view_value(v, color) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_view_value(v, color)}" for k, v in value.items()) + "}"
    if value is None:
        return "-"
    return str(value)


def _is_card(text: str) -> bool:
    return bool(_CARD_TOKEN.fullmatch(text)) or text in ("W", "N")
