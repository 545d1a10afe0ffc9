"""Rules 7-21: order, the pile, every turn option, jokers, 2 and 10."""

from __future__ import annotations

import pytest

from cardkit import Card, IllegalActionError
from cardkit.games.spacc_u_mazz.actions import Play
from cardkit.games.spacc_u_mazz.events import (
    BlindFailed,
    BlindPlayed,
    CardDrawn,
    CardRemoved,
    ChoiceOffered,
    HandDumped,
    JokerDrawn,
    JokerRevealed,
    PenaltyWaived,
    PileBurned,
    PileTaken,
    TurnStarted,
)
from cardkit.games.spacc_u_mazz.rules import RULES
from spacc_helpers import act, cards, game_at, legal, table, types

RJ, BJ = Card("RJ"), Card("BJ")


def plays(state: object) -> set[str]:
    return {a for a in legal(state) if a.startswith(("play", "up"))}  # type: ignore[arg-type]


def ranks_playable(state: object) -> set[str]:
    return {a.split()[1][0] for a in plays(state)}


# ---------------------------------------------------------------------------- rules 7-9


ALL = "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S"


def test_rule7_standard_order() -> None:
    st = table(hands=[ALL, "3C"], pile="QH", main="4D")
    assert ranks_playable(st) == {"Q", "K", "A", "2", "T"}
    st = table(hands=[ALL, "3C"], pile="3H", main="4D")
    assert ranks_playable(st) == set("3456789TJQKA2")


def test_rule7_as_printed_order_j_k_q() -> None:
    st = table(hands=[ALL, "3C"], pile="KH", main="4D", rank_order="as_printed")
    assert ranks_playable(st) == {"K", "Q", "A", "2", "T"}
    st = table(hands=[ALL, "3C"], pile="QH", main="4D", rank_order="as_printed")
    assert ranks_playable(st) == {"Q", "A", "2", "T"}
    st = table(hands=[ALL, "3C"], pile="JH", main="4D", rank_order="as_printed")
    assert ranks_playable(st) == {"J", "K", "Q", "A", "2", "T"}


def test_rule8_two_and_ten_play_on_anything_jokers_are_never_played() -> None:
    st = table(hands=["2S TS 9C", "3C"], pile="AH", main="4D")
    assert plays(st) == {"play 2S", "play TS"}
    with pytest.raises(IllegalActionError, match="do not hold RJ"):
        RULES.decide(st, Play((RJ,)))


def test_rule9_reference_follows_the_top_card_and_none_on_a_two_or_empty() -> None:
    st = table(hands=["9S 2C KD", "3C 4C"], pile="5H", main="4D")
    assert game_at(st).view(0)["reference"] == "5"
    after, _ = act(st, "play 9S")
    assert game_at(after).view(0)["reference"] == "9"
    after2, _ = act(replace_to_act(after, 0), "play 2C")
    assert game_at(after2).view(0)["reference"] is None
    assert game_at(after2).view(0)["pile"] == ["5H", "9S", "2C"]
    empty = table(hands=["9S", "3C"], pile="", main="4D")
    assert game_at(empty).view(0)["reference"] is None


def replace_to_act(state: object, seat: int) -> object:
    from cardkit.games.spacc_u_mazz.state import replace

    return replace(state, to_act=seat)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- rule 10


def test_rule10_several_cards_of_one_rank_never_compulsory() -> None:
    st = table(hands=["9S 9H 9D 4C", "3C"], pile="7H", main="4D")
    assert plays(st) == {
        "play 9S", "play 9H", "play 9D", "play 9S 9H", "play 9S 9D", "play 9H 9D",
        "play 9S 9H 9D",
    }  # fmt: skip
    after, events = act(st, "play 9h 9s")
    assert after.pile == cards("7H 9S 9H")
    assert after.hands[0] == cards("9D 4C")
    assert after.to_act == 1


