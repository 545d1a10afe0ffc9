"""Helpers for the Wizard tests: stacked decks and state-level stepping."""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

import attrs

import cardkit
from cardkit import Card, Pick, Shuffle
from cardkit.games.wizard.rules import RULES
from cardkit.games.wizard.state import DECK, WizardState


def cards(text: str) -> tuple[Card, ...]:
    """``"W N QS 10h"`` -> cards."""
    return cardkit.parse_cards(text)


def stacked_order(
    dealer: int, hands: Sequence[Sequence[Card] | str], turned: Card | str | None = None
) -> tuple[Card, ...]:
    """A shuffle order (top first) that deals ``hands[seat]`` to each seat (in order) by
    the dealing convention, then turns ``turned`` (if given); the rest of the deck follows."""
    hs = [cards(h) if isinstance(h, str) else tuple(h) for h in hands]
    n = len(hs)
    r = len(hs[0])
    assert all(len(h) == r for h in hs)
    order: list[Card] = []
    for i in range(r):
        for j in range(n):
            order.append(hs[(dealer + 1 + j) % n][i])
    if turned is not None:
        order.append(Card.parse(turned) if isinstance(turned, str) else turned)
    rest = Counter(DECK) - Counter(order)
    assert sum(rest.values()) + len(order) == len(DECK), "stacked cards are not in the deck"
    order.extend(c for c in DECK if rest[c] and not rest.subtract({c: 1}))
    assert Counter(order) == Counter(DECK)
    return tuple(order)


def new(players: int, dealer: int = 0, **options: Any) -> cardkit.Game:
    """A game stopped at its first shuffle, ``dealer`` dealing round 1."""
    g = cardkit.new_game("wizard", players=players, seed=0, auto_chance=False, **options)
    return g.play(Pick(dealer))


def deal(
    players: int,
    dealer: int,
    hands: Sequence[Sequence[Card] | str],
    turned: Card | str | None = None,
    **options: Any,
) -> cardkit.Game:
    """Round 1 dealt from a stacked deck (``len(hands[0])`` must be 1 for round 1)."""
    return new(players, dealer, **options).play(Shuffle(stacked_order(dealer, hands, turned)))


def step(state: WizardState, action: Any) -> WizardState:
    """Decide and evolve one action at the rules level."""
    for event in RULES.decide(state, action):
        state = RULES.evolve(state, event)
    return state


def at_round(players: int, rnd: int, dealer: int, **options: Any) -> WizardState:
    """A state waiting for the shuffle of round ``rnd`` with ``dealer`` dealing it."""
    config = RULES.config(players, **options)
    state = RULES.initial_state(config)
    prev_dealer = (dealer - 1) % players if rnd > 1 else dealer
    return attrs.evolve(state, phase="deal", round=rnd - 1, dealer=prev_dealer)


def play_all(game: cardkit.Game, actions: str) -> cardkit.Game:
    """Play ``;``-separated actions in order (each by the seat to act)."""
    for text in actions.split(";"):
        if text.strip():
            game = game.play_text(text)
    return game


def game_from_state(state: WizardState, seed: int = 0) -> cardkit.Game:
    """A Game (auto_chance off) whose current state is ``state`` (test scaffolding only)."""
    return cardkit.Game(RULES, state.config, seed, False, state, state, None)


def dealt_state(
    players: int,
    rnd: int,
    dealer: int,
    hands: Sequence[Sequence[Card] | str],
    turned: Card | str | None = None,
    **options: Any,
) -> WizardState:
    """The state right after round ``rnd`` was dealt from a stacked deck."""
    state = at_round(players, rnd, dealer, **options)
    return step(state, Shuffle(stacked_order(dealer, hands, turned)))
