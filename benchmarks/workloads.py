"""The workloads ``run.py`` compares: random games on cardkit and on other engines.

Every side plays whole games with uniformly random player actions and counts only
**player** actions (chance steps - deals, shuffles, picks - are played but not counted).
Game ``i`` of a batch uses seed ``i + 1`` everywhere, and the Python-side policy picks
``legal[int(rnd() * len(legal))]`` with ``rnd`` the ``random`` method of a
``random.Random(seed)``, so cardkit's reducer, ``Game.play`` and the naive Python Crazy
Eights play exactly the same games (``run.py`` checks their action counts agree).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

import cardkit
from cardkit.core.game import chance_outcome
from cardkit.core.rules import CHANCE

from harness import Workload, units
from naive_crazy_eights import NaiveCrazyEights, card_code

__all__ = [
    "Config",
    "CONFIGS",
    "pure_workload",
    "game_workload",
    "replay_workload",
    "naive_workload",
    "openspiel_cpp_workload",
    "openspiel_python_workload",
    "rlcard_uno_workload",
    "openspiel_missing",
    "rlcard_missing",
    "play_game",
    "pure_playout",
    "game_playout",
    "naive_playout",
    "naive_deal",
]


@dataclass(frozen=True)
class Config:
    """One benchmarked configuration and its nearest OpenSpiel game (if any).

    ``long_options`` make a long game for the memory measure (points matches, many hands).
    """

    label: str
    game: str
    players: int
    options: dict[str, Any]
    openspiel: str | None
    openspiel_params: dict[str, Any]
    long_options: dict[str, Any]


CONFIGS: tuple[Config, ...] = (
    Config("crazy-eights 2p", "crazy-eights", 2, {}, "crazy_eights", {"players": 2},
           {"mode": "points", "target": 10**9}),
    Config("crazy-eights 4p", "crazy-eights", 4, {}, "crazy_eights", {"players": 4},
           {"mode": "points", "target": 10**9}),
    Config("wizard 4p", "wizard", 4, {}, "oh_hell", {"players": 4}, {}),
    Config("cutthroat-spades 3p", "cutthroat-spades", 3, {"wins_needed": 1, "max_hands": 30}, "spades", {},
           {"wins_needed": 1, "max_hands": 200}),
    Config("spacc-u-mazz 2p", "spacc-u-mazz", 2, {}, None, {}, {}),
    Config("spacc-u-mazz 4p", "spacc-u-mazz", 4, {}, None, {}, {}),
)  # fmt: skip
"""The configurations measured, in print order."""


# --------------------------------------------------------------------------- cardkit


def pure_playout(rules: Any, config: Any, seed: int) -> int:
    """One random game through ``legal_actions``/``decide``/``evolve``; player actions."""
    to_act_of, legal_actions, decide, evolve = rules.to_act, rules.legal_actions, rules.decide, rules.evolve
    rnd = random.Random(seed).random
    state = rules.initial_state(config)
    chances = actions = 0
    while True:
        to_act = to_act_of(state)
        if to_act is None:
            return actions
        if to_act == CHANCE:
            action = chance_outcome(rules.pending_chance(state), seed, chances)
            chances += 1
        else:
            legal = legal_actions(state)
            action = legal[int(rnd() * len(legal))]
            actions += 1
        for event in decide(state, action):
            state = evolve(state, event)


def play_game(config: Config, seed: int, options: dict[str, Any] | None = None,
              max_actions: int | None = None, max_entries: int | None = None) -> cardkit.Game:
    """One random game through the public ``Game`` API (chance auto-played from ``seed``).

    Stops when the game is over, after ``max_actions`` player actions, or once the log
    holds ``max_entries`` entries.
    """
    rnd = random.Random(seed).random
    game = cardkit.new_game(config.game, players=config.players, seed=seed,
                            **(config.options if options is None else options))
    actions = 0
    while game.to_act is not None:
        if max_actions is not None and actions >= max_actions:
            break
        if max_entries is not None:
            last = game.last_entry
            if last is not None and last.seq + 1 >= max_entries:
                break
        legal = game.legal_actions()
        game = game.play(legal[int(rnd() * len(legal))])
        actions += 1
    return game


def game_playout(config: Config, seed: int) -> int:
    """One random game through ``new_game``, ``legal_actions()`` and ``play()``; player actions.

    The timed twin of :func:`play_game`, without its stop checks (they would be timed too).
    """
    rnd = random.Random(seed).random
    game = cardkit.new_game(config.game, players=config.players, seed=seed, **config.options)
    actions = 0
    while game.to_act is not None:
        legal = game.legal_actions()
        game = game.play(legal[int(rnd() * len(legal))])
        actions += 1
    return actions


def pure_workload(config: Config) -> Workload:
    """cardkit's pure reducer: ``rules.legal_actions`` / ``decide`` / ``evolve`` on states."""
    rules = cardkit.get_rules(config.game)
    cfg = rules.config(config.players, **config.options)

    def prepare(games: int, first: int = 1) -> Callable[[], object]:
        return lambda: sum(pure_playout(rules, cfg, seed) for seed in range(first, first + games))

    return Workload(f"pure {config.label}", "cardkit pure reducer", "player actions", prepare, units)


