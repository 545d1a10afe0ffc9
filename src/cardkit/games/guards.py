"""Whether a finished game was ended by a guard rather than by its rules.

Some games carry an end guard among their options, so that a game without skill (random
play, weak bots) cannot run for ever: Crazy Eights' and Spacc 'u Mazz's ``max_turns``,
Cutthroat Spades' ``max_hands``. When a guard fires, the game still ends with a
:class:`~cardkit.Result` (its rules score the stopped hand), and nothing in the log marks
the ending as artificial. A report that counts games (``cardkit simulate``, the bot arena,
the RL environments' ``truncated``) asks :func:`ended_by_guard` so that it does not count
such a game as one its rules finished.

Which endings are guards:

* Crazy Eights: the ``max_turns`` guard stopping the deciding hand (a hand that was truly
  blocked is a rules ending);
* Spacc 'u Mazz: a hand ended with ``reason="max_turns"`` in the entry that ended the game;
* Cutthroat Spades: ``max_hands`` deciding the game without a seat alone at the target
  (the ``mercy`` rule is a rules ending);
* Wizard has no guard.

A game of your own says it with an optional method on its rules,
``ended_by_guard(state, last_events) -> bool`` (the final state, and the events of the
entry that ended the game); a game without it is taken to have ended by its rules. Nothing
here is stored or replayed: it is read from the final state and the last entry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:
    from cardkit.core.game import Game

__all__ = ["ended_by_guard", "guard_ended"]


def ended_by_guard(game: Game[Any, Any]) -> bool:
    """Whether ``game`` is over because a guard stopped it (see the module docs); False
    for a game still running or ended by its rules."""
    if not game.is_over:
        return False
    entries = game.log.entries
    last = entries[-1].events if entries else ()
    return guard_ended(game.rules, game.state, last)


def guard_ended(rules: Any, state: Any, last_events: Sequence[Any]) -> bool:
    """:func:`ended_by_guard` from its parts: the game's rules (or its registered name),
    its final state and the events of the entry that ended it."""
    hook = getattr(rules, "ended_by_guard", None) if not isinstance(rules, str) else None
    if callable(hook):
        return bool(hook(state, last_events))
    if isinstance(rules, str):
        name: object = rules
    elif type(rules).__module__.startswith("cardkit.games."):
        name = getattr(rules, "name", None)
    else:  # a user's rules without the hook, whatever name it took
        return False
    check = _BUILTIN.get(name) if isinstance(name, str) else None
    return check is not None and check(state, last_events)


def _crazy_eights(state: Any, events: Sequence[Any]) -> bool:
    from cardkit.games.crazy_eights.events import HandEnded

    ended = [e for e in events if isinstance(e, HandEnded)]
    if not ended or not ended[-1].blocked:
        return False
    cfg = state.config
    # a hand is truly blocked when every seat passed with nothing left to draw; the
    # max_turns guard reports its stop as a blocked hand too, which this tells apart
    blocked = state.passes >= cfg.players and not state.stock and (
        cfg.stock_empty == "pass" or len(state.discard) <= 1
    )
    return bool(state.turns >= cfg.max_turns and not blocked)


def _spacc_u_mazz(state: Any, events: Sequence[Any]) -> bool:
    from cardkit.games.spacc_u_mazz.events import HandEnded

    return any(isinstance(e, HandEnded) and e.reason == "max_turns" for e in events)


def _cutthroat_spades(state: Any, events: Sequence[Any]) -> bool:
    cfg = state.config
    if cfg.max_hands is None or state.hands_in_game < cfg.max_hands:
        return False
    scores = state.scores
    mercy = getattr(cfg, "mercy", None)
    if mercy is not None and min(scores) <= -mercy:
        return False  # the mercy rule ended it: a rules ending, even on the last allowed hand
    top = max(scores)
    alone = sum(1 for s in scores if s == top) == 1
    return not (alone and (state.overtime or top >= cfg.target))


_BUILTIN: dict[str, Callable[[Any, Sequence[Any]], bool]] = {
    "crazy-eights": _crazy_eights,
    "spacc-u-mazz": _spacc_u_mazz,
    "cutthroat-spades": _cutthroat_spades,
}
