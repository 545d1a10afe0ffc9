"""Errors of the stores, all :class:`~cardkit.errors.CardkitError` subclasses.

:class:`~cardkit.errors.ConcurrencyError` (a lost race) lives in :mod:`cardkit.errors`
and is re-exported from :mod:`cardkit.store`.
"""

from __future__ import annotations

from cardkit.errors import CardkitError, ConfigError, LogError

__all__ = [
    "StoreError",
    "UnknownMatchError",
    "MatchExistsError",
    "MatchIdError",
    "SchemaVersionError",
    "BrokenMatchError",
]


class StoreError(CardkitError):
    """A store cannot do what was asked (its database refuses, is locked, or is not a store)."""


class UnknownMatchError(StoreError, LookupError):
    """No match is stored under that id."""


class MatchExistsError(StoreError, ValueError):
    """A match is already stored under the id given to ``create``."""


class SchemaVersionError(StoreError):
    """The database was written by a newer cardkit (a newer schema version) than this one."""


class MatchIdError(UnknownMatchError, ConfigError):
    """A match id that breaks the id rule (docs/store.md): not a string, empty, longer than
    200 characters, or holding a control character or a lone surrogate.

    Every backend applies the same rule before the database sees the id. It is a
    :class:`~cardkit.errors.ConfigError` (a ``ValueError``: bad input to ``create``) and an
    :class:`UnknownMatchError` (no match can be stored under such an id, so a lookup with
    it finds none).
    """


class BrokenMatchError(StoreError, LogError):
    """A stored match fails its integrity check: a row no longer hashes to what its hash
    chain says (edited by hand, damaged), or a snapshot is not the one its chain vouches for.

    ``match_id`` is the match and ``seq`` the first entry found wrong (``None`` when it is
    the match's header: its game, config, seed; a snapshot's seq is the number of entries
    it stands for). The message names the seq and the kind of row, never a row's content.
    Nothing is written on top of a broken match; ``cardkit store URL verify`` re-checks
    whole matches.
    """

    def __init__(self, match_id: str, seq: int | None, message: str) -> None:
        super().__init__(message, seq=seq)
        self.match_id = match_id
