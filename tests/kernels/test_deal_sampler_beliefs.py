"""The kernel deal sampler under a bot's beliefs (``deal_sampler(..., extra=...)``): when
no deal can meet them, it keeps the game's own constraints and drops only the beliefs.
Runs against whichever build of the kernels is loaded (tests/test_kernel_build.py runs it
under the other one too).

Found by a long arena run: Spacc 'u Mazz's beliefs could not all be met, the sampler fell
back to a deal without any constraint, put a joker (which the rules keep out of every
hand) into a hand, and the kernel's playout failed on it."""

from __future__ import annotations

import random

import cardkit
from cardkit.bots import RuleBot
from cardkit.bots.kernel_search import deal_sampler
from cardkit.bots.search_spacc_u_mazz import spacc_constraints
from cardkit.core.resample import Constraint
from cardkit.kernels._base import KRng
from cardkit.kernels.bridge import bridge_for


def _positions(seeds: range, every: int) -> list[cardkit.Game]:
    out = []
    for seed in seeds:
        game = cardkit.new_game("spacc-u-mazz", players=3, seed=seed)
        rng, n = random.Random(seed), 0
        while not game.is_over and n < 120:
            if n % every == 0:
                out.append(game)
            seat = game.to_act
            assert seat is not None
            game = game.play(RuleBot().choose(game.seat_state(seat), rng), seat)
            n += 1
    return out


def _meets(sampler: object, bridge: object, fills: list[list[int]], constraints: tuple[Constraint, ...]) -> bool:
    for c in constraints:
        code, owner = bridge.zone_code(c.name, c.owner)  # type: ignore[attr-defined]
        z = next(i for i in range(len(fills)) if sampler.zone_codes[i] == code and sampler.zone_owners[i] == owner)  # type: ignore[attr-defined]
        banned = set(bridge.card_ints(sorted(c.forbidden, key=lambda card: card.code)))  # type: ignore[attr-defined]
        if sum(1 for card in fills[z] if card not in banned) < c.at_least:
            return False
    return True


def test_impossible_beliefs_keep_the_games_constraints() -> None:
    checked = 0
    for game in _positions(range(3), 10):
        seat = game.to_act
        assert seat is not None
        ss = game.seat_state(seat)
        if not ss.constraints:
            continue
        bridge = bridge_for(game.rules, game.config)
        assert bridge is not None
        other = (seat + 1) % 3
        hand = next(z for z in game.rules.zones(ss.masked) if (z.name, z.owner) == ("hand", other))
        every_card = frozenset(c for z in game.zones() for c in z.cards)
        impossible = [Constraint("hand", other, every_card, len(hand.cards))] if hand.cards else []
        sampler = deal_sampler(ss, bridge, impossible)
        for k in range(30):
            fills = sampler.deal(KRng(k))
            assert _meets(sampler, bridge, fills, ss.constraints), k
            assert sorted(c for fill in fills for c in fill) == sorted(sampler.pool)
            checked += 1
    assert checked > 100


def test_a_bots_beliefs_never_cost_the_games_constraints() -> None:
    for game in _positions(range(2), 15):
        seat = game.to_act
        assert seat is not None
        ss = game.seat_state(seat)
        bridge = bridge_for(game.rules, game.config)
        assert bridge is not None
        sampler = deal_sampler(ss, bridge, spacc_constraints(ss))
        for k in range(10):
            assert _meets(sampler, bridge, sampler.deal(KRng(k)), ss.constraints)
