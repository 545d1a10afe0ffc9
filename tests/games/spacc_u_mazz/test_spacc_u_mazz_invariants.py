"""The generic invariant suite on random games, and a greedy-policy suite that plays hands
to their natural end (uniformly random players rarely go out: they take and draw a lot).

Default run: 6 random and 10 greedy games per setup; ``CARDKIT_LONG=1``: 16 and 30, plus
the long runs (hundreds of games per setup)."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardkit
from cardkit import IllegalActionError
from cardkit.games.spacc_u_mazz.actions import Blind, Play
from cardkit.games.spacc_u_mazz.events import HandEnded, JokerDrawn, JokerRevealed
from cardkit.rng import Rng
from cardkit.games.spacc_u_mazz.config import DEFAULT_CARD_POINTS
from cardkit.games.spacc_u_mazz.rules import PACK
from cardkit.games.spacc_u_mazz.scoring import variable_points
from cardkit.testing import check_invariants
from cardkit.testing.strategies import game_setups
from tests.conftest import long_or, long_scaled

NAME = "spacc-u-mazz"
LONG = os.environ.get("CARDKIT_LONG") == "1"
pytestmark_long = pytest.mark.skipif(not LONG, reason="long run: CARDKIT_LONG=1")

ORDERS = ("standard", "as_printed")


@long_scaled
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rank_order", ORDERS)
def test_invariants_random_games(players: int, rank_order: str) -> None:
    for seed in range(long_or(6, 16)):
        report = check_invariants(
            NAME, players, seed, policy_seed=seed + 100, rank_order=rank_order, max_turns=80
        )
        assert report.finished


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_matches(players: int) -> None:
    for seed in range(4):
        report = check_invariants(
            NAME, players, seed, policy_seed=seed, target_score=60, max_turns=25,
            rank_order=ORDERS[seed % 2], card_points={"A": 0, "3": 20},
        )  # fmt: skip
        assert report.finished


def _greedy(legal: tuple[Any, ...]) -> Any:
    """The lowest ordinary rank, as many cards as possible; else a blind card, a 2 or a 10,
    drawing, and taking the pile last."""
    plays = [a for a in legal if isinstance(a, Play)]
    ordinary = [a for a in plays if (a.hand + a.up)[0].rank not in (2, 10)]
    if ordinary:
        low = (ordinary[0].hand + ordinary[0].up)[0].rank
        return [a for a in ordinary if (a.hand + a.up)[0].rank == low][-1]
    for a in legal:
        if isinstance(a, Blind):
            return a
    if plays:
        return plays[0]
    names = [str(a) for a in legal]
    for verb in ("draw", "dump", "remove", "decline", "take"):
        for a, name in zip(legal, names):
            if name.startswith(verb):
                return a
    return legal[0]


def _mostly_greedy(game: cardkit.Game, legal: tuple[Any, ...], rng: Rng) -> Any:
    """The greedy choice nine times in ten, else a uniformly random legal action."""
    return _greedy(legal) if rng.below(10) < 9 else legal[rng.below(len(legal))]


def greedy_game(players: int, seed: int, checks: bool = True, **options: Any) -> cardkit.Game:
    """Play a game with a mostly greedy policy under the generic invariant checker
    (conservation, leaks, accepted <=> legal, notation, replay, determinism, undo);
    ``checks=False`` runs the per-decision view/action checks only every 50th decision."""
    report = check_invariants(
        NAME, players, seed, policy_seed=seed, policy=_mostly_greedy,
        full_checks_every=1 if checks else 50, **options,
    )  # fmt: skip
    return report.final


@long_scaled
@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_games_end_naturally(players: int) -> None:
    reasons: Counter[str] = Counter()
    jokers = 0
    for seed in range(long_or(10, 30)):
        game = greedy_game(players, seed, rank_order=ORDERS[seed % 2], max_turns=400)
        reasons.update(e.reason for e in game.events if isinstance(e, HandEnded))
        jokers += sum(isinstance(e, (JokerDrawn, JokerRevealed)) for e in game.events)
        result = game.result
        assert result is not None and len(result.places if hasattr(result, "places") else result.scores) == players
    assert reasons["out"] >= 4
    assert jokers >= 4


def test_illegal_actions_never_change_the_game() -> None:
    game = cardkit.new_game(NAME, players=3, seed=2)
    probes = [cardkit.get_rules(NAME).parse_action(t) for t in (
        "play 3S", "up 3S", "blind 1", "draw", "take", "pass", "dump", "keep",
        "remove up:3S", "remove down:1", "decline",
    )]  # fmt: skip
    rng = Rng.stream(5, 0)
    for _ in range(150):
        if game.is_over:
            break
        legal = set(game.legal_actions())
        for probe in probes:
            if probe in legal:
                continue
            before = game.state
            with pytest.raises(IllegalActionError):
                game.play(probe)
            assert game.state == before
        options = game.legal_actions()
        game = game.play(options[rng.below(len(options))])


@pytest.mark.slow
@pytestmark_long
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rank_order", ORDERS)
def test_invariants_long(players: int, rank_order: str) -> None:
    for seed in range(400):
        check_invariants(
            NAME, players, seed, policy_seed=seed, rank_order=rank_order,
            max_turns=200, full_checks_every=7,
        )  # fmt: skip


@pytest.mark.slow
@pytestmark_long
@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_long(players: int) -> None:
    for seed in range(300):
        greedy_game(players, seed, checks=seed % 5 == 0, rank_order=ORDERS[seed % 2],
                    target_score=None if seed % 3 else 80)  # fmt: skip


@settings(max_examples=300 if LONG else 20)
@given(
    game_setups(
        NAME,
        players=(2, 4),
        options={"rank_order": list(ORDERS), "max_turns": [1, 2, 15, 40]},
    )
)
def test_invariants_hypothesis(setup: Any) -> None:
    check_invariants(
        setup.game, setup.players, setup.seed, policy_seed=setup.policy_seed, **setup.options
    )


@given(st.lists(st.sampled_from(PACK), max_size=30))
def test_variable_points_properties(held: list[Any]) -> None:
    points = variable_points(held, DEFAULT_CARD_POINTS)
    ranks = Counter(c.rank for c in held)
    assert points == sum(
        DEFAULT_CARD_POINTS[r - 2] * (2 if k >= 4 else 1) for r, k in ranks.items()
    )
    assert points <= variable_points(held + held, DEFAULT_CARD_POINTS) <= 2 * points or not held
