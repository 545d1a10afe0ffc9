"""Beliefs: determinizations weighed by how well the other seats' moves fit sensible play.

:meth:`~cardkit.core.seat.SeatState.sample` treats every deal consistent with what a seat
knows (and the game's sound inferences) as equally likely. Players are not random,
though: a seat that bid 3 tricks in Wizard probably holds strong cards. A *fit* says how
likely the moves the other seats made in the current hand are, were the sampled state the
true one and were they playing the game's rule strategy (:mod:`cardkit.bots.heuristics`)
with a share ``epsilon`` of uniformly random moves:

    likelihood = product over their moves of ((1 - epsilon) * [the strategy makes it]
                                              + epsilon / number of legal moves)

:func:`weighted_sampler` draws :data:`BELIEF_POOL` determinizations with the bot's rng,
weighs each by its fit, and then hands the search one of them per iteration, drawn in
proportion to its weight. The random share keeps every sample possible: against players
who do not follow the strategy the weights flatten out instead of ruling deals out.

Only what the seat saw is used: the sampled state and the seat's own (redacted) events,
so two true states the seat cannot tell apart give the same pool, weights and draws.
"""

from __future__ import annotations

import bisect
import random
from typing import Any, Callable, Sequence

import attrs

from cardkit.bots.heuristics import wizard
from cardkit.bots.search_crazy_eights import crazy_eights_fit
from cardkit.games.crazy_eights import events as ce_events
from cardkit.core.seat import SeatState
from cardkit.games.wizard.actions import Bid, ChooseTrump, Play
from cardkit.games.wizard.events import (
    BidMade,
    CardPlayed,
    HandDealt,
    RoundDealt,
    RoundStarted,
    TrickWon,
    TrumpChosen,
    TrumpTurned,
)
from cardkit.games.wizard.state import replace as replace_wizard_state

__all__ = [
    "BELIEF_EPSILON", "BELIEF_POOL", "BELIEF_MODEL_NAMES", "BELIEF_MODELS", "FITS",
    "Fit", "HandFit", "belief_pool", "hand_events", "wizard_fit", "weighted_sampler",
]  # fmt: skip

Fit = Callable[[Any, Any, Sequence[Any], int, float], float]
"""``fit(rules, state, events, seat, epsilon)``: the likelihood of the other seats' moves
in ``events`` (the seat's events of the current hand) were ``state`` the true state."""

BELIEF_EPSILON = 0.2
"""The random share of the other seats in a fit (Wizard's playout share, too)."""

BELIEF_POOL = 300
"""Determinizations drawn per decision by :func:`weighted_sampler`."""

BELIEF_MODEL_NAMES: tuple[str, ...] = ("uniform", "policy")
"""The values of :class:`~cardkit.bots.ISMCTSBot`'s ``beliefs`` (and of a bot spec's
fifth field): ``"uniform"`` (every consistent deal alike) or ``"policy"`` (weighed by
the game's fit; a game without one samples uniformly)."""


def hand_events(events: Sequence[Any], starts: tuple[type, ...]) -> Sequence[Any]:
    """The current hand's events: from the last one whose type is in ``starts`` on."""
    for i in range(len(events) - 1, -1, -1):
        if type(events[i]) in starts:
            return events[i:]
    return events


def _likelihood(observed: Any, legal: Sequence[Any], chosen: Any, epsilon: float) -> float:
    return (1.0 - epsilon if observed == chosen else 0.0) + epsilon / len(legal)


def wizard_fit(rules: Any, state: Any, events: Sequence[Any], seat: int, epsilon: float) -> float:
    """Wizard: the round is replayed from the hands it began with (the sampled hands plus
    the cards played since), and every trump choice, bid and card of another seat is
    compared with :func:`cardkit.bots.heuristics.wizard.decide` on the state it was made in.

    Hands keep the order they were dealt in, which the seat does not know, and the
    strategy breaks ties between equally strong cards by that order: a played card is put
    first in its hand, so that a tie never counts against it."""
    players = len(state.hands)
    hands = [list(hand) for hand in state.hands]
    for event in events:
        if type(event) is CardPlayed:
            hands[event.seat].append(event.card)
    trump = state.trump  # until the round's TrumpTurned, which comes before any move
    bids: list[int | None] = [None] * players
    tricks = [0] * players
    trick: list[tuple[int, Any]] = []
    weight = 1.0

    def fits(phase: str, mover: int, observed: Any) -> float:
        """The likelihood of ``observed``, made by ``mover`` in the state of that moment."""
        past = replace_wizard_state(
            state, phase=phase, turn=mover, hands=tuple(tuple(h) for h in hands), trump=trump,
            bids=tuple(bids), tricks_won=tuple(tricks), trick=tuple(trick),
        )  # fmt: skip
        legal = rules.legal_actions(past)
        return _likelihood(observed, legal, wizard.decide(past, mover, legal)[0], epsilon)

    for event in events:
        kind = type(event)
        if kind is CardPlayed:
            mover, card = event.seat, event.card
            hand = hands[mover]
            hand.remove(card)
            if mover != seat:
                hand.insert(0, card)
                weight *= fits("play", mover, Play(card))
                del hand[0]
            trick.append((mover, card))
        elif kind is TrickWon:
            tricks[event.seat] += 1
            trick = []
        elif kind is BidMade:
            if event.seat != seat:
                weight *= fits("bid", event.seat, Bid(event.tricks))
            bids[event.seat] = event.tricks
        elif kind is TrumpChosen:
            if event.seat != seat:
                weight *= fits("trump", event.seat, ChooseTrump(event.suit))
            trump = event.suit
        elif kind is TrumpTurned:
            trump = event.trump
    return weight


