"""Cutthroat Spades: the :class:`CutthroatSpadesRules` decider and its ``RULES`` instance.

See ``docs/games/cutthroat-spades.md`` for the numbered rules, options, notation, view
fields, zones, events and every decision taken where the rules are silent.

``legal_actions`` order:

* bidding, before looking: ``look``, ``bid blind-nil``, then ``bid b6`` if eligible;
* bidding, after looking: ``bid 1`` .. ``bid T``, ``bid nil``, ``bid 1f``, ``bid 2f``, ``bid moon``;
* playing: ``play C`` for each playable card in display order (jokers RJ BJ XJ, then S H D C, rank ascending).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Final, Sequence

from cardkit.cards import Card, Suit, sort_cards, standard_deck
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
from cardkit.core.tricks import winning_index
from cardkit.errors import IllegalActionError, NotationError
from cardkit.games.cutthroat_spades import inference as _inference
from cardkit.games.cutthroat_spades.actions import (
    CutthroatAction,
    SPECIAL_NOTATION,
    Bid,
    Look,
    Play,
    SpecialBid,
    SpecialKind,
)
from cardkit.games.cutthroat_spades.action_space import action_space as _action_space
from cardkit.games.cutthroat_spades.config import CutthroatConfig, make_config
from cardkit.games.cutthroat_spades.events import (
    EVENT_TYPES,
    BiddingEnded,
    BidMade,
    CardPlayed,
    CardsDealt,
    DealerChosen,
    GameStarted,
    GameTied,
    GameWon,
    HandLooked,
    HandLookedPublic,
    HandsDealt,
    HandScored,
    SpadesBroken,
    TournamentWon,
    TrickWon,
)
from cardkit.games.cutthroat_spades.layout import JOKERS, Layout, layout_of
from cardkit.games.cutthroat_spades.scoring import moon_threshold, score_seat
from cardkit.games.cutthroat_spades.state import BidInfo, CutthroatState, GameRecord, make_state, replace
from cardkit.games.cutthroat_spades.view import CutthroatView
from cardkit.games.notation import parse_chance, parse_number, quoted

if TYPE_CHECKING:
    from cardkit.kernels.bridge import KernelBridge

__all__ = [
    "CutthroatSpadesRules", "RULES", "Layout", "layout_of", "suit_of", "rank_of", "trick_power",
    "current_trick_winner",
]

# The events every action builds, made without their frozen __init__ (cardkit.core.records).
_card_played = maker(CardPlayed)
_trick_won = maker(TrickWon)
_bid_made = maker(BidMade)

_TWO_C: Final = Card("2C")
_JOKERS: Final = JOKERS

_SUIT: Final[dict[Card, Suit]] = {c: c.suit for c in standard_deck() if c.suit is not None}
_SUIT.update({j: "S" for j in _JOKERS})
_IS_TRUMP: Final[dict[Card, bool]] = {c: s == "S" for c, s in _SUIT.items()}
_RANK: Final[dict[Card, int]] = {c: c.rank for c in standard_deck()}
_RANK.update({_JOKERS[0]: 17, _JOKERS[1]: 16, _JOKERS[2]: 15})

_SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

_SPECIAL_WORDS: Final[dict[str, SpecialKind]] = {
    "nil": "nil",
    "blind-nil": "blind_nil", "blindnil": "blind_nil", "bn": "blind_nil",
    "b6": "blind_six", "blind-six": "blind_six", "blindsix": "blind_six", "blind-6": "blind_six",
    "blind6": "blind_six",
    "1f": "one_for_fifty", "one-for-fifty": "one_for_fifty",
    "2f": "two_for_forty", "two-for-forty": "two_for_forty",
    "moon": "moon", "sm": "moon", "shoot-the-moon": "moon",
}

_BLIND: Final = ("blind_nil", "blind_six")
_SEEN_SPECIALS: Final[tuple[SpecialKind, ...]] = ("nil", "one_for_fifty", "two_for_forty", "moon")
_LOOK: Final = Look()
_BLIND_NIL: Final = SpecialBid("blind_nil")
_BLIND_SIX: Final = SpecialBid("blind_six")
_SEEN_SPECIAL_ACTIONS: Final = tuple(SpecialBid(k) for k in _SEEN_SPECIALS)
_PLAY: Final[dict[Card, Play]] = {c: Play(c) for c in Card.all()}


def suit_of(card: Card) -> Suit:
    """The suit a card counts as for following and leading (jokers are spades, rule 2)."""
    return _SUIT[card]


def rank_of(card: Card) -> int:
    """A card's rank for winning tricks: 2..14, then XJ 15, BJ 16, RJ 17 (rule 2)."""
    return _RANK[card]


