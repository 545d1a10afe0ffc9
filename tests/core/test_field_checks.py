"""The field check of a ``tuple[SomeClass, ...]`` field (the cards of a play), item by item."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardkit.cards import Card, standard_deck
from cardkit.core.fields import CHECKED_ACTIONS, check_fields
from cardkit.errors import IllegalActionError


@attrs.frozen
class Meld:
    cards: tuple[Card, ...]


class MarkedCard(Card):
    """A subclass is still a Card (isinstance, as for every other class annotation)."""

    __slots__ = ()


DECK = standard_deck()


def test_a_tuple_of_cards_passes_and_is_remembered() -> None:
    meld = Meld(DECK[:3])
    check_fields(meld)
    assert CHECKED_ACTIONS.get(id(meld)) is meld
    check_fields(Meld(()))
    check_fields(Meld((MarkedCard("9S"),)))


@given(
    cards=st.lists(st.sampled_from(DECK), max_size=5),
    intruder=st.sampled_from(["9S", 9, None, True, ("9S",)]),
    where=st.integers(min_value=0, max_value=5),
)
def test_any_item_that_is_not_a_card_is_refused(cards: list[Card], intruder: object, where: int) -> None:
    items: list[object] = list(cards)
    items.insert(min(where, len(items)), intruder)
    with pytest.raises(IllegalActionError, match=r"Meld\.cards must be a tuple of Cards, not "):
        check_fields(Meld(tuple(items)))  # type: ignore[arg-type]


def test_a_list_of_cards_is_refused() -> None:
    with pytest.raises(IllegalActionError, match=r"Meld\.cards must be a tuple of Cards, not \[Card"):
        check_fields(Meld(list(DECK[:2])))  # type: ignore[arg-type]
