"""Cutthroat Spades' Monte-Carlo bidder (:class:`MCBidBot`): legal, deterministic for an
rng, blind to what the seat cannot see (its own hand too, before it looks), sound
weights, sensible bids at the extremes, its budget honoured. Runs on whichever build of
the kernels is loaded (``CARDKIT_KERNELS=pure`` runs it on the pure one)."""

from __future__ import annotations

import random
import time

import attrs
import pytest

import cardkit
from cardkit.bots import Limit, RuleBot, make_bot
from cardkit.bots.search_cutthroat_spades import MCBidBot
from cardkit.cards import Card
from cardkit.core.seat import SeatState
from cardkit.errors import ConfigError
from cardkit.games.cutthroat_spades.actions import Bid, Look, SpecialBid
from cardkit.testing.reach import secrets_reachable

from bots_helpers import twin_seat_state

SHORT = {"max_hands": 3, "wins_needed": 1}


def _small() -> MCBidBot:
    return MCBidBot(Limit(iterations=20), bid_iterations=120)


def _bid_positions(seed: int, looked: bool) -> list[cardkit.Game]:
    """The bidding turns of a game of RuleBots (before or after the seat looked)."""
    game = cardkit.new_game("cutthroat-spades", players=3, seed=seed, **SHORT)
    rule = RuleBot()
    found = []
    while not game.is_over and len(found) < 3:
        seat = game.to_act
        assert seat is not None
        ss = game.seat_state(seat)
        if game.state.phase == "bid" and any(isinstance(a, Look) for a in ss.legal_actions) != looked:
            found.append(game)
        game = game.play(rule.choose(ss, random.Random(0)), seat)
    return found


@pytest.mark.parametrize("looked", [False, True])
def test_bids_are_legal_deterministic_and_explained(looked: bool) -> None:
    for game in _bid_positions(3, looked):
        ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
        bot = _small()
        first = bot.choose(ss, random.Random(5))
        assert first in ss.legal_actions
        assert bot.choose(ss, random.Random(5)) == first
        rows = bot.explain(ss, random.Random(5))
        assert rows[0].action == first and len(rows) == min(3, len(ss.legal_actions))
        assert all(0.0 <= r.value <= 1.0 and r.reason for r in rows)
        values = bot.bid_values(ss, random.Random(5))
        assert [v[0] for v in values] == list(ss.legal_actions)
        assert all(0.0 <= share <= 1.0 for _, _, _, share, _, _ in values)


def test_no_peek_before_and_after_looking() -> None:
    """Two true states the seat cannot tell apart (its own hand included, before it
    looks): the same values and the same bid; nothing secret reachable from the bot."""
    checked = 0
    for looked in (False, True):
        for game in _bid_positions(8, looked)[:2]:
            seat = game.to_act
            assert seat is not None
            mine = game.seat_state(seat)
            twin = twin_seat_state(game, seat, random.Random(checked))
            assert twin.masked == mine.masked
            bot = _small()
            assert bot.bid_values(mine, random.Random(2)) == bot.bid_values(twin, random.Random(2))
            bot.choose(mine, random.Random(2))
            assert secrets_reachable([bot], game) == []
            checked += 1
    assert checked == 4


def _with_hand(game: cardkit.Game, seat: int, hand: list[Card]) -> SeatState:
    """The seat state of ``game``'s seat ``seat`` holding ``hand`` (the other hands take the rest)."""
    rules, state = game.rules, game.state
    zones = list(rules.zones(state))
    hands = [i for i, z in enumerate(zones) if z.name == "hand"]
    rest = [c for i in hands for c in zones[i].cards if c not in hand]
    for i in hands:
        z = zones[i]
        if z.owner == seat:
            zones[i] = attrs.evolve(z, cards=tuple(hand))
        else:
            zones[i] = attrs.evolve(z, cards=tuple(rest[: len(z.cards)]))
            rest = rest[len(z.cards) :]
    new = rules.with_zones(state, tuple(zones))
    return SeatState.of(rules, game.config, new, seat, game.events_for(seat))


def test_a_hopeless_hand_bids_nil_and_a_strong_one_bids_high() -> None:
    game = _bid_positions(4, True)[0]
    seat = game.to_act
    assert seat is not None
    low = [Card(r + s) for s in "HDC" for r in "234567" if r + s != "2C"]
    weak = _with_hand(game, seat, low)
    bot = MCBidBot(Limit(iterations=20), bid_iterations=800)
    assert bot.choose(weak, random.Random(1)) == SpecialBid("nil")
    high = [Card(r + "S") for r in "AKQJT98765432"] + [Card("AH"), Card("AD"), Card("AC"), Card("KH")]
    strong = _with_hand(game, seat, high)
    bid = bot.choose(strong, random.Random(1))
    assert bid == SpecialBid("moon") or (isinstance(bid, Bid) and bid.tricks >= 12)


def test_the_clock_is_honoured_and_settings_checked() -> None:
    game = _bid_positions(5, True)[0]
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    bot = MCBidBot(Limit(iterations=1000, time_ms=30), bid_iterations=10**7)
    start = time.perf_counter()
    assert bot.choose(ss, random.Random(0)) in ss.legal_actions
    assert time.perf_counter() - start < 10.0  # 10**7 playouts would take hours
    for bad in ({"bid_iterations": 0}, {"sharpness": 2.0}, {"metric": "luck"}, {"fight": -0.1}):
        with pytest.raises(ConfigError):
            MCBidBot(Limit(iterations=5), **bad)  # type: ignore[arg-type]
    for spec in ("mcbid:x", "mcbid:10:10:luck", "mcbid:1:2:auto:5", "mcbid:1:2:auto:x", "mcbid:1:2:auto:0.5:1"):
        with pytest.raises(ConfigError):
            make_bot(spec)
    assert isinstance(make_bot("mcbid:30:90:margin"), MCBidBot)


def test_in_play_and_in_other_games_the_play_bot_decides() -> None:
    game = cardkit.new_game("cutthroat-spades", players=3, seed=2, **SHORT)
    rule = RuleBot()
    while game.state.phase != "play":
        game = game.play(rule.choose(game.seat_state(game.to_act), random.Random(0)), game.to_act)  # type: ignore[arg-type]
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    bot = _small()
    assert not bot.bidding(ss)
    assert bot.choose(ss, random.Random(3)) == bot.play.choose(ss, random.Random(3))
    wizard = cardkit.new_game("wizard", players=3, seed=2, rounds=2)
    ws = wizard.seat_state(wizard.to_act)  # type: ignore[arg-type]
    assert not bot.bidding(ws) and bot.choose(ws, random.Random(3)) in ws.legal_actions
