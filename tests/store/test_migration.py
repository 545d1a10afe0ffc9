"""Schema 2 (issue 24 item 5): a version 1 database, which kept no hashes, is hashed as it
is stored when a version 2 library first opens it; its matches then load, play and verify."""

from __future__ import annotations

import json
from typing import Any

import pytest

import cardkit
import cardkit.store
from cardkit.rng import Rng
from cardkit.serde import dumps_state
from cardkit.store import sql
from cardkit.store.records import entry_to_row

from .helpers import random_moves


def _v1_database(url: str, backend: str, game: cardkit.Game, snapshot_at: int) -> None:
    """A store as cardkit with schema 1 wrote it: the same rows, no hash columns."""
    statements = (sql.SQLITE_MIGRATIONS if backend == "sqlite" else sql.POSTGRES_MIGRATIONS)[0]
    log = game.log
    rules = game.rules
    state = rules.initial_state(game.config)
    for entry in log.entries[:snapshot_at]:
        for event in entry.events:
            state = rules.evolve(state, event)
    chances = sum(1 for e in log.entries[:snapshot_at] if e.actor == cardkit.CHANCE)
    match = (
        "old", rules.name, rules.rules_version, game.players, json.dumps(dict(log.config), sort_keys=True),
        str(game.seed), game.auto_chance, len(log.entries), game.is_over, game.to_act, "n0nce",
    )
    rows = [("old", r.seq, r.actor, r.action, r.events) for r in map(entry_to_row, log.entries)]
    snapshot = ("old", snapshot_at, rules.rules_version, cardkit.__version__, chances, dumps_state(rules, state))
    inserts: list[tuple[str, Any]] = [
        ("INSERT INTO cardkit_schema (version) VALUES (1)", ()),
        ("INSERT INTO cardkit_matches (match_id, ordinal, game, rules_version, players, config, seed, "
         "auto_chance, length, is_over, to_act, nonce) VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
         if backend == "sqlite" else
         "INSERT INTO cardkit_matches (match_id, game, rules_version, players, config, seed, "
         "auto_chance, length, is_over, to_act, nonce) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", match),
    ] + [("INSERT INTO cardkit_entries (match_id, seq, actor, action, events) VALUES (?, ?, ?, ?, ?)", r) for r in rows] + [
        ("INSERT INTO cardkit_snapshots (match_id, seq, rules_version, library, chances, state) "
         "VALUES (?, ?, ?, ?, ?, ?)", snapshot),
        ("INSERT INTO cardkit_snapshots (match_id, seq, rules_version, library, chances, state) "
         "VALUES (?, ?, ?, ?, ?, ?)", ("old", 10_000, rules.rules_version, cardkit.__version__, 0, "{}")),
    ]  # fmt: skip
    if backend == "sqlite":
        import sqlite3

        conn = sqlite3.connect(url[len("sqlite:///"):])
        with conn:
            conn.execute(sql.CREATE_SCHEMA_TABLE)
            for statement in statements:
                conn.execute(statement)
            for statement, params in inserts:
                conn.execute(statement, params)
        conn.close()
    else:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql.CREATE_SCHEMA_TABLE)
            for statement in statements:
                conn.execute(statement)
            for statement, params in inserts:
                conn.execute(statement.replace("?", "%s"), params)


def test_a_version_1_database_is_hashed_on_first_open(url: str, backend: str) -> None:
    if backend == "memory":
        pytest.skip("the memory store has no schema")
    game, _ = random_moves(cardkit.new_game("wizard", players=3, seed=5), Rng(6), 40)
    _v1_database(url, backend, game, snapshot_at=16)
    with cardkit.store.open(url, snapshot_every=16) as store:
        assert [c.ok for c in store.verify()] == [True]
        loaded = store.load("old")
        assert loaded.state == game.state and loaded.log == game.log
        moved = store.play("old", game.legal_actions()[0])
        assert cardkit.replay(store.log("old")) == moved
        assert [c.ok for c in store.verify()] == [True]
    with cardkit.store.open(url) as store:  # opening again migrates nothing more
        assert store.load("old").log == moved.log
