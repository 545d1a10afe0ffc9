"""The Cutthroat Spades kernel plays exactly like the reference rules (issue 25).

* ``check_kernel`` lock-step games over every layout and the options that change the rules
  (presets, bags, bag-outs, prize jacks, blind-six limits, mercy, max_hands, tournaments);
* stacked deals for the two-joker first trick, all-spade hands and nil-weak hands;
* hands ended from crafted last-trick states with random bids of every kind, scores, bag
  counts, prize jacks, tokens and ties, played on in lock-step: every scoring branch and
  every way a game and a tournament end is hit (the test counts them);
* ``chance_random``, ``play_random`` and the payoffs against the reference.

Runs against whichever build of the kernel is loaded (compiled or pure Python).
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import pytest

from cardkit.bots.heuristics import cutthroat_spades as heuristic
from cardkit.bots.ismcts import payoffs
from cardkit.cards import Card
from cardkit.core.rules import CHANCE, Pick, Shuffle
from cardkit.games.cutthroat_spades.events import GameTied, GameWon, HandScored, TournamentWon
from cardkit.games.cutthroat_spades.kernel import CutthroatSpadesBridge
from cardkit.games.cutthroat_spades.layout import layout_of
from cardkit.games.cutthroat_spades.rules import RULES
from cardkit.games.cutthroat_spades.scoring import moon_threshold
from cardkit.games.cutthroat_spades.state import BidInfo, CutthroatState, replace
from cardkit.kernels._base import OVER, Kernel, KRng
from cardkit.kernels.bridge import KernelBridge, bridge_for
from cardkit.testing.kernels import check_kernel, kernel_of
from tests.conftest import LONG, long_or, long_scaled

# (players, options): every layout, every preset, each option that changes a rule
OPTION_SETS: tuple[tuple[int, dict[str, Any]], ...] = (
    (3, {}),
    (4, {}),
    (5, {}),
    (5, {"jokers": 2}),
    (5, {"jokers": 3}),
    (4, {"preset": "short"}),
    (3, {"preset": "short_minus_10"}),
    (5, {"preset": "long", "jokers": 2}),
    (4, {"preset": "long", "blind_six_per_game": None}),
    (4, {"bag_out": "carry", "bag_limit": 3}),
    (3, {"bags": "each_minus_10", "prize_jacks": ["JH", "JD", "JC"]}),
    (4, {"prize_jacks": []}),
    (5, {"jokers": 3, "prize_jacks": ["JH"], "bag_limit": 2, "bag_out": "carry"}),
    (4, {"mercy": 60, "target": 80, "wins_needed": 2, "max_hands": 4}),
    (3, {"target": 60, "wins_needed": 2, "blind_six_per_game": 3, "max_hands": 3}),
)


def _config(players: int, options: dict[str, Any]) -> Any:
    # short games: one game of at most two hands unless the set says otherwise
    return RULES.config(players, **{"wins_needed": 1, "max_hands": 2, **options})


def _id(value: Any) -> str:
    players, options = value
    return f"{players}p-" + ("-".join(f"{k}={v}" for k, v in options.items()) or "default")


# ------------------------------------------------------------------ check_kernel games


@long_scaled
@pytest.mark.parametrize("setup", OPTION_SETS, ids=_id)
def test_lock_step_random_games(setup: tuple[int, dict[str, Any]]) -> None:
    players, options = setup
    config = _config(players, options)
    games = long_or(12, 6_700)  # 15 sets: 180 games by default, 100,500 under CARDKIT_LONG=1
    light = {"rule_every": 3, "roundtrip_every": 5, "zones_every": 17} if LONG else {}
    for seed in range(games):
        check_kernel(RULES, config, seed, rule_share=(seed % 5) / 4, **light)


def _order(players: int, dealer: int, hands: Sequence[Sequence[Card]], shares: Sequence[int]) -> tuple[Card, ...]:
    """The shuffle order (top first) that deals ``hands`` by the dealing convention."""
    pending = [list(h) for h in hands]
    got = [0] * players
    order: list[Card] = []
    seat = dealer
    while len(order) < sum(shares):
        seat = (seat + 1) % players
        if got[seat] < shares[seat]:
            order.append(pending[seat].pop(0))
            got[seat] += 1
    return tuple(order)


def _stacked(config: Any, dealer: int, wanted: dict[int, str]) -> tuple[Card, ...]:
    """A deal giving seat ``s`` the cards ``wanted[s]`` (codes), the rest of the pack in order."""
    lay = layout_of(config)
    n = config.players
    shares = lay.shares(n, dealer)
    hands = [[Card(c) for c in wanted.get(s, "").split()] for s in range(n)]
    used = {c for h in hands for c in h}
    rest = [c for c in lay.cards if c not in used]
    for s in range(n):
        while len(hands[s]) < shares[s]:
            hands[s].append(rest.pop())
    return _order(n, dealer, hands, shares)


def _seed_with_dealer(players: int, dealer: int, start: int) -> int:
    """A check_kernel seed whose first pick (the first dealer) is ``dealer``."""
    seed = start
    while random.Random(seed).randrange(players) != dealer:
        seed += 1
    return seed


SPADES = " ".join(r + "S" for r in "23456789TJQKA")
STACKS: tuple[tuple[str, int, dict[str, Any], int, dict[int, str]], ...] = (
    # two jokers: the dealer holds 2C (the seat on its left leads anything but a spade)
    ("two jokers, dealer holds 2C", 5, {"jokers": 2}, 2, {2: "2C RJ BJ"}),
    # two jokers: 2C elsewhere leads trick 1, the dealer sits it out
    ("two jokers, 2C to lead", 5, {"jokers": 2}, 0, {3: "2C AS KS", 0: "AH"}),
    # every spade in one hand: a spade lead on trick 1 is allowed, the seat sweeps
    ("all spades", 4, {}, 1, {3: SPADES}),
    # all three jokers and the top spades
    ("three jokers", 5, {"jokers": 3}, 4, {1: "RJ BJ XJ AS KS QS"}),
    # a hand weak enough for RuleBot's nil, and the prize jacks together
    ("nil hand", 4, {"preset": "long"}, 3, {0: "2S 2H 3H 4H 2D 3D 4D 5D 3C 4C 5C 6C 7C", 1: "JD JC JH"}),
    # three players: 17 cards each, moon threshold 14
    ("three players", 3, {"prize_jacks": ["JD", "JC", "JH"]}, 0, {1: "AS KS QS JS TS 9S 8S AH KH AD KD AC KC"}),
)


@pytest.mark.parametrize("name, players, options, dealer, wanted", STACKS, ids=[s[0] for s in STACKS])
def test_lock_step_stacked_deals(name: str, players: int, options: dict[str, Any], dealer: int, wanted: dict[int, str]) -> None:
    config = _config(players, {**options, "max_hands": 1})
    seeds = long_or(6, 60)
    for k in range(seeds):
        seed = _seed_with_dealer(players, dealer, 1000 * k)
        order = _stacked(config, dealer, wanted)
        check_kernel(RULES, config, seed, stacked=[order], rule_share=0.9 if k % 2 else 0.3)


# ------------------------------------------------------------------ crafted hand ends

Seen = dict[str, int]


def _random_bid(rng: random.Random, tricks: int) -> BidInfo:
    kind = rng.choice(["normal", "normal", "nil", "blind_nil", "blind_six", "one_for_fifty", "two_for_forty", "moon"])
    need = {
        "normal": rng.randint(1, tricks), "nil": 0, "blind_nil": 0, "blind_six": 6,
        "one_for_fifty": 1, "two_for_forty": 2, "moon": moon_threshold(tricks),
    }[kind]  # fmt: skip
    return BidInfo(kind, need)  # type: ignore[arg-type]


def _last_trick_state(rng: random.Random, players: int, options: dict[str, Any]) -> CutthroatState:
    """A state at the start of the last trick of a hand: random bids of every kind, tricks
    won, prize jacks already captured or still in the hands, scores near the target or the
    mercy line, bag counts near the limit, tokens near the tournament win, ties."""
    config = RULES.config(players, **options)
    lay = layout_of(config)
    n = players
    cards = list(lay.cards)
    rng.shuffle(cards)
    last = [(cards[s],) for s in range(n)]
    jacks = [c for c in (Card("JD"), Card("JC"), Card("JH")) if c not in cards[:n]]
    won: list[tuple[Card, ...]] = [() for _ in range(n)]
    for jack in jacks:
        if rng.random() < 0.8:
            s = rng.randrange(n)
            won[s] = won[s] + (jack,)
    mode = rng.random()
    sweep = mode < 0.4  # one seat took every trick so far: moons are made
    tie = mode < 0.15  # and the others bid nil from equal scores: ties at the top
    tricks_won = [0] * n
    for _ in range(lay.tricks - 1):
        tricks_won[0 if sweep else rng.randrange(n) if rng.random() < 0.7 else 0] += 1
    if tie:
        won = [() for _ in range(n)]
    target = config.target
    mercy = config.mercy
    top = rng.choice([target - 10, target - 60, target + 30, 0])
    scores = [top if tie or rng.random() < 0.4 else rng.randint(-(mercy or 200) - 20, top) for _ in range(n)]
    bids = [BidInfo("nil", 0) if tie else _random_bid(rng, lay.tricks) for _ in range(n)]
    limit = config.bag_limit or 10
    bags = [0] * n if config.bags == "each_minus_10" or tie else [rng.randint(0, limit - 1) for _ in range(n)]
    tokens = [rng.randint(0, config.wins_needed - 1) for _ in range(n)]
    base = RULES.initial_state(config)
    dealer = rng.randrange(n)
    hands_in_game = rng.randint(0, (config.max_hands or 5) - 1)
    return replace(
        base, phase="play", dealer=dealer, turn=rng.randrange(n), deck=(), hands=tuple(last),
        looked=(True,) * n, bids=tuple(bids), trick=(),
        trick_count=lay.tricks - 1, tricks_won=tuple(tricks_won), won=tuple(won),
        scores=tuple(scores), bags=tuple(bags), tokens=tuple(tokens),
        blind_six_used=tuple(rng.randint(0, 1) for _ in range(n)), hands_in_game=hands_in_game,
        hands_played=hands_in_game + rng.randint(0, 9), overtime=rng.random() < 0.15,
        game_number=rng.randint(1, 4),
    )


def _note(seen: Seen, events: Sequence[Any]) -> None:
    """Count the rare rules the reference events show."""
    for e in events:
        if isinstance(e, HandScored):
            for x in e.seats:
                made = "made" if x.bid_points > 0 else "set"
                seen[f"{x.kind} {made}"] = seen.get(f"{x.kind} {made}", 0) + 1
                for key, hit in (
                    ("bag-out", x.bag_out_points < 0), ("bags taken", x.bags_taken > 0),
                    ("prize paid", x.prize_points > 0), ("bag removed", x.bags_removed > 0),
                    ("three jacks", len(x.jacks) == 3),
                ):
                    if hit:
                        seen[key] = seen.get(key, 0) + 1
        for kind in (GameTied, GameWon, TournamentWon):
            if isinstance(e, kind):
                seen[kind.__name__] = seen.get(kind.__name__, 0) + 1
        if isinstance(e, GameWon) and len(e.winners) > 1:
            seen["shared game"] = seen.get("shared game", 0) + 1


def lock_step_from(
    bridge: KernelBridge, state: CutthroatState, rng: random.Random, seen: Seen, max_steps: int, to_the_end: bool
) -> None:
    """Play on from ``state`` on the reference rules and on ``bridge.kernel(state)`` side by
    side for ``max_steps`` steps (``to_the_end``: until the tournament is over), comparing
    at every step: actor, legal ids, the kernel rebuilt from the state, scores, cards held,
    RuleBot's choice and the payoffs; and at the end the winners."""
    kernel = bridge.kernel(state)
    n = state.config.players
    for step in range(max_steps):
        to_act = RULES.to_act(state)
        where = f"step {step} of {state!r}"
        assert kernel.actor() == (OVER if to_act is None else to_act), where
        assert kernel.snapshot() == bridge.kernel(state).snapshot(), where
        assert kernel.scores() == list(RULES.scores(state)), where
        assert [kernel.held(s) for s in range(n)] == [len(h) for h in state.hands], where
        if to_act is None:
            result = RULES.result(state)
            assert result is not None
            assert kernel.winners() == list(result.winners), where
            assert kernel.final_values() == payoffs(RULES, state, n), where
            return
        assert kernel.winners() == [], where
        assert kernel.score_values() == payoffs(RULES, state, n), where
        if to_act == CHANCE:
            spec = RULES.pending_chance(state)
            if kernel.chance_is_pick():
                outcome: Any = Pick(rng.randrange(kernel.chance_size()))
            else:
                order = list(spec.cards)  # type: ignore[union-attr]
                rng.shuffle(order)
                outcome = Shuffle(tuple(order))
            bridge.apply_chance(kernel, outcome)
        else:
            legal = RULES.legal_actions(state)
            assert kernel.legal() == [bridge.action_id(a) for a in legal], where
            rule = heuristic.decide(state, to_act, legal)[0]
            assert kernel.rule_action() == bridge.action_id(rule), where
            outcome = rule if rng.random() < 0.5 else legal[rng.randrange(len(legal))]
            kernel.apply(bridge.action_id(outcome))
        events = RULES.decide(state, outcome)
        _note(seen, events)
        for e in events:
            state = RULES.evolve(state, e)
    assert not to_the_end, "no end"


