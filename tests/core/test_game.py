"""The host contract of DESIGN.md §2, exercised through Crazy Eights and a user's game."""

from __future__ import annotations

import pytest

import cardkit
from cardkit import (
    CHANCE,
    Card,
    ConfigError,
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    Pick,
    PickSpec,
    SeatError,
    Shuffle,
    ShuffleSpec,
    UnknownGameError,
)
from cardkit.games.crazy_eights import Draw, Pass, Play
from cardkit.core.game import _PREV
from cardkit.rng import Rng
from cardkit.testing import random_playout


def started(players: int = 3, seed: int = 1, **options: object) -> cardkit.Game:
    return cardkit.new_game("crazy-eights", players=players, seed=seed, **options)


def test_registry() -> None:
    builtins = ("crazy-eights", "cutthroat-spades", "spacc-u-mazz", "wizard")
    assert set(builtins) <= set(cardkit.available_games())
    for name in builtins:
        assert cardkit.get_rules(name).name == name
    assert list(cardkit.available_games()) == sorted(cardkit.available_games())
    assert cardkit.get_rules("crazy-eights").name == "crazy-eights"
    with pytest.raises(UnknownGameError):
        cardkit.get_rules("go-fish")
    with pytest.raises(UnknownGameError):
        cardkit.new_game("go-fish", players=2, seed=1)


def test_register_a_users_game() -> None:
    from custom_game import HighCardRules

    class RegisteredHighCard(HighCardRules):
        name = "high-card-registry-test"

    rules = RegisteredHighCard()
    assert cardkit.register(rules) is rules
    assert cardkit.register(rules) is rules  # idempotent
    assert "high-card-registry-test" in cardkit.available_games()
    game = cardkit.new_game("high-card-registry-test", players=2, seed=3)
    game = random_playout(game, Rng(1))
    again = cardkit.replay(cardkit.loads(cardkit.dumps(game.log)))
    assert again == game

    class Impostor:
        name = "high-card-registry-test"

    with pytest.raises(ValueError):
        cardkit.register(Impostor())  # type: ignore[arg-type]


def test_new_game_auto_plays_chance() -> None:
    game = started()
    assert game.to_act in range(3)
    assert [e.actor for e in game.log.entries] == [CHANCE, CHANCE]
    assert game.legal_actions()


def test_same_seed_same_game_and_different_seed_different_deal() -> None:
    assert cardkit.dumps(started(seed=5).log) == cardkit.dumps(started(seed=5).log)
    assert started(seed=5).state.hands != started(seed=6).state.hands


def test_manual_chance() -> None:
    game = started(auto_chance=False)
    assert game.to_act == CHANCE and game.legal_actions() == ()
    assert game.pending_chance() == PickSpec(3)
    with pytest.raises(IllegalActionError):
        game.play(Pick(3))
    with pytest.raises(NotYourTurnError):
        game.play(Draw())
    game = game.play(Pick(2))
    spec = game.pending_chance()
    assert isinstance(spec, ShuffleSpec) and len(spec.cards) == 52
    with pytest.raises(IllegalActionError):
        game.play(Shuffle(spec.cards[:-1]))
    with pytest.raises(IllegalActionError):
        game.play(Shuffle(spec.cards[:-1] + spec.cards[:1]))
    game = game.play(Shuffle(spec.cards))
    assert game.state.dealer == 2 and game.to_act == 0
    with pytest.raises(IllegalActionError):
        game.pending_chance()
    with pytest.raises(IllegalActionError):
        game.play(Pick(0))


def test_guards_in_order_and_game_unchanged() -> None:
    game = started()
    before = cardkit.dumps(game.log)
    seat = game.to_act
    assert seat is not None
    other = (seat + 1) % 3
    legal = game.legal_actions()[0]
    with pytest.raises(NotYourTurnError) as info:
        game.play(legal, seat=other)
    assert info.value.seat == other and info.value.action == legal
    with pytest.raises(SeatError):
        game.play(legal, seat=3)
    with pytest.raises(SeatError):
        game.view(-1)
    not_held = next(c for c in cardkit.standard_deck() if c not in game.state.hands[seat])
    with pytest.raises(IllegalActionError) as illegal:
        game.play(Play(not_held))
    assert "does not hold" in illegal.value.reason and illegal.value.seat == seat
    with pytest.raises(IllegalActionError):
        game.play("draw")  # a string is not an action; play_text parses
    with pytest.raises(NotationError):
        game.play_text("play")
    with pytest.raises(NotationError):
        game.play_text("fly away")
    assert cardkit.dumps(game.log) == before
    assert game.play(legal, seat=seat) != game


