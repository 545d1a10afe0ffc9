from __future__ import annotations

from pathlib import Path

import pytest

import cardkit
from cardkit.cli.main import main
from cardkit.rng import Rng
from cardkit.testing import random_playout


def test_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    assert "crazy-eights" in capsys.readouterr().out


def test_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "crazy-eights", "--players", "3", "--games", "20", "--seed", "1", "-o", "mode=points"]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "mean score" in out
    wins = [int(line.split()[1]) for line in out.splitlines() if line.strip()[:1].isdigit() and len(line.split()) == 3]
    assert sum(wins) == 20  # a points match always has one winner


def test_simulate_bad_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "crazy-eights", "--players", "3", "--games", "1", "-o", "colour=red"]) == 1
    assert "ConfigError" in capsys.readouterr().err


def test_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = random_playout(cardkit.new_game("crazy-eights", players=2, seed=4), Rng(4))
    path = tmp_path / "game.json"
    path.write_text(cardkit.dumps(game.log))
    assert main(["replay", str(path)]) == 0
    assert str(list(game.scores)) in capsys.readouterr().out
    path.write_text(cardkit.dumps(game.log)[:-10])
    assert main(["replay", str(path)]) == 1
    assert "LogError" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 1
