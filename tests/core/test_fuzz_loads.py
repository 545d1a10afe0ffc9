"""Mutated logs: loading and replaying them raises only cardkit errors (a bounded slice;
CARDKIT_LONG=1 runs the hypothesis long profile)."""

from __future__ import annotations

import json
import os
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import cardkit
from cardkit import LogError
from cardkit.rng import Rng
from cardkit.testing import random_playout

_EXAMPLES = 3000 if os.environ.get("CARDKIT_LONG") == "1" else 80

_GAME = random_playout(cardkit.new_game("crazy-eights", players=3, seed=4), Rng(4), max_seat_actions=40)
_DATA = json.loads(cardkit.dumps(_GAME.log))

_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.sampled_from(["QS", "qs", "10S", "7D ", "chance", "pick", "shuffle", "card_played", "draw"]),
    st.lists(st.integers(0, 60), max_size=3),
    st.builds(dict),
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, prefix + (i,))
    return out


_ALL_PATHS = [p for p in _paths(_DATA) if p]


def _set(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


@settings(max_examples=_EXAMPLES)
@given(st.lists(st.tuples(st.sampled_from(_ALL_PATHS), _VALUES), min_size=1, max_size=3))
def test_mutated_logs_raise_only_log_errors(mutations: list[tuple[tuple[Any, ...], Any]]) -> None:
    data = json.loads(json.dumps(_DATA))
    for path, value in mutations:
        try:
            _set(data, path, value)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed the path
    text = json.dumps(data)
    try:
        log = cardkit.loads(text)
        game = cardkit.replay(log)
    except LogError:
        return
    # accepted: then the mutation could not have changed the game (dropping entries from
    # the end leaves a valid log of an earlier point of the same game)
    entries = game.log.entries
    assert entries == _GAME.log.entries[: len(entries)]
    if len(entries) == len(_GAME.log.entries):
        assert game.state == _GAME.state


@settings(max_examples=_EXAMPLES)
@given(st.text(max_size=200))
def test_random_text_is_a_log_error(text: str) -> None:
    try:
        cardkit.loads(text)
    except LogError:
        pass
