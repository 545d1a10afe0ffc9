"""Golden games ("perft"-style): a fixed seed and a fixed random policy give exactly this
game, forever. A failure means the rules, the generator, the dealing convention or the log
format changed what an existing log replays to — bump the game's ``rules_version`` (and
register an upcaster) or the log ``format_version``, then re-pin deliberately."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

import cardkit
from cardkit.rng import Rng
from cardkit.testing import random_playout

# The digests are of dumps(game.log), whose config keys are sorted since issue 24 (item 9:
# one log, one byte string): every digest changed then, with the same entries and results.
GOLDEN: list[tuple[str, int, dict[str, Any], int, tuple[int, ...], tuple[int, ...], str]] = [
    ("crazy-eights", 4, {"mode": "points", "two_draws_two": True, "jack_skips": True}, 190, (0, 0, 0, 283), (3,), "8043d3027455a5bf"),
    # rules_version 2 (rule 8 corrected): under version 1 this hand was scored blocked at
    # entry 92, although seat 1 had just drawn the pending 2s and held a playable 8H.
    ("crazy-eights", 3, {"two_draws_two": True}, 111, (22, 0, 0), (0,), "e55f9713598e1af4"),
    ("wizard", 4, {"rounds": 5}, 87, (20, -20, -80, 50), (3,), "969eeef5ae210b31"),
    ("cutthroat-spades", 3, {"wins_needed": 1, "max_hands": 3}, 172, (-344, -237, -262), (1,), "bb515a2590a73161"),
    # rules_version 2 (a drawn buried starter is a StarterDrawn, shown to all): this game
    # draws none, so only the log's version changed; under version 1 it was b7dd27a703730a3b.
    # rules_version 3 (a red joker's decision is part of its turn for max_turns, rule 20):
    # seat 1 answered a red joker at entry 7, so version 2 counted 301 turns where there
    # were 300 and ended the hand one seat action early, at entry 303 (304 entries,
    # f08503ff7b425512 before config keys were sorted); entries 0-302 are unchanged, and the
    # version-2 log is refused.
    ("spacc-u-mazz", 3, {"max_turns": 300}, 305, (10, 81, 0), (1,), "244dd496ec8b2784"),
]


@pytest.mark.parametrize(
    "name,players,options,entries,scores,winners,digest", GOLDEN, ids=[f"{g[0]}-{g[1]}p" for g in GOLDEN]
)
def test_golden_game(
    name: str, players: int, options: dict[str, Any], entries: int, scores: tuple[int, ...],
    winners: tuple[int, ...], digest: str,
) -> None:
    game = random_playout(cardkit.new_game(name, players=players, seed=2026, **options), Rng.stream(2026, 1))
    assert game.result is not None
    assert (len(game.log.entries), game.result.scores, game.result.winners) == (entries, scores, winners)
    assert hashlib.sha256(cardkit.dumps(game.log).encode()).hexdigest()[:16] == digest
