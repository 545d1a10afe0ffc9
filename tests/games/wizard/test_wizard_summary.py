"""Issue 24, item 21: ``cardkit rules wizard`` and the docs say what rule 12 says — a
Jester loses to every other card, but a trick of Jesters alone goes to the first Jester."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardkit
from cardkit.cli.main import main
from cardkit.games.wizard.tricks import trick_winner

ROOT = Path(__file__).resolve().parents[3]


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_cardkit_rules_wizard_states_rule_12(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "wizard"]) == 0
    text = _flat(capsys.readouterr().out)
    assert "Jester may always be played and loses" not in text
    assert "when every card of a trick is a Jester the first Jester wins it" in text
    # what the text says is what the engine does (rule 12)
    jester = cardkit.Card("N")
    assert trick_winner([jester, jester, jester], None) == 0
    assert trick_winner([jester, jester, jester], cardkit.Card("2S").suit) == 0


def test_the_wizard_page_does_not_say_jesters_always_lose() -> None:
    page = _flat((ROOT / "docs" / "games" / "wizard.md").read_text("utf-8"))
    assert "Jesters lose to everything" not in page
    assert "a trick of Jesters alone goes to the first of them" in page
