"""Rules 2-8: deck, first dealer, rounds, shuffle and deal, trump, bidding, first lead."""

from __future__ import annotations

from collections import Counter

import pytest

import cardkit
from cardkit import CHANCE, Card, Pick, PickSpec, Shuffle, ShuffleSpec
from cardkit.games.wizard.actions import Bid, ChooseTrump, Play
from cardkit.games.wizard.events import RoundDealt, RoundScored, TrumpChosen, TrumpTurned
from cardkit.games.wizard.rules import RULES
from cardkit.games.wizard.state import DECK
from cardkit.rng import Rng
from cardkit.testing import random_playout
from wizard_helpers import at_round, cards, deal, dealt_state, new, stacked_order, step

W, N = Card("W"), Card("N")


def test_rule2_deck_has_60_cards_with_4_wizards_and_4_jesters() -> None:
    counts = Counter(DECK)
    assert len(DECK) == 60
    assert counts[W] == 4 and counts[N] == 4
    assert sum(1 for c in DECK if c.suit is not None) == 52 == len(set(c for c in DECK if c.suit))
    assert W.suit is None and N.suit is None
    assert Card.parse("w") is W and Card.parse(" n ") is N
    game = cardkit.new_game("wizard", players=4, seed=3, auto_chance=False)
    all_cards = Counter(c for z in game.zones() for c in z.cards)
    assert all_cards == counts


def test_rule3_first_dealer_is_a_chance_pick_and_the_deal_passes_left() -> None:
    game = cardkit.new_game("wizard", players=5, seed=3, auto_chance=False)
    assert game.to_act == CHANCE
    assert game.pending_chance() == PickSpec(5)
    game = game.play(Pick(3))
    assert game.view(None)["dealer"] == 3
    dealers = []
    rng = Rng.stream(11, 0)
    for _ in range(4):
        assert game.to_act == CHANCE
        game = game.play(Shuffle(rng.shuffle(DECK)))
        dealers.append(game.view(None)["dealer"])
        # play out the round randomly
        while game.to_act not in (CHANCE, None):
            legal = game.legal_actions()
            game = game.play(legal[rng.below(len(legal))])
    assert dealers == [3, 4, 0, 1]


