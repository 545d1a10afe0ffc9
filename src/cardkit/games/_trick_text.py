"""Sentences about a trick in play, shared by the trick-taking games' status modules."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from cardkit.cards import Card
from cardkit.render import card_text

__all__ = ["trick_text"]


def trick_text(trick: Sequence[Sequence[Any]], viewer: int | None, names: Mapping[int, str] | None) -> str:
    """``seat 1 led 4♣, you played 6♣`` for ``[[1, "4C"], [0, "6C"]]``."""
    parts = []
    for k, (seat, code) in enumerate(trick):
        who = "you" if seat == viewer else f"seat {seat}"
        verb = "led" if k == 0 else "played"
        parts.append(f"{who} {verb} {card_text(Card.parse(str(code)))}")
    return ", ".join(parts)
