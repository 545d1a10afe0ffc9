"""Rule 5's buried starting cards stay public when drawn (``StarterDrawn``, rules_version 2),
and version-1 logs, which logged such a draw as a private ``CardDrawn``, still replay
(through version 2 to the current version 3)."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest

import cardkit
from cardkit import Card, Game, ReplayMismatchError
from cardkit.games.spacc_u_mazz.events import CardDrawn, JokerRevealed, StarterDrawn
from cardkit.games.spacc_u_mazz.rules import RULES
from cardkit.games.spacc_u_mazz.state import replace
from spacc_helpers import act, cards, random_game_until, table


def test_a_drawn_buried_starter_is_shown_to_every_seat() -> None:
    st = replace(table(hands=["KS", "3C"], pile="5H", main="4D TD"), main_known=1)
    after, events = act(st, "draw")  # 4D: an ordinary card of the stock, private
    assert type(events[0]) is CardDrawn and RULES.redact(events[0], 1).card is None
    after, events = act(replace(after, to_act=0), "draw")  # TD: the buried starter
    assert events[0] == StarterDrawn(0, False, Card("TD"))
    for viewer in (0, 1, None):
        assert RULES.redact(events[0], viewer) == events[0]
    assert after.known[0] == cards("TD") and after.main_stock == () and after.main_known == 0
    assert "TD" in RULES.view(after, 1)["known"][0]
    text = RULES.describe(events[0], 1)
    assert "buried starting card" in text and "10" in text


def test_a_penalty_draw_of_a_buried_starter_is_shown_too() -> None:
    st = replace(table(hands=["", "3C"], downs=["BJ", ""], pile="", main="9D"), main_known=1)
    _, events = act(st, "blind 1")
    assert type(events[0]) is JokerRevealed
    assert events[1] == StarterDrawn(0, True, Card("9D"))


def _game_with_a_starter_drawn() -> Game:
    return random_game_until(StarterDrawn)[0]


def _as_version_1(log: cardkit.GameLog) -> cardkit.GameLog:
    """The log as version 1 wrote it: each StarterDrawn a CardDrawn from the main stock."""

    def old(event: object) -> object:
        if type(event) is StarterDrawn:
            return CardDrawn(event.seat, "main", event.penalty, event.card)
        return event

    entries = tuple(attrs.evolve(e, events=tuple(old(v) for v in e.events)) for e in log.entries)
    return attrs.evolve(log, rules_version=1, entries=entries)


def test_other_seats_receive_the_drawn_starter() -> None:
    game = _game_with_a_starter_drawn()
    last = game.last_entry
    assert last is not None
    drawn = next(e for e in last.events if type(e) is StarterDrawn)
    for viewer in range(3):
        (entry,) = game.entries_for(viewer, after=last.seq - 1)
        assert drawn in entry.events


def test_a_drawn_starter_stays_known_to_views_and_samples() -> None:
    """The card joins the drawer's known cards: other seats' views list it, and every
    sample a bot draws for another seat keeps it in the drawer's hand."""
    game = _game_with_a_starter_drawn()
    last = game.last_entry
    assert last is not None
    drawn = next(e for e in last.events if type(e) is StarterDrawn)
    observer = (drawn.seat + 1) % 3
    assert drawn.card.code in game.view(observer)["known"][drawn.seat]
    ss = game.seat_state(observer)
    rng = random.Random(0)
    for _ in range(20):
        assert drawn.card in ss.sample(rng).hands[drawn.seat]


def test_a_version_1_log_replays_as_the_current_version() -> None:
    """Version 1 -> 2 renames the draws; 2 -> 3 keeps a log version 3 decides the same."""
    game = _game_with_a_starter_drawn()
    old = _as_version_1(game.log)
    assert old != game.log and '"starter_drawn"' not in cardkit.dumps(old)
    replayed = cardkit.replay(cardkit.loads(cardkit.dumps(old)))
    assert replayed.log == game.log and replayed.state == game.state
    assert replayed.log.rules_version == RULES.rules_version == 3


def test_a_bad_version_1_log_still_fails_its_replay() -> None:
    game = _game_with_a_starter_drawn()
    old = _as_version_1(game.log)
    last = old.entries[-1]
    index = next(i for i, e in enumerate(last.events) if type(e) is CardDrawn)
    wrong = attrs.evolve(last.events[index], card=Card("2S") if last.events[index].card != Card("2S") else Card("3S"))
    events = last.events[:index] + (wrong,) + last.events[index + 1 :]
    bad = attrs.evolve(old, entries=old.entries[:-1] + (attrs.evolve(last, events=events),))
    with pytest.raises(ReplayMismatchError) as caught:
        cardkit.replay(bad)
    assert caught.value.seq == last.seq


def test_a_match_stored_under_version_1_loads_and_is_imported_to_play_on(tmp_path: Path) -> None:
    """A SQLite store holding a version-1 match (its rows rewritten behind the store's
    back): it loads through the upcaster, refuses moves, and its exported log imports as a
    current-version match that plays on."""
    import json
    import sqlite3

    import cardkit.store
    from cardkit.store.backfill import hash_stored_matches

    game = _game_with_a_starter_drawn()
    path = tmp_path / "games.db"
    with cardkit.store.open(f"sqlite:///{path}", cache_size=0) as store:
        match_id = store.create(game)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE cardkit_matches SET rules_version = 1")
        rows = conn.execute("SELECT seq, events FROM cardkit_entries WHERE events LIKE '%starter_drawn%'").fetchall()
        assert rows
        for seq, text in rows:
            events = [
                {"type": "card_drawn", "seat": e["seat"], "stock": "main", "penalty": e["penalty"], "card": e["card"]}
                if e["type"] == "starter_drawn" else e
                for e in json.loads(text)
            ]  # fmt: skip
            conn.execute("UPDATE cardkit_entries SET events = ? WHERE seq = ?", (json.dumps(events), seq))
        # The rows as the version-1 library wrote them: their hash chain vouches for them
        # (rewritten rows that are not re-hashed are refused as a broken match).
        hash_stored_matches(conn.cursor(), lambda text: text)
    conn.close()
    with cardkit.store.open(f"sqlite:///{path}", cache_size=0) as store:
        old = store.log(match_id)
        assert old.rules_version == 1 and old == _as_version_1(game.log)
        assert store.load(match_id).state == game.state
        with pytest.raises(cardkit.LogError, match="rules_version 1"):
            store.play(match_id, game.legal_actions()[0])
        new_id = store.import_log(old)
        assert store.log(new_id) == game.log
        assert store.play(new_id, game.legal_actions()[0]).state == game.play(game.legal_actions()[0]).state
