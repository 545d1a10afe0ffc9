"""The Python side of :class:`~cardkit.bots.ISMCTSBot`'s kernel engine.

Once per decision, from what the :class:`~cardkit.core.seat.SeatState` holds and nothing
else, this module prepares a sampler in kernel ints and a
:class:`cardkit.kernels.search.Search`; the iterations then run entirely in the kernel
search (compiled with the game kernels when a C compiler was present).

* Uniform beliefs: a :class:`~cardkit.kernels.search.DealSampler` built from the generic
  resampler's :class:`~cardkit.core.resample.DealPlan` of the seat's masked state (the
  concealed cards, the concealed zones, the constrained slots with their forbidden cards),
  and the kernel of the masked state as the base each draw copies and redeals.
* ``beliefs="policy"``: a pool of :data:`~cardkit.bots.beliefs.BELIEF_POOL`
  determinizations weighed by the game's fit (:mod:`cardkit.bots.beliefs`); each iteration
  copies one of them, drawn by weight. Where the game's kernel has the fit
  (``kernel.fit(moves, seat, epsilon)``, with the bridge's ``fit_moves(events)`` giving
  the hand's moves as ids, as Wizard's does) the pool is drawn by the deal sampler and
  weighed in the kernel; otherwise it is the reference
  :func:`~cardkit.bots.beliefs.belief_pool`, each pooled state converted into a kernel
  once.

No-peek: the masked state, the constraints and the seat's events are all a function of
what the seat knows, so two true states the seat cannot tell apart give the same sampler,
the same draws and the same decision (tests/bots/test_ismcts_kernel.py).
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from cardkit.bots import search_crazy_eights
from cardkit.bots.beliefs import BELIEF_EPSILON, BELIEF_POOL, FITS, belief_pool, hand_events
from cardkit.core.resample import MAX_TRIES, Constraint, deal_plan
from cardkit.core.seat import SeatState
from cardkit.kernels._base import KRng
from cardkit.kernels.bridge import KernelBridge
from cardkit.kernels.search import DealSampler, PoolSampler, Sampler, Search
from cardkit.kernels.trick_solver import SolvedSearch

__all__ = ["KERNEL_POOLS", "KernelPool", "deal_sampler", "pool_sampler", "new_search", "root_stats", "root_visits"]

KernelPool = Callable[[SeatState, DealSampler, KRng], "tuple[list[Any], list[float]] | None"]
"""``pool(seat_state, deal_sampler, krng)``: a game's own weighted pool of kernels drawn by
the deal sampler (the kernels and the running sums of their weights), or ``None`` (sample
uniformly)."""

KERNEL_POOLS: dict[str, KernelPool] = {
    "crazy-eights": search_crazy_eights.kernel_pool,
}
"""Game name → its :data:`KernelPool`, used by ``beliefs="policy"`` before the generic fit
(:mod:`cardkit.bots.search_crazy_eights` for Crazy Eights)."""


def deal_sampler(seat_state: SeatState, bridge: KernelBridge, extra: Sequence[Constraint] = ()) -> DealSampler:
    """The uniform determinization sampler of ``seat_state`` in kernel ints (see the
    module docs); it draws exactly the slots and zones the generic resampler deals
    (``extra``: constraints a bot adds to the game's, such as a model of the other
    players' strategy; a deal that cannot meet them all is dealt under the game's own
    constraints alone)."""
    rules = seat_state.rules
    plan = deal_plan(rules, seat_state.masked, seat_state.seat, (*seat_state.constraints, *extra))
    base = bridge.kernel(seat_state.masked)
    pool = bridge.card_ints(plan.pool)
    codes: list[int] = []
    owners: list[int] = []
    sizes: list[int] = []
    for i in plan.hidden:
        zone = plan.zones[i]
        code, owner = bridge.zone_code(zone.name, zone.owner)
        codes.append(code)
        owners.append(owner)
        sizes.append(len(zone.cards))
    local = {zone_index: n for n, zone_index in enumerate(plan.hidden)}

    def banned_of(slots: Sequence[tuple[int, frozenset[Any]]]) -> list[tuple[int, list[int]]]:
        # Only membership matters (a flag table), but a sorted list keeps set order out of it.
        return [(local[i], sorted(bridge.card_ints(list(cards)))) for i, cards in slots]

    banned = banned_of(plan.slots)
    # The game's constraints alone: what the deal keeps when the bot's beliefs cannot all be met.
    hard = banned_of(deal_plan(rules, seat_state.masked, seat_state.seat, seat_state.constraints).slots) if extra else None
    every = [card for _, ints in (*banned, *(hard or ())) for card in ints]
    width = 1 + max([*pool, *every], default=0)

    def flags(slots: list[tuple[int, list[int]]]) -> list[int]:
        out = [0] * (width * len(slots))
        for s, (_, ints) in enumerate(slots):
            for card in ints:
                out[s * width + card] = 1
        return out

    return DealSampler(
        base, pool, codes, owners, sizes, [zone for zone, _ in banned], flags(banned), width, MAX_TRIES,
        None if hard is None else [zone for zone, _ in hard], None if hard is None else flags(hard),
    )  # fmt: skip


def pool_sampler(
    seat_state: SeatState, bridge: KernelBridge, rng: random.Random, krng: KRng, size: int = BELIEF_POOL
) -> PoolSampler | None:
    """The weighted belief pool of ``size`` determinizations as kernels (see the module
    docs), or ``None`` where the game has no fit or no other seat has moved in the current
    hand. A pool weighed in the kernel is drawn with ``krng``; the reference pool with
    ``rng``. A game with a pool of its own (:data:`KERNEL_POOLS`) sizes it itself."""
    own = KERNEL_POOLS.get(seat_state.rules.name)
    if own is not None:
        pooled = own(seat_state, deal_sampler(seat_state, bridge), krng)
        return None if pooled is None else PoolSampler(*pooled)
    entry = FITS.get(seat_state.rules.name)
    if entry is None:
        return None
    seat = seat_state.seat
    events = hand_events(seat_state.events, entry.starts)
    if not any(type(event) in entry.moves and event.seat != seat for event in events):
        return None
    fit_moves = getattr(bridge, "fit_moves", None)
    if fit_moves is not None:
        sampler = deal_sampler(seat_state, bridge)
        if hasattr(sampler.base, "fit"):
            moves: list[int] = fit_moves(events)
            kernels = []
            cumulative: list[float] = []
            total = 0.0
            for _ in range(size):
                kernel: Any = sampler.draw(krng)
                total += kernel.fit(moves, seat, BELIEF_EPSILON)
                kernels.append(kernel)
                cumulative.append(total)
            return PoolSampler(kernels, cumulative)
    drawn = belief_pool(seat_state, rng, size)
    if drawn is None:
        return None
    states, cumulative = drawn
    return PoolSampler([bridge.kernel(state) for state in states], cumulative)


def new_search(
    seat_state: SeatState,
    bridge: KernelBridge,
    rng: random.Random,
    *,
    c: float,
    policy: bool,
    epsilon: float,
    opponent_policy: bool,
    limit: int,
    has_eval: bool,
    has_hand: bool,
    beliefs: str,
    pool: int = BELIEF_POOL,
    solve_at: int = 0,
    own: float = 0.0,
) -> Search:
    """A :class:`~cardkit.kernels.search.Search` for ``seat_state`` with no iteration run
    yet (``pool``: the size of a belief pool; ``solve_at`` > 0: a
    :class:`~cardkit.kernels.trick_solver.SolvedSearch` whose playouts end by the exact
    solver once the seat holds at most that many cards). One 32-bit draw of ``rng`` seeds the search's own generator, which draws
    everything after (a belief pool weighed in the kernel included); a reference belief
    pool is drawn with ``rng`` after that draw."""
    krng = KRng(rng.getrandbits(32))
    sampler: Sampler | None = None
    if beliefs == "policy":
        sampler = pool_sampler(seat_state, bridge, rng, krng, pool)
    if sampler is None:
        sampler = deal_sampler(seat_state, bridge)
    scores = [int(s) for s in seat_state.rules.scores(seat_state.masked)]
    if solve_at > 0 or own > 0:
        return SolvedSearch(
            sampler, krng, seat_state.seat, len(bridge.actions), c, policy, epsilon,
            opponent_policy, limit, has_eval, has_hand, scores, solve_at, own,
        )  # fmt: skip
    return Search(
        sampler, krng, seat_state.seat, len(bridge.actions), c, policy, epsilon,
        opponent_policy, limit, has_eval, has_hand, scores,
    )  # fmt: skip


def root_visits(search: Search, bridge: KernelBridge) -> dict[Any, int]:
    """The visits of each root action of the searching seat, by action object."""
    flat = search.root_visits()
    return {bridge.actions[flat[i]]: flat[i + 1] for i in range(0, len(flat), 2)}


def root_stats(search: Search, bridge: KernelBridge) -> dict[Any, tuple[int, float]]:
    """``action -> (visits, mean payoff)`` of the searching seat's root children (for
    :meth:`~cardkit.bots.ISMCTSBot.explain`)."""
    out: dict[Any, tuple[int, float]] = {}
    width = search.actions
    for key, child in search.root.children.items():
        if key // width == search.me and child.visits:
            out[bridge.actions[key % width]] = (child.visits, child.total / child.visits)
    return out
