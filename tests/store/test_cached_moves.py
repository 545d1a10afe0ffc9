"""Moves decided on a store's cached game (``Backend.advance``): written only while the
stored match is still that game, else decided again against what is stored."""

from __future__ import annotations

from typing import Any, Callable

import pytest

import cardkit
import cardkit.store
from cardkit.core.log import LogEntry
from cardkit.errors import ConcurrencyError, IllegalActionError, NotYourTurnError, ReplayMismatchError
from cardkit.rng import Rng

from .helpers import random_moves, wait_for_a_move


def _count_advances(store: cardkit.store.Store) -> dict[str, int]:
    """Count the backend's fast-path writes, and how many of them wrote."""
    counts = {"tried": 0, "written": 0}
    backend: Any = store._backend
    advance: Callable[..., bool] = backend.advance

    def counting(append: Any) -> bool:
        counts["tried"] += 1
        moved = advance(append)
        counts["written"] += moved
        return moved

    backend.advance = counting
    return counts


def test_cached_moves_take_the_fast_path_and_match_a_fresh_load(url: str, backend: str) -> None:
    # snapshot_every=8 so the fast path crosses snapshots, and the game ends (is_over written).
    game = cardkit.new_game("spacc-u-mazz", players=2, seed=3)
    final, moves = random_moves(game, Rng(2), 10_000)
    assert final.is_over
    with cardkit.store.open(url, snapshot_every=8) as store:
        counts = _count_advances(store)
        match_id = store.create(game)
        expected = game
        for action in moves:
            expected = expected.play(action)
            played = store.play(match_id, action)
            assert played.state == expected.state
        # create keeps the game cached, so no move loads the match
        assert counts == {"tried": len(moves), "written": len(moves)}
        assert store.log(match_id) == final.log
        info = store.info(match_id)
        assert (info.is_over, info.to_act, info.entries) == (True, None, len(final.log.entries))
        assert [m.match_id for m in store.matches(finished=True)] == [match_id]
        store.cache_size = 0
        store._forget(match_id)
        assert store.load(match_id).state == final.state
    if backend != "memory":  # a memory store's matches end with it
        with cardkit.store.open(url, snapshot_every=8, cache_size=0) as fresh:
            assert fresh.load(match_id).state == final.state


def test_a_stale_cache_falls_back_to_what_is_stored(url: str, backend: str) -> None:
    if backend == "memory":
        pytest.skip("two memory stores never share a match")
    game = cardkit.new_game("crazy-eights", players=3, seed=9)
    with cardkit.store.open(url) as a, cardkit.store.open(url) as b:
        counts = _count_advances(a)
        match_id = a.create(game)
        game, moves = random_moves(game, Rng(1), 2)
        for action in moves:
            a.play(match_id, action)  # a now caches the match at its newest entry
        seen = a.info(match_id).last_seq
        # b moves the match on: a's cached game is one move behind
        moved = b.play(match_id, game.legal_actions()[0])
        game = game.play(game.legal_actions()[0])
        assert moved.state == game.state
        tried = counts["tried"]

        # a stale expected_seq is refused, and nothing is written
        with pytest.raises(ConcurrencyError):
            a.play(match_id, game.legal_actions()[0], expected_seq=seen)
        assert a.log(match_id) == game.log

        # a's cache says another seat is to act; the stored match says this one: it plays
        seat = game.to_act
        assert seat is not None
        action = game.legal_actions()[-1]
        played = a.play(match_id, action, seat=seat)
        game = game.play(action)
        assert played.state == game.state
        assert a.log(match_id) == game.log

        # without expected_seq, a move decided on a stale cache is decided again on the
        # newest state: b plays x, then a (whose cache is before x) plays x too
        x = game.legal_actions()[0]
        b.play(match_id, x)
        stale, game = game, game.play(x)
        before = dict(counts)
        try:
            expected: cardkit.Game | None = game.play(x)
        except IllegalActionError:
            expected = None
        if expected is None:
            with pytest.raises(IllegalActionError):
                a.play(match_id, x)
        else:
            assert a.play(match_id, x).state == expected.state
            game = expected
        # tried on the cached game (where x is legal), refused by the database, decided again
        stale.play(x)  # x is legal on the cached game, so the fast path was tried
        assert counts == {"tried": before["tried"] + 1, "written": before["written"]}
        assert a.log(match_id) == game.log
        assert b.load(match_id).state == game.state
        # a seat that is not to act is refused, with nothing written
        other = (game.to_act + 1) % 3 if game.to_act is not None else 0
        with pytest.raises(NotYourTurnError):
            a.play(match_id, game.legal_actions()[0], seat=other)
        assert a.log(match_id) == game.log
        assert counts["tried"] > tried


