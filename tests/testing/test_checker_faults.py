"""The checker flags each deliberately broken game (one fault each) and passes the correct ones."""

from __future__ import annotations

from typing import Any

import pytest
from broken_games import (
    AcceptsUnlisted,
    BadWinner,
    DictKeyLeak,
    ErrorMessageLeak,
    LegalActionTextLeak,
    LowerCaseLeak,
    PlayShowsNextSeat,
    SecondCopyLeak,
    SentenceLeak,
    SharedStateMutation,
    ShortScores,
    TenHighRules,
    TenSpelledLeak,
    TwoDeckRules,
    UnsortedWinners,
)
from custom_game import RULES

import attrs

from cardkit.core.game import Game, replay
from cardkit.errors import LogError
from cardkit.testing import (
    InvariantViolation,
    card_tokens,
    check_invariants,
    excess_mentions,
    safe_undo_leaks,
    tampered_chance_log,
)
from cardkit.cards import Card, standard_deck


def flagged(rules: Any, pattern: str, players: int = 3, seeds: int = 20) -> str:
    """The first violation the checker reports over ``seeds`` games; fails if none."""
    for seed in range(seeds):
        try:
            check_invariants(rules, players, seed, policy_seed=seed)
        except InvariantViolation as exc:
            message = str(exc)
            assert pattern in message, message
            return message
    raise AssertionError(f"the checker did not flag {type(rules).__name__} in {seeds} games")


@pytest.mark.parametrize("rules", [RULES, TenHighRules(), TwoDeckRules()], ids=lambda r: r.name)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_correct_games_pass(rules: Any, players: int) -> None:
    for seed in range(8):
        report = check_invariants(rules, players, seed, policy_seed=seed)
        assert report.finished


def test_concealed_card_in_a_sentence() -> None:
    assert "view(" in flagged(SentenceLeak(), "names concealed cards")


def test_concealed_card_as_a_dict_key() -> None:
    assert "view(" in flagged(DictKeyLeak(), "names concealed cards")


def test_concealed_card_in_lower_case() -> None:
    assert "view(" in flagged(LowerCaseLeak(), "names concealed cards")


def test_concealed_ten_spelled_10() -> None:
    message = flagged(TenSpelledLeak(), "names concealed cards TS")
    assert "view(" in message


def test_concealed_card_in_legal_actions_text() -> None:
    assert "legal_actions()" in flagged(LegalActionTextLeak(), "names concealed cards")


def test_concealed_card_in_an_error_message() -> None:
    assert "the error for" in flagged(ErrorMessageLeak(), "names concealed cards")


def test_second_copy_of_a_duplicated_card() -> None:
    message = flagged(SecondCopyLeak(), "names concealed cards", players=4, seeds=40)
    assert "view(" in message


def test_evolve_mutating_shared_state() -> None:
    flagged(SharedStateMutation(), "mutated shared state")


def test_decide_accepting_unlisted_actions() -> None:
    flagged(AcceptsUnlisted(), "is not in legal_actions() but was accepted")


def test_winner_seat_that_does_not_exist() -> None:
    flagged(BadWinner(), "winner seat that does not exist")


def test_scores_of_the_wrong_length() -> None:
    flagged(ShortScores(), "one integer per seat")


def test_winners_not_sorted_or_unique() -> None:
    flagged(UnsortedWinners(), "ascending and distinct")


def test_peek_on_play_is_flagged() -> None:
    # the peeked card is in no zone the next seat may see: the event check flags it
    flagged(PlayShowsNextSeat(), "names concealed cards")


def test_safe_undo_leaks_names_what_another_seat_learned() -> None:
    rules = PlayShowsNextSeat()
    game = Game.start(rules, rules.config(2), 3)
    after = game.play(game.legal_actions()[0])
    leaks = safe_undo_leaks(game, after)
    assert leaks and "seat" in leaks[0] and "saw" in leaks[0]
    # the correct game's plays reveal only the player's own card: nothing to report
    plain = Game.start(RULES, RULES.config(2), 3)
    assert safe_undo_leaks(plain, plain.play(plain.legal_actions()[0])) == []


def test_tokenizer() -> None:
    deck = [*standard_deck(), Card("W"), Card("N"), Card("RJ")]
    found = card_tokens("you hold QS, qs and 10s; such as As the W w N n 8h_x QS8H rj", deck)
    assert found == {Card("QS"): 2, Card("TS"): 1, Card("W"): 1, Card("N"): 1, Card("8H"): 1, Card("RJ"): 1}
    # W and N count only where the deck has them
    assert card_tokens("W N", list(standard_deck())) == {}


def test_multiset_counting() -> None:
    deck = [Card("QS"), Card("QS"), Card("2S")]
    one = {Card("QS"): 1}
    assert excess_mentions({"hand": ["QS"], "legal": ["play QS"]}, one, deck) == {}
    assert excess_mentions({"hand": ["QS", "QS"]}, one, deck) == {Card("QS"): 1}
    assert excess_mentions("QS and QS", one, deck) == {Card("QS"): 1}
    assert excess_mentions({"2S": 1}, one, deck) == {Card("2S"): 1}


def test_tampered_chance_log_is_a_consistent_stacked_log() -> None:
    game = Game.start(RULES, RULES.config(3), 5)
    while not game.is_over:
        game = game.play(game.legal_actions()[0])
    tampered = tampered_chance_log(game)
    assert tampered is not None and tampered.auto_chance and tampered.seed == game.seed
    chance = [(a.action, b.action) for a, b in zip(game.log.entries, tampered.entries) if a.actor == -1]
    assert any(x != y for x, y in chance)
    # as a supplied-chance log it replays (it is consistent); claiming auto_chance it is refused
    assert replay(RULES, attrs.evolve(tampered, auto_chance=False)).log.entries == tampered.entries
    with pytest.raises(LogError):
        replay(RULES, tampered)
