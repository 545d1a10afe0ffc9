"""Crazy Eights rules: the decider (``decide``) and its bookkeeping (``evolve``).

Rule numbers refer to ``docs/games/crazy-eights.md``, which also lists the decisions
made where the rules are silent.
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from cardkit.cards import SUITS, Card, Suit, sort_cards, standard_deck
from cardkit.core.options import OptionSpec
from cardkit.core.resample import Constraint
from cardkit.core.records import maker
from cardkit.core.rules import (
    CHANCE,
    ChanceAction,
    ChanceSpec,
    Pick,
    PickSpec,
    Result,
    ShuffleSpec,
    Zone,
    guard_turn,
    turn_view_fields,
)
from cardkit.core.table import deal
from cardkit.errors import IllegalActionError
from cardkit.games.crazy_eights import inference as _inference
from cardkit.games.crazy_eights.actions import (
    DRAW,
    PASS,
    CrazyEightsAction,
    Draw,
    Pass,
    Play,
    parse_action,
    play_action,
)
from cardkit.games.crazy_eights.config import CrazyEightsConfig, make_config
from cardkit.games.crazy_eights.events import (
    EVENT_TYPES,
    CardPlayed,
    CardsDrawn,
    DealerChosen,
    DirectionReversed,
    GameEnded,
    HandDealt,
    HandEnded,
    NextHandDue,
    Passed,
    ReshuffleNeeded,
    StockRebuilt,
    TurnSkipped,
)
from cardkit.games.crazy_eights.scoring import hand_total, points_for_blocked, points_for_out
from cardkit.games.crazy_eights.state import CrazyEightsState, Owed, make_state, replace_state
from cardkit.games.crazy_eights.view import CrazyEightsView

if TYPE_CHECKING:
    from cardkit.kernels.bridge import KernelBridge

__all__ = ["CrazyEightsRules", "RULES"]

# The events every action builds, made without their frozen __init__ (cardkit.core.records).
_card_played = maker(CardPlayed)
_cards_drawn = maker(CardsDrawn)
_passed = maker(Passed)

State = CrazyEightsState
_QUEEN_OF_SPADES = Card("QS")


def _playable(card: Card, state: State) -> bool:
    """Rule 5 (and rule 9: only a 2 answers a pending draw)."""
    if state.pending_draw:
        return card.rank == 2
    return card.rank == 8 or card.suit == state.active_suit or card.rank == state.discard[-1].rank


def _can_supply(state: State) -> bool:
    """Can the stock give a card now (possibly after a reshuffle, rule 7)?"""
    return bool(state.stock) or (state.config.stock_empty == "reshuffle" and len(state.discard) > 1)


def _matching(active: Suit | None, top_rank: int) -> frozenset[Card]:
    """Rule 5 as a set: every card that is playable on ``top_rank`` with ``active`` suit
    (what :func:`_playable` says of each card when no draw is pending)."""
    return frozenset(c for c in Card.all() if c.rank == 8 or c.suit == active or c.rank == top_rank)


# (active suit, rank of the top card) -> the cards playable on it, built when first met.
_MATCHING: dict[tuple[Suit | None, int], frozenset[Card]] = {}


def _remove_one(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _plays_of(card: Card, going_out: bool) -> tuple[Play, ...]:
    if card.rank == 8 and not going_out:
        return _EIGHT_PLAYS[card]
    return (_PLAIN_PLAYS[card],)


# The shared Play actions of every card, looked up by card on the legal_actions path
# (one dict lookup instead of building a (card, suit) key for play_action).
_PLAIN_PLAYS: dict[Card, Play] = {c: play_action(c) for c in standard_deck()}
_EIGHT_PLAYS: dict[Card, tuple[Play, ...]] = {
    c: tuple(play_action(c, suit) for suit in SUITS) for c in standard_deck() if c.rank == 8
}


class CrazyEightsRules:
    """Crazy Eights as a :class:`~cardkit.core.rules.Rules` (registry name ``crazy-eights``).

    ``legal_actions`` order: plays in the hand's display order (S, H, D, C; 2..A; equal
    cards of two decks once), an 8 once per named suit S, H, D, C; then ``draw``; then
    ``pass``.
    """

    name = "crazy-eights"
    rules_version = 2
    min_players = 2
    max_players = 7
    action_types: tuple[type, ...] = (Play, Draw, Pass)
    event_types: tuple[type, ...] = EVENT_TYPES

    def __init__(self) -> None:
        self._evolvers: dict[type, Callable[[State, Any], State]] = {
            CardPlayed: self._on_card_played,
            CardsDrawn: self._on_cards_drawn,
            Passed: self._on_passed,
            DirectionReversed: self._on_direction_reversed,
            TurnSkipped: _unchanged,
            HandDealt: self._on_hand_dealt,
            DealerChosen: self._on_dealer_chosen,
            ReshuffleNeeded: self._on_reshuffle_needed,
            StockRebuilt: self._on_stock_rebuilt,
            HandEnded: self._on_hand_ended,
            NextHandDue: self._on_next_hand_due,
            GameEnded: self._on_game_ended,
        }

    # ------------------------------------------------------------------ setup

    def config(self, players: int, **options: Any) -> CrazyEightsConfig:
        """Validate options (see the Options table); :class:`ConfigError` on bad input."""
        return make_config(players, options)

    def options(self) -> tuple[OptionSpec, ...]:
        """Every option (name, JSON type, default, allowed values or range, one-line doc):
        the schema :meth:`config` validates with, JSON through ``OptionSpec.to_json``."""
        from cardkit.games.crazy_eights.config import OPTIONS

        return OPTIONS

    def initial_state(self, config: CrazyEightsConfig) -> State:
        """Before the first dealer is picked: every card in the stock."""
        n = config.players
        return State(
            config=config,
            to_act=CHANCE,
            dealer=-1,
            hand_number=0,
            hands=((),) * n,
            stock=standard_deck(config.decks),
            discard=(),
            active_suit=None,
            direction=1,
            pending_draw=0,
            drawn=None,
            passes=0,
            turns=0,
            scores=(0,) * n,
            hand_points=(0,) * n,
            revealed=False,
            owed=None,
            result=None,
        )

    def to_act(self, state: State) -> int | None:
        """The seat to act, ``CHANCE``, or None when the game is over."""
        return state.to_act

    def pending_chance(self, state: State) -> ChanceSpec:
        """The first dealer (Pick), a deal (the whole pack) or a rebuild (discard but its top)."""
        if state.to_act != CHANCE:
            raise IllegalActionError("no chance outcome is pending")
        if state.dealer < 0:
            return PickSpec(state.config.players)
        if state.owed is not None:
            return ShuffleSpec(state.discard[:-1])
        return ShuffleSpec(standard_deck(state.config.decks))

    def describe(self, event: object, viewer: int | None) -> str:
        """One sentence for a person: ``event`` as ``viewer`` sees it (see :mod:`cardkit.render`)."""
        from cardkit.games.crazy_eights.describe import describe

        return describe(event, viewer)

    def summary(self) -> str:
        """The rules in a few sentences for people, with the action notation (``cardkit rules``)."""
        from cardkit.games.crazy_eights.describe import SUMMARY

        return SUMMARY

    def parse_action(self, text: str) -> CrazyEightsAction | ChanceAction:
        """``play QS``, ``play 8H S`` (or ``8h s``), ``draw``, ``pass``; :class:`NotationError` if malformed."""
        return parse_action(text)

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, state: State) -> tuple[CrazyEightsAction, ...]:
        """Exactly what :meth:`decide` accepts from the seat to act (order: see the class docs)."""
        seat = state.to_act
        if seat is None or seat == CHANCE:
            return ()
        hand = state.hands[seat]
        drawn = state.drawn
        if drawn is not None:
            if _playable(drawn, state):
                return _plays_of(drawn, False) + (PASS,)
            if state.config.draw == "until_playable" and _can_supply(state):
                return (DRAW,)
            return (PASS,)
        if state.pending_draw:
            playable = [c for c in hand if c.rank == 2]
        else:
            key = (state.active_suit, state.discard[-1].rank)
            matching = _MATCHING.get(key)
            if matching is None:
                matching = _MATCHING[key] = _matching(*key)
            playable = [c for c in hand if c in matching]
        actions: list[CrazyEightsAction] = []
        if playable:
            if len(playable) > 1:
                playable.sort(key=_sort_key)
            going_out = len(hand) == 1
            previous = None
            plain = _PLAIN_PLAYS
            for card in playable:
                if card is previous:  # the same value from a second pack
                    continue
                previous = card
                if card.rank == 8 and not going_out:
                    actions.extend(_EIGHT_PLAYS[card])
                else:
                    actions.append(plain[card])
        if state.pending_draw or _can_supply(state):
            actions.append(DRAW)
        elif not actions:
            actions.append(PASS)
        return tuple(actions)

    # ------------------------------------------------------------------ decide

    def decide(self, state: State, action: Any) -> tuple[Any, ...]:
        """The events of ``action``; :class:`IllegalActionError` with the reason if refused."""
        return self.decide_after_guard(state, action, guard_turn(self, state, action))

    def decide_after_guard(self, state: State, action: Any, seat: int) -> tuple[Any, ...]:
        """:meth:`decide` for a caller that has run the shared guards
        (:func:`~cardkit.core.rules.guard_turn_at`) on ``state`` and ``action``; ``seat``
        is what they returned (``Game`` calls this so that they run once per action)."""
        if seat == CHANCE:
            return self._decide_chance(state, action)
        if isinstance(action, Play):
            return self._decide_play(state, seat, action)
        if isinstance(action, Draw):
            return self._decide_draw(state, seat)
        if isinstance(action, Pass):
            return self._decide_pass(state, seat)
        raise IllegalActionError(f"{action!r} is not a Crazy Eights action", action, seat)

    def _decide_chance(self, state: State, action: ChanceAction) -> tuple[Any, ...]:
        if isinstance(action, Pick):
            return (DealerChosen(action.index),)
        owed = state.owed
        if owed is not None:
            order = action.order
            take = min(owed.count, len(order))
            return (
                StockRebuilt(len(order), order),
                _cards_drawn(owed.seat, take, order[:take], owed.reason, owed.next_seat, False),
            )
        return (self._deal(state, action.order),)

    def _deal(self, state: State, order: tuple[Card, ...]) -> HandDealt:
        """Rules 2-4: deal, turn the starter, bury 8s at the bottom."""
        cfg = state.config
        n = cfg.players
        dealer = state.dealer
        hands, rest = deal(order, dealer, (cfg.hand_size,) * n)
        buried = 0
        if any(c.rank != 8 for c in rest):
            while rest[0].rank == 8:
                rest = rest[1:] + rest[:1]
                buried += 1
        stock = rest[1:]
        return HandDealt(
            hand_number=state.hand_number + 1,
            dealer=dealer,
            hand_sizes=tuple(len(h) for h in hands),
            hands=hands,
            starter=rest[0],
            buried=buried,
            stock_size=len(stock),
            stock=stock,
        )

    def _decide_play(self, state: State, seat: int, action: Play) -> tuple[Any, ...]:
        card = action.card
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalActionError(f"seat {seat} does not hold {card}", action, seat)
        if state.drawn is not None and card is not state.drawn:
            raise IllegalActionError(
                f"after drawing, only the drawn card ({state.drawn}) may be played", action, seat
            )
        if not _playable(card, state):
            if state.pending_draw:
                raise IllegalActionError(
                    f"a draw of {state.pending_draw} is pending: play a 2 or draw", action, seat
                )
            raise IllegalActionError(
                f"{card} does not match {state.discard[-1]} (active suit {state.active_suit})",
                action,
                seat,
            )
        if action.suit is not None and action.suit not in SUITS:
            raise IllegalActionError(
                f"{action.suit!r} is not a suit: name S, H, D or C with an 8", action, seat
            )
        going_out = len(hand) == 1
        if card.rank == 8:
            if going_out and action.suit is not None:
                raise IllegalActionError("going out with an 8 names no suit (rule 14)", action, seat)
            if not going_out and action.suit is None:
                raise IllegalActionError(f"name a suit with the 8: play {card} S|H|D|C", action, seat)
        elif action.suit is not None:
            raise IllegalActionError("only an 8 names a suit", action, seat)
        cfg = state.config
        n = cfg.players
        if going_out:  # rule 14: the card's effect is not applied
            played = _card_played(seat, card, action.suit, 0, None)
            return (played,) + self._end_hand(self._fold(state, (played,)), seat)
        direction = state.direction
        rank = card.rank
        pending = state.pending_draw + 2 if cfg.two_draws_two and rank == 2 else 0
        extra: list[Any] = []
        if cfg.ace_reverses and rank == 14 and n > 2:
            direction = -direction
            extra.append(DirectionReversed(direction))
        step = 1
        queen = cfg.queen_of_spades_draws_five and card is _QUEEN_OF_SPADES
        if cfg.jack_skips and rank == 11:
            extra.append(TurnSkipped((seat + direction) % n))
            step = 2
        elif queen:
            step = 2
        next_seat = (seat + direction * step) % n
        events: list[Any] = [_card_played(seat, card, action.suit, pending, next_seat), *extra]
        if queen:  # rule 10: the next player draws 5 and loses the turn
            victim = (seat + direction) % n
            after = self._fold(state, events)
            events.extend(self._draw_events(after, victim, 5, "penalty", next_seat, False))
            events.append(TurnSkipped(victim))
        return self._after_turn(state, events)

    def _decide_draw(self, state: State, seat: int) -> tuple[Any, ...]:
        n = state.config.players
        if state.pending_draw:  # rule 9: draw the whole pending total, the turn ends
            next_seat = (seat + state.direction) % n
            events = self._draw_events(state, seat, state.pending_draw, "pending", next_seat, True)
            return self._after_turn(state, events)
        if state.drawn is not None:
            if state.config.draw != "until_playable" or _playable(state.drawn, state):
                raise IllegalActionError(
                    f"you already drew: play {state.drawn} if you can, or pass", DRAW, seat
                )
        if not _can_supply(state):
            raise IllegalActionError("the stock is empty", DRAW, seat)
        return self._after_turn(state, self._draw_events(state, seat, 1, "draw", None, True))

    def _decide_pass(self, state: State, seat: int) -> tuple[Any, ...]:
        if state.pending_draw:
            raise IllegalActionError(
                f"a draw of {state.pending_draw} is pending: play a 2 or draw", PASS, seat
            )
        drawn = state.drawn
        if drawn is not None:
            if (
                state.config.draw == "until_playable"
                and not _playable(drawn, state)
                and _can_supply(state)
            ):
                raise IllegalActionError("draw until you get a playable card", PASS, seat)
        else:
            if _can_supply(state):
                raise IllegalActionError(
                    "you may pass only after drawing, or when the stock is empty", PASS, seat
                )
            if any(_playable(c, state) for c in state.hands[seat]):
                raise IllegalActionError("you hold a playable card", PASS, seat)
        next_seat = (seat + state.direction) % state.config.players
        return self._after_turn(state, [_passed(seat, next_seat)], passing=True)

    def _draw_events(
        self,
        state: State,
        seat: int,
        count: int,
        reason: Any,
        next_seat: int | None,
        turn: bool,
    ) -> list[Any]:
        """Take ``count`` cards; rule 7 (reshuffle) and rule 13 (the rest is forgiven)."""
        stock = state.stock
        take = min(count, len(stock))
        events: list[Any] = [_cards_drawn(seat, take, stock[:take], reason, next_seat, turn)]
        owed = count - take
        if owed and state.config.stock_empty == "reshuffle" and len(state.discard) > 1:
            events.append(ReshuffleNeeded(seat, owed, reason, next_seat))
        return events

    def _after_turn(self, state: State, events: list[Any], passing: bool = False) -> tuple[Any, ...]:
        """Rule 8: a blocked hand, and the ``max_turns`` guard, end the hand.

        ``passing`` is true for a ``pass``; only a pass can complete a blocked hand, and
        ``passes`` counts only the passes rule 8 counts (see :meth:`_on_passed`).
        """
        cfg = state.config
        limit = state.turns + 1 >= cfg.max_turns
        if not passing and not limit:
            return tuple(events)
        if not limit:
            # A pass changes only to_act, drawn, passes and turns (see _on_passed): rule 8
            # is checked on those without folding the events into a new state.
            passes = state.passes + 1 if state.drawn is None else 0
            if not (passes >= cfg.players and not _can_supply(state) and state.owed is None):
                return tuple(events)
        after = self._fold(state, events)
        blocked = passing and after.passes >= cfg.players and not _can_supply(after) and after.owed is None
        if not (blocked or limit):
            return tuple(events)
        if after.owed is not None:  # the guard ends the hand: no reshuffle is needed any more
            events = [e for e in events if not isinstance(e, ReshuffleNeeded)]
            after = self._fold(state, events)
        return tuple(events) + self._end_hand(after, None)

    def _end_hand(self, after: State, winner: int | None) -> tuple[Any, ...]:
        """Rules 16-22: score the hand; end the game or call for the next deal."""
        cfg = after.config
        hands = after.hands
        totals = tuple(hand_total(h) for h in hands)
        if winner is not None:
            points = points_for_out(winner, totals)
            blocked = False
        else:
            points, winner = points_for_blocked(totals)
            blocked = True
        ended = HandEnded(after.hand_number, blocked, winner, hands, totals, points)
        if cfg.mode == "single":
            return (ended, GameEnded(points, () if winner is None else (winner,)))
        scores = tuple(a + b for a, b in zip(after.scores, points))
        assert cfg.target is not None
        if winner is not None and scores[winner] >= cfg.target:
            return (ended, GameEnded(scores, (winner,)))
        return (ended, NextHandDue((after.dealer + 1) % cfg.players))

    def _fold(self, state: State, events: Any) -> State:
        for event in events:
            state = self.evolve(state, event)
        return state

    # ------------------------------------------------------------------ evolve

    def evolve(self, state: State, event: Any) -> State:
        """Apply one event (bookkeeping only)."""
        return self._evolvers[type(event)](state, event)

    def _on_card_played(self, s: State, e: CardPlayed) -> State:
        hands = list(s.hands)
        hands[e.seat] = _remove_one(hands[e.seat], e.card)
        return make_state(
            s.config, e.next_seat, s.dealer, s.hand_number, tuple(hands), s.stock,
            s.discard + (e.card,), e.suit or e.card.suit, s.direction, e.pending_draw, None,
            0, s.turns + 1, s.scores, s.hand_points, s.revealed, s.owed, s.result,
        )  # fmt: skip

    def _on_cards_drawn(self, s: State, e: CardsDrawn) -> State:
        hands = list(s.hands)
        taken = s.stock[: e.count]
        hands[e.seat] = hands[e.seat] + taken
        if e.next_seat is None:
            to_act: int | None = e.seat
            drawn = taken[-1] if taken else s.drawn
        else:
            to_act, drawn = e.next_seat, None
        # Rule 8: a turn spent drawing breaks the run of passes that blocks a hand.
        return make_state(
            s.config, to_act, s.dealer, s.hand_number, tuple(hands), s.stock[e.count :],
            s.discard, s.active_suit, s.direction, 0 if e.reason == "pending" else s.pending_draw,
            drawn, 0 if e.turn else s.passes, s.turns + 1 if e.turn else s.turns,
            s.scores, s.hand_points, s.revealed, None, s.result,
        )  # fmt: skip

    def _on_passed(self, s: State, e: Passed) -> State:
        # Rule 8: a pass without a draw this turn was made holding nothing playable with no
        # stock to draw from (decide refuses it otherwise), so it counts; a pass after drawing
        # ends a drawing turn, which does not count and starts the run again.
        passes = s.passes + 1 if s.drawn is None else 0
        return make_state(
            s.config, e.next_seat, s.dealer, s.hand_number, s.hands, s.stock, s.discard,
            s.active_suit, s.direction, s.pending_draw, None, passes, s.turns + 1,
            s.scores, s.hand_points, s.revealed, s.owed, s.result,
        )  # fmt: skip

    def _on_direction_reversed(self, s: State, e: DirectionReversed) -> State:
        return _replace(s, direction=e.direction)

    def _on_dealer_chosen(self, s: State, e: DealerChosen) -> State:
        return _replace(s, dealer=e.dealer)

    def _on_hand_dealt(self, s: State, e: HandDealt) -> State:
        assert e.stock is not None and all(h is not None for h in e.hands)
        hands = tuple(h for h in e.hands if h is not None)
        return make_state(
            s.config, (e.dealer + 1) % s.config.players, e.dealer, e.hand_number, hands,
            e.stock, (e.starter,), e.starter.suit, 1, 0, None, 0, 0, s.scores, s.hand_points,
            False, None, s.result,
        )  # fmt: skip

    def _on_reshuffle_needed(self, s: State, e: ReshuffleNeeded) -> State:
        return _replace(s, to_act=CHANCE, owed=Owed(e.seat, e.owed, e.reason, e.next_seat))

    def _on_stock_rebuilt(self, s: State, e: StockRebuilt) -> State:
        assert e.cards is not None
        return _replace(s, stock=e.cards, discard=s.discard[-1:], passes=0)

    def _on_hand_ended(self, s: State, e: HandEnded) -> State:
        scores = tuple(a + b for a, b in zip(s.scores, e.points))
        return _replace(s, scores=scores, hand_points=e.points, revealed=True, drawn=None)

    def _on_next_hand_due(self, s: State, e: NextHandDue) -> State:
        return _replace(s, to_act=CHANCE, dealer=e.dealer)

    def _on_game_ended(self, s: State, e: GameEnded) -> State:
        return _replace(s, to_act=None, result=Result(e.scores, e.winners))

    # ------------------------------------------------------------------ what seats see

    def with_zones(self, state: State, zones: tuple[Zone, ...]) -> State:
        """``state`` with the cards of ``zones`` (``zones(state)`` with new cards, same
        sizes) put back in its fields: the determinization hook of :mod:`cardkit.core.resample`."""
        return _inference.with_zones(state, zones)

    def constraints(self, state: State, seat: int, events: Sequence[Any]) -> tuple[Constraint, ...]:
        """What ``seat`` has inferred from ``events`` (its redacted events) about concealed
        zones, for :mod:`cardkit.core.resample`."""
        return _inference.constraints(state, seat, events)

    def zones(self, state: State) -> tuple[Zone, ...]:
        """``stock`` (top first, hidden), ``discard`` (bottom first, public), a ``hand`` per seat."""
        n = state.config.players
        everyone = tuple(range(n))
        zones = [
            Zone("stock", None, state.stock, ()),
            Zone("discard", None, state.discard, everyone),
        ]
        for seat, hand in enumerate(state.hands):
            zones.append(Zone("hand", seat, hand, everyone if state.revealed else (seat,)))
        return tuple(zones)

    def view(self, state: State, seat: int | None) -> CrazyEightsView:
        """The JSON view for ``seat`` (``None``: spectator); fields in docs/games/crazy-eights.md."""
        cfg = state.config
        top = state.discard[-1] if state.discard else None
        hand = None if seat is None else [c.code for c in sort_cards(state.hands[seat])]
        return {
            "game": self.name,
            "players": cfg.players,
            "seat": seat,
            "phase": _phase(state),
            "mode": cfg.mode,
            "hand_number": state.hand_number,
            "dealer": state.dealer if state.dealer >= 0 else None,
            "to_act": state.to_act,
            "hand": hand,
            "hand_sizes": [len(h) for h in state.hands],
            "top_card": top.code if top is not None else None,
            "active_suit": state.active_suit,
            "stock_size": len(state.stock),
            "discard_size": len(state.discard),
            "pending_draw": state.pending_draw,
            "direction": state.direction,
            "drawn": state.drawn.code if state.drawn is not None and seat == state.to_act else None,
            "scores": list(self.scores(state)),
            "hand_points": list(state.hand_points),
            "target": cfg.target,
            "revealed_hands": (
                [[c.code for c in sort_cards(h)] for h in state.hands] if state.revealed else None
            ),
            **turn_view_fields(self, state, seat),
        }

    def redact(self, event: Any, viewer: int | None) -> Any:
        """Hide other seats' dealt and drawn cards and the stock order."""
        if isinstance(event, HandDealt):
            return HandDealt(
                event.hand_number, event.dealer, event.hand_sizes,
                tuple(h if i == viewer else None for i, h in enumerate(event.hands)),
                event.starter, event.buried, event.stock_size, None,
            )  # fmt: skip
        if isinstance(event, CardsDrawn) and event.seat != viewer and event.cards is not None:
            return _cards_drawn(event.seat, event.count, None, event.reason, event.next_seat, event.turn)
        if isinstance(event, StockRebuilt) and event.cards is not None:
            return StockRebuilt(event.count, None)
        return event

    def scores(self, state: State) -> tuple[int, ...]:
        """Single hand: the hand's points once scored (zeros before); points match: totals."""
        if state.config.mode == "single":
            return state.hand_points
        return state.scores

    def action_space(self, config: CrazyEightsConfig) -> tuple[Any, ...]:
        """Every action this game can offer under ``config``, in a fixed order (the action
        index of ``cardkit.rl``; see ``crazy_eights/action_space.py``)."""
        from cardkit.games.crazy_eights.action_space import action_space

        return action_space(config)

    def result(self, state: State) -> Result | None:
        """Scores and winners once over (rules 16-18, 22)."""
        return state.result

    def kernel_bridge(self, config: CrazyEightsConfig) -> KernelBridge | None:
        """The bridge to the Crazy Eights kernel (:mod:`cardkit.kernels.crazy_eights`);
        every config is covered."""
        from cardkit.games.crazy_eights.kernel import CrazyEightsBridge

        return CrazyEightsBridge(config)


def _phase(state: State) -> str:
    """The view's ``phase``: derived, the state keeps no phase of its own."""
    if state.to_act is None:
        return "over"
    if state.to_act != CHANCE:
        return "play"
    if state.dealer < 0:
        return "pick"
    return "reshuffle" if state.owed is not None else "deal"


_sort_key = attrgetter("sort_key")


def _unchanged(state: State, event: Any) -> State:
    return state


def _replace(state: State, **changes: Any) -> State:
    """``attrs.evolve`` for the rare events (the hot ones build the state directly)."""
    return replace_state(state, **changes)


RULES = CrazyEightsRules()
"""The registered Crazy Eights rules."""
