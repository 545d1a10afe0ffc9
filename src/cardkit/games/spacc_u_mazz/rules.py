"""Spacc 'u Mazz rules: the decider (see ``docs/games/spacc-u-mazz.md``; rule numbers
below refer to it)."""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING, Any, Callable, Final, Mapping, Sequence

from cardkit.cards import RANK_CHARS, Card, sort_cards, standard_deck
from cardkit.core.options import OptionSpec
from cardkit.core.records import maker
from cardkit.core.resample import Constraint
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
from cardkit.games.spacc_u_mazz import inference as _inference
from cardkit.games.spacc_u_mazz.actions import (
    ACTION_TYPES,
    DECLINE,
    DRAW,
    DUMP,
    KEEP,
    PASS,
    TAKE,
    Blind,
    Decline,
    Draw,
    Dump,
    Keep,
    Pass,
    Play,
    RemoveDown,
    RemoveUp,
    SpaccAction,
    Take,
    parse_action,
)
from cardkit.games.spacc_u_mazz.config import GAME, SpaccConfig, make_config
from cardkit.games.spacc_u_mazz.events import (
    EVENT_TYPES,
    BlindFailed,
    BlindPlayed,
    CardDrawn,
    CardRemoved,
    CardsPlayed,
    CardsRevealed,
    ChoiceOffered,
    FaceDownDealt,
    FaceUpDealt,
    FirstDealerChosen,
    GameEnded,
    HandDealt,
    HandDumped,
    HandEnded,
    HandKept,
    HandScored,
    HandStarted,
    JokerDrawn,
    JokerRevealed,
    Passed,
    PenaltyWaived,
    PileBurned,
    PileTaken,
    PlayerWentOut,
    RemovalDeclined,
    StarterBuried,
    StarterDrawn,
    StarterTurned,
    StockFormed,
    TurnStarted,
)
from cardkit.games.spacc_u_mazz.scoring import hand_points, rank_orders, variable_points
from cardkit.games.spacc_u_mazz.state import SpaccState, make_state, replace
from cardkit.games.spacc_u_mazz.view import SpaccView
from cardkit.render import Status

if TYPE_CHECKING:
    from cardkit.kernels.bridge import KernelBridge

__all__ = ["SpaccRules", "RULES", "PACK", "JOKERS", "RED_JOKER", "BLACK_JOKER"]

# The events every action builds, made without their frozen __init__ (cardkit.core.records).
_cards_played = maker(CardsPlayed)
_turn_started = maker(TurnStarted)
_card_drawn = maker(CardDrawn)
_pile_taken = maker(PileTaken)
_passed = maker(Passed)

State = SpaccState

PACK: Final[tuple[Card, ...]] = standard_deck()
"""One 52-card pack in display order (packs A and B are both this multiset)."""

RED_JOKER: Final = Card("RJ")
"""The red joker (rules 19–20: a removal or a dump)."""
BLACK_JOKER: Final = Card("BJ")
"""The black joker (rules 19–20: take the pile, or a penalty draw)."""
JOKERS: Final[tuple[Card, ...]] = (RED_JOKER, BLACK_JOKER)
"""The two jokers that belong with pack A (rule 2)."""

_ORDERS: Final[dict[str, tuple[int, ...]]] = {
    "standard": rank_orders("standard"),
    "as_printed": rank_orders("as_printed"),
}
# Per rank order: the order in which plays are listed by rank, as a sort key (ordinary
# ranks in the game's order, then 2, then 10), through a C-level lookup.
_PLAY_RANK_KEY: Final[dict[str, Callable[[int], int]]] = {
    name: {r: 20 if r == 2 else 21 if r == 10 else order[r] for r in range(len(order))}.__getitem__
    for name, order in _ORDERS.items()
}
_HAND_SIZE: Final = 5
_UP_SIZE: Final = 3
_DOWN_SIZE: Final = 3


def _ref_char(rank: int) -> str | None:
    return None if rank in (0, 2, 10) else RANK_CHARS[rank - 2]


def _ref_rank(char: str | None) -> int:
    return 0 if char is None else RANK_CHARS.index(char) + 2


def _remove(cards: tuple[Card, ...], gone: tuple[Card, ...]) -> tuple[Card, ...]:
    """``cards`` minus the multiset ``gone`` (order kept)."""
    if not gone:
        return cards
    rest = list(cards)
    for card in gone:
        rest.remove(card)
    return tuple(rest)


def _discard(cards: tuple[Card, ...], gone: tuple[Card, ...]) -> tuple[Card, ...]:
    """``cards`` minus those of the multiset ``gone`` it holds (a played copy of a known
    card is taken from the known part first: no one can tell copies apart)."""
    rest = list(cards)
    for card in gone:
        if card in rest:
            rest.remove(card)
    return tuple(rest)


