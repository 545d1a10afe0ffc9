"""The cardkit exception hierarchy.

Every error raised for bad input is one of these, with a sentence a person can read.
This module imports nothing from cardkit.
"""

from __future__ import annotations

__all__ = [
    "CardkitError",
    "ConfigError",
    "NotationError",
    "SeatError",
    "IllegalActionError",
    "NotYourTurnError",
    "GameOverError",
    "UnknownGameError",
    "LogError",
    "ReplayMismatchError",
    "ResampleError",
]


class CardkitError(Exception):
    """Root of every error cardkit raises on purpose."""


class ConfigError(CardkitError, ValueError):
    """A game option is unknown, out of range, or does not apply to the configuration.

    ``option`` names the option at fault (``"players"`` for the player count, ``None``
    when no single option is) and ``value`` is the value that was refused (``None`` when
    there is none, e.g. an option that does not apply).
    """

    def __init__(self, message: str, option: str | None = None, value: object = None) -> None:
        super().__init__(message)
        self.option = option
        self.value = value


class NotationError(CardkitError, ValueError):
    """Text (a card, an action) that does not parse.

    ``text`` is the whole text that was refused when known (``Game.play_text`` and
    ``Card.parse`` always fill it in), else ``None``.
    """

    def __init__(self, message: str, text: str | None = None) -> None:
        super().__init__(message)
        self.text = text


class SeatError(CardkitError, ValueError):
    """A seat number outside ``0..players-1``."""


class IllegalActionError(CardkitError, ValueError):
    """An action the rules do not allow in this state.

    ``reason`` is the human sentence, ``action`` the offending action (or ``None``) and
    ``seat`` the seat that tried it (``None`` when unknown, ``-1`` for chance).
    """

    def __init__(self, reason: str, action: object = None, seat: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.action = action
        self.seat = seat


class NotYourTurnError(IllegalActionError):
    """A seat tried to act while another seat (or chance) is to act."""


class GameOverError(IllegalActionError):
    """An action was played after the game ended."""


class UnknownGameError(CardkitError, LookupError):
    """No game is registered under that name."""


class LogError(CardkitError, ValueError):
    """A log that is malformed, truncated, or of an unknown or incompatible version.

    ``seq`` is the entry at fault when one is (else ``None``).
    """

    def __init__(self, message: str, seq: int | None = None) -> None:
        super().__init__(message)
        self.seq = seq


class ReplayMismatchError(LogError):
    """Re-deciding a logged action gave other events than the log records."""


class ResampleError(CardkitError, ValueError):
    """A game's rules cannot be resampled for a bot (no ``with_zones`` hook), or a hook
    broke the zone contract."""


class ConcurrencyError(CardkitError):
    """Another writer appended to the match first: the entries were not written (reload, retry)."""


__all__.append("ConcurrencyError")
