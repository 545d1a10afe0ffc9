"""The Wizard kernel plays exactly like the Wizard rules (lock-step proofs), and its
payoffs, chance and belief fit equal the reference ones.

Default run: a few hundred games over every player count and option; CARDKIT_LONG=1
runs the same proofs on >= 100,000 games (``-m slow``).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import attrs
import pytest

import cardkit
from cardkit import Card, Pick, Shuffle
from cardkit.bots.beliefs import FITS, hand_events, wizard_fit
from cardkit.bots.playout import WIZARD_SPREAD, wizard_hand_value
from cardkit.bots.rule import RuleBot
from cardkit.core.resample import resample
from cardkit.games.wizard.kernel import CARD_INT, INT_CARD, WizardBridge
from cardkit.games.wizard.rules import RULES
from cardkit.games.wizard.state import DECK
from cardkit.kernels._base import CHANCE, OVER, Kernel, KRng
from cardkit.kernels.bridge import KernelBridge, bridge_for
from cardkit.kernels.wizard import SPREAD, WizardKernel
from cardkit.testing.kernels import check_kernel
from tests.conftest import long_or, long_scaled

PLAYERS = (3, 4, 5, 6)


def _config(players: int, forbid: bool = False, rounds: int | None = None) -> Any:
    return RULES.config(players, forbid_even_bids=forbid, rounds=rounds)


def _bridge(config: Any) -> WizardBridge:
    bridge = RULES.kernel_bridge(config)
    assert isinstance(bridge, WizardBridge)
    return bridge


def _front(*codes: str) -> tuple[Card, ...]:
    """A shuffle order that starts with ``codes`` (top first), the rest of the deck after."""
    top = [Card.parse(c) for c in codes]
    rest = Counter(DECK) - Counter(top)
    order = top + [c for c in DECK if rest[c] and not rest.subtract({c: 1})]
    assert Counter(order) == Counter(DECK)
    return tuple(order)


# ---------------------------------------------------------------- the bridge


def test_every_config_has_a_bridge() -> None:
    for players in PLAYERS:
        for forbid in (False, True):
            for rounds in (1, 60 // players):
                bridge = bridge_for(RULES, _config(players, forbid, rounds))
                assert isinstance(bridge, KernelBridge)
                assert bridge.actions == RULES.action_space(_config(players, forbid, rounds))


def test_action_ids_round_trip() -> None:
    config = _config(4, rounds=7)
    bridge = _bridge(config)
    for i, action in enumerate(bridge.actions):
        assert bridge.action_id(action) == i
        assert bridge.action(i) == action
    # card ints follow the display order, so a play's id is the play base plus its card int
    plays = [a for a in bridge.actions if type(a).__name__ == "Play"]
    assert [CARD_INT[a.card] for a in plays] == list(range(54))
    assert bridge.card_ints(DECK) == [0] * 4 + [1] * 4 + list(range(2, 54))


def test_zone_codes() -> None:
    bridge = _bridge(_config(3))
    assert bridge.zone_code("stock", None) == (0, -1)
    assert bridge.zone_code("hand", 2) == (1, 2)
    with pytest.raises(ValueError):
        bridge.zone_code("trick", None)


# ---------------------------------------------------------------- lock-step proofs

_OPTION_SETS = [(p, f, r) for p in PLAYERS for f in (False, True) for r in (1, 2, 3, 5)]


@long_scaled
@pytest.mark.parametrize("players, forbid, rounds", _OPTION_SETS)
def test_lock_step_short_games(players: int, forbid: bool, rounds: int) -> None:
    """Short games under every option set (rule share 0, 1/2 and 1), many seeds."""
    config = _config(players, forbid, rounds)
    for seed in range(long_or(8, 3200)):
        check_kernel(
            RULES, config, seed, rule_share=(seed % 3) / 2,
            rule_every=1 if seed < 8 else 3, roundtrip_every=1 if seed < 8 else 5,
            zones_every=7 if seed < 8 else 29,
        )  # fmt: skip


@long_scaled
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("forbid", (False, True))
def test_lock_step_full_games(players: int, forbid: bool) -> None:
    """Whole games (every round; the last one deals the whole deck: no trump)."""
    config = _config(players, forbid)
    for seed in range(long_or(1, 500)):
        check_kernel(
            RULES, config, 100 + seed, rule_share=0.3 + 0.2 * (seed % 3),
            rule_every=1 if seed == 0 else 4, roundtrip_every=1 if seed == 0 else 11,
            zones_every=13 if seed == 0 else 37,
        )  # fmt: skip


def _turning(players: int, rnd: int, turned: str, *dealt: str) -> tuple[Card, ...]:
    """A round ``rnd`` shuffle that deals ``dealt`` first (top first) and turns ``turned``."""
    order = list(_front(*dealt, turned))
    card = order.pop(len(dealt))
    order.insert(rnd * players, card)
    return tuple(order)


_STACKS: dict[str, Any] = {
    "wizard turned: the dealer names trump": lambda n: [_turning(n, 1, "W")],
    "jester turned: no trump": lambda n: [_turning(n, 1, "N", "AS", "KH", "QD")],
    "all jesters: the first one wins": lambda n: [_turning(n, 1, "5H", "N", "N", "N", "N")],
    "jesters, then a suit fixes the suit": lambda n: [_turning(n, 1, "2H", "N", "N", "9C", "W")],
    "jester then wizard: no suit to follow": lambda n: [_turning(n, 1, "4D", "N", "W", "2S", "3H")],
    "wizards only: the first wins": lambda n: [_turning(n, 1, "N", "W", "W", "W", "W")],
    "trump over the led suit": lambda n: [_turning(n, 1, "QS", "2H", "AS", "3H", "KS")],
    "wizard turned twice": lambda n: [_turning(n, 1, "W"), _turning(n, 2, "W", "N", "N")],
    "jesters everywhere in round 2": lambda n: [
        _turning(n, 1, "2S"), _turning(n, 2, "AC", "N", "N", "N", "N", "W", "W", "W", "W")
    ],
    "wizard turned in round 3": lambda n: [_turning(n, 1, "2S"), _turning(n, 2, "3S"), _turning(n, 3, "W")],
}


@pytest.mark.parametrize("name", sorted(_STACKS))
@pytest.mark.parametrize("players", PLAYERS)
def test_lock_step_stacked(name: str, players: int) -> None:
    """Stacked decks that hit the rare rules (whatever seat deals)."""
    stacked = _STACKS[name](players)
    for forbid in (False, True):
        for seed in range(3):
            config = _config(players, forbid, 3)
            check_kernel(RULES, config, seed, stacked=stacked, rule_share=seed / 2)


def test_last_round_deals_the_whole_deck() -> None:
    """The last round of a full game has no turned card and no trump; the kernel agrees
    at every step of it (full games above) and here on the state before its first bid."""
    for players in PLAYERS:
        config = _config(players)
        rounds = config.rounds
        game = cardkit.new_game("wizard", players=players, seed=players, auto_chance=False)
        game = game.play(Pick(0))
        state = game.state
        # jump to the last deal: the same state the rules reach before the last shuffle
        state = attrs.evolve(state, round=rounds - 1, dealer=players - 1)
        bridge = _bridge(config)
        kernel = bridge.kernel(state)
        order = list(DECK)
        random.Random(players).shuffle(order)
        bridge.apply_chance(kernel, Shuffle(tuple(order)))
        for event in RULES.decide(state, Shuffle(tuple(order))):
            state = RULES.evolve(state, event)
        assert state.turned is None and state.trump is None and state.stock == ()
        assert kernel.snapshot() == bridge.kernel(state).snapshot()
        assert kernel.legal() == [bridge.action_id(a) for a in RULES.legal_actions(state)]


# ---------------------------------------------------------------- payoffs, chance, copies


def _reached_states(seeds: int, rounds: int = 3) -> list[Any]:
    """States reached by RuleBot-and-random games: after every action, before and after
    the chance that follows it."""
    out: list[Any] = []
    bot = RuleBot()
    for seed in range(seeds):
        players = PLAYERS[seed % 4]
        game = cardkit.new_game("wizard", players=players, seed=seed, rounds=rounds)
        rng = random.Random(seed)
        out.append(game.state)
        while not game.is_over:
            seat = game.to_act
            legal = game.legal_actions()
            action = bot.choose(game.seat_state(seat), rng) if rng.random() < 0.5 else rng.choice(legal)
            state = game.state  # the state right after the action (before any chance)
            for event in RULES.decide(state, action):
                state = RULES.evolve(state, event)
            out.append(state)
            game = game.play(action)
            out.append(game.state)
    return out


def test_hand_values_equal_the_reference() -> None:
    assert SPREAD == WIZARD_SPREAD
    checked = 0
    for state in _reached_states(24, rounds=4):
        if state.phase != "deal" or state.round == 0:
            continue
        players = state.config.players
        kernel = _bridge(state.config).kernel(state)
        assert kernel.hand_values() == wizard_hand_value(RULES, state, players)
        checked += 1
    assert checked >= 24 * 3


def test_hand_values_shape() -> None:
    kernel = WizardKernel(3, 5, False)
    kernel.rnd = 4
    kernel.scores_ = [40, 10, 10]
    values = kernel.hand_values()
    z = 30 / (WIZARD_SPREAD * math.sqrt(2))
    assert values[0] == pytest.approx(1 / (1 + math.exp(-z)))
    assert values[1] == values[2] == pytest.approx(1 / (1 + math.exp(z)))


def test_chance_random_gives_legal_outcomes() -> None:
    dealers: Counter[int] = Counter()
    first_cards: Counter[int] = Counter()
    for seed in range(300):
        players = PLAYERS[seed % 4]
        config = _config(players, rounds=3)
        bridge = _bridge(config)
        rng = KRng(seed)
        kernel = bridge.kernel(RULES.initial_state(config))
        state = RULES.initial_state(config)
        while kernel.actor() != OVER:
            if kernel.actor() == CHANCE:
                if kernel.chance_is_pick():
                    kernel.chance_random(rng)
                    outcome: Any = Pick(kernel.dealer)
                    assert 0 <= kernel.dealer < players
                    dealers[kernel.dealer] += 1
                else:
                    kernel.chance_random(rng)
                    order = list(kernel.deck)  # the order it dealt from
                    assert Counter(order) == Counter(bridge.card_ints(DECK))
                    outcome = Shuffle(tuple(_card(c) for c in order))
                    first_cards[order[0]] += 1
                for event in RULES.decide(state, outcome):
                    state = RULES.evolve(state, event)
                assert kernel.snapshot() == bridge.kernel(state).snapshot()
            else:
                legal = kernel.legal()
                action = legal[rng.below(len(legal))]
                kernel.apply(action)
                for event in RULES.decide(state, bridge.action(action)):
                    state = RULES.evolve(state, event)
        assert kernel.scores() == list(state.scores)
    assert sorted(dealers) == [0, 1, 2, 3, 4, 5]
    assert len(first_cards) == 54  # every card kind came up on top


def _card(code: int) -> Card:
    return INT_CARD[code]


def test_copy_and_load_are_independent_and_exact() -> None:
    for state in _reached_states(8)[::5]:
        bridge = _bridge(state.config)
        kernel = bridge.kernel(state)
        twin = kernel.copy()
        assert twin.snapshot() == kernel.snapshot()
        other = WizardKernel(state.config.players, state.config.rounds, state.config.forbid_even_bids)
        other.load(kernel.snapshot())
        assert other.snapshot() == kernel.snapshot()
        if kernel.actor() >= 0:
            twin.apply(twin.legal()[0])
            assert kernel.snapshot() == bridge.kernel(state).snapshot()


def test_random_playouts_end_with_the_reference_scores() -> None:
    """Whole games on the kernel alone, then replayed on the reference from the same
    outcomes: same scores and winners."""
    for seed in range(12):
        players = PLAYERS[seed % 4]
        config = _config(players, bool(seed % 2))
        bridge = _bridge(config)
        kernel = bridge.kernel(RULES.initial_state(config))
        rng = KRng(seed)
        game = cardkit.new_game("wizard", players=players, seed=seed, auto_chance=False, forbid_even_bids=bool(seed % 2))
        while kernel.actor() != OVER:
            if kernel.actor() == CHANCE:
                pick = kernel.chance_is_pick()
                kernel.chance_random(rng)
                game = game.play(Pick(kernel.dealer) if pick else Shuffle(tuple(_card(c) for c in kernel.deck)))
            else:
                action = kernel.policy_action(rng, 0.3)
                game = game.play(bridge.action(action))
                kernel.apply(action)
        assert game.is_over
        assert kernel.scores() == list(game.state.scores)
        result = RULES.result(game.state)
        assert result is not None and kernel.winners() == list(result.winners)


# ---------------------------------------------------------------- the belief fit


@long_scaled
def test_fit_equals_wizard_fit() -> None:
    """``kernel.fit`` equals ``cardkit.bots.beliefs.wizard_fit`` exactly on determinizations
    drawn at decisions of RuleBot-and-random games (most weights differ from 1)."""
    starts = FITS["wizard"].starts
    checked = 0
    weighed = 0
    bot = RuleBot()
    for seed in range(long_or(16, 400)):
        players = PLAYERS[seed % 4]
        game = cardkit.new_game(
            "wizard", players=players, seed=seed, rounds=1 + seed % 6, forbid_even_bids=bool(seed % 2)
        )
        bridge = _bridge(game.state.config)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act
            seat_state = game.seat_state(seat)
            if rng.random() < 0.3:
                events = hand_events(seat_state.events, starts)
                moves = bridge.fit_moves(events)
                for _ in range(2):
                    sample = seat_state.sample(rng)
                    kernel = bridge.kernel(sample)
                    for epsilon in (0.2, 0.05):
                        expected = wizard_fit(RULES, sample, events, seat, epsilon)
                        assert kernel.fit(moves, seat, epsilon) == expected
                        checked += 1
                        weighed += expected != 1.0
                    assert kernel.snapshot() == bridge.kernel(sample).snapshot()  # fit left it alone
            action = bot.choose(seat_state, rng) if rng.random() < 0.6 else rng.choice(game.legal_actions())
            game = game.play(action)
    assert checked > 200 and weighed > checked // 2


def test_legal_at_policy_action_and_play_random() -> None:
    """The allocation-free helpers agree with ``legal()`` and the base class's policy."""
    for state in _reached_states(8)[::3]:
        kernel = _bridge(state.config).kernel(state)
        if kernel.actor() < 0:
            continue
        legal = kernel.legal()
        assert kernel.legal_count() == len(legal)
        assert [kernel.legal_at(i) for i in range(len(legal))] == legal
        for seed in range(3):
            a, b = KRng(seed), KRng(seed)
            assert kernel.policy_action(a, 0.3) == Kernel.policy_action(kernel, b, 0.3)
            assert a.state == b.state
    for players in PLAYERS:
        config = _config(players, True)
        kernel = _bridge(config).kernel(RULES.initial_state(config))
        actions = kernel.play_random(KRng(players))
        assert kernel.actor() == OVER and kernel.winners() != []
        bids_and_plays = sum(players + r * players for r in range(1, config.rounds + 1))
        assert bids_and_plays <= actions <= bids_and_plays + config.rounds  # + trump choices


def test_rule_action_reads_only_what_the_seat_knows() -> None:
    """Redealing every card the seat to act cannot see leaves its rule action alone."""
    rng = random.Random(5)
    checked = 0
    for state in _reached_states(12, rounds=5)[::2]:
        seat = RULES.to_act(state)
        if seat is None or seat < 0:
            continue
        bridge = _bridge(state.config)
        expected = bridge.kernel(state).rule_action()
        for _ in range(2):
            sample = resample(RULES, state, seat, rng)
            assert bridge.kernel(sample).rule_action() == expected
            checked += 1
    assert checked > 50
