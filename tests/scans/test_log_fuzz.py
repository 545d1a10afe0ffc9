"""Log fuzzing: every mutated log is rejected with LogError or replays to a game the
mutation could not have changed (see ``cardkit.testing.scans.fuzz_log`` for the exact rule).

Default: a bounded slice (a few hundred mutants). Long mode (``CARDKIT_LONG=1``, marker
``slow``): 12,000 mutants over the four games, plus 2,000 of the must-reject kinds.
"""

from __future__ import annotations

import pytest
from scan_setups import LONG

import cardkit
from cardkit.core.game import Game
from cardkit.rng import Rng
from cardkit.testing import random_playout
from cardkit.testing.scans import fuzz_log

GAMES = [
    ("crazy-eights", 3, {"two_draws_two": True}),
    ("wizard", 3, {}),
    ("cutthroat-spades", 3, {"max_hands": 1, "wins_needed": 1}),
    ("spacc-u-mazz", 2, {"max_turns": 30}),
]

# Mutants any correct loader/replayer already handles: edited values, dropped, duplicated
# and swapped entries, truncated entries and text, broken JSON.
SOUND_KINDS = ["replace_value", "entries_edit", "truncate_entries", "text_edit"]
# Mutants that must be rejected outright: non-canonical cards, duplicate keys, edited
# envelope (format_version, rules_version, an edited seed under auto_chance, option
# "self"), JSON nested thousands deep (issue 8, defects 2, 5 and 10).
STRICT_KINDS = ["card_spelling", "duplicate_key", "header_edit", "deep_nesting"]


def played(name: str, players: int, options: dict[str, object], seed: int, moves: int) -> Game:
    game = cardkit.new_game(name, players=players, seed=seed, **options)
    return random_playout(game, Rng.stream(seed, 1), moves)


@pytest.mark.parametrize("setup", GAMES, ids=lambda s: s[0])
def test_fuzzed_logs_are_rejected_or_unchanged(setup: tuple[str, int, dict[str, object]]) -> None:
    name, players, options = setup
    game = played(name, players, options, seed=21, moves=25)
    report = fuzz_log(game, 60, Rng.stream(21, 99), kinds=SOUND_KINDS)
    assert report.tried == 60
    assert report.rejected > 0 and report.rejected + report.neutral + report.prefix == 60


@pytest.mark.parametrize("setup", GAMES, ids=lambda s: s[0])
def test_non_canonical_logs_are_rejected(setup: tuple[str, int, dict[str, object]]) -> None:
    name, players, options = setup
    game = played(name, players, options, seed=22, moves=25)
    report = fuzz_log(game, 40, Rng.stream(22, 98), kinds=STRICT_KINDS)
    assert report.rejected == report.tried == 40


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="long run: set CARDKIT_LONG=1")
@pytest.mark.parametrize("setup", GAMES, ids=lambda s: s[0])
def test_log_fuzzing_long(setup: tuple[str, int, dict[str, object]]) -> None:
    name, players, options = setup
    tried = 0
    for seed in range(10):
        game = played(name, players, options, seed=seed, moves=20 + 15 * seed)
        tried += fuzz_log(game, 300, Rng.stream(seed, 97), kinds=SOUND_KINDS).tried
    assert tried == 3000  # x 4 games = 12,000 mutated logs


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="long run: set CARDKIT_LONG=1")
@pytest.mark.parametrize("setup", GAMES, ids=lambda s: s[0])
def test_log_fuzzing_strict_long(setup: tuple[str, int, dict[str, object]]) -> None:
    name, players, options = setup
    for seed in range(5):
        game = played(name, players, options, seed=seed, moves=20 + 15 * seed)
        report = fuzz_log(game, 100, Rng.stream(seed, 96), kinds=STRICT_KINDS)
        assert report.rejected == report.tried
