"""Deliberately broken versions of the example game, one fault each, for the checker's tests.

``HighCardRules`` (examples/custom_game.py) is correct. Each subclass below overrides one
method to commit exactly one fault that ``check_invariants`` must flag. ``TenHighRules``
and ``TwoDeckRules`` are correct variants with a ten (so "10" can be tested) and with every
card twice (so multisets can be tested).
"""

from __future__ import annotations

from typing import Any, Mapping

import attrs
from custom_game import DECK, Dealt, HighCardRules, HighCardState, PlayCard, Played, Won

import cardkit
from cardkit.cards import Card
from cardkit.core.rules import CHANCE, PickSpec, Result, Shuffle, ShuffleSpec, guard_turn
from cardkit.core.table import deal


def _next_hidden(state: HighCardState, seat: int | None) -> Card | None:
    """A card of the next seat's hand (concealed from ``seat``)."""
    if seat is None:
        return None
    hand = state.hands[(seat + 1) % state.config.players]
    return hand[0] if hand else None


class SentenceLeak(HighCardRules):
    """Names the next seat's card inside a sentence of the view."""

    name = "broken-sentence"

    def view(self, state: HighCardState, seat: int | None) -> Mapping[str, Any]:
        card = _next_hidden(state, seat)
        note = "" if card is None else f"the next seat holds {card}."
        return {**super().view(state, seat), "note": note}


class DictKeyLeak(HighCardRules):
    """Uses the next seat's card as a dict key in the view."""

    name = "broken-dict-key"

    def view(self, state: HighCardState, seat: int | None) -> Mapping[str, Any]:
        card = _next_hidden(state, seat)
        return {**super().view(state, seat), "threats": {} if card is None else {card.code: 1}}


class LowerCaseLeak(HighCardRules):
    """Names the next seat's card in lower case."""

    name = "broken-lower-case"

    def view(self, state: HighCardState, seat: int | None) -> Mapping[str, Any]:
        card = _next_hidden(state, seat)
        return {**super().view(state, seat), "hint": "" if card is None else card.code.lower()}


@attrs.frozen
class PlayHinted:
    """Play ``card``; the action text also (wrongly) names ``hint``, the next seat's card."""

    card: Card
    hint: Card

    def __str__(self) -> str:
        return f"play {self.card} beats {self.hint}"


class LegalActionTextLeak(HighCardRules):
    """Its legal actions' text names the next seat's card."""

    name = "broken-action-text"
    action_types: tuple[type, ...] = (PlayCard, PlayHinted)

    def legal_actions(self, state: HighCardState) -> tuple[Any, ...]:
        plain = super().legal_actions(state)
        hint = _next_hidden(state, state.to_act)
        if hint is None:
            return plain
        return tuple(PlayHinted(a.card, hint) for a in plain)

    def decide(self, state: HighCardState, action: Any) -> tuple[Any, ...]:
        if isinstance(action, PlayHinted):
            if action not in self.legal_actions(state):
                raise cardkit.IllegalActionError(f"cannot {action}", action)
            action = PlayCard(action.card)
        elif isinstance(action, PlayCard) and _next_hidden(state, state.to_act) is not None:
            raise cardkit.IllegalActionError(f"say what {action.card} beats", action)
        return super().decide(state, action)

    def parse_action(self, text: str) -> Any:
        parts = text.split()
        if len(parts) == 4 and parts[0].lower() == "play" and parts[2].lower() == "beats":
            return PlayHinted(Card.parse(parts[1]), Card.parse(parts[3]))
        return super().parse_action(text)


class ErrorMessageLeak(HighCardRules):
    """Refuses a card not in hand with a message naming the next seat's card."""

    name = "broken-error"

    def decide(self, state: HighCardState, action: Any) -> tuple[Any, ...]:
        seat = state.to_act
        if (
            seat is not None
            and seat != CHANCE
            and isinstance(action, PlayCard)
            and action.card not in state.hands[seat]
        ):
            hidden = _next_hidden(state, seat)
            raise cardkit.IllegalActionError(f"you cannot play {action.card}; the next seat holds {hidden}", action, seat)
        return super().decide(state, action)


