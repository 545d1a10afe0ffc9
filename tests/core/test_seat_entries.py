"""Game.entries_for / Game.log_for / SeatEntry / SeatLog: what a host may send a seat."""

from __future__ import annotations

import json

import pytest
from tiny_game import ticked

import cardkit
from cardkit import CHANCE, IllegalActionError, LogError, SeatEntry, SeatError, SeatLog
from cardkit.core import game as game_module
from cardkit.rng import Rng
from cardkit.testing import random_playout

GAMES = (
    ("crazy-eights", 3, {}),
    ("wizard", 3, {}),
    ("cutthroat-spades", 4, {}),
    ("spacc-u-mazz", 2, {}),
)


def _played(name: str, players: int, options: dict[str, object], seed: int = 11) -> cardkit.Game:
    game = cardkit.new_game(name, players=players, seed=seed, **options)
    rng = Rng(seed)
    for _ in range(60):
        if game.is_over:
            break
        game = game.play(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_entries_for_withholds_chance_and_redacts_events(name: str, players: int, options: dict[str, object]) -> None:
    game = _played(name, players, options)
    full = game.log.entries
    for seat in (*range(players), None):
        seen = game.entries_for(seat)
        assert [e.seq for e in seen] == [e.seq for e in full]
        for mine, entry in zip(seen, full):
            assert isinstance(mine, SeatEntry)
            assert mine.actor == entry.actor
            if entry.actor == CHANCE:
                assert mine.action is None
            else:
                assert mine.action == entry.action
            expected = tuple(
                r for r in (game.rules.redact(e, seat) for e in entry.events) if r is not None
            )
            assert mine.events == expected
        assert tuple(e for entry in seen for e in entry.events) == game.events_for(seat)


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_entries_for_after_is_the_tail(name: str, players: int, options: dict[str, object]) -> None:
    game = _played(name, players, options)
    everything = game.entries_for(0)
    for after in (-1, 0, 5, len(everything) - 2, len(everything) - 1, len(everything) + 10):
        assert game.entries_for(0, after) == everything[after + 1 :]


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_seat_log_round_trips_and_has_no_seed(name: str, players: int, options: dict[str, object]) -> None:
    game = _played(name, players, options, seed=123456789)
    for seat in (0, players - 1, None):
        seat_log = game.log_for(seat)
        assert isinstance(seat_log, SeatLog)
        assert seat_log.seat == seat
        text = cardkit.dumps(seat_log)
        data = json.loads(text)
        assert data["format"] == "cardkit-seat-log"
        assert "seed" not in data and "auto_chance" not in data
        assert all(e["action"] is None for e in data["entries"] if e["actor"] == "chance")
        assert "123456789" not in text
        assert cardkit.loads_seat_log(text) == seat_log
        # the entries alone (what a host streams) round-trip too
        tail = game.entries_for(seat, 3)
        again = cardkit.serde.seat_entries_from_json(game.rules, json.loads(cardkit.dumps(tail)))
        assert again == tail


def test_seat_log_and_full_log_are_not_confused() -> None:
    game = _played("crazy-eights", 3, {})
    with pytest.raises(LogError, match="loads_seat_log"):
        cardkit.loads(cardkit.dumps(game.log_for(0)))
    with pytest.raises(LogError, match="full game log"):
        cardkit.loads_seat_log(cardkit.dumps(game.log))


def test_entries_for_checks_its_arguments() -> None:
    game = _played("crazy-eights", 3, {})
    with pytest.raises(SeatError):
        game.entries_for(3)
    with pytest.raises(SeatError):
        game.entries_for(True)  # type: ignore[arg-type]
    for bad in (-2, "3", 1.0, True):
        with pytest.raises(IllegalActionError, match="after"):
            game.entries_for(0, bad)  # type: ignore[arg-type]


class _Poison:
    """Stands in for an old node: touching it means the walk went too far back."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"entries_for walked past the entries it needed ({name})")

    def __getitem__(self, index: int) -> object:
        raise AssertionError(f"entries_for walked past the entries it needed (field {index})")


def test_entries_for_costs_only_the_new_entries() -> None:
    game = ticked(10_000)
    assert game.entry_count == 10_001
    # cut the persistent list 6 nodes back from the head: a walk of the whole game
    # would touch the poison; a walk of the new entries stops before it (nodes are
    # tuples, so the 6 newest are rebuilt on top of the poison)
    newest = []
    node = game._head
    for _ in range(6):
        assert node is not None
        newest.append(node)
        node = node[game_module._PREV]
    cut: object = _Poison()
    for kept in reversed(newest):
        cut = kept[: game_module._PREV] + (cut,) + kept[game_module._PREV + 1 :]
    game._head = cut  # type: ignore[assignment]
    tail = game.entries_for(0, after=game.entry_count - 6)
    assert [e.seq for e in tail] == list(range(9_996, 10_001))
    assert game.seat_actions == 10_000  # O(1): from the node, not a walk
    with pytest.raises(AssertionError, match="walked past"):
        game.entries_for(0, after=game.entry_count - 7)


def test_redact_action_hook_withholds_secret_seat_actions() -> None:
    from tiny_game import RULES, Peek, TickerRules, Tick

    class SecretPeeks(TickerRules):
        name = "ticker-secret-peeks"

        def redact_action(self, action: object, viewer: int | None) -> object:
            return None if isinstance(action, Peek) else action

    rules = cardkit.register(SecretPeeks())
    game = cardkit.new_game(rules.name, players=2, seed=1, length=3)
    game = game.play(Peek())
    game = game.play(Tick(0))
    seen = game.entries_for(1)
    assert [e.action for e in seen] == [None, None, Tick(0)]
    assert RULES.name == "ticker"


def test_snapshot_constant_is_unchanged() -> None:
    assert game_module.SNAPSHOT_EVERY == 32


def test_random_playout_entries_for_matches_events_for() -> None:
    game = random_playout(cardkit.new_game("wizard", players=4, seed=3), Rng(3))
    for seat in range(4):
        assert tuple(e for x in game.entries_for(seat) for e in x.events) == game.events_for(seat)
