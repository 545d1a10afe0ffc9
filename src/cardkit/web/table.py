"""What the page draws besides the raw view: the table as text, sentences, bot levels, hints.

Everything here is built from what one audience may see: the seat's own view
(``game.view(seat)``), the seat's redacted log entries and the seat's own
:class:`~cardkit.core.game.SeatState` (for a hint). A spectator gets the public view.
The page lays it out; this module only words it (the same ``rules.status`` and
``rules.describe`` the terminal uses, not a second copy).
"""

from __future__ import annotations

import html
import random
from typing import Any, Sequence

from cardkit.core.game import Game
from cardkit.core.log import SeatEntry
from cardkit.errors import CardkitError
from cardkit.games import get_rules
from cardkit.render import Status, action_notes, describe, status
from cardkit.serde import to_json
from cardkit.web.seats import SeatRecord

__all__ = ["LEVELS", "level_name", "table_payload", "entry_sentences", "hint_message", "rules_page", "status_json"]

def _levels() -> tuple[tuple[str, str], ...]:
    from cardkit.bots import LEVELS as BOT_LEVELS

    return tuple((level.name, level.spec) for level in BOT_LEVELS)


LEVELS: tuple[tuple[str, str], ...] = _levels()
"""The bot levels the lobby offers, as (level name, bot spec) pairs: ``cardkit.bots.LEVELS``
(``("beginner", "level:1")`` ... ``("expert", "level:5")``)."""


def level_name(spec: str | None) -> str | None:
    """The name a bot spec is shown with: a level's name (``"level:3"`` -> ``"standard"``),
    else the spec itself (``"rule"``, ``"ismcts:300"``); ``None`` (a person) stays ``None``."""
    if spec is None:
        return None
    text = spec.strip().lower()
    for name, level_spec in LEVELS:
        if text == level_spec:
            return name
    return text


def status_json(st: Status) -> dict[str, Any]:
    """A :class:`~cardkit.render.Status` as the JSON the page draws (the table and the replay)."""
    return {
        "sentences": list(st.sentences),
        "tables": [
            {"title": t.title, "header": list(t.header), "rows": [list(r) for r in t.rows],
             "numeric": [t.is_numeric(i) for i in range(len(t.header))]}
            for t in st.tables
        ],
    }


def table_payload(game: Game[Any, Any], seat: int | None, records: Sequence[SeatRecord], *,
                  view: Any = None, legal: tuple[Any, ...] | None = None) -> dict[str, Any]:
    """``{"status", "seats", "notes"}`` for ``seat`` (``None``: a spectator), from its view only.

    ``seats``: per seat its ``label`` and ``bot`` level name (``None`` for a person);
    ``status``: the game's sentences and tables (:func:`cardkit.render.status`); ``notes``:
    lines explaining terse notation among the seat's legal actions (empty for others).
    ``view`` (``to_json(game.view(seat))``) and ``legal`` (the game's legal actions) may be
    given when the caller has them already.
    """
    view = to_json(game.view(seat)) if view is None else view
    names = {r.seat: f"{level_name(r.bot)} bot" for r in records if r.bot is not None}
    st = status(game.rules, view, names)
    if seat is None or game.to_act != seat:
        legal = ()
    elif legal is None:
        legal = tuple(game.legal_actions())
    return {
        "status": status_json(st),
        "seats": [{"seat": r.seat, "bot": level_name(r.bot)} for r in records],
        "notes": list(action_notes(game.rules, legal, view)) if legal else [],
    }


def entry_sentences(rules: Any, entry: SeatEntry, seat: int | None) -> list[str]:
    """The entry's events as sentences for ``seat`` (its events are already redacted for it)."""
    return [describe(rules, event, seat) for event in entry.events]


def hint_message(game: Game[Any, Any], seat: int) -> dict[str, Any]:
    """``{"type": "hint", "seq", "action", "reason"}``: what the rule bot would play for
    ``seat`` now and why (its ``explain``), from the seat's own state only.

    A game the rule bot has no strategy for gets a short tree search's choice.
    """
    from cardkit.bots import ISMCTSBot, RuleBot

    last = game.last_entry
    seq = -1 if last is None else last.seq
    if game.to_act != seat or game.is_over:
        return {"type": "hint", "seq": seq, "action": None, "reason": "it is not your turn"}
    seat_state = game.seat_state(seat)
    try:
        best = RuleBot().explain(seat_state, random.Random(seq))[0]
        action, reason = best.action, best.reason
    except CardkitError:
        action = ISMCTSBot(iterations=200).choose(seat_state, random.Random(seq))
        reason = "the choice of a short tree search"
    return {"type": "hint", "seq": seq, "action": str(action), "reason": reason}


def rules_page(name: str) -> str | None:
    """A small HTML page with the game's rules summary and options (``None``: no such game)."""
    from cardkit.cli.rules_cmd import rules_text

    try:
        rules = get_rules(name)
    except CardkitError:
        return None
    text = html.escape(rules_text(rules))
    title = html.escape(rules.name)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title}: rules</title><link rel="stylesheet" href="/static/style.css"></head>'
        f'<body><header><a href="/" id="home">cardkit</a> <span>rules of {title}</span></header>'
        f'<main><h1>{title}</h1><pre class="rules">{text}</pre></main></body></html>'
    )

