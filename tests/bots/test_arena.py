"""The arena: seats rotated, seeds per game, results independent of workers, honest stats."""

from __future__ import annotations

import json

import pytest

from cardkit.bots.arena import play_one, run_arena, wilson
from cardkit.cli.main import main
from cardkit.errors import ConfigError


def test_wilson_interval_known_values() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    low, high = wilson(81, 263)
    assert low == pytest.approx(0.2553, abs=1e-3) and high == pytest.approx(0.3662, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def test_seats_rotate_so_every_bot_sits_everywhere() -> None:
    report = run_arena("crazy-eights", 3, ["rule", "random", "random"], 6, seed=4)
    seen = {(o.bots.index(0), o.number % 3) for o in report.outcomes}
    assert {seat for seat, _ in seen} == {0, 1, 2}
    for seat in range(3):
        assert sum(1 for o in report.outcomes if o.bots[seat] == 0) == 2
    assert all(b.games == 6 for b in report.bots)
    total = sum(b.wins for b in report.bots)
    assert total == pytest.approx(6 - report.unfinished - sum(1 for o in report.outcomes if o.finished and not o.winners))


def test_results_do_not_depend_on_workers() -> None:
    one = run_arena("wizard", 3, ["rule", "random", "ismcts:15"], 3, seed=9, options={"rounds": 2})
    two = run_arena("wizard", 3, ["rule", "random", "ismcts:15"], 3, seed=9, workers=2, options={"rounds": 2})
    assert one.outcomes == two.outcomes
    assert one.as_json() == two.as_json()


def test_same_seed_same_game_different_number_different_game() -> None:
    a = play_one("crazy-eights", 3, {}, ("random",) * 3, 1, 0)
    b = play_one("crazy-eights", 3, {}, ("random",) * 3, 1, 0)
    c = play_one("crazy-eights", 3, {}, ("random",) * 3, 1, 1)
    assert a == b and a.seed != c.seed


def test_unfinished_games_are_counted() -> None:
    report = run_arena("spacc-u-mazz", 3, ["random"] * 3, 3, seed=1, max_actions=5)
    assert report.unfinished == 3
    assert all(b.wins == 0 and b.games == 3 for b in report.bots)


def test_bad_arena_input() -> None:
    with pytest.raises(ConfigError, match="one bot per seat"):
        run_arena("wizard", 3, ["rule", "random"], 3)
    with pytest.raises(ConfigError, match="multiple of 3"):
        run_arena("wizard", 3, ["rule"] * 3, 4)
    with pytest.raises(ConfigError, match="workers"):
        run_arena("wizard", 3, ["rule"] * 3, 3, workers=0)
    with pytest.raises(ConfigError):
        run_arena("wizard", 3, ["rule"] * 3, 3, options={"rounds": "many"})


def test_cli_arena_json_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["arena", "wizard", "--players", "3", "--bots", "rule,random,random", "--games", "6",
         "--seed", "2", "--json", "-o", "rounds=2"]
    )  # fmt: skip
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 6 and [b["spec"] for b in data["bots"]] == ["rule", "random", "random"]
    assert data["design"] == "permutations" and data["seatings"] == 6
    assert sum(b["wins"] for b in data["bots"]) <= 6
    assert all(0 <= b["low"] <= b["share"] <= b["high"] <= 1 for b in data["bots"])
    code = main(["arena", "wizard", "--players", "3", "--bots", "rule,oops,random", "--games", "3"])
    assert code == 1 and "unknown bot 'oops'" in capsys.readouterr().err
    code = main(["arena", "wizard", "--players", "3", "--bots", "rule,rule,rule", "--games", "6", "-o", "rounds=1"])
    out = capsys.readouterr().out
    assert code == 0 and "95% interval" in out and "unfinished games: 0" in out


def test_cli_arena_help_shows_plain_percent_signs(capsys: pytest.CaptureFixture[str]) -> None:
    # argparse does not %-format a description: '%%' used to reach the reader as it was
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "(s + g) % N" in out and "95% Wilson" in out and "%%" not in out
