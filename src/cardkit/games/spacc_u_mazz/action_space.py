"""The fixed action index of Spacc 'u Mazz (``SpaccRules.action_space``).

A play is a multiset of hand cards plus a multiset of face-up cards, all of one rank. With
two packs a rank has eight cards (two of each suit), so a hand may hold any of 3**4 = 81
multisets of a rank; a player's face-up cards are the three dealt ones (nothing is ever
added), so at most 31 multisets of a rank with at most three cards. Every combination with
at least one card is listed: 13 ranks × (81 × 31 − 1) = 32,630 plays, a fixed size for
every config (the legal plays of a turn are a few of them).
"""

from __future__ import annotations

from itertools import product

from cardkit.cards import SUITS, Card, standard_deck
from cardkit.games.spacc_u_mazz.actions import (
    DECLINE,
    DRAW,
    DUMP,
    KEEP,
    PASS,
    TAKE,
    Blind,
    Play,
    RemoveDown,
    RemoveUp,
    SpaccAction,
)
from cardkit.games.spacc_u_mazz.config import SpaccConfig

__all__ = ["action_space", "FACE_DOWN", "FACE_UP", "COPIES"]

COPIES = 2
"""Copies of each card value (two packs)."""
FACE_UP = 3
"""Face-up cards dealt to each seat (the most a seat ever has)."""
FACE_DOWN = 3
"""Face-down cards dealt to each seat (positions 1..3)."""


def _multisets(cards: tuple[Card, ...], most: int) -> list[tuple[Card, ...]]:
    """Sub-multisets of ``COPIES`` of each of ``cards`` with at most ``most`` cards, fewer
    cards first, then in card order."""
    out = []
    for counts in product(range(COPIES + 1), repeat=len(cards)):
        if sum(counts) <= most:
            out.append(tuple(c for c, k in zip(cards, counts) for _ in range(k)))
    out.sort(key=lambda m: (len(m), [c.sort_key for c in m]))
    return out


def _build() -> tuple[SpaccAction, ...]:
    deck = standard_deck()
    plays: list[SpaccAction] = []
    for rank in range(2, 15):
        suited = tuple(Card.parse(f"{'23456789TJQKA'[rank - 2]}{s}") for s in SUITS)
        hands = _multisets(suited, COPIES * len(SUITS))
        ups = _multisets(suited, FACE_UP)
        plays.extend(Play(h, u) for h in hands for u in ups if h or u)
    tail: list[SpaccAction] = [Blind(i) for i in range(1, FACE_DOWN + 1)]
    tail += [DRAW, TAKE, PASS, DUMP, KEEP]
    tail += [RemoveUp(c) for c in deck]
    tail += [RemoveDown(i) for i in range(1, FACE_DOWN + 1)]
    tail.append(DECLINE)
    return tuple(plays) + tuple(tail)


_SPACE: tuple[SpaccAction, ...] | None = None


def action_space(config: SpaccConfig) -> tuple[SpaccAction, ...]:
    """32,694 actions for every config: the plays (rank 2..A; per rank fewer cards first),
    ``blind 1..3``, ``draw``, ``take``, ``pass``, ``dump``, ``keep``, ``remove up:C`` for the
    52 values, ``remove down:1..3``, ``decline``. Built once, on first use."""
    global _SPACE
    if _SPACE is None:
        _SPACE = _build()
    return _SPACE
