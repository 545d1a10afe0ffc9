"""Finding card codes in text and data, and comparing them with what a viewer may see.

The tokenizer (:func:`card_tokens`) is what the checker uses to decide whether a string
names a card. It is documented here because its limits are the checker's limits:

* A *token* is a maximal run of ASCII letters and digits: ``"you hold QS."`` gives
  ``you``, ``hold``, ``QS``; ``"qs_count"`` gives ``qs``, ``count``; ``"down:2"`` gives
  ``down``, ``2``. Cards glued to other letters (``"QS8H"``) are not found.
* A token names a card when, upper-cased, it is the code of a card **of this game's deck**
  (``deck``), with a leading ``10`` read as ``T`` (``"10s"`` is ``TS``). So the one-letter
  Wizard codes ``W`` and ``N`` and the jokers ``RJ``/``BJ``/``XJ`` count only in games that
  have those cards.
* English words that are also card codes would flag every sentence ("such as"), so a token
  that is not written in upper case is ignored when its lower-case form is one of
  :data:`ENGLISH_WORDS` (``as``, ``ad``, ``ah``, ``ac``, ``n``, ``w``). ``"AS"`` and ``"W"``
  count; ``"as"``, ``"As"`` and ``"w"`` do not. A game that writes the ace of spades in lower
  case (``"as"``) is therefore not checked for that card in lower case.

Counting is by multiset: a seat that may see one copy of ``QS`` must not be shown two
(see :func:`excess_mentions`).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Final, Iterable, Mapping

from cardkit.cards import Card

__all__ = [
    "CardScanner",
    "ENGLISH_WORDS",
    "card_tokens",
    "excess_mentions",
    "format_excess",
]

ENGLISH_WORDS: Final[frozenset[str]] = frozenset({"as", "ad", "ah", "ac", "n", "w"})
"""Lower-case words that are also card codes; ignored unless written in upper case."""

_TOKEN = re.compile(r"[A-Za-z0-9]+")
# Only tokens shaped like a card code can name a card: finding just those is the same
# result as tokenizing everything and looking each token up, and several times faster.
_CARD_TOKEN = re.compile(
    r"(?<![A-Za-z0-9])(?:10[SHDC]|[2-9TJQKA][SHDC]|[RBX]J|[WN])(?![A-Za-z0-9])", re.IGNORECASE
)


def _token_card(token: str, codes: Mapping[str, Card]) -> Card | None:
    upper = token.upper()
    if upper.startswith("10") and len(upper) > 2:
        upper = "T" + upper[2:]
    card = codes.get(upper)
    if card is None:
        return None
    if token != token.upper() and token.lower() in ENGLISH_WORDS:
        return None
    return card


def _codes(deck: Iterable[Card]) -> dict[str, Card]:
    return {card.code: card for card in deck}


def card_tokens(text: str, deck: Iterable[Card]) -> Counter[Card]:
    """How many times ``text`` names each card of ``deck`` (see the module docs for the rules)."""
    return _tokens(text, _codes(deck))


def _tokens(text: str, codes: Mapping[str, Card]) -> Counter[Card]:
    found: Counter[Card] = Counter()
    for token in _CARD_TOKEN.findall(text):
        card = _token_card(token, codes)
        if card is not None:
            found[card] = found.get(card, 0) + 1
    return found


class CardScanner:
    """A reusable :func:`excess_mentions` for one deck (builds its code table once)."""

    def __init__(self, deck: Iterable[Card]) -> None:
        """Scan for the cards of ``deck``."""
        self.codes = _codes(deck)

    def tokens(self, text: str) -> Counter[Card]:
        """:func:`card_tokens` of ``text`` for this deck."""
        return _tokens(text, self.codes)

    def excess(self, data: Any, allowed: Mapping[Card, int]) -> Counter[Card]:
        """:func:`excess_mentions` of ``data`` for this deck."""
        codes = self.codes
        if isinstance(data, str):  # the common case (an error message): no walk needed
            found = _tokens(data, codes)
            return Counter({c: n - allowed.get(c, 0) for c, n in found.items() if n > allowed.get(c, 0)})
        # the most mentions of each card in any one place (a string, a list, a dict's keys)
        most: dict[Card, int] = {}
        search = _CARD_TOKEN.search

        def text(item: str) -> Card | None:
            # notes the string's mentions; returns the card if it is exactly one card code
            card = codes.get(item)
            if card is not None:
                if card not in most:
                    most[card] = 1
                return card
            if not search(item):  # most strings: words, names, numbers
                return None
            found = _tokens(item, codes)
            for card, n in found.items():
                if n > most.get(card, 0):
                    most[card] = n
            if len(found) == 1:
                (card, n), = found.items()
                if n == 1 and _TOKEN.fullmatch(item.strip()):
                    return card
            return None

        def group(singles: list[Card]) -> None:
            if len(singles) > 1:
                for card, n in Counter(singles).items():
                    if n > most.get(card, 0):
                        most[card] = n

        stack: list[Any] = [data]
        while stack:
            item = stack.pop()
            kind = type(item)
            if kind is str:
                text(item)
            elif kind is dict or isinstance(item, Mapping):
                singles = []
                for key, value in item.items():
                    if type(key) is str:
                        card = text(key)
                        if card is not None:
                            singles.append(card)
                    if type(value) in _CONTAINERS or isinstance(value, str):
                        stack.append(value)
                group(singles)
            elif kind is list or kind is tuple:
                singles = []
                for value in item:
                    if type(value) is str:
                        card = text(value)
                        if card is not None:
                            singles.append(card)
                    elif type(value) in _CONTAINERS:
                        stack.append(value)
                group(singles)
        return Counter({c: n - allowed.get(c, 0) for c, n in most.items() if n > allowed.get(c, 0)})


_CONTAINERS: Final = (dict, list, tuple)


def excess_mentions(data: Any, allowed: Mapping[Card, int], deck: Iterable[Card]) -> Counter[Card]:
    """Cards that JSON-compatible ``data`` names more often than ``allowed`` permits.

    Every string and every dict key is tokenized (:func:`card_tokens`). A card is in excess
    when one string names it more times than ``allowed[card]``, or when one list (or the
    keys of one dict) holds more items that are exactly that card than ``allowed[card]``
    (a hand shown as ``["QS", "QS"]`` to a seat that may see one copy). A card with
    ``allowed[card] == 0`` is in excess wherever it is named. The same visible card named in
    several places (a hand and the legal actions) is not an excess. For many calls with one
    deck use :class:`CardScanner`.
    """
    return CardScanner(deck).excess(data, allowed)


def format_excess(excess: Counter[Card]) -> str:
    """``excess`` as readable text, e.g. ``QS, 2 x TH`` (sorted, deterministic)."""
    return ", ".join(
        card.code if n == 1 else f"{n} x {card.code}"
        for card, n in sorted(excess.items(), key=lambda item: item[0].code)
    )
