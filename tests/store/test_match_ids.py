"""Item 18 of issue 24: one rule for match ids on every backend (cardkit.store.ids).

A lone surrogate escaped SQLite and PostgreSQL as ``UnicodeEncodeError`` while ``memory:``
stored it; control characters and absurd lengths now meet the same named error everywhere.
"""

from __future__ import annotations

import pytest

import cardkit
import cardkit.store
from cardkit.errors import ConfigError
from cardkit.store import MatchIdError, UnknownMatchError

BAD_IDS = [
    "a\ud800",  # a lone surrogate (what a non-UTF-8 command-line argument becomes)
    "\udcff",
    "nul\x00byte",
    "tab\there",
    "line\nbreak",
    "del\x7f",
    "c1\x85control",
    "",
    "a" * 201,
    "é" * 201,
]


@pytest.mark.parametrize("bad", BAD_IDS, ids=[repr(b)[:20] for b in BAD_IDS])
def test_one_rule_for_match_ids_on_every_backend(store: cardkit.store.Store, bad: str) -> None:
    game = cardkit.new_game("crazy-eights", players=3, seed=1)
    with pytest.raises(MatchIdError) as caught:
        store.create(game, match_id=bad)
    # bad input to create (a ConfigError, a ValueError), and an id no match can have
    assert isinstance(caught.value, ConfigError) and isinstance(caught.value, ValueError)
    assert isinstance(caught.value, UnknownMatchError) and isinstance(caught.value, LookupError)
    assert "\ud800" not in str(caught.value) and "\x00" not in str(caught.value)
    str(caught.value).encode("utf-8")  # the message itself is printable text
    lookups = [
        lambda: store.load(bad),
        lambda: store.log(bad),
        lambda: store.info(bad),
        lambda: store.play(bad, "draw"),
        lambda: store.append(bad, [], expected_seq=-1),
        lambda: store.entries_for(bad, None),
        lambda: store.wait(bad, -1, 0),
        lambda: store.delete(bad),
    ]
    for lookup in lookups:
        with pytest.raises(MatchIdError):
            lookup()
    assert store.matches() == ()
    good = store.create(game, match_id="a" * 200)
    assert store.create(game, match_id="ünïcødé 🂡 \u00a0x") != good


def test_not_a_string_is_a_match_id_error(store: cardkit.store.Store) -> None:
    game = cardkit.new_game("crazy-eights", players=3, seed=1)
    for bad in (7, b"bytes", None.__class__):
        with pytest.raises(MatchIdError):
            store.create(game, match_id=bad)  # type: ignore[arg-type]
        with pytest.raises(MatchIdError):
            store.load(bad)  # type: ignore[arg-type]
