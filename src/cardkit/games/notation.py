"""Reading numbers and chance actions out of action text typed by a person.

Every built-in game's ``parse_action`` reads its numbers here, so that each accepts the
same thing: one to six ASCII digits. ``str.isdigit`` and ``int`` alone would let through
superscripts (``"²"``), other scripts' digits (``"٣"``), signs, underscores and numbers
too long for ``int`` to convert; each of those is a :class:`~cardkit.errors.NotationError`
here, never a bare ``ValueError`` or a silently different number.
"""

from __future__ import annotations

from typing import Final

from cardkit.core.rules import ChanceAction, parse_chance_action
from cardkit.errors import NotationError

__all__ = ["MAX_DIGITS", "parse_number", "parse_chance", "quoted"]

MAX_DIGITS: Final = 6
"""The most digits a number in action text may have (no game needs more than two)."""

_QUOTE_LIMIT: Final = 40


def quoted(text: str) -> str:
    """``repr(text)``, shortened to about 40 characters so an error message stays one line."""
    if len(text) <= _QUOTE_LIMIT:
        return repr(text)
    return repr(text[:_QUOTE_LIMIT]) + f"... ({len(text)} characters)"


def parse_number(word: str, whole: str, what: str) -> int:
    """``word`` as a non-negative int; :class:`NotationError` naming ``what`` (e.g. "a bid")
    and the ``whole`` action text unless ``word`` is 1 to :data:`MAX_DIGITS` ASCII digits."""
    if 0 < len(word) <= MAX_DIGITS and word.isascii() and word.isdigit():
        return int(word)
    if word.isascii() and word.isdigit():
        raise NotationError(f"{quoted(whole)}: {what} has at most {MAX_DIGITS} digits")
    raise NotationError(
        f"{quoted(whole)}: {what} is a whole number written with the digits 0-9, not {quoted(word)}"
    )


def parse_chance(text: str) -> ChanceAction:
    """``pick N`` or ``shuffle CARDS`` (see :func:`cardkit.core.rules.parse_chance_action`),
    with ``N`` read by :func:`parse_number`."""
    parts = text.split()
    if parts and parts[0].lower() == "pick":
        if len(parts) != 2:
            raise NotationError(f"{quoted(text)}: expected pick N (N from 0)")
        parse_number(parts[1], text, "the number picked")
    return parse_chance_action(text)
