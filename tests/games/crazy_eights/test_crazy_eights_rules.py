"""One test (or more) per numbered rule of shared/rules/crazy-eights.md, and its worked examples."""

from __future__ import annotations

import pytest
from c8_helpers import cards, stacked_game

import cardkit
from cardkit import CHANCE, Card, IllegalActionError, Pick, Shuffle, standard_deck
from cardkit.games.crazy_eights import Draw, Pass, Play
from cardkit.games.crazy_eights.events import CardsDrawn, HandEnded, ReshuffleNeeded
from cardkit.games.crazy_eights.scoring import card_value, hand_total, points_for_blocked, points_for_out

PLAY = Play
DRAW = Draw()
PASS = Pass()


def c(code: str) -> Card:
    return Card.parse(code)


def legal_strs(game: cardkit.Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


# ---------------------------------------------------------------- setup (rules 1-4)


@pytest.mark.parametrize("players,decks,hand", [(2, 1, 7), (3, 1, 5), (5, 1, 5), (6, 2, 5), (7, 2, 5)])
def test_rules_1_2_packs_and_hand_sizes(players: int, decks: int, hand: int) -> None:
    game = cardkit.new_game("crazy-eights", players=players, seed=3)
    assert game.config.decks == decks
    assert [len(h) for h in game.state.hands] == [hand] * players
    total = len(game.state.stock) + len(game.state.discard) + hand * players
    assert total == 52 * decks


def test_rule_2_deal_one_at_a_time_from_the_dealers_left() -> None:
    order = standard_deck()
    game = cardkit.new_game("crazy-eights", players=3, seed=0, auto_chance=False).play(Pick(1)).play(Shuffle(order))
    # dealer 1: seat 2 gets cards 0, 3, 6, ...; seat 0 gets 1, 4, ...; seat 1 gets 2, 5, ...
    assert game.state.hands[2] == order[0:15:3]
    assert game.state.hands[0] == order[1:15:3]
    assert game.state.hands[1] == order[2:15:3]
    assert game.state.discard == (order[15],)
    assert game.state.stock == order[16:]


def test_rule_3_starter_eight_is_buried_at_the_bottom() -> None:
    game = stacked_game(2, ["2S", "3S"], starter="8H", stock="8D 5C 9C")
    assert game.state.discard == (c("5C"),)
    assert game.state.stock[-2:] == cards("8H 8D")
    assert game.state.stock[0] == c("9C")
    dealt = game.events[1]
    assert dealt.buried == 2
    # the engine does not reveal which 8s were buried: seats and spectators see no stock
    for viewer in (None, 0, 1):
        assert game.events_for(viewer)[1].stock is None


def test_rule_3_only_eights_left_the_turned_eight_stays() -> None:
    from cardkit.games.crazy_eights.rules import RULES

    state = RULES.evolve(RULES.initial_state(RULES.config(2, hand_size=1)), cardkit.games.crazy_eights.events.DealerChosen(1))
    only_eights = RULES._deal(state, cards("2S 3S 8S 8H"))
    assert only_eights.starter == c("8S") and only_eights.buried == 0 and only_eights.stock == cards("8H")
    mixed = RULES._deal(state, cards("2S 3S 8S 8H 5C 6C"))
    assert mixed.starter == c("5C") and mixed.buried == 2 and mixed.stock == cards("6C 8S 8H")


def test_rule_3_starter_action_card_has_no_effect() -> None:
    opts = dict(two_draws_two=True, jack_skips=True, queen_of_spades_draws_five=True, ace_reverses=True)
    for starter in ("2D", "JD", "QS", "AD"):
        game = stacked_game(3, ["3C 4C", "5C 6C", "7C 9C"], starter=starter, **opts)
        assert game.to_act == 0
        assert game.state.pending_draw == 0 and game.state.direction == 1
        assert [len(h) for h in game.state.hands] == [2, 2, 2]


def test_rule_4_first_dealer_is_a_pick_and_left_of_dealer_starts() -> None:
    game = cardkit.new_game("crazy-eights", players=4, seed=0, auto_chance=False)
    assert game.pending_chance() == cardkit.PickSpec(4)
    game = game.play(Pick(2)).play(Shuffle(standard_deck()))
    assert game.state.dealer == 2 and game.to_act == 3 and game.state.direction == 1


# ---------------------------------------------------------------- matching and turns (5-8)


def test_rule_5_playable_cards() -> None:
    game = stacked_game(2, ["9H 5C 8D QS", "2C 3C 4C 6C"], starter="9S")
    assert legal_strs(game) == ["play QS", "play 9H", "play 8D S", "play 8D H", "play 8D D", "play 8D C", "draw"]
    with pytest.raises(IllegalActionError):
        game.play(PLAY(c("5C")))
    game = game.play(PLAY(c("8D"), "C"))
    assert game.state.active_suit == "C" and game.view(1)["active_suit"] == "C"
    assert set(legal_strs(game)) >= {"play 2C", "play 3C", "play 4C", "play 6C"}


def test_rule_6_draw_is_allowed_with_a_playable_card_then_only_the_drawn_card() -> None:
    game = stacked_game(2, ["9S 5C", "2C 3C"], starter="9H", stock="TH KD")
    assert "play 9S" in legal_strs(game) and "draw" in legal_strs(game)
    game = game.play(DRAW)
    assert game.state.drawn == c("TH") and game.to_act == 0
    assert legal_strs(game) == ["play TH", "pass"]
    with pytest.raises(IllegalActionError, match="drawn card"):
        game.play(PLAY(c("9S")))
    with pytest.raises(IllegalActionError):
        game.play(DRAW)  # draw one: no second draw
    assert game.play(PASS).to_act == 1


def test_rule_6_unplayable_drawn_card_leaves_only_pass() -> None:
    game = stacked_game(2, ["9S 5C", "2C 3C"], starter="9H", stock="KD")
    game = game.play(DRAW)
    assert legal_strs(game) == ["pass"]


def test_rule_6_draw_until_playable() -> None:
    game = stacked_game(2, ["4S 5C", "2C 3C"], starter="9H", stock="KD QC TH", draw="until_playable")
    game = game.play(DRAW)
    assert legal_strs(game) == ["draw"]
    with pytest.raises(IllegalActionError):
        game.play(PASS)
    game = game.play(DRAW)
    assert legal_strs(game) == ["draw"]
    game = game.play(DRAW)
    assert game.state.drawn == c("TH") and legal_strs(game) == ["play TH", "pass"]
    assert len(game.state.hands[0]) == 5


def apply(state, action):  # type: ignore[no-untyped-def]
    from cardkit.games.crazy_eights.rules import RULES

    for event in RULES.decide(state, action):
        state = RULES.evolve(state, event)
    return state


def test_rule_6_until_playable_with_no_supply_passes() -> None:
    from cardkit.games.crazy_eights.rules import RULES
    import attrs

    game = stacked_game(2, ["4S 5C", "2C 3C"], starter="9H", draw="until_playable")
    state = apply(attrs.evolve(game.state, stock=cards("KD")), DRAW)
    assert state.drawn == c("KD") and RULES.legal_actions(state) == (PASS,)
    with pytest.raises(IllegalActionError):
        RULES.decide(state, DRAW)
    assert apply(state, PASS).to_act == 1


def test_rule_6_pass_without_drawing_only_with_empty_stock_and_nothing_playable() -> None:
    game = stacked_game(2, ["4S 5C", "2C 3C"], starter="9H")
    with pytest.raises(IllegalActionError, match="pass only"):
        game.play(PASS)


def test_rule_7_empty_stock_pass_by_default() -> None:
    from cardkit.games.crazy_eights.rules import RULES
    import attrs

    game = stacked_game(2, ["4S 5C", "2C 3C"], starter="9H")
    state = attrs.evolve(game.state, stock=(), discard=cards("2D 4D 6D 9H"))
    assert RULES.legal_actions(state) == (PASS,)
    with pytest.raises(IllegalActionError, match="stock is empty"):
        RULES.decide(state, DRAW)
    holding = attrs.evolve(state, hands=(cards("4H 5C"), cards("2C 3C")))
    assert PASS not in RULES.legal_actions(holding)
    with pytest.raises(IllegalActionError, match="playable"):
        RULES.decide(holding, PASS)
    with_reshuffle = attrs.evolve(state, config=RULES.config(2, hand_size=2, stock_empty="reshuffle"))
    assert RULES.legal_actions(with_reshuffle) == (DRAW,)


def test_rule_7_reshuffle_rebuilds_the_stock_from_the_discard() -> None:
    game = stacked_game(2, ["9S 5C", "9C 3D"], starter="9H", stock="", stock_empty="reshuffle")
    # play everything into the discard: build a discard of several cards, then empty the stock
    from cardkit.games.crazy_eights.rules import RULES

    state = game.state
    import attrs

    state = attrs.evolve(state, stock=(), discard=cards("2D 4D 6D 9H"))
    events = RULES.decide(state, DRAW)
    assert isinstance(events[0], CardsDrawn) and events[0].count == 0
    assert isinstance(events[1], ReshuffleNeeded) and events[1].owed == 1
    for e in events:
        state = RULES.evolve(state, e)
    assert state.to_act == CHANCE
    assert RULES.pending_chance(state).cards == cards("2D 4D 6D")
    events = RULES.decide(state, Shuffle(cards("6D 2D 4D")))
    for e in events:
        state = RULES.evolve(state, e)
    assert state.discard == cards("9H") and state.stock == cards("2D 4D")
    assert state.hands[0][-1] == c("6D") and state.drawn == c("6D") and state.to_act == 0


def test_rule_7_reshuffle_through_game_is_a_chance_entry() -> None:
    from cardkit.games.crazy_eights.events import StockRebuilt
    from cardkit.rng import Rng
    from cardkit.testing import random_playout

    for seed in range(30):
        g = random_playout(cardkit.new_game("crazy-eights", players=2, seed=seed, stock_empty="reshuffle"), Rng(seed))
        rebuilds = [i for i, e in enumerate(g.log.entries) if any(isinstance(ev, StockRebuilt) for ev in e.events)]
        if rebuilds:
            entry = g.log.entries[rebuilds[0]]
            assert entry.actor == CHANCE and isinstance(entry.action, Shuffle)
            interrupted = g.log.entries[rebuilds[0] - 1]
            assert interrupted.actor != CHANCE
            assert any(isinstance(ev, ReshuffleNeeded) for ev in interrupted.events)
            return
    pytest.fail("no random game of 30 needed a reshuffle")


def test_rule_8_blocked_hand_after_everyone_passes() -> None:
    game = stacked_game(2, ["4S", "5S"], starter="9H", stock="", hand_size=1)
    from cardkit.games.crazy_eights.rules import RULES
    import attrs

    state = attrs.evolve(game.state, stock=())
    state = RULES.evolve(state, RULES.decide(state, PASS)[0])
    assert state.to_act == 1
    events = RULES.decide(state, PASS)
    ended = [e for e in events if isinstance(e, HandEnded)]
    assert ended and ended[0].blocked and ended[0].winner == 0  # 4 < 5
    assert ended[0].hands == (cards("4S"), cards("5S"))


def test_rule_8_pass_after_drawing_the_last_card_does_not_count() -> None:
    # Rule 8 as corrected: the turn that drew the last card is not a counted pass, so the
    # drawer must pass once more, unable to play, before the hand is blocked.
    from cardkit.games.crazy_eights.rules import RULES
    import attrs

    game = stacked_game(2, ["4S", "5S"], starter="9H", hand_size=1)
    state = attrs.evolve(game.state, stock=cards("KC"))
    state = RULES.evolve(state, RULES.decide(state, DRAW)[0])
    assert state.drawn == c("KC")
    state = RULES.evolve(state, RULES.decide(state, PASS)[0])  # pass right after the last card
    events = RULES.decide(state, PASS)
    assert not any(isinstance(e, HandEnded) for e in events)
    state = RULES.evolve(state, events[0])
    events = RULES.decide(state, PASS)
    assert any(isinstance(e, HandEnded) and e.blocked for e in events)


def test_rule_8_hands_are_revealed_at_the_end() -> None:
    game = stacked_game(2, ["4S 9S", "5S 6D"], starter="9H")
    game = game.play(PLAY(c("9S")))
    assert game.view(0)["revealed_hands"] is None
    game = game.play(DRAW)
    while not game.is_over:
        game = game.play(game.legal_actions()[0])
    assert game.view(None)["revealed_hands"] is not None
    zones = game.zones()
    assert all(z.visible_to == (0, 1) for z in zones if z.name == "hand")


def test_rule_8_max_turns_guard_scores_a_blocked_hand() -> None:
    game = stacked_game(2, ["4S 5S", "6D 7D"], starter="9H", max_turns=3)
    game = game.play(DRAW).play(PASS)
    assert not game.is_over
    game = game.play(DRAW)
    assert game.is_over
    ended = [e for e in game.events if isinstance(e, HandEnded)][0]
    assert ended.blocked


# ---------------------------------------------------------------- action cards (9-14)


def test_rule_9_two_draws_two_stacks_and_draws_the_total() -> None:
    game = stacked_game(3, ["2H 5C", "2S 6C", "7D 9D"], starter="9H", stock="KC QC JC TC 3C", two_draws_two=True)
    game = game.play(PLAY(c("2H")))
    assert game.state.pending_draw == 2 and legal_strs(game) == ["play 2S", "draw"]
    game = game.play(PLAY(c("2S")))
    assert game.state.pending_draw == 4
    assert legal_strs(game) == ["draw"]  # seat 2 has no 2; an 8 would not answer either
    game = game.play(DRAW)
    assert len(game.state.hands[2]) == 6 and game.state.pending_draw == 0 and game.to_act == 0
    assert game.state.hands[2][-4:] == cards("KC QC JC TC")


def test_rule_9_an_eight_does_not_answer_a_pending_draw() -> None:
    game = stacked_game(2, ["2H 5C", "8S 6C"], starter="9H", two_draws_two=True)
    game = game.play(PLAY(c("2H")))
    assert legal_strs(game) == ["draw"]
    with pytest.raises(IllegalActionError, match="pending"):
        game.play(PLAY(c("8S"), "H"))
    with pytest.raises(IllegalActionError, match="pending"):
        game.play(PASS)


def test_rule_10_queen_of_spades_draws_five_and_loses_the_turn() -> None:
    game = stacked_game(3, ["QS 5C", "2D 6C", "7D 9D"], starter="9S", stock="KC QC JC TC 3C 4H",
                        queen_of_spades_draws_five=True)
    game = game.play(PLAY(c("QS")))
    assert game.state.hands[1] == cards("2D 6C KC QC JC TC 3C")
    assert game.to_act == 2


def test_rule_11_jack_skips() -> None:
    game = stacked_game(3, ["JH 5C", "2D 6C", "7D 9D"], starter="9H", jack_skips=True)
    assert game.play(PLAY(c("JH"))).to_act == 2
    two = stacked_game(2, ["JH 5C 5D", "2D 6C 6D"], starter="9H", jack_skips=True)
    assert two.play(PLAY(c("JH"))).to_act == 0  # with two players the jack's player plays again


def test_rule_12_ace_reverses() -> None:
    game = stacked_game(3, ["AH 5C", "2D 6C", "7D 9D"], starter="9H", ace_reverses=True)
    game = game.play(PLAY(c("AH")))
    assert game.state.direction == -1 and game.to_act == 2 and game.view(0)["direction"] == -1
    two = stacked_game(2, ["AH 5C", "2D 6C"], starter="9H", ace_reverses=True)
    two = two.play(PLAY(c("AH")))
    assert two.state.direction == 1 and two.to_act == 1


def test_rule_13_penalty_larger_than_the_stock_draws_what_there_is() -> None:
    from cardkit.games.crazy_eights.rules import RULES
    import attrs

    game = stacked_game(2, ["QS 5C", "2D 6C"], starter="9S", queen_of_spades_draws_five=True)
    state = attrs.evolve(game.state, stock=cards("KC QC"))
    events = RULES.decide(state, PLAY(c("QS")))
    for e in events:
        state = RULES.evolve(state, e)
    assert state.hands[1] == cards("2D 6C KC QC") and state.stock == () and state.to_act == 0


def test_rule_13_with_reshuffle_the_penalty_continues_after_the_rebuild() -> None:
    from cardkit.games.crazy_eights.rules import RULES
    import attrs

    game = stacked_game(2, ["QS 5C", "2D 6C"], starter="9S", queen_of_spades_draws_five=True,
                        stock_empty="reshuffle")
    state = attrs.evolve(game.state, stock=cards("KC QC"), discard=cards("3H 4H 5H 9S"))
    for e in RULES.decide(state, PLAY(c("QS"))):
        state = RULES.evolve(state, e)
    assert state.to_act == CHANCE and state.owed is not None and state.owed.count == 3
    assert RULES.pending_chance(state).cards == cards("3H 4H 5H 9S")
    for e in RULES.decide(state, Shuffle(cards("9S 3H 5H 4H"))):
        state = RULES.evolve(state, e)
    assert state.hands[1] == cards("2D 6C KC QC 9S 3H 5H")
    assert state.stock == cards("4H") and state.discard == cards("QS") and state.to_act == 0


def test_rule_14_going_out_with_an_action_card_ends_the_hand_without_its_effect() -> None:
    game = stacked_game(2, ["QS", "2D"], starter="9S", hand_size=1, queen_of_spades_draws_five=True)
    game = game.play(PLAY(c("QS")))
    assert game.is_over and game.state.hands[1] == cards("2D") and game.result.winners == (0,)


def test_rule_14_going_out_with_an_eight_names_no_suit() -> None:
    game = stacked_game(2, ["8C", "2D"], starter="9S", hand_size=1)
    assert legal_strs(game) == ["play 8C", "draw"]
    with pytest.raises(IllegalActionError, match="no suit"):
        game.play(PLAY(c("8C"), "H"))
    assert game.play_text("play 8c").is_over


def test_eight_needs_a_suit_when_not_going_out_and_others_name_none() -> None:
    game = stacked_game(2, ["8C 5S", "2D 3D"], starter="9S")
    with pytest.raises(IllegalActionError, match="name a suit"):
        game.play(PLAY(c("8C")))
    with pytest.raises(IllegalActionError, match="only an 8"):
        game.play(PLAY(c("5S"), "H"))


# ---------------------------------------------------------------- scoring (15-23)


def test_rule_15_card_values() -> None:
    expected = {"8S": 50, "KH": 10, "QD": 10, "JC": 10, "TS": 10, "AH": 1, "2C": 2, "7D": 7, "9S": 9, "3H": 3}
    assert {code: card_value(c(code)) for code in expected} == expected


def test_rule_16_first_out_wins_single_hand() -> None:
    game = stacked_game(2, ["9S", "5C"], starter="9H", hand_size=1)
    game = game.play(PLAY(c("9S")))
    assert game.is_over and game.result == cardkit.Result((5, 0), (0,))


def test_rule_17_blocked_single_lowest_wins_and_a_tie_is_a_draw() -> None:
    assert points_for_blocked([12, 30, 12]) == ((0, 0, 0), None)
    assert points_for_blocked([5, 30, 12]) == ((32, 0, 0), 0)


def test_rule_18_single_scores_are_zero_until_scored() -> None:
    game = stacked_game(2, ["9S 4C", "5C 6C"], starter="9H")
    assert game.scores == (0, 0)
    assert game.play(PLAY(c("9S"))).scores == (0, 0)


def test_rule_19_points_match_rotates_the_dealer() -> None:
    game = stacked_game(3, ["9S", "5C", "6C"], starter="9H", hand_size=1, mode="points", target=1000)
    game = game.play(PLAY(c("9S")))
    assert game.to_act == CHANCE and game.state.dealer == 0  # dealer was seat 2
    game = game.play(Shuffle(standard_deck()))
    assert game.state.hand_number == 2 and game.to_act == 1 and game.scores == (11, 0, 0)


def test_rule_20_worked_example_points_for_going_out() -> None:
    totals = [hand_total(cards("8S KH 3D")), 0, hand_total(cards("AC 9C"))]
    assert points_for_out(1, totals) == (0, 73, 0)


def test_rule_21_worked_examples_blocked() -> None:
    assert points_for_blocked([12, 30, 12])[0] == (0, 0, 0)
    assert points_for_blocked([5, 30, 12])[0] == (32, 0, 0)


def test_rule_22_worked_example_target() -> None:
    assert cardkit.new_game("crazy-eights", players=3, seed=1, mode="points").config.target == 150
    assert cardkit.new_game("crazy-eights", players=2, seed=1, mode="points").config.target == 100
    assert cardkit.new_game("crazy-eights", players=7, seed=1, mode="points").config.target == 350
    from cardkit.games.crazy_eights.rules import RULES
    import attrs

    game = stacked_game(3, ["9S", "5C", "5D"], starter="9H", hand_size=1, mode="points")
    state = attrs.evolve(game.state, scores=(140, 0, 0))
    for e in RULES.decide(state, PLAY(c("9S"))):
        state = RULES.evolve(state, e)
    assert state.to_act is None and state.result == cardkit.Result((150, 0, 0), (0,))
    state2 = attrs.evolve(game.state, scores=(139, 0, 0))
    for e in RULES.decide(state2, PLAY(c("9S"))):
        state2 = RULES.evolve(state2, e)
    assert state2.to_act == CHANCE and state2.result is None


def test_rule_23_action_cards_in_the_points_match() -> None:
    game = stacked_game(3, ["JH 5C", "2D 6C", "7D 9D"], starter="9H", mode="points", jack_skips=True)
    assert game.play(PLAY(c("JH"))).to_act == 2


def test_blocked_points_match_tie_scores_nothing_and_deals_again() -> None:
    from cardkit.games.crazy_eights.rules import RULES
    import attrs

    game = stacked_game(2, ["4S", "4D"], starter="9H", hand_size=1, mode="points")
    state = attrs.evolve(game.state, stock=())
    for action in (PASS, PASS):
        for e in RULES.decide(state, action):
            state = RULES.evolve(state, e)
    assert state.scores == (0, 0) and state.to_act == CHANCE and state.hand_number == 1


def test_a_seed_deals_the_same_forever() -> None:
    game = cardkit.new_game("crazy-eights", players=2, seed=1)
    assert (game.state.dealer, [c.code for c in game.state.hands[0]], game.state.discard[-1].code) == PINNED_SEED_1


PINNED_SEED_1 = (0, ['QD', '3C', 'KH', 'JS', '2S', '8S', '9S'], 'KC')


def test_rule_17_blocked_single_hand_tie_is_a_draw_through_the_rules() -> None:
    import attrs

    game = stacked_game(2, ["4S", "4D"], starter="9H", hand_size=1)
    state = attrs.evolve(game.state, stock=())
    state = apply(apply(state, PASS), PASS)
    assert state.to_act is None
    assert state.result == cardkit.Result((0, 0), ())
