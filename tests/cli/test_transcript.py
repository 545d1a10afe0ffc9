"""``cardkit show``, ``cardkit replay --step`` and ``cardkit rules``."""

from __future__ import annotations

import argparse
import io
import re
from pathlib import Path

import pytest

import cardkit
from cardkit.cli.main import main
from cardkit.cli.rules_cmd import rules_text
from cardkit.cli.transcript import step
from cardkit.render import hand_text
from cardkit.rng import Rng
from cardkit.testing.invariants import random_playout


@pytest.fixture()
def log_file(tmp_path: Path) -> tuple[Path, cardkit.Game]:
    game = random_playout(cardkit.new_game("crazy-eights", players=3, seed=21), Rng(21))
    path = tmp_path / "game.json"
    path.write_text(cardkit.dumps(game.log), encoding="utf-8")
    return path, game


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_show_prints_every_entry_and_the_result(log_file: tuple[Path, cardkit.Game],
                                                capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    path, game = log_file
    code, out, _ = _run(["show", str(path)], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("crazy-eights, 3 players")
    entries = [line for line in lines if line.startswith("[")]
    assert len(entries) == len(game.log.entries)
    assert all(re.match(rf"\[{i}\] ", line) for i, line in enumerate(entries))
    assert lines[-1].startswith("Over. Scores: ")
    assert "\x1b[" not in out


def test_show_as_a_seat_never_names_another_seats_hidden_cards(
    log_file: tuple[Path, cardkit.Game], capsys: pytest.CaptureFixture[str]
) -> None:
    path, game = log_file
    first = cardkit.new_game("crazy-eights", players=3, seed=21)
    _, host, _ = _run(["show", str(path)], capsys)
    for seat in range(3):
        _, out, _ = _run(["show", str(path), "--seat", str(seat)], capsys)
        assert f"as seat {seat} saw it" in out
        assert "your hand: " + hand_text(first.view(seat)["hand"]) in out
        for other in range(3):
            if other != seat:
                assert hand_text(first.view(other)["hand"]) not in out
    assert "your hand" not in host


def test_show_reads_a_per_seat_export(tmp_path: Path, log_file: tuple[Path, cardkit.Game],
                                      capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    _, game = log_file
    export = tmp_path / "seat1.json"
    export.write_text(cardkit.dumps(game.log_for(1)), encoding="utf-8")
    code, out, _ = _run(["show", str(export)], capsys)
    assert code == 0 and "as seat 1 saw it" in out
    _, direct, _ = _run(["show", str(log_file[0]), "--seat", "1"], capsys)
    body = [line for line in out.splitlines() if line.startswith("[")]
    assert body == [line for line in direct.splitlines() if line.startswith("[")]
    code, _, err = _run(["show", str(export), "--seat", "2"], capsys)
    assert code == 1 and "seat 1's export" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--seat", "3"], "--seat must be a seat"), (["--seat", "-1"], "--seat must be a seat")],
)
def test_show_bad_seat(args: list[str], message: str, log_file: tuple[Path, cardkit.Game],
                       capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    code, _, err = _run(["show", str(log_file[0]), *args], capsys)
    assert code == 1 and message in err and err.count("\n") == 1


def test_show_refuses_a_bad_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nope"}', encoding="utf-8")
    code, out, err = _run(["show", str(bad)], capsys)
    assert code == 1 and err.startswith("cardkit: LogError") and out == ""


def _step(path: Path, keys: str, seat: int | None = None) -> str:
    out = io.StringIO()
    args = argparse.Namespace(log=str(path), seat=seat)
    assert step(args, io.StringIO(keys), out) == 0
    return out.getvalue()


def test_step_walks_one_entry_per_enter_and_quits_on_q(log_file: tuple[Path, cardkit.Game]) -> None:
    path, game = log_file
    out = _step(path, "\n\nq\n")
    assert len(re.findall(r"(?:^|\s)\[\d+\] (?:seat|chance)", out)) == 3
    assert out.rstrip().endswith("Stopped.")
    # end of input shows the rest without waiting
    rest = _step(path, "", seat=0)
    assert len(re.findall(r"(?:^|\s)\[\d+\] (?:seat|chance)", rest)) == len(game.entries_for(0))
    assert "Over. Scores:" in rest


def test_step_through_main_on_a_pipe(log_file: tuple[Path, cardkit.Game], monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO("\nq\n"))
    code, out, _ = _run(["replay", str(log_file[0]), "--step"], capsys)
    assert code == 0 and "Stopped." in out
    code, _, err = _run(["replay", "-", "--step"], capsys)
    assert code == 1 and "give the log as a file" in err
    code, _, err = _run(["replay", str(log_file[0]), "--seat", "1"], capsys)
    assert code == 1 and "--seat goes with --step" in err


@pytest.mark.parametrize("name", cardkit.available_games())
def test_rules_prints_a_summary_and_every_option(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["rules", name], capsys)
    rules = cardkit.get_rules(name)
    assert code == 0 and out.startswith(f"{name} ({rules.min_players}-{rules.max_players} players)")
    assert "Type: " in out, "the summary says how to type actions"
    config = rules.config(rules.min_players)
    import attrs

    for field in attrs.fields(type(config)):
        if field.name != "players":
            assert re.search(rf"^  {field.name} ", out, re.M), field.name


def test_rules_for_a_game_without_summary_or_schema() -> None:
    class Bare:
        name = "bare"
        min_players = 2
        max_players = 2

        def config(self, players: int) -> object:
            return object()

    text = rules_text(Bare())
    assert "(this game has no summary)" in text and "(none)" in text


def test_rules_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(["rules", "poker"], capsys)
    assert code == 1 and "UnknownGameError" in err
