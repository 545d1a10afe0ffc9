"""Logs of older Spacc 'u Mazz ``rules_version`` brought to the current one.

Version 1 logged a drawn buried starting card (rule 5) as a ``CardDrawn``, which other
seats received without its card although everyone had seen it buried face up. Version 2
logs it as a ``StarterDrawn``, shown to all. Nothing else changed: both events move the
same card into the same hand, so a version-1 log becomes a version-2 log by renaming
those draws, and then replays exactly.

Version 3 changed two decisions. A red joker's decision is part of the turn that turned
the joker up (rule 20), so ``max_turns`` counts it once, where version 2 counted the
decision as a turn of its own and could end the hand before it; and a one-hand game is
won by the hand's winner (rule 22), where version 2 named the highest score, which a
custom ``fixed_points`` table may give to a later place. A version-2 log in which neither
shows is a version-3 log as it stands. One in which either shows records a game that
version 3 would have played on, or ended otherwise: there is no sound conversion, and it
is refused with a :class:`~cardkit.errors.LogError` naming both versions and the entry.
"""

from __future__ import annotations

from typing import Any

import attrs

from cardkit.core.config import resolve_config
from cardkit.core.log import GameLog
from cardkit.cards import Card
from cardkit.errors import CardkitError, LogError
from cardkit.games.spacc_u_mazz.events import (
    CardDrawn,
    ChoiceOffered,
    GameEnded,
    HandEnded,
    HandStarted,
    JokerDrawn,
    JokerRevealed,
    PlayerWentOut,
    StarterDrawn,
)

__all__ = ["upcast_v1", "upcast_v2"]

_RED_JOKER = Card("RJ")


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


def _refuse_v2(seq: int, why: str) -> LogError:
    # Names the versions, the entry and the rule, never an action or a card: the text may
    # reach a player (issue 24, item 1).
    return LogError(
        f"this spacc-u-mazz log was written under rules_version 2, and rules_version 3 "
        f"decides its entry {seq} differently ({why}); it cannot be brought to version 3 "
        "(replay it with a cardkit release of Spacc 'u Mazz rules_version 2)",
        seq=seq,
    )


def upcast_v2(log: GameLog) -> GameLog:
    """``log`` (``rules_version`` 2) as a version-3 log, or a :class:`LogError` naming both
    versions and the entry where version 3 decides otherwise (see the module docs).

    Version 3 decides an entry differently exactly when (a) a hand that the guard ended
    (``HandEnded`` with ``max_turns``) had a red-joker decision offered: version 2 counted
    it as a turn, so version 3 would have played on; or the entry that ended it turned up
    a red joker whose seat did not go out: version 2's guard cut the decision short, and
    version 3 offers it; or (b) a one-hand game (``target_score`` null) ended with other
    winners than the hand's first place. Every other entry is decided the same way, so
    the log is returned with the new version and unchanged entries; its replay then checks
    every entry as usual.
    """
    one_hand = log.config.get("target_score") is None
    choices = 0  # red-joker decisions offered in the current hand
    places: tuple[int, ...] = ()
    for entry in log.entries:
        red: int | None = None  # a seat whose red joker turned up in this entry, no choice yet
        for event in entry.events:
            kind = type(event)
            if kind is HandStarted:
                choices = 0
            elif kind is ChoiceOffered:
                choices += 1
                red = None
            elif (kind is JokerDrawn or kind is JokerRevealed) and event.card == _RED_JOKER:
                red = event.seat
            elif kind is PlayerWentOut and event.seat == red:
                red = None  # nothing was left to choose: the same under both versions
            elif kind is HandEnded:
                places = tuple(event.places)
                if event.reason == "max_turns" and (choices or red is not None):
                    raise _refuse_v2(
                        entry.seq,
                        "a red joker's decision is part of its turn for max_turns, rule 20",
                    )
            elif kind is GameEnded and one_hand and tuple(event.winners) != places[:1]:
                raise _refuse_v2(
                    entry.seq, "a one-hand game is won by the first player out, rule 22"
                )
    return attrs.evolve(log, rules_version=3)