HAND_END_OPTIONS: tuple[tuple[int, dict[str, Any]], ...] = (
    (4, {"target": 100, "wins_needed": 2, "max_hands": 3}),
    (3, {"preset": "long", "target": 150, "wins_needed": 2, "max_hands": 2, "mercy": 150}),
    (5, {"jokers": 2, "preset": "short_minus_10", "target": 80, "max_hands": 2}),
    (5, {"jokers": 3, "prize_jacks": ["JD", "JC", "JH"], "bag_limit": 3, "bag_out": "carry", "target": 90, "wins_needed": 3, "max_hands": 2}),
    (4, {"bags": "each_minus_10", "prize_jacks": ["JH", "JC"], "target": 70, "mercy": 100, "max_hands": 2}),
    (5, {"bag_limit": 2, "prize_jacks": ["JD", "JC", "JH"], "target": 60, "wins_needed": 1, "max_hands": 4}),
)
RARE = (
    "normal made", "normal set", "nil made", "nil set", "blind_nil made", "blind_nil set",
    "blind_six made", "blind_six set", "one_for_fifty made", "one_for_fifty set",
    "two_for_forty made", "two_for_forty set", "moon made", "moon set", "bag-out", "bags taken",
    "prize paid", "bag removed", "three jacks", "GameTied", "GameWon", "TournamentWon", "shared game",
)  # fmt: skip


