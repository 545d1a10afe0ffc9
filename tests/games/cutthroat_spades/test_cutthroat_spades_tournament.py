"""Rules 19-21 (games, ties, max_hands, tokens, tournament), the view, and whole hands through the Game API."""

from __future__ import annotations

import json

import pytest

import cardkit
from cardkit import GameOverError, Result
from cardkit.games.cutthroat_spades.events import GameStarted, GameTied, GameWon, HandScored, TournamentWon
from cardkit.games.cutthroat_spades.rules import RULES
from cardkit.rng import Rng
from cardkit.testing.invariants import random_playout
from cutthroat_helpers import NAME, bid_all, dealt_game, finish_last_trick, last_trick_state, play_first_legal

# seat 0 leads AS and wins the last trick of a 3-player hand
LAST = ["AS", "2H", "3H"]
BIDS = [("normal", 1), ("normal", 1), ("normal", 6)]
WON = [5, 5, 6]  # before the last trick: afterwards 6, 5, 6 -> +15, +14, +60


def kinds(events: tuple[object, ...]) -> list[str]:
    return [type(e).__name__ for e in events]


def test_rule_19_game_ends_when_a_player_reaches_the_target_highest_wins() -> None:
    state = last_trick_state(3, LAST, BIDS, WON, scores=(90, 80, 50), target=100, wins_needed=3)
    state, events = finish_last_trick(state)
    assert kinds(events)[-3:] == ["HandScored", "GameWon", "GameStarted"]
    won = [e for e in events if isinstance(e, GameWon)][0]
    assert won == GameWon(1, (2,), (105, 94, 110), (0, 0, 1))
    assert won.winners == (2,) and won.scores == (105, 94, 110)  # the highest, not the first to reach it
    # rule 21: a new game, scores/bags/blind-six uses reset, the deal keeps rotating
    assert state.game_number == 2 and state.scores == (0, 0, 0) and state.bags == (0, 0, 0)
    assert state.blind_six_used == (0, 0, 0) and state.tokens == (0, 0, 1)
    assert state.dealer == 1 and state.phase == "deal"
    assert RULES.view(state, 0)["games"] == [{"game_number": 1, "scores": [105, 94, 110], "winners": [2]}]


def test_rule_19_no_one_at_target_the_game_goes_on() -> None:
    state = last_trick_state(3, LAST, BIDS, WON, scores=(0, 0, 0), target=100)
    state, events = finish_last_trick(state)
    assert kinds(events)[-1] == "HandScored" and state.game_number == 1 and state.scores == (15, 14, 60)


def test_rule_19_a_tie_at_the_target_continues_until_one_player_leads_alone() -> None:
    state = last_trick_state(3, LAST, BIDS, WON, scores=(90, 91, 0), target=100)
    state, events = finish_last_trick(state)
    assert state.scores == (105, 105, 60)
    assert GameTied(1, (105, 105, 60)) in events
    assert not any(isinstance(e, GameWon) for e in events)
    assert state.overtime and state.game_number == 1 and state.phase == "deal"
    assert RULES.view(state, None)["tie_continues"] is True
    # still tied after the next hand: the game goes on (no second GameTied)
    bids = [("normal", 10), ("normal", 10), ("normal", 10)]
    again = last_trick_state(3, LAST, bids, WON, scores=(105, 105, 60), overtime=True, hands_in_game=1, target=100)
    again, events = finish_last_trick(again)
    assert again.scores == (5, 5, -40) and kinds(events)[-1] == "HandScored" and again.overtime
    # then seat 2 leads alone, below the target, and wins the game
    bids = [("normal", 10), ("normal", 10), ("normal", 6)]
    last = last_trick_state(3, LAST, bids, WON, scores=(95, 95, 0), overtime=True, hands_in_game=2, target=100)
    last, events = finish_last_trick(last)
    assert [e.winners for e in events if isinstance(e, GameWon)] == [(2,)]
    assert last.history[-1].scores == (-5, -5, 60)


def test_rule_20_max_hands_ends_the_game_and_a_tie_shares_it() -> None:
    state = last_trick_state(3, LAST, BIDS, WON, scores=(90, 91, 0), hands_in_game=1, max_hands=2, wins_needed=2)
    state, events = finish_last_trick(state)
    won = [e for e in events if isinstance(e, GameWon)]
    assert won == [GameWon(1, (0, 1), (105, 105, 60), (1, 1, 0))]
    assert isinstance(events[-1], GameStarted) and state.tokens == (1, 1, 0)
    # before the max_hands-th hand nothing ends
    state = last_trick_state(3, LAST, BIDS, WON, scores=(90, 91, 0), hands_in_game=0, max_hands=2)
    state, events = finish_last_trick(state)
    assert kinds(events)[-1] == "HandScored"


