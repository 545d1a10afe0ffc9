"""The Crazy Eights kernel against the reference rules (cardkit.testing.kernels.check_kernel).

* every combination of the seven switch options (mode, draw, stock_empty and the four
  action cards) over 2-7 players from random starts, with other pack and hand sizes,
  small targets and small ``max_turns``, plus a hypothesis search;
* stacked starts aimed at the rare rules (buried 8s, a starter 8 with only 8s left,
  action cards, reshuffles with owed draws, blocked hands, the ``max_turns`` guard, the
  end of a points match), each asserting that the rule it aims at was really reached;
* the payoffs (``cutoff_values``, ``final_values``, ``score_values``) against
  ``cardkit.bots.playout.fewest_cards`` and ``cardkit.bots.ismcts.payoffs``;
* ``chance_random``'s outcomes are outcomes the reference accepts (rebuilt as a
  ``Shuffle``/``Pick`` and compared) and every one of them can come up.

Default run: a few hundred games; ``CARDKIT_LONG=1``: over 100,000 games in lock-step.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardkit
from cardkit.bots.ismcts import payoffs
from cardkit.bots.playout import fewest_cards
from cardkit.cards import SUITS, Card, standard_deck
from cardkit.core.game import Game
from cardkit.core.rules import CHANCE, Pick, Shuffle
from cardkit.games.crazy_eights.events import (
    CardsDrawn,
    DirectionReversed,
    GameEnded,
    HandDealt,
    HandEnded,
    NextHandDue,
    ReshuffleNeeded,
    TurnSkipped,
)
from cardkit.games.crazy_eights.kernel import CARD_INTS
from cardkit.games.crazy_eights.rules import CrazyEightsRules
from cardkit.kernels._base import OVER, KRng
from cardkit.kernels.bridge import KernelBridge, bridge_for
from cardkit.kernels.crazy_eights import CrazyEightsKernel
from cardkit.testing.kernels import check_kernel
from tests.conftest import LONG, long_or, long_scaled

RULES = cardkit.get_rules("crazy-eights")
SWITCHES: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("mode", ("single", "points")),
    ("draw", ("one", "until_playable")),
    ("stock_empty", ("pass", "reshuffle")),
    ("two_draws_two", (False, True)),
    ("queen_of_spades_draws_five", (False, True)),
    ("jack_skips", (False, True)),
    ("ace_reverses", (False, True)),
)
COMBOS: list[dict[str, Any]] = [
    dict(zip([name for name, _ in SWITCHES], values))
    for values in itertools.product(*(values for _, values in SWITCHES))
]
CARDS = {i: card for card, i in CARD_INTS.items()}


class Recording(CrazyEightsRules):
    """The reference rules, noting the events they decide (what a stacked start reached)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[Any] = []

    def decide_after_guard(self, state: Any, action: Any, seat: int) -> tuple[Any, ...]:
        events = super().decide_after_guard(state, action, seat)
        self.seen.extend(events)
        return events


def _config(players: int, **options: Any) -> Any:
    return RULES.config(players, **options)


# ---------------------------------------------------------------------- random starts


def test_every_config_has_a_kernel() -> None:
    for combo in COMBOS:
        for players in (2, 7):
            bridge = bridge_for(RULES, _config(players, **combo))
            assert isinstance(bridge, KernelBridge)
            assert bridge.actions == RULES.action_space(_config(players, **combo))


@long_scaled
@pytest.mark.parametrize("combo", range(len(COMBOS)))
def test_lockstep_every_option_combination(combo: int) -> None:
    """Each combination once per run by default (players cycling 2..7); under
    CARDKIT_LONG=1 every player count with 131 seeds each: 128 x 6 x 131 = 100,608 games,
    with the costlier comparisons thinned (every step still compares actor, legal ids,
    scores and cards held)."""
    options = dict(COMBOS[combo])
    if LONG:
        for players in range(2, 8):
            for seed in range(131):
                opts = dict(options)
                if options["mode"] == "points" and seed % 2:
                    opts["target"] = 1 + seed % 90  # short matches too
                check_kernel(
                    RULES, _config(players, **opts), seed, rule_every=2, roundtrip_every=5, zones_every=23
                )
        return
    players = 2 + combo % 6
    if options["mode"] == "points" and combo % 4 == 1:
        options["target"] = 30  # a quarter of the matches short: the default run's budget
    check_kernel(RULES, _config(players, **options), combo)


