"""Rules 1-11 (layouts, bidding, play) through the public Game API, with stacked decks."""

from __future__ import annotations

from collections import Counter

import pytest

import cardkit
from cardkit import Card, IllegalActionError, NotationError, NotYourTurnError, Pick, Shuffle, parse_cards
from cardkit.games.cutthroat_spades.actions import Bid, Look, Play, SpecialBid
from cardkit.games.cutthroat_spades.events import (
    BiddingEnded,
    CardsDealt,
    HandLooked,
    HandLookedPublic,
    HandsDealt,
    SpadesBroken,
    TrickWon,
)
from cardkit.games.cutthroat_spades.rules import RULES, layout_of
from cardkit.games.cutthroat_spades.state import replace
from cutthroat_helpers import NAME, bid_all, dealt_game, play_first_legal

C = Card.parse


# --- rule 1: layouts -----------------------------------------------------------------

@pytest.mark.parametrize(
    "players, options, size, removed, sizes",
    [
        (3, {}, 51, ["2C"], [17, 17, 17]),
        (4, {}, 52, [], [13] * 4),
        (5, {}, 50, ["2D", "2C"], [10] * 5),
        (5, {"jokers": 2}, 54, [], [11, 11, 10, 11, 11]),
        (5, {"jokers": 3}, 55, [], [11] * 5),
    ],
)
def test_rule_1_layouts(players: int, options: dict[str, int], size: int, removed: list[str], sizes: list[int]) -> None:
    game = cardkit.new_game(NAME, players=players, seed=3, auto_chance=False, **options)
    assert game.pending_chance() == cardkit.PickSpec(players)
    game = game.play(Pick(2))
    spec = game.pending_chance()
    assert isinstance(spec, cardkit.ShuffleSpec) and len(spec.cards) == size
    assert not set(parse_cards(" ".join(removed))) & set(spec.cards)
    zones = {(z.name, z.owner): z for z in game.zones()}
    assert len(zones[("deck", None)].cards) == size
    assert [c.code for c in zones[("removed", None)].cards] == removed
    game = game.play(Shuffle(spec.cards))
    assert game.view(0)["hand_sizes"] == sizes
    assert game.view(0)["removed"] == removed
    assert not game.zones()[0].cards  # the deck is empty after the deal


def test_rule_1_jokers_are_dealt_in_the_joker_layouts() -> None:
    game = dealt_game(5, 0, ["", "RJ BJ", "", "", ""], jokers=2)
    view = game.play_text("look").view(1)
    assert view["hand"][:2] == ["RJ", "BJ"]
    game = dealt_game(5, 0, ["", "XJ", "", "", ""], jokers=3)
    assert C("XJ") in game.state.hands[1]


# --- rule 2: ranks, trumps, jokers -------------------------------------------------------

def test_rule_2_jokers_rank_above_the_ace_of_spades_and_count_as_spades() -> None:
    # seat 1 leads a heart; seat 2 is void in hearts and plays XJ; seat 3 plays AS ...
    hands = ["2H 3D", "AH 4D", "XJ 5D", "AS 6D", "BJ 7D"]
    game = dealt_game(5, 0, hands, jokers=3)
    game = bid_all(game, {})
    assert game.to_act == 1
    state = game.state
    state = replace(state, hands=tuple(parse_cards(h) for h in ["2H", "AH", "XJ", "AS", "BJ"]), trick_count=1)
    from cutthroat_helpers import apply

    state, _ = apply(state, Play(C("AH")))
    state, events = apply(state, Play(C("XJ")))
    assert SpadesBroken(2) in events
    state, _ = apply(state, Play(C("AS")))
    state, _ = apply(state, Play(C("BJ")))
    state, events = apply(state, Play(C("2H")))
    assert TrickWon(4, 2) in events  # BJ > XJ > AS


