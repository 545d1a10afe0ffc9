"""A SeatState reaches nothing of the host's secrets, and it cannot be changed (issue 24, item 3).

A bot holds its seat state; Python hides nothing, so everything the seat state references,
however indirectly (closure cells, bound methods, private slots), is what the bot can read.
The walk (:func:`cardkit.testing.reach.secrets_reachable`) must find no ``Game``, no true
state or log node, no chance ``Shuffle`` and no seed.
"""

from __future__ import annotations

import copy
import pickle
import random
import weakref
from typing import Any

import pytest

import cardkit
from cardkit.core.seat import SeatState
from cardkit.testing.reach import reachable, secrets_reachable

SEED = 2**63 + 987_654_321  # far from any int a game holds for its own reasons

GAMES = [
    ("crazy-eights", 3, {}),
    ("wizard", 3, {"rounds": 3}),
    ("cutthroat-spades", 4, {"max_hands": 1, "wins_needed": 1}),
    ("spacc-u-mazz", 2, {"max_turns": 60}),
]


def _positions(name: str, players: int, options: dict[str, Any]) -> list[cardkit.Game]:
    """The start, a few positions along a random game, and its end (or its last position)."""
    rng = random.Random(7)
    game = cardkit.new_game(name, players=players, seed=SEED, **options)
    found = [game]
    moves = 0
    while not game.is_over and moves < 400:
        game = game.play(rng.choice(game.legal_actions()))
        moves += 1
        if moves in (1, 17, 40, 90):
            found.append(game)
    found.append(game)
    return found


def _touch_everything(ss: SeatState) -> None:
    """Fill every lazy cache, so that the walk sees what a busy bot would hold."""
    ss.view, ss.events, ss.entries, ss.constraints, ss.masked, ss.is_my_turn  # noqa: B018
    if ss.to_act is not None:
        ss.sample(random.Random(3))


