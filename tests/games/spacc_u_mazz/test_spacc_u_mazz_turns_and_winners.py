"""Issue 24, items 19-20: a red joker's decision is part of its turn for ``max_turns``
(rule 20, "the turn ends after the joker acts"), and a one-hand game is won by the hand's
winner, the first out (rule 22), whatever a custom ``fixed_points`` table pays; a match to
``target_score`` is still won by the highest total (rule 28)."""

from __future__ import annotations

import random
from typing import Any

import cardkit
from cardkit.games.spacc_u_mazz.events import (
    ChoiceOffered,
    GameEnded,
    HandEnded,
    HandScored,
    HandStarted,
    JokerDrawn,
    TurnStarted,
)
from cardkit.games.spacc_u_mazz.rules import RED_JOKER, RULES
from spacc_helpers import NAME, act, table, types

# ---------------------------------------------------------------------------- item 20


def test_a_red_joker_decision_adds_no_turn() -> None:
    for st, first, answer in (
        (table(hands=["KS", "3C"], pile="9H", main="RJ 5D", turns=4), "draw", "keep"),
        (table(hands=["", "3C"], ups=["9D", ""], pile="KH", main="RJ 5D", turns=4), "draw", "decline"),
        (table(hands=["", "3C"], ups=["7H", ""], downs=["RJ 8S", ""], pile="9H", main="4D", turns=4),
         "blind 1", "remove up:7H"),
    ):  # fmt: skip
        offered, events = act(st, first)
        assert isinstance(events[-1], ChoiceOffered)
        assert offered.turns == 4 and RULES.view(offered, 0)["turns"] == 4  # the turn goes on
        done, events = act(offered, answer)
        assert isinstance(events[-1], TurnStarted) and done.turns == 5  # now it ended


def test_the_guard_never_cuts_a_red_joker_decision() -> None:
    """On the last turn the joker still acts: the choice is offered, and the hand ends
    right after the decision."""
    st = table(hands=["KS 4C", "3C"], ups=["7H", ""], pile="9H", main="RJ 5D", turns=6, max_turns=7)
    offered, events = act(st, "draw")
    assert types(events) == ["JokerDrawn", "ChoiceOffered"] and offered.pending == "dump"
    done, events = act(offered, "dump")
    assert types(events)[:2] == ["HandDumped", "HandEnded"]
    assert next(e for e in events if isinstance(e, HandEnded)).reason == "max_turns"
    assert done.turns == 7


def _hands(game: cardkit.Game) -> list[list[Any]]:
    """The events of every hand, each from its HandStarted on."""
    hands: list[list[Any]] = []
    for event in game.events:
        if isinstance(event, HandStarted):
            hands.append([])
        if hands:
            hands[-1].append(event)
    return hands


def test_max_turns_counts_turns_in_games_with_red_joker_draws() -> None:
    """Random 3-player games stopped by the guard: each such hand had exactly max_turns
    turns (its TurnStarted events, plus the turn that ended it), however many red-joker
    decisions it had, and the view's ``turns`` says the same."""
    checked = with_draws = 0
    for seed in range(40):
        max_turns = 20 + seed % 7
        rng = random.Random(seed)
        game = cardkit.new_game(NAME, players=3, seed=seed, max_turns=max_turns, target_score=60)
        while not game.is_over:
            game = game.play(rng.choice(game.legal_actions()))
        assert game.view(0)["turns"] == game.state.turns
        for hand in _hands(game):
            ended = [e for e in hand if isinstance(e, HandEnded)]
            if not ended or ended[0].reason != "max_turns":
                continue
            turns = sum(isinstance(e, TurnStarted) for e in hand) + 1
            assert turns == max_turns, (seed, turns)
            checked += 1
            if any(isinstance(e, JokerDrawn) and e.card is RED_JOKER for e in hand) and any(
                isinstance(e, ChoiceOffered) for e in hand
            ):
                with_draws += 1
        assert game.state.turns <= max_turns
    assert checked >= 40 and with_draws >= 5, (checked, with_draws)


