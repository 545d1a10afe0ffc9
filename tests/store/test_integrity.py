"""Item 5 of issue 24: every match is a hash chain; load checks it and the snapshot it
starts from, refuses a broken match with a named error naming the seq (and never a row's
content), and ``verify`` re-checks whole matches by replaying them.

The edits are the hostile review's, made behind the store's back on SQLite and PostgreSQL
(and on the memory store's rows): a snapshot's chance counter, the seed, config rows,
entries before the snapshot, an entry after it, a row deleted.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Iterator

import attrs
import pytest

import cardkit
import cardkit.store
from cardkit.errors import LogError
from cardkit.rng import Rng
from cardkit.store import BrokenMatchError
from cardkit.store.chain import entry_hash

from .helpers import random_moves

K = 8  # snapshot interval of these tests
CARD = re.compile(r"\b(?:[2-9TJQKA][SHDC]|RJ|BJ)\b")


@attrs.frozen
class Match:
    url: str
    backend: str
    store: cardkit.store.Store
    match_id: str
    game: cardkit.Game
    snapshot: int  # the seq of the newest snapshot (the entries it stands for)


@pytest.fixture
def match(url: str, backend: str) -> Iterator[Match]:
    game = cardkit.new_game("crazy-eights", players=3, seed=21)
    game, _ = random_moves(game, Rng(3), 30)
    assert not game.is_over and len(game.log.entries) > 3 * K
    with cardkit.store.open(url, snapshot_every=K) as store:
        match_id = store.create(game, match_id="m'1")
        length = len(game.log.entries)
        snapshot = (length - 1) // K * K
        yield Match(url, backend, store, match_id, game, snapshot)


def _sql(url: str, statement: str, params: tuple[Any, ...]) -> Any:
    """One statement on the store's database, behind its back; the rows it returns."""
    if url.startswith("sqlite:///"):
        import sqlite3

        conn = sqlite3.connect(url[len("sqlite:///"):])
        with conn:
            rows = conn.execute(statement, params).fetchall()
        conn.close()
        return rows
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cur = conn.execute(statement.replace("?", "%s"), params)
        return cur.fetchall() if cur.description else []


def _tables(m: Match) -> Any:
    return m.store._backend._tables  # type: ignore[attr-defined]


def edit_entry(m: Match, seq: int, change: Callable[[str], str], column: str = "action") -> None:
    """Change one entry row's ``column`` (its JSON text), leaving its hashes as they were."""
    if m.backend == "memory":
        rows = _tables(m).entries[m.match_id]
        rows[seq] = attrs.evolve(rows[seq], **{column: change(getattr(rows[seq], column))})
        return
    (text,) = _sql(m.url, f"SELECT {column} FROM cardkit_entries WHERE match_id = ? AND seq = ?", (m.match_id, seq))[0]
    _sql(m.url, f"UPDATE cardkit_entries SET {column} = ? WHERE match_id = ? AND seq = ?", (change(text), m.match_id, seq))


def edit_match(m: Match, **values: Any) -> None:
    if m.backend == "memory":
        t = _tables(m)
        t.matches[m.match_id] = attrs.evolve(t.matches[m.match_id], **values)
        return
    for column, value in values.items():
        value = str(value) if column == "seed" else value
        _sql(m.url, f"UPDATE cardkit_matches SET {column} = ? WHERE match_id = ?", (value, m.match_id))


def edit_snapshot(m: Match, seq: int, **values: Any) -> None:
    if m.backend == "memory":
        snaps = _tables(m).snapshots[m.match_id]
        snaps[seq] = attrs.evolve(snaps[seq], **values)
        return
    for column, value in values.items():
        _sql(m.url, f"UPDATE cardkit_snapshots SET {column} = ? WHERE match_id = ? AND seq = ?", (value, m.match_id, seq))


def delete_entry(m: Match, seq: int) -> None:
    if m.backend == "memory":
        del _tables(m).entries[m.match_id][seq]
        return
    _sql(m.url, "DELETE FROM cardkit_entries WHERE match_id = ? AND seq = ?", (m.match_id, seq))


def stored_length(m: Match) -> int:
    if m.backend == "memory":
        return len(_tables(m).entries[m.match_id])
    return int(_sql(m.url, "SELECT count(*) FROM cardkit_entries WHERE match_id = ?", (m.match_id,))[0][0])


