"""Hypothesis strategies for property-testing rules (needs ``pip install cardkit[testing]``).

Typical use, for a registered game or your own ``Rules`` object::

    from hypothesis import given
    from cardkit.testing import check_invariants
    from cardkit.testing.strategies import game_setups

    @given(game_setups("crazy-eights", players=(2, 7), options={"draw": ["one", "until_playable"]}))
    def test_invariants(setup):
        check_invariants(setup.game, setup.players, setup.seed,
                         policy_seed=setup.policy_seed, **setup.options)

``played_games`` draws a ``Game`` after a random number of random legal actions, for
properties of your own (``game.undo``, views, scores …).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import attrs

try:
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "cardkit.testing.strategies needs hypothesis: pip install 'cardkit[testing]'"
    ) from exc

from cardkit.core.game import Game
from cardkit.core.rules import Rules
from cardkit.games import get_rules
from cardkit.rng import Rng
from cardkit.testing.invariants import random_playout

__all__ = ["GameSetup", "game_setups", "played_games"]

AnyRules = Rules[Any, Any, Any, Any]


@attrs.frozen
class GameSetup:
    """A generated game configuration: rules (or name), players, seed, policy seed, options."""

    game: Any
    players: int
    seed: int
    policy_seed: int
    options: dict[str, Any]

    def start(self) -> Game[Any, Any]:
        """A new Game for this setup (auto chance)."""
        rules = get_rules(self.game) if isinstance(self.game, str) else self.game
        return Game.start(rules, rules.config(self.players, **self.options), self.seed)


def _as_strategy(values: Any) -> st.SearchStrategy[Any]:
    if isinstance(values, st.SearchStrategy):
        return values
    return st.sampled_from(list(values))


def game_setups(
    game: str | AnyRules,
    players: tuple[int, int] | Sequence[int] | None = None,
    options: Mapping[str, Any] | None = None,
    seeds: st.SearchStrategy[int] | None = None,
) -> st.SearchStrategy[GameSetup]:
    """Setups of ``game``: ``players`` a (low, high) range or a list (default: the rules'
    min..max), ``options`` maps option names to a list of values or a strategy."""
    rules = get_rules(game) if isinstance(game, str) else game
    if players is None:
        player_st: st.SearchStrategy[int] = st.integers(rules.min_players, rules.max_players)
    elif isinstance(players, tuple) and len(players) == 2:
        player_st = st.integers(players[0], players[1])
    else:
        player_st = st.sampled_from(list(players))
    seed_st = seeds if seeds is not None else st.integers(0, 2**63 - 1)
    option_st = st.fixed_dictionaries({k: _as_strategy(v) for k, v in (options or {}).items()})
    return st.builds(
        GameSetup,
        game=st.just(game),
        players=player_st,
        seed=seed_st,
        policy_seed=st.integers(0, 2**32 - 1),
        options=option_st,
    )


def played_games(
    game: str | AnyRules,
    players: tuple[int, int] | Sequence[int] | None = None,
    options: Mapping[str, Any] | None = None,
    max_actions: int = 200,
) -> st.SearchStrategy[Game[Any, Any]]:
    """Games after 0..``max_actions`` random legal seat actions (possibly finished)."""

    def play(setup: GameSetup, count: int) -> Game[Any, Any]:
        return random_playout(setup.start(), Rng.stream(setup.policy_seed, 1), count)

    return st.builds(play, game_setups(game, players, options), st.integers(0, max_actions))