@long_scaled
def test_crafted_hand_ends_hit_every_scoring_rule_in_lock_step() -> None:
    seen: Seen = {}
    rng = random.Random(25)
    rounds = long_or(25, 1_000)
    for _ in range(rounds):
        for players, options in HAND_END_OPTIONS:
            state = _last_trick_state(rng, players, options)
            lock_step_from(kernel_of(RULES, state.config), state, rng, seen, max_steps=30, to_the_end=False)
    missing = [k for k in RARE if not seen.get(k)]
    assert not missing, f"never reached: {missing} (seen {seen})"


def test_whole_tournaments_from_crafted_states() -> None:
    # small targets and tokens: games end by target, ties go on, tournaments are won
    rng = random.Random(7)
    seen: Seen = {}
    for k in range(long_or(4, 100)):
        players, options = HAND_END_OPTIONS[k % len(HAND_END_OPTIONS)]
        state = _last_trick_state(rng, players, {**options, "max_hands": 3})
        lock_step_from(kernel_of(RULES, state.config), state, rng, seen, max_steps=5_000, to_the_end=True)
    assert seen.get("TournamentWon")


# ------------------------------------------------------------------ the bridge, chance, payoffs


def test_every_option_set_has_a_bridge() -> None:
    for players, options in OPTION_SETS:
        config = _config(players, options)
        bridge = bridge_for(RULES, config)
        assert isinstance(bridge, CutthroatSpadesBridge)
        assert isinstance(bridge, KernelBridge)
        assert [bridge.action_id(a) for a in bridge.actions] == list(range(len(bridge.actions)))
    bridge = kernel_of(RULES, RULES.config(4))
    assert bridge.zone_code("hand", 2) == (1, 2)
    with pytest.raises(ValueError, match="public"):
        bridge.zone_code("won", 1)


