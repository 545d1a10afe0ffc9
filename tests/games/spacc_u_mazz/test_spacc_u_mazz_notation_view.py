"""Action notation, the view, redaction and bad input."""

from __future__ import annotations

import json

import pytest

import cardkit
from cardkit import Card, IllegalActionError, NotationError, NotYourTurnError, Pick, Shuffle
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
from cardkit.games.spacc_u_mazz.rules import RULES
from spacc_helpers import NAME, act, cards, game_at, stacked, table

C = Card


@pytest.mark.parametrize(
    "action,text",
    [
        (Play(cards("9S 9H")), "play 9S 9H"),
        (Play(cards("9H 9S")), "play 9S 9H"),
        (Play(cards("9S"), cards("9D")), "play 9S +up:9D"),
        (Play(cards("TS"), cards("TD TC")), "play TS +up:TD +up:TC"),
        (Play((), cards("7C 7D")), "up 7D 7C"),
        (Blind(2), "blind 2"),
        (DRAW, "draw"),
        (TAKE, "take"),
        (PASS, "pass"),
        (DUMP, "dump"),
        (KEEP, "keep"),
        (RemoveUp(C("KD")), "remove up:KD"),
        (RemoveDown(2), "remove down:2"),
        (DECLINE, "decline"),
    ],
)
def test_notation_round_trip(action: object, text: str) -> None:
    assert str(action) == text
    assert RULES.parse_action(text) == action


@pytest.mark.parametrize(
    "text,action",
    [
        ("  PLAY   9s   9h ", Play(cards("9S 9H"))),
        ("play 10s", Play(cards("TS"))),
        ("play 9s +UP: 9d", Play(cards("9S"), cards("9D"))),
        ("play 9s up:9d", Play(cards("9S"), cards("9D"))),
        ("up 7c 7d", Play((), cards("7C 7D"))),
        ("play +up:7c", Play((), cards("7C"))),
        ("Blind 3", Blind(3)),
        ("remove UP: kd", RemoveUp(C("KD"))),
        ("remove down : 1", RemoveDown(1)),
        ("DRAW", DRAW),
        ("pick 1", Pick(1)),
        ("shuffle 9s rj", Shuffle((C("9S"), C("RJ")))),
    ],
)
def test_notation_is_tolerant(text: str, action: object) -> None:
    assert RULES.parse_action(text) == action


@pytest.mark.parametrize(
    "text",
    ["", "   ", "play", "play 9X", "play RJ", "up", "blind", "blind 0", "blind x", "blind 1 2",
     "draw 2", "remove", "remove up:", "remove side:1", "remove down:0", "hop", "9S"],
)  # fmt: skip
def test_malformed_notation(text: str) -> None:
    with pytest.raises(NotationError):
        RULES.parse_action(text)
    game = stacked(2)
    with pytest.raises(NotationError):
        game.play_text(text)


def test_view_field_names_and_contents() -> None:
    game = stacked(
        3, dealer=2, hands=["3S 4S 5S 6S 7S", "3H 4H 5H 6H 7H", "3D 4D 5D 6D 7D"],
        ups=["8S 8H 8D", "9S 9H 9D", "JS JH JD"], top="TS 5C",
    )  # fmt: skip
    view = game.view(0)
    for field in (
        "hand", "hand_sizes", "face_up", "face_down_counts", "pile", "reference",
        "main_stock_size", "reserve_stock_size", "removed_count", "places", "to_act",
        "dealer", "scores",
    ):  # fmt: skip
        assert field in view, field
    assert view["hand"] == ["3S", "4S", "5S", "6S", "7S"]
    assert view["hand_sizes"] == [5, 5, 5]
    assert view["face_up"] == [["8S", "8H", "8D"], ["9S", "9H", "9D"], ["JS", "JH", "JD"]]
    assert view["face_down_counts"] == [3, 3, 3]
    assert view["pile"] == ["5C"] and view["reference"] == "5"
    assert view["main_stock_size"] == 52 - 33 + 2 - 1
    assert view["main_stock_buried"] == ["TS"]
    assert view["reserve_stock_size"] == 52 and view["removed_count"] == 0
    assert view["places"] == [] and view["to_act"] == 0 and view["dealer"] == 2
    assert view["scores"] == [0, 0, 0]
    assert view["legal_actions"][:2] == ["play 5S", "play 6S"]
    assert game.view(1)["legal_actions"] == []
    spectator = game.view(None)
    assert spectator["hand"] is None
    json.dumps(spectator)


def test_view_reference_characters() -> None:
    for pile, ref in (("QS", "Q"), ("9S", "9"), ("2S", None), ("AS", "A")):
        st = table(hands=["3S", "3C"], pile=pile, main="4D")
        assert game_at(st).view(0)["reference"] == ref


def test_redaction_of_deal_and_draws() -> None:
    game = stacked(2, dealer=0, hands=["3S 4S 5S 6S 7S", "3H 4H 5H 6H 7H"])
    seen = {v: cardkit.dumps(list(game.events_for(v))) for v in (None, 0, 1)}
    assert '"3S"' in seen[0] and '"3H"' not in seen[0]
    assert '"3H"' in seen[1] and '"3S"' not in seen[1]
    assert '"3H"' not in seen[None] and '"3S"' not in seen[None]
    st = table(hands=["KS", "3C"], pile="5H", main="4D")
    _, events = act(st, "draw")
    assert RULES.redact(events[0], 0).card == C("4D")
    assert RULES.redact(events[0], 1).card is None
    assert RULES.redact(events[0], None).card is None


def test_not_your_turn_and_game_unchanged() -> None:
    game = stacked(2, dealer=0)
    with pytest.raises(NotYourTurnError):
        game.play_text("take", seat=0)
    assert game.to_act == 1


def test_bad_input_errors_leave_the_game_unchanged() -> None:
    cases = [
        (table(hands=["9S TH", "3C"], pile="7H", main="4D"), "play 9S TH", "same rank"),
        (table(hands=["9S", "3C"], pile="JH", main="4D"), "play 9S", "below the pile's reference"),
        (table(hands=["9S", "3C"], downs=["5S", ""], pile="JH", main="4D"), "blind 1",
         "only when your hand is empty"),
        (table(hands=["", "3C"], ups=["5D", ""], downs=["5S", ""], pile="JH", main="4D"),
         "draw", "face-down"),
    ]  # fmt: skip
    for state, text, match in cases:
        game = game_at(state)
        before = (game.state, game.view(0), game.legal_actions())
        with pytest.raises(IllegalActionError, match=match):
            game.play_text(text)
        assert (game.state, game.view(0), game.legal_actions()) == before


def test_play_after_game_over() -> None:
    st = table(hands=["AS", "3C"], pile="9H", main="4D")
    after, _ = act(st, "play AS")
    game = game_at(after)
    with pytest.raises(cardkit.GameOverError):
        game.play_text("take")


def test_safe_undo_refuses_after_seeing_a_card() -> None:
    game = stacked(2, dealer=0, hands=["3S 4S 5S 6S 7S", "3H 4H 5H 6H 7H"], top="2C 9C")
    taken = game.play_text("take")  # seat 1 picks up the public 2C: nothing new seen
    assert taken.undo(1, safe=True) == game
    drawn = game.play_text("draw")  # seat 1 sees the drawn 9C
    with pytest.raises(IllegalActionError, match="unsafe undo"):
        drawn.undo(1, safe=True)
    assert drawn.undo(1) == game
