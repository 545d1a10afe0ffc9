"""Each game page documents its game completely and on its own (docs/games/<name>.md).

The examples on the pages are run by tests/test_docs.py; this checks the page's shape:
every option the code accepts is in the options table, the rules are numbered in order,
decisions and worked examples are there, and nothing points outside the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cardkit

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("crazy-eights", "cutthroat-spades", "spacc-u-mazz", "wizard")
# Paths of the project's private working files, which a user of the library does not have.
OUTSIDE = re.compile(r"\bshared/|\brules/[\w.-]*\.md|\bseeds?/|\bDESIGN\.md|\bthe spec(ification)? file", re.I)


def page(game: str) -> str:
    return (ROOT / "docs" / "games" / f"{game}.md").read_text("utf-8")


def section(text: str, title: str) -> str:
    """The body of the level-2 section whose title starts with ``title``."""
    match = re.search(rf"^## {re.escape(title)}.*?$(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"no '## {title}' section"
    return match.group(1)


def test_every_built_in_game_has_a_page() -> None:
    built_in = {
        name
        for name in cardkit.available_games()
        if type(cardkit.get_rules(name)).__module__.startswith("cardkit.games.")
    }
    assert built_in == set(GAMES)  # other tests register games of their own
    for game in GAMES:
        assert (ROOT / "docs" / "games" / f"{game}.md").is_file()


@pytest.mark.parametrize("game", GAMES)
def test_the_options_table_lists_every_option_with_default_values_and_meaning(game: str) -> None:
    rules = cardkit.get_rules(game)
    options = rules.config(players=max(rules.min_players, 4 if game != "crazy-eights" else 2)).as_options()
    table = section(page(game), "Options")
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `(\w+)` \|.*$", table, re.M)}
    missing = sorted(set(options) - set(rows))
    assert missing == [], f"{game}: options not documented: {missing}"
    for name, row in rows.items():
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 4 and all(cells), f"{game}: option {name} needs default, values, meaning"


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_are_numbered_in_order(game: str) -> None:
    rules = section(page(game), "Rules")
    numbers = [m.group(1) for m in re.finditer(r"^\s*(\d+[a-z]?)\. \*\*", rules, re.M)]
    numbers += [m.group(1) for m in re.finditer(r"^(\d+[a-z]?)\. (?!\*\*)", rules, re.M)]
    plain = sorted({int(n) for n in numbers if n.isdigit()})
    assert plain == list(range(1, len(plain) + 1)), f"{game}: rule numbers {plain}"
    assert len(plain) >= 18


@pytest.mark.parametrize("game", GAMES)
def test_decisions_and_runnable_worked_examples_are_there(game: str) -> None:
    text = page(game)
    assert section(text, "Decisions").count("\n* ") >= 5
    examples = section(text, "Worked examples")
    assert examples.count("```python") >= 2
    assert "auto_chance=False" in examples and "Shuffle(" in examples


@pytest.mark.parametrize("path", ["README.md", *(f"docs/games/{g}.md" for g in GAMES)])
def test_no_page_points_outside_the_repository(path: str) -> None:
    text = (ROOT / path).read_text("utf-8")
    assert [m.group(0) for m in OUTSIDE.finditer(text)] == []


def test_the_outside_pattern_catches_what_it_must() -> None:
    for bad in ("see shared/rules/wizard.md", "rules/crazy-eights.md", "the seed files in seeds/", "DESIGN.md §2"):
        assert OUTSIDE.search(bad), bad
    for fine in ("the rules below", "seed=7", "a seeded game"):
        assert not OUTSIDE.search(fine), fine
