"""The store contract, run against memory, SQLite and PostgreSQL alike."""

from __future__ import annotations

from typing import Any

import json
import threading
import time
from pathlib import Path

import pytest

import cardkit
import cardkit.store
from cardkit.core.log import LogEntry
from cardkit.errors import (
    ConcurrencyError,
    ConfigError,
    IllegalActionError,
    LogError,
    NotationError,
    NotYourTurnError,
    ReplayMismatchError,
    SeatError,
)
from cardkit.rng import Rng
from cardkit.store import MatchExistsError, UnknownMatchError

from .conftest import store_url
from .helpers import PLAYERS, random_moves, wait_for_a_move

HOSTILE_IDS = [
    "x'; DROP TABLE cardkit_entries; --",
    'quote"s and \\ backslash',
    "?",
    "%s %(x)s",
    "ünïcødé 🂡",
    "a" * 200,
    " ",
]


def test_create_load_play_round_trip(store: cardkit.store.Store) -> None:
    for name, players in sorted(PLAYERS.items()):
        game = cardkit.new_game(name, players=players, seed=11)
        match_id = store.create(game)
        assert store.load(match_id).state == game.state
        rng = Rng(5)
        expected = game
        for _ in range(40):
            if expected.is_over:
                break
            legal = expected.legal_actions()
            action = legal[rng.below(len(legal))]
            expected = expected.play(action)
            played = store.play(match_id, action)
            assert played.state == expected.state
            assert played.to_act == expected.to_act
        loaded = store.load(match_id)
        assert loaded.state == expected.state
        assert loaded.legal_actions() == expected.legal_actions()
        assert store.log(match_id) == expected.log
        assert cardkit.replay(store.log(match_id)).state == expected.state
        info = store.info(match_id)
        assert (info.game, info.entries, info.is_over) == (name, len(expected.log.entries), expected.is_over)


def test_load_replays_at_most_the_snapshot_interval(url: str) -> None:
    with cardkit.store.open(url, snapshot_every=8, cache_size=0) as store:
        game = cardkit.new_game("crazy-eights", players=4, seed=3)
        game, _ = random_moves(game, Rng(1), 60)
        match_id = store.create(game)
        loaded = store.load(match_id)
        assert loaded.state == game.state
        # what load re-decided (the entries held in memory) is the tail after the snapshot
        assert 1 <= _tail_in_memory(loaded) <= 8
        # ... while its log is the whole log, fetched from the store when asked for
        assert loaded.log == game.log
        game2, moves = random_moves(game, Rng(2), 30)
        for move in moves:
            store.play(match_id, move)
        again = store.load(match_id)
        assert again.state == game2.state and _tail_in_memory(again) <= 8
        assert again.log == game2.log


def _tail_in_memory(game: cardkit.Game) -> int:
    """How many entries the game holds itself (a loaded game fetches older ones lazily)."""
    count, node = 0, game._head  # type: ignore[attr-defined]
    while node is not None:
        count, node = count + 1, node[4]
    return count


def test_play_accepts_notation_and_checks_seat(store: cardkit.store.Store) -> None:
    game = cardkit.new_game("wizard", players=3, seed=2)
    match_id = store.create(game, match_id="w1")
    seat = game.to_act
    assert seat is not None
    text = str(game.legal_actions()[0])
    with pytest.raises(NotYourTurnError):
        store.play(match_id, text, seat=(seat + 1) % 3)
    with pytest.raises(NotationError):
        store.play(match_id, "fly to the moon", seat=seat)
    with pytest.raises(SeatError):
        store.play(match_id, text, seat=7)
    after = store.play(match_id, text, seat=seat)
    assert after.state == game.play(game.legal_actions()[0]).state


def test_illegal_move_writes_nothing(store: cardkit.store.Store) -> None:
    game = cardkit.new_game("crazy-eights", players=3, seed=4)
    match_id = store.create(game)
    before = store.log(match_id)
    other = cardkit.new_game("wizard", players=3, seed=4)
    with pytest.raises(IllegalActionError):
        store.play(match_id, other.legal_actions()[0])
    # seed 4: seat to act holds 6S 7H 3C 4C 5C and may play only 6S (or draw)
    assert {str(a) for a in game.legal_actions()} == {"play 6S", "draw"}
    for illegal in ("play 7H", "play AS"):
        with pytest.raises(IllegalActionError):
            store.play(match_id, illegal, seat=game.to_act)
    assert store.log(match_id) == before
    assert store.info(match_id).entries == len(before.entries)


