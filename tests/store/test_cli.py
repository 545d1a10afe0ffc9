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


def test_store_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 24 item 5: `cardkit store URL verify [ID...]`, one line per match, exit 1 if any is broken.
    import sqlite3

    url = f"sqlite:///{tmp_path}/v.db"
    with cardkit.store.open(url, snapshot_every=8) as store:
        for i in range(3):
            game, _ = random_moves(cardkit.new_game("crazy-eights", players=3, seed=40 + i), Rng(i), 25)
            store.create(game, match_id=f"m{i}")
    assert main(["store", url, "verify"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[:2] for line in lines] == [["ok", "m0"], ["ok", "m1"], ["ok", "m2"]]
    conn = sqlite3.connect(f"{tmp_path}/v.db")
    with conn:  # a stacked deal, behind the store's back
        (action,) = conn.execute("SELECT action FROM cardkit_entries WHERE match_id = 'm1' AND seq = 1").fetchone()
        conn.execute("UPDATE cardkit_entries SET action = ? WHERE match_id = 'm1' AND seq = 1",
                     (action.replace('"', "'", 0) + " ",))
    conn.close()
    assert main(["store", url, "verify"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[:2] for line in lines] == [["ok", "m0"], ["BROKEN", "m1"], ["ok", "m2"]]
    assert "entry 1" in lines[1]
    assert main(["store", url, "verify", "m0", "m2"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    assert main(["store", url, "verify", "m1", "nope"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("BROKEN\tm1") and out[1].startswith("BROKEN\tnope")
    # an id from a non-UTF-8 argument (a lone surrogate): one escaped line, no crash
    assert main(["store", url, "verify", "m0", "bad\udcff"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("ok\tm0") and out[1].startswith("BROKEN\t'bad\\udcff'\t")
    out[1].encode("utf-8")