@pytest.mark.parametrize("players,rounds", [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_rule4_a_full_game_has_60_over_n_rounds(players: int, rounds: int) -> None:
    game = cardkit.new_game("wizard", players=players, seed=players)
    game = random_playout(game, Rng.stream(5, 0))
    assert game.is_over
    scored = [e for e in game.events if isinstance(e, RoundScored)]
    assert [e.round for e in scored] == list(range(1, rounds + 1))
    dealt = [e for e in game.events if isinstance(e, RoundDealt)]
    assert [len(e.hands[0]) for e in dealt] == list(range(1, rounds + 1))


def test_rounds_option_shortens_the_game() -> None:
    game = random_playout(cardkit.new_game("wizard", players=4, seed=9, rounds=3), Rng.stream(1, 0))
    assert game.is_over
    assert [e.round for e in game.events if isinstance(e, RoundScored)] == [1, 2, 3]


def test_rule5_each_round_shuffles_all_60_cards_and_deals_r_each_from_dealers_left() -> None:
    game = new(3, dealer=1)
    assert game.pending_chance() == ShuffleSpec(DECK)
    order = tuple(reversed(DECK))  # any permutation of the 60 cards
    game = game.play(Shuffle(order))
    # round 1: one card each, first to seat 2 (left of dealer 1), then 0, then 1
    assert game.view(2)["hand"] == [order[0].code]
    assert game.view(0)["hand"] == [order[1].code]
    assert game.view(1)["hand"] == [order[2].code]
    assert game.view(None)["turned_card"] == order[3].code
    # round 3, dealer 0: cards go one at a time 1, 2, 0, 1, 2, 0, ...
    state = step(at_round(3, 3, 0), Shuffle(DECK))
    # DECK order is W W W W N N N N 2S 3S ...
    assert state.hands[1] == cards("W W N")
    assert state.hands[2] == cards("W N N")
    assert state.hands[0] == cards("W N 2S")
    assert state.turned is Card("3S")
    assert len(state.stock) == 60 - 9 - 1


def test_rule6_suited_turned_card_sets_trump() -> None:
    game = deal(4, 0, ["2S", "3S", "4S", "5S"], turned="9D")
    view = game.view(1)
    assert view["turned_card"] == "9D" and view["trump"] == "D"
    assert view["phase"] == "bid" and game.to_act == 1


def test_rule6_turned_jester_means_no_trump() -> None:
    game = deal(4, 0, ["2S", "3S", "4S", "5S"], turned="N")
    view = game.view(None)
    assert view["turned_card"] == "N" and view["trump"] is None
    assert game.to_act == 1 and game.legal_actions() == (Bid(0), Bid(1))


def test_rule6_turned_wizard_makes_the_dealer_choose_after_seeing_their_hand() -> None:
    game = deal(4, 2, ["2S", "3S", "KH", "5S"], turned="W")
    view = game.view(2)
    assert view["turned_card"] == "W" and view["trump"] is None
    assert view["phase"] == "trump"
    assert game.to_act == 2  # the dealer
    assert view["hand"] == ["KH"]  # the dealer sees their hand
    assert game.legal_actions() == tuple(ChooseTrump(s) for s in "SHDC")  # type: ignore[arg-type]
    game = game.play_text("trump H", seat=2)
    assert game.view(0)["trump"] == "H"
    assert game.events[-1] == TrumpChosen(2, "H")
    assert game.to_act == 3  # bidding starts left of the dealer


def test_rule6_last_round_deals_every_card_and_has_no_trump() -> None:
    state = step(at_round(3, 20, 1), Shuffle(DECK))
    assert state.round == 20 and state.stock == () and state.turned is None
    assert state.trump is None
    assert all(len(h) == 20 for h in state.hands)
    assert RULES.to_act(state) == 2 and state.phase == "bid"
    view = RULES.view(state, 0)
    assert view["turned_card"] is None and view["trump"] is None
    assert RULES.decide(at_round(3, 20, 1), Shuffle(DECK))[-1] == TrumpTurned(None, None)


def test_rule6_last_round_of_a_full_game_turns_nothing() -> None:
    game = random_playout(cardkit.new_game("wizard", players=6, seed=4), Rng.stream(2, 0))
    turned = [e for e in game.events if isinstance(e, TrumpTurned)]
    assert len(turned) == 10
    assert turned[-1] == TrumpTurned(None, None)
    assert all(e.card is not None for e in turned[:-1])


def test_shortened_game_still_turns_a_card_in_its_last_round() -> None:
    # rules/wizard.md rule 6: a card is turned whenever cards remain
    state = step(at_round(6, 3, 0, rounds=3), Shuffle(DECK))
    assert state.turned is not None and len(state.stock) == 60 - 18 - 1


def test_rule7_bidding_from_dealers_left_ending_with_dealer_bids_public() -> None:
    game = deal(4, 1, ["2S", "3S", "4S", "5S"], turned="9D")
    seen = []
    for bid in (1, 0, 1, 1):
        seen.append(game.to_act)
        assert game.legal_actions() == (Bid(0), Bid(1))
        game = game.play(Bid(bid))
    assert seen == [2, 3, 0, 1]
    assert game.view(3)["bids"] == [1, 1, 1, 0]  # seat 0 bid 1, seat 1 (dealer) 1, seat 2 1, seat 3 0
    assert game.view(None)["phase"] == "play"
    # rule 8: left of the dealer leads
    assert game.to_act == 2


def test_rule7_bids_are_null_until_made_and_total_is_unrestricted_by_default() -> None:
    state = dealt_state(3, 3, 0, ["2S 3S 4S", "5S 6S 7S", "8S 9S TS"], turned="2H")
    assert RULES.view(state, 0)["bids"] == [None, None, None]
    for b in (1, 1):
        state = step(state, Bid(b))
    assert RULES.view(state, 2)["bids"] == [None, 1, 1]
    assert RULES.to_act(state) == 0  # dealer
    assert RULES.legal_actions(state) == tuple(Bid(i) for i in range(4))  # 1 would total 3: allowed
    state = step(state, Bid(1))
    assert state.bids == (1, 1, 1)


def test_rule7_forbid_even_bids_only_restricts_the_dealer() -> None:
    state = dealt_state(3, 3, 0, ["2S 3S 4S", "5S 6S 7S", "8S 9S TS"], turned="2H", forbid_even_bids=True)
    assert RULES.legal_actions(state) == tuple(Bid(i) for i in range(4))
    state = step(state, Bid(2))
    assert RULES.legal_actions(state) == tuple(Bid(i) for i in range(4))
    state = step(state, Bid(0))
    assert RULES.view(state, 1)["forbidden_bid"] == 1
    assert RULES.legal_actions(state) == (Bid(0), Bid(2), Bid(3))
    game_state = state
    with pytest.raises(cardkit.IllegalActionError, match="forbid_even_bids"):
        RULES.decide(game_state, Bid(1))


def test_rule7_forbid_even_bids_no_restriction_when_total_already_exceeds() -> None:
    state = dealt_state(3, 2, 0, ["2S 3S", "5S 6S", "8S 9S"], turned="2H", forbid_even_bids=True)
    state = step(step(state, Bid(2)), Bid(2))
    assert RULES.legal_actions(state) == (Bid(0), Bid(1), Bid(2))
    assert RULES.view(state, 0)["forbidden_bid"] is None


def test_rule8_winner_of_a_trick_leads_the_next() -> None:
    # 3 players, dealer 0, round 2, trump H (turned 2H). Seat 1 leads.
    state = dealt_state(3, 2, 0, ["AS KC", "3S 4C", "5S 6C"], turned="2H")
    for b in (0, 0, 0):
        state = step(state, Bid(b))
    assert RULES.to_act(state) == 1
    for a in ("3S", "5S", "AS"):
        state = step(state, Play(Card(a)))
    assert state.last_winner == 0 and RULES.to_act(state) == 0
    assert RULES.view(state, 2)["trick"] == []
    assert RULES.view(state, 2)["last_trick"] == [[1, "3S"], [2, "5S"], [0, "AS"]]
    assert RULES.view(state, 2)["tricks_won"] == [1, 0, 0]