def test_expected_seq_is_the_concurrency_check(store: cardkit.store.Store) -> None:
    game = cardkit.new_game("crazy-eights", players=3, seed=9)
    match_id = store.create(game)
    seq = store.info(match_id).last_seq
    action = game.legal_actions()[0]
    store.play(match_id, action, expected_seq=seq)
    with pytest.raises(ConcurrencyError):
        store.play(match_id, game.legal_actions()[-1], expected_seq=seq)
    with pytest.raises(ConcurrencyError):
        store.append(match_id, list(game.play(action).log.entries[seq + 1 :]), expected_seq=seq)
    assert store.log(match_id) == game.play(action).log


def test_append_verifies_entries(store: cardkit.store.Store) -> None:
    game = cardkit.new_game("spacc-u-mazz", players=2, seed=21)
    match_id = store.create(game)
    seq = len(game.log.entries) - 1
    later, _ = random_moves(game, Rng(3), 5)
    new = list(later.log.entries[seq + 1 :])
    # a forged event, a wrong seq, a chance entry of an auto_chance match: refused, nothing written
    forged = [LogEntry(new[0].seq, new[0].actor, new[0].action, ())] + new[1:]
    with pytest.raises(ReplayMismatchError):
        store.append(match_id, forged, expected_seq=seq)
    with pytest.raises(LogError):
        store.append(match_id, [LogEntry(seq + 5, *[getattr(new[0], f) for f in ("actor", "action", "events")])], expected_seq=seq)
    assert store.info(match_id).last_seq == seq
    appended = store.append(match_id, new, expected_seq=seq)
    assert appended.state == later.state
    assert store.log(match_id) == later.log


def test_append_checks_chance_against_the_seed(store: cardkit.store.Store) -> None:
    manual = cardkit.new_game("crazy-eights", players=3, seed=5, auto_chance=False)
    match_id = store.create(manual)
    spec = manual.pending_chance()
    stacked = manual.play(cardkit.Pick(spec.n - 1))  # type: ignore[union-attr]
    # a game without auto_chance takes supplied chance entries
    store.append(match_id, list(stacked.log.entries), expected_seq=-1)
    assert store.load(match_id).state == stacked.state
    auto = cardkit.new_game("crazy-eights", players=3, seed=5)
    auto_id = store.create(auto)
    entries = list(auto.log.entries)
    assert entries[0].actor == cardkit.CHANCE
    store.delete(auto_id)
    with cardkit.store.open("memory:") as fresh:
        # an auto_chance log whose chance differs from the seed is refused on import
        log = auto.log
        wrong = [LogEntry(0, cardkit.CHANCE, cardkit.Pick((log.entries[0].action.index + 1) % 3),
                          log.entries[0].events)]
        import attrs
        with pytest.raises(LogError):
            fresh.import_log(attrs.evolve(log, entries=tuple(wrong) + log.entries[1:]))


def test_unknown_and_hostile_match_ids(store: cardkit.store.Store) -> None:
    with pytest.raises(UnknownMatchError):
        store.load("nope")
    with pytest.raises(UnknownMatchError):
        store.play("nope", "draw")
    with pytest.raises(UnknownMatchError):
        store.entries_for("nope", None)
    with pytest.raises(UnknownMatchError):
        store.delete("nope")
    with pytest.raises(UnknownMatchError):
        store.wait("nope", -1, 0)
    with pytest.raises(UnknownMatchError):
        store.load(42)  # type: ignore[arg-type]
    game = cardkit.new_game("crazy-eights", players=3, seed=1)
    for match_id in HOSTILE_IDS:
        assert store.create(game, match_id=match_id) == match_id
        assert store.load(match_id).state == game.state
        store.play(match_id, str(game.legal_actions()[0]))
    assert [m.match_id for m in store.matches()] == HOSTILE_IDS
    with pytest.raises(MatchExistsError):
        store.create(game, match_id=HOSTILE_IDS[0])
    for bad in ["", "a" * 201, "nul\x00byte", 7]:
        with pytest.raises(ConfigError):
            store.create(game, match_id=bad)  # type: ignore[arg-type]
    store.delete(HOSTILE_IDS[0])
    assert [m.match_id for m in store.matches()] == HOSTILE_IDS[1:]
    with pytest.raises(UnknownMatchError):
        store.load(HOSTILE_IDS[0])


