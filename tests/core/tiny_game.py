"""A minimal user game for core tests that need many entries cheaply ("Ticker").

One chance Pick chooses who starts; then the seats take turns playing ``Tick(n)`` (``n``
must be the entry count so far, so the action carries an int) until ``length`` ticks
have been played. One card, the ace of spades, sits face down in a ``pile`` zone, and
``Peek`` shows it to the seat that peeks (an entry that reveals a card).
"""

from __future__ import annotations

from typing import Any, Mapping

import attrs

import cardkit
from cardkit.cards import Card
from cardkit.core.config import check_players, int_in_range, reject_unknown
from cardkit.core.rules import CHANCE, Pick, PickSpec, Result, Zone, guard_turn

ACE = Card("AS")


@attrs.frozen
class TickerConfig:
    players: int
    length: int

    def as_options(self) -> dict[str, Any]:
        return {"length": self.length}


@attrs.frozen
class Tick:
    n: int

    def __str__(self) -> str:
        return f"tick {self.n}"


@attrs.frozen
class Peek:
    def __str__(self) -> str:
        return "peek"


@attrs.frozen
class Started:
    seat: int


@attrs.frozen
class Ticked:
    seat: int
    n: int


@attrs.frozen
class Peeked:
    seat: int


@attrs.frozen
class TickerState:
    config: TickerConfig
    to_act: int | None
    ticks: int
    peeked: tuple[int, ...]


class TickerRules:
    name = "ticker"
    rules_version = 1
    min_players = 2
    max_players = 4
    action_types: tuple[type, ...] = (Tick, Peek)
    event_types: tuple[type, ...] = (Started, Ticked, Peeked)

    def config(self, players: int, **options: Any) -> TickerConfig:
        reject_unknown(self.name, options, ("length",))
        return TickerConfig(
            check_players(self.name, players, 2, 4),
            int_in_range("length", options.get("length", 10), 1),
        )

    def initial_state(self, config: TickerConfig) -> TickerState:
        return TickerState(config, CHANCE, 0, ())

    def to_act(self, state: TickerState) -> int | None:
        return state.to_act

    def pending_chance(self, state: TickerState) -> PickSpec:
        return PickSpec(state.config.players)

    def legal_actions(self, state: TickerState) -> tuple[Any, ...]:
        if state.to_act is None or state.to_act == CHANCE:
            return ()
        return (Tick(state.ticks), Peek()) if state.to_act not in state.peeked else (Tick(state.ticks),)

    def decide(self, state: TickerState, action: Any) -> tuple[Any, ...]:
        seat = guard_turn(self, state, action)
        if seat == CHANCE:
            assert isinstance(action, Pick)
            return (Started(action.index),)
        if isinstance(action, Peek) and seat not in state.peeked:
            return (Peeked(seat),)
        if not isinstance(action, Peek) and getattr(action, "n", None) == state.ticks:
            return (Ticked(seat, action.n),)
        raise cardkit.IllegalActionError(f"{action} is not allowed now", action, seat)

    def evolve(self, state: TickerState, event: Any) -> TickerState:
        n = state.config.players
        if isinstance(event, Started):
            return TickerState(state.config, event.seat, 0, ())
        if isinstance(event, Peeked):
            return TickerState(state.config, state.to_act, state.ticks, (*state.peeked, event.seat))
        ticks = state.ticks + 1
        to_act = None if ticks >= state.config.length else (event.seat + 1) % n
        return TickerState(state.config, to_act, ticks, state.peeked)

    def zones(self, state: TickerState) -> tuple[Zone, ...]:
        return (Zone("pile", None, (ACE,), tuple(sorted(state.peeked))),)

    def view(self, state: TickerState, seat: int | None) -> Mapping[str, Any]:
        return {"ticks": state.ticks, "to_act": state.to_act}

    def redact(self, event: Any, viewer: int | None) -> Any:
        return event

    def scores(self, state: TickerState) -> tuple[int, ...]:
        return (0,) * state.config.players

    def result(self, state: TickerState) -> Result | None:
        return None if state.to_act is not None else Result(self.scores(state), ())

    def parse_action(self, text: str) -> Any:
        raise cardkit.NotationError("ticker has no notation")


RULES = TickerRules()


def ticked(length: int, players: int = 2, seed: int = 5) -> cardkit.Game:
    """A Ticker game with ``length`` ticks played (``length + 1`` entries)."""
    if "ticker" not in cardkit.available_games():
        cardkit.register(RULES)
    game = cardkit.new_game("ticker", players=players, seed=seed, length=length)
    while not game.is_over:
        game = game.play(Tick(game.state.ticks))
    return game
