"""Issue 24, item 22: Spacc 'u Mazz ``rules_version`` 3 and logs of version 2.

The logs in ``data/`` were written by cardkit at commit 9bce1e5 (rules_version 2) from
random games: two whose guard-ended hand version 3 would have played on (a red-joker
decision counted as a turn; the guard cutting a decision short), a one-hand game with a
``fixed_points`` table under which a later place outscored the first out, and a match with
a red-joker decision that version 3 decides the same way."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

import cardkit
from cardkit import serde
from cardkit.core.game import Game
from cardkit.games.spacc_u_mazz.events import ChoiceOffered, GameEnded, HandEnded
from cardkit.games.spacc_u_mazz.rules import PACK, RULES
from cardkit.games.spacc_u_mazz.upcast import upcast_v2

DATA = Path(__file__).parent / "data"
REFUSED = {
    "v2_guard_after_a_choice.json": "rule 20",
    "v2_guard_cuts_a_choice.json": "rule 20",
    "v2_one_hand_won_by_a_later_place.json": "rule 22",
}


def _v2(name: str) -> cardkit.GameLog:
    log = serde.loads((DATA / name).read_text("utf-8"))
    assert log.rules_version == 2
    return log


def _replays_under_v3(log: cardkit.GameLog) -> bool:
    """Whether version 3's decisions give exactly the logged events (no upcaster)."""
    try:
        Game.from_log(RULES, attrs.evolve(log, rules_version=3))
    except cardkit.ReplayMismatchError:
        return False
    return True


def test_the_rules_version_is_3() -> None:
    assert RULES.rules_version == 3
    game = cardkit.new_game("spacc-u-mazz", players=2, seed=1)
    assert game.log.rules_version == 3 and '"rules_version":3' in cardkit.dumps(game.log).replace(" ", "")


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_version_2_log_that_version_3_decides_otherwise_is_refused(name: str) -> None:
    log = _v2(name)
    assert not _replays_under_v3(log)  # the data shows a real difference
    with pytest.raises(cardkit.LogError) as caught:
        cardkit.replay(log)
    text = str(caught.value)
    assert type(caught.value) is cardkit.LogError  # not a mismatch of a corrupt entry
    assert "rules_version 2" in text and "rules_version 3" in text and REFUSED[name] in text
    assert caught.value.seq is not None and f"entry {caught.value.seq} " in text
    # the entry is the one version 3 decides otherwise: every entry before it replays
    assert _replays_under_v3(attrs.evolve(log, entries=log.entries[: caught.value.seq]))
    # no card code reaches the text (it may be shown to a player, issue 24 item 1)
    codes = {c.code for c in PACK} | {"RJ", "BJ"}
    assert not any(code in text.split() for code in codes)


def test_the_refused_logs_show_both_changes() -> None:
    cut = _v2("v2_guard_cuts_a_choice.json")
    assert not any(isinstance(e, ChoiceOffered) for entry in cut.entries for e in entry.events)
    won = _v2("v2_one_hand_won_by_a_later_place.json")
    ended = next(e for entry in won.entries for e in entry.events if isinstance(e, HandEnded))
    over = next(e for entry in won.entries for e in entry.events if isinstance(e, GameEnded))
    assert won.config["target_score"] is None and over.winners != (ended.places[0],)


def test_a_version_2_log_that_version_3_decides_the_same_replays_as_version_3() -> None:
    log = _v2("v2_choice_then_out.json")
    assert any(isinstance(e, ChoiceOffered) for entry in log.entries for e in entry.events)
    game = cardkit.replay(cardkit.loads(cardkit.dumps(log)))
    assert game.is_over and game.log.rules_version == 3
    assert game.log.entries == log.entries  # the same entries, now a version-3 log
    assert game == Game.from_log(RULES, attrs.evolve(log, rules_version=3))


@pytest.mark.parametrize("name", sorted(REFUSED) + ["v2_choice_then_out.json"])
def test_the_upcaster_agrees_with_a_version_3_replay(name: str) -> None:
    log = _v2(name)
    try:
        upcast_v2(log)
        converted = True
    except cardkit.LogError:
        converted = False
    assert converted == _replays_under_v3(log)


def test_a_corrupt_version_2_log_still_fails_its_replay_with_the_entry() -> None:
    """The upcaster converts, the replay then finds the edited entry as usual."""
    log = _v2("v2_choice_then_out.json")
    index = next(i for i, e in enumerate(log.entries) if e.actor != cardkit.CHANCE and i > 10)
    entry = log.entries[index]
    bad = attrs.evolve(entry, events=entry.events[1:])  # an event dropped
    broken = attrs.evolve(log, entries=log.entries[:index] + (bad,) + log.entries[index + 1 :])
    with pytest.raises(cardkit.ReplayMismatchError) as caught:
        cardkit.replay(broken)
    assert caught.value.seq == index
