"""The SQL both database backends run: the schema, its migrations and every statement.

Every value goes through a placeholder (``?`` here; the PostgreSQL backend turns it into
``%s``): no statement is ever built from a match id, a game name or any other text.
"""

from __future__ import annotations

from typing import Final

__all__ = ["SCHEMA_VERSION", "SQLITE_MIGRATIONS", "POSTGRES_MIGRATIONS", "MATCH_COLUMNS"]

SCHEMA_VERSION: Final = 2
"""The schema this library writes; a database with a higher version is refused.

Version 2 added the hash chain (:mod:`cardkit.store.chain`): opening a version 1 database
adds its columns and hashes every stored match as it is (:mod:`cardkit.store.backfill`)."""

MATCH_COLUMNS: Final = (
    "match_id, ordinal, game, rules_version, players, config, seed, auto_chance, length, is_over, to_act, "
    "nonce, header_hash, head_hash"
)
"""The columns of a match row, in the order :func:`cardkit.store.sqlbase.row_to_match` reads them."""

_CHAIN_COLUMNS: Final = (
    "ALTER TABLE cardkit_matches ADD COLUMN header_hash TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE cardkit_matches ADD COLUMN head_hash TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE cardkit_entries ADD COLUMN prev_hash TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE cardkit_entries ADD COLUMN hash TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE cardkit_snapshots ADD COLUMN entry_hash TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE cardkit_snapshots ADD COLUMN hash TEXT NOT NULL DEFAULT ''",
)
"""Version 2 of both schemas: the hash chain's columns (existing rows are then hashed by
:func:`cardkit.store.backfill.hash_stored_matches`, in the same transaction)."""

SQLITE_MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    (
        """CREATE TABLE cardkit_matches (
            match_id TEXT PRIMARY KEY,
            ordinal INTEGER NOT NULL UNIQUE,
            game TEXT NOT NULL,
            rules_version INTEGER NOT NULL,
            players INTEGER NOT NULL,
            config TEXT NOT NULL,
            seed TEXT NOT NULL,
            auto_chance INTEGER NOT NULL,
            length INTEGER NOT NULL,
            is_over INTEGER NOT NULL,
            to_act INTEGER,
            nonce TEXT NOT NULL
        )""",
        "CREATE INDEX cardkit_matches_game ON cardkit_matches (game, is_over, ordinal)",
        """CREATE TABLE cardkit_entries (
            match_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            actor INTEGER NOT NULL,
            action TEXT NOT NULL,
            events TEXT NOT NULL,
            PRIMARY KEY (match_id, seq)
        ) WITHOUT ROWID""",
        """CREATE TABLE cardkit_snapshots (
            match_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            rules_version INTEGER NOT NULL,
            library TEXT NOT NULL,
            chances INTEGER NOT NULL,
            state TEXT NOT NULL,
            PRIMARY KEY (match_id, seq)
        ) WITHOUT ROWID""",
    ),
    _CHAIN_COLUMNS,
)
"""The SQLite schema, one tuple of statements per version: ``SQLITE_MIGRATIONS[v - 1]`` takes
a database from version ``v - 1`` to ``v``. Released versions are never edited, only appended to."""

POSTGRES_MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    (
        """CREATE TABLE cardkit_matches (
            match_id TEXT PRIMARY KEY,
            ordinal BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
            game TEXT NOT NULL,
            rules_version INTEGER NOT NULL,
            players INTEGER NOT NULL,
            config TEXT NOT NULL,
            seed TEXT NOT NULL,
            auto_chance BOOLEAN NOT NULL,
            length INTEGER NOT NULL,
            is_over BOOLEAN NOT NULL,
            to_act INTEGER,
            nonce TEXT NOT NULL
        )""",
        "CREATE INDEX cardkit_matches_game ON cardkit_matches (game, is_over, ordinal)",
        """CREATE TABLE cardkit_entries (
            match_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            actor INTEGER NOT NULL,
            action TEXT NOT NULL,
            events TEXT NOT NULL,
            PRIMARY KEY (match_id, seq)
        )""",
        """CREATE TABLE cardkit_snapshots (
            match_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            rules_version INTEGER NOT NULL,
            library TEXT NOT NULL,
            chances INTEGER NOT NULL,
            state TEXT NOT NULL,
            PRIMARY KEY (match_id, seq)
        )""",
    ),
    _CHAIN_COLUMNS,
)

"""The PostgreSQL schema, versioned exactly as :data:`SQLITE_MIGRATIONS`."""

CREATE_SCHEMA_TABLE: Final = "CREATE TABLE IF NOT EXISTS cardkit_schema (version INTEGER NOT NULL)"
SELECT_SCHEMA: Final = "SELECT MAX(version) FROM cardkit_schema"
INSERT_SCHEMA: Final = "INSERT INTO cardkit_schema (version) VALUES (?)"

