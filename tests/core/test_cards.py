import copy
import pickle

import pytest

from cardkit import Card, NotationError, parse_cards, sort_cards, standard_deck
from cardkit.cards import SPECIAL_CODES


def test_every_card_round_trips_through_notation() -> None:
    for card in Card.all():
        assert Card.parse(str(card)) is card
        assert Card(card.code) is card


@pytest.mark.parametrize(
    "text,code",
    [("qs", "QS"), ("10h", "TH"), ("10H", "TH"), (" th ", "TH"), ("aC", "AC"), ("w", "W"), ("n", "N"), ("rj", "RJ")],
)
def test_parse_is_case_insensitive_and_accepts_10(text: str, code: str) -> None:
    assert Card.parse(text).code == code


@pytest.mark.parametrize("text", ["", "1S", "QX", "11H", "S", "QSS", "JJ"])
def test_malformed_cards_raise_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        Card.parse(text)


def test_constructor_needs_a_canonical_code() -> None:
    with pytest.raises(NotationError):
        Card("qs")
    with pytest.raises(NotationError):
        Card("10H")


def test_cards_are_immutable_and_interned() -> None:
    card = Card("QS")
    with pytest.raises(AttributeError):
        card.rank = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.deepcopy(card) is card


def test_rank_and_suit() -> None:
    assert (Card("AS").rank, Card("AS").suit) == (14, "S")
    assert (Card("TD").rank, Card("2C").rank) == (10, 2)
    for code in SPECIAL_CODES:
        assert Card(code).is_special and Card(code).suit is None and Card(code).rank == 0


def test_standard_deck_and_display_order() -> None:
    deck = standard_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    assert len(standard_deck(2)) == 104
    assert [c.code for c in sort_cards(parse_cards("2C AS W 3H 2S"))] == ["W", "2S", "AS", "3H", "2C"]
