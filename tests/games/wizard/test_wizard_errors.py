"""Bad input gets a clear named error and leaves the game unchanged."""

from __future__ import annotations

from typing import Any, Callable

import pytest

import cardkit
from cardkit import (
    Card,
    ConfigError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    Pick,
    SeatError,
    Shuffle,
)
from cardkit.games.wizard.actions import Bid, ChooseTrump, Play
from cardkit.games.wizard.rules import RULES
from cardkit.games.wizard.state import DECK
from wizard_helpers import deal, play_all


def unchanged(game: cardkit.Game, call: Callable[[], Any], error: type[Exception], match: str) -> None:
    state, log = game.state, cardkit.dumps(game.log)
    with pytest.raises(error, match=match):
        call()
    assert game.state == state and cardkit.dumps(game.log) == log


@pytest.mark.parametrize("bid", [-1, 2, 3, 60])
def test_bid_out_of_range(bid: int) -> None:
    game = deal(4, 0, ["2S", "3S", "4S", "5S"], turned="9D")
    unchanged(game, lambda: game.play(Bid(bid)), IllegalActionError, r"must be 0\.\.1")
    if bid >= 0:
        unchanged(game, lambda: game.play_text(f"bid {bid}"), IllegalActionError, r"must be 0\.\.1")
    else:  # the notation has no sign: "-1" is not a number of tricks at all
        unchanged(game, lambda: game.play_text(f"bid {bid}"), NotationError, "digits 0-9")


@pytest.mark.parametrize("bid", ["1", 1.0, True, None])
def test_bid_of_wrong_type(bid: Any) -> None:
    game = deal(4, 0, ["2S", "3S", "4S", "5S"], turned="9D")
    # the generic field-type check at the boundary names the field (was the game's range message)
    unchanged(game, lambda: game.play(Bid(bid)), IllegalActionError, r"Bid\.tricks must be an integer")


def test_trump_choice_by_anyone_but_the_dealer() -> None:
    game = deal(4, 2, ["2S", "3S", "4S", "5S"], turned="W")
    for seat in (0, 1, 3):
        unchanged(game, lambda: game.play_text("trump H", seat=seat), NotYourTurnError, "not seat")
    # once trump is chosen it cannot be chosen again, by the next seat or anyone
    game = game.play_text("trump H", seat=2)
    unchanged(game, lambda: game.play_text("trump S"), IllegalActionError, "already chosen")
    unchanged(game, lambda: game.play_text("trump S", seat=2), NotYourTurnError, "not seat 2")


@pytest.mark.parametrize("turned", ["9D", "N"])
def test_trump_choice_when_no_wizard_was_turned(turned: str) -> None:
    game = deal(4, 0, ["2S", "3S", "4S", "5S"], turned=turned)
    unchanged(game, lambda: game.play(ChooseTrump("H")), IllegalActionError, "only chosen when a Wizard")
    game = play_all(game, "bid 0; bid 0; bid 0; bid 0")
    unchanged(game, lambda: game.play(ChooseTrump("S")), IllegalActionError, "only chosen when a Wizard")


def test_trump_choice_in_the_last_round_is_refused() -> None:
    from wizard_helpers import at_round, game_from_state, step

    game = game_from_state(step(at_round(6, 10, 0), Shuffle(DECK)))
    unchanged(game, lambda: game.play_text("trump S"), IllegalActionError, "no card was turned")


def test_no_trump_is_not_a_choice() -> None:
    game = deal(3, 0, ["2S", "3S", "4S"], turned="W")
    unchanged(game, lambda: game.play(ChooseTrump("X")), IllegalActionError, "S, H, D, C")  # type: ignore[arg-type]
    unchanged(game, lambda: game.play(Bid(0)), IllegalActionError, "choose trump before bidding")


def test_card_that_does_not_follow_suit() -> None:
    from wizard_helpers import dealt_state, game_from_state

    game = game_from_state(dealt_state(3, 2, 2, ["AS 2C", "3S 4C", "5S 6S"], turned="2H"))
    game = play_all(game, "bid 0; bid 0; bid 0; play AS")
    unchanged(game, lambda: game.play_text("play 4C"), IllegalActionError, "does not follow suit")


def test_wrong_seat_and_bad_seat() -> None:
    game = deal(4, 0, ["2S", "3S", "4S", "5S"], turned="9D")
    unchanged(game, lambda: game.play(Bid(0), seat=2), NotYourTurnError, "seat 1 is to act")
    unchanged(game, lambda: game.play(Bid(0), seat=4), SeatError, "out of range")


def test_not_an_action_or_a_wrong_chance_action() -> None:
    game = deal(4, 0, ["2S", "3S", "4S", "5S"], turned="9D")
    unchanged(game, lambda: game.play("bid 0"), IllegalActionError, "not an action of wizard")
    unchanged(game, lambda: game.play(Pick(0)), IllegalActionError, "no chance outcome is pending")
    bid = play_all(game, "bid 0; bid 0; bid 0; bid 0")
    # a string for a card is refused by the field-type check at the boundary, naming the field
    unchanged(bid, lambda: bid.play(Play("QS")), IllegalActionError, r"Play\.card must be a Card")  # type: ignore[arg-type]
    unchanged(bid, lambda: bid.play(Bid(0)), IllegalActionError, "bidding is over")
    with pytest.raises(IllegalActionError, match="no chance outcome"):
        RULES.decide(game.state, Shuffle(DECK))
    chance = cardkit.new_game("wizard", players=3, seed=0, auto_chance=False)
    unchanged(chance, lambda: chance.play(Bid(0)), NotYourTurnError, "chance is to act")
    unchanged(chance, lambda: chance.play(Pick(3)), IllegalActionError, "out of range")
    with pytest.raises(IllegalActionError, match="chance is to act"):
        RULES.decide(chance.state, Bid(0))
    dealt = chance.play(Pick(0))
    unchanged(dealt, lambda: dealt.play(Shuffle(DECK[1:] + (Card("AS"),))), IllegalActionError, "permutation")


@pytest.mark.parametrize("players", [2, 7])
def test_two_or_seven_players(players: int) -> None:
    with pytest.raises(ConfigError, match="wizard is for 3 to 6 players"):
        cardkit.new_game("wizard", players=players, seed=0)


def test_unknown_option() -> None:
    with pytest.raises(ConfigError, match="unknown option 'jesters'"):
        cardkit.new_game("wizard", players=4, seed=0, jesters=False)
