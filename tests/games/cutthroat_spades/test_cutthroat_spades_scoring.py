"""Hand scoring: rules 12-18 and the worked examples of the rules file."""

from __future__ import annotations

from typing import Any

import pytest

from cardkit import parse_cards
from cardkit.games.cutthroat_spades.rules import RULES
from cardkit.games.cutthroat_spades.scoring import bid_result, moon_threshold, prize_jacks_won, score_seat
from cardkit.games.cutthroat_spades.state import BidInfo


def seat(bid: tuple[str, int], taken: int, captured: str = "", score: int = 0, count: int = 0, **options: Any) -> Any:
    cfg = RULES.config(options.pop("players", 4), **options)
    return score_seat(cfg, BidInfo(*bid), taken, parse_cards(captured), score, count)  # type: ignore[arg-type]


# --- worked examples -------------------------------------------------------------

def test_example_bid_4_took_6() -> None:
    s = seat(("normal", 4), 6)
    assert (s.total, s.bags, s.bid_points, s.bag_points) == (42, 2, 40, 2)


def test_example_bid_4_took_3_nil_took_1_blind_nil_took_0() -> None:
    assert seat(("normal", 4), 3).total == -40
    assert seat(("nil", 0), 1).total == -100
    assert seat(("blind_nil", 0), 0).total == 200


def test_example_1f_took_2_and_2f_took_1() -> None:
    s = seat(("one_for_fifty", 1), 2)
    assert (s.total, s.bags) == (11, 1)
    assert seat(("two_for_forty", 2), 1).total == -40


def test_example_bag_out_at_the_limit() -> None:
    s = seat(("normal", 3), 5, count=9)
    assert (s.bid_points, s.bag_points, s.bag_out_points, s.total, s.bags) == (30, 2, -110, -78, 0)


def test_example_prize_jacks_one_pays_two_pay_nothing() -> None:
    assert seat(("normal", 1), 1, "JD 2H 3H 4H").total == 20
    assert seat(("normal", 1), 2, "JD JC 3H 4H 5S 6S 7S 8S").total == 11  # 10 + 1 bag, no prize


def test_example_moon_with_three_players() -> None:
    s = seat(("moon", 14), 15, players=3)
    assert (s.total, s.bags, s.bags_taken) == (150, 0, 0)
    assert seat(("moon", 14), 13, players=3).total == -150


# --- rule by rule ------------------------------------------------------------------

def test_rule_12_normal_bid_made_and_set() -> None:
    assert bid_result(BidInfo("normal", 5), 5) == (50, 0)
    assert bid_result(BidInfo("normal", 5), 7) == (50, 2)
    assert bid_result(BidInfo("normal", 5), 4) == (-50, 0)


def test_rule_13_nil_and_blind_nil_made_and_set_no_bags() -> None:
    assert bid_result(BidInfo("nil", 0), 0) == (100, 0)
    assert bid_result(BidInfo("nil", 0), 3) == (-100, 0)
    assert bid_result(BidInfo("blind_nil", 0), 0) == (200, 0)
    assert bid_result(BidInfo("blind_nil", 0), 2) == (-200, 0)
    assert seat(("nil", 0), 4).bags == 0


def test_rule_14_one_for_fifty_and_two_for_forty() -> None:
    assert bid_result(BidInfo("one_for_fifty", 1), 1) == (50, 0)
    assert bid_result(BidInfo("one_for_fifty", 1), 3) == (10, 2)
    assert bid_result(BidInfo("one_for_fifty", 1), 0) == (-50, 0)
    assert bid_result(BidInfo("two_for_forty", 2), 2) == (40, 0)
    assert bid_result(BidInfo("two_for_forty", 2), 4) == (20, 2)
    assert bid_result(BidInfo("two_for_forty", 2), 0) == (-40, 0)
    assert bid_result(BidInfo("two_for_forty", 2), 1) == (-40, 0)
    assert seat(("two_for_forty", 2), 4).total == 22


def test_rule_15_blind_six() -> None:
    assert bid_result(BidInfo("blind_six", 6), 6) == (100, 0)
    assert bid_result(BidInfo("blind_six", 6), 8) == (100, 2)
    assert bid_result(BidInfo("blind_six", 6), 5) == (-100, 0)
    assert seat(("blind_six", 6), 8).total == 102


def test_rule_16_moon_and_set_bids_earn_no_bags() -> None:
    assert bid_result(BidInfo("moon", 11), 11) == (150, 0)
    assert bid_result(BidInfo("moon", 11), 13) == (150, 0)
    assert bid_result(BidInfo("moon", 11), 10) == (-150, 0)
    for kind, need in (("normal", 5), ("blind_six", 6), ("one_for_fifty", 1), ("moon", 11)):
        s = seat((kind, need), 0 if kind == "one_for_fifty" else need - 1)
        assert s.bags_taken == 0 and s.bags == 0


