"""Spacc 'u Mazz actions and their notation (see docs/games/spacc-u-mazz.md).

=========================  ==========================================================
``play 9S 9H``             play hand cards of one rank (rule 10)
``play 9S +up:9D``         ... adding face-up cards of the same rank (rules 10-11)
``up 7C 7D``               play face-up cards alone (rule 11, main stock gone)
``blind 2``                play the 2nd face-down card blind (rule 12; positions from 1)
``draw``                   draw from the current stock (rule 13)
``take``                   pick up the pile (rules 14-15)
``pass``                   nothing else is possible (rule 15)
``dump`` / ``keep``        after drawing the red joker with cards in hand (rule 20)
``remove up:KD``           red joker: remove a face-up card from the game (rules 19-20)
``remove down:2``          red joker: remove the 2nd face-down card from the game
``decline``                red joker: remove nothing
=========================  ==========================================================

Cards are written by value (two packs: ``9S`` may exist twice); ``Play`` keeps its cards
sorted, so ``play 9H 9S`` and ``play 9S 9H`` are the same action.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Union

import attrs

from cardkit.cards import Card, sort_cards
from cardkit.core.rules import ChanceAction
from cardkit.errors import IllegalActionError, NotationError
from cardkit.games.notation import parse_chance, parse_number, quoted

__all__ = [
    "Play",
    "Blind",
    "Draw",
    "Take",
    "Pass",
    "Dump",
    "Keep",
    "RemoveUp",
    "RemoveDown",
    "Decline",
    "SpaccAction",
    "ACTION_TYPES",
    "parse_action",
    "DRAW",
    "TAKE",
    "PASS",
    "DUMP",
    "KEEP",
    "DECLINE",
]


def _sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    # A hand-built Play of card codes must be refused here: sorting would fail obscurely.
    if isinstance(cards, (str, Card)) or not isinstance(cards, Iterable):
        raise IllegalActionError(f"a Play takes a tuple of cards, not {type(cards).__name__}")
    items = tuple(cards)
    for card in items:
        if not isinstance(card, Card):
            raise IllegalActionError(
                f"a Play takes Card values (e.g. Card.parse('9S')), not {type(card).__name__} "
                f"{quoted(repr(card))}"
            )
    return sort_cards(items)


@attrs.frozen
class Play:
    """Play ``hand`` cards plus ``up`` (face-up) cards, all of one rank (rules 10-11)."""

    hand: tuple[Card, ...] = attrs.field(converter=_sorted_cards)
    up: tuple[Card, ...] = attrs.field(converter=_sorted_cards, default=())

    def __str__(self) -> str:
        if not self.hand:
            return "up " + " ".join(c.code for c in self.up)
        text = "play " + " ".join(c.code for c in self.hand)
        if self.up:
            text += " " + " ".join("+up:" + c.code for c in self.up)
        return text


@attrs.frozen
class Blind:
    """Play face-down card number ``position`` (1 = first) blind (rule 12)."""

    position: int

    def __str__(self) -> str:
        return f"blind {self.position}"


@attrs.frozen
class Draw:
    """Draw the top card of the current stock (rule 13, rule 18)."""

    def __str__(self) -> str:
        return "draw"


@attrs.frozen
class Take:
    """Pick up the whole pile into the hand (rules 14-15)."""

    def __str__(self) -> str:
        return "take"


@attrs.frozen
class Pass:
    """Do nothing: only when no other action is possible (rule 15)."""

    def __str__(self) -> str:
        return "pass"


@attrs.frozen
class Dump:
    """After drawing the red joker: throw the whole hand onto the pile (rule 20)."""

    def __str__(self) -> str:
        return "dump"


@attrs.frozen
class Keep:
    """After drawing the red joker: keep the hand (rule 20)."""

    def __str__(self) -> str:
        return "keep"


@attrs.frozen
class RemoveUp:
    """Red joker: remove one face-up ``card`` of one's own from the game (rules 19-20)."""

    card: Card

    def __str__(self) -> str:
        return f"remove up:{self.card}"


