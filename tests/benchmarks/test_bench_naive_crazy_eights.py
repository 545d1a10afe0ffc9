"""The naive Python Crazy Eights of the benchmarks plays exactly cardkit's games.

Lock-step: from cardkit's own deal (its chance outcomes fed to the naive game), at every
player step both must have the same seat to act, the same legal actions in the same
order, the same hands and stock; at the end the same length, scores and winners. This is
what makes "pure / naive mutable Python" in ``benchmarks/run.py`` a like-for-like ratio.
"""

from __future__ import annotations

import os
import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardkit
from cardkit.games.crazy_eights.events import HandEnded

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from naive_crazy_eights import DRAW, PASS, NaiveCrazyEights, card_code, describe_action  # noqa: E402

RULES_VERSION = cardkit.get_rules("crazy-eights").rules_version

long_run = pytest.mark.skipif(os.environ.get("CARDKIT_LONG") != "1", reason="long run: CARDKIT_LONG=1")


def _codes(cards: tuple[cardkit.Card, ...]) -> list[int]:
    return [card_code(card.code) for card in cards]


def lockstep(players: int, seed: int, policy_seed: int, draw_bias: float, max_turns: int = 1000) -> str:
    """Play one game on both; return how it ended ("out", "blocked", "tie", "limit")."""
    game = cardkit.new_game("crazy-eights", players=players, seed=seed, max_turns=max_turns)
    pick, shuffle = (entry.action for entry in game.log.entries[:2])
    assert isinstance(pick, cardkit.Pick) and isinstance(shuffle, cardkit.Shuffle)
    naive = NaiveCrazyEights(players, pick.index, _codes(shuffle.order), max_turns, RULES_VERSION)
    rnd = random.Random(policy_seed).random
    while game.to_act is not None:
        state = game.state
        assert naive.to_act == game.to_act
        assert [sorted(h) for h in naive.hands] == [sorted(_codes(h)) for h in state.hands]
        assert naive.stock == _codes(state.stock)
        legal = game.legal_actions()
        naive_legal = naive.legal_actions()
        assert [describe_action(a) for a in naive_legal] == [str(a) for a in legal]
        if naive_legal[-1] in (DRAW, PASS) and rnd() < draw_bias:
            index = len(legal) - 1
        else:
            index = int(rnd() * len(legal))
        game = game.play(legal[index])
        naive.apply(naive_legal[index])
    assert naive.over and naive.to_act is None and naive.legal_actions() == []
    assert naive.player_actions == game.seat_actions
    result = game.result
    assert result is not None
    assert (tuple(naive.scores), tuple(naive.winners)) == (result.scores, result.winners)
    ended = [e for e in game.last_entry.events if isinstance(e, HandEnded)]  # type: ignore[union-attr]
    assert len(ended) == 1
    if game.state.turns >= max_turns:
        return "limit"
    if not ended[0].blocked:
        return "out"
    return "blocked" if ended[0].winner is not None else "tie"


def test_rules_version_is_mirrored() -> None:
    # The naive game mirrors the counting of passes of Crazy Eights rules versions 1 and 2;
    # a later version needs the naive game checked again before this comparison means anything.
    assert RULES_VERSION in (1, 2)


@pytest.mark.parametrize("players", [2, 4])
def test_same_games_for_many_seeds(players: int) -> None:
    endings: Counter[str] = Counter()
    for seed in range(1, 61):
        endings[lockstep(players, seed, seed, 0.0)] += 1  # the benchmark's uniform policy
        endings[lockstep(players, seed, 10_000 + seed, 0.85)] += 1  # drains the stock: blocked hands
    for seed in range(1, 11):
        endings[lockstep(players, seed, seed, 0.5, max_turns=12)] += 1  # the max_turns guard
    # Every way a hand ends was compared, not only the common one.
    assert endings["out"] > 0 and endings["blocked"] > 0 and endings["limit"] > 0, endings
    assert sum(endings.values()) == 130


def test_a_tied_blocked_hand_is_compared_too() -> None:
    ties = sum(lockstep(players, seed, seed, 0.95) == "tie" for players in (2, 3) for seed in range(1, 81))
    assert ties > 0


@settings(max_examples=40)
@given(
    players=st.sampled_from([2, 3, 4, 5]),
    seed=st.integers(0, 2**64 - 1),
    policy_seed=st.integers(0, 2**32),
    draw_bias=st.sampled_from([0.0, 0.5, 0.9]),
)
def test_same_games_for_any_seed(players: int, seed: int, policy_seed: int, draw_bias: float) -> None:
    lockstep(players, seed, policy_seed, draw_bias)


def test_notation_of_naive_actions() -> None:
    assert describe_action(card_code("QS")) == "play QS"
    assert describe_action(card_code("8H") | (3 + 1) << 6) == "play 8H C"
    assert describe_action(card_code("TD")) == "play TD"
    assert describe_action(DRAW) == "draw" and describe_action(PASS) == "pass"


@pytest.mark.slow
@long_run
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_long_run_same_games(players: int) -> None:
    # 4 x 1,500 games (about 25 s of CPU); the default run checks a slice of this above.
    endings: Counter[str] = Counter()
    for seed in range(1, 1501):
        endings[lockstep(players, 10**6 + seed, seed, (0.0, 0.5, 0.9)[seed % 3], 1000 if seed % 10 else 25)] += 1
    assert endings["out"] and endings["blocked"] and endings["limit"], endings
