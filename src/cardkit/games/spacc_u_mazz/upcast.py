"""Logs of older Spacc 'u Mazz ``rules_version`` brought to the current one.

Version 1 logged a drawn buried starting card (rule 5) as a ``CardDrawn``, which other
seats received without its card although everyone had seen it buried face up. Version 2
logs it as a ``StarterDrawn``, shown to all. Nothing else changed: both events move the
same card into the same hand, so a version-1 log becomes a version-2 log by renaming
those draws, and then replays exactly.
"""

from __future__ import annotations

from typing import Any

import attrs

from cardkit.core.config import resolve_config
from cardkit.core.log import GameLog
from cardkit.errors import CardkitError
from cardkit.games.spacc_u_mazz.events import CardDrawn, StarterDrawn

__all__ = ["upcast_v1"]


def upcast_v1(log: GameLog) -> GameLog:
    """``log`` (``rules_version`` 1) as a version-2 log: each ``CardDrawn`` that drew a
    buried starting card becomes a ``StarterDrawn``.

    Which draws those were is read from the state, folded event by event from the start
    (the log is the host's, with every card). A log the reducer cannot follow (a bad
    config, an event that does not fit the state) is left as it is from that point on:
    its replay then reports the fault with the entry's seq, as it would have before.
    """
    from cardkit.games.spacc_u_mazz.rules import RULES

    entries = list(log.entries)
    try:
        options = dict(log.config)
        config = resolve_config(RULES, options.pop("players", None), options)
        state: Any = RULES.initial_state(config)
        for i, entry in enumerate(entries):
            events = list(entry.events)
            renamed = False
            for k, event in enumerate(events):
                if (
                    type(event) is CardDrawn
                    and event.stock == "main"
                    and event.card is not None
                    and state.main_top_is_buried()
                ):
                    events[k] = event = StarterDrawn(event.seat, event.penalty, event.card)
                    renamed = True
                state = RULES.evolve(state, event)
            if renamed:
                entries[i] = attrs.evolve(entry, events=tuple(events))
    except (CardkitError, LookupError, TypeError, ValueError, AttributeError):
        pass  # the replay that follows reports where the log goes wrong
    return attrs.evolve(log, rules_version=2, entries=tuple(entries))