def cold(m: Match) -> cardkit.store.Store:
    """A store that has not seen the match yet (a restarted host)."""
    if m.backend == "memory":
        m.store._cache.clear()  # type: ignore[attr-defined]
        m.store._chains.clear()  # type: ignore[attr-defined]
        return m.store
    return cardkit.store.open(m.url, snapshot_every=K)


def swap_two_cards(text: str) -> str:
    """The same JSON with its first two card codes swapped (a stacked deal, a changed play)."""
    codes = [x.start() for x in re.finditer(r'"(?:[2-9TJQKA][SHDC])"', text)]
    if len(codes) < 2:
        data = json.loads(text)
        return json.dumps(data | {"edited": 1} if isinstance(data, dict) else data + [{}], separators=(",", ":"))
    a, b = codes[0], codes[1]
    return text[:a] + text[b : b + 4] + text[a + 4 : b] + text[a : a + 4] + text[b + 4 :]


def assert_refused(m: Match, seq: int | None, *, reads: bool = True) -> BrokenMatchError:
    """A cold store refuses the match, naming ``seq``, and writes nothing on top of it."""
    store = cold(m)
    before = stored_length(m)
    with pytest.raises(BrokenMatchError) as caught:
        store.load(m.match_id)
    exc = caught.value
    assert exc.seq == seq and exc.match_id == m.match_id
    assert isinstance(exc, LogError) and isinstance(exc, cardkit.store.StoreError)
    named = "header" if seq is None else f"entry {seq}"
    assert named in str(exc) and repr(m.match_id) in str(exc)
    # never a row's content: no card code, no action text
    assert CARD.search(str(exc)) is None, str(exc)
    move = m.game.legal_actions()[0]
    with pytest.raises(BrokenMatchError):
        store.play(m.match_id, move)
    with pytest.raises(BrokenMatchError):
        store.play(m.match_id, move)  # again: a refused match is not cached as good
    if reads:
        with pytest.raises(BrokenMatchError):
            store.log(m.match_id)
    assert stored_length(m) == before
    (check,) = store.verify([m.match_id])
    assert not check.ok and check.problem is not None and CARD.search(check.problem) is None
    if store is not m.store:
        store.close()
    return exc


def test_an_untouched_match_passes(match: Match) -> None:
    store = cold(match)
    loaded = store.load(match.match_id)
    assert loaded.state == match.game.state
    assert [c.ok for c in store.verify()] == [True]
    assert store.verify()[0].entries == len(match.game.log.entries)
    moved = store.play(match.match_id, match.game.legal_actions()[0])
    assert cardkit.replay(store.log(match.match_id)) == moved
    if store is not match.store:
        store.close()


def test_the_chain_hashes_the_canonical_bytes_of_dumps(match: Match) -> None:
    # header: sha256(dumps(log without entries)); entry k: sha256(hash(k-1) + dumps(entry k))
    import hashlib

    log = match.store.log(match.match_id)
    prev = hashlib.sha256(cardkit.dumps(attrs.evolve(log, entries=())).encode()).hexdigest()
    with match.store._backend.read() as s:  # type: ignore[attr-defined]
        row = s.match(match.match_id)
        rows = s.entries(match.match_id, -1)
    assert row.header_hash == prev
    assert len(rows) == len(log.entries)
    for entry, stored in zip(log.entries, rows):
        assert stored.prev_hash == prev
        prev = hashlib.sha256((prev + cardkit.dumps(entry)).encode()).hexdigest()
        assert stored.hash == prev
    assert row.head_hash == prev


def test_a_snapshots_chance_counter_edited(match: Match) -> None:
    edit_snapshot(match, match.snapshot, chances=1)
    assert_refused(match, match.snapshot, reads=False)  # the entries themselves are intact: log reads them


def test_a_snapshots_state_edited(match: Match) -> None:
    store = cold(match)
    if match.backend == "memory":
        state = _tables(match).snapshots[match.match_id][match.snapshot].state
    else:
        ((state,),) = _sql(match.url, "SELECT state FROM cardkit_snapshots WHERE match_id = ? AND seq = ?",
                           (match.match_id, match.snapshot))
    if store is not match.store:
        store.close()
    edit_snapshot(match, match.snapshot, state=swap_two_cards(state))
    assert_refused(match, match.snapshot, reads=False)


def test_the_seed_edited(match: Match) -> None:
    edit_match(match, seed=match.game.seed + 1)
    assert_refused(match, None)


