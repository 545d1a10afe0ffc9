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

:func:`status` turns a seat's view into a :class:`Status`: a few sentences and small
tables (one row per seat) of plain text, cards as symbols and no escape codes. It asks
``rules.status(view, names)`` when a game provides it (every built-in game does) and
otherwise falls back to :func:`generic_status`. Any surface lays a status out its own way:
``cardkit play`` as aligned columns, a web page as an HTML table.
"""

from __future__ import annotations

import os
import re
from typing import Any, Iterable, Mapping, Sequence, TextIO, cast

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
    "Table",
    "Status",
    "status",
    "generic_status",
    "action_notes",
    "seat_label",
    "signed",
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
    """An action's notation with its card codes shown as cards: ``play 8♥ S`` for ``play 8H S``,
    and ``play Jester`` for an action whose ``card`` is Wizard's ``N`` (a lone letter is a
    card only where the action says it holds that card)."""
    text = _CARD_TOKEN.sub(lambda m: card_text(Card(m.group(1)), color), str(action))
    card = getattr(action, "card", None)
    if isinstance(card, Card) and card.suit is None and card.code in ("W", "N"):
        text = re.sub(rf"(?<!\S){card.code}(?!\S)", _SPECIAL_NAMES[card.code], text)
    return text


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


# ---------------------------------------------------------------------------- status


@attrs.frozen
class Table:
    """A small table of text for people: a ``title`` (may be empty), column ``header`` and
    ``rows`` (each as long as the header). Cells are plain text; numbers are right-aligned
    by whoever lays the table out (:attr:`numeric` names those columns)."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...] = ()

    def is_numeric(self, column: int) -> bool:
        """Whether ``column`` holds numbers (to align right)."""
        return column < len(self.numeric) and self.numeric[column]


@attrs.frozen
class Status:
    """What a seat's view shows of the table, for a person: ``sentences`` (the centre of
    the table, whose turn it is) and ``tables`` (per-seat facts: cards held, bids, scores)."""

    sentences: tuple[str, ...]
    tables: tuple[Table, ...] = ()


def seat_label(seat: int, viewer: int | None, names: Mapping[int, str] | None = None) -> str:
    """``Seat 2``, ``Seat 2 (you)``, or with a name ``Seat 2 (rule bot)``."""
    if seat == viewer:
        return f"Seat {seat} (you)"
    name = names.get(seat) if names else None
    return f"Seat {seat} ({name})" if name else f"Seat {seat}"


def signed(n: int) -> str:
    """``+30``, ``-10``, ``0``."""
    return f"{n:+d}" if n else "0"


def status(rules: Any, view: Mapping[str, Any], names: Mapping[int, str] | None = None) -> Status:
    """The :class:`Status` of ``view`` (``rules.status`` when the game has it).

    ``names`` labels other seats (``{1: "rule bot"}``); the viewing seat reads ``(you)``.
    """
    method = getattr(rules, "status", None)
    if callable(method):
        return cast(Status, method(view, names))
    return generic_status(view, names)


def action_notes(rules: Any, actions: Sequence[object], view: Mapping[str, Any]) -> tuple[str, ...]:
    """Lines that explain terse notation among ``actions`` (``bid 1f: one for fifty, ...``),
    from ``rules.action_notes`` when the game has it; else none."""
    method = getattr(rules, "action_notes", None)
    if callable(method):
        return tuple(str(n) for n in method(actions, view))
    return ()


def generic_status(view: Mapping[str, Any], names: Mapping[int, str] | None = None) -> Status:
    """A status for any game: whose turn it is, a table of the per-seat lists of the view
    (one row per seat), and the other fields as ``key: value`` sentences."""
    players = view.get("players")
    viewer = view.get("seat")
    skip = {"game", "legal_actions", "result", "seat", "players", "to_act", "hand"}
    columns: list[tuple[str, list[Any]]] = []
    sentences: list[str] = []
    to_act = view.get("to_act")
    if isinstance(to_act, int):
        sentences.append(f"{seat_label(to_act, viewer, names)} is to act.")
    for key, value in view.items():
        if key in skip or value is None or value == [] or value == ():
            continue
        label = key.replace("_", " ")
        if isinstance(players, int) and isinstance(value, list) and len(value) == players:
            columns.append((label, value))
        elif isinstance(value, str) and value in SUIT_SYMBOLS and ("suit" in key or "trump" in key):
            sentences.append(f"{label.capitalize()}: {SUIT_SYMBOLS[value]}.")
        else:
            sentences.append(f"{label.capitalize()}: {_view_value(value, False)}.")
    tables: tuple[Table, ...] = ()
    if columns and isinstance(players, int):
        rows = tuple(
            (seat_label(s, viewer, names), *(_view_value(col[s], False) for _, col in columns))
            for s in range(players)
        )
        numeric = (False, *(all(isinstance(v, int) for v in col) for _, col in columns))
        tables = (Table("", ("seat", *(label for label, _ in columns)), rows, numeric),)
    return Status(tuple(sentences), tables)