def game_workload(config: Config) -> Workload:
    """cardkit's immutable ``Game``: ``new_game``, ``legal_actions()``, ``play()`` (log, guards)."""

    def prepare(games: int, first: int = 1) -> Callable[[], object]:
        return lambda: sum(game_playout(config, seed) for seed in range(first, first + games))

    return Workload(f"game {config.label}", "cardkit Game.play", "player actions", prepare, units)


def replay_workload(config: Config) -> Workload:
    """``cardkit.replay`` of finished games' logs (re-decides and compares every entry)."""

    recorded: list[Any] = []  # logs of seeds 1, 2, ...: sizing and the final batch share them

    def prepare(games: int, first: int = 1) -> Callable[[], object]:
        recorded.extend(play_game(config, seed).log for seed in range(len(recorded) + 1, first + games))
        logs = recorded[first - 1 : first - 1 + games]
        entries = sum(len(log.entries) for log in logs)

        def body() -> object:
            for log in logs:
                cardkit.replay(log)
            return entries

        return body

    return Workload(f"replay {config.label}", "cardkit replay", "log entries", prepare, units)


# --------------------------------------------------------------------------- naive Python


def naive_deal(players: int, seed: int) -> tuple[int, list[int]]:
    """The first dealer and the pack order (as naive card codes) of cardkit's game ``seed``."""
    rules = cardkit.get_rules("crazy-eights")
    state = rules.initial_state(rules.config(players))
    pick = chance_outcome(rules.pending_chance(state), seed, 0)
    for event in rules.decide(state, pick):
        state = rules.evolve(state, event)
    shuffle = chance_outcome(rules.pending_chance(state), seed, 1)
    assert isinstance(pick, cardkit.Pick) and isinstance(shuffle, cardkit.Shuffle)
    return pick.index, [card_code(card.code) for card in shuffle.order]


def naive_playout(players: int, seed: int, blocked_rule: int) -> int:
    """The same game as cardkit's ``seed`` on the naive Python Crazy Eights; player actions."""
    rnd = random.Random(seed).random
    dealer, order = naive_deal(players, seed)
    game = NaiveCrazyEights(players, dealer, order, blocked_rule=blocked_rule)
    while not game.over:
        legal = game.legal_actions()
        game.apply(legal[int(rnd() * len(legal))])
    return game.player_actions


def naive_workload(config: Config) -> Workload:
    """The naive mutable Python Crazy Eights (deals from cardkit's chance, same choices)."""
    assert config.game == "crazy-eights" and not config.options
    blocked_rule = cardkit.get_rules("crazy-eights").rules_version

    def prepare(games: int, first: int = 1) -> Callable[[], object]:
        return lambda: sum(naive_playout(config.players, seed, blocked_rule) for seed in range(first, first + games))

    return Workload(f"naive {config.label}", "naive mutable Python", "player actions", prepare, units)


# --------------------------------------------------------------------------- OpenSpiel


def openspiel_missing() -> str | None:
    """Why OpenSpiel cannot be measured (None when ``pyspiel`` imports)."""
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]  # noqa: F401
    except ImportError as exc:
        return f"OpenSpiel not measured: pyspiel does not import ({exc}); pip install open_spiel"
    return None