@pytest.mark.parametrize(("name", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_seat_state_reaches_no_secret(name: str, players: int, options: dict[str, Any]) -> None:
    for game in _positions(name, players, options):
        for seat in range(players):
            ss = game.seat_state(seat)
            assert secrets_reachable([ss], game) == []
            _touch_everything(ss)
            assert secrets_reachable([ss], game) == []


def test_the_seat_state_is_still_what_the_seat_knows() -> None:
    rng = random.Random(2)
    game = cardkit.new_game("wizard", players=4, seed=SEED, rounds=3)
    for _ in range(25):
        game = game.play(rng.choice(game.legal_actions()))
    for seat in range(4):
        ss = game.seat_state(seat)
        assert ss.entries == game.entries_for(seat)
        assert ss.events == game.events_for(seat)
        assert ss.view == game.view(seat)
        assert ss.legal_actions == (game.legal_actions() if game.to_act == seat else ())


def test_seat_histories_follow_branches_and_undo() -> None:
    # The redacted history is extended move by move along one line of play; a branch, an
    # undo or a replayed game must still get exactly its own entries.
    rng = random.Random(5)
    game = cardkit.new_game("crazy-eights", players=3, seed=SEED)
    games = [game]
    for _ in range(40):
        if game.is_over:
            break
        game = game.play(rng.choice(game.legal_actions()))
        games.append(game)
    order = games[::3] + games[1::4] + [g.undo(2) for g in games[10:14]] + [cardkit.replay(games[-1].log)]
    for g in order + order[::-1]:
        for seat in range(3):
            ss = g.seat_state(seat)
            assert ss.entries == g.entries_for(seat)
            assert ss.events == g.events_for(seat)


@pytest.mark.parametrize(
    "name",
    ["seat", "rules", "config", "to_act", "legal_actions", "view", "events", "entries",
     "masked", "constraints", "is_my_turn", "_masked", "_events", "_view", "anything"],
)  # fmt: skip
def test_a_seat_state_cannot_be_changed(name: str) -> None:
    game = cardkit.new_game("crazy-eights", players=2, seed=SEED)
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    before = (ss.seat, ss.to_act, ss.legal_actions, ss.events, ss.entries, ss.masked)
    with pytest.raises(AttributeError):
        setattr(ss, name, None)
    with pytest.raises(AttributeError):
        delattr(ss, name)
    assert (ss.seat, ss.to_act, ss.legal_actions, ss.events, ss.entries, ss.masked) == before


def test_a_seat_state_copies_and_pickles_without_the_game() -> None:
    rng = random.Random(4)
    game = cardkit.new_game("cutthroat-spades", players=3, seed=SEED, max_hands=1, wins_needed=1)
    for _ in range(12):
        game = game.play(rng.choice(game.legal_actions()))
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    for twin in (pickle.loads(pickle.dumps(ss)), copy.deepcopy(ss), copy.copy(ss)):
        assert (twin.seat, twin.to_act, twin.legal_actions) == (ss.seat, ss.to_act, ss.legal_actions)
        assert (twin.events, twin.entries, twin.masked, twin.view) == (ss.events, ss.entries, ss.masked, ss.view)
        assert twin.sample(random.Random(1)) == ss.sample(random.Random(1))
        assert secrets_reachable([twin], game) == []


# ------------------------------------------------------------------ the walk itself


def test_the_walk_finds_secrets_however_they_are_held() -> None:
    # The check is only as good as the walk: closures, bound methods, weak references,
    # slots, containers and a bare seed must all be found.
    game = cardkit.new_game("crazy-eights", players=2, seed=SEED)

    class Holder:
        __slots__ = ("x",)

        def __init__(self, x: object) -> None:
            self.x = x

        def method(self) -> None:
            pass

    class Ref:
        pass

    ref_target = Ref()
    ref_target.__dict__["game"] = game
    held = {
        "closure": lambda: game,
        "bound method": Holder(game).method,
        "slot": Holder(game.state),
        "weakref": weakref.ref(ref_target),
        "seed in a list": [1, 2, SEED],
        "log node": [game._head],
        "a default": (lambda g=game: g),
    }
    for what, obj in held.items():
        assert secrets_reachable([obj], game) != [], what
    assert secrets_reachable([[1, 2, 3], {"a": (4, 5)}, "text"], game) == []


def test_the_walk_does_not_enter_modules_or_classes() -> None:
    # A bot can import any module anyway: module globals are not what its input reaches.
    import cardkit.core.game as module

    walked = [obj for obj, _ in reachable(module, SeatState, len)]
    assert walked == [module, SeatState, len, len.__self__]  # len's __self__: builtins


def test_a_seat_state_per_move_redacts_only_the_new_entries() -> None:
    # Building the redacted history when the seat state is made must not make a bot's
    # game quadratic: along one line of play, each seat's history is extended, not
    # rebuilt. Counted in calls to rules.redact (the per-event cost), not in seconds.
    from cardkit.core.game import Game
    from cardkit.games.crazy_eights.rules import CrazyEightsRules

    calls = [0]

    class Counting(CrazyEightsRules):
        def redact(self, event: Any, viewer: int | None) -> Any:
            calls[0] += 1
            return super().redact(event, viewer)

    rules = Counting()
    game = Game.start(rules, rules.config(3), SEED)
    rng = random.Random(8)
    moves = 0
    while not game.is_over and moves < 150:
        seat = game.to_act
        assert seat is not None
        ss = game.seat_state(seat)
        assert ss.events == game.events_for(seat)  # the check itself redacts: not counted
        calls[0] -= sum(len(e.events) for e in game._entries())
        game = game.play(rng.choice(ss.legal_actions))
        moves += 1
    total_events = sum(len(e.events) for e in game._entries())
    assert moves > 60
    # each seat redacts each event at most once (3 seats); a rebuild per move would be
    # about moves / 2 times that
    assert 0 < calls[0] <= 3 * total_events
