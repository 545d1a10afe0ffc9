"""Whole games on a game's kernel: the fast path of ``cardkit simulate`` and the arena.

A game with a kernel (:mod:`cardkit.kernels`, ``rules.kernel_bridge(config)``) can be played
start to end inside it when every seat's policy can read a kernel:
:class:`~cardkit.bots.RandomBot`, :class:`~cardkit.bots.RuleBot` and
:class:`~cardkit.bots.BeginnerBot` can (their ``choose_id(kernel, rng)``; a beginner is
first given the action index, see :func:`bot_ids`), a search bot cannot. :func:`play_on_kernel` plays such a game and gives **the same game** the reference
path (``Game.play`` with the same bots and rngs) gives, because:

* chance is answered exactly as :class:`~cardkit.Game` answers it: chance node number ``i``
  (from 0, counted from the start of the game) of a game seeded ``seed`` gets
  :func:`cardkit.core.game.chance_outcome` of the pending spec with ``(seed, i)``. A pick
  asks the kernel only for its size; a shuffle asks for the spec's cards
  (``kernel.chance_cards()``, as card ints in the reference spec's order) and shuffles
  them with the same :class:`~cardkit.rng.Rng` stream: ``Rng.shuffle`` permutes by
  position only, so shuffling the ints gives the ints of the reference outcome's cards;
* ``kernel.legal()`` lists action ids in the reference order, so a random policy that
  indexes it with the same rng calls picks the same actions, and ``kernel.rule_action()``
  is RuleBot's action by the kernel contract;
* the game stops where the reference loop stops (``max_actions`` seat actions), and a
  game ended by an end guard (:mod:`cardkit.games.guards`) is reported as such
  (``kernel.guard_ended()``).

``tests/bots/test_kernel_play.py`` proves it on many seeds per game with a kernel,
comparing every output of both paths.

Nothing is logged on the kernel. When a log is wanted, :func:`replay_as_game` plays the
recorded seat actions through the reference :class:`~cardkit.Game` (which draws the same
chance from the seed), so a saved log is always a real cardkit log, and checks that the
reference reaches the kernel's result.

A kernel that does not implement ``chance_cards`` cannot be played here (a caller then
stays on the reducer: :func:`play_on_kernel` returns ``None``); one without
``guard_ended`` is still played, and the guard question is answered by a replay through
the reference ``Game`` (slower, but exact).
"""

from __future__ import annotations

import random
from typing import Any, Callable, NamedTuple, Protocol, Sequence

from cardkit.core.game import Game
from cardkit.errors import ConfigError
from cardkit.kernels._base import CHANCE, OVER, Kernel
from cardkit.kernels.bridge import KernelBridge, bridge_for
from cardkit.rng import Rng


class KernelPolicy(Protocol):
    """A bot that can also choose on a kernel: ``choose_id`` must return the id of the
    action its ``choose`` returns for the same position and rng (RandomBot, RuleBot)."""

    def choose_id(self, kernel: Kernel, rng: random.Random) -> int:
        """An action id of ``kernel.legal()``."""
        ...


__all__ = [
    "ENGINES",
    "KernelPolicy",
    "KernelGame",
    "kernel_bridge",
    "kernel_ready",
    "kernel_problem",
    "use_kernel",
    "play_on_kernel",
    "random_ids",
    "bot_ids",
    "replay_as_game",
]

ENGINES = ("auto", "kernel", "reducer")
"""The ``--engine`` choices: ``auto`` plays on the kernel when the game has one and every
bot can play it, ``kernel`` requires it (an error otherwise), ``reducer`` never uses it."""


class KernelGame(NamedTuple):
    """One game played on a kernel.

    ``over`` is False when ``max_actions`` stopped it; ``winners``/``scores`` are the
    reference ``result`` once over (``scores`` is ``rules.scores`` of the stopped game
    otherwise); ``actions`` are the seat actions' ids in order (what
    :func:`replay_as_game` replays); ``guard_ended`` as :func:`cardkit.games.guards.ended_by_guard`,
    or ``None`` when the kernel cannot tell (then ask the replayed game).
    """

    over: bool
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    seat_actions: int
    actions: tuple[int, ...]
    guard_ended: bool | None


def kernel_bridge(rules: Any, config: Any) -> KernelBridge | None:
    """The game's bridge under ``config``, or ``None`` (no kernel for it)."""
    return bridge_for(rules, config)


def kernel_ready(bots: Sequence[Any] | None) -> bool:
    """Whether every bot can play on a kernel (``None``: uniformly random play, which can)."""
    return bots is None or all(callable(getattr(bot, "choose_id", None)) for bot in bots)