def test_rule10_duplicate_values_from_two_packs() -> None:
    st = table(hands=["9S 9S 9H", "3C"], pile="7H", main="4D")
    assert plays(st) == {"play 9S", "play 9H", "play 9S 9S", "play 9S 9H", "play 9S 9S 9H"}
    after, _ = act(st, "play 9S 9S")
    assert after.hands[0] == cards("9H")


def test_rule10_adding_face_up_cards_of_the_same_rank() -> None:
    st = table(hands=["9S 4C", "3C"], ups=["9D 9C KH", ""], pile="7H", main="4D")
    assert "play 9S +up:9D" in plays(st)
    assert "play 9S +up:9D +up:9C" in plays(st)
    assert "up 9D" not in plays(st)  # main stock not gone (rule 11)
    after, _ = act(st, "play 9S +up:9D")
    assert after.face_up[0] == cards("KH 9C")
    assert after.pile[-2:] == cards("9S 9D")


def test_worked_example_pile_top_nine_legal_plays() -> None:
    st = table(hands=[ALL + " 9H", "3C"], pile="9D", main="4D")
    assert ranks_playable(st) == {"9", "J", "Q", "K", "A", "2", "T"}
    assert "play 9S 9H" in plays(st)


def test_rule10_different_ranks_is_illegal_and_unchanged() -> None:
    st = table(hands=["9S TH 4C", "3C"], pile="7H", main="4D")
    game = game_at(st)
    with pytest.raises(IllegalActionError, match="same rank"):
        game.play_text("play 9S TH")
    with pytest.raises(IllegalActionError, match="same rank"):
        game.play_text("play 9S +up:TH")
    assert game.state == st


def test_rule10_card_below_reference_is_illegal_and_unchanged() -> None:
    st = table(hands=["9S 4C", "3C"], pile="JH", main="4D")
    game = game_at(st)
    with pytest.raises(IllegalActionError, match="below the pile's reference J"):
        game.play_text("play 9S")
    assert game.state == st


def test_rule10_cards_not_held_are_illegal() -> None:
    st = table(hands=["9S 4C", "3C"], ups=["9D", ""], pile="7H", main="4D")
    with pytest.raises(IllegalActionError, match="do not hold 9H"):
        RULES.decide(st, RULES.parse_action("play 9H"))
    with pytest.raises(IllegalActionError, match="do not hold 9S"):
        RULES.decide(st, RULES.parse_action("play 9S 9S"))
    with pytest.raises(IllegalActionError, match="no 9C face up"):
        RULES.decide(st, RULES.parse_action("play 9S +up:9C"))


# ---------------------------------------------------------------------------- rule 11


def test_rule11_face_up_alone_only_once_the_main_stock_is_gone() -> None:
    st = table(hands=["4C", "3C"], ups=["7C 7D 9H", ""], pile="5H", main="4D", reserve="8D")
    game = game_at(st)
    with pytest.raises(IllegalActionError, match="main stock has run out"):
        game.play_text("up 7C 7D")
    assert game.state == st
    gone = table(hands=["4C", "3C"], ups=["7C 7D 9H", ""], pile="5H", main="", reserve="8D")
    assert plays(gone) == {"up 7C", "up 7D", "up 7D 7C", "up 9H"}  # canonical: S H D C
    after, _ = act(gone, "up 7C 7D")
    assert after.face_up[0] == cards("9H") and after.pile == cards("5H 7D 7C")


def test_rule11_hand_and_face_up_together_after_main_stock() -> None:
    st = table(hands=["7S 4C", "3C"], ups=["7D", ""], pile="5H", main="", reserve="8D")
    assert {"play 7S", "up 7D", "play 7S +up:7D"} <= plays(st)


# ---------------------------------------------------------------------------- rule 12


def test_rule12_blind_only_with_an_empty_hand() -> None:
    st = table(hands=["4C", "3C"], downs=["9S 8S 7S", ""], pile="5H", main="4D")
    assert not any(a.startswith("blind") for a in legal(st))
    game = game_at(st)
    with pytest.raises(IllegalActionError, match="only when your hand is empty"):
        game.play_text("blind 1")
    assert game.state == st