def test_rule_2_big_joker_beats_little_joker() -> None:
    from cardkit.games.cutthroat_spades.rules import trick_power

    powers = [trick_power(C(c), "H") for c in ("RJ", "BJ", "XJ", "AS", "2S", "AH", "2H", "AD")]
    assert powers == sorted(powers, reverse=True)[:7] + [-1]
    assert trick_power(C("2S"), "H") > trick_power(C("AH"), "H")


# --- rule 3: dealer and deal -----------------------------------------------------------

def test_rule_3_dealing_starts_left_of_the_dealer_and_the_deal_passes_left() -> None:
    game = cardkit.new_game(NAME, players=4, seed=0, auto_chance=False)
    game = game.play(Pick(3))
    order = tuple(game.pending_chance().cards)  # type: ignore[union-attr]
    game = game.play(Shuffle(order))
    # one card at a time clockwise from seat 0 (left of dealer 3)
    assert game.state.hands[0][0] == order[0] and C("2S") in game.state.hands[0]
    assert C("3S") in game.state.hands[1] and C("5S") in game.state.hands[3]
    assert game.view(None)["dealer"] == 3
    game = bid_all(game, {})
    game = play_first_legal(game)
    assert game.state.dealer == 0 and game.to_act == cardkit.CHANCE


# --- rule 4/5/6: bidding -----------------------------------------------------------------

def test_rule_4_bidding_order_and_legal_bids_after_looking() -> None:
    game = dealt_game(4, 1)
    assert game.to_act == 2
    assert game.legal_actions() == (Look(), SpecialBid("blind_nil"))
    game = game.play_text("look")
    legal = game.legal_actions()
    assert legal == tuple(Bid(b) for b in range(1, 14)) + tuple(
        SpecialBid(k) for k in ("nil", "one_for_fifty", "two_for_forty", "moon")
    )
    order = []
    while game.state.phase == "bid":
        order.append(game.to_act)
        if not game.state.looked[game.to_act]:
            game = game.play_text("look")
        game = game.play_text("bid 3")
    assert order == [2, 3, 0, 1]  # dealer last


@pytest.mark.parametrize(
    "text, kind, tricks",
    [
        ("bid 4", "normal", 4), ("bid nil", "nil", 0), ("bid 1f", "one_for_fifty", 1),
        ("bid 2f", "two_for_forty", 2), ("bid moon", "moon", 11),
    ],
)
def test_rule_4_seen_bids_recorded_in_the_view(text: str, kind: str, tricks: int) -> None:
    game = dealt_game(4, 0).play_text("look").play_text(text)
    assert game.view(None)["bids"][1] == {"kind": kind, "tricks": tricks}
    assert game.view(2)["bids"] == [None, {"kind": kind, "tricks": tricks}, None, None]


def test_rule_4_moon_threshold_depends_on_the_tricks_the_player_plays() -> None:
    game = dealt_game(5, 0, jokers=2)
    game = bid_all(game, {1: "bid moon", 0: "bid moon"})
    bids = game.view(None)["bids"]
    assert bids[1] == {"kind": "moon", "tricks": 10} and bids[0] == {"kind": "moon", "tricks": 9}
    game = dealt_game(3, 0).play_text("look").play_text("bid moon")
    assert game.view(None)["bids"][1]["tricks"] == 14


def test_rule_4_normal_bid_range() -> None:
    game = dealt_game(3, 0).play_text("look")
    game.play_text("bid 17")
    for bad in ("bid 0", "bid 18"):
        with pytest.raises(IllegalActionError, match="1 to 17"):
            game.play_text(bad)
    game5 = dealt_game(5, 0, jokers=2)
    game5 = bid_all(game5, {})
    # the dealer (seat 0) had 10 cards: legal normal bids 1..10
    g = dealt_game(5, 0, jokers=2)
    while g.to_act != 0:
        g = g.play_text("look").play_text("bid 1")
    g = g.play_text("look")
    assert Bid(10) in g.legal_actions() and Bid(11) not in g.legal_actions()


