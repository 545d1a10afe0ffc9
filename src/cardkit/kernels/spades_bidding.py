"""Monte-Carlo bidding for Cutthroat Spades, on its kernel (compiled with the kernels).

Restricted typed Python, like :mod:`cardkit.kernels.search` (ints, floats, ``list[int]``;
it imports nothing of cardkit but the kernels). The Python side,
:class:`cardkit.bots.search_cutthroat_spades.MCBidBot`, builds the deal sampler from what
the seat knows and calls :func:`bid_totals`.

For each determinization drawn by the sampler, every candidate bid is applied to a copy
and the hand is played out: the seats still to bid bid as the rule strategy does (no
random share: a random bid of moon or blind nil by a modelled opponent is noise no
player makes), every card is played by the game's playout policy (the rule strategy
with a random share ``epsilon``), and the payoff is read when the hand has been scored
(the game's payoffs: a win share once the game is over, else the search's hand value).
Every candidate of one determinization plays on the same random stream (common random
numbers), so the differences between the bids are measured on the same deals and the
same cards.

Each determinization is weighed by how well the bids already made fit the rule
strategy's bid on the sampled hands: ``sharpness ** |rule bid - bid made|`` per seat
that made a seen bid (a nil counts 0 tricks, 1-for-50 one, 2-for-40 two, moon its
threshold); blind bids say nothing of the hand and weigh 1.
"""

from __future__ import annotations

from typing import Final

from cardkit.kernels._base import OVER, KRng
from cardkit.kernels.cutthroat_spades import (
    BID,
    DONE,
    K_BLIND_NIL,
    K_BLIND_SIX,
    K_MOON,
    K_NIL,
    K_ONE_FOR_FIFTY,
    K_TWO_FOR_FORTY,
    CutthroatSpadesKernel,
)
from cardkit.kernels.search import Sampler

__all__ = [
    "HAND_LIMIT", "ROWS", "R_COUNTED", "R_ENDED", "R_MADE", "R_MARGIN", "R_PAYOFF", "R_POINTS",
    "bid_fit", "bid_totals", "fight_action", "fights", "made", "play_hand", "rule_bid_tricks",
]  # fmt: skip

HAND_LIMIT: Final = 400
"""Most steps of one playout (a hand of 17 tricks is about 55)."""

R_PAYOFF: Final = 0
"""Row of :func:`bid_totals`: weighted payoffs."""
R_POINTS: Final = 1
"""Row of :func:`bid_totals`: weighted score changes of the bidder."""
R_MARGIN: Final = 2
"""Row of :func:`bid_totals`: weighted score changes less the others' mean change."""
R_COUNTED: Final = 3
"""Row of :func:`bid_totals`: weight of the deals the points rows count."""
R_MADE: Final = 4
"""Row of :func:`bid_totals`: weight of the deals where the bid was made."""
R_ENDED: Final = 5
"""Row of :func:`bid_totals`: weight of the deals where the hand ended the game."""
ROWS: Final = 6
"""Rows of :func:`bid_totals` per candidate."""


def rule_bid_tricks(k: CutthroatSpadesKernel, seat: int) -> int:
    """The tricks of the rule strategy's bid on ``seat``'s hand in ``k`` (nil: 0)."""
    action = k._rule_bid(seat)
    if action == 3 + k.tricks:
        return 0
    return action - 2


def bid_fit(k: CutthroatSpadesKernel, me: int, sharpness: float) -> float:
    """The weight of the determinization ``k``: ``sharpness`` to the power of how far
    each other seat's seen bid is from the rule strategy's bid on its sampled hand."""
    weight = 1.0
    for s in range(k.players):
        kind = k.bid_kind[s]
        if s == me or kind < 0 or kind == K_BLIND_NIL or kind == K_BLIND_SIX:
            continue
        made_bid = 0 if kind == K_NIL else k.bid_tricks[s]
        gap = rule_bid_tricks(k, s) - made_bid
        if gap < 0:
            gap = -gap
        for _ in range(gap):
            weight *= sharpness
    return weight


def made(k: CutthroatSpadesKernel, seat: int) -> bool:
    """After the hand: whether ``seat`` made its bid (not set)."""
    kind = k.bid_kind[seat]
    taken = k.tricks_won[seat]
    if kind == K_NIL or kind == K_BLIND_NIL:
        return taken == 0
    if kind == K_ONE_FOR_FIFTY:
        return taken >= 1
    if kind == K_TWO_FOR_FORTY:
        return taken >= 2
    if kind == K_MOON:
        return taken >= k.bid_tricks[seat]
    return taken >= k.bid_tricks[seat]


