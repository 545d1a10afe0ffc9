"""Rule 20a: the ``mercy`` option ends a game after a hand in which some score is <= -mercy."""

from __future__ import annotations

from typing import Any

import pytest

import cardkit
from cardkit import ConfigError
from cardkit.games.cutthroat_spades.events import GameStarted, GameTied, GameWon, HandScored, TournamentWon
from cardkit.games.cutthroat_spades.rules import RULES
from cardkit.rng import Rng
from cardkit.testing.invariants import random_playout
from cutthroat_helpers import NAME, finish_last_trick, last_trick_state

# seat 0 leads AS and wins the last trick of a 3-player hand: the hand scores +15, +14, +60
LAST = ["AS", "2H", "3H"]
BIDS = [("normal", 1), ("normal", 1), ("normal", 6)]
WON = [5, 5, 6]


def kinds(events: tuple[object, ...]) -> list[str]:
    return [type(e).__name__ for e in events]


def test_mercy_is_off_by_default_and_logged() -> None:
    game = cardkit.new_game(NAME, players=3, seed=1)
    assert game.config.mercy is None
    assert game.log.config["mercy"] is None
    game = cardkit.new_game(NAME, players=4, seed=1, mercy=350)
    assert game.config.mercy == 350 and game.log.config["mercy"] == 350
    assert game.view(0)["mercy"] == 350 and game.view(None)["max_hands"] is None
    assert RULES.config(3, mercy=None).mercy is None


@pytest.mark.parametrize("value", [True, False, 0, -1, -350, 3.5, "350", [350]])
def test_mercy_bad_values_are_config_errors(value: Any) -> None:
    with pytest.raises(ConfigError, match="'mercy'"):
        cardkit.new_game(NAME, players=3, seed=1, mercy=value)


def test_a_score_at_minus_mercy_ends_the_game_and_the_highest_wins() -> None:
    state = last_trick_state(3, LAST, BIDS, WON, scores=(0, 0, -410), mercy=350, wins_needed=3)
    state, events = finish_last_trick(state)
    won = [e for e in events if isinstance(e, GameWon)]
    assert won == [GameWon(1, (0,), (15, 14, -350), (1, 0, 0))]  # -350 <= -350: the game ends
    assert isinstance(events[-1], GameStarted) and state.game_number == 2 and state.scores == (0, 0, 0)


def test_a_score_above_minus_mercy_does_not_end_the_game() -> None:
    state = last_trick_state(3, LAST, BIDS, WON, scores=(0, 0, -409), mercy=350)
    state, events = finish_last_trick(state)
    assert kinds(events)[-1] == "HandScored" and state.scores == (15, 14, -349) and state.game_number == 1
    # without mercy the same hand never ends the game either way
    state = last_trick_state(3, LAST, BIDS, WON, scores=(0, 0, -5000))
    state, events = finish_last_trick(state)
    assert kinds(events)[-1] == "HandScored"


def test_mercy_tie_at_the_top_shares_the_game_as_in_rule_20() -> None:
    state = last_trick_state(3, LAST, BIDS, WON, scores=(1, 2, -410), mercy=350, wins_needed=1)
    state, events = finish_last_trick(state)
    assert events[-2:] == (GameWon(1, (0, 1), (16, 16, -350), (1, 1, 0)), TournamentWon((0, 1), (1, 1, 0)))
    assert RULES.result(state) == cardkit.Result((16, 16, -350), (0, 1))


def test_mercy_ends_a_tie_at_the_target_instead_of_playing_on() -> None:
    # without mercy: 105, 105 at target 100 is a tie, the game continues (rule 19)
    state = last_trick_state(3, LAST, BIDS, WON, scores=(90, 91, -410), target=100)
    _, events = finish_last_trick(state)
    assert any(isinstance(e, GameTied) for e in events) and not any(isinstance(e, GameWon) for e in events)
    # with mercy the hand that sent seat 2 to -350 ends the game, shared by the leaders
    state = last_trick_state(3, LAST, BIDS, WON, scores=(90, 91, -410), target=100, mercy=350)
    _, events = finish_last_trick(state)
    assert not any(isinstance(e, GameTied) for e in events)
    assert [e.winners for e in events if isinstance(e, GameWon)] == [(0, 1)]


def test_target_with_one_leader_wins_even_when_mercy_also_applies() -> None:
    state = last_trick_state(3, LAST, BIDS, WON, scores=(90, 80, -410), target=100, mercy=350)
    _, events = finish_last_trick(state)
    assert [(e.winners, e.scores) for e in events if isinstance(e, GameWon)] == [((0,), (105, 94, -350))]


def test_mercy_ends_overtime_too() -> None:
    state = last_trick_state(
        3, LAST, [("normal", 10), ("normal", 10), ("normal", 10)], WON,
        scores=(105, 105, -250), overtime=True, hands_in_game=1, target=100, mercy=300,
    )
    _, events = finish_last_trick(state)  # 5, 5, -350: still tied at the top, but mercy
    assert [(e.winners, e.scores) for e in events if isinstance(e, GameWon)] == [((0, 1), (5, 5, -350))]


@pytest.mark.parametrize(
    "hands_in_game,max_hands,scores,ends",
    [
        (0, 3, (0, 0, -410), True),  # mercy first
        (2, 3, (0, 0, 0), True),  # max_hands first
        (1, 3, (0, 0, -100), False),  # neither yet
    ],
)
def test_mercy_and_max_hands_whichever_comes_first(
    hands_in_game: int, max_hands: int, scores: tuple[int, int, int], ends: bool
) -> None:
    state = last_trick_state(
        3, LAST, BIDS, WON, scores=scores, hands_in_game=hands_in_game, max_hands=max_hands, mercy=350
    )
    _, events = finish_last_trick(state)
    assert any(isinstance(e, GameWon) for e in events) is ends


def test_random_tournaments_with_mercy_end_and_every_game_end_is_justified() -> None:
    """Random play drifts negative for ever without a guard; mercy alone ends it."""
    for seed in range(3):
        game = cardkit.new_game(NAME, players=3, seed=seed, mercy=200, wins_needed=2)
        game = random_playout(game, Rng.stream(seed, 5), 20_000)
        assert game.is_over
        target = game.config.target
        for event in game.events:
            if isinstance(event, GameWon):
                top = max(event.scores)
                assert event.winners == tuple(s for s, x in enumerate(event.scores) if x == top)
                by_target = max(event.scores) >= target and len(event.winners) == 1
                assert by_target or min(event.scores) <= -200
        assert game.result is not None and all(t >= 2 for t in (game.view(None)["tokens"][w] for w in game.result.winners))
        assert cardkit.replay(cardkit.loads(cardkit.dumps(game.log))).state == game.state


def test_mercy_hand_scored_before_the_game_ends() -> None:
    state = last_trick_state(3, LAST, BIDS, WON, scores=(0, 0, -410), mercy=350)
    _, events = finish_last_trick(state)
    assert kinds(events)[-3:] == ["HandScored", "GameWon", "GameStarted"]
    assert isinstance(events[-3], HandScored)


def test_logs_written_before_mercy_existed_still_replay() -> None:
    """``mercy`` is off by default, so no rule changed: a log whose config lacks the key
    replays unchanged and needs no ``rules_version`` bump."""
    game = random_playout(cardkit.new_game(NAME, players=3, seed=3, wins_needed=1, max_hands=2), Rng(3))
    text = cardkit.dumps(game.log)
    assert ',"mercy":null' in text
    old = cardkit.replay(cardkit.loads(text.replace(',"mercy":null', "")))
    assert old.state == game.state and old.result == game.result
