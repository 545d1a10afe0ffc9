"""Hypothesis over text, JSON and action fields: only cardkit errors, and the game unchanged.

Long mode (``CARDKIT_LONG=1``) loads the ``long`` hypothesis profile (2,000 examples each).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardkit
from cardkit.cards import Card
from cardkit.core.game import Game
from cardkit.errors import CardkitError
from cardkit.rng import Rng
from cardkit.testing import random_playout

NAMES = ["crazy-eights", "wizard", "cutthroat-spades", "spacc-u-mazz"]
OPTIONS: dict[str, dict[str, Any]] = {"cutthroat-spades": {"max_hands": 1, "wins_needed": 1}}


def midgame(name: str, moves: int = 6) -> Game:
    game = cardkit.new_game(name, players=3, seed=17, **OPTIONS.get(name, {}))
    return random_playout(game, Rng.stream(17, 1), moves)


GAMES = {name: midgame(name) for name in NAMES}
LOG_TEXT = {name: cardkit.dumps(game.log) for name, game in GAMES.items()}
STATES = {name: copy.deepcopy(game.state) for name, game in GAMES.items()}
CODES = sorted(Card._interned)

card_like = st.sampled_from(CODES) | st.sampled_from([c.lower() for c in CODES]) | st.text(max_size=4)
words = st.sampled_from(["play", "bid", "draw", "pass", "take", "look", "blind", "nil", "trump", "remove",
                         "dump", "keep", "decline", "pick", "shuffle", "up:", "down:", "S", "H", "10"])
typed = st.lists(words | card_like | st.integers(-5, 99).map(str), max_size=5).map(" ".join) | st.text(max_size=40)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8) | st.sampled_from(CODES),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
field_values = (
    st.none() | st.booleans() | st.integers(-3, 70) | st.integers() | st.text(max_size=6) | st.sampled_from(CODES)
    | st.sampled_from([Card(c) for c in CODES]) | st.lists(st.sampled_from([Card(c) for c in CODES]), max_size=4).map(tuple)
    | st.lists(st.sampled_from(CODES), max_size=3) | st.floats(allow_nan=False)
)


def unchanged(name: str) -> None:
    game = GAMES[name]
    assert cardkit.dumps(game.log) == LOG_TEXT[name]
    assert game.state == STATES[name]


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=60)
@given(text=typed)
def test_typed_text_raises_only_cardkit_errors(name: str, text: str) -> None:
    game = GAMES[name]
    try:
        after = game.play_text(text)
    except CardkitError:
        pass
    else:
        assert after.log.entries[len(game.log.entries)].action in game.legal_actions()
    try:
        game.rules.parse_action(text)
    except CardkitError:
        pass
    unchanged(name)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=30)
@given(data=st.data())
def test_mutated_json_raises_only_log_errors(name: str, data: st.DataObject) -> None:
    envelope = json.loads(LOG_TEXT[name])
    target = data.draw(st.sampled_from(["config", "entries", "seed", "format_version", "rules_version", "whole"]))
    value = data.draw(json_values)
    if target == "whole":
        text = json.dumps(value)
    else:
        if target == "entries" and envelope["entries"] and data.draw(st.booleans()):
            index = data.draw(st.integers(0, len(envelope["entries"]) - 1))
            key = data.draw(st.sampled_from(["seq", "actor", "action", "events"]))
            envelope["entries"][index][key] = value
        else:
            envelope[target] = value
        text = json.dumps(envelope)
    try:
        cardkit.replay(cardkit.loads(text))
    except cardkit.LogError:
        pass
    unchanged(name)


@settings(max_examples=200)
@given(data=st.data())
def test_actions_with_arbitrary_fields_raise_only_cardkit_errors(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(NAMES))
    game = GAMES[name]
    cls = data.draw(st.sampled_from(list(game.rules.action_types)))
    values = {f.name: data.draw(field_values) for f in attrs.fields(cls)}
    try:
        action = cls(**values)
    except (CardkitError, TypeError, ValueError, AttributeError):
        return  # the constructor (a converter) refused the values: nothing reaches the game
    try:
        after = game.play(action)
    except CardkitError:
        pass
    else:
        assert action in game.legal_actions(), f"{action!r} was accepted but is not legal"
        assert cardkit.replay(cardkit.loads(cardkit.dumps(after.log))) == after
    unchanged(name)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=60)
@given(data=st.data())
def test_well_typed_actions_raise_only_cardkit_errors(name: str, data: st.DataObject) -> None:
    # fields of the right type with arbitrary values: this must hold already
    game = GAMES[name]
    cls = data.draw(st.sampled_from(list(game.rules.action_types)))
    values: dict[str, Any] = {}
    for field in attrs.fields(cls):
        sample = next((getattr(a, field.name) for a in game.rules.action_space(game.config) if type(a) is cls), None) \
            if hasattr(game.rules, "action_space") else None
        values[field.name] = data.draw(_like(sample, field.type))
    try:
        action = cls(**values)
    except (CardkitError, TypeError, ValueError):
        return
    try:
        game.play(action)
    except CardkitError:
        pass
    unchanged(name)


def _like(sample: Any, annotation: Any) -> st.SearchStrategy[Any]:
    text = str(annotation)
    if "tuple" in text and "Card" in text:
        return st.lists(st.sampled_from([Card(c) for c in CODES]), max_size=4).map(tuple)
    if "Card" in text:
        return st.sampled_from([Card(c) for c in CODES])
    if "bool" in text:
        return st.booleans()
    if "int" in text:
        return st.integers(-3, 70)
    if "Suit" in text:
        return st.sampled_from(["S", "H", "D", "C"]) | st.none()
    return st.sampled_from(["nil", "blind_nil", "S", "H"]) if sample is None else st.just(sample)