def kernel_problem(rules: Any, config: Any, bots: Sequence[Any] | None) -> str | None:
    """Why games of ``rules`` under ``config`` between ``bots`` cannot be played on a kernel
    (``None``: they can)."""
    if not kernel_ready(bots):
        slow = sorted({type(bot).__name__ for bot in bots or () if not callable(getattr(bot, "choose_id", None))})
        return f"{', '.join(slow)} cannot play on a kernel (only bots with choose_id can: random, rule, beginner)"
    bridge = bridge_for(rules, config)
    if bridge is None:
        return f"{rules.name} has no kernel for these options"
    if getattr(type(bridge.kernel(rules.initial_state(config))), "chance_cards", None) in (None, Kernel.chance_cards):
        return f"the {rules.name} kernel cannot draw chance as Game does (it has no chance_cards)"
    return None


def use_kernel(engine: str, rules: Any, config: Any, bots: Sequence[Any] | None) -> bool:
    """Whether ``engine`` (one of :data:`ENGINES`) plays these games on the kernel;
    :class:`~cardkit.errors.ConfigError` when ``engine`` is ``kernel`` and it cannot."""
    if engine not in ENGINES:
        raise ConfigError(f"the engine is one of {', '.join(ENGINES)}, not {engine!r}")
    if engine == "reducer":
        return False
    problem = kernel_problem(rules, config, bots)
    if problem is not None and engine == "kernel":
        raise ConfigError(f"--engine kernel: {problem}; use --engine auto or reducer")
    return problem is None


def random_ids(rng: Rng) -> Callable[[Kernel, int], int]:
    """The policy of :func:`cardkit.testing.invariants.random_playout` on a kernel:
    ``legal[rng.below(len(legal))]``, with the same calls on the same ``rng``."""

    def choose(kernel: Kernel, seat: int) -> int:
        legal = kernel.legal()
        return legal[rng.below(len(legal))]

    return choose


def bot_ids(
    bots: Sequence[KernelPolicy], rngs: Sequence[random.Random], bridge: KernelBridge | None = None
) -> Callable[[Kernel, int], int]:
    """Seat ``s`` chooses with ``bots[s].choose_id(kernel, rngs[s])``. With ``bridge``,
    every bot that has ``bind_kernel`` is first given it (a
    :class:`~cardkit.bots.BeginnerBot` reads the game's action index from it)."""
    if bridge is not None:
        for bot in bots:
            bind = getattr(bot, "bind_kernel", None)
            if callable(bind):
                bind(bridge)

    def choose(kernel: Kernel, seat: int) -> int:
        return bots[seat].choose_id(kernel, rngs[seat])

    return choose


def play_on_kernel(
    bridge: KernelBridge,
    rules: Any,
    config: Any,
    seed: int,
    choose: Callable[[Kernel, int], int],
    max_actions: int,
) -> KernelGame | None:
    """Play game ``seed`` on the kernel, seat actions from ``choose(kernel, seat)``, until it
    is over or ``max_actions`` seat actions were played; ``None`` if the kernel cannot
    answer the game's chance as the reference does (no ``chance_cards``: stay on the
    reducer). See the module docs for why the game is the reference path's game."""
    kernel = bridge.kernel(rules.initial_state(config))
    chances = 0
    actions: list[int] = []
    count = 0
    while True:
        actor = kernel.actor()
        if actor == OVER:
            break
        if actor == CHANCE:
            stream = Rng.stream(seed, chances)
            chances += 1
            if kernel.chance_is_pick():
                kernel.chance_pick(stream.below(kernel.chance_size()))
            else:
                try:
                    cards = kernel.chance_cards()
                except (NotImplementedError, AttributeError):  # not implemented by this kernel
                    return None
                kernel.chance_shuffle(list(stream.shuffle(cards)))
            continue
        if count >= max_actions:
            return KernelGame(False, (), tuple(kernel.scores()), count, tuple(actions), False)
        action = choose(kernel, actor)
        kernel.apply(action)
        actions.append(action)
        count += 1
    try:
        guard: bool | None = kernel.guard_ended()
    except (NotImplementedError, AttributeError):  # not implemented by this kernel
        guard = None
    return KernelGame(True, tuple(kernel.winners()), tuple(kernel.scores()), count, tuple(actions), guard)


def replay_as_game(bridge: KernelBridge, rules: Any, config: Any, seed: int, played: KernelGame) -> Game[Any, Any]:
    """The reference :class:`~cardkit.Game` of a kernel game: seeded ``seed`` (chance drawn
    from it as always) and the recorded seat actions played through ``Game.play``.

    Raises ``AssertionError`` if the reference does not reach the kernel's ending (a
    kernel that differs from its game: a bug the lock-step tests should have caught).
    """
    game = Game.start(rules, config, seed)
    actions = bridge.actions
    for action in played.actions:
        game = game.play(actions[action])
    result = game.result
    if played.over:
        assert result is not None, "the kernel ended a game the reference did not end"
        assert (result.winners, result.scores) == (played.winners, played.scores), (
            f"kernel and reference disagree on the result: {played.winners, played.scores} vs "
            f"{result.winners, result.scores}"
        )
    else:
        assert result is None, "the reference ended a game the kernel did not end"
    return game