def test_game_over_error() -> None:
    game = random_playout(started(), Rng(2))
    assert game.is_over and game.result is not None and game.to_act is None
    assert game.legal_actions() == ()
    with pytest.raises(GameOverError):
        game.play(Draw())
    with pytest.raises(GameOverError):
        game.play(Draw(), seat=0)  # game over comes before not-your-turn


def test_play_text_matches_play() -> None:
    game = started()
    action = game.legal_actions()[0]
    assert game.play_text(str(action).lower()) == game.play(action)


def test_undo_returns_the_earlier_game_exactly() -> None:
    game = started()
    history = [game]
    rng = Rng(11)
    for _ in range(40):
        if game.is_over:
            break
        legal = game.legal_actions()
        game = game.play(legal[rng.below(len(legal))])
        history.append(game)
    for k in range(1, len(history)):
        back = game.undo(k)
        assert back == history[-1 - k]
        assert cardkit.dumps(back.log) == cardkit.dumps(history[-1 - k].log)
        assert back.view(0) == history[-1 - k].view(0)
    assert game.undo(0) is game
    with pytest.raises(IllegalActionError):
        game.undo(len(history))
    with pytest.raises(IllegalActionError):
        game.undo(-1)


def test_safe_undo_allows_a_misclick_but_not_a_draw() -> None:
    game = started(seed=3)
    plays = [a for a in game.legal_actions() if isinstance(a, Play)]
    assert plays, "seed 3 gives the first player a playable card"
    after_play = game.play(plays[0])
    assert after_play.undo(1, safe=True) == game
    after_draw = game.play(Draw())
    with pytest.raises(IllegalActionError, match="unsafe"):
        after_draw.undo(1, safe=True)
    assert after_draw.undo(1) == game
    two = after_play.play(after_play.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="several seats"):
        two.undo(2, safe=True)


def test_safe_undo_refuses_chance_entries() -> None:
    game = started(players=2, seed=4, mode="points", target=1000)
    rng = Rng(5)
    while game.state.hand_number < 2:
        legal = game.legal_actions()
        game = game.play(legal[rng.below(len(legal))])
    # the last seat action ended hand 1 and caused the deal of hand 2
    with pytest.raises(IllegalActionError, match="chance"):
        game.undo(1, safe=True)
    assert game.undo(1).state.hand_number == 1


def test_events_for_redacts_hidden_cards() -> None:
    game = started()
    full = game.events
    dealt = full[1]
    assert all(h is not None for h in dealt.hands) and dealt.stock is not None
    for seat in range(3):
        mine = game.events_for(seat)[1]
        assert mine.hands[seat] == dealt.hands[seat]
        assert all(h is None for i, h in enumerate(mine.hands) if i != seat)
        assert mine.stock is None
    spectator = game.events_for(None)[1]
    assert all(h is None for h in spectator.hands)


def test_view_hides_other_hands() -> None:
    game = started()
    view = game.view(0)
    assert view["hand"] == [c.code for c in cardkit.sort_cards(game.state.hands[0])]
    assert game.view(None)["hand"] is None
    text = cardkit.dumps(game.view(1))
    for card in game.state.hands[0]:
        if card not in game.state.hands[1] and card != game.state.discard[-1]:
            assert f'"{card.code}"' not in text


def test_play_does_not_copy_the_log() -> None:
    game = started(players=4, mode="points", target=10**6)
    game = random_playout(game, Rng(1), max_seat_actions=300)
    nxt = game.play(game.legal_actions()[0])
    assert nxt._head is not None and nxt._head[_PREV] is game._head  # shared prefix


def test_config_errors() -> None:
    for bad in [
        dict(players=1),
        dict(players=8),
        dict(players=3, mode="teams"),
        dict(players=3, colour="red"),
        dict(players=3, target=100),
        dict(players=3, mode="points", target=0),
        dict(players=3, decks=3),
        dict(players=3, hand_size=11),
        dict(players=3, max_turns=0),
        dict(players=3, jack_skips="yes"),
        dict(players=5, hand_size=10, decks=1, mode="single") | {"players": 6},
    ]:
        players = bad.pop("players")
        with pytest.raises(ConfigError):
            cardkit.new_game("crazy-eights", players=players, seed=1, **bad)
    with pytest.raises(ConfigError):
        cardkit.new_game("crazy-eights", players=2, seed="x")  # type: ignore[arg-type]


def test_card_equality_in_actions() -> None:
    assert Play(Card.parse("8h"), "S") == Play(Card("8H"), "S")
    assert str(Play(Card("8H"), "S")) == "play 8H S"
