"""Rewards and truncation: how a finished game becomes the numbers a learner gets.

Rewards come only from the game's :class:`~cardkit.Result`, at the step that ends the
game (every other step gives 0 to everyone):

* ``"win_loss"`` (default): +1 to each winner and -1 to every other seat; 0 to everyone
  when the result has no winner or every seat won (a draw). Shared wins are all +1.
* ``"score"``: each seat's ``result.scores`` (the game's own points; see each game's docs).

An episode is *truncated* (not terminated) when a guard cut the game short instead of its
rules ending it: Crazy Eights' ``max_turns`` stopping the deciding hand, Spacc 'u Mazz's
``max_turns`` stopping the last hand, Cutthroat Spades' ``max_hands`` deciding
the last game without a seat alone at the target. Cutthroat Spades' ``mercy`` rule (a game
ends when a seat sinks to ``-mercy``) is a rules ending: a termination. The guard still gives the game a result
(its rules score a stopped hand), so rewards are given as usual; ``truncated`` tells the
learner that the end was artificial (do not treat the final state as a true terminal).
"""

from __future__ import annotations

from typing import Any, Literal, Sequence

from cardkit.core.rules import Result
from cardkit.errors import ConfigError
from cardkit.games.guards import guard_ended

__all__ = ["RewardMode", "REWARD_MODES", "check_reward_mode", "rewards_of", "truncated_by_guard"]

RewardMode = Literal["win_loss", "score"]
"""How a result becomes rewards (see the module docs)."""
REWARD_MODES: tuple[RewardMode, ...] = ("win_loss", "score")
"""The accepted values of the environment's ``rewards`` option."""


def check_reward_mode(value: object) -> RewardMode:
    """``value`` if it is a reward mode, else a :class:`ConfigError`."""
    for mode in REWARD_MODES:
        if value == mode:
            return mode
    raise ConfigError(f"rewards must be one of {', '.join(map(repr, REWARD_MODES))}, not {value!r}")


def rewards_of(result: Result, players: int, mode: RewardMode) -> tuple[float, ...]:
    """The final reward of every seat (see the module docs)."""
    if mode == "score":
        return tuple(float(s) for s in result.scores)
    winners = result.winners
    if not winners or len(winners) == players:
        return (0.0,) * players
    return tuple(1.0 if s in winners else -1.0 for s in range(players))


def truncated_by_guard(name: str, state: Any, last_events: Sequence[Any]) -> bool:
    """Whether a finished game of ``name`` was cut short by a guard (host side: it reads the
    final state and the events of the entry that ended the game). False for Wizard and for
    games that are not built in; see :mod:`cardkit.games.guards`, which decides it)."""
    return guard_ended(name, state, last_events)