def test_rule12_blind_legal_card_is_played_normally() -> None:
    st = table(hands=["", "3C"], downs=["9S 8S 7S", ""], pile="5H", main="4D")
    assert legal(st) == ["blind 1", "blind 2", "blind 3", "take"]
    after, events = act(st, "blind 2")
    assert isinstance(events[0], BlindPlayed) and events[0].card == Card("8S")
    assert after.face_down[0] == cards("9S 7S")
    assert after.pile == cards("5H 8S") and after.reference == 8


def test_rule12_blind_ten_burns_and_two_resets() -> None:
    st = table(hands=["", "3C"], downs=["TS 2S", ""], pile="KH AH", main="4D")
    after, events = act(st, "blind 1")
    assert types(events)[:2] == ["BlindPlayed", "PileBurned"]
    assert after.pile == () and after.removed == cards("KH AH TS")
    st2 = table(hands=["", "3C"], downs=["TS 2S", ""], pile="KH AH", main="4D")
    after2, _ = act(st2, "blind 2")
    assert after2.pile == cards("KH AH 2S") and after2.reference == 0


def test_rule12_failed_blind_takes_pile_and_card() -> None:
    st = table(hands=["", "3C"], downs=["4S 8S", ""], pile="5H KH", main="4D")
    after, events = act(st, "blind 1")
    assert isinstance(events[0], BlindFailed) and events[0].card == Card("4S")
    assert isinstance(events[1], PileTaken) and events[1].cards == cards("5H KH")
    assert after.hands[0] == cards("4S KH 5H") or sorted(after.hands[0], key=str) == sorted(
        cards("4S 5H KH"), key=str
    )
    assert after.pile == () and after.face_down[0] == cards("8S")
    assert after.to_act == 1
    # the card was turned face up before it was picked up: every seat saw it, so the
    # event is public and the card (with the pile) is in the known part of the hand
    assert RULES.redact(events[0], 1) == events[0] and RULES.redact(events[0], 0) == events[0]
    assert sorted(after.known[0], key=str) == sorted(cards("4S 5H KH"), key=str)
    assert RULES.view(after, 1)["known"][0] == [c.code for c in after.known[0]]


def test_rule12_bad_position() -> None:
    st = table(hands=["", "3C"], downs=["4S 8S", ""], pile="5H", main="4D")
    with pytest.raises(IllegalActionError, match="blind 1..2"):
        RULES.decide(st, RULES.parse_action("blind 3"))


# ---------------------------------------------------------------------------- rule 13


def test_rule13_draw_even_holding_a_playable_card_ends_the_turn() -> None:
    st = table(hands=["KS", "3C"], pile="5H", main="4D 6D", reserve="8D")
    assert "draw" in legal(st) and "play KS" in legal(st)
    after, events = act(st, "draw")
    assert isinstance(events[0], CardDrawn) and events[0].stock == "main"
    assert after.hands[0] == cards("KS 4D") or set(after.hands[0]) == set(cards("KS 4D"))
    assert after.main_stock == cards("6D") and after.to_act == 1
    assert RULES.redact(events[0], 1).card is None


def test_rule13_draw_from_reserve_once_main_is_empty() -> None:
    st = table(hands=["KS", "3C"], pile="5H", main="", reserve="8D 9D")
    after, events = act(st, "draw")
    assert events[0].stock == "reserve"
    assert after.reserve_stock == cards("9D") and Card("8D") in after.hands[0]


def test_rule13_no_draw_when_both_stocks_are_empty() -> None:
    st = table(hands=["3S", "3C"], pile="5H", main="", reserve="")
    assert legal(st) == ["take"]  # rule 15: forced pick-up
    with pytest.raises(IllegalActionError, match="both stocks are empty"):
        RULES.decide(st, RULES.parse_action("draw"))


def test_rule13_draw_with_empty_hand_and_face_down_is_illegal_and_unchanged() -> None:
    st = table(hands=["", "3C"], ups=["9H", ""], downs=["4S", ""], pile="5H", main="4D")
    game = game_at(st)
    with pytest.raises(IllegalActionError, match="face-down cards"):
        game.play_text("draw")
    assert game.state == st