def test_seat_actions_are_turns_plus_decisions() -> None:
    """A one-hand game stopped by the guard: seat actions = max_turns + decisions."""
    found = 0
    for seed in range(60):
        rng = random.Random(seed)
        game = cardkit.new_game(NAME, players=2, seed=seed, max_turns=30)
        while not game.is_over:
            game = game.play(rng.choice(game.legal_actions()))
        decisions = sum(isinstance(e, ChoiceOffered) for e in game.events)
        ended = next(e for e in game.events if isinstance(e, HandEnded))
        if ended.reason == "max_turns" and decisions:
            assert game.seat_actions == 30 + decisions and game.state.turns == 30
            found += 1
    assert found >= 3


# ---------------------------------------------------------------------------- item 19

LATER_PLACES_MORE = [1, 10, 30]  # 3 players: first 1, second 10, last 30


def _three_seat_hand(**options: Any) -> tuple[Any, tuple[Any, ...]]:
    """Seat 0 goes out first, seat 2 second, seat 1 is last holding 3C AS (variable 12)."""
    st = table(3, hands=["AS", "3C", "5C"], pile="", main="4D", **options)
    st, _ = act(st, "play AS")
    st, _ = act(st, "take")
    return act(st, "play 5C")


def test_a_one_hand_game_is_won_by_the_first_out_whatever_the_table_pays() -> None:
    after, events = _three_seat_hand(fixed_points=LATER_PLACES_MORE)
    ended = next(e for e in events if isinstance(e, HandEnded))
    scored = next(e for e in events if isinstance(e, HandScored))
    assert ended.places == (0, 2, 1)
    assert scored.points == (1 + 12, 30, 10)  # the table as given (rule 27)
    assert events[-1] == GameEnded((13, 30, 10), (0,))  # seat 0 went out first (rule 22)
    assert RULES.result(after) == cardkit.Result((13, 30, 10), (0,))


def test_two_players_first_out_wins_a_single_hand() -> None:
    st = table(hands=["AS", "3C"], pile="9H", main="4D", fixed_points=[0, 40])
    after, events = act(st, "play AS")
    assert events[-1] == GameEnded((11, 40), (0,))


def test_a_guard_ended_one_hand_game_is_won_by_its_first_place() -> None:
    """Rule 23 places the holders; the first of them is the hand's winner (rule 22)."""
    st = table(3, hands=["3S 3H", "AS", "KS 4C"], pile="", main="4D 5D", turns=9, max_turns=10,
               fixed_points=LATER_PLACES_MORE)  # fmt: skip
    after, events = act(st, "draw")
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.reason == "max_turns" and ended.places == (1, 2, 0)
    result = RULES.result(after)
    assert result is not None and result.winners == (1,) and result.scores[0] == 30


def test_a_match_is_still_won_by_the_highest_total() -> None:
    after, events = _three_seat_hand(fixed_points=LATER_PLACES_MORE, target_score=20)
    assert events[-1] == GameEnded((13, 30, 10), (1,))  # rule 28: totals decide a match


def test_a_real_one_hand_game_names_the_first_out() -> None:
    """Played to its end by a greedy policy (play the first legal move), with a table that
    pays later places more: the winner is the seat that went out first."""
    found = 0
    for seed in range(12):
        game = cardkit.new_game(NAME, players=3, seed=seed, fixed_points=[1, 20, 40])
        while not game.is_over:
            game = game.play(game.legal_actions()[0])
        ended = next(e for e in game.events if isinstance(e, HandEnded))
        result = game.result
        assert result is not None and result.winners == (ended.places[0],)
        if ended.reason == "out" and result.scores[ended.places[0]] < max(result.scores):
            found += 1  # the first out won without the top score
    assert found >= 1
