"""Entry-by-entry leak scan of every built-in game.

``check_invariants`` scans views, redacted events, ``entries_for``,
``legal_actions`` text and the refusals of plausible bad actions at every checked state;
``check_error_texts`` additionally types every text a person could plausibly type (every
card code, every verb with every card, numbers, garbage) at sampled states.

Long mode: ``CARDKIT_LONG=1 PYTHONPATH=src python -m pytest -q -m slow tests/scans``.
"""

from __future__ import annotations

from typing import Any

import pytest
from scan_setups import LONG, SETUPS, setup_id, setups

from cardkit import get_rules
from cardkit.core.game import Game
from cardkit.rng import Rng
from cardkit.testing import check_invariants, random_playout
from cardkit.testing.probes import typed_texts
from cardkit.testing.scans import check_error_texts

# Superscript digits pass str.isdigit and then broke int() (issue 8, defect 5).
SUPERSCRIPT_TEXTS = ("pick ²", "bid ²", "blind ²", "remove down:²")


def texts_for(game: Game) -> list[str]:
    """Every plausible text for ``game`` now."""
    deck = sorted({c for z in game.zones() for c in z.cards}, key=lambda c: c.code)
    verbs = sorted({str(a).split()[0] for a in game.legal_actions()})
    return typed_texts(verbs, deck)


def scan_typed_errors(
    name: str, players: int, options: dict[str, Any], seed: int, states: int, texts: tuple[str, ...] | None = None
) -> int:
    """Type every plausible text at ``states`` points of one random game; texts tried."""
    rules = get_rules(name)
    game = Game.start(rules, rules.config(players, **options), seed)
    rng = Rng.stream(seed, 3)
    tried = 0
    for _ in range(states):
        if game.is_over:
            break
        tried += check_error_texts(game, texts_for(game) if texts is None else texts)
        game = random_playout(game, rng, 1 + rng.below(12))
    return tried


@pytest.mark.parametrize("name", ["crazy-eights", "wizard", "cutthroat-spades", "spacc-u-mazz"])
def test_superscript_digits_get_cardkit_errors(name: str) -> None:
    options = {"max_hands": 2} if name == "cutthroat-spades" else {}
    players = 3
    assert scan_typed_errors(name, players, options, seed=2, states=1, texts=SUPERSCRIPT_TEXTS) == 4


@pytest.mark.parametrize("setup", setups(), ids=setup_id)
def test_typed_errors_name_no_concealed_card(setup: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = setup
    assert scan_typed_errors(name, players, options, seed=1, states=2) > 1000


@pytest.mark.parametrize("setup", setups(), ids=setup_id)
def test_checker_scan(setup: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = setup
    report = check_invariants(name, players, 11, policy_seed=11, full_checks_every=4, **options)
    assert report.entries > 0


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="long run: set CARDKIT_LONG=1")
@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
def test_leak_scan_long(setup: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = setup
    for seed in range(40):
        check_invariants(name, players, 500 + seed, policy_seed=seed, full_checks_every=2, **options)
    for seed in range(8):
        assert scan_typed_errors(name, players, options, seed=900 + seed, states=10) > 0
