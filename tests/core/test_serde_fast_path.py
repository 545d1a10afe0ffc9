"""The pre-built structure plans in serde give exactly what cattrs gives, and defer to
cattrs (its checks and its words) on anything they do not accept exactly."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cardkit
from cardkit import serde
from cardkit.errors import LogError
from cardkit.serde._convert import _converter, _types
from cardkit.serde._records import _fast_record


def _played(name: str, players: int, seed: int, actions: int) -> cardkit.Game:
    game = cardkit.new_game(name, players=players, seed=seed)
    rnd = random.Random(seed)
    while not game.is_over and game.seat_actions < actions:
        legal = game.legal_actions()
        game = game.play(legal[int(rnd.random() * len(legal))])
    return game


GAMES = [("crazy-eights", 3), ("wizard", 4), ("cutthroat-spades", 3), ("spacc-u-mazz", 2)]


@pytest.mark.parametrize("name,players", GAMES)
def test_every_record_of_a_game_matches_cattrs(name: str, players: int) -> None:
    game = _played(name, players, 7, 400)
    data = json.loads(cardkit.dumps(game.log))
    rules = cardkit.get_rules(name)
    tables = {"action": _types(rules, "action"), "event": _types(rules, "event")}
    fast = 0
    for raw in data["entries"]:
        for kind, record in [("action", raw["action"])] + [("event", e) for e in raw["events"]]:
            cls = tables[kind][record["type"]]
            fields = {k: v for k, v in record.items() if k != "type"}
            expected: Any = _converter.structure(fields, cls)
            got = _fast_record(record, tables[kind])
            if got is not None:
                fast += 1
                assert type(got) is type(expected) and got == expected
    assert fast > 0  # the plans are used, not only the fallback
    assert cardkit.loads(cardkit.dumps(game.log)) == game.log


def _first_card_field(data: Any) -> list[Any] | None:
    """A path to the first card code in a log's records (to corrupt it)."""
    for entry in data["entries"]:
        for record in [entry["action"]] + entry["events"]:
            for key, value in record.items():
                if key != "type" and isinstance(value, str) and len(value) == 2 and value[1] in "SHDC":
                    return [record, key]
    return None


@pytest.mark.parametrize("bad", ["qs", "10S", " QS", 7, None, ["QS"]])
def test_a_bad_card_in_a_record_is_still_a_log_error(bad: Any) -> None:
    game = _played("crazy-eights", 3, 3, 60)
    data = json.loads(cardkit.dumps(game.log))
    where = _first_card_field(data)
    assert where is not None
    record, key = where
    record[key] = bad
    with pytest.raises(LogError):
        cardkit.loads(json.dumps(data))


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r.update(extra=1),
        lambda r: r.pop(next(k for k in r if k != "type")),
        lambda r: r.update({next(k for k in r if k != "type"): True}),
        lambda r: r.update({next(k for k in r if k != "type"): 1.5}),
    ],
)
def test_other_bad_records_are_log_errors(change: Any) -> None:
    game = _played("crazy-eights", 3, 5, 60)
    data = json.loads(cardkit.dumps(game.log))
    target = next(e for entry in data["entries"] for e in entry["events"] if len(e) > 1)
    change(target)
    with pytest.raises(LogError):
        cardkit.loads(json.dumps(data))


def test_a_true_for_an_integer_field_is_refused_not_read_as_one() -> None:
    game = _played("wizard", 3, 1, 30)
    data = json.loads(cardkit.dumps(game.log))
    for entry in data["entries"]:
        if entry["action"]["type"] == "bid":
            entry["action"]["tricks"] = True
            break
    else:
        pytest.fail("no bid in the log")
    with pytest.raises(LogError):
        cardkit.loads(json.dumps(data))


def test_type_names_are_cached_and_unchanged() -> None:
    from cardkit.games.crazy_eights.events import CardPlayed

    assert serde.type_name(CardPlayed) == "card_played"
    assert serde.type_name(CardPlayed) is serde.type_name(CardPlayed)


@pytest.mark.parametrize("name,players", GAMES)
@pytest.mark.parametrize("bad", [{"bad": 1}, "not-this", -1.5])
def test_any_field_of_any_record_with_a_wrong_value_is_a_log_error(name: str, players: int, bad: Any) -> None:
    game = _played(name, players, 11, 120)
    data = json.loads(cardkit.dumps(game.log))
    seen: set[tuple[str, str]] = set()
    changed = 0
    for i, entry in enumerate(data["entries"]):
        for j, record in enumerate([entry["action"]] + entry["events"]):
            for key in [k for k in record if k != "type"]:
                if (record["type"], key) in seen or record[key] == bad:
                    continue
                seen.add((record["type"], key))
                copy = json.loads(json.dumps(data))
                target = copy["entries"][i]["action"] if j == 0 else copy["entries"][i]["events"][j - 1]
                target[key] = bad
                try:
                    loaded = cardkit.loads(json.dumps(copy))
                except LogError:
                    changed += 1
                    continue
                # accepted only where the field takes any JSON value (e.g. a config value)
                assert loaded != game.log or bad == record[key]
    assert changed > 0
