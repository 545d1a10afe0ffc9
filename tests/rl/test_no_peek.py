"""No peeking: two games a seat cannot tell apart give that seat identical observations.

Each game is dealt twice from stacked decks (``auto_chance=False``) whose first shuffle
differs only by two cards that end up where the observing seat cannot see them. Whenever
the two games look the same to the seat (same view, same cards in every zone it may see,
same zone sizes) while their states differ, the observations must be equal; the control
test shows that a difference the seat *can* see does change its observation.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import cardkit  # noqa: E402
import cardkit.rl  # noqa: E402
from cardkit.core.game import chance_outcome  # noqa: E402
from cardkit.core.rules import CHANCE, Shuffle  # noqa: E402
from rl_setups import IDS, SETUPS, register_example_game  # noqa: E402


def _seen_by(game: cardkit.Game, seat: int) -> Any:
    """Everything ``seat`` may know: its view, the cards of zones it sees, every zone size."""
    zones = []
    for z in game.zones():
        owner = z.owner
        cards = tuple(c.code for c in z.cards) if seat in z.visible_to else None
        zones.append((z.name, owner, len(z.cards), cards))
    return cardkit.dumps(game.view(seat)), tuple(zones)


def _deal(name: str, players: int, options: dict[str, Any], swap: tuple[int, int] | None) -> cardkit.Game:
    """The game after its opening chance nodes; ``swap`` exchanges two positions of the first shuffle."""
    game = cardkit.new_game(name, players=players, seed=0, auto_chance=False, **options)
    k = 0
    shuffled = False
    while game.to_act == CHANCE:
        action = chance_outcome(game.pending_chance(), 99, k)
        if isinstance(action, Shuffle) and not shuffled:
            shuffled = True
            if swap is not None:
                order = list(action.order)
                i, j = swap
                order[i], order[j] = order[j], order[i]
                action = Shuffle(tuple(order))
        game = game.play(action)
        k += 1
    return game


def _twins(name: str, players: int, options: dict[str, Any], seat: int, rng: random.Random) -> tuple[cardkit.Game, cardkit.Game]:
    """Two deals that differ (as states) but look the same to ``seat``."""
    base = _deal(name, players, options, None)
    first = cardkit.new_game(name, players=players, seed=0, auto_chance=False, **options)
    k = 0
    while True:  # the first shuffle's order, as _deal draws it
        action = chance_outcome(first.pending_chance(), 99, k)
        if isinstance(action, Shuffle):
            order = action.order
            break
        first = first.play(action)
        k += 1
    size = len(order)
    for _ in range(500):
        i, j = rng.sample(range(size), 2)
        if order[i] is order[j]:
            continue
        other = _deal(name, players, options, (i, j))
        if other.state != base.state and _seen_by(other, seat) == _seen_by(base, seat):
            return base, other
    raise AssertionError(f"{name}: found no concealed swap for seat {seat}")


@pytest.mark.parametrize(("name", "players", "options"), SETUPS, ids=IDS)
def test_observations_do_not_depend_on_concealed_cards(name: str, players: int, options: dict[str, Any]) -> None:
    register_example_game()
    env = cardkit.rl.env(name, players=players, seed=0, **options)
    rng = random.Random(7)
    checked = 0
    for seat in range(players):
        a, b = _twins(name, players, options, seat, rng)
        for _ in range(40):
            if _seen_by(a, seat) == _seen_by(b, seat):
                assert np.array_equal(env.observation_of(a, seat), env.observation_of(b, seat))
                # the reference encoding (view and zones only) agrees, and so does the cache
                assert np.array_equal(env.reference_observation_of(a, seat), env.reference_observation_of(b, seat))
                assert np.array_equal(env.observation_of(a, seat), env.reference_observation_of(a, seat))
                checked += 1
            if a.is_over or b.is_over:
                break
            if a.to_act == CHANCE or b.to_act == CHANCE:
                break
            common = [x for x in a.legal_actions() if x in set(b.legal_actions())]
            if not common or a.to_act != b.to_act:
                break
            action = rng.choice(common)
            a, b = a.play(action), b.play(action)
    assert checked >= players


@pytest.mark.parametrize(("name", "players", "options"), SETUPS[:1] + SETUPS[4:5] + SETUPS[9:10], ids=[IDS[0], IDS[4], IDS[9]])
def test_a_visible_difference_changes_the_observation(name: str, players: int, options: dict[str, Any]) -> None:
    env = cardkit.rl.env(name, players=players, seed=0, **options)
    base = _deal(name, players, options, None)
    rng = random.Random(3)
    for _ in range(500):
        i, j = rng.sample(range(40), 2)
        other = _deal(name, players, options, (i, j))
        own = lambda g: Counter(c for z in g.zones() if z.owner == 0 and 0 in z.visible_to for c in z.cards)  # noqa: E731
        if own(other) != own(base):
            assert not np.array_equal(env.observation_of(base, 0), env.observation_of(other, 0))
            return
    raise AssertionError("no swap changed seat 0's own cards")
