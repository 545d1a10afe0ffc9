"""Rules 9-14 and the trick worked examples: suit to follow, legal plays, trick winners."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit import Card, IllegalActionError
from cardkit.cards import SUITS
from cardkit.games.wizard.actions import Bid, Play
from cardkit.games.wizard.events import TrickWon
from cardkit.games.wizard.rules import RULES
from cardkit.games.wizard.state import DECK, WizardState
from cardkit.games.wizard.tricks import playable, suit_to_follow, trick_winner
from wizard_helpers import cards, deal, dealt_state, game_from_state, play_all, step

W, N = Card("W"), Card("N")


def bid_zero(state: WizardState) -> WizardState:
    while state.phase == "bid":
        state = step(state, RULES.legal_actions(state)[0])
    return state


def plays(state: WizardState) -> list[str]:
    return [str(a) for a in RULES.legal_actions(state)]


# ----------------------------------------------------------------- rule 9: suit to follow


def test_rule9_suit_to_follow() -> None:
    assert suit_to_follow(cards("7C N 2H")) == "C"
    assert suit_to_follow(cards("N 5D")) == "D"
    assert suit_to_follow(cards("N N")) is None  # none yet
    assert suit_to_follow(cards("N W 5D")) is None  # first non-Jester is a Wizard
    assert suit_to_follow(cards("W 5D")) is None
    assert suit_to_follow(()) is None


def test_rule9_view_shows_suit_to_follow() -> None:
    state = bid_zero(dealt_state(4, 2, 3, ["N 5S", "5D 6S", "7D 8S", "9D TS"], turned="2H"))
    assert RULES.to_act(state) == 0
    assert RULES.view(state, 1)["suit_to_follow"] is None
    state = step(state, Play(N))
    assert RULES.view(state, 1)["suit_to_follow"] is None  # only a Jester so far
    state = step(state, Play(Card("5D")))
    assert RULES.view(state, 2)["suit_to_follow"] == "D"
    assert RULES.view(state, 2)["trick"] == [[0, "N"], [1, "5D"]]


# ----------------------------------------------------------------- rule 10: legal plays


def test_rule10_wizard_led_anything_may_follow() -> None:
    state = bid_zero(dealt_state(3, 3, 2, ["W 2S 3S", "4S 5H 6D", "7S 8H N"], turned="2C"))
    state = step(state, Play(W))  # seat 0 leads
    assert plays(state) == ["play 4S", "play 5H", "play 6D"]
    state = step(state, Play(Card("5H")))  # not a spade although seat 1 holds one
    assert plays(state) == ["play N", "play 7S", "play 8H"]


def test_rule10_jester_led_then_suited_card_must_be_followed() -> None:
    # worked example: N, 5D, ... -> diamonds must be followed by those who have them
    state = bid_zero(dealt_state(4, 2, 3, ["N 5S", "5D 6S", "7D 8S", "9S TS"], turned="2H"))
    state = step(state, Play(N))
    assert plays(state) == ["play 6S", "play 5D"]  # nothing to follow yet: anything
    state = step(state, Play(Card("5D")))
    assert plays(state) == ["play 7D"]  # seat 2 holds a diamond
    with pytest.raises(IllegalActionError, match="does not follow suit"):
        RULES.decide(state, Play(Card("8S")))
    state = step(state, Play(Card("7D")))
    assert plays(state) == ["play 9S", "play TS"]  # seat 3 is void in diamonds


def test_rule10_jester_led_then_wizard_anything_may_follow() -> None:
    state = bid_zero(dealt_state(4, 2, 3, ["N 5S", "W 6S", "7D 8S", "9D TS"], turned="2H"))
    state = step(step(state, Play(N)), Play(W))
    assert plays(state) == ["play 8S", "play 7D"]
    state = step(state, Play(Card("7D")))
    assert plays(state) == ["play TS", "play 9D"]


def test_rule10_wizard_and_jester_may_always_be_played() -> None:
    state = bid_zero(dealt_state(3, 3, 2, ["2S 3S 4S", "W N 6S", "7S 8H 9H"], turned="2C"))
    state = step(state, Play(Card("2S")))
    assert plays(state) == ["play W", "play N", "play 6S"]
    state = step(state, Play(N))
    assert plays(state) == ["play 7S"]


def test_rule10_void_player_need_not_trump() -> None:
    # trump H; spades led; seat 1 is void in spades and may discard a club instead of trumping
    state = bid_zero(dealt_state(3, 2, 2, ["AS 2C", "3H 4C", "5S 6S"], turned="2H"))
    state = step(state, Play(Card("AS")))
    assert plays(state) == ["play 3H", "play 4C"]
    state = step(state, Play(Card("4C")))
    state = step(state, Play(Card("5S")))
    assert state.last_winner == 0


def test_rule10_identical_wizards_and_jesters_listed_once() -> None:
    state = bid_zero(dealt_state(3, 4, 2, ["W W N N", "2S 3S 4S 5S", "6S 7S 8S 9S"], turned="2C"))
    assert plays(state) == ["play W", "play N"]
    state = step(state, Play(W))
    assert state.hands[0] == cards("W N N")


def test_rule10_every_legal_play_matches_an_independent_oracle() -> None:
    @settings(max_examples=150, deadline=None)
    @given(
        hand=st.lists(st.sampled_from(DECK), min_size=1, max_size=8),
        trick=st.lists(st.sampled_from(DECK), max_size=4),
    )
    def check(hand: list[Card], trick: list[Card]) -> None:
        led = None
        for c in trick:
            if c is N:
                continue
            led = c.suit
            break
        ok = playable(hand, led)
        holds = led is not None and any(c.suit == led for c in hand)
        for c in hand:
            expected = c.suit is None or not holds or c.suit == led
            assert (c in ok) == expected

    check()


# ----------------------------------------------------------------- rules 11-14: winners


def test_rule11_several_wizards_first_wins() -> None:
    assert trick_winner(cards("5S W AS W"), "S") == 1
    assert trick_winner(cards("N W W"), None) == 1
    assert trick_winner(cards("W W W W"), "H") == 0


def test_rule12_all_jesters_first_wins() -> None:
    # worked example: N, N, N (3 players) -> the first Jester wins
    assert trick_winner(cards("N N N"), "H") == 0
    game = deal(3, 2, ["N", "N", "N"], turned="5H")
    game = play_all(game, "bid 0; bid 1; bid 0; play N; play N; play N")
    assert [e for e in game.events if isinstance(e, TrickWon)] == [
        TrickWon(0, ((0, N), (1, N), (2, N)))
    ]
    assert game.view(0)["tricks_won"] == [1, 0, 0]


def test_rule13_trump_beats_the_led_suit() -> None:
    # worked example: trump H, led 7C: 7C, N, 2H, KC -> 2H wins
    assert trick_winner(cards("7C N 2H KC"), "H") == 2
    game = deal(4, 3, ["7C", "N", "2H", "KC"], turned="9H")
    game = play_all(game, "bid 0; bid 0; bid 1; bid 0")
    assert game.to_act == 0
    game = play_all(game, "play 7C; play N; play 2H; play KC")
    won = [e for e in game.events if isinstance(e, TrickWon)]
    assert won[0].seat == 2
    assert game.view(1)["last_trick"] == [[0, "7C"], [1, "N"], [2, "2H"], [3, "KC"]]
    assert game.view(1)["last_trick_winner"] == 2


def test_rule13_highest_trump_wins() -> None:
    assert trick_winner(cards("7C 3H KC 2H"), "H") == 1
    assert trick_winner(cards("7C 3H AH 2H"), "H") == 2


def test_rule14_highest_of_the_suit_to_follow_wins_without_trump() -> None:
    assert trick_winner(cards("7C AS KC 2C"), "H") == 2  # AS is off-suit
    assert trick_winner(cards("7C AS KC 2C"), None) == 2
    assert trick_winner(cards("N 5D AD KS"), None) == 2  # a Jester does not set the suit


def test_worked_example_n_n_w_as_wizard_wins_and_last_may_play_anything() -> None:
    game = deal(4, 3, ["N", "N", "W", "AS"], turned="2S")
    game = play_all(game, "bid 0; bid 0; bid 0; bid 0; play N; play N; play W")
    assert game.view(3)["suit_to_follow"] is None
    assert [str(a) for a in game.legal_actions()] == ["play AS"]
    state = bid_zero(dealt_state(4, 2, 3, ["N 2C", "N 3C", "W 4C", "AS 5C"], turned="2S"))
    state = step(step(step(state, Play(N)), Play(N)), Play(W))
    assert plays(state) == ["play AS", "play 5C"]  # anything
    state = step(state, Play(Card("AS")))
    assert state.last_winner == 2 and state.tricks_won == (0, 0, 1, 0)


def _oracle_winner(trick: list[Card], trump: str | None) -> int:
    wizards = [i for i, c in enumerate(trick) if c is W]
    if wizards:
        return wizards[0]
    if all(c is N for c in trick):
        return 0
    led = next(c.suit for c in trick if c is not N)
    trumps = [i for i, c in enumerate(trick) if trump is not None and c.suit == trump]
    pool = trumps or [i for i, c in enumerate(trick) if c.suit == led]
    return max(pool, key=lambda i: trick[i].rank)


def test_rules11_to_14_match_an_independent_oracle() -> None:
    suited = [c for c in DECK if c.suit is not None]

    @settings(max_examples=300, deadline=None)
    @given(
        st.integers(3, 6).flatmap(
            lambda n: st.lists(st.sampled_from([W, N] + suited), min_size=n, max_size=n)
        ).filter(lambda t: len({c for c in t if c.suit}) == sum(1 for c in t if c.suit)),
        st.sampled_from([None, *SUITS]),
    )
    def check(trick: list[Card], trump: str | None) -> None:
        assert trick_winner(trick, trump) == _oracle_winner(trick, trump)  # type: ignore[arg-type]

    check()


# ----------------------------------------------------------------- bad plays leave the game unchanged


def test_card_not_following_suit_is_refused_and_game_unchanged() -> None:
    state = bid_zero(dealt_state(3, 2, 2, ["AS 2C", "3S 4C", "5S 6S"], turned="2H"))
    game = game_from_state(state)
    game = game.play_text("play AS")
    before = game.state
    with pytest.raises(IllegalActionError, match="4C does not follow suit") as info:
        game.play_text("play 4c")
    assert info.value.seat == 1
    assert game.state == before and game.to_act == 1


def test_card_not_held_is_refused() -> None:
    state = bid_zero(dealt_state(3, 2, 2, ["AS 2C", "3S 4C", "5S 6S"], turned="2H"))
    game = game_from_state(state)
    with pytest.raises(IllegalActionError, match="does not hold W"):
        game.play_text("play W")
    with pytest.raises(IllegalActionError, match="does not hold 5S"):
        game.play(Play(Card("5S")))


def test_play_before_bidding_is_refused() -> None:
    game = deal(3, 0, ["2S", "3S", "4S"], turned="2H")
    with pytest.raises(IllegalActionError, match="must bid"):
        game.play_text("play 3S")
    game2 = deal(3, 0, ["2S", "3S", "4S"], turned="W")
    with pytest.raises(IllegalActionError, match="must choose trump"):
        game2.play_text("play 2S", seat=0)
    with pytest.raises(IllegalActionError, match="must choose trump before bidding"):
        game2.play(Bid(0))


def test_rule11_several_wizards_in_a_game_first_wins() -> None:
    game = deal(4, 0, ["W", "AH", "W", "W"], turned="2H")
    game = play_all(game, "bid 0; bid 0; bid 0; bid 0; play AH; play W; play W; play W")
    won = [e for e in game.events if isinstance(e, TrickWon)]
    assert won[0].seat == 2  # seat 1 led AH (trump), seat 2 played the first Wizard
    assert game.scores == (20, 20, -10, 20)
