"""Game.undo(safe=True): refused when anyone learned something the actor did not know."""

from __future__ import annotations

from typing import Any, Mapping

import attrs
import pytest

import cardkit
from cardkit import CHANCE, Card, IllegalActionError, Pick, PickSpec, Result, Zone
from cardkit.core.rules import guard_turn
from cardkit.games.crazy_eights import Play


def _c8_queen() -> cardkit.Game:
    # the reported case: seat 1 plays QS and seat 0 draws five penalty cards in that entry
    game = cardkit.new_game("crazy-eights", players=2, seed=53, queen_of_spades_draws_five=True)
    assert game.to_act == 1
    return game.play(Play(Card("QS")), seat=1)


def test_queen_of_spades_penalty_draw_is_not_safely_undoable() -> None:
    before = cardkit.new_game("crazy-eights", players=2, seed=53, queen_of_spades_draws_five=True)
    game = _c8_queen()
    drawn = game.log.entries[-1].events[1]
    assert type(drawn).__name__ == "CardsDrawn" and drawn.seat == 0 and drawn.count == 5
    with pytest.raises(IllegalActionError, match="unsafe undo: after play QS, seat 0 could see"):
        game.undo(1, safe=True)
    # the message does not name the cards seat 0 saw
    try:
        game.undo(1, safe=True)
    except IllegalActionError as exc:
        assert not any(card.code in str(exc) for card in drawn.cards)
    assert game.undo(1) == before  # the host may still undo exactly


def _spades_dealer_bid(seed: int) -> cardkit.Game:
    game = cardkit.new_game("cutthroat-spades", players=5, seed=seed, jokers=2)
    while True:
        game = game.play(game.legal_actions()[0])  # each seat looks at its hand, then bids
        if any(type(e).__name__ == "BiddingEnded" for e in game.log.entries[-1].events):
            return game


@pytest.mark.parametrize("seed", [1, 2, 4, 5])
def test_bidding_ended_names_the_two_of_clubs_holder(seed: int) -> None:
    game = _spades_dealer_bid(seed)
    two_clubs = Card("2C")
    holder = next(z for z in game.zones() if two_clubs in z.cards)
    assert holder.owner != game.state.dealer  # the dealer did not know where it was
    with pytest.raises(IllegalActionError, match="depends on where cards hidden from you lie"):
        game.undo(1, safe=True)


def test_bid_of_a_dealer_who_holds_the_two_of_clubs_is_safely_undoable() -> None:
    game = _spades_dealer_bid(3)
    holder = next(z for z in game.zones() if Card("2C") in z.cards)
    assert holder.owner == game.state.dealer and game.state.dealer in holder.visible_to
    assert game.undo(1, safe=True) == game.undo(1)


def test_a_misclick_is_safely_undoable() -> None:
    game = cardkit.new_game("crazy-eights", players=3, seed=7)
    plays = _plain_plays(game)
    assert plays, "no plain play in this deal"
    for action in plays:
        after = game.play(action)
        assert after.undo(1, safe=True) == game


def test_a_trick_card_in_spades_is_safely_undoable() -> None:
    game = _spades_dealer_bid(1)
    played = game.play(game.legal_actions()[0])
    assert played.undo(1, safe=True) == game


def _plain_plays(game: cardkit.Game) -> list[Any]:
    return [a for a in game.legal_actions() if isinstance(a, Play) and a.card.rank not in (2, 8, 11, 12)]


def test_chance_and_several_seats_are_refused() -> None:
    game = cardkit.new_game("crazy-eights", players=3, seed=7)
    once = game.play(_plain_plays(game)[0])
    assert once.to_act != game.to_act
    twice = once.play(once.legal_actions()[-1])
    with pytest.raises(IllegalActionError, match="several seats"):
        twice.undo(2, safe=True)
    assert twice.undo(2) == game
    # a chance entry among the undone entries (checked where undo collects them)
    from cardkit.core.knowledge import check_safe_undo
    from cardkit.core.log import LogEntry

    chance = LogEntry(0, CHANCE, Pick(0), ())
    with pytest.raises(IllegalActionError, match="chance outcome"):
        check_safe_undo(game.rules, 3, game.state, [LogEntry(1, 0, Play(Card("2S")), ()), chance])


# A game with two copies of the ace of spades: one in seat 0's hand (seen by seat 0),
# one face down in a pile. Seat 0's action "show" turns the pile face up for seat 1.

ACE = Card("AS")


@attrs.frozen
class Show:
    def __str__(self) -> str:
        return "show"


@attrs.frozen
class Wait:
    def __str__(self) -> str:
        return "wait"


@attrs.frozen
class Shown:
    seat: int


@attrs.frozen
class Waited:
    seat: int


@attrs.frozen
class CopiesState:
    players: int
    to_act: int | None
    shown: bool


@attrs.frozen
class CopiesConfig:
    players: int

    def as_options(self) -> dict[str, Any]:
        return {}


class CopiesRules:
    name = "two-aces"
    rules_version = 1
    min_players = 2
    max_players = 2
    action_types: tuple[type, ...] = (Show, Wait)
    event_types: tuple[type, ...] = (Shown, Waited)

    def config(self, players: int, **options: Any) -> CopiesConfig:
        return CopiesConfig(players)

    def initial_state(self, config: CopiesConfig) -> CopiesState:
        return CopiesState(config.players, 0, False)

    def to_act(self, state: CopiesState) -> int | None:
        return state.to_act

    def pending_chance(self, state: CopiesState) -> PickSpec:
        return PickSpec(1)

    def legal_actions(self, state: CopiesState) -> tuple[Any, ...]:
        return (Show(), Wait()) if state.to_act is not None else ()

    def decide(self, state: CopiesState, action: Any) -> tuple[Any, ...]:
        seat = guard_turn(self, state, action)
        return (Shown(seat),) if isinstance(action, Show) else (Waited(seat),)

    def evolve(self, state: CopiesState, event: Any) -> CopiesState:
        nxt = (state.to_act or 0) + 1
        to_act = nxt if nxt < state.players else None
        return CopiesState(state.players, to_act, state.shown or isinstance(event, Shown))

    def zones(self, state: CopiesState) -> tuple[Zone, ...]:
        return (
            Zone("hand", 0, (ACE,), (0,)),
            Zone("pile", None, (ACE,), (1,) if state.shown else ()),
        )

    def view(self, state: CopiesState, seat: int | None) -> Mapping[str, Any]:
        return {}

    def redact(self, event: Any, viewer: int | None) -> Any:
        return event

    def scores(self, state: CopiesState) -> tuple[int, ...]:
        return (0, 0)

    def result(self, state: CopiesState) -> Result | None:
        return None if state.to_act is not None else Result((0, 0), ())

    def parse_action(self, text: str) -> Any:
        raise cardkit.NotationError("no notation")


def test_a_second_copy_counts() -> None:
    rules = cardkit.register(CopiesRules())
    game = cardkit.new_game(rules.name, players=2, seed=0)
    assert game.to_act == 0 and CHANCE == -1
    waited = game.play(Wait())
    assert waited.undo(1, safe=True) == game
    shown = game.play(Show())
    # seat 0 saw an ace of spades, but not this one: seat 1 learned where the second is
    with pytest.raises(IllegalActionError, match="seat 1 could see"):
        shown.undo(1, safe=True)