def test_rule_20_tied_winners_reaching_wins_needed_together_both_win() -> None:
    state = last_trick_state(3, LAST, BIDS, WON, scores=(90, 91, 0), max_hands=1, wins_needed=1)
    state, events = finish_last_trick(state)
    assert events[-1] == TournamentWon((0, 1), (1, 1, 0))
    assert RULES.result(state) == Result((105, 105, 60), (0, 1))


def test_rule_21_the_tournament_ends_at_wins_needed() -> None:
    state = last_trick_state(3, LAST, BIDS, WON, scores=(490, 0, 0), tokens=(1, 1, 0), wins_needed=2)
    state, events = finish_last_trick(state)
    assert events[-2:] == (GameWon(1, (0,), (505, 14, 60), (2, 1, 0)), TournamentWon((0,), (2, 1, 0)))
    assert RULES.to_act(state) is None and RULES.legal_actions(state) == ()
    assert RULES.result(state) == Result((505, 14, 60), (0,))
    assert RULES.scores(state) == (505, 14, 60)  # the final game's points
    view = RULES.view(state, 1)
    assert view["tokens"] == [2, 1, 0] and view["winners"] == [0] and view["to_act"] is None
    with pytest.raises(GameOverError):
        RULES.decide(state, RULES.parse_action("look"))


def test_a_whole_tournament_through_the_game_api() -> None:
    game = cardkit.new_game(NAME, players=4, seed=11, target=100, wins_needed=2, max_hands=6)
    game = random_playout(game, Rng(5))
    assert game.is_over and game.to_act is None and game.legal_actions() == ()
    view = game.view(None)
    result = game.result
    assert result is not None
    assert all(view["tokens"][w] >= 2 for w in result.winners)
    assert sum(view["tokens"]) == sum(len(g["winners"]) for g in view["games"])
    assert view["games"][-1]["scores"] == list(result.scores) == list(game.scores)
    assert len(view["games"]) == view["game_number"]
    with pytest.raises(GameOverError):
        game.play_text("look")
    again = cardkit.replay(cardkit.loads(cardkit.dumps(game.log)))
    assert again == game


def test_the_hand_score_event_details() -> None:
    game = bid_all(dealt_game(3, 0), {1: "bid nil", 2: "bid 5", 0: "bid 1f"})
    game = play_first_legal(game)
    scored = [e for e in game.events if isinstance(e, HandScored)][0]
    assert [s.kind for s in scored.seats] == ["one_for_fifty", "nil", "normal"]
    assert tuple(s.score for s in scored.seats) == game.scores
    assert sum(s.tricks for s in scored.seats) == 17


# --- the view -------------------------------------------------------------------------------

REQUIRED = {
    "hand", "hand_sizes", "dealer", "bids", "tricks_won", "bags", "scores", "tokens", "game_number",
    "spades_broken", "trick", "to_act", "last_trick",
}


def test_view_fields_and_json() -> None:
    game = bid_all(dealt_game(4, 0, ["", "AH 2H", "3H"]), {1: "bid 2", 2: "bid blind-nil"})
    game = game.play_text("play ah").play_text("play 3h")
    for seat in (None, 0, 1, 2, 3):
        view = game.view(seat)
        assert REQUIRED <= set(view)
        json.dumps(view)
    view = game.view(1)
    assert view["hand"] == [c.code for c in game.state.hands[1]] and len(view["hand"]) == 12
    assert view["hand_sizes"] == [13, 12, 12, 13]
    assert view["dealer"] == 0
    assert view["bids"][1] == {"kind": "normal", "tricks": 2}
    assert view["bids"][2] == {"kind": "blind_nil", "tricks": 0}
    assert view["trick"] == [[1, "AH"], [2, "3H"]] and view["to_act"] == 3
    assert view["tricks_won"] == [0, 0, 0, 0] and view["last_trick"] == []
    assert view["scores"] == [0, 0, 0, 0] and view["bags"] == [0, 0, 0, 0] and view["tokens"] == [0, 0, 0, 0]
    assert view["game_number"] == 1 and view["spades_broken"] is False
    assert game.view(None)["hand"] is None
    assert view["legal_actions"] == [] and game.view(3)["legal_actions"]


def test_view_hand_is_null_before_looking_and_sorted_after() -> None:
    game = dealt_game(5, 0, ["", "2C RJ AS 2S KH"], jokers=2)
    assert game.view(1)["hand"] is None
    hand = game.play_text("look").view(1)["hand"]
    assert hand[:2] == ["RJ", "2S"] and "AS" in hand and "2C" in hand
    assert hand == [c.code for c in cardkit.sort_cards([cardkit.Card.parse(c) for c in hand])]
