"""Rules 15-18 and the scoring worked examples."""

from __future__ import annotations

import pytest

import cardkit
from cardkit import Card, GameOverError, Result
from cardkit.games.wizard.actions import Bid, Play
from cardkit.games.wizard.events import GameEnded, RoundScored
from cardkit.games.wizard.rules import RULES
from cardkit.games.wizard.scoring import round_points, winners
from cardkit.rng import Rng
from cardkit.testing import random_playout
from wizard_helpers import deal, dealt_state, game_from_state, play_all, stacked_order, step


@pytest.mark.parametrize(
    "bid,took,points",
    [(4, 4, 60), (5, 3, -20), (0, 0, 20), (0, 2, -20), (1, 1, 30), (2, 5, -30), (20, 20, 220)],
)
def test_rules15_16_worked_examples(bid: int, took: int, points: int) -> None:
    assert round_points(bid, took) == points


def test_rule15_16_round_is_scored_after_the_last_trick() -> None:
    # 3 players, dealer 2, round 2, trump H. Seat 0 bids 2, seat 1 bids 0, seat 2 bids 1.
    state = dealt_state(3, 2, 2, ["AH KH", "2S 3S", "4S 5S"], turned="2H")
    for b in (2, 0, 1):
        state = step(state, Bid(b))
    events = []
    for c in ("AH", "2S", "4S", "KH", "3S", "5S"):
        evs = RULES.decide(state, Play(Card(c)))
        events.extend(evs)
        for e in evs:
            state = RULES.evolve(state, e)
    scored = [e for e in events if isinstance(e, RoundScored)]
    assert scored == [RoundScored(2, (2, 0, 1), (2, 0, 0), (40, 20, -10), (40, 20, -10))]
    assert RULES.scores(state) == (40, 20, -10)
    assert RULES.view(state, 0)["round_points"] == [[40, 20, -10]]
    assert RULES.to_act(state) == cardkit.CHANCE  # next round's shuffle


def test_rule17_scores_are_cumulative_and_may_be_negative() -> None:
    game = deal(3, 0, ["AS", "2S", "3S"], turned="2H", rounds=2)
    # seat 1 leads; seat 0 bid 0 but takes the trick with AS
    game = play_all(game, "bid 0; bid 0; bid 0; play 2S; play 3S; play AS")
    assert game.scores == (-10, 20, 20)
    assert game.to_act == cardkit.CHANCE
    game = game.play(cardkit.Shuffle(stacked_order(1, ["KS 2C", "QS 3C", "JS 4C"], turned="N")))
    assert game.view(0)["round"] == 2 and game.view(0)["dealer"] == 1 and game.to_act == 2
    game = play_all(game, "bid 0; bid 2; bid 0")
    assert game.view(None)["bids"] == [2, 0, 0]
    # seat 2 leads JS, seat 0's KS wins; seat 0 leads 2C, 3C, 4C -> seat 2 wins
    game = play_all(game, "play JS; play KS; play QS; play 2C; play 3C; play 4C")
    assert game.view(None)["round_points"] == [[-10, 20, 20], [-10, 20, -10]]
    assert game.scores == (-20, 40, 10)
    assert game.is_over
    assert game.result == Result((-20, 40, 10), (1,))


def test_rule18_highest_total_wins_ties_share() -> None:
    assert winners((10, 30, -5)) == (1,)
    assert winners((30, 30, -5, 30)) == (0, 1, 3)
    assert winners((-10, -10, -10)) == (0, 1, 2)


def test_rule18_game_ends_after_last_round_with_result() -> None:
    game = random_playout(cardkit.new_game("wizard", players=5, seed=2, rounds=4), Rng.stream(8, 0))
    assert game.is_over and game.to_act is None
    assert game.legal_actions() == ()
    last = game.events[-1]
    assert isinstance(last, GameEnded)
    assert game.result == Result(last.scores, last.winners)
    assert game.result.winners == winners(game.scores)
    totals = [0] * 5
    for e in game.events:
        if isinstance(e, RoundScored):
            totals = [t + p for t, p in zip(totals, e.points)]
            assert tuple(totals) == e.scores
            assert e.points == tuple(round_points(b, t) for b, t in zip(e.bids, e.tricks))
            assert sum(e.tricks) == e.round
    assert tuple(totals) == game.scores
    with pytest.raises(GameOverError):
        game.play(Bid(0))
    assert RULES.result(game.state) is not None


def test_result_is_none_before_the_end() -> None:
    game = cardkit.new_game("wizard", players=4, seed=1)
    assert game.result is None and game.scores == (0, 0, 0, 0)


def test_game_over_decide_raises_game_over() -> None:
    game = random_playout(cardkit.new_game("wizard", players=3, seed=2, rounds=1), Rng.stream(1, 0))
    with pytest.raises(GameOverError):
        RULES.decide(game.state, Play(Card("2S")))
    with pytest.raises(GameOverError):
        game_from_state(game.state).play_text("bid 0")


def test_rule18_equal_highest_totals_share_the_win_in_a_game() -> None:
    game = deal(3, 0, ["AS", "2S", "3S"], turned="2H", rounds=1)
    game = play_all(game, "bid 0; bid 0; bid 0; play 2S; play 3S; play AS")
    assert game.is_over
    assert game.result == Result((-10, 20, 20), (1, 2))
    assert game.events[-1] == GameEnded((-10, 20, 20), (1, 2))
