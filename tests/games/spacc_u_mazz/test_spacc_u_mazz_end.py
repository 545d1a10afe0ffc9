"""Rules 22-28: going out, places, the guard, scoring and matches."""

from __future__ import annotations

import cardkit
from cardkit import CHANCE, Card, Shuffle
from cardkit.games.spacc_u_mazz.config import DEFAULT_CARD_POINTS
from cardkit.games.spacc_u_mazz.events import (
    CardsRevealed,
    GameEnded,
    HandEnded,
    HandScored,
    PlayerWentOut,
)
from cardkit.games.spacc_u_mazz.rules import PACK, RULES
from cardkit.games.spacc_u_mazz.scoring import hand_points, variable_points
from spacc_helpers import act, cards, game_at, table, types


def test_worked_example_two_players_variable_points_and_poker() -> None:
    loser = cards("7S 7H 9D KC KD KH KS")
    assert variable_points(loser, DEFAULT_CARD_POINTS) == 16
    assert hand_points(2, (1, 0), (25, 0), 16) == (0, 41)


def test_worked_example_played_out() -> None:
    st = table(hands=["AS", "7S 7H 9D KC KD KH"], downs=["", "KS"], pile="9H", main="4D")
    after, events = act(st, "play AS")
    assert types(events) == [
        "CardsPlayed", "PlayerWentOut", "HandEnded", "CardsRevealed", "HandScored", "GameEnded",
    ]  # fmt: skip
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.variable == 16 and scored.points == (41, 0)
    assert cardkit.Result((41, 0), (0,)) == RULES.result(after)
    assert RULES.to_act(after) is None
    # the last player's cards (face down included) are shown to everyone after the hand
    revealed = next(e for e in events if isinstance(e, CardsRevealed))
    assert revealed.face_down == cards("KS")
    for zone in RULES.zones(after):
        if zone.name in ("hand", "face_down"):
            assert zone.visible_to == (0, 1)
    view = game_at(after).view(0)
    assert view["revealed_face_down"] == [[], ["KS"]]
    assert view["places"] == [0, 1] and view["scores"] == [41, 0]


def test_rule25_poker_counts_once_doubled_and_more_than_four() -> None:
    pts = DEFAULT_CARD_POINTS
    assert variable_points(cards("3S 3H 3D"), pts) == 11
    assert variable_points(cards("3S 3H 3D 3C"), pts) == 22
    assert variable_points(cards("3S 3H 3D 3C 3S 3H"), pts) == 22
    assert variable_points(cards("2S TS AS"), pts) == 3
    assert variable_points((), pts) == 0


def test_rule24_custom_card_points() -> None:
    st = table(hands=["AS", "3C 4C"], pile="9H", main="4D", card_points={"3": 100, "4": 1})
    after, events = act(st, "play AS")
    assert next(e for e in events if isinstance(e, HandScored)).points == (126, 0)


def test_rule22_three_players_places_and_scores() -> None:
    st = table(3, hands=["AS", "3C 3D", "5C"], pile="9H", main="4D", to_act=0)
    after, events = act(st, "play AS")
    assert events[1] == PlayerWentOut(0, 1)
    assert not any(isinstance(e, HandEnded) for e in events)  # play goes on
    assert after.to_act == 1
    after, _ = act(after, "take")  # seat 1 takes 9H AS
    after, events = act(after, "play 5C")
    assert PlayerWentOut(2, 2) in events
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.places == (0, 2, 1) and ended.reason == "out"
    scored = next(e for e in events if isinstance(e, HandScored))
    # last holds 3C 3D 9H AS: 11 + 5 + 1 = 17
    assert scored.variable == 17 and scored.points == (25 + 17, 0, 10)


def test_rule22_four_players_places_and_scores() -> None:
    st = table(
        4, hands=["AS", "KS", "QS", "3C 3D 3H 3S"], pile="", main="4D", to_act=0, dealer=3
    )
    after, _ = act(st, "play AS")
    assert after.to_act == 1 and after.places == (0,)
    after, _ = act(after, "take")  # seat 1 takes AS
    after, events = act(after, "play QS")
    assert PlayerWentOut(2, 2) in events and after.to_act == 3
    after, _ = act(after, "take")  # seat 3 takes QS
    after, events = act(after, "play AS")  # seat 1 plays AS, keeps KS
    assert after.to_act == 3
    after, _ = act(after, "take")  # seat 3 takes AS
    after, events = act(after, "play KS")  # seat 1 out, seat 3 is last
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.places == (0, 2, 1, 3)
    scored = next(e for e in events if isinstance(e, HandScored))
    # last holds 3C 3D 3H 3S QS AS: poker of 3s 22 + Q 3 + A 1 = 26
    assert scored.variable == 26 and scored.points == (25 + 26, 5, 15, 0)