def test_matches_lists_and_filters(store: cardkit.store.Store) -> None:
    ids = []
    for i, name in enumerate(["wizard", "crazy-eights", "wizard"]):
        ids.append(store.create(cardkit.new_game(name, players=3, seed=i), match_id=f"m{i}"))
    over = cardkit.new_game("crazy-eights", players=3, seed=8)
    over, _ = random_moves(over, Rng(0), 10_000)
    assert over.is_over
    store.create(over, match_id="done")
    assert [m.match_id for m in store.matches()] == ["m0", "m1", "m2", "done"]
    assert [m.match_id for m in store.matches(game="wizard")] == ["m0", "m2"]
    assert [m.match_id for m in store.matches(finished=True)] == ["done"]
    assert [m.match_id for m in store.matches(game="crazy-eights", finished=False)] == ["m1"]
    assert [m.match_id for m in store.matches(limit=2)] == ["m0", "m1"]
    assert store.matches(game="x'; --") == ()
    with pytest.raises(ConfigError):
        store.matches(limit=-1)


def test_entries_for_is_redacted_and_has_no_seed(store: cardkit.store.Store) -> None:
    seed = 2**64 - 1
    game = cardkit.new_game("crazy-eights", players=3, seed=seed)
    game, _ = random_moves(game, Rng(7), 25)
    match_id = store.create(game)
    assert store.log(match_id).seed == seed
    for seat in (None, 0, 1, 2):
        entries = store.entries_for(match_id, seat)
        assert [e.seq for e in entries] == list(range(len(game.log.entries)))
        for entry, full in zip(entries, game.log.entries):
            if full.actor == cardkit.CHANCE:
                assert entry.action is None
            else:
                assert entry.action == full.action
            redacted = tuple(
                x for x in (game.rules.redact(e, seat) for e in full.events) if x is not None
            )
            assert entry.events == redacted
        text = cardkit.dumps([e.events for e in entries]) + repr(entries)
        assert str(seed) not in text
        tail = store.entries_for(match_id, seat, after=20)
        assert [e.seq for e in tail] == list(range(21, len(game.log.entries)))
        # the same stream a Game gives, from the store
        assert entries == game.entries_for(seat)
        assert tail == game.entries_for(seat, after=20)
    assert str(seed) not in repr(store.info(match_id)) + repr(store.matches())
    with pytest.raises(SeatError):
        store.entries_for(match_id, 3)


def test_wait_wakes_on_append(store: cardkit.store.Store) -> None:
    game = cardkit.new_game("crazy-eights", players=3, seed=12)
    match_id = store.create(game)
    last = store.info(match_id).last_seq
    assert store.wait(match_id, last - 1, 5) == last  # already there: no wait
    start = time.monotonic()
    assert store.wait(match_id, last, 0.2) == last  # times out
    assert time.monotonic() - start >= 0.19

    newest, waited = wait_for_a_move(store, match_id, last, game.legal_actions()[0])
    assert newest > last
    assert waited < 5


def test_rules_version_and_bad_snapshots_are_ignored(url: str, backend: str) -> None:
    import attrs

    from cardkit.store.chain import seal_snapshot

    game = cardkit.new_game("wizard", players=4, seed=13)
    game, _ = random_moves(game, Rng(4), 50)
    with cardkit.store.open(url, snapshot_every=8, cache_size=0) as store:
        match_id = store.create(game)
        be: Any = store._backend  # type: ignore[attr-defined]

        def rewrite(change: Any) -> None:
            # snapshots rewritten as the store would write them (hashes and all): states
            # that no longer read, or another rules_version -- a cache to ignore, not a break
            with be.write() as s:
                s.put_snapshots(match_id, [seal_snapshot(change(x), x.entry_hash) for x in s.snapshots(match_id)])

        rewrite(lambda snap: attrs.evolve(snap, state="{garbage"))
        assert store.load(match_id).state == game.state
        rewrite(lambda snap: attrs.evolve(snap, state=snap.state, rules_version=snap.rules_version + 1))
        loaded = store.load(match_id)
        assert loaded.state == game.state
        assert _tail_in_memory(loaded) == len(game.log.entries)  # no usable snapshot: replayed from the start


