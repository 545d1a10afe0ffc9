"""Crazy Eights actions and their notation: ``play QS``, ``play 8H S``, ``draw``, ``pass``."""

from __future__ import annotations

import attrs

from cardkit.cards import SUITS, Card, Suit
from cardkit.core.rules import ChanceAction
from cardkit.errors import NotationError
from cardkit.games.notation import parse_chance, quoted

__all__ = ["Play", "Draw", "Pass", "CrazyEightsAction", "parse_action", "play_action"]


@attrs.frozen
class Play:
    """Play ``card``; ``suit`` is the suit named with an 8 (None otherwise, or when going out)."""

    card: Card
    suit: Suit | None = None

    def __str__(self) -> str:
        # str() of the fields, not .code: a hand-built action with a wrong field type must
        # still print, so that the error refusing it can name it
        if self.suit is None:
            return f"play {self.card}"
        return f"play {self.card} {self.suit}"


@attrs.frozen
class Draw:
    """Draw from the stock (or, facing a pending 2, draw the whole pending total)."""

    def __str__(self) -> str:
        return "draw"


@attrs.frozen
class Pass:
    """End the turn without playing (after drawing, or with an empty stock and nothing playable)."""

    def __str__(self) -> str:
        return "pass"


CrazyEightsAction = Play | Draw | Pass
"""Any Crazy Eights seat action."""

DRAW = Draw()
PASS = Pass()
_PLAYS: dict[tuple[Card, Suit | None], Play] = {}


def play_action(card: Card, suit: Suit | None = None) -> Play:
    """The (shared, immutable) ``Play`` for ``card`` and ``suit``."""
    key = (card, suit)
    action = _PLAYS.get(key)
    if action is None:
        action = _PLAYS[key] = Play(card, suit)
    return action


def parse_action(text: str) -> CrazyEightsAction | ChanceAction:
    """Parse ``play CARD [SUIT]`` (or just ``CARD [SUIT]``), ``draw``, ``pass``, or chance notation."""
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, not {type(text).__name__}")
    parts = text.split()
    if not parts:
        raise NotationError("empty action; expected play CARD [SUIT], draw or pass")
    verb = parts[0].lower()
    if verb == "draw" and len(parts) == 1:
        return DRAW
    if verb == "pass" and len(parts) == 1:
        return PASS
    if verb in ("pick", "shuffle"):
        return parse_chance(text)
    args = parts[1:] if verb == "play" else parts
    if not 1 <= len(args) <= 2:
        raise NotationError(f"{quoted(text)}: expected play CARD [SUIT], draw or pass")
    card = Card.parse(args[0])
    if card.suit is None:
        raise NotationError(f"{quoted(text)}: Crazy Eights uses no {card.code}")
    suit: Suit | None = None
    if len(args) == 2:
        letter = args[1].upper()
        if letter not in SUITS:
            raise NotationError(f"{quoted(text)}: {quoted(args[1])} is not a suit (S, H, D, C)")
        suit = SUITS[SUITS.index(letter)]
    return play_action(card, suit)