SELECT_MATCH: Final = f"SELECT {MATCH_COLUMNS} FROM cardkit_matches WHERE match_id = ?"
SELECT_LENGTH: Final = "SELECT length FROM cardkit_matches WHERE match_id = ?"
SELECT_SNAPSHOT: Final = (
    "SELECT seq, rules_version, library, chances, state, entry_hash, hash FROM cardkit_snapshots "
    "WHERE match_id = ? AND seq < ? AND rules_version = ? AND library = ? "
    "ORDER BY seq DESC LIMIT 1"
)
SELECT_SNAPSHOTS: Final = (
    "SELECT seq, rules_version, library, chances, state, entry_hash, hash FROM cardkit_snapshots "
    "WHERE match_id = ? ORDER BY seq"
)
SELECT_ENTRIES: Final = (
    "SELECT seq, actor, action, events, prev_hash, hash FROM cardkit_entries "
    "WHERE match_id = ? AND seq > ? ORDER BY seq"
)
SELECT_ENTRIES_BEFORE: Final = (
    "SELECT seq, actor, action, events, prev_hash, hash FROM cardkit_entries "
    "WHERE match_id = ? AND seq > ? AND seq < ? ORDER BY seq"
)
SELECT_MATCHES: Final = f"SELECT {MATCH_COLUMNS} FROM cardkit_matches"
WHERE_GAME: Final = "game = ?"
WHERE_OVER: Final = "is_over = ?"
ORDER_MATCHES: Final = " ORDER BY ordinal"
LIMIT: Final = " LIMIT ?"
INSERT_MATCH_SQLITE: Final = (
    "INSERT INTO cardkit_matches (match_id, ordinal, game, rules_version, players, config, seed, "
    "auto_chance, length, is_over, to_act, nonce, header_hash, head_hash) VALUES "
    "(?, (SELECT COALESCE(MAX(ordinal), 0) + 1 FROM cardkit_matches), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
INSERT_MATCH_POSTGRES: Final = (
    "INSERT INTO cardkit_matches (match_id, game, rules_version, players, config, seed, "
    "auto_chance, length, is_over, to_act, nonce, header_hash, head_hash) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
INSERT_ENTRY: Final = (
    "INSERT INTO cardkit_entries (match_id, seq, actor, action, events, prev_hash, hash) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
UPSERT_SNAPSHOT: Final = (
    "INSERT INTO cardkit_snapshots (match_id, seq, rules_version, library, chances, state, entry_hash, hash) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, seq) DO UPDATE SET "
    "rules_version = excluded.rules_version, library = excluded.library, "
    "chances = excluded.chances, state = excluded.state, entry_hash = excluded.entry_hash, "
    "hash = excluded.hash"
)
UPDATE_MATCH: Final = (
    "UPDATE cardkit_matches SET length = ?, is_over = ?, to_act = ?, head_hash = ? WHERE match_id = ?"
)
DELETE_ENTRIES: Final = "DELETE FROM cardkit_entries WHERE match_id = ?"
DELETE_SNAPSHOTS: Final = "DELETE FROM cardkit_snapshots WHERE match_id = ?"
DELETE_MATCH: Final = "DELETE FROM cardkit_matches WHERE match_id = ?"

ADVANCE_MATCH: Final = (
    "UPDATE cardkit_matches SET length = ?, is_over = ?, to_act = ?, head_hash = ? "
    "WHERE match_id = ? AND nonce = ? AND length = ?"
)
"""Move a match on only if it is still the one a move was decided on (one row, or none)."""

ADVANCE_PLAYING: Final = (
    "UPDATE cardkit_matches SET length = ?, to_act = ?, head_hash = ? "
    "WHERE match_id = ? AND nonce = ? AND length = ?"
)
""":data:`ADVANCE_MATCH` for a move that does not end the match: ``is_over`` stays false and
is not written, so SQLite leaves the index on it alone (it rewrites the index of every column
an UPDATE sets, changed or not)."""

ADVANCE_POSTGRES: Final = (
    "WITH m AS (" + ADVANCE_MATCH + " RETURNING match_id), "
    "e AS (INSERT INTO cardkit_entries (match_id, seq, actor, action, events, prev_hash, hash) "
    "SELECT m.match_id, x.seq, x.actor, x.action, x.events, x.prev_hash, x.hash FROM m, "
    "unnest(?::integer[], ?::integer[], ?::text[], ?::text[], ?::text[], ?::text[]) "
    "AS x(seq, actor, action, events, prev_hash, hash)), "
    "s AS (INSERT INTO cardkit_snapshots (match_id, seq, rules_version, library, chances, state, "
    "entry_hash, hash) "
    "SELECT m.match_id, x.seq, x.rules_version, x.library, x.chances, x.state, x.entry_hash, x.hash "
    "FROM m, unnest(?::integer[], ?::integer[], ?::text[], ?::integer[], ?::text[], ?::text[], ?::text[]) "
    "AS x(seq, rules_version, library, chances, state, entry_hash, hash) "
    "ON CONFLICT (match_id, seq) DO UPDATE SET "
    "rules_version = excluded.rules_version, library = excluded.library, "
    "chances = excluded.chances, state = excluded.state, entry_hash = excluded.entry_hash, "
    "hash = excluded.hash) "
    "SELECT count(*) FROM m"
)
"""The whole of a cached move on PostgreSQL in one statement: the match row moved on if it is
still the same, and only then its entries and snapshots inserted (arrays, one per column)."""

ADVANCE_ONE_POSTGRES: Final = (
    "WITH m AS (" + ADVANCE_MATCH + " RETURNING match_id) "
    "INSERT INTO cardkit_entries (match_id, seq, actor, action, events, prev_hash, hash) "
    "SELECT m.match_id, ?::integer, ?::integer, ?::text, ?::text, ?::text, ?::text FROM m RETURNING seq"
)
""":data:`ADVANCE_POSTGRES` for the usual move, one entry and no snapshot: plain values, which
the driver sends for a fraction of what arrays cost it; a row back means it was written."""