@attrs.frozen
class RemoveDown:
    """Red joker: remove one's face-down card number ``position`` (1 = first) from the game."""

    position: int

    def __str__(self) -> str:
        return f"remove down:{self.position}"


@attrs.frozen
class Decline:
    """Red joker: remove nothing (rules 19-20)."""

    def __str__(self) -> str:
        return "decline"


SpaccAction = Union[Play, Blind, Draw, Take, Pass, Dump, Keep, RemoveUp, RemoveDown, Decline]
"""Any Spacc 'u Mazz seat action."""

ACTION_TYPES: tuple[type, ...] = (
    Play, Blind, Draw, Take, Pass, Dump, Keep, RemoveUp, RemoveDown, Decline,
)  # fmt: skip
"""Every action class (registered with serde through ``Rules.action_types``)."""

DRAW = Draw()
"""The ``draw`` action."""
TAKE = Take()
"""The ``take`` action (pick up the pile)."""
PASS = Pass()
"""The ``pass`` action."""
DUMP = Dump()
"""The ``dump`` action (red joker: throw the hand onto the pile)."""
KEEP = Keep()
"""The ``keep`` action (red joker: keep the hand)."""
DECLINE = Decline()
"""The ``decline`` action (red joker: remove nothing)."""

_SIMPLE: dict[str, SpaccAction] = {
    "draw": DRAW,
    "take": TAKE,
    "pass": PASS,
    "dump": DUMP,
    "keep": KEEP,
    "decline": DECLINE,
}

_PREFIX = re.compile(r"(\+?up|down)\s*:\s*", re.IGNORECASE)

_HELP = (
    "expected play CARDS [+up:CARD ...], up CARDS, blind N, draw, take, pass, dump, keep, "
    "remove up:CARD, remove down:N or decline"
)


def _card(text: str, whole: str) -> Card:
    card = Card.parse(text)
    if card.suit is None:
        raise NotationError(f"{quoted(whole)}: a joker is never played (it acts when revealed)")
    return card


def _position(text: str, whole: str) -> int:
    position = parse_number(text, whole, "a card position (1, 2, 3, ...)")
    if position < 1:
        raise NotationError(f"{quoted(whole)}: card positions start at 1")
    return position


def parse_action(text: str) -> SpaccAction | ChanceAction:
    """Parse the notation above (case-insensitive, extra spaces allowed) or chance notation."""
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, not {type(text).__name__}")
    norm = _PREFIX.sub(lambda m: m.group(1).lower() + ":", text.strip())
    parts = norm.split()
    if not parts:
        raise NotationError(f"empty action; {_HELP}")
    verb = parts[0].lower()
    args = parts[1:]
    simple = _SIMPLE.get(verb)
    if simple is not None:
        if args:
            raise NotationError(f"{quoted(text)}: {verb} takes no arguments")
        return simple
    if verb in ("pick", "shuffle"):
        return parse_chance(text)
    if verb == "play":
        if not args:
            raise NotationError(f"{quoted(text)}: name the cards to play, e.g. play 9S 9H")
        hand: list[Card] = []
        up: list[Card] = []
        for arg in args:
            low = arg.lower()
            if low.startswith("+up:") or low.startswith("up:"):
                up.append(_card(arg.split(":", 1)[1], text))
            else:
                hand.append(_card(arg, text))
        return Play(tuple(hand), tuple(up))
    if verb == "up":
        if not args:
            raise NotationError(f"{quoted(text)}: name the face-up cards to play, e.g. up 7C 7D")
        return Play((), tuple(_card(a.split(":", 1)[-1], text) for a in args))
    if verb == "blind":
        if len(args) != 1:
            raise NotationError(f"{quoted(text)}: expected blind N (N = 1 for the first face-down card)")
        return Blind(_position(args[0], text))
    if verb == "remove":
        arg = "".join(args)
        low = arg.lower()
        if low.startswith("up:"):
            return RemoveUp(_card(arg[3:], text))
        if low.startswith("down:"):
            return RemoveDown(_position(arg[5:], text))
        raise NotationError(f"{quoted(text)}: expected remove up:CARD or remove down:N")
    raise NotationError(f"{quoted(text)}: unknown action; {_HELP}")