def test_rule_5_hand_concealed_from_its_owner_until_they_look() -> None:
    game = dealt_game(4, 0)
    for seat in range(4):
        assert game.view(seat)["hand"] is None
        assert {z.name: z.visible_to for z in game.zones() if z.owner == seat}["hand"] == ()
    assert any(isinstance(e, HandsDealt) for e in game.events_for(1))
    assert not any(isinstance(e, CardsDealt) for e in game.events_for(1))
    looked = game.play_text("look")
    assert looked.view(1)["hand"] == [c.code for c in looked.state.hands[1]]
    assert looked.view(2)["hand"] is None and looked.view(None)["hand"] is None
    assert isinstance(looked.events_for(1)[-1], HandLooked)
    assert looked.events_for(2)[-1] == HandLookedPublic(1)
    assert [z.visible_to for z in looked.zones() if z.name == "hand" and z.owner == 1] == [(1,)]


def test_rule_5_a_blind_bid_shows_the_hand_in_the_same_entry() -> None:
    game = dealt_game(4, 0).play_text("bid blind-nil")
    assert game.view(1)["hand"] is not None
    assert game.view(1)["bids"][1] == {"kind": "blind_nil", "tricks": 0}
    entry = game.log.entries[-1]
    assert entry.actor == 1 and any(isinstance(e, HandLooked) for e in entry.events)


def test_rule_5_safe_undo_refuses_to_take_back_a_look() -> None:
    game = dealt_game(4, 0).play_text("look")
    with pytest.raises(IllegalActionError, match="unsafe undo"):
        game.undo(1, safe=True)
    assert game.undo(1) == dealt_game(4, 0)
    bid = game.play_text("bid 3")
    assert bid.undo(1, safe=True) == game  # a misclick after looking can be taken back


def test_rule_5_seen_bid_before_looking_is_refused_and_game_unchanged() -> None:
    game = dealt_game(4, 0)
    for text in ("bid 3", "bid nil", "bid 1f", "bid 2f", "bid moon"):
        with pytest.raises(IllegalActionError, match="look at your hand"):
            game.play_text(text)
    assert game == dealt_game(4, 0)
    looked = game.play_text("look")
    for text in ("bid blind-nil", "bid b6"):
        with pytest.raises(IllegalActionError, match="before looking"):
            looked.play_text(text)
    with pytest.raises(IllegalActionError, match="already looked"):
        looked.play_text("look")


def test_rule_6_no_restriction_on_the_total_of_the_bids() -> None:
    game = bid_all(dealt_game(3, 0), {1: "bid 17", 2: "bid 17", 0: "bid 17"})
    assert game.state.phase == "play"
    game = bid_all(dealt_game(3, 0), {1: "bid nil", 2: "bid nil", 0: "bid nil"})
    assert game.state.phase == "play"


def test_nil_bids_are_final_each_player_bids_once() -> None:
    game = dealt_game(4, 0).play_text("look").play_text("bid nil")
    assert game.to_act == 2
    with pytest.raises(NotYourTurnError):
        game.play_text("bid 3", seat=1)


# --- blind six --------------------------------------------------------------------------

def _with_scores(game: cardkit.Game, scores: tuple[int, ...], used: tuple[int, ...] | None = None) -> cardkit.Game:
    state = replace(game.state, scores=scores, blind_six_used=used or (0,) * len(scores))
    return cardkit.Game(game.rules, game.config, game.seed, False, state, state, None)


def test_blind_six_allowed_at_least_50_behind_the_leader() -> None:
    game = _with_scores(dealt_game(4, 0), (100, 50, 0, 0))
    assert SpecialBid("blind_six") in game.legal_actions()  # exactly 50 behind
    after = game.play_text("bid b6")
    assert after.view(1)["bids"][1] == {"kind": "blind_six", "tricks": 6}
    assert after.view(None)["blind_six_used"] == [0, 1, 0, 0]
    assert after.view(1)["hand"] is not None


@pytest.mark.parametrize("scores", [(100, 51, 0, 0), (0, 0, 0, 0), (0, 100, 0, 0), (100, 100, 0, 0)])
def test_blind_six_refused_when_not_50_behind(scores: tuple[int, ...]) -> None:
    game = _with_scores(dealt_game(4, 0), scores)
    assert SpecialBid("blind_six") not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="at least 50 points behind"):
        game.play_text("bid b6")
    assert game.state.bids == (None,) * 4


