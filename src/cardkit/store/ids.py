"""The one rule for match ids, applied by every backend before a database sees an id.

A match id is a string of 1 to :data:`MAX_MATCH_ID` characters with no control character
(Unicode category Cc: U+0000..U+001F, U+007F..U+009F) and no lone surrogate (U+D800..U+DFFF,
which is no text: it cannot be encoded as UTF-8, so SQLite and PostgreSQL could not store
it while ``memory:`` could). Anything else is a :class:`~cardkit.store.MatchIdError`.
"""

from __future__ import annotations

import re
from typing import Final

from cardkit.store.errors import MatchIdError

__all__ = ["MAX_MATCH_ID", "check_match_id"]

MAX_MATCH_ID: Final = 200
"""The longest match id, in characters."""

_FORBIDDEN: Final = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def check_match_id(value: object) -> str:
    """``value`` if it is a valid match id, else :class:`~cardkit.store.MatchIdError`.

    The message shows no more than the start of the id, escaped (it may come from a client).
    """
    if not isinstance(value, str):
        raise MatchIdError(f"a match id is a string, not {type(value).__name__}", "match_id", None)
    if not value:
        raise MatchIdError("a match id cannot be empty", "match_id", value)
    if len(value) > MAX_MATCH_ID:
        raise MatchIdError(
            f"a match id has at most {MAX_MATCH_ID} characters, not {len(value)}", "match_id", None
        )
    bad = _FORBIDDEN.search(value)
    if bad is not None:
        kind = "a lone surrogate" if bad.group() >= "\ud800" else "a control character"
        raise MatchIdError(
            f"a match id cannot hold {kind} ({bad.group()!r} at index {bad.start()})", "match_id", None
        )
    return value
