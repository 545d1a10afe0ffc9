"""Vectorized environments: ``n`` games stepped together, numpy arrays in and out.

:class:`VectorEnv` is the batch counterpart of :class:`~cardkit.rl.env.CardkitEnv`: every
sub-environment is one game of the same game and config, every array has the
sub-environments along its first axis, and a finished game is reset at once (in the step
that ended it). It is multi-agent like the AEC environment: in each sub-environment the
*seat to act* is the agent, ``info["agent"][i]`` says which seat that is, and
``actions[i]`` is that seat's action. A learner that plays one seat against bots either
answers the other seats itself (the example ``examples/rl_train.py`` does, with numpy) or
uses the single-agent wrapper :class:`cardkit.rl.single.SingleAgentEnv`.

Two engines step the games:

* ``"kernel"`` (Crazy Eights): the game's kernel (:mod:`cardkit.kernels`) with the
  incremental encoder :mod:`cardkit.kernels.vector_crazy_eights`: one call into (compiled)
  kernel code per batch step; the observations are written into a preallocated buffer
  that numpy views without a copy, each seat's vector rewritten only where the last
  actions changed it;
* ``"game"`` (every game, the default for the others): a reference :class:`~cardkit.Game`
  per sub-environment encoded by the AEC environment's cached encoder, in a Python loop.

Both give the AEC environment's observation vectors (the same layout, ``encoder.fields``)
and the same games: sub-environment ``i``'s episodes are the AEC environment's episodes for
the seed ``seeds[i]`` (chance is drawn from the episode's seed exactly as
:class:`~cardkit.Game` draws it), which the test suite checks value by value.
"""

from __future__ import annotations

import secrets
from array import array
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

from cardkit.core.game import Game
from cardkit.errors import ConfigError, IllegalActionError
from cardkit.kernels._base import CHANCE, Kernel
from cardkit.rl.env import CardkitEnv
from cardkit.rl.outcome import rewards_of, truncated_by_guard
from cardkit.rng import Rng

__all__ = ["VectorEnv", "ENGINES", "VectorStep", "random_actions"]

ENGINES = ("auto", "kernel", "game")
"""The accepted ``engine`` values: ``auto`` is the kernel where a game has a vector kernel."""

_KERNEL_GAMES = ("crazy-eights",)
_SEED_LIMIT = 2**64

VectorStep = tuple[
    npt.NDArray[np.float32],
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    dict[str, Any],
]
"""``(observations, rewards, terminated, truncated, info)`` of :meth:`VectorEnv.step`."""


def _seed_list(seed: int | Sequence[int] | None, n: int) -> list[int | None]:
    if seed is None:
        return [None] * n
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
        if not 0 <= int(seed) < _SEED_LIMIT:
            raise ConfigError(f"seed must be in 0..2**64-1, not {seed}")
        return [(int(seed) + i) % _SEED_LIMIT for i in range(n)]
    seeds = list(seed)  # type: ignore[arg-type]  # a sequence, checked below
    if len(seeds) != n:
        raise ConfigError(f"seed: {n} sub-environments need {n} seeds, not {len(seeds)}")
    out: list[int | None] = []
    for s in seeds:
        if isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer)) or not 0 <= int(s) < _SEED_LIMIT:
            raise ConfigError(f"a seed is an integer in 0..2**64-1, not {s!r}")
        out.append(int(s))
    return out