# ---------------------------------------------------------------------------- rules 14-16


def test_rule14_voluntary_pick_up_next_starts_on_empty_pile() -> None:
    st = table(hands=["KS", "3C"], pile="5H 6H", main="4D")
    after, events = act(st, "take")
    assert isinstance(events[0], PileTaken)
    assert set(after.hands[0]) == set(cards("KS 5H 6H"))
    assert after.pile == () and after.reference == 0 and after.to_act == 1
    assert "play 3C" in legal(after)


def test_rule14_take_on_empty_pile_is_illegal() -> None:
    st = table(hands=["KS", "3C"], pile="", main="4D")
    assert "take" not in legal(st)
    with pytest.raises(IllegalActionError, match="pile is empty"):
        RULES.decide(st, RULES.parse_action("take"))


def test_rule15_forced_pick_up_and_pass_only_when_nothing_else() -> None:
    st = table(hands=["3S 4S", "3C"], pile="KH", main="", reserve="")
    assert legal(st) == ["take"]
    with pytest.raises(IllegalActionError, match="only when nothing else"):
        RULES.decide(st, RULES.parse_action("pass"))
    # pass is legal only when nothing at all is possible: unreachable in real play
    # (a seat to act always holds a card), shown on a degenerate hand-built state
    odd = table(3, hands=["", "3C", "4C"], pile="", main="")
    assert legal(odd) == ["pass"]
    after, events = act(odd, "pass")
    assert types(events)[0] == "Passed"


def test_rule16_next_player_clockwise_still_holding_cards() -> None:
    st = table(3, hands=["KS 3S", "", "3C"], ups=["", "", ""], pile="5H", main="4D", places=(1,))
    after, events = act(st, "play KS")
    assert events[-1] == TurnStarted(2)
    after2, _ = act(after, "take")
    assert after2.to_act == 0


# ---------------------------------------------------------------------------- rules 17-18


def test_rule17_empty_hand_face_down_left() -> None:
    st = table(hands=["", "3C"], ups=["9H", ""], downs=["4S 5S", ""], pile="5H", main="4D")
    assert legal(st) == ["blind 1", "blind 2", "take"]
    gone = table(hands=["", "3C"], ups=["9H", ""], downs=["4S 5S", ""], pile="5H", main="")
    assert legal(gone) == ["up 9H", "blind 1", "blind 2", "take"]


def test_rule18_face_up_only_must_draw_while_main_lasts() -> None:
    st = table(hands=["", "3C"], ups=["9H 9D", ""], pile="5H", main="4D", reserve="6D")
    assert legal(st) == ["draw", "take"]
    gone = table(hands=["", "3C"], ups=["9H 9D", ""], pile="5H", main="", reserve="6D")
    assert legal(gone) == ["up 9H", "up 9D", "up 9H 9D", "take"]
    with pytest.raises(IllegalActionError, match="main stock has run out"):
        RULES.decide(gone, RULES.parse_action("draw"))


def test_switch_to_reserve_stock_makes_face_up_cards_playable() -> None:
    st = table(hands=["KS", "3C"], ups=["9H", ""], pile="5H", main="4D", reserve="6D 7D")
    assert "up 9H" not in legal(st)
    after, events = act(st, "draw")  # the last card of the main stock
    assert after.main_stock == () and events[0].stock == "main"
    back = replace_to_act(after, 0)
    assert "up 9H" in legal(back)
    after2, events2 = act(back, "draw")
    assert events2[0].stock == "reserve" and after2.reserve_stock == cards("7D")


# ---------------------------------------------------------------------------- rule 19


