"""``rules.status(view, names)``: every built-in game's table for people (issue 27).

Random games are walked and every view (each seat's and the spectator's) is turned into a
status at every step: it must read as sentences and rectangular tables of plain text, with
no Python literals and no escape codes, in every phase.
"""

from __future__ import annotations

import random
import re

import pytest

import cardkit
from cardkit.bots import make_bot
from cardkit.render import Status, generic_status, status

GAMES = [
    ("crazy-eights", {"mode": "points", "target": 15, "two_draws_two": True}),
    ("wizard", {"rounds": 4, "forbid_even_bids": True}),
    ("cutthroat-spades", {"max_hands": 1}),
    ("spacc-u-mazz", {}),
]
_LITERAL = re.compile(r"\[|\]|\{|\}|\bNone\b|\bTrue\b|\bFalse\b|\x1b|_")


def _check(result: Status, players: int) -> None:
    assert isinstance(result, Status) and result.sentences
    for sentence in result.sentences:
        assert sentence[:1].isupper() and sentence.endswith("."), sentence
        assert not _LITERAL.search(sentence), sentence
    for table in result.tables:
        assert len(table.rows) == players
        for row in (table.header, *table.rows):
            assert len(row) == len(table.header)
            for cell in row:
                assert cell and not _LITERAL.search(cell), (cell, table)


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_every_view_reads_as_sentences_and_tables(game: str, options: dict[str, object]) -> None:
    played = cardkit.new_game(game, players=3, seed=8, **options)
    bot, rng = make_bot("random"), random.Random(8)
    names = {1: "rule bot", 2: "random bot"}
    steps = 0
    while True:
        for seat in (0, 1, 2, None):
            _check(status(played.rules, played.view(seat), names), 3)
        if played.is_over or steps >= 150:
            break
        played = played.play(bot.choose(played.seat_state(played.to_act), rng), played.to_act)
        steps += 1
    assert steps > 20


def test_a_game_without_status_gets_the_generic_one() -> None:
    view = {"game": "x", "players": 2, "seat": 1, "to_act": 0, "hand": ["QS"], "scores": [3, 4],
            "pile_top": "9H", "trump": "S"}  # fmt: skip
    result = generic_status(view, {0: "rule bot"})
    assert result.sentences[0] == "Seat 0 (rule bot) is to act."
    assert "Trump: ♠." in result.sentences and "Pile top: 9♥." in result.sentences
    (table,) = result.tables
    assert table.header == ("seat", "scores")
    assert table.rows == (("Seat 0 (rule bot)", "3"), ("Seat 1 (you)", "4"))
    assert table.is_numeric(1) and not table.is_numeric(0)
