"""Single-agent Gymnasium environments: one seat learns, cardkit bots play the others.

:class:`SingleAgentEnv` is a :class:`gymnasium.Env` over a cardkit game: the learner's
seat (``seat``) acts through :meth:`~SingleAgentEnv.step`, and every other seat is played
by a cardkit bot (``opponents``: a spec such as ``"random"``, ``"rule"`` or
``"level:2"`` for :func:`cardkit.bots.make_bot`, a bot object, or one of those per other
seat) between two learner steps. The observation is the AEC environment's vector for the
learner's seat (the same layout, ``env.encoder.fields``); the legal actions are
``info["action_mask"]`` (int8, ``(A,)``) after every ``reset`` and ``step``, and
:meth:`~SingleAgentEnv.action_masks` returns them too (the method name ``sb3-contrib``'s
``MaskablePPO`` looks for). The reward is the learner's final reward (``rewards``:
``"win_loss"`` or ``"score"``, :mod:`cardkit.rl.outcome`), 0 before the end.

An illegal action (not in the mask) ends the episode with ``illegal_reward`` (default -1,
``info["illegal_action"]`` names it) under the default ``illegal="terminate"``, as
Gymnasium's checker and most single-agent learners expect of an environment with a
``Discrete`` space; ``illegal="raise"`` raises :class:`~cardkit.IllegalActionError` and
changes nothing instead.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from cardkit.bots.spec import make_bot
from cardkit.core.game import Game
from cardkit.errors import ConfigError, IllegalActionError
from cardkit.rl.env import CardkitEnv, zone_lines
from cardkit.rl.outcome import rewards_of, truncated_by_guard
from cardkit.rng import Rng

__all__ = ["SingleAgentEnv"]

_BOT_STREAM = 1 << 40  # the bots' rng: a stream of the episode seed no chance node uses


def _bot(spec: Any) -> Any:
    if isinstance(spec, str):
        return make_bot(spec)
    if not callable(getattr(spec, "choose", None)):
        raise ConfigError(f"an opponent is a bot spec such as 'level:2' or a bot, not {spec!r}")
    return spec


class SingleAgentEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One learning seat of ``game`` against cardkit bots (see the module docs).

    ``seat``: the learner's seat, or ``"random"`` (a seat drawn per episode from the
    environment's ``np_random``). ``seed`` seeds the first episode as a reset seed would.
    Every keyword not listed is a game option.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        players: int,
        *,
        seat: int | str = 0,
        opponents: Any = "random",
        seed: int | None = None,
        rewards: str = "win_loss",
        illegal: str = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        """Validate everything up front: a bad game, option, seat or bot is a cardkit error."""
        self._aec = CardkitEnv(game, players, rewards=rewards, **options)
        self.rules = self._aec.rules
        self.config = self._aec.config
        self.encoder = self._aec.encoder
        """The observation layout (``fields``), the AEC environment's."""
        self.actions = self._aec.actions
        """Action ``i`` is ``actions[i]``."""
        self.players = int(self.config.players)
        if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players):
            raise ConfigError(f"seat must be a seat 0..{self.players - 1} or 'random', not {seat!r}")
        self.seat_choice = seat
        if isinstance(opponents, (str,)) or not isinstance(opponents, Sequence):
            bots = [_bot(opponents)] * (self.players - 1)
        else:
            bots = [_bot(b) for b in opponents]
            if len(bots) != self.players - 1:
                raise ConfigError(f"opponents: {self.players - 1} bots are needed, not {len(bots)}")
        self.opponents = bots
        """The bots of the other seats, in seat order after the learner's (seat + 1, ...)."""
        if illegal not in ("raise", "terminate"):
            raise ConfigError(f"illegal must be 'raise' or 'terminate', not {illegal!r}")
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        self.action_space = spaces.Discrete(len(self.actions))
        self._base = seed
        self._episodes = 0
        self._game: Game[Any, Any] | None = None
        self.seat = 0 if seat == "random" else int(seat)
        self._bots: dict[int, Any] = {}
        self._rng = random.Random(0)
        self._mask: npt.NDArray[np.int8] = np.zeros(len(self.actions), dtype=np.int8)
        self._done = False  # ended by an illegal action (the game itself goes on)

    @property
    def game(self) -> Game[Any, Any]:
        """The current episode's :class:`~cardkit.Game` (host side: every card)."""
        if self._game is None:
            raise IllegalActionError("call reset() before using the environment")
        return self._game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start an episode: ``seed`` seeds it and the episodes after it (as
        :meth:`CardkitEnv.reset <cardkit.rl.env.CardkitEnv.reset>` does); the bots play
        until the learner is to act. ``options`` is ignored."""
        super().reset(seed=seed)
        if seed is not None:
            self._base, self._episodes = int(seed), 0
        if self._base is None:
            self._base = int(self.np_random.integers(0, 2**63))
        game_seed = self._base if self._episodes == 0 else Rng.stream(self._base, self._episodes).next64()
        self._episodes += 1
        if self.seat_choice == "random":
            self.seat = int(self.np_random.integers(0, self.players))
        self._bots = {(self.seat + 1 + j) % self.players: bot for j, bot in enumerate(self.opponents)}
        self._rng = random.Random(Rng.stream(game_seed, _BOT_STREAM).next64())
        self._game = Game.start(self.rules, self.config, game_seed)
        self._aec._cached.clear()
        self._done = False
        obs, reward, terminated, truncated, info = self._advance()
        return obs, info

    def _advance(self) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Let the bots play to the learner's turn or the end; the learner's step result."""
        game = self.game
        while game.to_act is not None and game.to_act != self.seat:
            seat = game.to_act
            game = game.play(self._bots[seat].choose(game.seat_state(seat), self._rng))
        self._game = game
        obs = self._aec.observation_of(game, self.seat)
        if game.to_act is None:
            result = game.result
            assert result is not None  # a finished game has a result
            last = game.last_entry
            cut = truncated_by_guard(self.rules.name, game.state, last.events if last else ())
            reward = rewards_of(result, self.players, self._aec.reward_mode)[self.seat]
            self._mask = np.zeros(len(self.actions), dtype=np.int8)
            info = {"action_mask": self._mask.copy(), "winners": list(result.winners), "scores": list(result.scores)}
            return obs, float(reward), not cut, cut, info
        self._mask = self._aec.mask_of(game)
        return obs, 0.0, False, False, {"action_mask": self._mask.copy()}

    def step(self, action: Any) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play action number ``action`` for the learner, then the bots to its next turn."""
        game = self.game
        if self._done or game.to_act is None:
            raise IllegalActionError("the episode is over: call reset()")
        n = len(self.actions)
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) or not 0 <= int(action) < n:
            raise IllegalActionError(f"an action is an integer in 0..{n - 1}, not {action!r}", None, self.seat)
        i = int(action)
        if not self._mask[i]:
            if self.illegal == "raise":
                raise IllegalActionError(
                    f"action {i} ({self.actions[i]}) is not legal now; legal: {np.flatnonzero(self._mask).tolist()}",
                    self.actions[i],
                    self.seat,
                )
            obs = self._aec.observation_of(game, self.seat)
            self._mask = np.zeros(n, dtype=np.int8)
            self._done = True
            return obs, self.illegal_reward, True, False, {
                "action_mask": self._mask.copy(), "illegal_action": i, "illegal_action_text": str(self.actions[i]),
            }  # fmt: skip
        self._game = game.play(self.actions[i])
        return self._advance()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (``sb3-contrib``'s ``MaskablePPO`` convention)."""
        return self._mask.astype(np.bool_)

    def render(self) -> str | None:
        """``"ansi"``: the table as text (every card: a host's picture); ``None``: nothing."""
        if self.render_mode is None:
            return None
        game = self.game
        return "\n".join([f"{self.rules.name}, learner seat {self.seat}, to act: {game.to_act}", *zone_lines(game)])
