"""Rules 1-6 (components, chance sequence, the deal) and the options."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import cardkit
from cardkit import CHANCE, Card, ConfigError, Pick, PickSpec, Shuffle, ShuffleSpec
from cardkit.games.spacc_u_mazz.config import DEFAULT_CARD_POINTS, DEFAULT_FIXED_POINTS
from cardkit.games.spacc_u_mazz.events import HandStarted, StarterBuried, StarterTurned
from cardkit.games.spacc_u_mazz.rules import JOKERS, PACK, RULES
from spacc_helpers import NAME, cards, interleave, stacked

RJ, BJ = Card("RJ"), Card("BJ")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule1_players_and_first_dealer_is_a_pick(players: int) -> None:
    game = cardkit.new_game(NAME, players=players, seed=5, auto_chance=False)
    assert game.to_act == CHANCE
    assert game.pending_chance() == PickSpec(players)
    game = game.play(Pick(players - 1))
    assert game.state.dealer == players - 1
    assert game.view(None)["dealer"] == players - 1


@pytest.mark.parametrize("players", [0, 1, 5, "3", True])
def test_rule1_bad_player_count(players: object) -> None:
    with pytest.raises(ConfigError, match="2 to 4 players"):
        cardkit.new_game(NAME, players=players, seed=0)  # type: ignore[arg-type]


@pytest.mark.parametrize("players,dealer", [(2, 0), (3, 2), (4, 1)])
def test_rule1_player_left_of_dealer_starts(players: int, dealer: int) -> None:
    game = stacked(players, dealer=dealer)
    assert game.to_act == (dealer + 1) % players


def test_rule1_deal_passes_clockwise_each_hand() -> None:
    game = cardkit.new_game(NAME, players=3, seed=11, target_score=200, max_turns=5)
    rng = cardkit.Rng.stream(3, 0)
    while not game.is_over:
        legal = game.legal_actions()
        game = game.play(legal[rng.below(len(legal))])
    dealers = [e.dealer for e in game.events if isinstance(e, HandStarted)]
    assert len(dealers) >= 3
    for a, b in zip(dealers, dealers[1:]):
        assert b == (a + 1) % 3


def test_rule2_106_cards_two_packs_and_two_jokers() -> None:
    game = cardkit.new_game(NAME, players=4, seed=0, auto_chance=False)
    zones = {z.name: z for z in game.zones() if z.owner is None}
    total = Counter(c for z in game.zones() for c in z.cards)
    assert sum(total.values()) == 106
    assert total[RJ] == 1 and total[BJ] == 1
    assert all(total[c] == 2 for c in PACK)
    assert zones["deck"].cards == PACK and zones["pack_b"].cards == PACK
    assert zones["jokers"].cards == JOKERS


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule3_to_6_chance_sequence_and_deal(players: int) -> None:
    game = cardkit.new_game(NAME, players=players, seed=0, auto_chance=False).play(Pick(0))
    spec1 = game.pending_chance()
    assert spec1 == ShuffleSpec(PACK)  # rule 3: pack A without the jokers
    order1 = tuple(reversed(PACK))
    game = game.play(Shuffle(order1))
    st = game.state
    # 5 rounds of one card to the hands, starting left of the dealer, then 3 face up
    for seat in range(players):
        k = (seat - 1) % players
        assert Counter(st.hands[seat]) == Counter(order1[k + players * r] for r in range(5))
        assert Counter(st.face_up[seat]) == Counter(
            order1[5 * players + k + players * r] for r in range(3)
        )
    spec2 = game.pending_chance()
    assert isinstance(spec2, ShuffleSpec)
    assert len(spec2.cards) == 52 - 8 * players + 2  # rule 4: the rest of pack A + jokers
    assert Counter(spec2.cards) == Counter(order1[8 * players :]) + Counter(JOKERS)
    order2 = tuple(c for c in spec2.cards if c.suit is not None and c.rank != 10) + tuple(
        c for c in spec2.cards if c.suit is None or c.rank == 10
    )
    game = game.play(Shuffle(order2))
    st = game.state
    for seat in range(players):
        k = (seat - 1) % players
        assert st.face_down[seat] == tuple(order2[k + players * r] for r in range(3))
    starter = order2[3 * players]
    assert st.pile == (starter,)  # rule 5
    assert st.main_stock == order2[3 * players + 1 :]
    spec3 = game.pending_chance()
    assert spec3 == ShuffleSpec(PACK)  # rule 6: pack B
    order3 = tuple(sorted(PACK, key=lambda c: (c.rank, c.suit or "")))
    game = game.play(Shuffle(order3))
    assert game.state.reserve_stock == order3
    assert game.to_act == 1
    view = game.view(0)
    assert view["main_stock_size"] == 52 - 11 * players + 2 - 1
    assert view["reserve_stock_size"] == 52


def test_rule4_face_down_cards_hidden_from_everyone_including_owner() -> None:
    game = stacked(2, dealer=1, downs=["AS AH AD", "KS KH KD"])
    for zone in game.zones():
        if zone.name == "face_down":
            assert zone.visible_to == ()
    for viewer in (None, 0, 1):
        text = json.dumps(game.view(viewer))
        assert '"AH"' not in text and '"KH"' not in text
        events = cardkit.dumps(list(game.events_for(viewer)))
        assert '"AH"' not in events and '"KH"' not in events
    assert game.view(0)["face_down_counts"] == [3, 3]
    assert game.state.face_down[0] == cards("AS AH AD")


@pytest.mark.parametrize("bad", ["RJ", "BJ", "TS"])
def test_rule5_joker_or_ten_starter_is_buried(bad: str) -> None:
    game = stacked(2, dealer=0, top=f"{bad} 7C 8C")
    st = game.state
    assert st.pile == cards("7C")
    assert st.main_stock[0] == Card("8C")
    assert st.main_stock[-1] == Card(bad)  # buried at the bottom
    events = game.events
    assert [e.card for e in events if isinstance(e, StarterBuried)] == [Card(bad)]
    assert [e.card for e in events if isinstance(e, StarterTurned)] == [Card("7C")]
    assert game.view(1)["main_stock_buried"] == [bad]


def test_rule5_several_bad_starters_buried_in_order() -> None:
    game = stacked(3, dealer=2, top="TS RJ TH BJ 2C 9C")
    st = game.state
    assert st.pile == cards("2C")
    assert st.reference == 0  # a 2 as starter: no reference
    assert st.main_stock[-4:] == cards("TS RJ TH BJ")
    assert st.main_stock[0] == Card("9C")


def test_rule6_three_shuffles_per_hand_in_a_match() -> None:
    game = cardkit.new_game(NAME, players=2, seed=3, target_score=500, max_turns=3)
    entries = [e for e in game.log.entries if e.actor == CHANCE]
    kinds = [type(e.action).__name__ for e in entries]
    assert kinds == ["Pick", "Shuffle", "Shuffle", "Shuffle"]
    assert [len(e.action.order) for e in entries[1:]] == [52, 38, 52]
    rng = cardkit.Rng.stream(1, 0)
    while game.state.hand_number < 2 and not game.is_over:
        legal = game.legal_actions()
        game = game.play(legal[rng.below(len(legal))])
    kinds = [type(e.action).__name__ for e in game.log.entries if e.actor == CHANCE]
    assert kinds == ["Pick"] + ["Shuffle"] * 6


# ---------------------------------------------------------------------------- options


def test_default_options_round_trip_through_json() -> None:
    cfg = RULES.config(3)
    opts = json.loads(json.dumps(cfg.as_options()))
    assert RULES.config(3, **opts) == cfg
    assert opts["card_points"]["3"] == 11 and opts["card_points"]["T"] == 1
    assert opts["fixed_points"] == {"2": [25, 0], "3": [25, 10, 0], "4": [25, 15, 5, 0]}
    assert cfg.card_points == DEFAULT_CARD_POINTS and cfg.fixed_points == DEFAULT_FIXED_POINTS


def test_options_custom_values_round_trip() -> None:
    cfg = RULES.config(
        4,
        rank_order="as_printed",
        card_points={"10": 3, "a": 2, 5: 7},
        fixed_points={4: [30, 20, 10, 0]},
        target_score=100,
        max_turns=50,
    )
    assert cfg.card_points[8] == 3 and cfg.card_points[12] == 2 and cfg.card_points[3] == 7
    assert cfg.places_points == (30, 20, 10, 0)
    again = RULES.config(4, **json.loads(json.dumps(cfg.as_options())))
    assert again == cfg
    assert RULES.config(3, fixed_points=[20, 5, 0]).places_points == (20, 5, 0)


@pytest.mark.parametrize(
    "options,match",
    [
        ({"colour": 1}, "unknown option 'colour'"),
        ({"rank_order": "printed"}, "rank_order"),
        ({"card_points": [1, 2]}, "card_points"),
        ({"card_points": {"Z": 1}}, "not a rank"),
        ({"card_points": {"3": -1}}, "integer >= 0"),
        ({"card_points": {"3": 1.5}}, "integer >= 0"),
        ({"card_points": {"3": True}}, "integer >= 0"),
        ({"card_points": {"T": 1, "10": 2}}, "given twice"),
        ({"card_points": {1: 1}}, "not a rank"),
        ({"fixed_points": {"5": [1, 2, 3, 4, 5]}}, "player count"),
        ({"fixed_points": {"3": [25, 10]}}, "3-player table"),
        ({"fixed_points": {"3": [25, -1, 0]}}, ">= 0"),
        ({"fixed_points": "25"}, "fixed_points"),
        ({"fixed_points": [25, 0]}, "3-player table"),
        ({"target_score": 0}, "target_score"),
        ({"target_score": "100"}, "target_score"),
        ({"max_turns": 0}, "max_turns"),
        ({"target_score": 50, "fixed_points": {"3": [0, 0, 0]}}, "never end"),
    ],
)
def test_bad_options_are_config_errors(options: dict[str, object], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        cardkit.new_game(NAME, players=3, seed=0, **options)