def test_rule23_guard_ends_the_hand_and_places_by_points() -> None:
    st = table(3, hands=["3S 3H", "AS", "KS 4C"], pile="", main="4D 5D", turns=9, max_turns=10)
    after, events = act(st, "draw")
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.reason == "max_turns"
    # seat 0: 3S 3H 4D = 21; seat 1: A = 1; seat 2: K 4 = 12
    assert ended.places == (1, 2, 0)
    assert [e.seat for e in events if isinstance(e, CardsRevealed)] == [1, 2, 0]
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.points == (0, 25 + 21, 10)


def test_rule23_guard_tie_breaks_by_card_count_then_seat_order() -> None:
    for dealer, expected in ((0, (1, 2, 0)), (1, (2, 1, 0))):
        st = table(3, hands=["AS", "KH", "KS"], pile="", main="2S", max_turns=1,
                   to_act=0, dealer=dealer)  # fmt: skip
        after, events = act(st, "draw")  # seat 0: A 2 (2 points, 2 cards); K = 2 points
        ended = next(e for e in events if isinstance(e, HandEnded))
        assert ended.reason == "max_turns" and ended.places == expected


def test_rule23_guard_lets_a_red_joker_act_before_the_turn_ends() -> None:
    """Rule 20: the turn ends after the joker acts, so the guard waits for the decision
    (rules_version 3; version 2 ended the hand at the draw, the decision untaken)."""
    st = table(hands=["KS", "3C"], pile="9H", main="RJ 5D", turns=1, max_turns=2)
    after, events = act(st, "draw")
    assert types(events) == ["JokerDrawn", "ChoiceOffered"]
    assert RULES.to_act(after) == 0 and after.turns == 1
    done, events = act(after, "keep")
    assert next(e for e in events if isinstance(e, HandEnded)).reason == "max_turns"
    assert RULES.to_act(done) is None and done.turns == 2


def test_rule23_guard_in_a_real_game() -> None:
    game = cardkit.new_game("spacc-u-mazz", players=2, seed=4, max_turns=7)
    while not game.is_over:
        game = game.play(game.legal_actions()[0])
    assert game.seat_actions == 7
    ended = [e for e in game.events if isinstance(e, HandEnded)]
    assert len(ended) == 1 and ended[0].reason == "max_turns"


def test_rule27_last_scores_nothing_but_keeps_total() -> None:
    st = table(3, hands=["AS", "3C", "5C"], pile="", main="4D", totals=(10, 20, 30),
               target_score=1000)  # fmt: skip
    st, _ = act(st, "play AS")
    st, _ = act(st, "take")
    st, events = act(st, "play 5C")
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.points[1] == 0 and scored.totals == (10 + 25 + 11 + 1, 20, 30 + 10)
    assert RULES.to_act(st) == CHANCE  # next hand


def test_rule28_match_to_target_score() -> None:
    game = cardkit.new_game("spacc-u-mazz", players=3, seed=8, target_score=120, max_turns=40)
    rng = cardkit.Rng.stream(2, 0)
    while not game.is_over:
        legal = game.legal_actions()
        game = game.play(legal[rng.below(len(legal))])
    scored = [e for e in game.events if isinstance(e, HandScored)]
    assert len(scored) >= 2
    assert max(scored[-1].totals) >= 120 and all(max(s.totals) < 120 for s in scored[:-1])
    result = game.result
    assert result is not None and result.scores == scored[-1].totals
    best = max(result.scores)
    assert result.winners == tuple(s for s in range(3) if result.scores[s] == best)
    assert game.scores == result.scores
    end = [e for e in game.events if isinstance(e, GameEnded)]
    assert len(end) == 1


def test_rule28_next_hand_collects_every_card() -> None:
    st = table(hands=["AS", "3C"], pile="9H", main="4D", removed="TS", target_score=500)
    after, _ = act(st, "play AS")
    assert RULES.to_act(after) == CHANCE and RULES.pending_chance(after).cards == PACK
    nxt = RULES.decide(after, Shuffle(PACK))
    for e in nxt:
        after = RULES.evolve(after, e)
    assert after.hand_number == 2 and after.dealer == 0 and after.revealed is False
    assert after.removed == () and after.pile == () and after.places == ()
    assert after.totals == (25 + 11, 0)


def test_single_hand_scores_zero_until_scored() -> None:
    game = cardkit.new_game("spacc-u-mazz", players=2, seed=1)
    assert game.scores == (0, 0) and game.result is None
    assert game.view(0)["scores"] == [0, 0]


def test_guard_places_jokers_never_held() -> None:
    assert all(c.suit is not None for c in PACK)
    assert Card("RJ").suit is None