def test_blind_six_refused_after_its_uses() -> None:
    game = _with_scores(dealt_game(4, 0), (200, 0, 0, 0), used=(0, 1, 0, 0))
    with pytest.raises(IllegalActionError, match="used your blind six 1 time"):
        game.play_text("bid b6")
    unlimited = _with_scores(dealt_game(4, 0, preset="long"), (200, 0, 0, 0), used=(0, 5, 0, 0))
    assert SpecialBid("blind_six") in unlimited.legal_actions()
    two = _with_scores(dealt_game(4, 0, blind_six_per_game=2), (200, 0, 0, 0), used=(0, 1, 0, 0))
    assert two.play_text("bid b6").state.blind_six_used == (0, 2, 0, 0)


# --- rules 7-10: play --------------------------------------------------------------------

def test_rule_7_no_spade_lead_on_the_first_trick() -> None:
    game = bid_all(dealt_game(4, 0, ["", "AS KS 2H"]), {})
    assert game.to_act == 1
    legal = game.legal_actions()
    assert all(a.card.suit != "S" for a in legal)
    with pytest.raises(IllegalActionError, match="spades are not broken"):
        game.play_text("play AS")
    assert game.state.trick == ()


def test_rule_7_first_lead_may_be_a_spade_with_only_spades() -> None:
    spades = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
    game = bid_all(dealt_game(4, 0, ["", spades]), {})
    assert len(game.legal_actions()) == 13
    assert game.play_text("play 2s").state.trick == ((1, C("2S")),)


def test_rule_8_follow_suit_if_able() -> None:
    game = bid_all(dealt_game(4, 0, ["", "AH 2C", "3H 4C", "2S 5C"]), {})
    game = game.play_text("play ah")
    assert [str(a) for a in game.legal_actions() if a.card.suit != "H"] == []
    with pytest.raises(IllegalActionError, match="follow suit"):
        game.play_text("play 4c")
    game = game.play_text("play 3h")
    # seat 3 holds no heart (stacked otherwise?) -> may play anything it holds
    hand3 = game.state.hands[3]
    if not any(c.suit == "H" for c in hand3):
        assert len(game.legal_actions()) == len(hand3)


MIXED = ["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
         "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AS",
         "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC AC KS",
         "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS AD KC"]


def test_rule_9_spades_may_not_be_led_until_broken() -> None:
    game = bid_all(dealt_game(4, 0, MIXED), {})
    game = game.play_text("play 2d")      # seat 1 leads a diamond
    game = game.play_text("play 2c")      # seat 2 void: any card (not a spade)
    game = game.play_text("play ad")      # seat 3 follows and wins
    game = game.play_text("play 2h")      # seat 0 void
    assert game.to_act == 3 and not game.state.spades_broken
    assert game.legal_actions() == (Play(C("KC")),)
    with pytest.raises(IllegalActionError, match="spades are not broken"):
        game.play_text("play 2s")
    game = game.play_text("play kc").play_text("play 3h").play_text("play 3d").play_text("play 3c")
    # seat 3 won with KC and now holds only spades: it may lead them, which does not break spades
    assert game.to_act == 3 and all(c.suit == "S" for c in game.state.hands[3])
    game = game.play_text("play 2s")
    assert game.state.trick[-1] == (3, C("2S")) and not game.state.spades_broken