@pytest.mark.parametrize("tricks, threshold", [(17, 14), (13, 11), (10, 9), (11, 10)])
def test_rule_4_moon_thresholds(tricks: int, threshold: int) -> None:
    assert moon_threshold(tricks) == threshold


def test_rule_17_bags_limit_reset() -> None:
    s = seat(("normal", 2), 4, count=3)
    assert (s.total, s.bags) == (22, 5)
    s = seat(("normal", 2), 3, count=9)  # reaching the limit exactly
    assert (s.bag_out_points, s.total, s.bags) == (-100, 21 - 100, 0)
    s = seat(("normal", 2), 4, count=4, bag_limit=5)
    assert (s.bag_out_points, s.bags) == (-60, 0)


def test_rule_17_bags_limit_carry() -> None:
    s = seat(("normal", 3), 5, count=9, bag_out="carry")  # 9 bags + 2 -> -100, 1 left
    assert (s.bag_out_points, s.bags, s.total) == (-100, 1, 32 - 100)
    s = seat(("normal", 1), 13, count=9, bag_out="carry")  # 21 bags -> two bag-outs
    assert (s.bag_out_points, s.bags) == (-200, 1)


def test_rule_17_each_minus_10() -> None:
    s = seat(("normal", 4), 6, preset="short_minus_10")
    assert (s.bag_points, s.total, s.bags) == (-20, 20, 0)
    s = seat(("normal", 4), 6, score=50, count=0, bags="each_minus_10")
    assert s.score == 70


def test_rule_18_prize_jack_cases() -> None:
    official = ("JD", "JC")
    assert prize_jacks_won(parse_cards("JD"), official) == parse_cards("JD")
    assert prize_jacks_won(parse_cards("JC 2C"), official) == parse_cards("JC")
    assert prize_jacks_won(parse_cards("JD JC"), official) == ()
    assert prize_jacks_won(parse_cards("JH"), official) == ()  # not in play
    three = ("JD", "JC", "JH")
    assert prize_jacks_won(parse_cards("JD JH"), three) == ()
    assert prize_jacks_won(parse_cards("JD JC JH"), three) == parse_cards("JD JC JH")
    assert prize_jacks_won(parse_cards("JD JC JH"), official) == ()  # two prize jacks of two in play


def test_rule_18_prizes_apply_whatever_the_bid() -> None:
    s = seat(("normal", 5), 1, "JC")
    assert (s.bid_points, s.prize_points, s.total) == (-50, 10, -40)
    s = seat(("nil", 0), 1, "JD 2D 3D 4D")
    assert s.total == -90


def test_rule_18_all_three_jacks_pay_all_three() -> None:
    s = seat(("normal", 3), 4, "JD JC JH", count=2, preset="long")
    # +30, +1 bag (count 3), J-hearts removes one (count 2), +20 for JD and JC
    assert (s.prize_points, s.bags_removed, s.bags, s.total) == (20, 1, 2, 51)


def test_rule_18_jack_of_hearts_removes_a_bag_not_below_zero() -> None:
    s = seat(("normal", 3), 3, "JH", prize_jacks=["JH"])
    assert (s.bags_removed, s.bags, s.total) == (0, 0, 30)
    s = seat(("normal", 3), 3, "JH", count=4, prize_jacks=["JH"])
    assert (s.bags_removed, s.bags, s.total) == (1, 3, 30)


def test_rule_18_order_jack_of_hearts_before_bag_out() -> None:
    # 9 bags + 1 taken = 10, the J-hearts takes one off before the bag-out check: no bag-out
    s = seat(("normal", 3), 4, "JH", count=9, prize_jacks=["JH"])
    assert (s.bag_out_points, s.bags, s.total) == (0, 9, 31)
    # with 2 bags taken the count still reaches 10 after the reduction
    s = seat(("normal", 3), 5, "JH", count=9, prize_jacks=["JH"])
    assert (s.bags_removed, s.bag_out_points, s.bags, s.total) == (1, -100, 0, 32 - 100)


def test_rule_18_jack_of_hearts_under_each_minus_10() -> None:
    s = seat(("normal", 3), 5, "JH", bags="each_minus_10", prize_jacks=["JH"])
    assert (s.bag_points, s.prize_points, s.total) == (-20, 10, 20)
    s = seat(("normal", 3), 3, "JH", bags="each_minus_10", prize_jacks=["JH"])
    assert (s.prize_points, s.total) == (0, 30)
