"""Strict JSON text: duplicate keys, oversized numbers and ``NaN`` are :class:`LogError`."""

from __future__ import annotations

import json
import sys
from typing import Any, Final

from cardkit.errors import LogError
from cardkit.serde._convert import _bounded

MAX_DIGITS: Final = 4300
"""The most digits a number in a log may have (Python's own int/str conversion limit)."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise LogError(f"the key {_bounded(key)} appears twice in one JSON object")
            seen.add(key)
    return out


def _parse_int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise LogError(f"a number of {len(text)} digits (at most {MAX_DIGITS})")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_DIGITS:
        raise LogError(f"a number of {len(text)} characters (at most {MAX_DIGITS})")
    return float(text)


def _parse_constant(text: str) -> Any:
    raise LogError(f"{text} is not a JSON number")


def parse_json(text: str | bytes) -> Any:
    """Strict JSON (see the module docs); :class:`LogError` for anything else."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LogError(f"the log is not UTF-8 text: {exc}") from None
    if not isinstance(text, str):
        raise LogError(f"a log is JSON text, not {type(text).__name__}")
    # Python's own limit on digits, when it is on and no looser than ours, does the
    # check in C (a Python hook per number cost a tenth of loads).
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    try:
        return json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_int=None if 0 < limit <= MAX_DIGITS else _parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except LogError:
        raise
    except (ValueError, TypeError, RecursionError) as exc:
        if "integer string conversion" in str(exc):
            raise LogError(f"a number of more than {limit} digits (at most {MAX_DIGITS})") from None
        raise LogError(f"the log is not valid JSON: {exc}") from None