def test_rule_9_a_trump_on_another_suit_breaks_spades() -> None:
    hands2 = ["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
              "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
              "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
              "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]
    game = bid_all(dealt_game(4, 0, hands2), {})
    game = game.play_text("play 2d").play_text("play 2c")
    before = game
    game = game.play_text("play 2s")
    assert game.state.spades_broken and not before.state.spades_broken
    assert game.view(0)["spades_broken"] is True
    assert any(isinstance(e, SpadesBroken) for e in game.log.entries[-1].events)
    game = game.play_text("play 2h")
    assert game.to_act == 3 and game.view(0)["tricks_won"] == [0, 0, 0, 1]


def test_rule_10_highest_trump_else_highest_of_led_suit_wins_and_leads() -> None:
    game = bid_all(dealt_game(4, 0, MIXED), {})
    game = game.play_text("play 5d").play_text("play ac").play_text("play ad").play_text("play ah")
    assert game.view(0)["last_trick"] == [[1, "5D"], [2, "AC"], [3, "AD"], [0, "AH"]]
    assert game.view(0)["tricks_won"] == [0, 0, 0, 1] and game.to_act == 3
    assert game.view(0)["trick"] == []
    game = bid_all(dealt_game(4, 0, MIXED), {})
    game = game.play_text("play 5d").play_text("play ks").play_text("play ad").play_text("play ah")
    assert game.view(0)["tricks_won"] == [0, 0, 1, 0]  # a trump beats the ace of the led suit
    assert game.to_act == 2


def test_rule_11_after_the_last_trick_the_hand_is_scored_and_the_deal_passes_left() -> None:
    game = bid_all(dealt_game(3, 2), {})
    game = play_first_legal(game)
    assert game.to_act == cardkit.CHANCE and game.state.dealer == 0
    view = game.view(None)
    assert sum(view["tricks_won"]) == 17 and view["hands_played"] == 1
    assert view["scores"] == list(game.scores) and any(s != 0 for s in game.scores)
    # every card is in a won pile, visible to all until the next shuffle
    assert sum(len(z.cards) for z in game.zones() if z.name == "won") == 51


# --- 5 players with two jokers ---------------------------------------------------------------

def test_two_jokers_the_2c_holder_leads_it_and_the_dealer_sits_out_trick_1() -> None:
    game = dealt_game(5, 0, ["", "", "", "2C AH", ""], jokers=2)
    assert game.state.hands[0].__len__() == 10
    game = bid_all(game, {})
    assert game.to_act == 3
    assert game.legal_actions() == (Play(C("2C")),)
    with pytest.raises(IllegalActionError, match="2C"):
        game.play_text("play ah")
    seats = []
    while game.state.trick_count == 0:
        seats.append(game.to_act)
        game = game.play(game.legal_actions()[0])
    assert seats == [3, 4, 1, 2]  # dealer 0 skipped
    assert len(game.state.last_trick) == 4
    assert [len(h) for h in game.state.hands] == [10] * 5
    game = play_first_legal(game)
    assert sum(game.view(None)["tricks_won"]) == 11


def test_two_jokers_dealer_holding_2c_the_player_left_of_the_dealer_leads_under_rule_7() -> None:
    game = dealt_game(5, 2, ["", "", "2C", "AS KS", ""], jokers=2)
    game = bid_all(game, {})
    assert game.to_act == 3
    legal = game.legal_actions()
    assert all(a.card.suit != "S" and not a.card.is_special for a in legal)
    seats = []
    while game.state.trick_count == 0:
        seats.append(game.to_act)
        game = game.play(game.legal_actions()[0])
    assert seats == [3, 4, 0, 1]
    assert any(isinstance(e, BiddingEnded) and e.leader == 3 for e in game.events)


# --- notation, errors -----------------------------------------------------------------------

@pytest.mark.parametrize(
    "text, action",
    [
        ("look", Look()), ("  LOOK ", Look()), ("bid 4", Bid(4)), ("Bid   10", Bid(10)),
        ("bid nil", SpecialBid("nil")), ("bid blind-nil", SpecialBid("blind_nil")),
        ("bid blind nil", SpecialBid("blind_nil")), ("bid BN", SpecialBid("blind_nil")),
        ("bid b6", SpecialBid("blind_six")), ("bid blind_six", SpecialBid("blind_six")),
        ("bid 1f", SpecialBid("one_for_fifty")), ("bid 2F", SpecialBid("two_for_forty")),
        ("bid moon", SpecialBid("moon")), ("bid sm", SpecialBid("moon")),
        ("play QS", Play(C("QS"))), ("play 10h", Play(C("TH"))), ("play rj", Play(C("RJ"))),
        ("pick 2", Pick(2)),
    ],
)
def test_notation_parses(text: str, action: object) -> None:
    assert RULES.parse_action(text) == action


@pytest.mark.parametrize(
    "action", [Look(), Bid(3), Play(C("XJ")), Play(C("TD"))]
    + [SpecialBid(k) for k in ("nil", "blind_nil", "blind_six", "one_for_fifty", "two_for_forty", "moon")],
)
def test_notation_round_trip(action: object) -> None:
    assert RULES.parse_action(str(action)) == action


def test_canonical_notation() -> None:
    assert [str(SpecialBid(k)) for k in ("nil", "blind_nil", "blind_six", "one_for_fifty", "two_for_forty", "moon")] == [
        "bid nil", "bid blind-nil", "bid b6", "bid 1f", "bid 2f", "bid moon"]
    assert str(Play(C("TH"))) == "play TH" and str(Bid(4)) == "bid 4" and str(Look()) == "look"


@pytest.mark.parametrize("text", ["", "bid", "bid -1", "bid lots", "play", "play QX", "play QS KS", "look now", "pass", "bid 3 4"])
def test_bad_notation(text: str) -> None:
    with pytest.raises(NotationError):
        RULES.parse_action(text)


def test_bad_input_leaves_the_game_unchanged() -> None:
    game = bid_all(dealt_game(4, 0, ["", "AS 2H 3H", "4H 5H"]), {})
    snapshot = (game.state, game.log)
    for text in ("play AS", "play 2C", "look", "bid 3"):
        with pytest.raises(IllegalActionError):
            game.play_text(text)
    game2 = game.play_text("play 2h")
    with pytest.raises(IllegalActionError, match="follow suit"):
        game2.play(Play([c for c in game2.state.hands[2] if c.suit != "H"][0]))
    with pytest.raises(NotYourTurnError):
        game2.play_text("play 4h", seat=3)
    assert (game.state, game.log) == snapshot
    with pytest.raises(IllegalActionError, match="bidding is not over"):
        dealt_game(4, 0).play_text("play 2h")


def test_chance_action_when_a_seat_is_to_act_is_refused() -> None:
    game = dealt_game(4, 0)
    with pytest.raises(IllegalActionError):
        game.play(Pick(0))


def test_cards_are_conserved_through_a_hand() -> None:
    game = bid_all(dealt_game(5, 1, jokers=3), {})
    lay = layout_of(game.config)
    while game.state.phase == "play":
        total = Counter(c for z in game.zones() for c in z.cards)
        assert total == Counter(lay.cards) + Counter(lay.removed)
        game = game.play(game.legal_actions()[-1])


def test_rule_2_jokers_count_as_spades_for_following_and_leading() -> None:
    from cutthroat_helpers import apply

    game = bid_all(dealt_game(5, 0, jokers=3), {})
    base = replace(game.state, trick_count=1, spades_broken=False,
                   hands=tuple(parse_cards(h) for h in ["2H", "RJ 3H", "5S 4H", "XJ 6D", "7D 8D"]))
    state = replace(base, turn=1)
    # leading: a joker is a spade, so it may not be led before spades are broken
    assert RULES.legal_actions(state) == (Play(C("3H")),)
    with pytest.raises(IllegalActionError, match="spades are not broken"):
        RULES.decide(state, Play(C("RJ")))
    # following: a spade led must be followed by a joker
    state = replace(base, turn=2, spades_broken=True)
    state, _ = apply(state, Play(C("5S")))
    assert RULES.legal_actions(state) == (Play(C("XJ")),)
    with pytest.raises(IllegalActionError, match="follow suit"):
        RULES.decide(state, Play(C("6D")))
    # a joker led is a spade lead: a player without spades may play anything
    state = replace(base, turn=3, spades_broken=True)
    state, _ = apply(state, Play(C("XJ")))
    assert len(RULES.legal_actions(state)) == 2