@attrs.frozen
class HandFit:
    """A game's fit and the events it reads."""

    starts: tuple[type, ...]
    """Event types that start a hand (the fit reads the events from the last of them on)."""
    moves: tuple[type, ...]
    """Event types of the seats' own choices (without another seat's, nothing to weigh)."""
    fit: Fit


FITS: dict[str, HandFit] = {
    "wizard": HandFit((RoundDealt, HandDealt, RoundStarted), (TrumpChosen, BidMade, CardPlayed), wizard_fit),
    # Crazy Eights: the kernel engine weighs its own pool (cardkit.bots.kernel_search.KERNEL_POOLS)
    "crazy-eights": HandFit((ce_events.HandDealt,), (ce_events.CardPlayed, ce_events.CardsDrawn), crazy_eights_fit),
}
"""Game name → its :class:`HandFit`. A game without one samples uniformly whatever the
``beliefs`` setting."""

BELIEF_MODELS: dict[str, str] = {
    "wizard": "policy",
}
"""Game name → :class:`~cardkit.bots.ISMCTSBot`'s ``beliefs`` when not given (default
``"uniform"``); see docs/bots.md, *Strength*, for the measurements behind Wizard's."""


def belief_pool(
    seat_state: SeatState,
    rng: random.Random,
    pool: int = BELIEF_POOL,
    epsilon: float = BELIEF_EPSILON,
) -> tuple[list[Any], list[float]] | None:
    """The determinizations :func:`weighted_sampler` draws from: ``pool`` samples drawn
    now with ``rng`` and the running sums of their fits (``None`` as for
    :func:`weighted_sampler`). The kernel search (:mod:`cardkit.bots.kernel_search`)
    converts each of them into a kernel once.

    ``ValueError`` unless ``pool`` is a positive integer and ``epsilon`` is in [0, 1]."""
    if not isinstance(pool, int) or isinstance(pool, bool) or pool < 1:
        raise ValueError(f"pool must be a positive integer, not {pool!r}")
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be in [0, 1], not {epsilon!r}")
    entry = FITS.get(seat_state.rules.name)
    if entry is None:
        return None
    seat = seat_state.seat
    events = hand_events(seat_state.events, entry.starts)
    if not any(type(event) in entry.moves and event.seat != seat for event in events):
        return None
    fit = entry.fit
    rules = seat_state.rules
    states = [seat_state.sample(rng) for _ in range(pool)]
    cumulative: list[float] = []
    total = 0.0
    for state in states:
        total += fit(rules, state, events, seat, epsilon)
        cumulative.append(total)
    return states, cumulative


def weighted_sampler(
    seat_state: SeatState,
    rng: random.Random,
    pool: int = BELIEF_POOL,
    epsilon: float = BELIEF_EPSILON,
) -> Callable[[random.Random], Any] | None:
    """A ``sample(rng)`` drawing from ``pool`` determinizations (drawn now with ``rng``)
    in proportion to their fit; ``None`` when the game has no fit or no other seat has
    moved in the current hand (every sample would weigh the same). If every one of them
    weighs nothing (only possible with ``epsilon`` 0) they are drawn alike.

    ``ValueError`` unless ``pool`` is a positive integer and ``epsilon`` is in [0, 1]."""
    drawn = belief_pool(seat_state, rng, pool, epsilon)
    if drawn is None:
        return None
    states, cumulative = drawn
    total = cumulative[-1]
    last = len(states) - 1
    if total <= 0.0:
        return lambda r: states[r.randrange(len(states))]

    def sample(r: random.Random) -> Any:
        return states[min(bisect.bisect_right(cumulative, r.random() * total), last)]

    return sample
