"""Plausible bad input: actions a seat might try and text a person might type.

The checker tries these against a game and expects each to be refused with a cardkit
error whose message names no card the seat may not see. They are *plausible* rather than
random: an action that was legal somewhere else in the game, a legal action with one field
changed, every card code after every verb the game uses, numbers, and garbage.
"""

from __future__ import annotations

from typing import Any, Final, Iterable, Sequence

import attrs

from cardkit.cards import Card
from cardkit.rng import Rng

__all__ = ["COMMON_VERBS", "GARBAGE_TEXTS", "action_mutations", "typed_texts"]

COMMON_VERBS: Final[tuple[str, ...]] = (
    "play", "draw", "pass", "take", "bid", "look", "blind", "nil", "trump", "remove",
    "dump", "keep", "decline", "pick", "shuffle",
)
"""Verbs tried with every card code, whether or not the game uses them."""

GARBAGE_TEXTS: Final[tuple[str, ...]] = (
    "", " ", "play", "play play", "play 1S", "play 11S", "play ZZ", "bid -1", "bid 99",
    "bid 1e3", "bid ²", "pick ²", "blind ²", "remove down:²", "remove down:-1", "remove up:QS",
    "play QS QS", "play QS,QS", "PLAY qs", "play\tQS", "play QS S S", "10", "1" * 5000,
    "\x00", "é", "🂡", "play 🂡", "{}", "[]", "null", "drop table",
)
"""Inputs that are wrong in shape rather than in rules."""


def _card_choices(value: Card, cards: Sequence[Card], rng: Rng, count: int) -> list[Card]:
    out = []
    for _ in range(count):
        card = cards[rng.below(len(cards))]
        if card is not value:
            out.append(card)
    return out


def _field_values(value: Any, name: str, same_type: Sequence[Any], cards: Sequence[Card], rng: Rng) -> list[Any]:
    if isinstance(value, Card):
        return list(_card_choices(value, cards, rng, 2))
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1]
    if isinstance(value, tuple) and all(isinstance(c, Card) for c in value):
        out: list[Any] = []
        if value:
            i = rng.below(len(value))
            out.extend(value[:i] + (card,) + value[i + 1:] for card in _card_choices(value[i], cards, rng, 1))
            out.append(value[:-1])
        out.extend(value + (card,) for card in _card_choices(cards[0], cards, rng, 1))
        return out
    # None, strings, enums: values this field has in other actions of the same type
    others = [getattr(a, name) for a in same_type]
    return [v for v in dict.fromkeys(others) if v != value]


def action_mutations(
    actions: Iterable[Any], pool: Iterable[Any], cards: Sequence[Card], rng: Rng
) -> list[Any]:
    """Each attrs action of ``actions`` with one field changed to a plausible other value.

    Cards become other cards of ``cards`` (picked with ``rng``), integers move by one,
    booleans flip, card tuples lose, gain or change a card, and other fields (``None``,
    strings, enums) take values the same field has in ``pool`` actions of the same type.
    Values a field's converter refuses are skipped. Duplicates are removed, order is stable.
    """
    by_type: dict[type, list[Any]] = {}
    for other in pool:
        by_type.setdefault(type(other), []).append(other)
    out: dict[Any, None] = {}
    for action in actions:
        cls = type(action)
        if not attrs.has(cls) or not cards:
            continue
        same_type = by_type.get(cls, [])
        for field in attrs.fields(cls):
            value = getattr(action, field.name)
            for new in _field_values(value, field.name, same_type, cards, rng):
                try:
                    mutated = attrs.evolve(action, **{field.name: new})
                except Exception:  # noqa: BLE001 - a converter refusing the value: not a probe
                    continue
                if mutated != action:
                    out.setdefault(mutated, None)
    return list(out)


def typed_texts(verbs: Iterable[str], cards: Iterable[Card], numbers: Iterable[int] = range(-1, 16)) -> list[str]:
    """Text a person could plausibly type: every card code alone and after every verb (in
    upper and lower case, with ``10`` for ten), every verb alone and with every number, and
    :data:`GARBAGE_TEXTS`. ``verbs`` are added to :data:`COMMON_VERBS`."""
    all_verbs = list(dict.fromkeys([*COMMON_VERBS, *verbs]))
    codes = sorted({c.code for c in cards})
    spelled = []
    for code in codes:
        spelled.append(code)
        spelled.append(code.lower())
        if code.startswith("T") and len(code) == 2:
            spelled.append("10" + code[1])
    texts: dict[str, None] = {}
    for code in spelled:
        texts[code] = None
    for verb in all_verbs:
        texts[verb] = None
        for code in spelled:
            texts[f"{verb} {code}"] = None
        for n in numbers:
            texts[f"{verb} {n}"] = None
    for garbage in GARBAGE_TEXTS:
        texts[garbage] = None
    return list(texts)