def _with_known(
    known: tuple[tuple[Card, ...], ...], seat: int, cards: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    if not cards:
        return known
    return known[:seat] + (sort_cards(known[seat] + cards),) + known[seat + 1 :]


def _missing(cards: tuple[Card, ...], wanted: tuple[Card, ...]) -> Card | None:
    """A card of ``wanted`` that ``cards`` does not hold (as a multiset), or None."""
    rest = list(cards)
    for card in wanted:
        try:
            rest.remove(card)
        except ValueError:
            return card
    return None


def _submultisets(cards: list[Card]) -> list[tuple[Card, ...]]:
    """Every sub-multiset of sorted ``cards`` (the empty one first), each sorted."""
    values: list[Card] = []
    counts: list[int] = []
    for card in cards:
        if values and values[-1] is card:
            counts[-1] += 1
        else:
            values.append(card)
            counts.append(1)
    out = []
    for pick in product(*(range(c + 1) for c in counts)):
        chosen: list[Card] = []
        for value, k in zip(values, pick):
            chosen.extend((value,) * k)
        out.append(tuple(chosen))
    return out


def _combo_key(combo: tuple[tuple[Card, ...], tuple[Card, ...]]) -> tuple[Any, ...]:
    hand, up = combo
    return (len(hand) + len(up), [c.sort_key for c in hand], [c.sort_key for c in up])


_RankKey = tuple[tuple[Card, ...], tuple[Card, ...], bool]
_RANK_PLAYS: dict[_RankKey, tuple[Play, ...]] = {}
_RANK_PLAYS_LIMIT: Final = 50_000


def _rank_plays(hand: tuple[Card, ...], up: tuple[Card, ...], main_empty: bool) -> tuple[Play, ...]:
    """Every play of one rank from ``hand`` and ``up`` (both sorted), cached: fewer cards
    first, then hand cards and face-up cards in display order."""
    key = (hand, up, main_empty)
    plays = _RANK_PLAYS.get(key)
    if plays is None:
        combos = [
            (h, u)
            for h in _submultisets(list(hand))
            if h or main_empty
            for u in _submultisets(list(up))
            if h or u
        ]
        combos.sort(key=_combo_key)
        plays = tuple(Play(h, u) for h, u in combos)
        if len(_RANK_PLAYS) >= _RANK_PLAYS_LIMIT:
            _RANK_PLAYS.clear()
        _RANK_PLAYS[key] = plays
    return plays


class SpaccRules:
    """The rules of Spacc 'u Mazz (registry name ``spacc-u-mazz``)."""

    name = GAME
    # 2: a drawn buried starting card is a StarterDrawn, shown to all; 3: a red joker's
    # decision is part of its turn for max_turns (rule 20), and a one-hand game is won by
    # the first out (rule 22) whatever fixed_points pays (see upcast.py for older logs).
    rules_version = 3
    min_players = 2
    max_players = 4
    action_types: tuple[type, ...] = ACTION_TYPES
    event_types: tuple[type, ...] = EVENT_TYPES

    def __init__(self) -> None:
        self._evolvers: dict[type, Callable[[State, Any], State]] = {
            FirstDealerChosen: self._on_first_dealer,
            HandStarted: self._on_hand_started,
            HandDealt: self._on_hand_dealt,
            FaceUpDealt: self._on_face_up_dealt,
            FaceDownDealt: self._on_face_down_dealt,
            StarterBuried: self._on_starter_buried,
            StarterTurned: self._on_starter_turned,
            StockFormed: self._on_stock_formed,
            CardsPlayed: self._on_cards_played,
            PileBurned: self._on_pile_burned,
            BlindPlayed: self._on_blind_played,
            BlindFailed: self._on_blind_failed,
            JokerRevealed: self._on_joker_revealed,
            CardDrawn: self._on_card_drawn,
            StarterDrawn: self._on_starter_drawn,
            JokerDrawn: self._on_joker_drawn,
            PenaltyWaived: _unchanged,
            PileTaken: self._on_pile_taken,
            Passed: _unchanged,
            ChoiceOffered: self._on_choice_offered,
            HandDumped: self._on_hand_dumped,
            HandKept: _unchanged,
            CardRemoved: self._on_card_removed,
            RemovalDeclined: _unchanged,
            PlayerWentOut: self._on_player_went_out,
            TurnStarted: self._on_turn_started,
            HandEnded: self._on_hand_ended,
            CardsRevealed: _unchanged,
            HandScored: self._on_hand_scored,
            GameEnded: self._on_game_ended,
        }

    # ------------------------------------------------------------------ setup

    def config(self, players: int, **options: Any) -> SpaccConfig:
        """Validate the options (docs: Options); :class:`ConfigError` on bad input."""
        return make_config(players, options)

    def options(self) -> tuple[OptionSpec, ...]:
        """Every option (name, JSON type, default, allowed values or range, one-line doc):
        the schema :meth:`config` validates with, JSON through ``OptionSpec.to_json``."""
        from cardkit.games.spacc_u_mazz.config import OPTIONS

        return OPTIONS

    def initial_state(self, config: SpaccConfig) -> State:
        """Before the first dealer is chosen: pack A, the jokers and pack B lie apart."""
        n = config.players
        empty: tuple[tuple[Card, ...], ...] = ((),) * n
        return State(
            config, "first_dealer", 0, -1, -1, "", 0, PACK, JOKERS, PACK, empty, empty, empty,
            (), 0, (), 0, (), (), (), False, (0,) * n, (0,) * n, None, empty,
        )  # fmt: skip

    def to_act(self, state: State) -> int | None:
        """The seat to act in play, ``CHANCE`` while dealing, ``None`` once over."""
        phase = state.phase
        if phase == "play":
            return state.to_act
        if phase == "over":
            return None
        return CHANCE

    def pending_chance(self, state: State) -> ChanceSpec:
        """Pick of the first dealer, then per hand: pack A, rest of A + jokers, pack B (rule 6)."""
        phase = state.phase
        if phase == "first_dealer":
            return PickSpec(state.config.players)
        if phase in ("deal", "next_hand"):
            return ShuffleSpec(PACK)
        if phase == "deal_face_down":
            return ShuffleSpec(sort_cards(state.deck + state.jokers))
        if phase == "deal_reserve":
            return ShuffleSpec(state.pack_b)
        raise IllegalActionError("no chance outcome is pending", None, None)

    def describe(self, event: object, viewer: int | None) -> str:
        """One sentence for a person: ``event`` as ``viewer`` sees it (see :mod:`cardkit.render`)."""
        from cardkit.games.spacc_u_mazz.describe import describe

        return describe(event, viewer)

    def status(self, view: Mapping[str, Any], names: Mapping[int, str] | None = None) -> Status:
        """``view`` as sentences and a per-seat table for people (:func:`cardkit.render.status`)."""
        from cardkit.games.spacc_u_mazz.status import status

        return status(view, names)

    def summary(self) -> str:
        """The rules in a few sentences for people, with the action notation (``cardkit rules``)."""
        from cardkit.games.spacc_u_mazz.describe import SUMMARY

        return SUMMARY

    def parse_action(self, text: str) -> SpaccAction | ChanceAction:
        """Parse the action notation (docs: Notation); :class:`NotationError` if malformed."""
        return parse_action(text)

    # ------------------------------------------------------------------ legal actions

    def _playable(self, state: State, rank: int) -> bool:
        ref = state.reference
        if ref == 0 or rank == 2 or rank == 10:
            return True
        order = _ORDERS[state.config.rank_order]
        return order[rank] >= order[ref]

    def _plays(self, state: State, seat: int) -> list[Play]:
        """Rules 10-11: every play of one rank, grouped by rank (ordinary ranks in the game's
        order, then 2, then 10), fewer cards first, then in card order."""
        by_hand: dict[int, list[Card]] = {}
        for card in state.hands[seat]:
            group = by_hand.get(card.rank)
            if group is None:
                by_hand[card.rank] = [card]
            else:
                group.append(card)
        by_up: dict[int, list[Card]] = {}
        for card in state.face_up[seat]:
            group = by_up.get(card.rank)
            if group is None:
                by_up[card.rank] = [card]
            else:
                group.append(card)
        main_empty = not state.main_stock
        ranks = set(by_hand)
        if main_empty:
            ranks.update(by_up)
        rank_order = state.config.rank_order
        order = _ORDERS[rank_order]
        ref = state.reference
        low = order[ref] if ref else 0
        empty: list[Card] = []
        out: list[Play] = []
        for rank in sorted(ranks, key=_PLAY_RANK_KEY[rank_order]):
            if rank == 2 or rank == 10 or order[rank] >= low:
                out.extend(
                    _rank_plays(
                        tuple(by_hand.get(rank, empty)), tuple(by_up.get(rank, empty)), main_empty
                    )
                )
        return out

    def _turn_options(self, state: State, seat: int) -> tuple[SpaccAction, ...]:
        options: list[SpaccAction] = list(self._plays(state, seat))
        hand = state.hands[seat]
        down = state.face_down[seat]
        if not hand and down:
            options.extend(Blind(i) for i in range(1, len(down) + 1))
        if hand:
            if state.main_stock or state.reserve_stock:
                options.append(DRAW)
        elif not down and state.main_stock:
            options.append(DRAW)
        if state.pile:
            options.append(TAKE)
        if not options:
            options.append(PASS)
        return tuple(options)

    def legal_actions(self, state: State) -> tuple[SpaccAction, ...]:
        """In play: plays (see ``_plays``), ``blind 1..k``, ``draw``, ``take``, else ``pass``.

        While a red joker waits: ``dump``, ``keep``; or ``remove up:CARD`` (card order),
        ``remove down:1..k``, ``decline``.
        """
        if state.phase != "play":
            return ()
        seat = state.to_act
        pending = state.pending
        if pending == "dump":
            return (DUMP, KEEP)
        if pending == "remove":
            ups = tuple(RemoveUp(c) for c in dict.fromkeys(state.face_up[seat]))
            downs = tuple(RemoveDown(i) for i in range(1, len(state.face_down[seat]) + 1))
            return ups + downs + (DECLINE,)
        return self._turn_options(state, seat)

    # ------------------------------------------------------------------ decide

    def decide(self, state: State, action: Any) -> tuple[Any, ...]:
        """The events of ``action``; guards: game over, not your turn, illegal."""
        return self.decide_after_guard(state, action, guard_turn(self, state, action))

    def decide_after_guard(self, state: State, action: Any, seat: int) -> tuple[Any, ...]:
        """:meth:`decide` for a caller that has run the shared guards
        (:func:`~cardkit.core.rules.guard_turn_at`) on ``state`` and ``action``; ``seat``
        is what they returned (``Game`` calls this so that they run once per action)."""
        if seat == CHANCE:
            return self._decide_chance(state, action)
        pending = state.pending
        if pending:
            return self._decide_choice(state, seat, pending, action)
        if isinstance(action, Play):
            return self._decide_play(state, seat, action)
        if isinstance(action, Draw):
            return self._decide_draw(state, seat)
        if isinstance(action, Take):
            return self._decide_take(state, seat)
        if isinstance(action, Blind):
            return self._decide_blind(state, seat, action)
        if isinstance(action, Pass):
            if self._turn_options(state, seat) != (PASS,):
                raise IllegalActionError(
                    "you may pass only when nothing else is possible (rule 15)", action, seat
                )
            return self._finish(state, seat, [_passed(seat)], True)
        if isinstance(action, (Dump, Keep, RemoveUp, RemoveDown, Decline)):
            raise IllegalActionError(
                f"{action} answers a red joker, and no red joker is waiting", action, seat
            )
        raise IllegalActionError(f"{action!r} is not a Spacc 'u Mazz action", action, seat)

    def _decide_chance(self, state: State, action: ChanceAction) -> tuple[Any, ...]:
        if isinstance(action, Pick):
            return (FirstDealerChosen(action.index),)
        n = state.config.players
        order = action.order
        phase = state.phase
        if phase in ("deal", "next_hand"):  # rule 3
            dealer = state.dealer if phase == "deal" else (state.dealer + 1) % n
            hands, rest = deal(order, dealer, (_HAND_SIZE,) * n)
            ups, rest = deal(rest, dealer, (_UP_SIZE,) * n)
            events: list[Any] = [HandStarted(state.hand_number + 1, dealer)]
            events.extend(HandDealt(s, len(h), sort_cards(h)) for s, h in enumerate(hands))
            events.extend(FaceUpDealt(s, sort_cards(u)) for s, u in enumerate(ups))
            return tuple(events)
        if phase == "deal_face_down":  # rules 4-5
            downs, rest = deal(order, state.dealer, (_DOWN_SIZE,) * n)
            events = [FaceDownDealt(s, len(d), d) for s, d in enumerate(downs)]
            stock = list(rest)
            while stock[0].suit is None or stock[0].rank == 10:
                buried = stock.pop(0)
                stock.append(buried)
                events.append(StarterBuried(buried))
            starter = stock.pop(0)
            events.append(StarterTurned(starter))
            events.append(StockFormed("main", len(stock), tuple(stock)))
            return tuple(events)
        return (StockFormed("reserve", len(order), order),)  # rule 6

    def _decide_play(self, state: State, seat: int, action: Play) -> tuple[Any, ...]:
        """Rules 10-11 and 21."""
        cards = action.hand + action.up
        if not cards:
            raise IllegalActionError("name at least one card to play", action, seat)
        rank = cards[0].rank
        for card in cards:
            if card.rank != rank:
                raise IllegalActionError(
                    f"all cards of one play must have the same rank: {cards[0]} and {card} "
                    "differ (rule 10)",
                    action,
                    seat,
                )
        hand = state.hands[seat]
        up = state.face_up[seat]
        missing = _missing(hand, action.hand)
        if missing is not None:
            raise IllegalActionError(f"you do not hold {missing} in your hand", action, seat)
        missing = _missing(up, action.up)
        if missing is not None:
            raise IllegalActionError(f"you have no {missing} face up", action, seat)
        if not action.hand and state.main_stock:
            raise IllegalActionError(
                "face-up cards alone may be played only once the main stock has run out "
                "(rule 11); add a hand card of the same rank, or draw",
                action,
                seat,
            )
        if not self._playable(state, rank):
            ref = RANK_CHARS[state.reference - 2]
            raise IllegalActionError(
                f"{cards[0]} is below the pile's reference {ref}: play {ref} or higher, "
                "a 2 or a 10 (rules 9-10)",
                action,
                seat,
            )
        events: list[Any] = [_cards_played(seat, action.hand, action.up, _ref_char(rank))]
        if rank == 10:
            events.append(PileBurned(seat, state.pile + cards))
        has_cards = (
            len(hand) > len(action.hand) or len(up) > len(action.up) or bool(state.face_down[seat])
        )
        return self._finish(state, seat, events, has_cards)

    def _decide_draw(self, state: State, seat: int) -> tuple[Any, ...]:
        """Rules 13, 17-18, 20."""
        if state.hands[seat]:
            if not (state.main_stock or state.reserve_stock):
                raise IllegalActionError(
                    "both stocks are empty: there is nothing to draw", DRAW, seat
                )
        elif state.face_down[seat]:
            raise IllegalActionError(
                "you may not draw with an empty hand while you have face-down cards (rule 17): "
                "play one blind (blind N) or take the pile",
                DRAW,
                seat,
            )
        elif not state.main_stock:
            raise IllegalActionError(
                "your hand is empty and the main stock has run out (rule 18): play face-up "
                "cards or take the pile",
                DRAW,
                seat,
            )
        return self._draw(state, seat, [], False)

    def _draw(self, base: State, seat: int, events: list[Any], penalty: bool) -> tuple[Any, ...]:
        """Draw one card into the hand; a joker acts at once (rule 20)."""
        now = self._fold(base, events) if events else base
        if now.main_stock:
            stock: Any = "main"
            card = now.main_stock[0]
        elif now.reserve_stock:
            stock = "reserve"
            card = now.reserve_stock[0]
        else:  # only a penalty draw gets here: both stocks are empty, nothing is drawn
            events.append(PenaltyWaived(seat))
            return self._finish(base, seat, events, None)
        if card.suit is not None:
            if stock == "main" and now.main_top_is_buried():
                events.append(StarterDrawn(seat, penalty, card))  # a buried starter: public
            else:
                events.append(_card_drawn(seat, stock, penalty, card))
            return self._finish(base, seat, events, True)
        events.append(JokerDrawn(seat, stock, penalty, card))
        if card is RED_JOKER:
            after = self._fold(now, events[-1:])
            if after.hands[seat]:
                return self._offer(base, seat, events, "dump")
            if after.face_up[seat] or after.face_down[seat]:
                return self._offer(base, seat, events, "remove")
            return self._finish(base, seat, events, False)
        return self._black_joker(base, seat, events)

    def _black_joker(self, base: State, seat: int, events: list[Any]) -> tuple[Any, ...]:
        """Rules 19-20: take the pile; with an empty pile draw one card as a penalty."""
        pile = self._fold(base, events).pile
        if pile:
            events.append(_pile_taken(seat, pile))
            return self._finish(base, seat, events, True)
        return self._draw(base, seat, events, True)

    def _decide_take(self, state: State, seat: int) -> tuple[Any, ...]:
        """Rule 14."""
        if not state.pile:
            raise IllegalActionError("the pile is empty: there is nothing to take", TAKE, seat)
        return self._finish(state, seat, [_pile_taken(seat, state.pile)], True)

    def _decide_blind(self, state: State, seat: int, action: Blind) -> tuple[Any, ...]:
        """Rules 12, 17, 19."""
        hand = state.hands[seat]
        if hand:
            raise IllegalActionError(
                f"you may play a face-down card only when your hand is empty (rule 12); "
                f"you hold {len(hand)} card(s)",
                action,
                seat,
            )
        down = state.face_down[seat]
        if not down:
            raise IllegalActionError("you have no face-down cards", action, seat)
        position = action.position
        if type(position) is not int or not 1 <= position <= len(down):  # bool is no position
            raise IllegalActionError(
                f"there is no face-down card {position}: use blind 1..{len(down)}", action, seat
            )
        card = down[position - 1]
        events: list[Any]
        if card.suit is None:
            events = [JokerRevealed(seat, position, card)]
            if card is RED_JOKER:
                if len(down) > 1 or state.face_up[seat]:
                    return self._offer(state, seat, events, "remove")
                return self._finish(state, seat, events, False)
            return self._black_joker(state, seat, events)
        rank = card.rank
        if self._playable(state, rank):
            events = [BlindPlayed(seat, position, card, _ref_char(rank))]
            if rank == 10:
                events.append(PileBurned(seat, state.pile + (card,)))
            has_cards = len(down) > 1 or bool(state.face_up[seat])
            return self._finish(state, seat, events, has_cards)
        events = [BlindFailed(seat, position, card), _pile_taken(seat, state.pile)]
        return self._finish(state, seat, events, True)

    def _decide_choice(
        self, state: State, seat: int, pending: str, action: Any
    ) -> tuple[Any, ...]:
        """The red joker's follow-up decision (rules 19-20)."""
        if pending == "dump":
            if isinstance(action, Dump):
                hand = state.hands[seat]
                order = _ORDERS[state.config.rank_order]
                ordinary = [c.rank for c in hand if c.rank not in (2, 10)]
                low = min(ordinary, key=lambda r: order[r]) if ordinary else 0
                events: list[Any] = [HandDumped(seat, hand, _ref_char(low))]
                has_cards = bool(state.face_up[seat] or state.face_down[seat])
                return self._finish(state, seat, events, has_cards)
            if isinstance(action, Keep):
                return self._finish(state, seat, [HandKept(seat)], True)
            raise IllegalActionError(
                "you drew the red joker: answer dump (throw your hand onto the pile) or keep",
                action,
                seat,
            )
        up = state.face_up[seat]
        down = state.face_down[seat]
        hand = state.hands[seat]
        if isinstance(action, RemoveUp):
            if action.card not in up:
                raise IllegalActionError(f"you have no {action.card} face up", action, seat)
            has_cards = bool(hand or len(up) > 1 or down)
            event = CardRemoved(seat, "up", 0, action.card)
            return self._finish(state, seat, [event], has_cards)
        if isinstance(action, RemoveDown):
            position = action.position
            if type(position) is not int or not 1 <= position <= len(down):  # bool is no position
                what = f"use remove down:1..{len(down)}" if down else "you have none"
                raise IllegalActionError(
                    f"there is no face-down card {position}: {what}", action, seat
                )
            has_cards = bool(hand or up or len(down) > 1)
            event = CardRemoved(seat, "down", position, down[position - 1])
            return self._finish(state, seat, [event], has_cards)
        if isinstance(action, Decline):
            return self._finish(state, seat, [RemovalDeclined(seat)], True)
        raise IllegalActionError(
            "your red joker lets you remove one of your face-up or face-down cards: answer "
            "remove up:CARD, remove down:N or decline",
            action,
            seat,
        )

    # ------------------------------------------------------------------ end of a turn / hand

    def _fold(self, state: State, events: Any) -> State:
        evolve = self.evolve
        for event in events:
            state = evolve(state, event)
        return state

    def _offer(self, base: State, seat: int, events: list[Any], choice: Any) -> tuple[Any, ...]:
        """The red joker needs a decision of the same seat. The draw (or blind card) and the
        decision are one turn (rule 20: "the turn ends after the joker acts"), so the guard
        is not consulted here: it counts that turn once the decision is made."""
        events.append(ChoiceOffered(seat, choice))
        return tuple(events)

    def _finish(
        self, base: State, seat: int, events: list[Any], has_cards: bool | None
    ) -> tuple[Any, ...]:
        """Rules 16, 22-23: out, end of the hand, the guard, or the next seat."""
        if has_cards is None:
            has_cards = self._fold(base, events).holds_cards(seat)
        places = base.places
        n = base.config.players
        if not has_cards:
            events.append(PlayerWentOut(seat, len(places) + 1))
            places = places + (seat,)
        if (n == 2 and places) or n - len(places) <= 1:
            return tuple(events) + self._end_hand(self._fold(base, events), "out")
        if base.turns + 1 >= base.config.max_turns:
            return tuple(events) + self._end_hand(self._fold(base, events), "max_turns")
        nxt = (seat + 1) % n
        while nxt in places:
            nxt = (nxt + 1) % n
        events.append(_turn_started(nxt))
        return tuple(events)

    def _holdings(self, state: State, seat: int) -> tuple[Card, ...]:
        return state.hands[seat] + state.face_up[seat] + state.face_down[seat]

    def _end_hand(self, after: State, reason: Any) -> tuple[Any, ...]:
        """Rules 22-28: places, reveal, score, and the end of the game or the next hand."""
        cfg = after.config
        n = cfg.players
        points_table = cfg.card_points
        holders = [s for s in range(n) if s not in after.places]
        if reason == "max_turns":
            first = (after.dealer + 1) % n

            def key(seat: int) -> tuple[int, int, int]:
                cards = self._holdings(after, seat)
                return (variable_points(cards, points_table), len(cards), (seat - first) % n)

            holders.sort(key=key)
        places = after.places + tuple(holders)
        events: list[Any] = [HandEnded(after.hand_number, reason, places)]
        for seat in holders:
            events.append(
                CardsRevealed(
                    seat, after.hands[seat], after.face_up[seat], after.face_down[seat]
                )
            )
        last = places[-1]
        variable = variable_points(self._holdings(after, last), points_table)
        points = hand_points(n, places, cfg.places_points, variable)
        totals = tuple(a + b for a, b in zip(after.totals, points))
        events.append(HandScored(points, variable, totals))
        target = cfg.target_score
        if target is None:
            # A one-hand game is won by the hand's winner: the first out (rule 22), or the
            # best placed by the guard (rule 23), whatever a custom fixed_points table pays.
            events.append(GameEnded(totals, (places[0],)))
        elif max(totals) >= target:  # a match: the highest total wins, ties share (rule 28)
            best = max(totals)
            events.append(GameEnded(totals, tuple(s for s in range(n) if totals[s] == best)))
        return tuple(events)

    # ------------------------------------------------------------------ evolve

    def evolve(self, state: State, event: Any) -> State:
        """Apply one event (bookkeeping only)."""
        return self._evolvers[type(event)](state, event)

    def _on_first_dealer(self, s: State, e: FirstDealerChosen) -> State:
        return replace(s, phase="deal", dealer=e.dealer)

    def _on_hand_started(self, s: State, e: HandStarted) -> State:
        n = s.config.players
        empty: tuple[tuple[Card, ...], ...] = ((),) * n
        return make_state(
            s.config, "deal_face_down", e.hand_number, e.dealer, -1, "", 0, PACK, JOKERS, PACK,
            empty, empty, empty, (), 0, (), 0, (), (), (), False, s.totals, s.hand_points,
            None, empty,
        )  # fmt: skip

    def _on_hand_dealt(self, s: State, e: HandDealt) -> State:
        cards = e.cards or ()
        hands = list(s.hands)
        hands[e.seat] = sort_cards(cards)
        return replace(s, hands=tuple(hands), deck=_remove(s.deck, cards))

    def _on_face_up_dealt(self, s: State, e: FaceUpDealt) -> State:
        ups = list(s.face_up)
        ups[e.seat] = sort_cards(e.cards)
        return replace(s, face_up=tuple(ups), deck=_remove(s.deck, e.cards))

    def _on_face_down_dealt(self, s: State, e: FaceDownDealt) -> State:
        downs = list(s.face_down)
        downs[e.seat] = e.cards or ()
        return replace(s, face_down=tuple(downs))

    def _on_starter_buried(self, s: State, e: StarterBuried) -> State:
        return replace(s, main_known=s.main_known + 1)

    def _on_starter_turned(self, s: State, e: StarterTurned) -> State:
        rank = e.card.rank
        return replace(s, pile=(e.card,), reference=0 if rank == 2 else rank)

    def _on_stock_formed(self, s: State, e: StockFormed) -> State:
        cards = e.cards or ()
        if e.stock == "main":
            return replace(s, phase="deal_reserve", main_stock=cards, deck=(), jokers=())
        return replace(
            s,
            phase="play",
            reserve_stock=cards,
            pack_b=(),
            to_act=(s.dealer + 1) % s.config.players,
        )

    def _on_cards_played(self, s: State, e: CardsPlayed) -> State:
        seat = e.seat
        hands = s.hands
        known = s.known
        if e.hand:
            hands = hands[:seat] + (_remove(hands[seat], e.hand),) + hands[seat + 1 :]
            if known[seat]:
                known = known[:seat] + (_discard(known[seat], e.hand),) + known[seat + 1 :]
        ups = s.face_up
        if e.up:
            ups = ups[:seat] + (_remove(ups[seat], e.up),) + ups[seat + 1 :]
        return make_state(
            s.config, s.phase, s.hand_number, s.dealer, s.to_act, s.pending, s.turns, s.deck,
            s.jokers, s.pack_b, hands, ups, s.face_down, s.pile + e.hand + e.up,
            _ref_rank(e.reference), s.main_stock, s.main_known, s.reserve_stock, s.removed,
            s.places, s.revealed, s.totals, s.hand_points, s.result, known,
        )  # fmt: skip

    def _on_pile_burned(self, s: State, e: PileBurned) -> State:
        return replace(s, pile=(), reference=0, removed=s.removed + s.pile)

    def _without_down(self, s: State, seat: int, position: int) -> tuple[tuple[Card, ...], ...]:
        down = s.face_down[seat]
        new = down[: position - 1] + down[position:]
        return s.face_down[:seat] + (new,) + s.face_down[seat + 1 :]

    def _on_blind_played(self, s: State, e: BlindPlayed) -> State:
        return replace(
            s,
            face_down=self._without_down(s, e.seat, e.position),
            pile=s.pile + (e.card,),
            reference=_ref_rank(e.reference),
        )

    def _on_blind_failed(self, s: State, e: BlindFailed) -> State:
        seat = e.seat
        card = s.face_down[seat][e.position - 1]
        hands = list(s.hands)
        hands[seat] = sort_cards(hands[seat] + (card,))
        return replace(
            s,
            face_down=self._without_down(s, seat, e.position),
            hands=tuple(hands),
            known=_with_known(s.known, seat, (card,)),
        )

    def _on_joker_revealed(self, s: State, e: JokerRevealed) -> State:
        return replace(
            s,
            face_down=self._without_down(s, e.seat, e.position),
            removed=s.removed + (e.card,),
        )

    def _on_card_drawn(self, s: State, e: CardDrawn) -> State:
        return self._draw_into_hand(s, e.seat, e.stock == "main")

    def _on_starter_drawn(self, s: State, e: StarterDrawn) -> State:
        return self._draw_into_hand(s, e.seat, True)

    def _draw_into_hand(self, s: State, seat: int, from_main: bool) -> State:
        main = s.main_stock
        reserve = s.reserve_stock
        known = s.main_known
        seen = s.known
        if from_main:
            card = main[0]
            if s.main_top_is_buried():  # everyone saw it: a known card of the hand
                seen = seen[:seat] + (sort_cards(seen[seat] + (card,)),) + seen[seat + 1 :]
            main = main[1:]
            if known > len(main):
                known = len(main)
        else:
            card = reserve[0]
            reserve = reserve[1:]
        hand = sort_cards(s.hands[seat] + (card,))
        hands = s.hands[:seat] + (hand,) + s.hands[seat + 1 :]
        return make_state(
            s.config, s.phase, s.hand_number, s.dealer, s.to_act, s.pending, s.turns, s.deck,
            s.jokers, s.pack_b, hands, s.face_up, s.face_down, s.pile, s.reference, main,
            known, reserve, s.removed, s.places, s.revealed, s.totals, s.hand_points, s.result,
            seen,
        )  # fmt: skip

    def _on_joker_drawn(self, s: State, e: JokerDrawn) -> State:
        if e.stock == "main":
            main = s.main_stock[1:]
            return replace(
                s,
                main_stock=main,
                main_known=min(s.main_known, len(main)),
                removed=s.removed + (e.card,),
            )
        return replace(s, reserve_stock=s.reserve_stock[1:], removed=s.removed + (e.card,))

    def _on_pile_taken(self, s: State, e: PileTaken) -> State:
        seat = e.seat
        hand = sort_cards(s.hands[seat] + s.pile)
        hands = s.hands[:seat] + (hand,) + s.hands[seat + 1 :]
        known = _with_known(s.known, seat, s.pile)
        return replace(s, hands=hands, pile=(), reference=0, known=known)

    def _on_choice_offered(self, s: State, e: ChoiceOffered) -> State:
        return replace(s, pending=e.choice)  # the same turn goes on (rule 20)

    def _on_hand_dumped(self, s: State, e: HandDumped) -> State:
        seat = e.seat
        hands = s.hands[:seat] + ((),) + s.hands[seat + 1 :]
        known = s.known[:seat] + ((),) + s.known[seat + 1 :]
        return replace(
            s, hands=hands, pile=s.pile + s.hands[seat], reference=_ref_rank(e.reference),
            known=known,
        )

    def _on_card_removed(self, s: State, e: CardRemoved) -> State:
        seat = e.seat
        if e.zone == "up":
            ups = list(s.face_up)
            ups[seat] = _remove(ups[seat], (e.card,))
            return replace(s, face_up=tuple(ups), removed=s.removed + (e.card,))
        return replace(
            s,
            face_down=self._without_down(s, seat, e.position),
            removed=s.removed + (e.card,),
        )

    def _on_player_went_out(self, s: State, e: PlayerWentOut) -> State:
        return replace(s, places=s.places + (e.seat,))

    def _on_turn_started(self, s: State, e: TurnStarted) -> State:
        return make_state(
            s.config, s.phase, s.hand_number, s.dealer, e.seat, "", s.turns + 1, s.deck,
            s.jokers, s.pack_b, s.hands, s.face_up, s.face_down, s.pile, s.reference,
            s.main_stock, s.main_known, s.reserve_stock, s.removed, s.places, s.revealed,
            s.totals, s.hand_points, s.result, s.known,
        )  # fmt: skip

    def _on_hand_ended(self, s: State, e: HandEnded) -> State:
        return replace(s, places=e.places, revealed=True, pending="", turns=s.turns + 1)

    def _on_hand_scored(self, s: State, e: HandScored) -> State:
        return replace(s, phase="next_hand", totals=e.totals, hand_points=e.points)

    def _on_game_ended(self, s: State, e: GameEnded) -> State:
        return replace(s, phase="over", result=Result(e.scores, e.winners))

    # ------------------------------------------------------------------ what seats see

    def with_zones(self, state: State, zones: tuple[Zone, ...]) -> State:
        """``state`` with the cards of ``zones`` (``zones(state)`` with new cards, same
        sizes) put back in its fields: the determinization hook of :mod:`cardkit.core.resample`."""
        return _inference.with_zones(state, zones)

    def constraints(self, state: State, seat: int, events: Sequence[Any]) -> tuple[Constraint, ...]:
        """What ``seat`` knows of the concealed zones: no other hand holds a joker (a drawn
        joker acts at once, rule 20), for :mod:`cardkit.core.resample`."""
        return _inference.constraints(state, seat, events)

    def zones(self, state: State) -> tuple[Zone, ...]:
        """Every card: per seat ``hand`` (its private part), ``known`` (the cards of the hand
        every seat saw go there), ``face_up``, ``face_down``; ``pile``, ``main_stock``
        (the concealed part), ``main_stock_buried`` (starting cards buried face up at its
        bottom), ``reserve_stock``, ``removed``; before dealing ``deck`` (pack A), ``jokers``,
        ``pack_b``."""
        n = state.config.players
        everyone = tuple(range(n))
        revealed = state.revealed
        zones: list[Zone] = []
        for seat in range(n):
            known = state.known[seat]
            private = _remove(state.hands[seat], known) if known else state.hands[seat]
            zones.append(Zone("hand", seat, private, everyone if revealed else (seat,)))
            zones.append(Zone("known", seat, known, everyone))
            zones.append(Zone("face_up", seat, state.face_up[seat], everyone))
            zones.append(
                Zone("face_down", seat, state.face_down[seat], everyone if revealed else ())
            )
        main = state.main_stock
        split = len(main) - min(state.main_known, len(main))
        zones.extend(
            (
                Zone("pile", None, state.pile, everyone),
                Zone("main_stock", None, main[:split], ()),
                Zone("main_stock_buried", None, main[split:], everyone),
                Zone("reserve_stock", None, state.reserve_stock, ()),
                Zone("removed", None, state.removed, everyone),
                Zone("deck", None, state.deck, ()),
                Zone("jokers", None, state.jokers, everyone),
                Zone("pack_b", None, state.pack_b, ()),
            )
        )
        return tuple(zones)

    def view(self, state: State, seat: int | None) -> SpaccView:
        """The JSON view for ``seat`` (``None``: spectator); fields in the docs page."""
        cfg = state.config
        main = state.main_stock
        known = min(state.main_known, len(main))
        revealed = state.revealed
        to_act = self.to_act(state)
        ref = state.reference
        return {
            "game": self.name,
            "seat": seat,
            "players": cfg.players,
            "phase": state.phase,
            "hand_number": state.hand_number,
            "dealer": state.dealer if state.dealer >= 0 else None,
            "to_act": to_act,
            "pending": state.pending or None,
            "hand": None if seat is None else [c.code for c in state.hands[seat]],
            "hand_sizes": [len(h) for h in state.hands],
            "known": [[c.code for c in k] for k in state.known],
            "face_up": [[c.code for c in u] for u in state.face_up],
            "face_down_counts": [len(d) for d in state.face_down],
            "pile": [c.code for c in state.pile],
            "reference": None if ref == 0 else RANK_CHARS[ref - 2],
            "main_stock_size": len(main),
            "main_stock_buried": [c.code for c in main[len(main) - known :]],
            "reserve_stock_size": len(state.reserve_stock),
            "removed_count": len(state.removed),
            "removed": [c.code for c in state.removed],
            "places": list(state.places),
            "turns": state.turns,
            "max_turns": cfg.max_turns,
            "rank_order": cfg.rank_order,
            "target_score": cfg.target_score,
            "scores": list(state.totals),
            "hand_points": list(state.hand_points),
            "revealed_hands": (
                [[c.code for c in h] for h in state.hands] if revealed else None
            ),
            "revealed_face_down": (
                [[c.code for c in d] for d in state.face_down] if revealed else None
            ),
            **turn_view_fields(self, state, seat),
        }

    def redact(self, event: Any, viewer: int | None) -> Any:
        """Hide dealt hands of others, every face-down deal, stock orders and others' draws.

        A failed blind card is shown to everyone: it was turned face up before it went into
        the hand (the hand's ``known`` part); so is a drawn buried starting card, which
        everyone saw buried face up (a ``StarterDrawn``, not a ``CardDrawn``)."""
        kind = type(event)
        if kind is HandDealt and event.seat != viewer:
            return HandDealt(event.seat, event.count, None)
        if kind is FaceDownDealt:
            return FaceDownDealt(event.seat, event.count, None)
        if kind is StockFormed:
            return StockFormed(event.stock, event.size, None)
        if kind is CardDrawn and event.seat != viewer:
            return _card_drawn(event.seat, event.stock, event.penalty, None)
        return event

    def scores(self, state: State) -> tuple[int, ...]:
        """Match totals (one hand by default): zeros until the first hand is scored."""
        return state.totals

    def kernel_bridge(self, config: SpaccConfig) -> KernelBridge | None:
        """The bridge to this game's kernel (:mod:`cardkit.kernels.spacc_u_mazz`): every
        config is covered."""
        from cardkit.games.spacc_u_mazz.kernel import kernel_bridge

        return kernel_bridge(config)

    def action_space(self, config: SpaccConfig) -> tuple[Any, ...]:
        """Every action this game can offer under ``config``, in a fixed order (the action
        index of ``cardkit.rl``; see ``spacc_u_mazz/action_space.py``)."""
        from cardkit.games.spacc_u_mazz.action_space import action_space

        return action_space(config)

    def result(self, state: State) -> Result | None:
        """Scores and winners once the game is over: in a one-hand game the hand's winner
        (rule 22); in a match to ``target_score`` the highest total (ties share, rule 28)."""
        return state.result


def _unchanged(state: State, event: Any) -> State:
    return state


RULES = SpaccRules()
"""The registered Spacc 'u Mazz rules."""