def _player_actions_of(states: object) -> int:
    """Player (non-chance) actions in the full histories of finished OpenSpiel states."""
    assert isinstance(states, list)
    return sum(1 for state in states for step in state.full_history() if step.player >= 0)


def openspiel_cpp_workload(config: Config) -> Workload:
    """Whole games inside C++: ``pyspiel.evaluate_bots`` with ``make_uniform_random_bot`` bots.

    One Python call per game. ``evaluate_bots`` plays the game to its end on the state it
    is given, so after the timed batch the player actions are counted, untimed, from each
    finished state's ``full_history()`` (entries whose player is a seat, not chance).
    The bots (seeded ``1000 + seat``) are made once per batch, in the timed body, so
    every round plays the same games; a game costs one Python call.
    """
    import pyspiel

    assert config.openspiel is not None
    game = pyspiel.load_game(config.openspiel, config.openspiel_params)
    players = game.num_players()

    def prepare(games: int, first: int = 1) -> Callable[[], object]:
        def body() -> object:
            finished = []
            bots = [pyspiel.make_uniform_random_bot(seat, 1000 + seat) for seat in range(players)]
            for seed in range(first, first + games):
                state = game.new_initial_state()
                pyspiel.evaluate_bots(state, bots, seed)
                finished.append(state)
            return finished

        return body

    return Workload(f"os-cpp {config.label}", "OpenSpiel C++ evaluate_bots", "player actions",
                    prepare, _player_actions_of)


def openspiel_python_workload(config: Config) -> Workload:
    """OpenSpiel driven from Python at its fastest: three binding calls per step.

    ``current_player()``, ``legal_actions()``, ``apply_action()``; at a chance node the
    legal actions are the chance outcomes, which in these three games are uniform, so the
    same cheap pick samples them correctly (``tests/benchmarks`` checks the uniformity).
    """
    import pyspiel

    assert config.openspiel is not None
    game = pyspiel.load_game(config.openspiel, config.openspiel_params)

    def one(seed: int) -> int:
        rnd = random.Random(seed).random
        state = game.new_initial_state()
        actions = 0
        while True:
            player = state.current_player()
            if player >= 0:
                actions += 1
            elif player != -1:  # pyspiel.PlayerId.TERMINAL (-4)
                return actions
            legal = state.legal_actions()
            state.apply_action(legal[int(rnd() * len(legal))])

    def prepare(games: int, first: int = 1) -> Callable[[], object]:
        return lambda: sum(one(seed) for seed in range(first, first + games))

    return Workload(f"os-py {config.label}", "OpenSpiel Python-driven", "player actions", prepare, units)


# --------------------------------------------------------------------------- RLCard


def rlcard_missing() -> str | None:
    """Why RLCard cannot be measured (None when ``rlcard`` imports)."""
    try:
        import rlcard.games.uno.game  # type: ignore[import-not-found,import-untyped,unused-ignore]  # noqa: F401
    except ImportError as exc:
        return f"RLCard UNO not measured: rlcard does not import ({exc})"
    return None


def rlcard_uno_workload() -> Workload:
    """RLCard's UNO (2 players, pure Python) through its game object, not the RL env.

    ``get_legal_actions()`` then ``step(action)`` per player action (``step`` also builds
    the next player's state dict: RLCard's own cost). Its deck is shuffled by a
    ``numpy.random.RandomState(seed)``. A game is cut at 10,000 actions (never reached in
    practice with these seeds; ``run.py`` prints the batch's game count).
    """
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    def one(seed: int) -> int:
        rnd = random.Random(seed).random
        game = UnoGame(num_players=2)
        game.np_random = np.random.RandomState(seed)
        game.init_game()
        actions = 0
        while not game.is_over() and actions < 10_000:
            legal = game.get_legal_actions()
            game.step(legal[int(rnd() * len(legal))])
            actions += 1
        return actions

    def prepare(games: int, first: int = 1) -> Callable[[], object]:
        return lambda: sum(one(seed) for seed in range(first, first + games))

    return Workload("rlcard uno", "RLCard UNO 2p (Python)", "player actions", prepare, units)
