"""Logs: JSON round trip, replay, and every kind of bad log."""

from __future__ import annotations

import json

import pytest

import cardkit
from cardkit import LogError, ReplayMismatchError
from cardkit.rng import Rng
from cardkit.testing import random_playout


@pytest.fixture(scope="module")
def finished() -> cardkit.Game:
    game = cardkit.new_game("crazy-eights", players=3, seed=9, mode="points", target=60, two_draws_two=True)
    return random_playout(game, Rng(9))


def test_round_trip(finished: cardkit.Game) -> None:
    text = cardkit.dumps(finished.log)
    log = cardkit.loads(text)
    assert log == finished.log
    again = cardkit.replay(log)
    assert again == finished
    assert cardkit.dumps(again.log) == text
    assert again.result == finished.result


def test_envelope(finished: cardkit.Game) -> None:
    data = json.loads(cardkit.dumps(finished.log))
    assert data["format"] == "cardkit-log" and data["format_version"] == 1
    assert data["game"] == "crazy-eights" and data["seed"] == 9
    assert data["config"]["players"] == 3 and data["config"]["target"] == 60
    assert data["config"]["two_draws_two"] is True and data["config"]["mode"] == "points"
    first = data["entries"][0]
    assert first == {"seq": 0, "actor": "chance", "action": {"type": "pick", "index": first["action"]["index"]},
                     "events": [{"type": "dealer_chosen", "dealer": first["action"]["index"]}]}
    seat_entry = next(e for e in data["entries"] if e["actor"] != "chance")
    assert isinstance(seat_entry["actor"], int)
    assert all(isinstance(c, str) for c in data["entries"][1]["action"]["order"])


def test_dumps_of_actions_events_and_views(finished: cardkit.Game) -> None:
    entry = finished.log.entries[-1]
    assert json.loads(cardkit.dumps(entry.action))["type"] in {"play", "draw", "pass"}
    assert json.loads(cardkit.dumps(entry.events[0]))["type"]
    assert json.loads(cardkit.dumps(finished.view(0)))["game"] == "crazy-eights"


def _tamper(finished: cardkit.Game, change) -> str:  # type: ignore[no-untyped-def]
    data = json.loads(cardkit.dumps(finished.log))
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    "text",
    ["", "{", "[]", "null", '{"format": "other"}', "not json"],
)
def test_malformed_json(text: str) -> None:
    with pytest.raises(LogError):
        cardkit.loads(text)


def test_truncated_log(finished: cardkit.Game) -> None:
    text = cardkit.dumps(finished.log)
    for cut in (len(text) // 3, len(text) - 2):
        with pytest.raises(LogError):
            cardkit.loads(text[:cut])


def test_unknown_format_version(finished: cardkit.Game) -> None:
    text = _tamper(finished, lambda d: d.update(format_version=99))
    with pytest.raises(LogError, match="format_version"):
        cardkit.loads(text)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(extra=1),
        lambda d: d.pop("entries"),
        lambda d: d.update(game="go-fish"),
        lambda d: d.update(seed="1"),
        lambda d: d["entries"][0].update(seq=5),
        lambda d: d["entries"][0].update(actor="someone"),
        lambda d: d["entries"][3]["action"].update(type="teleport"),
        lambda d: d["entries"][3]["action"].update(bogus=1),
        lambda d: d["entries"][1]["action"].update(order=["ZZ"]),
        lambda d: d["entries"][1]["events"][0].update(dealer="0"),
    ],
)
def test_malformed_logs_raise_log_error(finished: cardkit.Game, change) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(LogError):
        cardkit.loads(_tamper(finished, change))


def test_tampered_events_raise_replay_mismatch(finished: cardkit.Game) -> None:
    def change(d):  # type: ignore[no-untyped-def]
        entry = next(e for e in d["entries"] if e["actor"] != "chance" and e["events"][0]["type"] == "card_played")
        entry["events"][0]["pending_draw"] += 7

    log = cardkit.loads(_tamper(finished, change))
    with pytest.raises(ReplayMismatchError):
        cardkit.replay(log)


def test_tampered_action_raises_replay_mismatch(finished: cardkit.Game) -> None:
    def change(d):  # type: ignore[no-untyped-def]
        entry = next(e for e in d["entries"] if e["actor"] != "chance")
        entry["actor"] = (entry["actor"] + 1) % 3

    with pytest.raises(ReplayMismatchError):
        cardkit.replay(cardkit.loads(_tamper(finished, change)))


def test_other_rules_version_is_a_log_error(finished: cardkit.Game) -> None:
    log = cardkit.loads(_tamper(finished, lambda d: d.update(rules_version=d["rules_version"] + 1)))
    with pytest.raises(LogError, match="rules_version"):
        cardkit.replay(log)


def test_bad_config_in_log(finished: cardkit.Game) -> None:
    log = cardkit.loads(_tamper(finished, lambda d: d["config"].update(mode="teams")))
    with pytest.raises(LogError):
        cardkit.replay(log)


def test_replay_of_a_prefix_is_a_game_in_progress(finished: cardkit.Game) -> None:
    data = json.loads(cardkit.dumps(finished.log))
    data["entries"] = data["entries"][:10]
    game = cardkit.replay(cardkit.loads(json.dumps(data)))
    assert not game.is_over and len(game.log.entries) >= 10


def test_replay_needs_a_game_log() -> None:
    with pytest.raises(LogError):
        cardkit.replay("{}")  # type: ignore[arg-type]


def test_an_upcaster_lets_an_older_rules_version_replay(finished: cardkit.Game) -> None:
    import attrs

    from cardkit.core import log as log_module

    current = finished.rules.rules_version
    old = attrs.evolve(finished.log, rules_version=current - 1)
    with pytest.raises(LogError, match="no upcaster"):
        cardkit.replay(old)
    calls = []

    def to_current(log: cardkit.GameLog) -> cardkit.GameLog:
        calls.append(log.rules_version)
        return attrs.evolve(log, rules_version=current)

    cardkit.register_upcaster("crazy-eights", current - 1, to_current)
    try:
        assert cardkit.replay(old) == finished and calls == [current - 1]
        cardkit.register_upcaster("crazy-eights", current - 1, lambda log: log)  # not newer
        with pytest.raises(LogError, match="newer"):
            cardkit.replay(old)
    finally:
        log_module._UPCASTERS.pop(("crazy-eights", current - 1), None)