def test_rule19_red_joker_face_down_remove_face_up_card() -> None:
    st = table(hands=["", "3C"], ups=["KD 4H", ""], downs=["8S RJ 5S", ""], pile="9H", main="4D")
    after, events = act(st, "blind 2")
    assert isinstance(events[0], JokerRevealed) and events[0].card is RJ
    assert events[-1] == ChoiceOffered(0, "remove")
    assert after.to_act == 0 and after.pending == "remove"
    assert RJ in after.removed and after.pile == cards("9H")
    assert legal(after) == ["remove up:4H", "remove up:KD", "remove down:1", "remove down:2", "decline"]
    done, events2 = act(after, "remove up:KD")
    assert isinstance(events2[0], CardRemoved) and events2[0].card == Card("KD")
    assert done.face_up[0] == cards("4H") and done.removed[-1] == Card("KD")
    assert done.to_act == 1 and done.pending == ""


def test_rule19_red_joker_face_down_remove_face_down_by_position_or_decline() -> None:
    st = table(hands=["", "3C"], ups=["", ""], downs=["RJ 8S 5S", ""], pile="", main="4D")
    after, _ = act(st, "blind 1")
    done, events = act(after, "remove down:2")
    assert events[0] == CardRemoved(0, "down", 2, Card("5S"))
    assert done.face_down[0] == cards("8S")
    declined, events2 = act(after, "decline")
    assert types(events2)[0] == "RemovalDeclined" and declined.face_down[0] == cards("8S 5S")


def test_rule19_red_joker_last_card_goes_out_without_a_choice() -> None:
    st = table(3, hands=["", "3C", "4C"], downs=["RJ", "", ""], pile="9H", main="4D")
    after, events = act(st, "blind 1")
    assert "ChoiceOffered" not in types(events)
    assert after.places == (0,)


def test_rule19_black_joker_face_down_takes_the_pile() -> None:
    st = table(hands=["", "3C"], downs=["BJ 8S", ""], pile="9H KH", main="4D")
    after, events = act(st, "blind 1")
    assert types(events)[:2] == ["JokerRevealed", "PileTaken"]
    assert set(after.hands[0]) == set(cards("9H KH")) and BJ in after.removed
    assert after.to_act == 1


def test_rule19_black_joker_face_down_empty_pile_penalty_draw() -> None:
    st = table(hands=["", "3C"], downs=["BJ 8S", ""], pile="", main="4D 5D")
    after, events = act(st, "blind 1")
    assert types(events)[:2] == ["JokerRevealed", "CardDrawn"]
    assert events[1].penalty and after.hands[0] == cards("4D")
    assert after.to_act == 1


def test_rule19_black_joker_penalty_with_both_stocks_empty_draws_nothing() -> None:
    st = table(hands=["", "3C"], downs=["BJ 8S", ""], pile="", main="", reserve="")
    after, events = act(st, "blind 1")
    assert isinstance(events[1], PenaltyWaived)
    assert after.hands[0] == () and after.face_down[0] == cards("8S") and after.to_act == 1


def test_rule19_black_joker_penalty_draws_the_red_joker_which_acts() -> None:
    st = table(hands=["", "3C"], ups=["7H", ""], downs=["BJ 8S", ""], pile="", main="RJ 5D")
    after, events = act(st, "blind 1")
    assert types(events) == ["JokerRevealed", "JokerDrawn", "ChoiceOffered"]
    assert events[1].penalty and events[2].choice == "remove"  # empty hand: removal
    assert after.removed == (BJ, RJ)


# ---------------------------------------------------------------------------- rule 20


def test_rule20_red_joker_drawn_dump_the_hand() -> None:
    st = table(hands=["KS 4C TD 2H", "3C"], pile="9H", main="RJ 5D")
    after, events = act(st, "draw")
    assert isinstance(events[0], JokerDrawn) and events[-1] == ChoiceOffered(0, "dump")
    assert legal(after) == ["dump", "keep"]
    game = game_at(after)
    with pytest.raises(IllegalActionError, match="dump"):
        game.play_text("take")
    done, events2 = act(after, "dump")
    assert isinstance(events2[0], HandDumped) and events2[0].reference == "4"
    assert done.pile[:1] == cards("9H") and len(done.pile) == 5  # the 10 does not burn
    assert done.reference == 4 and done.hands[0] == () and done.removed == (RJ,)
    assert game_at(done).view(1)["reference"] == "4"
    assert "play 3C" not in legal(done)  # 3 is below the dumped reference