@pytest.mark.parametrize(
    "players, options",
    [
        (2, {"decks": 2}),
        (3, {"decks": 2, "hand_size": 10, "stock_empty": "reshuffle", "two_draws_two": True}),
        (5, {"hand_size": 10, "stock_empty": "reshuffle", "queen_of_spades_draws_five": True}),
        (5, {"hand_size": 10}),
        (6, {"decks": 1, "hand_size": 8, "draw": "until_playable", "stock_empty": "reshuffle"}),
        (7, {"decks": 2, "hand_size": 1, "jack_skips": True, "ace_reverses": True}),
        (4, {"mode": "points", "target": 25, "max_turns": 12}),
        (3, {"max_turns": 1}),
        (2, {"mode": "points", "target": 1, "draw": "until_playable"}),
        (7, {"mode": "points", "decks": 2, "stock_empty": "reshuffle", "two_draws_two": True, "max_turns": 60}),
    ],
)
def test_lockstep_pack_hand_target_and_turn_options(players: int, options: dict[str, Any]) -> None:
    for seed in range(long_or(3, 40)):
        check_kernel(RULES, _config(players, **options), 1000 + seed)


_OPTION_STRATEGY = st.fixed_dictionaries(
    {name: st.sampled_from(values) for name, values in SWITCHES},
    optional={
        "decks": st.sampled_from((1, 2)),
        "hand_size": st.integers(1, 10),
        "max_turns": st.integers(1, 80),
    },
)


@long_scaled
@settings(max_examples=long_or(25, 400))
@given(players=st.integers(2, 7), options=_OPTION_STRATEGY, target=st.integers(1, 120), seed=st.integers(0, 2**32 - 1))
def test_lockstep_hypothesis(players: int, options: dict[str, Any], target: int, seed: int) -> None:
    if options.get("hand_size", 0) * players + 1 > 52 * options.get("decks", 1 if players <= 5 else 2):
        options = {k: v for k, v in options.items() if k != "hand_size"}
    if options["mode"] == "points":
        options["target"] = target
    check_kernel(RULES, _config(players, **options), seed, rule_share=0.7)


# ---------------------------------------------------------------------- stacked starts


def _pack(decks: int = 1) -> list[Card]:
    return list(standard_deck(decks))


def _front(first: list[Card], decks: int = 1) -> tuple[Card, ...]:
    """``first`` on top of the pack, the rest in pack order."""
    rest = _pack(decks)
    for card in first:
        rest.remove(card)
    return tuple(first + rest)


def _cards(text: str) -> list[Card]:
    return list(cardkit.parse_cards(text))


def _run_stacked(players: int, options: dict[str, Any], order: tuple[Card, ...], seeds: int = 4, **kw: Any) -> list[Any]:
    """check_kernel with the first deal stacked, on several seeds; the events decided."""
    rules = Recording()
    config = rules.config(players, **options)
    for seed in range(seeds):
        check_kernel(rules, config, seed, stacked=[order], **kw)
    return rules.seen


