"""A complete user-defined game ("High Card") on cardkit's Rules protocol.

Two to four players each get two cards from eight spades (2S..9S); in turn, starting
left of the dealer, each plays one card face up; when all cards are played the owner of
the highest card wins. Small, but it implements everything a game must: config,
chance (first dealer, one shuffle), decide/evolve, zones, views, redaction, notation.

Run it:  python examples/custom_game.py
"""

from __future__ import annotations

from typing import Any, Mapping

import attrs

import cardkit
from cardkit.cards import Card, sort_cards
from cardkit.core.config import check_players, reject_unknown
from cardkit.core.rules import (
    CHANCE,
    Pick,
    PickSpec,
    Result,
    Shuffle,
    ShuffleSpec,
    Zone,
    guard_turn,
    parse_chance_action,
)
from cardkit.core.table import deal

DECK = tuple(Card(f"{r}S") for r in "23456789")


@attrs.frozen
class HighCardConfig:
    """High Card has no options but the player count."""

    players: int

    def as_options(self) -> dict[str, Any]:
        return {}


@attrs.frozen
class PlayCard:
    """Play ``card`` face up."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card}"


@attrs.frozen
class DealerChosen:
    dealer: int


@attrs.frozen
class Dealt:
    """Host side: every hand; a seat sees only its own (others None)."""

    hands: tuple[tuple[Card, ...] | None, ...]


@attrs.frozen
class Played:
    seat: int
    card: Card


@attrs.frozen
class Won:
    winners: tuple[int, ...]


@attrs.frozen
class HighCardState:
    config: HighCardConfig
    dealer: int
    to_act: int | None
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[tuple[int, Card], ...]
    undealt: tuple[Card, ...]
    winners: tuple[int, ...]


class HighCardRules:
    """The rules of High Card."""

    name = "high-card"
    rules_version = 1
    min_players = 2
    max_players = 4
    action_types: tuple[type, ...] = (PlayCard,)
    event_types: tuple[type, ...] = (DealerChosen, Dealt, Played, Won)

    def config(self, players: int, **options: Any) -> HighCardConfig:
        reject_unknown(self.name, options, ())
        return HighCardConfig(check_players(self.name, players, 2, 4))

    def initial_state(self, config: HighCardConfig) -> HighCardState:
        n = config.players
        return HighCardState(config, -1, CHANCE, ((),) * n, (), DECK, ())

    def to_act(self, state: HighCardState) -> int | None:
        return state.to_act

    def pending_chance(self, state: HighCardState) -> PickSpec | ShuffleSpec:
        return PickSpec(state.config.players) if state.dealer < 0 else ShuffleSpec(DECK)

    def legal_actions(self, state: HighCardState) -> tuple[PlayCard, ...]:
        if state.to_act is None or state.to_act == CHANCE:
            return ()
        return tuple(PlayCard(c) for c in sort_cards(state.hands[state.to_act]))

    def action_space(self, config: HighCardConfig) -> tuple[PlayCard, ...]:
        # Optional: every action the game can ever offer, in a fixed order. cardkit.rl
        # numbers actions by it (a game without it still plays; it just has no RL env).
        return tuple(PlayCard(c) for c in DECK)

    def decide(self, state: HighCardState, action: Any) -> tuple[Any, ...]:
        seat = guard_turn(self, state, action)  # game over, turn and chance checks
        if seat == CHANCE:
            if isinstance(action, Pick):
                return (DealerChosen(action.index),)
            assert isinstance(action, Shuffle)
            hands, _ = deal(action.order, state.dealer, (2,) * state.config.players)
            return (Dealt(hands),)
        if not isinstance(action, PlayCard) or action.card not in state.hands[seat]:
            raise cardkit.IllegalActionError(f"seat {seat} cannot play {action}", action, seat)
        events: list[Any] = [Played(seat, action.card)]
        if len(state.table) + 1 == 2 * state.config.players:
            table = state.table + ((seat, action.card),)
            best = max(card.rank for _, card in table)
            events.append(Won(tuple(sorted({s for s, c in table if c.rank == best}))))
        return tuple(events)

    def evolve(self, state: HighCardState, event: Any) -> HighCardState:
        n = state.config.players
        if isinstance(event, DealerChosen):
            return attrs.evolve(state, dealer=event.dealer)
        if isinstance(event, Dealt):
            hands = tuple(h or () for h in event.hands)
            dealt = {c for h in hands for c in h}
            undealt = tuple(c for c in DECK if c not in dealt)
            return attrs.evolve(state, hands=hands, undealt=undealt, to_act=(state.dealer + 1) % n)
        if isinstance(event, Played):
            hands = list(state.hands)
            hands[event.seat] = tuple(c for c in hands[event.seat] if c != event.card)
            return attrs.evolve(
                state,
                hands=tuple(hands),
                table=state.table + ((event.seat, event.card),),
                to_act=(event.seat + 1) % n,
            )
        assert isinstance(event, Won)
        return attrs.evolve(state, to_act=None, winners=event.winners)

    def zones(self, state: HighCardState) -> tuple[Zone, ...]:
        everyone = tuple(range(state.config.players))
        zones = [Zone("undealt", None, state.undealt, ()), Zone("table", None, tuple(c for _, c in state.table), everyone)]
        zones += [Zone("hand", s, h, (s,)) for s, h in enumerate(state.hands)]
        return tuple(zones)

    def view(self, state: HighCardState, seat: int | None) -> Mapping[str, Any]:
        return {
            "hand": None if seat is None else [c.code for c in sort_cards(state.hands[seat])],
            "hand_sizes": [len(h) for h in state.hands],
            "table": [[s, c.code] for s, c in state.table],
            "to_act": state.to_act,
        }

    def redact(self, event: Any, viewer: int | None) -> Any:
        if isinstance(event, Dealt):
            return Dealt(tuple(h if i == viewer else None for i, h in enumerate(event.hands)))
        return event

    def scores(self, state: HighCardState) -> tuple[int, ...]:
        return tuple(1 if s in state.winners else 0 for s in range(state.config.players))

    def result(self, state: HighCardState) -> Result | None:
        return None if state.to_act is not None else Result(self.scores(state), state.winners)

    def parse_action(self, text: str) -> Any:
        parts = text.split()
        if len(parts) == 2 and parts[0].lower() == "play":
            return PlayCard(Card.parse(parts[1]))
        if parts and parts[0].lower() in ("pick", "shuffle"):
            return parse_chance_action(text)
        raise cardkit.NotationError(f"{text!r}: expected 'play CARD'")


RULES = HighCardRules()


if __name__ == "__main__":
    from cardkit.testing import check_invariants

    if "high-card" not in cardkit.available_games():
        cardkit.register(RULES)
    game = cardkit.new_game("high-card", players=3, seed=7)
    while not game.is_over:
        game = game.play(game.legal_actions()[0])
    print("winners:", game.result.winners if game.result else None)
    for seed in range(50):
        check_invariants(RULES, 3, seed, policy_seed=seed)
    print("invariants hold on 50 random games")