@pytest.mark.parametrize("setup", OPTION_SETS[:5], ids=_id)
def test_chance_random_deals_legal_hands(setup: tuple[int, dict[str, Any]]) -> None:
    """A random deal of the kernel is one the reference can deal: replaying it as a
    stacked shuffle on the reference gives the same kernel."""
    players, options = setup
    config = _config(players, options)
    bridge = kernel_of(RULES, config)
    rng = KRng(11)
    state = RULES.initial_state(config)
    dealers = set()
    for _ in range(long_or(20, 400)):
        kernel = bridge.kernel(state)
        kernel.chance_random(rng)  # the pick
        dealer = kernel.snapshot()[1]
        assert 0 <= dealer < players
        dealers.add(dealer)
        picked = state
        for e in RULES.decide(state, Pick(dealer)):
            picked = RULES.evolve(picked, e)
        kernel.chance_random(rng)  # the deal
        hands = _kernel_hands(bridge, kernel, players)
        lay = layout_of(config)
        assert sorted(c for h in hands for c in h) == sorted(bridge.card_ints(lay.cards))
        assert [len(h) for h in hands] == list(lay.shares(players, dealer))
        by_int = {i: c for c, i in zip(lay.cards, bridge.card_ints(lay.cards))}
        order = _order(players, dealer, [[by_int[c] for c in h] for h in hands], lay.shares(players, dealer))
        dealt = picked
        for e in RULES.decide(picked, Shuffle(order)):
            dealt = RULES.evolve(dealt, e)
        assert bridge.kernel(dealt).snapshot() == kernel.snapshot()
    assert dealers == set(range(players))