@pytest.mark.parametrize("edit", ["option", "players", "order"])
def test_config_rows_edited(match: Match, edit: str) -> None:
    config = dict(match.store.info(match.match_id).config)
    if edit == "option":
        config["hand_size"] = config["hand_size"] + 1
        edit_match(match, config=json.dumps(config))
        assert_refused(match, None)
    elif edit == "players":
        edit_match(match, players=4)
        assert_refused(match, None)
    else:
        # the same config in another key order and spacing is the same header: not broken
        edit_match(match, config=json.dumps(dict(reversed(list(config.items()))), indent=1))
        store = cold(match)
        assert store.load(match.match_id).state == match.game.state
        if store is not match.store:
            store.close()


@pytest.mark.parametrize("seq", [1, 9], ids=["deal", "seat-entry"])
def test_an_entry_before_the_snapshot_edited(match: Match, seq: int) -> None:
    assert seq < match.snapshot
    if seq == 1:
        assert match.game.log.entries[1].actor == cardkit.CHANCE  # the deal: a stacked deck
    edit_entry(match, seq, swap_two_cards, "action" if seq == 1 else "events")
    assert_refused(match, seq)


def test_an_entry_before_the_snapshot_edited_with_its_own_hash_recomputed(match: Match) -> None:
    # a smarter edit: the row's hash made to fit its new content; the next row no longer follows
    seq = 3
    if match.backend == "memory":
        rows = _tables(match).entries[match.match_id]
        r = rows[seq]
        events = swap_two_cards(r.events)
        rows[seq] = attrs.evolve(r, events=events, hash=entry_hash(r.prev_hash, r.seq, r.actor, r.action, events))
    else:
        ((prev, actor, action, events),) = _sql(
            match.url, "SELECT prev_hash, actor, action, events FROM cardkit_entries WHERE match_id = ? AND seq = ?",
            (match.match_id, seq),
        )
        events = swap_two_cards(events)
        _sql(match.url, "UPDATE cardkit_entries SET events = ?, hash = ? WHERE match_id = ? AND seq = ?",
             (events, entry_hash(prev, seq, actor, action, events), match.match_id, seq))
    assert_refused(match, seq + 1)


def test_an_entry_after_the_snapshot_edited(match: Match) -> None:
    seq = match.snapshot + 1
    assert seq < len(match.game.log.entries)
    edit_entry(match, seq, swap_two_cards, "events")
    assert_refused(match, seq)
    # a warm store (one that had this match cached) refuses it too once it reads the row
    store = cold(match)
    with pytest.raises(BrokenMatchError):
        store.entries_for(match.match_id, 0, after=match.snapshot)
    if store is not match.store:
        store.close()


@pytest.mark.parametrize("where", ["before", "after", "last", "last-and-length"])
def test_a_row_deleted(match: Match, where: str) -> None:
    length = len(match.game.log.entries)
    seq = {"before": 2, "after": match.snapshot + 1, "last": length - 1, "last-and-length": length - 1}[where]
    delete_entry(match, seq)
    if where == "last-and-length":
        edit_match(match, length=length - 1)
        # rows 0..length-2 still chain; the match row's newest hash names the lost one
        assert_refused(match, length - 2)
    else:
        assert_refused(match, seq)


def test_a_warm_store_checks_only_new_rows_but_verify_checks_all(match: Match) -> None:
    store = cold(match)
    store.load(match.match_id)  # the chain is now checked once by this store
    edit_entry(match, 2, swap_two_cards, "events")
    # an old row edited after this store checked it: load from the snapshot does not hash it
    # again (that would cost the whole match per load); the log, verify and a cold store do
    with pytest.raises(BrokenMatchError):
        store.log(match.match_id)
    (check,) = store.verify([match.match_id])
    assert check.seq == 2 and not check.ok
    loaded = store.load(match.match_id)
    with pytest.raises(BrokenMatchError):
        loaded.log  # noqa: B018 - the history is fetched, and checked, when it is needed
    if store is not match.store:
        store.close()
    assert_refused(match, 2)


def test_verify_lists_every_match(url: str) -> None:
    with cardkit.store.open(url, snapshot_every=K) as store:
        ids = []
        for seed in range(3):
            game, _ = random_moves(cardkit.new_game("wizard", players=3, seed=seed), Rng(seed), 20)
            ids.append(store.create(game, match_id=f"w{seed}"))
        assert [(c.match_id, c.ok) for c in store.verify()] == [(i, True) for i in ids]
        (missing,) = store.verify(["nope"])
        assert not missing.ok and "nope" in (missing.problem or "")