TEN_DECK = tuple(Card(f"{r}S") for r in "6789TJQK")


class TenHighRules(HighCardRules):
    """Correct: High Card with 6S..KS (a ten in the deck)."""

    name = "ten-high"

    def initial_state(self, config: Any) -> HighCardState:
        return HighCardState(config, -1, CHANCE, ((),) * config.players, (), TEN_DECK, ())

    def pending_chance(self, state: HighCardState) -> PickSpec | ShuffleSpec:
        return PickSpec(state.config.players) if state.dealer < 0 else ShuffleSpec(TEN_DECK)

    def evolve(self, state: HighCardState, event: Any) -> HighCardState:
        if isinstance(event, Dealt):
            hands = tuple(h or () for h in event.hands)
            dealt = [c for h in hands for c in h]
            undealt = tuple(c for c in TEN_DECK if c not in dealt)
            return attrs.evolve(state, hands=hands, undealt=undealt, to_act=(state.dealer + 1) % state.config.players)
        return super().evolve(state, event)


class TenSpelledLeak(TenHighRules):
    """Names the next seat's card with "10" for a ten (and the rest in lower case)."""

    name = "broken-ten"

    def view(self, state: HighCardState, seat: int | None) -> Mapping[str, Any]:
        nxt = None if seat is None else state.hands[(seat + 1) % state.config.players]
        hint = "10s" if nxt is not None and Card("TS") in nxt else ""
        return {**super().view(state, seat), "hint": hint}


TWO_DECKS = DECK + DECK


class TwoDeckRules(HighCardRules):
    """Correct: High Card with two copies of each card (multiset zones)."""

    name = "two-deck"

    def initial_state(self, config: Any) -> HighCardState:
        return HighCardState(config, -1, CHANCE, ((),) * config.players, (), TWO_DECKS, ())

    def pending_chance(self, state: HighCardState) -> PickSpec | ShuffleSpec:
        return PickSpec(state.config.players) if state.dealer < 0 else ShuffleSpec(TWO_DECKS)

    def decide(self, state: HighCardState, action: Any) -> tuple[Any, ...]:
        seat = guard_turn(self, state, action)
        if seat == CHANCE:
            if isinstance(action, Shuffle):
                hands, _ = deal(action.order, state.dealer, (4,) * state.config.players)
                return (Dealt(hands),)
            return super().decide(state, action)
        if not isinstance(action, PlayCard) or action.card not in state.hands[seat]:
            raise cardkit.IllegalActionError(f"seat {seat} cannot play {action}", action, seat)
        events: list[Any] = [Played(seat, action.card)]
        if len(state.table) + 1 == 4 * state.config.players:
            table = state.table + ((seat, action.card),)
            best = max(card.rank for _, card in table)
            events.append(Won(tuple(sorted({s for s, c in table if c.rank == best}))))
        return tuple(events)

    def evolve(self, state: HighCardState, event: Any) -> HighCardState:
        if isinstance(event, Dealt):
            hands = tuple(h or () for h in event.hands)
            undealt = list(TWO_DECKS)
            for hand in hands:
                for card in hand:
                    undealt.remove(card)
            return attrs.evolve(state, hands=hands, undealt=tuple(undealt), to_act=(state.dealer + 1) % state.config.players)
        if isinstance(event, Played):
            hands = list(state.hands)
            rest = list(hands[event.seat])
            rest.remove(event.card)  # one copy only
            hands[event.seat] = tuple(rest)
            return attrs.evolve(state, hands=tuple(hands), table=state.table + ((event.seat, event.card),),
                                to_act=(event.seat + 1) % state.config.players)
        return super().evolve(state, event)

    def legal_actions(self, state: HighCardState) -> tuple[PlayCard, ...]:
        return tuple(dict.fromkeys(super().legal_actions(state)))