def fights(k: CutthroatSpadesKernel, me: int) -> bool:
    """Whether the others have a bid of ``me`` to fight: tricks it still needs, or a nil
    (blind or not) it has not broken yet."""
    kind = k.bid_kind[me]
    if kind < 0:
        return False
    if kind == K_NIL or kind == K_BLIND_NIL:
        return k.tricks_won[me] == 0
    return k.bid_tricks[me] > k.tricks_won[me]


def fight_action(k: CutthroatSpadesKernel, rng: KRng, epsilon: float, me: int) -> int:
    """The seat to act plays against ``me``'s bid, with the random share ``epsilon``:
    against a bid of tricks, the rule strategy's card as if it still needed a trick
    itself (it wins the trick if it can); against a nil, it lets the nil's card win (the
    rule strategy's highest card that loses) and, before the nil has played to the
    trick, plays its lowest card."""
    seat = k.turn
    legal = k.legal()
    n = len(legal)
    if n == 1:
        return legal[0]
    if rng.random() < epsilon:
        return legal[rng.below(n)]
    kind = k.bid_kind[me]
    kept = k.bid_tricks[seat]
    if kind == K_NIL or kind == K_BLIND_NIL:
        played = False
        for i in range(k.tlen):
            if k.trick_seat[i] == me:
                played = True
        if not played:
            return k._lowest(legal, k.tlen > 0)
        k.bid_tricks[seat] = k.tricks_won[seat]  # nothing more to win: duck under the nil
    else:
        k.bid_tricks[seat] = k.tricks_won[seat] + 1
    action = k._rule_play(seat)
    k.bid_tricks[seat] = kept
    return action


def play_hand(
    k: CutthroatSpadesKernel, rng: KRng, me: int, epsilon: float, scores: list[int], fight: bool
) -> float:
    """Play ``k`` on (in place) to the end of the hand, as the module docs say (with
    ``fight``, the other seats play to win every trick while ``me`` still needs one);
    returns ``me``'s payoff in [0, 1]."""
    for _ in range(HAND_LIMIT):
        to_act = k.actor()
        if to_act == OVER:
            return k.final_values()[me]
        if to_act < 0:
            if k.scores() != scores:
                return k.hand_values()[me]
            k.chance_random(rng)
        elif k.phase == BID:
            k.apply(k.rule_action())
        elif fight and to_act != me and fights(k, me):
            k.apply(fight_action(k, rng, epsilon, me))
        else:
            k.apply(k.policy_action(rng, epsilon))
    if k.actor() == OVER:
        return k.final_values()[me]
    return k.cutoff_values()[me]


def bid_totals(
    sampler: Sampler,
    rng: KRng,
    ids: list[int],
    deals: int,
    me: int,
    epsilon: float,
    scores: list[int],
    sharpness: float,
    fight: float,
) -> list[float]:
    """Monte-Carlo values of the bid ids ``ids`` of seat ``me`` over ``deals``
    determinizations (see the module docs). Returns ``ROWS * len(ids) + 1`` floats, row
    by row (``out[row * len(ids) + i]`` for the id ``ids[i]``): :data:`R_PAYOFF` the
    weighted payoff total; :data:`R_POINTS` the weighted total of ``me``'s score change
    and :data:`R_MARGIN` of that change less the mean change of the others (both only
    over the deals whose hand did not end a game of a longer tournament, which resets
    the scores), :data:`R_COUNTED` the weight of those deals; :data:`R_MADE` the weight
    of the deals where the bid was made; :data:`R_ENDED` of those where the hand ended
    the game. Last, the total weight of the deals."""
    n = len(ids)
    out = [0.0] * (ROWS * n + 1)
    others = float(_others(sampler))
    for _ in range(deals):
        drawn = sampler.draw(rng)
        assert isinstance(drawn, CutthroatSpadesKernel)
        base: CutthroatSpadesKernel = drawn
        game = base.game_number
        weight = bid_fit(base, me, sharpness)
        stream = rng.below(1 << 30)
        fighting = rng.random() < fight
        out[ROWS * n] += weight
        for i in range(n):
            k = base.copy()
            k.apply(ids[i])  # after ``look`` the seat's seen bid is the rule strategy's
            value = play_hand(k, KRng(stream), me, epsilon, scores, fighting)
            out[R_PAYOFF * n + i] += weight * value
            if k.game_number == game:
                mine = k.score[me] - scores[me]
                rest = 0
                for s in range(k.players):
                    if s != me:
                        rest += k.score[s] - scores[s]
                out[R_POINTS * n + i] += weight * mine
                out[R_MARGIN * n + i] += weight * (mine - rest / others)
                out[R_COUNTED * n + i] += weight
            if made(k, me):
                out[R_MADE * n + i] += weight
            if k.phase == DONE or k.game_number != game:
                out[R_ENDED * n + i] += weight
    return out


def _others(sampler: Sampler) -> int:
    # the other seats' count (at least 1)
    others = sampler.base.players - 1
    return others if others > 0 else 1
