"""Every record a game builds (states, actions, events, configs and what they hold) is
immutable, and records of different types never compare equal, even field for field."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import cardkit
from cardkit.core.rules import Pick, Shuffle
from cardkit.errors import CardkitError

GAMES = [("crazy-eights", 3), ("wizard", 4), ("cutthroat-spades", 3), ("spacc-u-mazz", 2)]


def _records(value: Any, out: dict[type, Any]) -> None:
    """Collect one instance of every attrs class reachable from ``value``."""
    if attrs.has(type(value)):
        out.setdefault(type(value), value)
        for field in attrs.fields(type(value)):
            _records(getattr(value, field.name), out)
    elif isinstance(value, (tuple, list)):
        for item in value:
            _records(item, out)


def _collect(name: str, players: int) -> dict[type, Any]:
    found: dict[type, Any] = {}
    rules = cardkit.get_rules(name)
    for seed in range(3):
        game = cardkit.new_game(name, players=players, seed=seed)
        rnd = random.Random(seed)
        while not game.is_over and game.seat_actions < 600:
            legal = game.legal_actions()
            game = game.play(legal[int(rnd.random() * len(legal))])
            _records(game.state, found)
        for entry in game.log.entries:
            _records(entry.action, found)
            _records(entry.events, found)
    assert any(t in found for t in rules.event_types)
    return found


@pytest.fixture(scope="module", params=GAMES, ids=[g for g, _ in GAMES])
def records(request: pytest.FixtureRequest) -> dict[type, Any]:
    name, players = request.param
    return _collect(name, players)


def test_no_field_of_any_record_can_be_assigned(records: dict[type, Any]) -> None:
    assert len(records) >= 5
    for cls, value in records.items():
        for field in attrs.fields(cls):
            before = getattr(value, field.name)
            with pytest.raises(AttributeError):
                setattr(value, field.name, before)
            assert getattr(value, field.name) is before
        with pytest.raises(AttributeError):
            value.not_a_field = 1


def test_records_of_different_types_never_compare_equal(records: dict[type, Any]) -> None:
    # Rebuild each record's field values as every other record class with as many fields:
    # the same values under another type must be a different record (and hash apart in
    # a dict used as a transposition table or a cache).
    classes = list(records) + [Pick, Shuffle]
    samples = dict(records)
    samples.setdefault(Pick, Pick(0))
    samples.setdefault(Shuffle, Shuffle(()))
    checked = 0
    for a in classes:
        values = [getattr(samples[a], f.name) for f in attrs.fields(a)]
        for b in classes:
            if b is a or len(attrs.fields(b)) != len(values):
                continue
            try:
                twin = b(*values)
            except (CardkitError, TypeError, ValueError):
                continue  # the class checks its fields and refuses these values
            assert samples[a] != twin and not (samples[a] == twin), (a.__name__, b.__name__)
            assert twin != samples[a]
            assert len({samples[a]: 1, twin: 2}) == 2
            checked += 1
    assert checked > 0
