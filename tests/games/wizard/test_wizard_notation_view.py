"""Action notation, views, zones and event redaction."""

from __future__ import annotations

import json

import pytest

import cardkit
from cardkit import Card, NotationError, Pick, Shuffle
from cardkit.games.wizard.actions import Bid, ChooseTrump, Play
from cardkit.games.wizard.events import (
    CardPlayed,
    DealerChosen,
    HandDealt,
    RoundDealt,
    RoundStarted,
    TrumpTurned,
)
from cardkit.games.wizard.rules import RULES
from cardkit.games.wizard.state import DECK
from cardkit.serde import action_from_json, event_from_json, to_json
from wizard_helpers import deal, play_all


@pytest.mark.parametrize(
    "text,action",
    [
        ("bid 2", Bid(2)),
        ("BID 0", Bid(0)),
        ("  bid   12 ", Bid(12)),
        ("trump H", ChooseTrump("H")),
        ("trump s", ChooseTrump("S")),
        ("Trump   C", ChooseTrump("C")),
        ("play QS", Play(Card("QS"))),
        ("play qs", Play(Card("QS"))),
        ("play 10h", Play(Card("TH"))),
        ("play W", Play(Card("W"))),
        ("PLAY n", Play(Card("N"))),
        ("pick 2", Pick(2)),
    ],
)
def test_parse_action(text: str, action: object) -> None:
    assert RULES.parse_action(text) == action


def test_canonical_notation_round_trips() -> None:
    actions = [Bid(i) for i in range(21)] + [ChooseTrump(s) for s in "SHDC"]  # type: ignore[arg-type]
    actions += [Play(c) for c in set(DECK)]
    for a in actions:
        assert RULES.parse_action(str(a)) == a
        assert action_from_json(RULES, json.loads(json.dumps(to_json(a)))) == a
    assert str(Play(Card("TH"))) == "play TH"
    assert str(ChooseTrump("D")) == "trump D"
    assert str(Bid(3)) == "bid 3"
    shuffle = Shuffle(DECK)
    assert RULES.parse_action(str(shuffle)) == shuffle


@pytest.mark.parametrize(
    "text",
    ["", "   ", "bid", "bid two", "bid 2 3", "trump", "trump X", "trump NT", "play", "play ZZ",
     "play 1S", "play QS KS", "dance", "pick", "pick x", "shuffle ZZ"],
)
def test_malformed_text_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        RULES.parse_action(text)


def test_play_text_notation_error_leaves_game_unchanged() -> None:
    game = cardkit.new_game("wizard", players=4, seed=5)
    before = game.state
    with pytest.raises(NotationError):
        game.play_text("bid lots")
    assert game.state == before


REQUIRED = {
    "hand", "hand_sizes", "round", "rounds", "dealer", "turned_card", "trump", "bids",
    "tricks_won", "trick", "suit_to_follow", "to_act", "scores", "last_trick",
}


def test_view_fields_and_contents() -> None:
    game = deal(4, 0, ["2S", "3S", "KH", "5S"], turned="9D")
    view = game.view(2)
    assert REQUIRED <= set(view)
    json.dumps(view)
    assert view["hand"] == ["KH"]
    assert view["hand_sizes"] == [1, 1, 1, 1]
    assert view["round"] == 1 and view["rounds"] == 15 and view["dealer"] == 0
    assert view["turned_card"] == "9D" and view["trump"] == "D"
    assert view["bids"] == [None] * 4 and view["tricks_won"] == [0] * 4
    assert view["trick"] == [] and view["suit_to_follow"] is None and view["last_trick"] == []
    assert view["to_act"] == 1 and view["scores"] == [0] * 4
    assert view["phase"] == "bid" and view["seat"] == 2
    assert view["legal_actions"] == [] and view["result"] is None
    assert game.view(1)["legal_actions"] == ["bid 0", "bid 1"]
    spectator = game.view(None)
    assert spectator["hand"] is None
    assert "2S" not in json.dumps(spectator)
    game = play_all(game, "bid 1; bid 0; bid 0; bid 0; play 3S")
    view = game.view(0)
    assert view["trick"] == [[1, "3S"]] and view["suit_to_follow"] == "S"
    assert view["hand"] == ["2S"] and view["hand_sizes"] == [1, 0, 1, 1]
    assert view["bids"] == [0, 1, 0, 0] and view["to_act"] == 2