def test_a_match_created_again_under_its_id_is_not_the_cached_one(url: str, backend: str) -> None:
    if backend == "memory":
        pytest.skip("two memory stores never share a match")
    first = cardkit.new_game("crazy-eights", players=3, seed=1)
    second = cardkit.new_game("crazy-eights", players=3, seed=2)
    with cardkit.store.open(url) as a, cardkit.store.open(url) as b:
        a.create(first, match_id="m")
        action = first.legal_actions()[0]
        a.play("m", action)  # a caches the match after this move
        first = first.play(action)
        b.delete("m")
        # same game, same length, another deal: only the creation nonce tells them apart
        second = second.play(second.legal_actions()[0])
        b.create(second, match_id="m")
        assert len(second.log.entries) == len(first.log.entries)
        action = second.legal_actions()[0]
        played = a.play("m", action)
        assert played.state == second.play(action).state
        assert b.log("m") == second.play(action).log


def test_wait_wakes_on_a_cached_move(url: str) -> None:
    game = cardkit.new_game("crazy-eights", players=3, seed=12)
    with cardkit.store.open(url) as store:
        counts = _count_advances(store)
        match_id = store.create(game)
        game = game.play(game.legal_actions()[0])
        store.play(match_id, game.log.entries[-1].action)
        last = store.info(match_id).last_seq

        newest, waited = wait_for_a_move(store, match_id, last, game.legal_actions()[0])
        assert newest > last
        assert waited < 5
        assert counts["written"] == 2  # the play before, and the one in the thread


def test_cached_appends_are_verified_and_checked(url: str) -> None:
    game = cardkit.new_game("spacc-u-mazz", players=2, seed=21)
    with cardkit.store.open(url, snapshot_every=8) as store:
        counts = _count_advances(store)
        match_id = store.create(game)
        game, moves = random_moves(game, Rng(3), 1)
        store.play(match_id, moves[0])
        seq = len(game.log.entries) - 1
        later, _ = random_moves(game, Rng(4), 12)
        new = list(later.log.entries[seq + 1 :])
        # refused on the cached game and again on the stored one: nothing written
        forged = [LogEntry(new[0].seq, new[0].actor, new[0].action, ())] + new[1:]
        with pytest.raises(ReplayMismatchError):
            store.append(match_id, forged, expected_seq=seq)
        with pytest.raises(ConcurrencyError):
            store.append(match_id, new, expected_seq=seq - 1)
        assert counts == {"tried": 1, "written": 1}  # the play only
        assert store.log(match_id) == game.log
        appended = store.append(match_id, new, expected_seq=seq)
        assert counts == {"tried": 2, "written": 2}
        assert appended.state == later.state
        assert store.log(match_id) == later.log
        with pytest.raises(ConcurrencyError):
            store.append(match_id, new, expected_seq=seq)  # the same batch again: a lost race
        assert store.log(match_id) == later.log


def test_cached_games_have_a_short_history(url: str, backend: str) -> None:
    # A game handed out by a cached move (the cache made by create, a load or an earlier
    # move) is the stored game, its history a suffix of the log no longer than a load's.
    game, _ = random_moves(cardkit.new_game("wizard", players=3, seed=7), Rng(8), 30)
    other = url if backend != "memory" else "memory:"
    with cardkit.store.open(url, snapshot_every=8) as cached, cardkit.store.open(
        other, snapshot_every=8, cache_size=0
    ) as uncached:
        a = cached.create(game, match_id="a")
        b = uncached.create(game, match_id="b")
        assert cached.load(a).log.entries == uncached.load(b).log.entries
        later, moves = random_moves(game, Rng(9), 25)
        expected = game
        for action in moves:
            expected = expected.play(action)
            whole = expected.log.entries
            from_cache = cached.play(a, action)
            from_load = uncached.play(b, action)
            assert from_cache.state == from_load.state == expected.state
            history = from_cache.log.entries
            assert history == whole[len(whole) - len(history) :]
            assert 0 < len(history) <= max(8, len(from_load.log.entries))
        assert cached.log(a).entries == later.log.entries
