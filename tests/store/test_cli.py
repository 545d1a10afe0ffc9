"""``cardkit store``: list, show, export, import."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardkit
import cardkit.store
from cardkit.cli.main import main
from cardkit.rng import Rng

from .helpers import random_moves


def test_store_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path}/cli.db"
    game, _ = random_moves(cardkit.new_game("crazy-eights", players=3, seed=31), Rng(2), 15)
    log_file = tmp_path / "in.json"
    log_file.write_text(cardkit.dumps(game.log), encoding="utf-8")

    assert main(["store", url, "import", str(log_file), "--match-id", "first"]) == 0
    assert capsys.readouterr().out.strip() == "first"
    assert main(["store", url, "list"]) == 0
    out = capsys.readouterr().out
    assert "first\tcrazy-eights\t3 players\t" in out and "to act" in out
    assert main(["store", url, "show", "first"]) == 0
    out = capsys.readouterr().out
    assert f"entries: {len(game.log.entries)}" in out and str(game.seed) not in out
    exported = tmp_path / "out.json"
    assert main(["store", url, "export", "first", "-o", str(exported)]) == 0
    assert cardkit.loads(exported.read_text(encoding="utf-8")) == game.log
    assert main(["store", url, "list", "--status", "finished"]) == 0
    assert "first" not in capsys.readouterr().out

    assert main(["store", url, "show", "missing"]) == 1
    assert "UnknownMatchError" in capsys.readouterr().err
    log_file.write_text("{not json", encoding="utf-8")
    assert main(["store", url, "import", str(log_file)]) == 1
    assert "LogError" in capsys.readouterr().err
    assert main(["store", "nosuch://x", "list"]) == 1
    assert "ConfigError" in capsys.readouterr().err
