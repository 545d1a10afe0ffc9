"""Errors of the stores, all :class:`~cardkit.errors.CardkitError` subclasses.

:class:`~cardkit.errors.ConcurrencyError` (a lost race) lives in :mod:`cardkit.errors`
and is re-exported from :mod:`cardkit.store`.
"""

from __future__ import annotations

from cardkit.errors import CardkitError

__all__ = ["StoreError", "UnknownMatchError", "MatchExistsError", "SchemaVersionError"]


class StoreError(CardkitError):
    """A store cannot do what was asked (its database refuses, is locked, or is not a store)."""


class UnknownMatchError(StoreError, LookupError):
    """No match is stored under that id."""


class MatchExistsError(StoreError, ValueError):
    """A match is already stored under the id given to ``create``."""


class SchemaVersionError(StoreError):
    """The database was written by a newer cardkit (a newer schema version) than this one."""
