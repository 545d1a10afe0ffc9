"""Spacc 'u Mazz: :class:`EagerShedderBot`, the rule strategy without its costly draw.

The rule strategy (:mod:`cardkit.bots.heuristics.spacc_u_mazz`) draws a card rather than
play a 2 or a 10 when those are all it could play, to keep them for later. Measured
against two RuleBots, that one habit is its main weakness: a seat that plays the 2 (a 2
before a 10, fewest copies first, the rule's own order when it has to) instead of
drawing wins about 0.58 of the hands (docs/bots.md, *Levels*), where searches over
determinizations stayed at or below an even third (a hand lasts hundreds of turns; cut
playouts judge a position poorly, and whole playouts cost too much per decision).

It reads only the seat's :class:`~cardkit.core.seat.SeatState` (its masked state and
legal actions), like the rule bot, and is deterministic.
"""

from __future__ import annotations

import math
import random
from typing import Any, Sequence

from cardkit.bots.base import require_turn
from cardkit.bots.explain import Explanation
from cardkit.bots.heuristics import spacc_u_mazz
from cardkit.bots.kernel_search import deal_sampler
from cardkit.bots.limit import Limit
from cardkit.bots.reasons import search_reason
from cardkit.bots.rule import RuleBot
from cardkit.cards import RANK_CHARS as _RANK_CHARS
from cardkit.cards import standard_deck
from cardkit.core.resample import Constraint
from cardkit.core.seat import SeatState
from cardkit.errors import ConfigError
from cardkit.games.spacc_u_mazz.actions import Blind, Draw, Play, Take
from cardkit.games.spacc_u_mazz.events import (
    BlindFailed,
    BlindPlayed,
    CardDrawn,
    CardsPlayed,
    HandDumped,
    HandStarted,
    PileBurned,
    PileTaken,
    StarterTurned,
)
from cardkit.games.spacc_u_mazz.scoring import rank_orders
from cardkit.kernels._base import KRng
from cardkit.kernels.bridge import bridge_for
from cardkit.kernels.search import DealSampler, flat_totals
from cardkit.kernels.spacc_u_mazz import SpaccUMazzKernel

__all__ = ["EagerShedderBot", "ShedderSearchBot", "candidates", "eager_decide"]


def eager_decide(state: Any, seat: int, legal: Sequence[Any]) -> tuple[Any, str]:
    """The rule strategy's action, except that where it would draw while a 2 or a 10 is
    playable it plays one (a 2 before a 10, fewest copies first); with the reason."""
    action, reason = spacc_u_mazz.decide(state, seat, legal)
    if type(action) is Draw:
        best: Any = None
        best_key = (True, 99)
        for a in legal:
            if type(a) is Play:
                cards = a.hand or a.up
                key = (cards[0].rank != 2, len(a.hand) + len(a.up))
                if key < best_key:
                    best, best_key = a, key
        if best is not None:
            return best, f"{best}: a card shed now beats a card drawn"
    return action, reason()


class EagerShedderBot:
    """Spacc 'u Mazz's level 3 (see the module docs): the rule strategy, but never a draw
    while a 2 or a 10 could be played. Other games: the rule strategy."""

    name = "eager-shedder"

    def choose(self, seat_state: SeatState, rng: random.Random) -> Any:
        """The strategy's action (``rng`` unused: the strategy is deterministic)."""
        return self.explain(seat_state, rng)[0].action

    def explain(self, seat_state: SeatState, rng: random.Random | None = None) -> tuple[Explanation, ...]:
        """The strategy's choice as one :class:`~cardkit.bots.Explanation` (value 1.0)."""
        legal = require_turn(seat_state)
        if seat_state.rules.name != "spacc-u-mazz":
            return RuleBot().explain(seat_state, rng)
        action, reason = eager_decide(seat_state.masked, seat_state.seat, legal)
        return (Explanation(action, 1.0, reason),)

    def __repr__(self) -> str:
        return "EagerShedderBot()"


_ORDINARY = (3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14)
_DECK = tuple(standard_deck())


def _ref(char: str | None) -> int:
    return 0 if char is None else _RANK_CHARS.index(char) + 2