class VectorEnv:
    """``n`` games of ``game`` stepped together (see the module docs).

    ``players`` and every other keyword but the ones below are the game's options (as for
    :func:`cardkit.rl.env`). ``seed``: an int (sub-environment ``i`` is seeded ``seed + i``),
    a sequence of ``n`` seeds, or ``None`` (random seeds from ``secrets``); sub-environment
    ``i`` then plays the episodes an AEC environment seeded ``seeds[i]`` plays, in the same
    order. ``rewards``: ``"win_loss"`` or ``"score"`` (:mod:`cardkit.rl.outcome`).
    ``engine``: ``"auto"``, ``"kernel"`` or ``"game"`` (see the module docs).

    Arrays (``n`` sub-environments, ``d`` observation values, ``A`` actions, ``p`` seats):
    :meth:`reset` and :meth:`step` return the observations ``(n, d)`` float32 of each
    sub-environment's seat to act; :meth:`step` also the rewards ``(n, p)`` float32 of every
    seat (non-zero only in the step that ended an episode), ``terminated`` and ``truncated``
    ``(n,)`` bool; ``info["agent"]`` ``(n,)`` the seat to act and ``info["action_mask"]``
    ``(n, A)`` int8 its legal actions. Every returned array is a fresh copy.
    """

    def __init__(
        self,
        game: str,
        n: int,
        *,
        players: int,
        seed: int | Sequence[int] | None = None,
        rewards: str = "win_loss",
        engine: str = "auto",
        **options: Any,
    ) -> None:
        """Validate everything up front (a bad game, option or engine is a cardkit error)."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ConfigError(f"n must be a positive number of sub-environments, not {n!r}")
        if engine not in ENGINES:
            raise ConfigError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
        self._template = CardkitEnv(game, players, rewards=rewards, **options)
        self.rules = self._template.rules
        self.config = self._template.config
        self.encoder = self._template.encoder
        """The observation layout (:class:`~cardkit.rl.encoding.ObservationEncoder`): ``fields``."""
        self.actions = self._template.actions
        """Action ``i`` is ``actions[i]`` (the AEC environment's index)."""
        self.reward_mode = self._template.reward_mode
        self.options: dict[str, Any] = dict(options)
        """The game options given (``players`` aside)."""
        self.num_envs = n
        self.players = int(self.config.players)
        self.obs_size = self.encoder.size
        self.num_actions = len(self.actions)
        if engine == "auto":
            engine = "kernel" if self.rules.name in _KERNEL_GAMES else "game"
        if engine == "kernel" and self.rules.name not in _KERNEL_GAMES:
            raise ConfigError(
                f"engine='kernel' covers {', '.join(_KERNEL_GAMES)}, not {self.rules.name}: use engine='game'"
            )
        self.engine = engine
        self._seeds = _seed_list(seed, n)
        self._episodes = [0] * n
        self.episode_seeds: list[int] = [0] * n
        """The seed of each sub-environment's current episode (``Game.start(rules, config, seed)``)."""
        self.episode_actions: list[list[int]] = [[] for _ in range(n)]
        """The action ids played so far in each sub-environment's current episode, when
        made with ``record=True`` (tests replay them through ``Game``); else empty."""
        self.record = False
        self._chances = [0] * n
        self._started = False
        self._rows = np.arange(n)
        p, d, a = self.players, self.obs_size, self.num_actions
        self._obs_buf = array("f", bytes(4 * n * p * d))
        self._mask_buf = array("b", bytes(n * a))
        self._out_buf = array("f", bytes(4 * n * p))
        self._agent_buf = array("i", bytes(4 * n))
        self._flag_buf = array("i", bytes(4 * n))
        # numpy views of the buffers (no copies): the kernel engine writes into them
        self._obs: npt.NDArray[np.float32] = np.frombuffer(self._obs_buf, dtype=np.float32).reshape(n, p, d)
        self._mask: npt.NDArray[np.int8] = np.frombuffer(self._mask_buf, dtype=np.int8).reshape(n, a)
        self._out: npt.NDArray[np.float32] = np.frombuffer(self._out_buf, dtype=np.float32).reshape(n, p)
        self._agent: npt.NDArray[np.int32] = np.frombuffer(self._agent_buf, dtype=np.int32)
        self._flags: npt.NDArray[np.int32] = np.frombuffer(self._flag_buf, dtype=np.int32)
        self._vector: Any = None
        self._games: list[Game[Any, Any]] = []
        self._envs: list[CardkitEnv] = []
        if engine == "kernel":
            self._vector = self._make_kernel_vector()
        else:
            self._envs = [CardkitEnv(game, players, rewards=rewards, **options) for _ in range(n)]

    # ------------------------------------------------------------------ episodes

    def _next_seed(self, i: int) -> int:
        """The seed of sub-environment ``i``'s next episode (CardkitEnv.reset's sequence)."""
        base = self._seeds[i]
        k = self._episodes[i]
        self._episodes[i] = k + 1
        if base is None:
            seed = secrets.randbits(64)
        elif k == 0:
            seed = base
        else:
            seed = Rng.stream(base, k).next64()
        self.episode_seeds[i] = seed
        self._chances[i] = 0
        if self.record:
            self.episode_actions[i] = []
        return seed

    def _make_kernel_vector(self) -> Any:
        from cardkit.games.crazy_eights.kernel import CARD_INTS, bridge
        from cardkit.kernels.vector_crazy_eights import LAYOUT_KEYS, CrazyEightsVector

        enc = self.encoder
        if list(CARD_INTS) != list(enc.cards):  # the kernel's card ints are the plane's order
            raise ConfigError("the Crazy Eights kernel's cards do not match the observation layout")
        names = {
            "to_act": "to_act", "stock": "stock.cards", "discard": "discard.cards",
            "hand": "hand[0].cards", "dealer": "dealer", "top_card": "top_card",
            "active_suit": "active_suit", "pending_draw": "pending_draw", "direction": "direction",
            "drawn": "drawn", "hand_number": "hand_number", "scores": "scores",
            "hand_points": "hand_points", "target": "target",
        }  # fmt: skip
        layout = [enc.size] + [enc.field(names[key]).start for key in LAYOUT_KEYS[1:]]
        for r in range(self.players):  # the hand slots follow each other, 54 values apart
            if enc.field(f"hand[{r}].cards").start != layout[4] + 54 * r:
                raise ConfigError("unexpected Crazy Eights observation layout")
        cfg = self.config
        kb = bridge(cfg)
        blank = kb.kernel(self.rules.initial_state(cfg))

        def answer(kernel: Kernel, i: int) -> None:
            stream = Rng.stream(self.episode_seeds[i], self._chances[i])
            self._chances[i] += 1
            if kernel.chance_is_pick():
                kernel.chance_pick(stream.below(kernel.chance_size()))
            else:
                kernel.chance_shuffle(list(stream.shuffle(kernel.chance_cards())))

        def chance(i: int) -> None:
            answer(vector.kernels[i], i)

        def restart(i: int) -> Any:
            self._next_seed(i)
            k = blank.copy()
            while k.actor() == CHANCE:
                answer(k, i)
            return k

        vector = CrazyEightsVector(
            self.num_envs, self.players, self.num_actions, layout, self.reward_mode == "score",
            cfg.mode == "single", cfg.decks, self._obs_buf, self._mask_buf, self._out_buf, self._agent_buf,
            self._flag_buf, chance, restart,
        )  # fmt: skip
        return vector

    def reset(self, seed: int | Sequence[int] | None = None) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start a new episode in every sub-environment; ``seed`` as in the constructor
        (``None``: each sub-environment continues its own sequence of episode seeds).
        Returns the observations and ``info`` (``agent``, ``action_mask``)."""
        if seed is not None:
            self._seeds = _seed_list(seed, self.num_envs)
            self._episodes = [0] * self.num_envs
        self._started = True
        for i in range(self.num_envs):
            if self._vector is not None:
                self._vector.begin(i)
            else:
                self._begin_game(i)
        return self._observations(), self._info()

    def _begin_game(self, i: int) -> None:
        game = Game.start(self.rules, self.config, self._next_seed(i))
        if i < len(self._games):
            self._games[i] = game
        else:
            self._games.append(game)
        self._envs[i]._cached.clear()
        self._settle_game(i)

    def _settle_game(self, i: int) -> None:
        game = self._games[i]
        seat = game.to_act
        assert seat is not None  # a new or continuing game has a seat to act
        self._agent[i] = seat
        self._obs[i, seat] = self._envs[i].observation_of(game, seat)
        self._mask[i] = self._envs[i].mask_of(game)

    def step(self, actions: Any) -> VectorStep:
        """Play ``actions[i]`` (an index into :attr:`actions`) for the seat to act in every
        sub-environment. An action that is not legal raises
        :class:`~cardkit.IllegalActionError` naming the sub-environment, and nothing is
        played. A finished episode is reset in the same step: that sub-environment's
        observation is the first of its new episode, its ``terminated`` or ``truncated``
        is True and its rewards are the finished episode's (``info["episode_seeds"]`` are
        the seeds of the episodes now running)."""
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        if isinstance(actions, np.ndarray):
            chosen = actions.astype(np.int64, copy=False).ravel().tolist()
        else:
            chosen = [int(a) for a in actions]
        n = self.num_envs
        if len(chosen) != n:
            raise IllegalActionError(f"step needs {n} actions, one per sub-environment, not {len(chosen)}")
        self._out.fill(0.0)
        self._flags.fill(0)
        if self._vector is not None:
            bad = self._vector.first_illegal(chosen)
            if bad >= 0:
                self._illegal(bad, chosen[bad])
            if self.record:
                for i, a in enumerate(chosen):
                    self.episode_actions[i].append(a)
            self._vector.step(chosen)
        else:
            for i in range(n):
                a = chosen[i]
                if not 0 <= a < self.num_actions or not self._mask[i, a]:
                    self._illegal(i, a)
            for i in range(n):
                self._step_game(i, chosen[i])
        flags = self._flags
        return self._observations(), self._out.copy(), flags == 1, flags == 2, self._info()

    def _illegal(self, i: int, action: int) -> None:
        legal = np.flatnonzero(self._mask[i]).tolist()
        chosen = self.actions[action] if 0 <= action < self.num_actions else None
        raise IllegalActionError(
            f"sub-environment {i}: action {action} is not legal for seat {int(self._agent[i])} now; "
            f"its legal actions are {legal}",
            chosen,
            int(self._agent[i]),
        )

    def _step_game(self, i: int, action: int) -> None:
        game = self._games[i].play(self.actions[action])
        if self.record:
            self.episode_actions[i].append(action)
        self._games[i] = game
        if game.to_act is None:
            result = game.result
            assert result is not None  # a finished game has a result
            last = game.last_entry
            cut = truncated_by_guard(self.rules.name, game.state, last.events if last else ())
            self._out[i] = rewards_of(result, self.players, self.reward_mode)
            self._flags[i] = 2 if cut else 1
            self._begin_game(i)
            return
        self._settle_game(i)

    # ------------------------------------------------------------------ arrays

    def _observations(self) -> npt.NDArray[np.float32]:
        return self._obs[self._rows, self._agent]

    def _info(self) -> dict[str, Any]:
        return {"agent": self._agent.astype(np.int64), "action_mask": self._mask.copy()}

    @property
    def agent(self) -> npt.NDArray[np.int64]:
        """The seat to act in each sub-environment, ``(n,)``."""
        return self._agent.astype(np.int64)

    @property
    def action_mask(self) -> npt.NDArray[np.int8]:
        """The legal actions of each sub-environment's seat to act, ``(n, A)`` int8."""
        out: npt.NDArray[np.int8] = self._mask.copy()
        return out

    def observation(self, i: int, seat: int) -> npt.NDArray[np.float32]:
        """The observation of any ``seat`` in sub-environment ``i`` now (a copy)."""
        if not self._started:
            raise IllegalActionError("call reset() before observation()")
        if not 0 <= seat < self.players or not 0 <= i < self.num_envs:
            raise ConfigError(f"no seat {seat} in sub-environment {i}")
        if self._vector is not None:
            self._vector.encode(i, seat)
            vector: npt.NDArray[np.float32] = self._obs[i, seat].copy()
            return vector
        return self._envs[i].observation_of(self._games[i], seat)

    def game(self, i: int) -> Game[Any, Any]:
        """The reference :class:`~cardkit.Game` of sub-environment ``i``'s current episode
        (host side: every card). With the kernel engine it is replayed from the episode's
        seed and actions, so it needs ``record=True``."""
        if self._vector is None:
            return self._games[i]
        if not self.record:
            raise ConfigError("game(i) of the kernel engine replays the episode: set env.record = True before reset()")
        game = Game.start(self.rules, self.config, self.episode_seeds[i])
        for a in self.episode_actions[i]:
            game = game.play(self.actions[a])
        return game

    def close(self) -> None:
        """Nothing to release."""


def random_actions(mask: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A uniformly random legal action per row of ``mask`` (``(n, A)``, at least one legal
    action per row): the index of the largest of uniform keys over the legal entries."""
    keys = rng.random(mask.shape, dtype=np.float32)
    keys[mask == 0] = -1.0
    return np.asarray(keys.argmax(axis=1), dtype=np.int64)

