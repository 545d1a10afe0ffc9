"""Games stopped by an end guard of their own options are not reported as finished
(issue 24, item 23): ``cardkit simulate`` and the arena count them apart.

The expected counts are read from the games' own logs: a Spacc 'u Mazz game stopped by its
``max_turns`` guard ends with a ``HandEnded`` event whose reason is ``"max_turns"``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

import pytest

import cardkit
from cardkit.bots.arena import run_arena
from cardkit.cli.main import main
from cardkit.games.spacc_u_mazz.events import HandEnded

# 2 players, random play: some games end by their rules, most at the 2,000-turn guard
ARGS = ["spacc-u-mazz", "--players", "2", "--games", "10", "--seed", "0"]


def _stopped_by_max_turns(log_text: str) -> bool:
    game = cardkit.replay(cardkit.loads(log_text))
    assert game.is_over
    last = game.log.entries[-1]
    return any(isinstance(e, HandEnded) and e.reason == "max_turns" for e in last.events)


def _expected(directory: Path) -> tuple[int, int, list[int]]:
    """(finished, guard-ended, wins in guard-ended games per seat) from the saved logs."""
    finished = guard = 0
    guard_wins = [0, 0]
    for path in sorted(directory.glob("game-*.json")):
        text = path.read_text(encoding="utf-8")
        result = cardkit.replay(cardkit.loads(text)).result
        assert result is not None
        if _stopped_by_max_turns(text):
            guard += 1
            for seat in result.winners:
                guard_wins[seat] += 1
        else:
            finished += 1
    return finished, guard, guard_wins


def test_simulate_counts_guard_ended_games_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    logs = tmp_path / "logs"
    assert main(["simulate", *ARGS, "--json", "--save-logs", str(logs)]) == 0
    report = json.loads(capsys.readouterr().out)
    finished, guard, guard_wins = _expected(logs)
    assert guard > 0 and finished > 0, "this seed gives both kinds of ending"
    assert report["guard_ended"] == guard and report["finished"] == finished
    assert report["unfinished"] == 0 and report["played"] == finished + guard == 10
    assert report["guard_wins"] == guard_wins
    assert sum(report["wins"]) >= sum(guard_wins) and len(report["mean_scores"]) == 2

    assert main(["simulate", *ARGS]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert f"means are over the 10 game(s) with a result: {finished} finished by their rules, {guard} ended by a guard" in lines
    (line,) = [line for line in lines if line.startswith("guard-ended: ")]
    assert line.startswith(f"guard-ended: {guard} (stopped by an end guard") and str(guard_wins) in line
    assert "unfinished: 0" in lines


def test_a_game_finished_by_its_rules_is_not_guard_ended(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "wizard", "--players", "3", "--games", "4", "--json", "-o", "rounds=1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["finished"], report["guard_ended"], report["guard_wins"]) == (4, 0, [0, 0, 0])


def _outcomes_by_guard(outcomes: Sequence[Any]) -> int:
    return sum(1 for o in outcomes if o.finished and o.guard_ended)


def test_the_arena_counts_guard_ended_games_apart(capsys: pytest.CaptureFixture[str]) -> None:
    # no Spacc 'u Mazz hand can be won in 12 turns (every seat holds hand, face-up and
    # face-down cards): each game ends at the guard, with a result
    report = run_arena("spacc-u-mazz", 3, ["random", "random", "rule"], 3, seed=1, options={"max_turns": 12})
    assert report.unfinished == 0 and report.guard_ended == 3 == _outcomes_by_guard(report.outcomes)
    assert report.as_json()["guard_ended"] == 3
    assert "guard-ended games: 3 (stopped by an end guard" in report.table()
    natural = run_arena("spacc-u-mazz", 2, ["rule", "rule"], 2, seed=1)
    assert natural.guard_ended == 0 and all(o.finished for o in natural.outcomes)
    assert main(["arena", "spacc-u-mazz", "--players", "3", "--bots", "random,random,rule", "--games", "6",
                 "--seed", "1", "--json", "-o", "max_turns=12"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["guard_ended"] == 6


def test_guard_ended_reads_a_users_hook_and_the_builtin_games() -> None:
    from cardkit.games.guards import ended_by_guard, guard_ended

    class Rules:
        name = "spacc-u-mazz"  # a user's rules never borrow a built-in game's check

        def __init__(self, answer: bool | None) -> None:
            if answer is not None:
                self.ended_by_guard = lambda state, events: answer

    assert guard_ended(Rules(True), None, ()) is True
    assert guard_ended(Rules(False), None, ()) is False
    assert guard_ended(Rules(None), None, ()) is False
    game = cardkit.new_game("spacc-u-mazz", players=2, seed=0, max_turns=5)
    assert not ended_by_guard(game), "a game still running did not end at all"
    while not game.is_over:
        game = game.play(game.legal_actions()[0])
    assert ended_by_guard(game) and guard_ended("spacc-u-mazz", game.state, game.log.entries[-1].events)
