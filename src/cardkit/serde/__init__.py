"""JSON for logs, actions, events and views — the only module that imports cattrs.

* A card is its code (``"QS"``); actions and events are objects tagged with
  ``"type"``: the snake_case name of their class (``CardPlayed`` -> ``"card_played"``).
  Type names are unique per game (the log names its game), plus the shared chance
  actions ``"shuffle"`` and ``"pick"``.
* A log is the envelope ``{format, format_version, game, rules_version, config, seed,
  auto_chance, entries: [{seq, actor, action, events}]}``; the actor of a chance entry
  is ``"chance"``. A per-seat export (:class:`~cardkit.core.log.SeatLog`) is
  ``{format: "cardkit-seat-log", format_version, game, rules_version, config, seat,
  entries}`` with ``action`` null where it is withheld; read it back with
  :func:`loads_seat_log` (:func:`loads` reads only full logs).
* Logs are machine-written, so loading is strict: unknown or duplicate keys, a
  ``format_version`` other than the integer 1, cards not in their canonical code
  (``"qs"``, ``"10S"``, ``"7D "``), numbers of more than 4,300 digits, ``NaN`` and
  nesting too deep for Python's parser are all :class:`~cardkit.errors.LogError`.

The package's modules, lowest first: ``_convert`` (the private converter), ``_build``
(record builders), ``_records`` (actions and events), ``_text`` (strict JSON text),
``_envelope`` (logs), ``_fast`` (the one-pass reader of what ``dumps`` wrote), ``_state``
(snapshots); each imports only those before it, and this module puts them together.
"""

from __future__ import annotations


from typing import Final

from cardkit.core.log import GameLog, SeatLog
from cardkit.serde._convert import AnyRules, type_name
from cardkit.serde._envelope import (
    config_to_json,
    dumps,
    log_from_json,
    log_to_json,
    seat_entries_from_json,
    seat_log_from_json,
    seat_log_to_json,
    to_json,
)
from cardkit.serde._fast import fused_loads, fused_loads_seat_log
from cardkit.serde._records import action_from_json, event_from_json
from cardkit.serde._state import dumps_state, loads_state
from cardkit.serde._text import MAX_DIGITS as _MAX_DIGITS
from cardkit.serde._text import parse_json

__all__ = [
    "dumps",
    "loads",
    "loads_seat_log",
    "seat_log_from_json",
    "seat_entries_from_json",
    "MAX_DIGITS",
    "parse_json",
    "to_json",
    "config_to_json",
    "log_to_json",
    "seat_log_to_json",
    "log_from_json",
    "action_from_json",
    "event_from_json",
    "type_name",
    "dumps_state",
    "loads_state",
]

MAX_DIGITS: Final = _MAX_DIGITS
"""The most digits a number in a log may have (Python's own int/str conversion limit)."""


def loads(text: str | bytes, rules: AnyRules | str | None = None) -> GameLog:
    """A :class:`GameLog` from JSON text; :class:`LogError` if malformed, truncated or of
    an unknown ``format_version``. Pass ``rules`` (a Rules object or a registered name)
    for a game that is not registered; a per-seat export is read by :func:`loads_seat_log`."""
    # what dumps wrote is read in one pass; anything else, and every error, here below
    decoded = _utf8(text)
    log = None if decoded is None else fused_loads(decoded, rules)
    return log if log is not None else log_from_json(parse_json(text), rules)


def _utf8(text: object) -> str | None:
    """``text`` as a str for the one-pass readers (None where only the generic path can
    say what is wrong with it)."""
    if type(text) is str:
        return text
    if isinstance(text, (bytes, bytearray)):
        try:
            return bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            return None
    return None


def loads_seat_log(text: str | bytes, rules: AnyRules | str | None = None) -> SeatLog:
    """A :class:`SeatLog` (``dumps(game.log_for(seat))``) from JSON text; :class:`LogError`
    if malformed. ``rules`` as for :func:`loads`."""
    decoded = _utf8(text)
    log = None if decoded is None else fused_loads_seat_log(decoded, rules)
    return log if log is not None else seat_log_from_json(parse_json(text), rules)