def _kernel_hands(bridge: KernelBridge, kernel: Kernel, players: int) -> list[list[int]]:
    snap = kernel.snapshot()
    p = 11 + snap[10]
    hands = []
    for _ in range(players):
        hands.append(snap[p + 1 : p + 1 + snap[p]])
        p += 1 + snap[p]
    return hands


def test_play_random_plays_legal_actions() -> None:
    """Each step of ``play_random`` is ``apply`` of one of ``legal()``."""
    bridge = kernel_of(RULES, _config(5, {"jokers": 2}))
    kernel: Any = bridge.kernel(RULES.initial_state(bridge.config))  # type: ignore[attr-defined]
    rng = KRng(3)
    steps = 0
    while kernel.actor() != OVER:
        if kernel.actor() < 0:
            kernel.chance_random(rng)
            continue
        options = []
        for action in kernel.legal():
            child = kernel.copy()
            child.apply(action)
            options.append(child.snapshot())
        assert kernel.play_random(rng, 1) == 1
        assert kernel.snapshot() in options
        steps += 1
    assert steps > 50
    whole = bridge.kernel(RULES.initial_state(bridge.config))  # type: ignore[attr-defined]
    made = whole.play_random(KRng(4), 1 << 30)  # type: ignore[attr-defined]
    assert whole.actor() == OVER and made > 50


def test_copy_is_independent() -> None:
    bridge = kernel_of(RULES, _config(4, {}))
    kernel = bridge.kernel(RULES.initial_state(bridge.config))  # type: ignore[attr-defined]
    rng = KRng(5)
    kernel.chance_random(rng)
    kernel.chance_random(rng)
    before = kernel.snapshot()
    twin = kernel.copy()
    while twin.actor() != OVER:
        if twin.actor() < 0:
            twin.chance_random(rng)
        else:
            legal = twin.legal()
            twin.apply(legal[rng.below(len(legal))])
    assert kernel.snapshot() == before
    assert twin.snapshot() != before