def test_rule20_dump_reference_uses_the_game_order() -> None:
    st = table(hands=["KS QS", "3C"], pile="9H", main="RJ", rank_order="as_printed")
    after, _ = act(st, "draw")
    done, events = act(after, "dump")
    assert events[0].reference == "K"  # J < K < Q as printed


def test_rule20_dump_only_twos_and_tens_gives_no_reference() -> None:
    st = table(hands=["2S TD", "3C"], pile="9H", main="RJ")
    after, _ = act(st, "draw")
    done, events = act(after, "dump")
    assert events[0].reference is None and done.reference == 0
    assert done.pile == cards("9H 2S TD")


def test_rule20_red_joker_drawn_keep_the_hand() -> None:
    st = table(hands=["KS", "3C"], pile="9H", main="RJ 5D")
    after, _ = act(st, "draw")
    done, events = act(after, "keep")
    assert types(events)[0] == "HandKept" and done.hands[0] == cards("KS")
    assert done.to_act == 1 and done.main_stock == cards("5D")


def test_rule20_red_joker_drawn_with_empty_hand_removes_a_card() -> None:
    st = table(hands=["", "3C"], ups=["9D", ""], pile="KH", main="RJ 5D")
    assert legal(st) == ["draw", "take"]  # rule 18
    after, events = act(st, "draw")
    assert events[-1] == ChoiceOffered(0, "remove")
    assert legal(after) == ["remove up:9D", "decline"]
    done, _ = act(after, "remove up:9D")
    assert done.places == (0, 1)  # nothing left: out, and 2 players: the hand ends


def test_rule20_red_joker_dump_of_the_last_cards_goes_out() -> None:
    st = table(3, hands=["KS", "3C", "4C"], pile="9H", main="RJ 5D")
    after, _ = act(st, "draw")
    done, events = act(after, "dump")
    assert "PlayerWentOut" in types(events) and done.places == (0,)


def test_rule20_black_joker_drawn_takes_the_pile() -> None:
    st = table(hands=["KS", "3C"], pile="9H QH", main="BJ 5D")
    after, events = act(st, "draw")
    assert types(events)[:2] == ["JokerDrawn", "PileTaken"]
    assert set(after.hands[0]) == set(cards("KS 9H QH")) and after.main_stock == cards("5D")


def test_rule20_black_joker_drawn_empty_pile_penalty_card() -> None:
    st = table(hands=["KS", "3C"], pile="", main="BJ 5D 6D")
    after, events = act(st, "draw")
    assert types(events)[:2] == ["JokerDrawn", "CardDrawn"]
    assert events[1].penalty and set(after.hands[0]) == set(cards("KS 5D"))


def test_rule20_black_joker_drawn_last_main_card_penalty_from_reserve() -> None:
    st = table(hands=["KS", "3C"], pile="", main="BJ", reserve="7C")
    after, events = act(st, "draw")
    assert events[1].stock == "reserve" and Card("7C") in after.hands[0]


def test_rule20_black_joker_penalty_draws_red_joker_with_hand() -> None:
    st = table(hands=["KS", "3C"], pile="", main="BJ RJ 5D")
    after, events = act(st, "draw")
    assert types(events) == ["JokerDrawn", "JokerDrawn", "ChoiceOffered"]
    assert events[-1].choice == "dump"


def test_follow_up_decision_errors() -> None:
    st = table(hands=["", "3C"], ups=["KD", ""], downs=["RJ 5S", ""], pile="9H", main="4D")
    after, _ = act(st, "blind 1")
    for text, match in [
        ("keep", "remove up:CARD"),
        ("remove up:QD", "no QD face up"),
        ("remove down:2", "remove down:1..1"),
        ("draw", "remove up:CARD"),
    ]:
        with pytest.raises(IllegalActionError, match=match):
            RULES.decide(after, RULES.parse_action(text))
    fresh = table(hands=["KS", "3C"], pile="9H", main="4D")
    with pytest.raises(IllegalActionError, match="no red joker is waiting"):
        RULES.decide(fresh, RULES.parse_action("dump"))


