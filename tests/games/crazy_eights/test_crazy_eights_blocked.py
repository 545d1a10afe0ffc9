"""Rule 8 as corrected: a hand is blocked only after every player, one after another since
the last card was played, has passed holding no playable card while the stock is empty and
cannot be rebuilt. A drawing turn (the pending 2s, or the last card of the stock) is no such
pass, nor is a pass by a player who could have played the card just drawn."""

from __future__ import annotations

import pytest
from c8_helpers import cards, stacked_game

import cardkit
from cardkit import LogError, parse_cards
from cardkit.games.crazy_eights import Draw, Pass, Play
from cardkit.games.crazy_eights.events import HandEnded
from cardkit.rng import Rng
from cardkit.testing import random_playout

DRAW = Draw()
PASS = Pass()

# The referee's stack: seat 1 keeps only spades, diamonds, 3C and 4C (besides 2H), so once
# 2H is on the pile it can never play; seat 0 collects hearts, 2s, 8s and clubs.
_SEAT0 = "9H TH JH QH KH AH 3H"
_SEAT1 = "2H 3S 4S 5S 6S 7S 9S"
_SEAT1_DRAWS = parse_cards("TS JS QS KS AS 3D 4D 5D 6D 7D 9D TD JD QD KD AD 3C 4C")
_SEAT0_DRAWS = parse_cards("2S 8S 2D 8D 2C 8C 5C 6C 7C TC JC QC KC AC 4H 5H 6H 7H")
_LAST = "8H"


def _referee_game() -> cardkit.Game:
    """Two players, ``two_draws_two``; seat 0 plays 9H, then 36 draw-and-pass turns leave one
    card in the stock with seat 1 to act; seat 1 plays 2H."""
    stock = " ".join(c.code for pair in zip(_SEAT1_DRAWS, _SEAT0_DRAWS) for c in pair) + " " + _LAST
    game = stacked_game(2, [_SEAT0, _SEAT1], starter="9C", stock=stock, two_draws_two=True)
    game = game.play(Play(cards("9H")[0]))
    for _ in range(36):
        game = game.play(DRAW).play(PASS)
    assert game.to_act == 1 and game.view(None)["stock_size"] == 1
    return game.play(Play(cards("2H")[0]))


def test_referee_case_a_pending_draw_is_not_a_pass() -> None:
    game = _referee_game()
    game = game.play(DRAW)  # seat 0 draws the pending 2s: the last card, the rest forgiven
    assert game.view(None)["stock_size"] == 0 and len(game.state.hands[0]) == 25
    assert game.legal_actions() == (PASS,)  # seat 1 cannot play
    game = game.play(PASS)
    assert not game.is_over, "a pending draw followed by one pass is not a blocked hand"
    assert game.to_act == 0
    plays = [a for a in game.legal_actions() if isinstance(a, Play)]
    assert len(plays) >= 5 and PASS not in game.legal_actions()


def test_referee_case_blocks_once_the_drawer_passes_too() -> None:
    game = _referee_game().play(DRAW).play(PASS)
    # seat 0 plays a heart; seat 1 passes again; seat 0 plays on until it must pass
    while not game.is_over:
        game = game.play(game.legal_actions()[0])
    ended = [e for e in game.events if isinstance(e, HandEnded)][-1]
    # seat 1 can never play again, so seat 0 either goes out or blocks after passing itself
    if ended.blocked:
        last_two = game.log.entries[-2:]
        assert [e.actor for e in last_two] == [1, 0] and all(e.action == PASS for e in last_two)
    else:
        assert ended.winner == 0


def test_pass_after_drawing_the_last_card_is_not_counted() -> None:
    from cardkit.games.crazy_eights.rules import RULES
    import attrs

    game = stacked_game(2, ["4S", "5S"], starter="9H", hand_size=1)
    state = attrs.evolve(game.state, stock=cards("KC"))

    def apply(s: object, action: object) -> tuple[object, tuple[object, ...]]:
        events = RULES.decide(s, action)  # type: ignore[arg-type]
        for e in events:
            s = RULES.evolve(s, e)  # type: ignore[arg-type]
        return s, events

    state, _ = apply(state, DRAW)  # seat 0 takes the last card (KC, unplayable on 9H)
    state, _ = apply(state, PASS)  # a turn spent drawing: not counted
    state, events = apply(state, PASS)  # seat 1 passes holding nothing playable: 1
    assert not any(isinstance(e, HandEnded) for e in events)
    state, events = apply(state, PASS)  # seat 0 passes, unable to play: 2 of 2
    assert any(isinstance(e, HandEnded) and e.blocked for e in events)


def test_pass_holding_a_playable_drawn_card_is_not_counted() -> None:
    from cardkit.games.crazy_eights.rules import RULES
    import attrs

    game = stacked_game(2, ["4S", "5S"], starter="9H", hand_size=1)
    state = attrs.evolve(game.state, stock=cards("KH"))

    def apply(s: object, action: object) -> tuple[object, tuple[object, ...]]:
        events = RULES.decide(s, action)  # type: ignore[arg-type]
        for e in events:
            s = RULES.evolve(s, e)  # type: ignore[arg-type]
        return s, events

    state, _ = apply(state, DRAW)  # KH matches 9H: seat 0 could play it
    assert Play(cards("KH")[0]) in RULES.legal_actions(state)  # type: ignore[arg-type]
    state, _ = apply(state, PASS)  # ...but passes: not counted
    state, _ = apply(state, PASS)  # seat 1: 1
    # seat 0 now holds a playable KH, so it cannot pass: the hand is not blocked
    assert PASS not in RULES.legal_actions(state)  # type: ignore[arg-type]


def test_max_turns_still_scores_a_cycling_hand_as_blocked() -> None:
    for seed in range(20):
        game = cardkit.new_game("crazy-eights", players=2, seed=seed, stock_empty="reshuffle", max_turns=40)
        game = random_playout(game, Rng(seed))
        ended = [e for e in game.events if isinstance(e, HandEnded)][-1]
        seat_entries = sum(1 for e in game.log.entries if e.actor >= 0)
        assert seat_entries <= 40
        if seat_entries == 40:
            assert ended.blocked


def test_random_games_block_only_after_counted_passes() -> None:
    """Every blocked hand (not cut by max_turns) ends with one pass per player in a row,
    each made without having drawn that turn and with an empty stock."""
    checked = 0
    for seed in range(60):
        game = random_playout(
            cardkit.new_game("crazy-eights", players=2 + seed % 4, seed=seed, two_draws_two=seed % 2 == 0),
            Rng(seed),
        )
        ended = [e for e in game.events if isinstance(e, HandEnded)][-1]
        if not ended.blocked:
            continue
        n = game.players
        tail = game.log.entries[-n:]
        assert all(e.action == PASS for e in tail)
        assert sorted(e.actor for e in tail) == list(range(n))
        before = game.log.entries[-n - 1]
        # a pass right after the same seat's draw ends a drawing turn and is not counted
        assert not (before.action == DRAW and before.actor == tail[0].actor)
        checked += 1
    assert checked > 0


def test_rules_version_is_2_and_version_1_logs_are_refused() -> None:
    game = random_playout(cardkit.new_game("crazy-eights", players=2, seed=5), Rng(5))
    assert game.rules.rules_version == 2
    text = cardkit.dumps(game.log).replace("\"rules_version\":2", "\"rules_version\":1")
    assert "\"rules_version\":1" in text
    with pytest.raises(LogError, match="rules_version 1"):
        cardkit.replay(cardkit.loads(text))