class SecondCopyLeak(TwoDeckRules):
    """Shows, as "matches", every card anywhere in hands whose code the seat holds: a set
    test where a multiset was needed, so the second copy in another hand leaks."""

    name = "broken-second-copy"

    def view(self, state: HighCardState, seat: int | None) -> Mapping[str, Any]:
        mine = set(state.hands[seat]) if seat is not None else set()
        matches = sorted(c.code for h in state.hands for c in h if c in mine)
        return {**super().view(state, seat), "matches": matches}


@attrs.frozen(eq=False)
class _ListTable:
    """A mutable list inside a frozen state: the shape of the mutation bug."""

    items: list[Any]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ListTable) and self.items == other.items


class SharedStateMutation(HighCardRules):
    """``evolve`` appends to a list that the old state shares with the new one."""

    name = "broken-mutation"

    def initial_state(self, config: Any) -> Any:
        state = super().initial_state(config)
        return attrs.evolve(state, winners=_ListTable([]))  # type: ignore[arg-type]

    def evolve(self, state: Any, event: Any) -> Any:
        new = super().evolve(state, event)
        if isinstance(event, Played):
            state.winners.items.append(event.card)  # mutates the old state too
            return attrs.evolve(new, winners=state.winners)
        return new

    def scores(self, state: Any) -> tuple[int, ...]:
        return (0,) * state.config.players

    def result(self, state: Any) -> Result | None:
        return None if state.to_act is not None else Result(self.scores(state), ())


class AcceptsUnlisted(HighCardRules):
    """``decide`` accepts a card from any hand, not only the player's own."""

    name = "broken-accepts"

    def decide(self, state: HighCardState, action: Any) -> tuple[Any, ...]:
        seat = guard_turn(self, state, action)
        if (
            seat != CHANCE
            and isinstance(action, PlayCard)
            and action.card not in state.hands[seat]
            and any(action.card in hand for hand in state.hands)
        ):
            return (Played(seat, action.card),)
        return super().decide(state, action)


class BadWinner(HighCardRules):
    """Declares a winner seat that does not exist."""

    name = "broken-winner"

    def result(self, state: HighCardState) -> Result | None:
        found = super().result(state)
        return None if found is None else Result(found.scores, found.winners + (state.config.players,))


class ShortScores(HighCardRules):
    """Its result has one score too few."""

    name = "broken-scores"

    def result(self, state: HighCardState) -> Result | None:
        found = super().result(state)
        return None if found is None else Result(found.scores[1:], found.winners)


class UnsortedWinners(HighCardRules):
    """Its winners are listed in descending order, with a duplicate."""

    name = "broken-winners-order"

    def result(self, state: HighCardState) -> Result | None:
        found = super().result(state)
        if found is None:
            return None
        return Result(found.scores, tuple(sorted(found.winners, reverse=True)) + found.winners[:1])


@attrs.frozen
class Peeked:
    """The next seat looked at the top undealt card."""

    seat: int
    card: Card


class PlayShowsNextSeat(HighCardRules):
    """Playing a card lets the next seat look at an undealt card (in its redacted events).

    Not a leak (the zones and events agree), but taking the play back must not be safe:
    the next seat learned a card the player could not see."""

    name = "peek-on-play"
    event_types: tuple[type, ...] = HighCardRules.event_types + (Peeked,)

    def decide(self, state: HighCardState, action: Any) -> tuple[Any, ...]:
        events = super().decide(state, action)
        if isinstance(action, PlayCard) and state.undealt and len(events) == 1:
            nxt = (events[0].seat + 1) % state.config.players
            return events + (Peeked(nxt, state.undealt[0]),)
        return events

    def evolve(self, state: HighCardState, event: Any) -> HighCardState:
        return state if isinstance(event, Peeked) else super().evolve(state, event)

    def redact(self, event: Any, viewer: int | None) -> Any:
        if isinstance(event, Peeked):
            return event if viewer == event.seat else None
        return super().redact(event, viewer)
