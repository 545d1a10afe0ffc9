"""The Wizard rules (a Decider): see ``docs/games/wizard.md`` (rule numbers refer to it).

Chance sequence: ``Pick(players)`` for the first dealer, then one ``Shuffle`` of all 60
cards (:data:`~cardkit.games.wizard.state.DECK` order) before every round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Sequence


from cardkit.cards import SUITS, Card, sort_cards
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
    Shuffle,
    ShuffleSpec,
    Zone,
    guard_turn,
    turn_view_fields,
)
from cardkit.core.table import deal
from cardkit.errors import IllegalActionError, NotationError
from cardkit.games.notation import parse_chance, parse_number, quoted
from cardkit.games.wizard import inference as _inference
from cardkit.games.wizard.actions import Bid, ChooseTrump, Play, WizardAction
from cardkit.games.wizard.config import MAX_PLAYERS, MIN_PLAYERS, WizardConfig, make_config
from cardkit.games.wizard.events import (
    BidMade,
    CardPlayed,
    DealerChosen,
    GameEnded,
    HandDealt,
    RoundDealt,
    RoundScored,
    RoundStarted,
    TrickWon,
    TrumpChosen,
    TrumpTurned,
    WizardEvent,
)
from cardkit.games.wizard.scoring import round_points, winners
from cardkit.games.wizard.state import DECK, WIZARD, Phase, WizardState, initial_state, make_state, replace
from cardkit.games.wizard.tricks import playable, suit_to_follow, trick_winner
from cardkit.games.wizard.view import WizardView

if TYPE_CHECKING:
    from cardkit.kernels.bridge import KernelBridge

__all__ = ["WizardRules", "RULES"]

# The events every action builds, made without their frozen __init__ (cardkit.core.records).
_card_played = maker(CardPlayed)
_trick_won = maker(TrickWon)
_bid_made = maker(BidMade)

_SHUFFLE_SPEC: Final = ShuffleSpec(DECK)
_PLAY: Final[dict[Card, Play]] = {c: Play(c) for c in sort_cards(tuple(set(DECK)))}
_BID: Final[tuple[Bid, ...]] = tuple(Bid(i) for i in range(len(DECK) // MIN_PLAYERS + 1))
_TRUMP: Final[tuple[ChooseTrump, ...]] = tuple(ChooseTrump(s) for s in SUITS)
_EVERYONE: Final[dict[int, tuple[int, ...]]] = {
    n: tuple(range(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}


def _trick_json(trick: tuple[tuple[int, Card], ...]) -> list[list[int | str]]:
    return [[seat, card.code] for seat, card in trick]


class WizardRules:
    """Wizard for 3-6 players (registry name ``"wizard"``).

    ``legal_actions`` order: ``trump S``, ``trump H``, ``trump D``, ``trump C``; bids
    ascending ``0..r`` (without the dealer's forbidden bid under ``forbid_even_bids``);
    plays in the hand's display order (Wizard, Jester, then S, H, D, C by rank), each
    distinct card once.
    """

    name: str = "wizard"
    rules_version: int = 1
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    action_types: tuple[type, ...] = (Bid, ChooseTrump, Play)
    event_types: tuple[type, ...] = (
        DealerChosen,
        RoundDealt,
        HandDealt,
        RoundStarted,
        TrumpTurned,
        TrumpChosen,
        BidMade,
        CardPlayed,
        TrickWon,
        RoundScored,
        GameEnded,
    )

    # ------------------------------------------------------------------ setup

    def config(self, players: int, **options: Any) -> WizardConfig:
        """Validate options (``forbid_even_bids``, ``rounds``); :class:`ConfigError` on bad input."""
        return make_config(players, options)

    def options(self) -> tuple[OptionSpec, ...]:
        """Every option (name, JSON type, default, allowed values or range, one-line doc):
        the schema :meth:`config` validates with, JSON through ``OptionSpec.to_json``."""
        from cardkit.games.wizard.config import OPTIONS

        return OPTIONS

    def initial_state(self, config: WizardConfig) -> WizardState:
        """The state before the first dealer is picked."""
        return initial_state(config)

    # ------------------------------------------------------------------ whose turn

    def to_act(self, state: WizardState) -> int | None:
        """The seat to act, ``CHANCE`` (first dealer, each round's shuffle) or ``None`` when over."""
        phase = state.phase
        if phase == "bid" or phase == "play" or phase == "trump":
            return state.turn
        if phase == "over":
            return None
        return CHANCE

    def pending_chance(self, state: WizardState) -> ChanceSpec:
        """``PickSpec(players)`` for the first dealer, then a shuffle of all 60 cards per round."""
        if state.phase == "pick":
            return PickSpec(state.config.players)
        if state.phase == "deal":
            return _SHUFFLE_SPEC
        raise IllegalActionError("no chance outcome is pending", None, None)

    def forbidden_bid(self, state: WizardState) -> int | None:
        """Under ``forbid_even_bids``, the bid the dealer may not make now (else ``None``)."""
        if (
            not state.config.forbid_even_bids
            or state.phase != "bid"
            or state.turn != state.dealer
        ):
            return None
        rest = state.round - sum(b for b in state.bids if b is not None)
        return rest if 0 <= rest <= state.round else None

    def legal_actions(self, state: WizardState) -> tuple[WizardAction, ...]:
        """The actions ``decide`` accepts now, in the documented order (see the class docs)."""
        phase = state.phase
        if phase == "play":
            hand = state.hands[state.turn]
            led = suit_to_follow([c for _, c in state.trick])
            out: list[WizardAction] = []
            last: Card | None = None
            for card in playable(hand, led):
                if card is not last:
                    out.append(_PLAY[card])
                    last = card
            return tuple(out)
        if phase == "bid":
            bids = _BID[: state.round + 1]
            banned = self.forbidden_bid(state)
            if banned is None:
                return bids
            return bids[:banned] + bids[banned + 1 :]
        if phase == "trump":
            return _TRUMP
        return ()

    # ------------------------------------------------------------------ decide

    def decide(self, state: WizardState, action: Any) -> tuple[WizardEvent, ...]:
        """The events of ``action``; :class:`IllegalActionError` (with a reason) if not allowed."""
        return self.decide_after_guard(state, action, guard_turn(self, state, action))

    def decide_after_guard(self, state: WizardState, action: Any, seat: int) -> tuple[WizardEvent, ...]:
        """:meth:`decide` for a caller that has run the shared guards
        (:func:`~cardkit.core.rules.guard_turn_at`) on ``state`` and ``action``; ``seat``
        is what they returned (``Game`` calls this so that they run once per action)."""
        if seat == CHANCE:
            if isinstance(action, Pick):
                return (DealerChosen(action.index),)
            return self._deal(state, action.order)
        if isinstance(action, Play):
            return self._play(state, seat, action)
        if isinstance(action, Bid):
            return self._bid(state, seat, action)
        if isinstance(action, ChooseTrump):
            return self._choose_trump(state, seat, action)
        raise IllegalActionError(f"{action!r} is not a Wizard action", action, seat)

    def _deal(self, state: WizardState, order: tuple[Card, ...]) -> tuple[WizardEvent, ...]:
        n = state.config.players
        rnd = state.round + 1
        dealer = state.dealer if state.round == 0 else (state.dealer + 1) % n
        hands, stock = deal(order, dealer, (rnd,) * n)
        dealt = RoundDealt(rnd, dealer, hands, stock)
        if not stock:
            return (dealt, TrumpTurned(None, None))
        top = stock[0]
        return (dealt, TrumpTurned(top, top.suit))

    def _choose_trump(self, state: WizardState, seat: int, action: ChooseTrump) -> tuple[WizardEvent, ...]:
        if state.phase != "trump":
            if state.turned is WIZARD:
                why = f"trump was already chosen ({state.trump})"
            else:
                shown = state.turned.code if state.turned is not None else "no card"
                why = f"trump is only chosen when a Wizard is turned; {shown} was turned"
            raise IllegalActionError(f"cannot choose trump: {why}", action, seat)
        if action.suit not in SUITS:
            raise IllegalActionError(
                f"trump must be one of S, H, D, C (no trump may not be chosen), not {action.suit!r}",
                action,
                seat,
            )
        return (TrumpChosen(seat, action.suit),)

    def _bid(self, state: WizardState, seat: int, action: Bid) -> tuple[WizardEvent, ...]:
        if state.phase != "bid":
            if state.phase == "trump":
                raise IllegalActionError(
                    f"the dealer (seat {seat}) must choose trump before bidding", action, seat
                )
            raise IllegalActionError("bidding is over: play a card", action, seat)
        tricks = action.tricks
        if not isinstance(tricks, int) or isinstance(tricks, bool) or not 0 <= tricks <= state.round:
            raise IllegalActionError(
                f"a bid in round {state.round} must be 0..{state.round}, not {tricks!r}", action, seat
            )
        if tricks == self.forbidden_bid(state):
            raise IllegalActionError(
                f"forbid_even_bids: the dealer may not bid {tricks} (the bids would total "
                f"{state.round}, the number of tricks)",
                action,
                seat,
            )
        return (_bid_made(seat, tricks),)

    def _play(self, state: WizardState, seat: int, action: Play) -> tuple[WizardEvent, ...]:
        if state.phase != "play":
            doing = "choose trump" if state.phase == "trump" else "bid"
            raise IllegalActionError(f"cannot play a card yet: seat {seat} must {doing}", action, seat)
        card = action.card
        hand = state.hands[seat]
        if not isinstance(card, Card) or card not in hand:
            raise IllegalActionError(f"seat {seat} does not hold {card}", action, seat)
        trick = state.trick
        if card.suit is not None:
            led = suit_to_follow([c for _, c in trick])
            if led is not None and card.suit != led and any(c.suit == led for c in hand):
                raise IllegalActionError(
                    f"{card} does not follow suit: seat {seat} holds {led} and must play it "
                    f"(or a Wizard or a Jester)",
                    action,
                    seat,
                )
        played = _card_played(seat, card)
        n = state.config.players
        if len(trick) + 1 < n:
            return (played,)
        full = trick + ((seat, card),)
        winner = full[trick_winner([c for _, c in full], state.trump)][0]
        won = _trick_won(winner, full)
        if sum(state.tricks_won) + 1 < state.round:
            return (played, won)
        tricks = list(state.tricks_won)
        tricks[winner] += 1
        bids = tuple(b if b is not None else 0 for b in state.bids)
        points = tuple(round_points(b, t) for b, t in zip(bids, tricks))
        scores = tuple(s + p for s, p in zip(state.scores, points))
        scored = RoundScored(state.round, bids, tuple(tricks), points, scores)
        if state.round < state.config.rounds:
            return (played, won, scored)
        return (played, won, scored, GameEnded(scores, winners(scores)))

    # ------------------------------------------------------------------ evolve

    def evolve(self, state: WizardState, event: WizardEvent) -> WizardState:
        """Apply one event (bookkeeping only)."""
        if isinstance(event, CardPlayed):
            seat = event.seat
            hand = state.hands[seat]
            i = hand.index(event.card)
            hands = state.hands[:seat] + (hand[:i] + hand[i + 1 :],) + state.hands[seat + 1 :]
            return make_state(
                state.config, state.phase, state.round, state.dealer,
                (seat + 1) % state.config.players, hands, state.stock, state.turned,
                state.trump, state.bids, state.tricks_won, state.trick + ((seat, event.card),),
                state.last_trick, state.last_winner, state.won, state.scores, state.history,
            )  # fmt: skip
        if isinstance(event, TrickWon):
            w = event.seat
            tricks = state.tricks_won
            won = state.won
            cards = tuple(c for _, c in event.trick)
            return make_state(
                state.config, state.phase, state.round, state.dealer, w, state.hands,
                state.stock, state.turned, state.trump, state.bids,
                tricks[:w] + (tricks[w] + 1,) + tricks[w + 1 :], (), event.trick, w,
                won[:w] + (won[w] + cards,) + won[w + 1 :], state.scores, state.history,
            )  # fmt: skip
        if isinstance(event, BidMade):
            seat = event.seat
            n = state.config.players
            bids = state.bids[:seat] + (event.tricks,) + state.bids[seat + 1 :]
            phase: Phase = "play" if seat == state.dealer else "bid"
            return make_state(
                state.config, phase, state.round, state.dealer, (seat + 1) % n, state.hands,
                state.stock, state.turned, state.trump, bids, state.tricks_won, state.trick,
                state.last_trick, state.last_winner, state.won, state.scores, state.history,
            )  # fmt: skip
        if isinstance(event, RoundDealt):
            n = state.config.players
            return replace(
                state,
                phase="bid",
                round=event.round,
                dealer=event.dealer,
                turn=(event.dealer + 1) % n,
                hands=tuple(sort_cards(h) for h in event.hands),
                stock=event.stock,
                turned=None,
                trump=None,
                bids=(None,) * n,
                tricks_won=(0,) * n,
                trick=(),
                last_trick=(),
                last_winner=None,
                won=((),) * n,
            )
        if isinstance(event, TrumpTurned):
            if event.card is None:
                return replace(state, turned=None, trump=None)
            phase = "trump" if event.card is WIZARD else state.phase
            turn = state.dealer if event.card is WIZARD else state.turn
            return replace(
                state, stock=state.stock[1:], turned=event.card, trump=event.trump, phase=phase, turn=turn
            )
        if isinstance(event, TrumpChosen):
            n = state.config.players
            return replace(state, trump=event.suit, phase="bid", turn=(state.dealer + 1) % n)
        if isinstance(event, RoundScored):
            return replace(
                state, phase="deal", scores=event.scores, history=state.history + (event.points,)
            )
        if isinstance(event, GameEnded):
            return replace(state, phase="over")
        if isinstance(event, DealerChosen):
            return replace(state, phase="deal", dealer=event.seat)
        raise TypeError(f"not a Wizard host event: {event!r}")

    # ------------------------------------------------------------------ what is seen

    def with_zones(self, state: WizardState, zones: tuple[Zone, ...]) -> WizardState:
        """``state`` with the cards of ``zones`` (``zones(state)`` with new cards, same
        sizes) put back in its fields: the determinization hook of :mod:`cardkit.core.resample`."""
        return _inference.with_zones(state, zones)

    def constraints(self, state: WizardState, seat: int, events: Sequence[Any]) -> tuple[Constraint, ...]:
        """What ``seat`` has inferred from ``events`` (its redacted events) about concealed
        zones, for :mod:`cardkit.core.resample`."""
        return _inference.constraints(state, seat, events)

    def zones(self, state: WizardState) -> tuple[Zone, ...]:
        """``stock`` (undealt, concealed), ``turned`` (public), ``hand`` per seat (its owner),
        ``trick`` (public) and ``won`` per seat (this round's completed tricks, public)."""
        n = state.config.players
        everyone = _EVERYONE[n]
        out = [
            Zone("stock", None, state.stock, ()),
            Zone("turned", None, (state.turned,) if state.turned is not None else (), everyone),
        ]
        out.extend(Zone("hand", s, state.hands[s], (s,)) for s in range(n))
        out.append(Zone("trick", None, tuple(c for _, c in state.trick), everyone))
        out.extend(Zone("won", s, state.won[s], everyone) for s in range(n))
        return tuple(out)

    def view(self, state: WizardState, seat: int | None) -> WizardView:
        """What ``seat`` sees (``None``: a spectator); field list in ``docs/games/wizard.md``."""
        to_act = self.to_act(state)
        led = suit_to_follow([c for _, c in state.trick])
        return {
            "game": self.name,
            "seat": seat,
            "players": state.config.players,
            "phase": state.phase,
            "round": state.round,
            "rounds": state.config.rounds,
            "dealer": state.dealer if state.dealer >= 0 else None,
            "to_act": to_act,
            "hand": [c.code for c in state.hands[seat]] if seat is not None else None,
            "hand_sizes": [len(h) for h in state.hands],
            "turned_card": state.turned.code if state.turned is not None else None,
            "trump": state.trump,
            "bids": list(state.bids),
            "tricks_won": list(state.tricks_won),
            "trick": _trick_json(state.trick),
            "trick_winner": (
                state.trick[trick_winner([c for _, c in state.trick], state.trump)][0]
                if state.trick
                else None
            ),
            "suit_to_follow": led,
            "last_trick": _trick_json(state.last_trick),
            "last_trick_winner": state.last_winner,
            "forbid_even_bids": state.config.forbid_even_bids,
            "forbidden_bid": self.forbidden_bid(state),
            "scores": list(state.scores),
            "round_points": [list(p) for p in state.history],
            **turn_view_fields(self, state, seat),
        }

    def redact(self, event: WizardEvent, viewer: int | None) -> WizardEvent | None:
        """Only deals are private: a seat sees its own hand, a spectator the card count."""
        if isinstance(event, RoundDealt):
            if viewer is None:
                return RoundStarted(event.round, event.dealer, len(event.hands[0]))
            return HandDealt(event.round, event.dealer, viewer, event.hands[viewer])
        return event

    def scores(self, state: WizardState) -> tuple[int, ...]:
        """Cumulative points per seat (rule 17)."""
        return state.scores

    def action_space(self, config: WizardConfig) -> tuple[Any, ...]:
        """Every action this game can offer under ``config``, in a fixed order (the action
        index of ``cardkit.rl``; see ``wizard/action_space.py``)."""
        from cardkit.games.wizard.action_space import action_space

        return action_space(config)

    def kernel_bridge(self, config: WizardConfig) -> KernelBridge | None:
        """The bridge to the Wizard kernel (:mod:`cardkit.games.wizard.kernel`), which
        covers every config: every player count, ``forbid_even_bids`` and ``rounds``."""
        from cardkit.games.wizard.kernel import WizardBridge

        return WizardBridge(config)

    def result(self, state: WizardState) -> Result | None:
        """Final scores and every seat with the highest total (rule 18), once over."""
        if state.phase != "over":
            return None
        return Result(state.scores, winners(state.scores))

    # ------------------------------------------------------------------ notation

    def describe(self, event: object, viewer: int | None) -> str:
        """One sentence for a person: ``event`` as ``viewer`` sees it (see :mod:`cardkit.render`)."""
        from cardkit.games.wizard.describe import describe

        return describe(event, viewer)

    def summary(self) -> str:
        """The rules in a few sentences for people, with the action notation (``cardkit rules``)."""
        from cardkit.games.wizard.describe import SUMMARY

        return SUMMARY

    def parse_action(self, text: str) -> WizardAction | ChanceAction:
        """``bid N``, ``trump S|H|D|C``, ``play CARD`` (``W``, ``N``, ``QS``, ``10h``…),
        plus the chance notation ``pick N`` / ``shuffle CARDS``; case-insensitive."""
        if not isinstance(text, str):
            raise NotationError(f"an action must be text, not {type(text).__name__}")
        parts = text.split()
        if not parts:
            raise NotationError("empty action: expected 'bid N', 'trump S|H|D|C' or 'play CARD'")
        verb = parts[0].lower()
        if verb in ("pick", "shuffle"):
            return parse_chance(text)
        if len(parts) == 2:
            arg = parts[1]
            if verb == "bid":
                return Bid(parse_number(arg, text, "a bid"))
            if verb == "trump":
                suit = arg.upper()
                for known in SUITS:
                    if suit == known:
                        return ChooseTrump(known)
                raise NotationError(f"{quoted(text)}: trump is one of S, H, D, C, e.g. 'trump H'")
            if verb == "play":
                return Play(Card.parse(arg))
        raise NotationError(
            f"{quoted(text)} is not a Wizard action: expected 'bid N', 'trump S|H|D|C' or 'play CARD' "
            f"(CARD like QS, 10H, W for a Wizard, N for a Jester)"
        )


RULES: Final = WizardRules()
"""The Wizard rules object the registry loads."""