def test_hands_sorted_in_display_order() -> None:
    from wizard_helpers import dealt_state

    state = dealt_state(3, 5, 0, ["2C AS N W TH", "2S 3S 4S 5S 6S", "7S 8S 9S TS JS"], turned="N")
    assert RULES.view(state, 0)["hand"] == ["W", "N", "AS", "TH", "2C"]


def test_view_after_completed_trick_and_at_game_end() -> None:
    game = deal(3, 0, ["AS", "2S", "3S"], turned="2H", rounds=1)
    game = play_all(game, "bid 0; bid 0; bid 1; play 2S; play 3S; play AS")
    view = game.view(1)
    assert view["trick"] == [] and view["last_trick"] == [[1, "2S"], [2, "3S"], [0, "AS"]]
    assert view["last_trick_winner"] == 0 and view["tricks_won"] == [1, 0, 0]
    assert view["to_act"] is None and view["phase"] == "over"
    assert view["scores"] == [30, 20, 20]  # seat 0 (the dealer) bid 1 and took 1
    assert view["result"] == {"scores": [30, 20, 20], "winners": [0]}


def test_zones_names_and_visibility() -> None:
    game = deal(4, 0, ["2S", "3S", "KH", "5S"], turned="9D")
    zones = {(z.name, z.owner): z for z in game.zones()}
    assert set(zones) == {("stock", None), ("turned", None), ("trick", None)} | {
        (name, s) for name in ("hand", "won") for s in range(4)
    }
    assert zones[("stock", None)].visible_to == () and len(zones[("stock", None)].cards) == 55
    assert zones[("turned", None)].cards == (Card("9D"),)
    assert zones[("turned", None)].visible_to == (0, 1, 2, 3)
    assert zones[("hand", 2)].cards == (Card("KH"),) and zones[("hand", 2)].visible_to == (2,)
    game = play_all(game, "bid 0; bid 0; bid 0; bid 0; play 3S; play KH; play 5S; play 2S")
    zones = {(z.name, z.owner): z for z in game.zones()}
    assert zones[("won", 3)].cards == cardkit.parse_cards("3S KH 5S 2S")
    assert zones[("won", 3)].visible_to == (0, 1, 2, 3)


def test_before_the_first_deal_all_cards_are_in_the_concealed_stock() -> None:
    game = cardkit.new_game("wizard", players=3, seed=0, auto_chance=False)
    zones = game.zones()
    stock = [z for z in zones if z.name == "stock"][0]
    assert stock.cards == DECK and stock.visible_to == ()
    assert sum(len(z.cards) for z in zones) == 60


def test_deal_event_redaction() -> None:
    game = deal(3, 0, ["2S", "3S", "KH"], turned="9D")
    dealt = [e for e in game.events if isinstance(e, RoundDealt)][0]
    assert dealt.hands == ((Card("2S"),), (Card("3S"),), (Card("KH"),))
    assert RULES.redact(dealt, 2) == HandDealt(1, 0, 2, (Card("KH"),))
    assert RULES.redact(dealt, None) == RoundStarted(1, 0, 1)
    seen = game.events_for(1)
    assert DealerChosen(0) in seen and TrumpTurned(Card("9D"), "D") in seen
    assert "KH" not in json.dumps(to_json(list(seen)))
    for e in game.events:
        assert event_from_json(RULES, json.loads(json.dumps(to_json(e)))) == e
    played = CardPlayed(1, Card("3S"))
    assert RULES.redact(played, 0) is played
