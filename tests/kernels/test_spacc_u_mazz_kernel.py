"""The Spacc 'u Mazz kernel against the reference reducer (cardkit.testing.kernels).

Lock-step games over many option sets and seeds, stacked starts that reach the rare rules
(jokers face down, buried starters, jokers on top of and at the bottom of the main stock,
hands of 2s and 10s with matching face-up cards, the max_turns guard), the action index
layout, the cut-off payoffs and the kernel's own chance answers.

Default run: a bounded slice (about 20 s on one core); CARDKIT_LONG=1 plays over 100,000
games (``-m slow``), checking RuleBot and the rebuilt snapshot on a sparser schedule.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import pytest

from cardkit import Card, Game, Pick, Shuffle
from cardkit.bots.playout import fewest_cards
from cardkit.core.rules import CHANCE, PickSpec
from cardkit.games.spacc_u_mazz.action_space import action_space
from cardkit.games.spacc_u_mazz.actions import (
    DECLINE,
    DRAW,
    DUMP,
    KEEP,
    PASS,
    TAKE,
    Blind,
    Play,
    RemoveDown,
    RemoveUp,
)
from cardkit.games.spacc_u_mazz.kernel import card_int, card_of
from cardkit.games.spacc_u_mazz.rules import JOKERS, PACK, RULES
from cardkit.kernels import spacc_u_mazz as K
from cardkit.kernels._base import OVER, KRng
from cardkit.kernels.bridge import KernelBridge, bridge_for
from cardkit.testing.kernels import check_kernel, kernel_of
from tests.conftest import LONG, long_or, long_scaled
from tests.games.spacc_u_mazz.spacc_helpers import table

OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"rank_order": "as_printed"},
    {"target_score": 60},
    {"max_turns": 25},
    {"max_turns": 80, "target_score": 70, "rank_order": "as_printed"},
    {
        "card_points": {"A": 9, "2": 0, "T": 12, "K": 5},
        "fixed_points": {"2": [10, 4], "3": [20, 0, 5], "4": [1, 2, 3, 4]},
    },
    {
        "card_points": {"3": 0, "Q": 14},
        "fixed_points": {"2": [5, 1], "3": [9, 3, 1], "4": [7, 5, 3, 1]},
        "target_score": 40,
        "max_turns": 150,
    },
    {"max_turns": 1, "target_score": 50},
)

# Long mode: 8 option sets × 3 player counts × 4,200 seeds = 100,800 games, plus the
# stacks (6 × 3 × 300 = 5,400 games).
SEEDS = long_or(3, 4_200)
# How often the costly comparisons run: every step in the default slice; sparser in the
# long run (every seed still compares the actor, the legal ids, held cards and scores).
RULE_EVERY, ROUNDTRIP_EVERY, ZONES_EVERY = (1, 1, 7) if not LONG else (4, 16, 61)


def _config(players: int, options: dict[str, Any]) -> Any:
    return RULES.config(players, **options)


# ------------------------------------------------------------------ the action index


def test_the_bridge_is_offered_for_every_option_set() -> None:
    for options in OPTION_SETS:
        for players in (2, 3, 4):
            bridge = bridge_for(RULES, _config(players, options))
            assert isinstance(bridge, KernelBridge)


def test_action_index_layout_matches_the_action_space() -> None:
    space = action_space(_config(2, {}))
    assert len(space) == K.ACTIONS
    for rank in range(2, 15):
        for off in range(1, 81 * 31):
            action = space[(rank - 2) * K.PER_RANK + off - 1]
            assert isinstance(action, Play)
            hand_code = sum(K.POW3[(card_int(c) - 2) // 13] for c in action.hand)
            up_code = sum(K.POW3[(card_int(c) - 2) // 13] for c in action.up)
            assert K.HAND_CODES[off // 31] == hand_code
            assert K.UP_CODES[off % 31] == up_code
            assert all(c.rank == rank for c in action.hand + action.up)
    assert [space[K.BLIND + i] for i in range(3)] == [Blind(1), Blind(2), Blind(3)]
    assert (space[K.DRAW], space[K.TAKE], space[K.PASS], space[K.DUMP], space[K.KEEP]) == (
        DRAW, TAKE, PASS, DUMP, KEEP,
    )  # fmt: skip
    for card in PACK:
        assert space[K.REMOVE_UP + card_int(card) - 2] == RemoveUp(card)
    assert [space[K.REMOVE_DOWN + i] for i in range(3)] == [RemoveDown(1), RemoveDown(2), RemoveDown(3)]
    assert space[K.DECLINE] == DECLINE


def test_card_ints_sort_like_cards_and_round_trip() -> None:
    every = JOKERS + PACK
    assert sorted(range(54), key=lambda i: card_of(i).sort_key) == list(range(54))
    for card in every:
        assert card_of(card_int(card)) == card
    for card in PACK:
        assert card_int(card) == K.card_int(card.rank, "SHDC".index(str(card.suit)))


# ------------------------------------------------------------------ lock-step games


@long_scaled
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTION_SETS, ids=[str(i) for i in range(len(OPTION_SETS))])
def test_lock_step_over_option_sets(options: dict[str, Any], players: int) -> None:
    config = _config(players, options)
    offset = 1000 * players + 97 * OPTION_SETS.index(options)
    for seed in range(offset, offset + SEEDS):
        # alternate sensible (mostly RuleBot) and odd (mostly random) games
        share = (0.0, 0.5, 0.9)[seed % 3]
        check_kernel(
            RULES, config, seed, rule_share=share,
            rule_every=RULE_EVERY, roundtrip_every=ROUNDTRIP_EVERY, zones_every=ZONES_EVERY,
        )  # fmt: skip


def _stacks(players: int, seed: int, hand_top: list[Card], down_top: list[Card],
            down_bottom: Sequence[Card] = ()) -> list[tuple[Card, ...]]:
    """Orders for the first two shuffles of a hand: pack A with ``hand_top`` dealt first
    (hands, then face-up cards), the rest in a seeded order; then the rest of pack A with
    the jokers, ``down_top`` on top (face-down cards, then starter candidates, then the
    top of the main stock) and ``down_bottom`` at the bottom."""
    rng = random.Random(seed)
    rest = [c for c in PACK if c not in hand_top]
    rng.shuffle(rest)
    first = list(hand_top) + rest
    leftover = first[8 * players :] + list(JOKERS)
    middle = list(leftover)
    for card in list(down_top) + list(down_bottom):
        middle.remove(card)
    rng.shuffle(middle)
    return [tuple(first), tuple(list(down_top) + middle + list(down_bottom))]


def _cards(text: str) -> list[Card]:
    return [Card(code) for code in text.split()]


def _ordinary(cards: list[Card], count: int, avoid: list[Card]) -> list[Card]:
    return [c for c in cards if c.rank not in (2, 10) and c not in avoid][:count]


def _scenario(name: str, players: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    pack = list(PACK)
    rng.shuffle(pack)
    n = players
    if name == "jokers_face_down":
        return _stacks(n, seed, [], [Card("RJ"), Card("BJ")])
    if name == "jokers_face_down_late":
        hand = _ordinary(pack, 8 * n, [])
        rest = [c for c in PACK if c not in hand]
        downs = _ordinary(rest, 3 * n - 2, [])
        return _stacks(n, seed, hand, downs + [Card("BJ"), Card("RJ")])
    if name == "buried_starters":
        hand = _ordinary(pack, 8 * n, [])
        rest = [c for c in PACK if c not in hand]
        downs = _ordinary(rest, 3 * n, [])
        tens = [c for c in rest if c.rank == 10]
        two = [c for c in rest if c.rank == 2][:1]
        return _stacks(n, seed, hand, downs + [Card("RJ"), tens[0], Card("BJ"), tens[1]] + two)
    if name == "jokers_on_top_of_main":
        hand = _ordinary(pack, 8 * n, [])
        rest = [c for c in PACK if c not in hand]
        top = _ordinary(rest, 3 * n + 1, [])
        order = [Card("BJ"), Card("RJ")] if seed % 2 else [Card("RJ"), Card("BJ")]
        return _stacks(n, seed, hand, top + order)
    if name == "jokers_at_the_bottom":
        hand = _ordinary(pack, 8 * n, [])
        return _stacks(n, seed, hand, [], [Card("RJ"), Card("BJ")])
    if name == "twos_and_tens":
        specials = _cards("2S 2H 2D 2C TS TH TD TC")
        hand = specials + _ordinary(pack, 8 * n - len(specials), specials)
        return _stacks(n, seed, hand, [Card("RJ")])
    raise AssertionError(name)


SCENARIOS = (
    "jokers_face_down",
    "jokers_face_down_late",
    "buried_starters",
    "jokers_on_top_of_main",
    "jokers_at_the_bottom",
    "twos_and_tens",
)
STACK_SEEDS = long_or(2, 300)


@long_scaled
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_lock_step_from_stacked_starts(scenario: str, players: int) -> None:
    for seed in range(STACK_SEEDS):
        options = OPTION_SETS[seed % 4] if seed % 2 else {}
        config = _config(players, options)
        stacks = _scenario(scenario, players, seed)
        check_kernel(
            RULES, config, seed, stacked=stacks, rule_share=(0.2, 0.8)[seed % 2],
            rule_every=RULE_EVERY, roundtrip_every=ROUNDTRIP_EVERY, zones_every=ZONES_EVERY,
        )  # fmt: skip


def test_stacked_starts_reach_the_rare_rules() -> None:
    """The stacks above do what they are for: jokers act from face down and from both
    ends of the main stock, starters are buried and drawn."""
    seen: set[str] = set()
    for scenario in SCENARIOS:
        for players in (2, 3):
            for seed in range(1):
                stacks = _scenario(scenario, players, seed)
                game = Game.start(RULES, _config(players, {}), seed, auto_chance=False)
                rng = random.Random(seed)
                while game.to_act is not None:
                    if game.to_act == CHANCE:
                        spec = RULES.pending_chance(game.state)
                        if isinstance(spec, PickSpec):
                            game = game.play(Pick(0))
                        elif stacks:
                            game = game.play(Shuffle(tuple(stacks.pop(0))))
                        else:
                            order = list(spec.cards)
                            rng.shuffle(order)
                            game = game.play(Shuffle(tuple(order)))
                        continue
                    legal = game.legal_actions()
                    game = game.play(legal[rng.randrange(len(legal))])
                for entry in game.log.entries:
                    for event in entry.events:
                        name = type(event).__name__
                        card = getattr(event, "card", None)
                        seen.add(name + (card.code if card is not None and name.startswith("Joker") else ""))
    for wanted in ("JokerRevealedRJ", "JokerRevealedBJ", "JokerDrawnRJ", "JokerDrawnBJ",
                   "StarterBuried", "StarterDrawn", "ChoiceOffered", "PileBurned", "BlindFailed"):
        assert wanted in seen, wanted


# ------------------------------------------------------------------ payoffs and chance


def test_cutoff_values_and_held_match_the_reference() -> None:
    for players in (2, 3, 4):
        config = _config(players, {})
        bridge = kernel_of(RULES, config)
        for seed in range(2):
            rng = random.Random(seed)
            game = Game.start(RULES, config, seed)
            step = 0
            while game.to_act is not None:
                if step % 5 == 0:
                    kernel = bridge.kernel(game.state)
                    assert kernel.cutoff_values() == pytest.approx(fewest_cards(game.state))
                    for seat in range(players):
                        state = game.state
                        held = len(state.hands[seat]) + len(state.face_up[seat]) + len(state.face_down[seat])
                        assert kernel.held(seat) == held
                legal = game.legal_actions()
                game = game.play(legal[rng.randrange(len(legal))])
                step += 1


def test_chance_random_answers_what_the_reference_asks() -> None:
    """At every chance node of many games the kernel's own answer is a legal reference
    outcome (a seat index, or an order of exactly the pending cards) and the kernel it
    leads to is the one the reference reaches with that outcome."""
    for players in (2, 3, 4):
        config = _config(players, {"target_score": 60, "max_turns": 40})
        bridge = kernel_of(RULES, config)
        for seed in range(3):
            rng = random.Random(seed)
            game = Game.start(RULES, config, seed, auto_chance=False)
            krng = KRng(seed)
            while game.to_act is not None:
                if game.to_act != CHANCE:
                    legal = game.legal_actions()
                    game = game.play(legal[rng.randrange(len(legal))])
                    continue
                kernel = bridge.kernel(game.state)
                spec = RULES.pending_chance(game.state)
                probe = KRng(krng.next())
                twin = KRng(0)
                twin.state = probe.state  # replays the draws the kernel makes
                if isinstance(spec, PickSpec):
                    assert kernel.chance_is_pick() and kernel.chance_size() == spec.n
                    kernel.chance_random(probe)
                    index = twin.below(spec.n)
                    assert 0 <= index < spec.n
                    outcome: Any = Pick(index)
                else:
                    assert not kernel.chance_is_pick() and kernel.chance_size() == len(spec.cards)
                    cards = kernel.chance_cards()  # type: ignore[attr-defined]
                    assert cards == bridge.card_ints(spec.cards)
                    kernel.chance_random(probe)
                    twin.shuffle(cards)
                    assert sorted(cards) == sorted(bridge.card_ints(spec.cards))
                    outcome = Shuffle(tuple(card_of(c) for c in cards))
                game = game.play(outcome)
                assert kernel.snapshot() == bridge.kernel(game.state).snapshot()


def test_kernel_playouts_end_and_copies_are_independent() -> None:
    """Whole games on the kernel alone (its chance, its playout policy) end with a winner,
    and a copy taken midway plays on without touching the original."""
    for players in (2, 3, 4):
        for options in OPTION_SETS:
            bridge = kernel_of(RULES, _config(players, options))
            kernel = bridge.kernel(RULES.initial_state(_config(players, options)))
            rng = KRng(players * 31 + len(options))
            steps = 0
            saved = None
            while kernel.actor() != OVER:
                if kernel.actor() == -1:
                    kernel.chance_random(rng)
                else:
                    kernel.apply(kernel.policy_action(rng, 0.3))
                steps += 1
                if steps == 200:
                    saved = kernel.copy()
                    before = saved.snapshot()
            assert kernel.winners() and all(0 <= s < players for s in kernel.winners())
            assert len(kernel.cutoff_values()) == players
            if saved is not None:
                assert saved.snapshot() == before
                while saved.actor() != OVER:
                    if saved.actor() == -1:
                        saved.chance_random(rng)
                    else:
                        legal = saved.legal()
                        saved.apply(legal[rng.below(len(legal))])
                assert saved.winners()


# ------------------------------------------------------------------ crafted positions


def _walk(state: Any, depth: int, seen: set[str]) -> int:
    """Every line of play from ``state`` for ``depth`` seat actions: at each node the kernel
    rebuilt from the state agrees on the actor, the legal ids, RuleBot's choice and the
    cards held, and each action stepped on the kernel gives the kernel of the reference's
    next state. Returns the nodes visited; ``seen`` collects the event names met."""
    from cardkit.bots.heuristics.spacc_u_mazz import decide

    bridge = kernel_of(RULES, state.config)
    kernel = bridge.kernel(state)
    to_act = RULES.to_act(state)
    assert kernel.actor() == (OVER if to_act is None else to_act)
    if to_act is None or to_act == CHANCE or depth == 0:
        return 1
    legal = RULES.legal_actions(state)
    assert kernel.legal() == [bridge.action_id(a) for a in legal]
    assert kernel.rule_action() == bridge.action_id(decide(state, to_act, legal)[0])
    nodes = 1
    for action in legal:
        after = state
        for event in RULES.decide(state, action):
            seen.add(type(event).__name__ + str(getattr(event, "penalty", "")))
            after = RULES.evolve(after, event)
        stepped = kernel.copy()
        stepped.apply(bridge.action_id(action))
        assert stepped.snapshot() == bridge.kernel(after).snapshot(), action
        assert stepped.scores() == list(RULES.scores(after))
        nodes += _walk(after, depth - 1, seen)
    return nodes


def test_crafted_positions_for_jokers_penalties_and_the_end_of_the_stocks() -> None:
    """Hand-built positions for what random games rarely reach: a black joker turned face
    up on an empty pile (a penalty draw of the red joker, or nothing left to draw), a
    red joker's removal with face-up and face-down cards, plays from face-up cards alone,
    the last seat going out of a 3- and a 4-player hand, and the guard's placing."""
    seen: set[str] = set()
    positions = [
        # a black joker face down, empty pile: the penalty draw finds the red joker
        table(2, hands=["", "5S 6S"], ups=["7S", ""], downs=["BJ 9H", "3C"], main="RJ 4D",
              reserve="8C"),
        # ... and with both stocks empty the penalty is waived
        table(3, hands=["", "5S", "6D"], downs=["BJ", "3C", "4C"], ups=["", "", "KS"]),
        # a red joker face down with face-up and face-down cards left: remove or decline
        table(2, hands=["", "5S"], ups=["7S 7H QD", ""], downs=["RJ 9H 2C", "3C"], pile="9S",
              main="4D 5D"),
        # the main stock gone: face-up cards alone, with equal hand cards, 2s and 10s
        table(2, hands=["7C 7D 2S", "5S"], ups=["7S 7H TD", "2H"], downs=["9H", "3C"],
              pile="6S", reserve="8C 8D", rank_order="as_printed"),
        # the red joker drawn: dump (reference from the lowest ordinary rank) or keep
        table(4, hands=["TC 2D QS KS", "5S", "6D", "8H"], ups=["", "", "", ""],
              downs=["9H", "", "", "4C"], main="RJ 3D", pile="AS AD", places=(1,),
              rank_order="as_printed", target_score=30),
        # a face-down card below the reference fails: it and the pile go to the hand
        table(2, hands=["", "5S"], ups=["9C", ""], downs=["4H JD", "3C"], pile="9S 9D", main="6C"),
        # the last turn of the guard: holders placed by points, cards, then seat order
        table(3, hands=["4S 4H", "KS", "3S"], ups=["", "AS", ""], downs=["", "", "BJ"],
              main="5D", turns=6, max_turns=7, card_points={"K": 11, "A": 0}),
    ]
    nodes = sum(_walk(state, 3, seen) for state in positions)
    assert nodes > 100
    for wanted in ("JokerRevealed", "JokerDrawnTrue", "PenaltyWaived", "CardRemoved",
                   "RemovalDeclined", "HandDumped", "HandKept", "PlayerWentOut", "HandEnded",
                   "GameEnded", "PileBurned", "BlindFailed"):
        assert wanted in seen, wanted


