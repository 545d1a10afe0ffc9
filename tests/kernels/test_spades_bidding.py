"""Cutthroat Spades' Monte-Carlo bidding in the kernel (:mod:`cardkit.kernels.spades_bidding`):
sound weights, consistent totals, deterministic for a seed, and the others' fight makes
bids harder to make. Runs against whichever build of the kernels is loaded (compiled or
pure Python; tests/test_kernel_build.py runs it under the other one too)."""

from __future__ import annotations

import random

import cardkit
from cardkit.bots import RuleBot
from cardkit.bots.kernel_search import deal_sampler
from cardkit.games.cutthroat_spades.actions import Bid, SpecialBid
from cardkit.kernels import spades_bidding as sb
from cardkit.kernels._base import KRng
from cardkit.kernels.bridge import bridge_for

SHORT = {"max_hands": 3, "wins_needed": 1}


def _seen_bid_turn(seed: int) -> cardkit.Game:
    """The first turn of a game of RuleBots where a seat that has looked is to bid."""
    game = cardkit.new_game("cutthroat-spades", players=3, seed=seed, **SHORT)
    rule = RuleBot()
    while not any(isinstance(a, Bid) for a in game.legal_actions()):
        game = game.play(rule.choose(game.seat_state(game.to_act), random.Random(0)), game.to_act)  # type: ignore[arg-type]
    return game


def test_the_true_deal_of_rule_bidders_weighs_one() -> None:
    """RuleBots bid the rule bid on their true hands: the true state always fits, and a
    bid far from it weighs less."""
    checked = 0
    for seed in range(6):
        game = cardkit.new_game("cutthroat-spades", players=3, seed=seed, **SHORT)
        rule = RuleBot()
        bridge = bridge_for(game.rules, game.config)
        assert bridge is not None
        while game.state.phase != "play":
            seat = game.to_act
            assert seat is not None
            if game.state.phase == "bid":
                k = bridge.kernel(game.state)
                assert sb.bid_fit(k, seat, 0.3) == 1.0
                others = [s for s in range(3) if s != seat and k.bid_kind[s] == 0]
                if others:
                    k.bid_tricks[others[0]] += 2
                    assert abs(sb.bid_fit(k, seat, 0.3) - 0.09) < 1e-12
                checked += 1
            game = game.play(rule.choose(game.seat_state(seat), random.Random(0)), seat)
    assert checked >= 30


def _totals(game: cardkit.Game, actions: list[object], deals: int, fight: float) -> list[float]:
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    bridge = bridge_for(game.rules, game.config)
    assert bridge is not None
    ids = [bridge.action_id(a) for a in actions]
    scores = [int(s) for s in game.rules.scores(game.state)]
    return sb.bid_totals(deal_sampler(ss, bridge), KRng(11), ids, deals, ss.seat, 0.1, scores, 0.3, fight)


def test_totals_are_consistent_and_deterministic() -> None:
    game = _seen_bid_turn(4)
    actions = [Bid(1), Bid(4), SpecialBid("nil"), SpecialBid("moon")]
    out = _totals(game, actions, 40, 0.5)
    n = len(actions)
    assert len(out) == sb.ROWS * n + 1 and out == _totals(game, actions, 40, 0.5)
    total = out[sb.ROWS * n]
    assert 0.0 < total <= 40.0
    for i in range(n):
        assert 0.0 <= out[sb.R_PAYOFF * n + i] <= total + 1e-9
        assert 0.0 <= out[sb.R_MADE * n + i] <= total + 1e-9
        assert out[sb.R_COUNTED * n + i] <= total + 1e-9 and out[sb.R_ENDED * n + i] == 0.0  # the first hand of three
    # bid 1 is made far more often than shooting the moon
    assert out[sb.R_MADE * n + 0] > out[sb.R_MADE * n + 3]


def test_the_others_fight_makes_bids_harder_to_make() -> None:
    """The same deals and streams: with the others fighting, a high bid and a nil are made
    no more often than with the others playing the rule strategy, and less often overall."""
    game = _seen_bid_turn(9)
    actions = [Bid(6), Bid(9), SpecialBid("nil")]
    n = len(actions)
    calm = _totals(game, actions, 60, 0.0)
    fought = _totals(game, actions, 60, 1.0)
    made_calm = [calm[sb.R_MADE * n + i] for i in range(n)]
    made_fought = [fought[sb.R_MADE * n + i] for i in range(n)]
    assert all(f <= c + 1e-9 for f, c in zip(made_fought, made_calm)), (made_fought, made_calm)
    assert sum(made_fought) < sum(made_calm)