# ---------------------------------------------------------------------------- rule 21


def test_rule21_two_resets_the_pile() -> None:
    st = table(hands=["2S KS", "3C"], pile="AH", main="4D")
    after, events = act(st, "play 2S")
    assert after.reference == 0 and after.pile == cards("AH 2S")
    assert "play 3C" in legal(after)


def test_rule21_worked_example_ten_burns_a_pile_of_twelve() -> None:
    pile = "3H 4H 5H 6H 7H 8H 9H JH QH KH AH AD"
    st = table(hands=["TS KS", "3C"], pile=pile, main="4D")
    after, events = act(st, "play TS")
    burned = [e for e in events if isinstance(e, PileBurned)]
    assert len(burned) == 1 and len(burned[0].cards) == 13
    assert after.pile == () and len(after.removed) == 13 and after.reference == 0
    assert game_at(after).view(1)["removed_count"] == 13
    assert "play 3C" in legal(after)


def test_rule21_several_tens_with_face_up_ten() -> None:
    st = table(hands=["TS TH 4C", "3C"], ups=["TD", ""], pile="KH", main="4D")
    after, events = act(st, "play TS TH +up:TD")
    assert after.removed == cards("KH TS TH TD") and after.face_up[0] == ()


# ---------------------------------------------------------------------------- jokers: the rest


def test_rule20_red_joker_drawn_dump_onto_an_empty_pile() -> None:
    st = table(hands=["KS 5C", "3C"], pile="", main="RJ 4D")
    after, _ = act(st, "draw")
    done, events = act(after, "dump")
    assert done.pile == cards("KS 5C") and done.reference == 5
    assert events[0].reference == "5"


def test_rule20_red_joker_drawn_empty_hand_remove_face_down() -> None:
    # rule 18 draw (hand empty, face-up only) cannot have face-down cards; a black joker's
    # penalty draw can: blind BJ on an empty pile, then RJ from the stock
    st = table(hands=["", "3C"], ups=["", ""], downs=["BJ 8S 9S", ""], pile="", main="RJ")
    after, events = act(st, "blind 1")
    assert legal(after) == ["remove down:1", "remove down:2", "decline"]
    done, events2 = act(after, "remove down:1")
    assert events2[0] == CardRemoved(0, "down", 1, Card("8S")) and done.face_down[0] == cards("9S")


def test_rule20_black_joker_drawn_with_empty_hand_takes_the_pile() -> None:
    st = table(hands=["", "3C"], ups=["9D", ""], pile="KH QH", main="BJ 5D")
    after, events = act(st, "draw")  # rule 18
    assert types(events)[:2] == ["JokerDrawn", "PileTaken"]
    assert set(after.hands[0]) == set(cards("KH QH")) and after.to_act == 1


def test_rule20_black_joker_drawn_with_empty_hand_and_empty_pile_penalty() -> None:
    st = table(hands=["", "3C"], ups=["9D", ""], pile="", main="BJ 5D")
    after, events = act(st, "draw")
    assert types(events)[:2] == ["JokerDrawn", "CardDrawn"]
    assert after.hands[0] == cards("5D") and after.main_stock == ()


def test_rule20_black_joker_drawn_empty_pile_and_empty_stocks_draws_nothing() -> None:
    st = table(hands=["KS", "3C"], pile="", main="BJ", reserve="")
    after, events = act(st, "draw")
    assert types(events)[:2] == ["JokerDrawn", "PenaltyWaived"]
    assert after.hands[0] == cards("KS") and after.to_act == 1


def test_jokers_never_stay_in_a_hand_and_leave_the_game() -> None:
    st = table(hands=["KS", "3C"], pile="", main="BJ RJ 5D")
    after, _ = act(st, "draw")
    after, _ = act(after, "keep")
    assert all(c.suit is not None for h in after.hands for c in h)
    assert set(after.removed) == {RJ, BJ}
