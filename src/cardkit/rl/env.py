"""The PettingZoo AEC environment of any cardkit game (:class:`CardkitEnv`)."""

from __future__ import annotations

import secrets
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from cardkit.core.action_space import action_space_of
from cardkit.core.game import Game
from cardkit.errors import ConfigError, IllegalActionError, SeatError
from cardkit.games import get_rules
from cardkit.rl.encoding import ObservationEncoder, card_values
from cardkit.rl.features import features_for
from cardkit.rl.incremental import CachedEncoder
from cardkit.rl.outcome import check_reward_mode, rewards_of, truncated_by_guard
from cardkit.rl.readers import reader_for
from cardkit.rng import Rng

__all__ = ["CardkitEnv", "IllegalMode", "env_id", "zone_lines"]

IllegalMode = Literal["raise", "terminate"]
"""What an illegal action does: raise (default) or end the episode with a penalty."""

_SEED_LIMIT = 2**64
_MEMO_LIMIT = 200_000  # remembered action objects (see CardkitEnv._indices)


def _check_seed(seed: object, what: str) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ConfigError(f"{what} must be an integer in 0..2**64-1 or None, not {seed!r}")
    value = int(seed)
    if not 0 <= value < _SEED_LIMIT:
        raise ConfigError(f"{what} must be in 0..2**64-1, not {value}")
    return value


def env_id(game: str) -> str:
    """The environment id of game ``game``: ``"crazy-eights"`` → ``"cardkit/crazy_eights_v0"``."""
    return "cardkit/" + game.replace("-", "_") + "_v0"


class CardkitEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """A PettingZoo AEC environment over a registered cardkit game.

    Agents are ``player_0 .. player_{n-1}`` (seat ``i`` is ``player_i``). Actions are
    ``Discrete(len(rules.action_space(config)))``; action ``i`` is ``self.actions[i]``.
    ``observe(agent)`` is ``{"observation": float32 vector, "action_mask": int8 vector}``;
    the mask is non-zero only for the agent to act and equals its legal actions exactly.

    Options: ``rewards`` (``"win_loss"`` or ``"score"``, see :mod:`cardkit.rl.outcome`),
    ``illegal`` (``"raise"``: an illegal action raises :class:`~cardkit.IllegalActionError`
    and changes nothing; ``"terminate"``: the episode ends, the offender gets
    ``illegal_reward`` and the others 0), ``render_mode`` (``None``, ``"ansi"``, ``"human"``);
    every other keyword is a game option. ``seed`` seeds the first episode; see :meth:`reset`.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int,
        seed: int | None = None,
        *,
        rewards: str = "win_loss",
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        """Validate everything up front: a bad game, option or mode is a cardkit error here."""
        super().__init__()
        self.rules = get_rules(game)
        self.config = self.rules.config(players, **options)
        self._seed = _check_seed(seed, "seed")
        self.reward_mode = check_reward_mode(rewards)
        if illegal not in ("raise", "terminate"):
            raise ConfigError(f"illegal must be 'raise' or 'terminate', not {illegal!r}")
        self.illegal: IllegalMode = "raise" if illegal == "raise" else "terminate"
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float)):
            raise ConfigError(f"illegal_reward must be a number, not {illegal_reward!r}")
        self.illegal_reward = float(illegal_reward)
        if render_mode not in (None, "ansi", "human"):
            raise ConfigError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": env_id(self.rules.name)}

        self.actions: tuple[Any, ...] = action_space_of(self.rules, self.config)
        self.action_index: dict[Any, int] = {a: i for i, a in enumerate(self.actions)}
        n = int(self.config.players)
        self.players = n
        self.encoder = self._make_encoder()
        self._cached = CachedEncoder(self.encoder)
        self._reader = reader_for(self.rules, self.config)

        self.possible_agents: list[str] = [f"player_{i}" for i in range(n)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        low, high = self.encoder.low, self.encoder.high
        self.observation_spaces = {  # one space object per agent: each can be seeded alone
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (len(self.actions),), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(len(self.actions)) for a in self.possible_agents}
        self._game: Game[Any, Any] | None = None
        self.agents: list[str] = []  # no episode until reset(): agent_iter() yields nothing
        self._episodes = 0
        self._legal: dict[int, int] = {}
        self._to_act: int | None = None
        self._memo: dict[int, int] = {}
        self._alive: list[Any] = []  # the objects whose ids _memo holds, kept alive

    def _make_encoder(self) -> ObservationEncoder:
        initial = self.rules.initial_state(self.config)
        zones = self.rules.zones(initial)
        n = self.players
        spec, features = features_for(
            self.rules.name, n, self.config, card_values(zones), self.rules.view(initial, 0)
        )
        return ObservationEncoder(n, zones, spec, features)

    def __getstate__(self) -> dict[str, Any]:
        # The encoder holds closures and the rules are the registry's object: both are
        # rebuilt on unpickling (by name), so an environment pickles and deep-copies.
        state = self.__dict__.copy()
        del state["encoder"], state["rules"], state["_cached"], state["_reader"]
        state["_memo"], state["_alive"] = {}, []  # ids mean nothing in another process
        state["_game_name"] = self.rules.name
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        name = state.pop("_game_name")
        self.__dict__.update(state)
        self.rules = get_rules(name)
        self.encoder = self._make_encoder()
        self._cached = CachedEncoder(self.encoder)
        self._reader = reader_for(self.rules, self.config)

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The (cached) observation space of ``agent``."""
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The (cached) ``Discrete`` action space of ``agent``."""
        return self.action_spaces[self._agent(agent)]

    def _agent(self, agent: object) -> str:
        if agent not in self._seat_of:
            raise SeatError(f"no agent {agent!r}; agents are {', '.join(self.possible_agents)}")
        return str(agent)

    # ------------------------------------------------------------------ episode

    @property
    def game(self) -> Game[Any, Any]:
        """The cardkit :class:`~cardkit.Game` of the current episode (host side: it knows the
        seed and every card; give learners observations, not this)."""
        return self._require_episode()

    def _require_episode(self) -> Game[Any, Any]:
        if self._game is None:
            raise IllegalActionError("call reset() before using the environment")
        return self._game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode. ``seed`` seeds it (and the episodes after it, in order); without
        one, the next seed comes from the last seed given (here or to the constructor), or
        from ``secrets`` if none was ever given. ``options`` is accepted for API
        compatibility and ignored: game options are fixed when the environment is made."""
        given = _check_seed(seed, "reset seed")
        if given is not None:
            self._seed, self._episodes = given, 0
        if self._seed is None:
            game_seed = secrets.randbits(64)
        elif self._episodes == 0:
            game_seed = self._seed
        else:  # a new deal per episode, still a pure function of the seed
            game_seed = Rng.stream(self._seed, self._episodes).next64()
        self._episodes += 1
        self._game = Game.start(self.rules, self.config, game_seed)
        self._cached.clear()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_play(None)

    def _after_play(self, mover: int | None) -> None:
        """Refresh the legal set, agent selection and the end-of-game bookkeeping."""
        game = self.game
        state = game.state
        # The Game has computed to_act already; it is not computed twice per step.
        to_act = self._to_act = game.to_act
        if to_act is not None:  # a Game auto-plays chance: a seat is to act
            self._legal = dict.fromkeys(self._indices(self.rules.legal_actions(state)), 1)
            self.agent_selection = self.possible_agents[to_act]
            return
        self._legal = {}
        result = game.result
        assert result is not None  # a finished game has a result (Rules contract)
        last = game.last_entry
        cut = truncated_by_guard(self.rules.name, game.state, last.events if last else ())
        for seat, (agent, reward) in enumerate(
            zip(self.possible_agents, rewards_of(result, self.players, self.reward_mode))
        ):
            self.rewards[agent] = reward
            self.terminations[agent] = not cut
            self.truncations[agent] = cut
            self.infos[agent] = {"scores": list(result.scores), "winners": list(result.winners)}
        nxt = 0 if mover is None else (mover + 1) % self.players
        self.agent_selection = self.possible_agents[nxt]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """What ``agent`` observes now: its encoded view and its action mask."""
        seat = self._seat_of.get(agent)
        if seat is None:
            seat = self._seat_of[self._agent(agent)]  # raises a SeatError naming the agents
        game = self._game
        if game is None:
            game = self._require_episode()  # raises: no episode yet
        read = self._reader
        if read is None:
            obs = self.reference_observation_of(game, seat)
        else:
            obs = self._cached.encode(read(game.state, seat), seat, self._to_act)
        return {"observation": obs, "action_mask": self._mask(self._legal if seat == self._to_act else ())}

    def _mask(self, indices: Any) -> npt.NDArray[np.int8]:
        # A zeroed bytearray viewed by numpy: cheaper than np.zeros plus item assignment,
        # which matters for Spacc 'u Mazz's 32,694 actions.
        mask = bytearray(len(self.actions))
        for i in indices:
            mask[i] = 1
        return np.frombuffer(mask, dtype=np.int8)

    def observation_of(self, game: Game[Any, Any], seat: int) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat`` in any ``game`` of this environment's game and
        config (e.g. a stacked deal in a test): its view and the zones it may see only.

        Built-in games are encoded by the cached encoder (:mod:`cardkit.rl.incremental`);
        the vector equals :meth:`reference_observation_of`."""
        read = self._reader
        if read is None:
            return self.reference_observation_of(game, seat)
        return self._cached.encode(read(game.state, seat), seat, game.to_act)

    def reference_observation_of(self, game: Game[Any, Any], seat: int) -> npt.NDArray[np.float32]:
        """The observation of ``seat`` encoded from scratch from ``rules.view(state, seat)``
        and ``rules.zones(state)``: the specification the cached encoder is checked against."""
        state = game.state
        rules = self.rules
        return self.encoder.encode(rules.view(state, seat), rules.zones(state), seat, game.to_act)

    def mask_of(self, game: Game[Any, Any]) -> npt.NDArray[np.int8]:
        """The action mask of the seat to act in ``game`` (all zeros when it is over)."""
        return self._mask(self._indices(game.legal_actions()))

    def _indices(self, actions: tuple[Any, ...]) -> list[int]:
        """The index of each action. Games hand out the same action objects again and again
        (and hashing a multi-card play is not free), so indices are remembered by object
        identity. The memo keeps every object it knows alive, so a known id is never a
        recycled one, and the lookup runs at C speed."""
        found = list(map(self._memo.get, map(id, actions)))
        if None not in found:
            return found  # type: ignore[return-value]  # no None: every entry is an index
        return self._learn(actions)

    def _learn(self, actions: tuple[Any, ...]) -> list[int]:
        memo = self._memo
        out = []
        for action in actions:
            i = self.action_index.get(action)
            if i is None:
                raise ConfigError(
                    f"{self.rules.name} offered {action}, which its action_space(config) "
                    "lacks: the game's action_space is incomplete"
                )
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
                self._alive.clear()
            if id(action) not in memo:
                memo[id(action)] = i
                self._alive.append(action)
            out.append(i)
        return out

    def step(self, action: Any) -> None:
        """Play action number ``action`` for ``agent_selection`` (``None`` for a finished agent).

        An index that is not an integer in range, or not legal now, raises
        :class:`~cardkit.IllegalActionError` and changes nothing (``illegal="raise"``), or
        ends the episode with ``illegal_reward`` for the offender (``illegal="terminate"``).
        """
        game = self._game
        if game is None:
            game = self._require_episode()  # raises: no episode yet
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError(
                    f"{agent} is done: step(None) to let it leave (got {action!r})", None, None
                )
            self._was_dead_step(None)
            return
        seat = self._seat_of[agent]
        n = len(self.actions)
        if type(action) is not int or not 0 <= action < n:  # the common case first: a plain int
            if (
                isinstance(action, (bool, np.bool_))
                or not isinstance(action, (int, np.integer))
                or not 0 <= int(action) < n
            ):
                raise IllegalActionError(
                    f"an action is an integer in 0..{n - 1}, not {action!r}", None, seat
                )
        i = int(action)
        chosen = self.actions[i]
        if i not in self._legal:
            if self.illegal == "raise":
                raise IllegalActionError(
                    f"action {i} ({chosen}) is not legal for {agent} now; its legal actions "
                    f"are {sorted(self._legal)}",
                    chosen,
                    seat,
                )
            self._terminate_illegal(agent, i, chosen)
            return
        self._cumulative_rewards[agent] = 0.0
        # The seat is the one to act (agent_selection follows to_act) and the action is
        # one of its legal actions: Game.play's guards pass, so the seat is not re-checked.
        self._game = game.play(chosen)
        self._after_play(seat)
        if self._to_act is None:  # rewards are given only when the game ends
            self._accumulate_rewards()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Observation, accumulated reward, terminated, truncated and info of ``agent_selection``."""
        if self._game is None:
            self._require_episode()  # raises: no episode yet
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _terminate_illegal(self, agent: str, index: int, chosen: Any) -> None:
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = self.illegal_reward if a == agent else 0.0
            self.terminations[a] = True
            self.infos[a] = {}
        self.infos[agent] = {"illegal_action": index, "illegal_action_text": str(chosen)}
        self._legal = {}
        self._accumulate_rewards()

    # ------------------------------------------------------------------ output

    def render(self) -> str | None:
        """``"ansi"``: the text returned; ``"human"``: printed; ``None``: nothing."""
        if self.render_mode is None:
            return None
        game = self.game
        text = "\n".join([f"{self.rules.name} ({self.metadata['name']}), to act: {game.to_act}", *zone_lines(game)])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (the environment holds only immutable values)."""

    def __str__(self) -> str:
        return str(self.metadata["name"])


def zone_lines(game: Game[Any, Any]) -> list[str]:
    """One line per zone of ``game`` with every card in it (a host's picture, for ``render``)."""
    lines = []
    for zone in game.zones():
        owner = "" if zone.owner is None else f"[{zone.owner}]"
        lines.append(f"  {zone.name}{owner}: " + " ".join(c.code for c in zone.cards))
    return lines