def trick_power(card: Card, led: str) -> int:
    """A comparable strength in a trick led in ``led`` (rule 10): trumps above the led suit, else -1."""
    if _IS_TRUMP[card]:
        return 100 + _RANK[card]
    return _RANK[card] if _SUIT[card] == led else -1




def current_trick_winner(trick: Sequence[tuple[int, Card]]) -> int | None:
    """The seat whose card wins ``trick`` (``(seat, card)`` plays in order) so far:
    the highest spade (jokers are spades) if any, else the highest card of the led suit
    (rules 2 and 10); ``None`` for an empty trick."""
    if not trick:
        return None
    best = winning_index([c for _, c in trick], _SUIT[trick[0][1]], "S", suit_of, rank_of)
    assert best is not None  # the led card itself qualifies
    return trick[best][0]


def _illegal(reason: str, action: object, seat: int) -> IllegalActionError:
    return IllegalActionError(reason, action, seat)


class CutthroatSpadesRules:
    """The rules of Cutthroat Spades (``docs/games/cutthroat-spades.md``)."""

    name = "cutthroat-spades"
    rules_version = 1
    min_players = 3
    max_players = 5
    action_types: tuple[type, ...] = (Look, Bid, SpecialBid, Play)
    event_types: tuple[type, ...] = EVENT_TYPES

    def __init__(self) -> None:
        """Build the evolve dispatch table."""
        self._evolvers: dict[type, Callable[[CutthroatState, Any], CutthroatState]] = {
            DealerChosen: self._ev_dealer,
            CardsDealt: self._ev_dealt,
            HandLooked: self._ev_looked,
            BidMade: self._ev_bid,
            BiddingEnded: self._ev_bidding_ended,
            CardPlayed: self._ev_played,
            SpadesBroken: self._ev_broken,
            TrickWon: self._ev_trick,
            HandScored: self._ev_scored,
            GameTied: self._ev_tied,
            GameWon: self._ev_game_won,
            GameStarted: self._ev_game_started,
            TournamentWon: self._ev_tournament,
        }

    # ------------------------------------------------------------------ setup

    def config(self, players: int, **options: Any) -> CutthroatConfig:
        """Validate the options (see the docs page); :class:`ConfigError` on bad input."""
        return make_config(players, options)

    def options(self) -> tuple[OptionSpec, ...]:
        """Every option (name, JSON type, default, allowed values or range, one-line doc):
        the schema :meth:`config` validates with, JSON through ``OptionSpec.to_json``."""
        from cardkit.games.cutthroat_spades.config import OPTIONS

        return OPTIONS

    def initial_state(self, config: CutthroatConfig) -> CutthroatState:
        """Before anything: the first dealer is a chance pick (rule 3)."""
        n = config.players
        zeros = (0,) * n
        return CutthroatState(
            config=config, phase="pick", dealer=-1, turn=-1, deck=layout_of(config).cards,
            hands=((),) * n, looked=(False,) * n, bids=(None,) * n, trick=(), trick_count=0,
            tricks_won=zeros, won=((),) * n, last_trick=(), spades_broken=False, scores=zeros,
            bags=zeros, tokens=zeros, blind_six_used=zeros, game_number=1, hands_in_game=0,
            hands_played=0, overtime=False, history=(), winners=(),
        )

    # ------------------------------------------------------------------ turn

    def to_act(self, state: CutthroatState) -> int | None:
        """The seat to bid or play, ``CHANCE`` before a deal, ``None`` when the tournament is over."""
        phase = state.phase
        if phase == "bid" or phase == "play":
            return state.turn
        if phase == "over":
            return None
        return CHANCE

    def pending_chance(self, state: CutthroatState) -> ChanceSpec:
        """The first dealer (``PickSpec(players)``) or the hand's shuffle of the layout's cards."""
        if state.phase == "pick":
            return PickSpec(state.config.players)
        if state.phase == "deal":
            return ShuffleSpec(layout_of(state.config).cards)
        raise IllegalActionError("no chance outcome is pending", None, None)

    def blind_six_allowed(self, state: CutthroatState, seat: int) -> bool:
        """Rule 4: at least 50 below the leader and uses left this game."""
        limit = state.config.blind_six_per_game
        if limit is not None and state.blind_six_used[seat] >= limit:
            return False
        return max(state.scores) - state.scores[seat] >= 50

    def _playable(self, state: CutthroatState, hand: tuple[Card, ...]) -> tuple[Card, ...]:
        trick = state.trick
        if trick:
            led = _SUIT[trick[0][1]]
            same = tuple([c for c in hand if _SUIT[c] == led])
            return same if same else hand
        if state.trick_count == 0 and _TWO_C in hand and state.config.jokers == 2:
            return (_TWO_C,)
        if state.spades_broken:
            return hand
        plain = tuple([c for c in hand if not _IS_TRUMP[c]])
        return plain if plain else hand

    def legal_actions(self, state: CutthroatState) -> tuple[Any, ...]:
        """Legal actions of the seat to act, in the order given in the module docs."""
        phase = state.phase
        seat = state.turn
        if phase == "play":
            play = _PLAY
            return tuple([play[c] for c in self._playable(state, state.hands[seat])])
        if phase == "bid":
            if not state.looked[seat]:
                if self.blind_six_allowed(state, seat):
                    return (_LOOK, _BLIND_NIL, _BLIND_SIX)
                return (_LOOK, _BLIND_NIL)
            count = len(state.hands[seat])
            return tuple(Bid(b) for b in range(1, count + 1)) + _SEEN_SPECIAL_ACTIONS
        return ()

    # ------------------------------------------------------------------ decide

    def decide(self, state: CutthroatState, action: Any) -> tuple[Any, ...]:
        """The events of ``action``; :class:`IllegalActionError` (with a reason) if not allowed."""
        return self.decide_after_guard(state, action, guard_turn(self, state, action))

    def decide_after_guard(self, state: CutthroatState, action: Any, seat: int) -> tuple[Any, ...]:
        """:meth:`decide` for a caller that has run the shared guards
        (:func:`~cardkit.core.rules.guard_turn_at`) on ``state`` and ``action``; ``seat``
        is what they returned (``Game`` calls this so that they run once per action)."""
        if seat == CHANCE:
            if isinstance(action, Pick):
                return (DealerChosen(action.index),)
            lay = layout_of(state.config)
            hands, _ = deal(action.order, state.dealer, lay.shares(state.config.players, state.dealer))
            return (CardsDealt(state.dealer, tuple(sort_cards(h) for h in hands)),)
        phase = state.phase
        if isinstance(action, Play):
            if phase != "play":
                raise _illegal("bidding is not over: you cannot play a card yet", action, seat)
            return self._decide_play(state, seat, action)
        if phase != "bid":
            raise _illegal("the bidding is over: play a card", action, seat)
        looked = state.looked[seat]
        if isinstance(action, Look):
            if looked:
                raise _illegal("you have already looked at your hand", action, seat)
            return (HandLooked(seat, state.hands[seat]),)
        if isinstance(action, Bid):
            if not looked:
                raise _illegal(
                    "look at your hand before a seen bid (before looking you may only bid "
                    "blind-nil or b6)", action, seat,
                )
            count = len(state.hands[seat])
            tricks = action.tricks
            if not isinstance(tricks, int) or isinstance(tricks, bool) or not 1 <= tricks <= count:
                raise _illegal(
                    f"a normal bid is 1 to {count} tricks (bid nil for none), not {tricks!r}",
                    action, seat,
                )
            return self._bid_events(state, seat, _bid_made(seat, "normal", tricks))
        if isinstance(action, SpecialBid):
            kind = action.kind
            if kind in _BLIND:
                if looked:
                    raise _illegal(
                        f"{SPECIAL_NOTATION[kind]} is a blind bid: it must be made before "
                        "looking at your hand", action, seat,
                    )
                if kind == "blind_six":
                    self._check_blind_six(state, seat, action)
                    bid = _bid_made(seat, "blind_six", 6)
                else:
                    bid = _bid_made(seat, "blind_nil", 0)
                return self._bid_events(state, seat, bid, HandLooked(seat, state.hands[seat]))
            if kind not in _SEEN_SPECIALS:
                raise _illegal(f"unknown special bid {kind!r}", action, seat)
            if not looked:
                raise _illegal(
                    f"look at your hand before bidding {SPECIAL_NOTATION[kind]} (before looking "
                    "you may only bid blind-nil or b6)", action, seat,
                )
            need = {"nil": 0, "one_for_fifty": 1, "two_for_forty": 2}.get(kind)
            if need is None:
                need = moon_threshold(len(state.hands[seat]))
            return self._bid_events(state, seat, _bid_made(seat, kind, need))
        raise _illegal(f"{action!r} is not a Cutthroat Spades action", action, seat)

    def _check_blind_six(self, state: CutthroatState, seat: int, action: Any) -> None:
        limit = state.config.blind_six_per_game
        if limit is not None and state.blind_six_used[seat] >= limit:
            raise _illegal(
                f"you have used your blind six {limit} time(s) this game (the limit)", action, seat
            )
        behind = max(state.scores) - state.scores[seat]
        if behind < 50:
            raise _illegal(
                f"blind six needs you at least 50 points behind the leader; you are {behind} behind",
                action, seat,
            )

    def _bid_events(self, state: CutthroatState, seat: int, *events: Any) -> tuple[Any, ...]:
        if seat != state.dealer:
            return events
        cfg = state.config
        leader = (state.dealer + 1) % cfg.players
        if cfg.jokers == 2:
            for s, hand in enumerate(state.hands):
                if _TWO_C in hand and s != state.dealer:
                    leader = s
        return (*events, BiddingEnded(leader))

    def _decide_play(self, state: CutthroatState, seat: int, action: Play) -> tuple[Any, ...]:
        card = action.card
        hand = state.hands[seat]
        if card not in hand:
            raise _illegal(f"you do not hold {card}", action, seat)
        trick = state.trick
        if trick:
            led = _SUIT[trick[0][1]]
            if _SUIT[card] != led and any(_SUIT[c] == led for c in hand):
                raise _illegal(
                    f"you must follow suit: {_SUIT_NAMES[led]} were led and you hold some",
                    action, seat,
                )
        else:
            if state.trick_count == 0 and state.config.jokers == 2 and _TWO_C in hand and card is not _TWO_C:
                raise _illegal("the holder of 2C must lead it to the first trick", action, seat)
            if _IS_TRUMP[card] and not state.spades_broken and not all(_IS_TRUMP[c] for c in hand):
                raise _illegal(
                    "spades are not broken: you may not lead a spade or joker while you hold "
                    "another suit", action, seat,
                )
        events: list[Any] = [_card_played(seat, card)]
        if trick and _IS_TRUMP[card] and not state.spades_broken and not _IS_TRUMP[trick[0][1]]:
            events.append(SpadesBroken(seat))
        cfg = state.config
        n = cfg.players
        size = n - 1 if (state.trick_count == 0 and cfg.jokers == 2) else n
        if len(trick) + 1 < size:
            return tuple(events)
        plays = (*trick, (seat, card))
        best = winning_index([c for _, c in plays], _SUIT[plays[0][1]], "S", suit_of, rank_of)
        assert best is not None  # the led card itself qualifies
        winner = plays[best][0]
        number = state.trick_count + 1
        events.append(_trick_won(winner, number))
        lay = layout_of(cfg)
        if number < lay.tricks:
            return tuple(events)
        events.extend(self._hand_end(state, plays, winner))
        return tuple(events)

    def _hand_end(
        self, state: CutthroatState, last: tuple[tuple[int, Card], ...], last_winner: int
    ) -> list[Any]:
        cfg = state.config
        n = cfg.players
        tricks = list(state.tricks_won)
        tricks[last_winner] += 1
        captured = [state.won[s] for s in range(n)]
        captured[last_winner] = captured[last_winner] + tuple(c for _, c in last)
        seats = []
        for s in range(n):
            bid = state.bids[s]
            assert bid is not None
            seats.append(score_seat(cfg, bid, tricks[s], captured[s], state.scores[s], state.bags[s]))
        out: list[Any] = [HandScored(state.game_number, state.hands_in_game + 1, tuple(seats))]
        scores = tuple(x.score for x in seats)
        top = max(scores)
        leaders = tuple(s for s in range(n) if scores[s] == top)
        reached = state.overtime or any(x >= cfg.target for x in scores)
        # Rule 20a: mercy ends the game like max_hands does (a tie at the top shares it).
        mercy = cfg.mercy is not None and any(x <= -cfg.mercy for x in scores)
        over = False
        if reached and len(leaders) == 1:
            over = True
        elif mercy or (cfg.max_hands is not None and state.hands_in_game + 1 >= cfg.max_hands):
            over = True
        elif reached and not state.overtime:
            out.append(GameTied(state.game_number, scores))
        if not over:
            return out
        tokens = tuple(t + (1 if s in leaders else 0) for s, t in enumerate(state.tokens))
        out.append(GameWon(state.game_number, leaders, scores, tokens))
        champions = tuple(s for s in leaders if tokens[s] >= cfg.wins_needed)
        if champions:
            out.append(TournamentWon(champions, tokens))
        else:
            out.append(GameStarted(state.game_number + 1))
        return out

    # ------------------------------------------------------------------ evolve

    def evolve(self, state: CutthroatState, event: Any) -> CutthroatState:
        """Apply one event (bookkeeping only)."""
        fn = self._evolvers.get(type(event))
        return state if fn is None else fn(state, event)

    def _ev_dealer(self, state: CutthroatState, e: DealerChosen) -> CutthroatState:
        return replace(state, dealer=e.seat, phase="deal")

    def _ev_dealt(self, state: CutthroatState, e: CardsDealt) -> CutthroatState:
        n = state.config.players
        return replace(
            state, phase="bid", dealer=e.dealer, turn=(e.dealer + 1) % n, deck=(), hands=e.hands,
            looked=(False,) * n, bids=(None,) * n, trick=(), trick_count=0, tricks_won=(0,) * n,
            won=((),) * n, last_trick=(), spades_broken=False,
        )

    def _ev_looked(self, state: CutthroatState, e: HandLooked) -> CutthroatState:
        looked = list(state.looked)
        looked[e.seat] = True
        return replace(state, looked=tuple(looked))

    def _ev_bid(self, state: CutthroatState, e: BidMade) -> CutthroatState:
        bids = list(state.bids)
        bids[e.seat] = BidInfo(e.kind, e.tricks)
        used = state.blind_six_used
        if e.kind == "blind_six":
            lst = list(used)
            lst[e.seat] += 1
            used = tuple(lst)
        return replace(
            state, bids=tuple(bids), blind_six_used=used, turn=(e.seat + 1) % state.config.players
        )

    def _ev_bidding_ended(self, state: CutthroatState, e: BiddingEnded) -> CutthroatState:
        return replace(state, phase="play", turn=e.leader)

    def _ev_played(self, state: CutthroatState, e: CardPlayed) -> CutthroatState:
        seat, card = e.seat, e.card
        hands = list(state.hands)
        hand = hands[seat]
        i = hand.index(card)  # the layout holds each card once
        hands[seat] = hand[:i] + hand[i + 1 :]
        cfg = state.config
        nxt = (seat + 1) % cfg.players
        if nxt == state.dealer and state.trick_count == 0 and cfg.jokers == 2:
            nxt = (nxt + 1) % cfg.players
        s = state
        return make_state(
            s.config, s.phase, s.dealer, nxt, s.deck, tuple(hands), s.looked, s.bids,
            (*s.trick, (seat, card)), s.trick_count, s.tricks_won, s.won, s.last_trick,
            s.spades_broken, s.scores, s.bags, s.tokens, s.blind_six_used, s.game_number,
            s.hands_in_game, s.hands_played, s.overtime, s.history, s.winners,
        )

    def _ev_broken(self, state: CutthroatState, e: SpadesBroken) -> CutthroatState:
        return replace(state, spades_broken=True)

    def _ev_trick(self, state: CutthroatState, e: TrickWon) -> CutthroatState:
        seat = e.seat
        won = list(state.won)
        won[seat] = won[seat] + tuple(c for _, c in state.trick)
        tricks = list(state.tricks_won)
        tricks[seat] += 1
        s = state
        return make_state(
            s.config, s.phase, s.dealer, seat, s.deck, s.hands, s.looked, s.bids,
            (), e.trick_number, tuple(tricks), tuple(won), s.trick,
            s.spades_broken, s.scores, s.bags, s.tokens, s.blind_six_used, s.game_number,
            s.hands_in_game, s.hands_played, s.overtime, s.history, s.winners,
        )

    def _ev_scored(self, state: CutthroatState, e: HandScored) -> CutthroatState:
        return replace(
            state, phase="deal", scores=tuple(x.score for x in e.seats),
            bags=tuple(x.bags for x in e.seats), hands_in_game=e.hand_number,
            hands_played=state.hands_played + 1, dealer=(state.dealer + 1) % state.config.players,
            turn=-1,
        )

    def _ev_tied(self, state: CutthroatState, e: GameTied) -> CutthroatState:
        return replace(state, overtime=True)

    def _ev_game_won(self, state: CutthroatState, e: GameWon) -> CutthroatState:
        record = GameRecord(e.game_number, e.scores, e.winners)
        return replace(state, tokens=e.tokens, history=(*state.history, record))

    def _ev_game_started(self, state: CutthroatState, e: GameStarted) -> CutthroatState:
        zeros = (0,) * state.config.players
        return replace(
            state, game_number=e.game_number, scores=zeros, bags=zeros, blind_six_used=zeros,
            hands_in_game=0, overtime=False,
        )

    def _ev_tournament(self, state: CutthroatState, e: TournamentWon) -> CutthroatState:
        return replace(state, phase="over", winners=e.winners, tokens=e.tokens)

    # ------------------------------------------------------------------ views

    def with_zones(self, state: CutthroatState, zones: tuple[Zone, ...]) -> CutthroatState:
        """``state`` with the cards of ``zones`` (``zones(state)`` with new cards, same
        sizes) put back in its fields: the determinization hook of :mod:`cardkit.core.resample`."""
        return _inference.with_zones(state, zones)

    def constraints(self, state: CutthroatState, seat: int, events: Sequence[Any]) -> tuple[Constraint, ...]:
        """What ``seat`` has inferred from ``events`` (its redacted events) about concealed
        zones, for :mod:`cardkit.core.resample`."""
        return _inference.constraints(state, seat, events)

    def zones(self, state: CutthroatState) -> tuple[Zone, ...]:
        """``deck`` (before the first deal), ``removed``, ``hand`` per seat, ``trick``, ``won`` per seat.

        A hand is visible to its owner only once they have looked (rule 5).
        """
        n = state.config.players
        everyone = tuple(range(n))
        out = [
            Zone("deck", None, state.deck, ()),
            Zone("removed", None, layout_of(state.config).removed, everyone),
        ]
        for s in range(n):
            out.append(Zone("hand", s, state.hands[s], (s,) if state.looked[s] else ()))
        out.append(Zone("trick", None, tuple(c for _, c in state.trick), everyone))
        for s in range(n):
            out.append(Zone("won", s, state.won[s], everyone))
        return tuple(out)

    def view(self, state: CutthroatState, seat: int | None) -> CutthroatView:
        """What ``seat`` may see (see the docs page for every field)."""
        cfg = state.config
        n = cfg.players
        hand: list[str] | None = None
        if seat is not None and state.looked[seat]:
            hand = [c.code for c in state.hands[seat]]
        to_act = self.to_act(state)
        return {
            "game": self.name,
            "players": n,
            "seat": seat,
            "phase": state.phase,
            "to_act": to_act,
            "hand": hand,
            "hand_sizes": [len(h) for h in state.hands],
            "looked": list(state.looked),
            "dealer": state.dealer if state.dealer >= 0 else None,
            "bids": [None if b is None else {"kind": b.kind, "tricks": b.tricks} for b in state.bids],
            "tricks_won": list(state.tricks_won),
            "trick": [[s, c.code] for s, c in state.trick],
            "trick_winner": current_trick_winner(state.trick),
            "last_trick": [[s, c.code] for s, c in state.last_trick],
            "spades_broken": state.spades_broken,
            "removed": [c.code for c in layout_of(cfg).removed],
            "bags": list(state.bags),
            "scores": list(state.scores),
            "tokens": list(state.tokens),
            "blind_six_used": list(state.blind_six_used),
            "game_number": state.game_number,
            "hand_number": state.hands_in_game + (0 if state.phase in ("deal", "pick") else 1),
            "hands_played": state.hands_played,
            "tie_continues": state.overtime,
            "target": cfg.target,
            "wins_needed": cfg.wins_needed,
            "max_hands": cfg.max_hands,
            "mercy": cfg.mercy,
            "games": [
                {"game_number": g.game_number, "scores": list(g.scores), "winners": list(g.winners)}
                for g in state.history
            ],
            "winners": list(state.winners) if state.phase == "over" else None,
            **turn_view_fields(self, state, seat),
        }

    def redact(self, event: Any, viewer: int | None) -> Any:
        """Deals show only hand sizes to everyone; a look shows the cards to the looker only."""
        if type(event) is CardsDealt:
            return HandsDealt(event.dealer, tuple(len(h) for h in event.hands))
        if type(event) is HandLooked and event.seat != viewer:
            return HandLookedPublic(event.seat)
        return event

    # ------------------------------------------------------------------ results

    def scores(self, state: CutthroatState) -> tuple[int, ...]:
        """Points of the current game of the tournament (tokens are in the view)."""
        return state.scores

    def kernel_bridge(self, config: CutthroatConfig) -> KernelBridge | None:
        """The kernel bridge for ``config`` (``cardkit.kernels.bridge.KernelBridge``; every
        option is covered, see ``cutthroat_spades/kernel.py``)."""
        from cardkit.games.cutthroat_spades.kernel import bridge

        return bridge(config)

    def action_space(self, config: CutthroatConfig) -> tuple[Any, ...]:
        """Every action this game can offer under ``config``, in a fixed order (the action
        index of ``cardkit.rl``; see ``cutthroat_spades/action_space.py``)."""
        return _action_space(config)

    def result(self, state: CutthroatState) -> Result | None:
        """Once over: the final game's points and the tournament winners."""
        if state.phase != "over":
            return None
        return Result(state.scores, state.winners)

    # ------------------------------------------------------------------ notation

    def describe(self, event: object, viewer: int | None) -> str:
        """One sentence for a person: ``event`` as ``viewer`` sees it (see :mod:`cardkit.render`)."""
        from cardkit.games.cutthroat_spades.describe import describe

        return describe(event, viewer)

    def summary(self) -> str:
        """The rules in a few sentences for people, with the action notation (``cardkit rules``)."""
        from cardkit.games.cutthroat_spades.describe import SUMMARY

        return SUMMARY

    def parse_action(self, text: str) -> CutthroatAction | ChanceAction:
        """Parse ``look``, ``bid N``, ``bid nil|blind-nil|b6|1f|2f|moon``, ``play C``, or chance notation."""
        if not isinstance(text, str):
            raise NotationError(f"an action must be text, not {type(text).__name__}")
        parts = text.split()
        if not parts:
            raise NotationError("empty action: expected look, bid ..., or play CARD")
        verb = parts[0].lower()
        if verb in ("pick", "shuffle"):
            return parse_chance(text)
        if verb == "look" and len(parts) == 1:
            return _LOOK
        if verb == "play" and len(parts) == 2:
            return Play(Card.parse(parts[1]))
        if verb == "bid" and len(parts) >= 2:
            word = "-".join(p.lower() for p in parts[1:]).replace("_", "-")
            kind = _SPECIAL_WORDS.get(word)
            if kind is not None:
                return SpecialBid(kind)
            if len(parts) == 2 and word[:1].isdigit():
                return Bid(parse_number(word, text, "a bid"))
        raise NotationError(
            f"{quoted(text)} is not a Cutthroat Spades action: expected look, bid N, bid nil, "
            "bid blind-nil, bid b6, bid 1f, bid 2f, bid moon, or play CARD"
        )


RULES: Final = CutthroatSpadesRules()
"""The registered rules instance (``cardkit.get_rules("cutthroat-spades")``)."""
