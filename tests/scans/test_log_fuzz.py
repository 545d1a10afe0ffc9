"""Log fuzzing: every mutated log is rejected with LogError or replays to a game the
mutation could not have changed (see ``cardkit.testing.scans.fuzz_log`` for the exact rule).

Default: a bounded slice (a few hundred mutants). Long mode (``CARDKIT_LONG=1``, marker
``slow``): 12,000 mutants over the four games, plus 2,000 of the must-reject kinds.
"""

from __future__ import annotations

import json

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
    assert report.rejected > 0
    assert report.rejected + report.neutral + report.prefix + report.consistent == 60


@pytest.mark.parametrize("setup", GAMES, ids=lambda s: s[0])
def test_non_canonical_logs_are_rejected(setup: tuple[str, int, dict[str, object]]) -> None:
    name, players, options = setup
    game = played(name, players, options, seed=22, moves=25)
    report = fuzz_log(game, 40, Rng.stream(22, 98), kinds=STRICT_KINDS)
    # Every one is rejected, but a header stating an older rules_version that the game's
    # upcasters bring to exactly this game (Spacc 'u Mazz versions 1 and 2): neutral.
    assert report.rejected + report.neutral == report.tried == 40
    assert report.neutral == 0 or name == "spacc-u-mazz"


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
        # fuzz_log raises if a mutant that must be rejected replays; the rest are config or
        # auto_chance edits, which may re-decide identically (a true record of that game)
        assert report.tried == 100 and report.rejected >= 90
        assert report.rejected + report.neutral + report.prefix + report.consistent == 100


def test_a_log_with_another_legal_play_is_another_true_record() -> None:
    # Found by the long scan: a Cutthroat Spades log whose play KD (action and event) was
    # replaced by 9D, another legal play, replays; replay cannot tell it from a real game.
    name, players, options = next(s for s in GAMES if s[0] == "cutthroat-spades")
    game = played(name, players, options, seed=1, moves=35)
    data = json.loads(cardkit.dumps(game.log))
    for index, entry in enumerate(data["entries"]):
        if entry["actor"] != "chance" and entry["action"]["type"] == "play":
            break
    before = cardkit.replay(cardkit.loads(json.dumps({**data, "entries": data["entries"][:index]})))
    others = [a for a in before.legal_actions() if str(a) != f"play {entry['action']['card']}"]
    assert others, "the seat had another legal play"
    alternative = before.play(others[0])
    mutant = json.loads(cardkit.dumps(alternative.log))
    again = cardkit.replay(cardkit.loads(json.dumps(mutant)))
    assert again.log.entries[: len(mutant["entries"])] == cardkit.loads(json.dumps(mutant)).entries