def test_set_zone_writes_every_concealed_zone_as_with_zones_does() -> None:
    """Zones the resampler never writes in play (the undealt packs, the buried starters)
    are written like ``with_zones`` writes them too; public zones refuse."""
    from cardkit.core.rules import Zone

    config = _config(3, {})
    bridge = kernel_of(RULES, config)
    rng = random.Random(5)
    game = Game.start(RULES, config, 11, auto_chance=False)
    game = game.play(Pick(1))
    pack_a, rest_a = _scenario("buried_starters", 3, 2)
    game = game.play(Shuffle(pack_a))  # pack A dealt: the deck and pack B wait
    states = [game.state]
    states.append(game.play(Shuffle(rest_a)).state)  # the main stock has buried starters
    assert states[-1].main_known == 4
    written: set[str] = set()
    for state in states:
        for zone in RULES.zones(state):
            if zone.name not in ("deck", "pack_b", "main_stock", "main_stock_buried") or not zone.cards:
                continue
            cards = list(zone.cards)
            rng.shuffle(cards)
            others = tuple(z for z in RULES.zones(state) if z is not zone)
            after = RULES.with_zones(state, others + (Zone(zone.name, zone.owner, tuple(cards), zone.visible_to),))
            kernel = bridge.kernel(state)
            code, owner = bridge.zone_code(zone.name, zone.owner)
            kernel.set_zone(code, owner, bridge.card_ints(cards))
            assert kernel.snapshot() == bridge.kernel(after).snapshot(), zone.name
            written.add(zone.name)
    assert written == {"deck", "pack_b", "main_stock", "main_stock_buried"}
    kernel = bridge.kernel(states[-1])
    for name in ("pile", "face_up", "removed", "known", "jokers"):
        code, _ = bridge.zone_code(name, 0)
        with pytest.raises(ValueError):
            kernel.set_zone(code, 0, [])