def test_corrupt_entry_is_a_log_error_naming_match_and_seq(url: str, backend: str) -> None:
    if backend == "memory":
        pytest.skip("rows of the memory store are not reachable from outside")
    game = cardkit.new_game("crazy-eights", players=3, seed=14)
    game, _ = random_moves(game, Rng(4), 12)
    with cardkit.store.open(url, snapshot_every=1000, cache_size=0) as store:
        match_id = store.create(game, match_id="bad'one")
        _sql(url, "UPDATE cardkit_entries SET events = ? WHERE seq = ?", ('[{"type": "nope"}]', 5))
        for read in (store.load, store.log, lambda m: store.entries_for(m, 0)):
            with pytest.raises(LogError, match=r"bad'one.*entry 5"):
                read(match_id)


def test_newer_schema_is_refused(url: str, backend: str) -> None:
    if backend == "memory":
        pytest.skip("the memory store has no schema")
    cardkit.store.open(url).close()
    _sql(url, "INSERT INTO cardkit_schema (version) VALUES (?)", (cardkit.store.SCHEMA_VERSION + 1,))
    with pytest.raises(cardkit.store.SchemaVersionError, match="newer"):
        cardkit.store.open(url)


def test_reopen_keeps_everything(url: str, backend: str) -> None:
    if backend == "memory":
        pytest.skip("the memory store lives as long as its object")
    game = cardkit.new_game("cutthroat-spades", players=3, seed=15)
    game, _ = random_moves(game, Rng(9), 40)
    with cardkit.store.open(url) as store:
        match_id = store.create(game)
    with cardkit.store.open(url) as store:
        assert store.load(match_id).state == game.state
        assert store.log(match_id) == game.log


def test_bad_urls_are_config_errors(tmp_path: Path) -> None:
    for bad in ["", "mysql://x", "sqlite://", "sqlite:///", "sqlite://host/x.db",
                f"sqlite:///{tmp_path}/a.db?synchronous=sometimes", f"sqlite:///{tmp_path}/a.db?bogus=1",
                "memory:x", "postgresql://u@h/db?bad option", 3]:
        with pytest.raises(ConfigError):
            cardkit.store.open(bad)  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        cardkit.store.open("memory:", snapshot_every=0)
    not_a_db = tmp_path / "junk.db"
    not_a_db.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(cardkit.store.StoreError):
        cardkit.store.open(f"sqlite:///{not_a_db}")


def test_closed_store_refuses(tmp_path: Path) -> None:
    for url in ("memory:", store_url("sqlite", tmp_path)):
        store = cardkit.store.open(url)
        store.close()
        with pytest.raises(cardkit.store.StoreError):
            store.matches()


def _sql(url: str, statement: str, params: tuple[object, ...]) -> None:
    """Run one statement on a store's database, behind the store's back."""
    if url.startswith("sqlite:///"):
        import sqlite3

        conn = sqlite3.connect(url[len("sqlite:///"):])
        with conn:
            conn.execute(statement, params)
        conn.close()
    else:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(statement.replace("?", "%s"), params)


def test_hostile_text_is_data(store: cardkit.store.Store) -> None:
    game = cardkit.new_game("crazy-eights", players=3, seed=16)
    match_id = store.create(game, match_id="t")
    for text in ["'; DROP TABLE cardkit_entries; --", "play 8H'); --", "\x00", "%s"]:
        with pytest.raises(NotationError):
            store.play(match_id, text)
    assert store.log(match_id) == game.log
    assert store.matches(game="'; DROP TABLE cardkit_matches; --") == ()
    assert [m.match_id for m in store.matches()] == ["t"]


def test_sqlite_memory_url_is_shared_by_threads() -> None:
    with cardkit.store.open("sqlite:///:memory:") as store:
        game = cardkit.new_game("wizard", players=3, seed=17)
        match_id = store.create(game)
        errors: list[BaseException] = []

        def reader() -> None:
            try:
                assert store.load(match_id).state == game.state
            except BaseException as exc:  # collected for the assertion below
                errors.append(exc)

        threads = [threading.Thread(target=reader) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
