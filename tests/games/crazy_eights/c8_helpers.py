"""Deck stacking for Crazy Eights scenario tests."""

from __future__ import annotations

from typing import Any, Sequence

import cardkit
from cardkit import Card, Pick, Shuffle, parse_cards, standard_deck


def stacked_order(
    players: int, dealer: int, hands: Sequence[str], starter: str, stock: str = "", decks: int = 1
) -> tuple[Card, ...]:
    """A shuffle order that deals ``hands[seat]`` to each seat, turns ``starter`` and puts
    ``stock`` (top first) next; the rest of the pack follows in deck order."""
    parsed = [parse_cards(h) for h in hands]
    size = len(parsed[0])
    assert all(len(h) == size for h in parsed)
    order: list[Card] = []
    for r in range(size):
        for i in range(players):
            order.append(parsed[(dealer + 1 + i) % players][r])
    order += parse_cards(starter) + parse_cards(stock)
    rest = list(standard_deck(decks))
    for card in order:
        rest.remove(card)
    return tuple(order + rest)


def stacked_game(
    players: int,
    hands: Sequence[str],
    starter: str,
    stock: str = "",
    dealer: int | None = None,
    **options: Any,
) -> cardkit.Game:
    """A manual-chance game whose first hand is stacked; dealer defaults to the last seat
    (so seat 0 plays first)."""
    dealer = players - 1 if dealer is None else dealer
    options.setdefault("hand_size", len(parse_cards(hands[0])))
    game = cardkit.new_game("crazy-eights", players=players, seed=0, auto_chance=False, **options)
    game = game.play(Pick(dealer))
    return game.play(Shuffle(stacked_order(players, dealer, hands, starter, stock, game.config.decks)))


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)