def spacc_moments(events: Sequence[Any], me: int, order: Sequence[int]) -> list[tuple[int, tuple[int, ...], int]]:
    """What the other seats' moves say about their private hand cards, if they play the
    rule strategy or the eager shedder: ``(seat, ranks, later)``, the seat holds at most
    ``later`` private cards of those ordinary ``ranks`` now (``later``: the cards it drew
    since, unseen). Two kinds of moments, from the current hand's events (``order``: the
    rank order of :func:`cardkit.games.spacc_u_mazz.scoring.rank_orders`):

    * a draw by choice (not a penalty): it held no ordinary card playable on the pile;
    * a play from the hand of an ordinary rank: it held no lower playable ordinary rank,
      and no copy of the rank played is left (both strategies play every copy); of a 2
      or a 10: no playable ordinary card.

    Both strategies would have played otherwise, so a deal that breaks one is unlikely
    against them; other players (who may draw on purpose) only flatten the weights."""
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if type(events[i]) is HandStarted:
            start = i
            break
    ref = 0
    drawn: dict[int, int] = {}
    found: list[tuple[int, tuple[int, ...], int]] = []
    for event in events[start:]:
        kind = type(event)
        if kind is StarterTurned:
            ref = 0 if event.card.rank == 2 else event.card.rank
        elif kind is CardsPlayed:
            if event.seat != me and event.hand:
                rank = event.hand[0].rank
                playable = tuple(q for q in _ORDINARY if ref == 0 or order[q] >= order[ref])
                if rank in (2, 10):
                    ranks = playable
                else:
                    ranks = tuple(q for q in playable if order[q] < order[rank]) + (rank,)
                found.append((event.seat, ranks, drawn.get(event.seat, 0)))
            ref = _ref(event.reference)
        elif kind is BlindPlayed or kind is HandDumped:
            ref = _ref(event.reference)
        elif kind is PileBurned or kind is PileTaken or kind is BlindFailed:
            ref = 0
        elif kind is CardDrawn:
            before = drawn.get(event.seat, 0)
            if event.seat != me and not event.penalty:
                found.append((event.seat, tuple(q for q in _ORDINARY if ref == 0 or order[q] >= order[ref]), before))
            drawn[event.seat] = before + 1
    return [(seat, ranks, drawn.get(seat, 0) - before) for seat, ranks, before in found]


def spacc_constraints(seat_state: SeatState) -> list[Constraint]:
    """The :func:`spacc_moments` beliefs as resampling constraints: at most ``later``
    cards of those ranks in the seat's private hand (``Constraint("hand", seat,
    cards of those ranks, size - later)``), for a deal sampler
    (:func:`cardkit.bots.kernel_search.deal_sampler`'s ``extra``)."""
    order = rank_orders(seat_state.config.rank_order)
    zones = {(z.name, z.owner): len(z.cards) for z in seat_state.rules.zones(seat_state.masked)}
    out: list[Constraint] = []
    for seat, ranks, later in spacc_moments(seat_state.events, seat_state.seat, order):
        size = zones.get(("hand", seat), 0)
        if size - later > 0:
            wanted = set(ranks)
            cards = frozenset(c for c in _DECK if c.rank in wanted)
            out.append(Constraint("hand", seat, cards, size - later))
    return out


def candidates(state: Any, seat: int, legal: Sequence[Any], take: bool = True) -> list[Any]:
    """The actions :class:`ShedderSearchBot` compares, in legal order: the eager
    shedder's choice, the rule strategy's, per rank the play of every copy the seat may
    add (and a single card of a 2 or a 10), a draw, the pile, one blind card. A red
    joker's choice is not searched (the strategy's is kept)."""
    if state.pending:
        return [eager_decide(state, seat, legal)[0]]
    keep: list[Any] = []
    best_play: dict[int, Any] = {}
    for a in legal:
        kind = type(a)
        if kind is Play:
            cards = a.hand or a.up
            rank = cards[0].rank
            size = len(a.hand) + len(a.up)
            old = best_play.get(rank)
            if old is None:
                best_play[rank] = a
            else:
                old_size = len(old.hand) + len(old.up)
                # the most copies for an ordinary rank, the fewest for a 2 or a 10
                if (size < old_size) if rank in (2, 10) else (size > old_size):
                    best_play[rank] = a
        elif kind is Draw or (kind is Take and take) or (kind is Blind and not any(type(b) is Blind for b in keep)):
            keep.append(a)
    wanted = {id(a) for a in (*best_play.values(), *keep)}
    wanted.add(id(eager_decide(state, seat, legal)[0]))
    wanted.add(id(spacc_u_mazz.decide(state, seat, legal)[0]))
    return [a for a in legal if id(a) in wanted]


