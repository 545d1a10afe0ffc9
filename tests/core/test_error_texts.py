"""Errors of a log that no longer replays or loads name the entry (its seq and kind), never
a card (issue 24, item 1).

A host shows such an error to someone (a player whose move found a stored match broken,
an operator's log): a chance entry's text is the deck order (``shuffle QC 6S AD …``), and
a seat entry's events or the rules' reason can name a hidden card. Every test here breaks
a log so that it no longer replays or loads and looks for every card code of the deck in
everything the error carries: ``str``, ``args``, ``__notes__`` and the chain of causes and
contexts.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any, Callable

import attrs
import pytest

import cardkit
from cardkit.cards import Card
from cardkit.core.game import Game
from cardkit.core.log import GameLog, LogEntry
from cardkit.core.rules import CHANCE, Pick, Shuffle
from cardkit.errors import CardkitError, LogError, ReplayMismatchError
from cardkit.serde import action_from_json, event_from_json

SEED = 20_241_202


def _texts(exc: BaseException) -> list[str]:
    """Every text an exception carries: itself, its args, notes, causes and contexts."""
    out: list[str] = []
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        out += [str(e), repr(e), *(repr(a) for a in e.args), *getattr(e, "__notes__", ())]
        todo += [e.__cause__, e.__context__]
        if isinstance(e, BaseExceptionGroup):
            todo += list(e.exceptions)
    return out


_CODES = "|".join(map(re.escape, sorted({c.code for c in Card.all()}, key=len, reverse=True)))
# A card code as a word of its own ("QS"), or quoted in any case ("'qs'": a log's
# non-canonical spelling still names the card). Lower case unquoted would match "as".
_CARD = re.compile(rf"(?<![A-Za-z0-9])(?:{_CODES})(?![A-Za-z0-9])|(?i:['\"](?:{_CODES})['\"])")


def assert_names_no_card(exc: BaseException) -> None:
    for text in _texts(exc):
        found = _CARD.findall(text)
        assert not found, f"card code(s) {found} in error text {text!r}"


def _played(name: str, players: int, moves: int, **options: Any) -> Game[Any, Any]:
    rng = random.Random(3)
    game = cardkit.new_game(name, players=players, seed=SEED, **options)
    for _ in range(moves):
        if game.is_over:
            break
        game = game.play(rng.choice(game.legal_actions()))
    return game


def _with_entry(log: GameLog, seq: int, change: Callable[[LogEntry], LogEntry]) -> GameLog:
    entries = list(log.entries)
    entries[seq] = change(entries[seq])
    return attrs.evolve(log, entries=tuple(entries))


def _chance_seqs(log: GameLog) -> list[int]:
    return [e.seq for e in log.entries if e.actor == CHANCE and isinstance(e.action, Shuffle)]


GAMES = [("crazy-eights", 3, {}), ("wizard", 3, {"rounds": 3}), ("cutthroat-spades", 3, {}), ("spacc-u-mazz", 2, {})]


@pytest.mark.parametrize(("name", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_chance_entry_that_no_longer_replays(name: str, players: int, options: dict[str, Any]) -> None:
    log = _played(name, players, 30, **options).log
    seq = _chance_seqs(log)[0]

    def swapped(entry: LogEntry) -> LogEntry:  # another deal: not the seed's
        order = list(entry.action.order)
        order[0], order[-1] = order[-1], order[0]
        return attrs.evolve(entry, action=Shuffle(tuple(order)))

    def short(entry: LogEntry) -> LogEntry:  # not even a permutation of the deck
        return attrs.evolve(entry, action=Shuffle(entry.action.order[:-1]))

    def doubled(entry: LogEntry) -> LogEntry:  # a card twice
        order = entry.action.order
        return attrs.evolve(entry, action=Shuffle((order[0],) + order[:-1]))

    for change in (swapped, short, doubled):
        tampered = _with_entry(log, seq, change)
        # verified against the seed, and replayed as supplied chance (auto_chance false)
        for version in (tampered, attrs.evolve(tampered, auto_chance=False)):
            if version is not tampered and change is swapped:
                continue  # another deal is a valid supplied chance: its later entries differ
            with pytest.raises(LogError) as info:
                cardkit.replay(version)
            assert info.value.seq == seq
            assert f"entry {seq} (chance)" in str(info.value)
            assert_names_no_card(info.value)


@pytest.mark.parametrize(("name", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_seat_entry_that_no_longer_replays(name: str, players: int, options: dict[str, Any]) -> None:
    log = _played(name, players, 30, **options).log
    seat_entries = [e for e in log.entries if e.actor != CHANCE]
    entry = seat_entries[len(seat_entries) // 2]
    # Its events changed (as if the rules had changed since), its action replaced by
    # another seat's action, its events dropped, its actor changed.
    other = next(e for e in seat_entries if e.action != entry.action)
    changes: list[Callable[[LogEntry], LogEntry]] = [
        lambda e: attrs.evolve(e, events=e.events[::-1] + e.events[:1]),
        lambda e: attrs.evolve(e, action=other.action),
        lambda e: attrs.evolve(e, events=()),
        lambda e: attrs.evolve(e, actor=(e.actor + 1) % players),
    ]
    for change in changes:
        tampered = _with_entry(log, entry.seq, change)
        with pytest.raises(ReplayMismatchError) as info:
            cardkit.replay(tampered)
        assert info.value.seq == entry.seq
        assert re.search(rf"entry {entry.seq} \((seat \d|chance)\)", str(info.value)), str(info.value)
        assert_names_no_card(info.value)


def test_resuming_from_a_state_names_no_card() -> None:
    game = _played("crazy-eights", 3, 40)
    log = game.log
    seq = _chance_seqs(log)[-1]
    start = Game.start(game.rules, game.config, game.seed, auto_chance=False)
    for entry in log.entries[:seq]:
        start = start.play(entry.action)
    tampered = _with_entry(log, seq, lambda e: attrs.evolve(e, action=Shuffle(e.action.order[::-1])))
    with pytest.raises(LogError) as info:
        Game.resume(game.rules, game.config, game.seed, True, tampered.entries[seq:], start.state, start._chance_count)
    assert info.value.seq == seq and f"entry {seq}" in str(info.value)
    assert_names_no_card(info.value)


def _json_log(game: Game[Any, Any]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(cardkit.dumps(game.log))
    return data


def test_a_log_that_no_longer_loads_names_no_card() -> None:
    game = _played("wizard", 3, 30, rounds=3)
    data = _json_log(game)
    seq = next(e["seq"] for e in data["entries"] if e["actor"] == "chance" and e["action"]["type"] == "shuffle")
    seat = next(e["seq"] for e in data["entries"] if e["actor"] != "chance" and e["events"])
    order = data["entries"][seq]["action"]["order"]
    edits: list[Callable[[dict[str, Any]], None]] = [
        lambda d: d["entries"][seq]["action"].update(order=[c.lower() for c in order]),  # not canonical
        lambda d: d["entries"][seq]["action"].update(order=order + [7]),  # not a card
        lambda d: d["entries"][seq]["action"].update(order=", ".join(order)),  # not a list
        lambda d: d["entries"][seq]["action"].update(extra=order),  # an unknown key
        lambda d: d["entries"][seq].update(action={"typ": "shuffle", "order": order}),  # no type
        lambda d: d["entries"][seq].update(action=[{"type": "shuffle", "order": order}]),
        lambda d: d["entries"][seat]["events"][0].update(cards=order),
        lambda d: d["entries"][seat]["events"].append(order),
        lambda d: d["entries"][seat].update(action=order[:2]),
    ]
    for edit in edits:
        broken = json.loads(json.dumps(data))
        edit(broken)
        with pytest.raises(LogError) as info:
            cardkit.loads(json.dumps(broken))
        assert info.value.seq in (seq, seat), str(info.value)
        assert f"entry {info.value.seq} (" in str(info.value)
        assert_names_no_card(info.value)


def test_a_stored_row_that_no_longer_loads_names_no_card() -> None:
    # What a store does with one row: action_from_json / event_from_json, no seq known.
    rules = cardkit.get_rules("crazy-eights")
    order = [c.code for c in Card.all()][:52]
    bad = [
        {"type": "shuffle", "order": [c.lower() for c in order]},
        {"type": "shuffle", "order": order + [None]},
        {"type": "shuffle", "order": order, "seed": 1},
        {"typ": "shuffle", "order": order},
        [{"type": "shuffle", "order": order}],
        {"type": "pick", "index": order},
    ]
    for data in bad:
        for load in (action_from_json, event_from_json):
            with pytest.raises(CardkitError) as info:
                load(rules, data)
            assert_names_no_card(info.value)


def test_the_card_finder_finds_cards() -> None:
    # The check above is only as good as its pattern.
    for text in ("shuffle QC 6S AD", "entry 7 (play TH)", "'qs' is not", "['RJ', 'W']", 'x "th"'):
        with pytest.raises(AssertionError):
            assert_names_no_card(ValueError(text))
    assert_names_no_card(ValueError("entry 7 (chance): seat 2 (T for ten), 52 cards, as before"))
    inner = ValueError("QS")
    outer = LogError("entry 1 (chance)")
    outer.__cause__ = inner
    with pytest.raises(AssertionError):
        assert_names_no_card(outer)


def test_pick_entries_too() -> None:
    log = _played("crazy-eights", 3, 5).log
    seq = next(e.seq for e in log.entries if isinstance(e.action, Pick))
    for action in (Pick(2 if log.entries[seq].action.index != 2 else 1), Pick(99)):
        tampered = _with_entry(log, seq, lambda e: attrs.evolve(e, action=action))
        with pytest.raises(LogError) as info:
            cardkit.replay(tampered)
        assert f"entry {seq} (chance)" in str(info.value)
        assert_names_no_card(info.value)
