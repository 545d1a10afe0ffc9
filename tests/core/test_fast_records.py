"""cardkit.core.records: game states built by plain slot stores are exactly the records
their class builds (same class, equal, hashed alike, immutable, pickled and serialised
alike), and the fast paths refuse classes they would build wrongly."""

from __future__ import annotations

import pickle
import random
from typing import Any

import attrs
import pytest
from attrs.exceptions import FrozenInstanceError
from hypothesis import given, settings
from hypothesis import strategies as st

import cardkit
from cardkit.core.records import maker, replacer
from cardkit.serde import dumps_state, loads_state

GAMES = [("crazy-eights", 3), ("wizard", 4), ("cutthroat-spades", 3), ("spacc-u-mazz", 2)]


def _states(name: str, players: int, seed: int, limit: int = 400) -> list[Any]:
    game = cardkit.new_game(name, players=players, seed=seed)
    rnd = random.Random(seed)
    states = [game.state]
    while not game.is_over and game.seat_actions < limit:
        legal = game.legal_actions()
        game = game.play(legal[int(rnd.random() * len(legal))])
        states.append(game.state)
    return states


@pytest.mark.parametrize("name,players", GAMES)
def test_states_of_a_played_game_are_exactly_their_class(name: str, players: int) -> None:
    rules = cardkit.get_rules(name)
    cls = type(rules.initial_state(rules.config(players)))
    make, replace = maker(cls), replacer(cls)
    for state in _states(name, players, seed=7)[::7]:
        assert type(state) is cls
        values = [getattr(state, f.name) for f in attrs.fields(cls)]
        built = cls(*values)
        fast = make(*values)
        assert type(fast) is cls
        assert fast == built and built == fast and hash(fast) == hash(built)
        assert repr(fast) == repr(built)
        with pytest.raises(FrozenInstanceError):
            fast.config = state.config  # type: ignore[misc]
        assert pickle.loads(pickle.dumps(fast)) == built
        assert loads_state(rules, dumps_state(rules, fast)) == built
        assert dumps_state(rules, fast) == dumps_state(rules, built)
        # every field replaced on its own, against attrs.evolve
        for field in attrs.fields(cls):
            other = getattr(_states(name, players, seed=8, limit=20)[-1], field.name)
            assert replace(state, **{field.name: other}) == attrs.evolve(state, **{field.name: other})
        assert replace(state) == state and replace(state) is not state


@pytest.mark.parametrize("name,players", GAMES)
def test_a_class_of_the_same_fields_never_equals_the_state(name: str, players: int) -> None:
    rules = cardkit.get_rules(name)
    state = rules.initial_state(rules.config(players))
    cls = type(state)
    values = [getattr(state, f.name) for f in attrs.fields(cls)]
    lookalike = attrs.frozen(weakref_slot=False)(
        type("Lookalike", (), {"__annotations__": {f.name: Any for f in attrs.fields(cls)}})
    )
    other = maker(lookalike)(*values)
    assert type(other) is lookalike and type(maker(cls)(*values)) is cls
    assert other != state and state != other and not (state == other)
    assert maker(cls)(*values) == state
    assert state != tuple(values)


@attrs.frozen(weakref_slot=False)
class _Record:
    """A record the fast paths build."""

    a: int
    b: tuple[int, ...]
    c: str | None


@attrs.frozen(weakref_slot=False)
class _Other:
    """Another record with the same fields."""

    a: int
    b: tuple[int, ...]
    c: str | None


@given(st.integers(), st.lists(st.integers(), max_size=4).map(tuple), st.none() | st.text(max_size=5))
@settings(max_examples=60, deadline=None)
def test_maker_and_replacer_agree_with_the_class(a: int, b: tuple[int, ...], c: str | None) -> None:
    make, replace = maker(_Record), replacer(_Record)
    built = make(a, b, c)
    assert type(built) is _Record and built == _Record(a, b, c)
    assert make(a, b, c) != maker(_Other)(a, b, c)
    assert replace(built, c="x") == attrs.evolve(built, c="x") == _Record(a, b, "x")
    assert replace(built, a=a + 1, b=()) == _Record(a + 1, (), c)
    assert built == _Record(a, b, c)  # replacing made a copy
    with pytest.raises(FrozenInstanceError):
        built.a = 0  # type: ignore[misc]
    with pytest.raises(TypeError):
        replace(built, d=1)


@attrs.frozen
class _WithWeakref:
    """A frozen attrs class with a __weakref__ slot (Python will not switch its class)."""

    a: int


@attrs.frozen(weakref_slot=False)
class _Converted:
    """Its field has a converter the fast paths would skip."""

    a: int = attrs.field(converter=int)


@attrs.frozen(weakref_slot=False)
class _Validated:
    """Its field has a validator the fast paths would skip."""

    a: int = attrs.field(validator=attrs.validators.instance_of(int))


@attrs.frozen(weakref_slot=False)
class _Derived(_Record):
    """A subclass (its slots are split between two classes)."""

    d: int


@attrs.frozen(weakref_slot=False)
class _PostInit:
    """Has an __attrs_post_init__ the fast paths would skip."""

    a: int

    def __attrs_post_init__(self) -> None:
        pass


@attrs.frozen(weakref_slot=False, slots=False)
class _DictBased:
    """No slots at all."""

    a: int


class _NotAttrs:
    pass


@pytest.mark.parametrize(
    "cls", [_WithWeakref, _Converted, _Validated, _Derived, _PostInit, _DictBased, _NotAttrs]
)
def test_the_fast_paths_refuse_classes_they_would_build_wrongly(cls: type) -> None:
    with pytest.raises(TypeError):
        maker(cls)
    with pytest.raises(TypeError):
        replacer(cls)