class ShedderSearchBot:
    """Spacc 'u Mazz: a flat search around the eager shedder. Per decision where the
    eager shedder has an alternative (:func:`candidates`), ``deals`` determinizations
    are drawn from what the seat knows (the known cards stay in their hands), every
    candidate is played in each and the hand played out to its end by the eager
    shedder (this seat and, with ``opponents="eager"``, the others; with ``"rule"`` the
    others play the rule strategy), all candidates of one deal on the same random
    stream. The eager shedder's choice is kept unless another candidate wins more
    often by more than ``margin``. Other games: the rule strategy."""

    name = "shedder-search"

    def __init__(self, limit: Limit | None = None, opponents: str = "eager", margin: float | None = None, steps: int = 2000, take: bool = True, beliefs: str = "policy") -> None:
        limit = limit if limit is not None else Limit(iterations=400)
        if not isinstance(limit, Limit) or limit.iterations is None or limit.time_ms is not None:
            raise ConfigError(f"ShedderSearchBot needs Limit(iterations=N) alone, not {limit!r}")
        if opponents not in ("eager", "rule"):
            raise ConfigError(f"opponents must be 'eager' or 'rule', not {opponents!r}")
        self.limit = limit
        self.opponents = opponents
        if margin is None:  # the noise of a difference of shares shrinks as 1/sqrt(playouts)
            margin = 2.0 / math.sqrt(limit.iterations)
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0.0 <= margin <= 1.0:
            raise ConfigError(f"margin must be in [0, 1], not {margin!r}")
        self.margin = float(margin)
        self.steps = steps
        self.take = take
        if beliefs not in ("uniform", "policy"):
            raise ConfigError(f"beliefs must be 'uniform' or 'policy', not {beliefs!r}")
        self.beliefs = beliefs

    def values(self, seat_state: SeatState, rng: random.Random) -> list[tuple[Any, float, int]]:
        """``(action, share of playouts won, playouts)`` per candidate, eager's first."""
        legal = require_turn(seat_state)
        if seat_state.rules.name != "spacc-u-mazz":
            raise ConfigError(f"ShedderSearchBot.values: Spacc 'u Mazz only, not {seat_state.rules.name}")
        state, seat = seat_state.masked, seat_state.seat
        eager = eager_decide(state, seat, legal)[0]
        cands = candidates(state, seat, legal, self.take)
        if len(cands) < 2:
            return [(eager, 1.0, 0)]
        bridge = bridge_for(seat_state.rules, seat_state.config)
        if bridge is None:
            raise ConfigError("ShedderSearchBot: no Spacc 'u Mazz kernel for this config")
        krng = KRng(rng.getrandbits(32))
        sampler = self.sampler(seat_state, bridge)
        ids = [bridge.action_id(a) for a in cands]
        assert self.limit.iterations is not None
        deals = max(1, self.limit.iterations // len(ids))
        scores = [int(s) for s in seat_state.rules.scores(state)]
        totals = flat_totals(sampler, krng, ids, deals, seat, 0.0, self.steps, scores, False)
        rows = [(cands[i], totals[i] / deals, deals) for i in range(len(ids))]
        rows.sort(key=lambda row: row[0] is not eager)
        return rows

    def sampler(self, seat_state: SeatState, bridge: Any) -> DealSampler:
        """The determinizations' sampler (its kernels' ``eager_seats`` set: who plays the
        eager shedder in the playouts, a bit per seat)."""
        extra = spacc_constraints(seat_state) if self.beliefs == "policy" else []
        sampler = deal_sampler(seat_state, bridge, extra)
        base = sampler.base
        assert isinstance(base, SpaccUMazzKernel)
        base.eager_seats = (1 << seat_state.seat) if self.opponents == "rule" else 0xFF
        return sampler

    def explain(self, seat_state: SeatState, rng: random.Random, top: int = 3) -> tuple[Explanation, ...]:
        """The chosen action first, then the other candidates by share won."""
        if seat_state.rules.name != "spacc-u-mazz":
            return RuleBot().explain(seat_state, rng)
        rows = self.values(seat_state, rng)
        base = rows[0][1]
        chosen = max(rows, key=lambda row: row[1])
        if chosen[1] <= base + self.margin:
            chosen = rows[0]
        rest = sorted((r for r in rows if r is not chosen), key=lambda row: -row[1])
        eager, why = eager_decide(seat_state.masked, seat_state.seat, seat_state.legal_actions)
        out = []
        for a, v, n in [chosen, *rest][: max(1, top)]:
            reason = search_reason(seat_state, a, v, n)
            if a == eager and not reason.startswith(why):
                # the eager shedder's own reason, where it is not the rule strategy's
                reason = f"{why}; wins about {round(100 * v)}% in {n} deals searched" if n else why
            out.append(Explanation(a, v, reason, n))
        return tuple(out)

    def choose(self, seat_state: SeatState, rng: random.Random) -> Any:
        """The searched action (see the class docs)."""
        return self.explain(seat_state, rng, 1)[0].action

    def __repr__(self) -> str:
        return f"ShedderSearchBot(limit={self.limit}, opponents={self.opponents!r}, margin={self.margin})"