def _events_of(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def _hand_dealt_buried(players: int, options: dict[str, Any], order: tuple[Card, ...]) -> HandDealt:
    game = Game.start(RULES, _config(players, **options), 0, auto_chance=False).play(Pick(0))
    dealt = game.play(Shuffle(order)).last_entry
    assert dealt is not None
    return next(e for e in dealt.events if isinstance(e, HandDealt))


def test_stacked_buried_eights() -> None:
    """Rule 3: two 8s on top of the stock after the deal go to its bottom."""
    hands = _cards("2S 3S 4S 5S 6S 7S 9S TS JS QS KS AS 2H 3H")  # 2 x 7, no 8
    order = _front(hands + _cards("8S 8H 4D"))
    assert _hand_dealt_buried(2, {}, order).buried == 2
    _run_stacked(2, {}, order)


def test_stacked_only_eights_left() -> None:
    """Rule 3: when only 8s are left the turned 8 stays the starter."""
    non_eights = [c for c in _pack() if c.rank != 8]
    order = tuple(non_eights + _cards("8S 8H 8D 8C"))  # 5 x 10 dealt: 48 others and 8S 8H
    dealt = _hand_dealt_buried(5, {"hand_size": 10}, order)
    assert dealt.starter.rank == 8 and dealt.buried == 0
    _run_stacked(5, {"hand_size": 10}, order)
    _run_stacked(5, {"hand_size": 10, "stock_empty": "reshuffle"}, order)


_ACTION = {"two_draws_two": True, "queen_of_spades_draws_five": True, "jack_skips": True, "ace_reverses": True}


def test_stacked_action_cards() -> None:
    """Rules 9-12: hands full of 2s, jacks, aces and the queen of spades."""
    hands = _cards("2S 2H 2D 2C JS JH JD JC AS AH AD AC QS 3S 3H 3D 3C 4S 4H 4D 4C")  # 3 x 7
    order = _front(hands + _cards("5S"))
    seen = _run_stacked(3, _ACTION, order, seeds=6, rule_share=0.8)
    assert _events_of(seen, TurnSkipped) and _events_of(seen, DirectionReversed)
    reasons = {e.reason for e in _events_of(seen, CardsDrawn)}
    assert {"pending", "penalty"} <= reasons


def test_stacked_reshuffles_with_owed_draws() -> None:
    """Rules 7 and 13: a one-card stock, so draws, pending 2s and the queen's five run it
    out and the discard pile is shuffled into a new stock, the draw completed after it."""
    options = {"hand_size": 10, "stock_empty": "reshuffle", **_ACTION}
    # 5 x 10 dealt: every 2, the queen of spades, every other non-8 and two 8s; the other
    # two 8s are the starter and the whole stock
    others = [c for c in _pack() if c.rank not in (2, 8) and c.code != "QS"]
    order = _front(_cards("2S 2H 2D 2C QS") + others + _cards("8S 8H 8D 8C"))
    seen = _run_stacked(5, options, order, seeds=6, rule_share=0.8)
    reasons = {e.reason for e in _events_of(seen, ReshuffleNeeded)}
    assert {"draw", "pending", "penalty"} <= reasons
    seen = _run_stacked(5, {**options, "draw": "until_playable", "mode": "points", "target": 40}, order, seeds=3)
    assert _events_of(seen, ReshuffleNeeded)


def test_stacked_blocked_hands_and_the_turn_guard() -> None:
    """Rule 8: large hands and no reshuffle block hands; ``max_turns`` scores a hand as
    blocked while the stock still gives cards or an owed draw waits."""
    rules = Recording()
    config = rules.config(4, hand_size=10)
    for seed in range(30):
        check_kernel(rules, config, seed, rule_share=0.9, zones_every=13)
    blocked = [e for e in _events_of(rules.seen, HandEnded) if e.blocked]
    assert blocked
    guard = Recording()
    for seed in range(6):
        check_kernel(guard, guard.config(3, max_turns=7, stock_empty="reshuffle", mode="points", target=30, **_ACTION), seed)
    assert len([e for e in _events_of(guard.seen, HandEnded) if e.blocked]) >= 6


def test_stacked_points_match_ends() -> None:
    """Rules 19-22: hands follow one another (dealer moving on) until the target."""
    rules = Recording()
    for seed in range(4):
        check_kernel(rules, rules.config(3, mode="points", target=40), seed, roundtrip_every=3)
    assert _events_of(rules.seen, NextHandDue)
    ends = _events_of(rules.seen, GameEnded)
    assert len(ends) == 4 and all(len(e.winners) == 1 and max(e.scores) >= 40 for e in ends)


# ---------------------------------------------------------------------- payoffs, chance


def _random_states(players: int, options: dict[str, Any], seed: int) -> list[Any]:
    """The states of one random game (chance from the game's seed)."""
    rng = random.Random(seed)
    game = cardkit.new_game("crazy-eights", players=players, seed=seed, **options)
    states = [game.state]
    while game.to_act is not None:
        legal = game.legal_actions()
        game = game.play(legal[rng.randrange(len(legal))])
        states.append(game.state)
    return states


@pytest.mark.parametrize(
    "players, options",
    [(2, {}), (4, {"mode": "points", "target": 30}), (5, {"hand_size": 9}), (3, {"mode": "points", **_ACTION})],
)
def test_payoffs_equal_the_reference(players: int, options: dict[str, Any]) -> None:
    bridge = RULES.kernel_bridge(_config(players, **options))
    for seed in range(3):
        for state in _random_states(players, options, seed):
            kernel = bridge.kernel(state)
            assert kernel.cutoff_values() == pytest.approx(fewest_cards(state), abs=1e-12)
            reference = payoffs(RULES, state, players)
            if kernel.actor() == OVER:
                assert kernel.final_values() == pytest.approx(reference, abs=1e-12)
            else:
                assert kernel.score_values() == pytest.approx(reference, abs=1e-12)
                assert kernel.hand_values() == pytest.approx(reference, abs=1e-12)


def _order_of(before: CrazyEightsKernel, after: CrazyEightsKernel) -> list[Card]:
    """A reference shuffle order that gives ``after`` from ``before`` (the kernel's own
    outcome rewritten as a ``Shuffle``): for a deal, the hands dealt round-robin from the
    dealer's left, the starter, the stock; for a rebuild, the cards the owed seat took
    (its drawn card last) and the stock."""
    n = after.players
    stock = [after.stock[i] for i in range(after.slen - 1, -1, -1)]  # top first

    def hand(seat: int, kernel: CrazyEightsKernel) -> Counter[int]:
        return Counter({c: kernel.count[seat * 52 + c] for c in range(52) if kernel.count[seat * 52 + c]})

    if before.owed_seat < 0:  # a deal
        hands = [sorted(hand(seat, after).elements()) for seat in range(n)]
        order = [hands[(before.dealer + 1 + j) % n][k] for k in range(after.hand_size) for j in range(n)]
        return [CARDS[c] for c in order + [after.disc[0]] + stock]
    taken = list((hand(before.owed_seat, after) - hand(before.owed_seat, before)).elements())
    if after.drawn >= 0 and before.owed_next < 0:
        taken.remove(after.drawn)
        taken.append(after.drawn)
    return [CARDS[c] for c in taken + stock]


@pytest.mark.parametrize(
    "players, options",
    [(2, {"mode": "points", "target": 60}), (5, {"hand_size": 10, "stock_empty": "reshuffle", **_ACTION}),
     (3, {"stock_empty": "reshuffle", "draw": "until_playable", "hand_size": 10}), (7, {"mode": "points", "target": 20})],
)
def test_chance_random_gives_outcomes_the_reference_accepts(players: int, options: dict[str, Any]) -> None:
    """At every chance node of random games, the kernel's own random outcome, written as a
    reference ``Pick``/``Shuffle`` (a permutation of the pending cards: ``Game.play``
    refuses anything else), gives the reference a state equal to the kernel's."""
    config = _config(players, **options)
    bridge = RULES.kernel_bridge(config)
    kinds: Counter[str] = Counter()
    for seed in range(4):
        rng = random.Random(seed)
        game = Game.start(RULES, config, seed, auto_chance=False)
        while game.to_act is not None:
            if game.to_act == CHANCE:
                before = bridge.kernel(game.state)
                after = before.copy()
                after.chance_random(KRng(rng.getrandbits(32)))
                if before.chance_is_pick():
                    assert 0 <= after.dealer < players
                    outcome: Any = Pick(after.dealer)
                    kinds["pick"] += 1
                else:
                    outcome = Shuffle(tuple(_order_of(before, after)))
                    kinds["rebuild" if before.owed_seat >= 0 else "deal"] += 1
                game = game.play(outcome)
                assert bridge.kernel(game.state).snapshot() == after.snapshot()
            else:
                legal = game.legal_actions()
                game = game.play(legal[rng.randrange(len(legal))])
    assert kinds["pick"] == 4 and kinds["deal"] >= 4
    if options.get("stock_empty") == "reshuffle":
        assert kinds["rebuild"] > 0


def test_chance_random_covers_every_outcome() -> None:
    """Every seat can be picked, every card can be the first dealt, and every non-8 the
    starter (8s are buried): the kernel's draws are not stuck on a few outcomes."""
    bridge = RULES.kernel_bridge(_config(3))
    dealers: Counter[int] = Counter()
    firsts: Counter[int] = Counter()
    starters: Counter[int] = Counter()
    rng = KRng(7)
    for _ in range(3000):
        kernel = bridge.blank()
        kernel.chance_random(rng)
        dealers[kernel.dealer] += 1
        kernel.dealer = 2  # seat 0 is dealt first
        kernel.chance_random(rng)
        starters[kernel.disc[0]] += 1
        firsts[min(c for c in range(52) if kernel.count[c])] += 1
    assert sorted(dealers) == [0, 1, 2] and min(dealers.values()) > 800
    assert set(starters) == {c for c in range(52) if c % 13 != 6}
    assert min(starters.values()) > 20  # about 62 each
    assert len(firsts) > 10


def test_rule_action_names_the_longest_suit_and_action_ids() -> None:
    """The id encoding of the bridge matches the kernel's, suits S, H, D, C."""
    bridge = RULES.kernel_bridge(_config(2))
    for i, action in enumerate(bridge.actions):
        assert bridge.action_id(action) == i
    eight_plays = [a for a in bridge.actions if getattr(a, "suit", None) is not None]
    assert [(CARD_INTS[a.card], SUITS.index(a.suit)) for a in eight_plays] == [
        (c, s) for c in (6, 19, 32, 45) for s in range(4)
    ]
