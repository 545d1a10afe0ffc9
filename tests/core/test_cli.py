from __future__ import annotations

import argparse
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardkit
from cardkit.cli.main import DEFAULT_MAX_ACTIONS, INTERRUPTED, main, parse_option
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


# ---------------------------------------------------------------- hardening (issue 8)


SRC = str(Path(__file__).resolve().parents[2] / "src")


def _cli(*args: str, stdin: bytes | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=SRC)
    done = subprocess.run(
        [sys.executable, "-m", "cardkit.cli.main", *args], input=stdin, capture_output=True, env=env,
        timeout=timeout,
    )  # fmt: skip
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    )


def _table(out: str) -> dict[str, str]:
    return {line.split(":")[0]: line for line in out.splitlines() if ":" in line}


def test_simulate_cutthroat_finishes_and_reports_unfinished_games(capsys: pytest.CaptureFixture[str]) -> None:
    # random Cutthroat Spades drifts negative for ever: every game hits the action limit
    assert main(["simulate", "cutthroat-spades", "--players", "3", "--games", "5", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    lines = _table(out)
    assert lines["unfinished"].startswith(f"unfinished: 5 (stopped after --max-actions {DEFAULT_MAX_ACTIONS}")
    assert lines["no winner"] == "no winner: 0"  # an unfinished game is not a game without a winner
    assert "0.00" not in out and out.count("n/a") == 3  # no mean over zero finished games
    assert "means are over the 0 finished game(s)" in out


def test_simulate_means_are_over_finished_games_only(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "cutthroat-spades", "--players", "3", "--games", "6", "--seed", "3", "-o", "wins_needed=1",
            "-o", "mercy=300", "--max-actions", "120"]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    unfinished = int(_table(out)["unfinished"].split()[1])
    finished = 6 - unfinished
    assert 0 < unfinished < 6, "this seed and limit stop some games, not all"
    assert f"means are over the {finished} finished game(s)" in out
    rows = [line.split() for line in out.splitlines() if len(line.split()) == 3 and line.split()[0].isdigit()]
    wins = sum(int(r[1]) for r in rows)
    assert finished <= wins  # each finished game has one winner or shares it
    # the means are those of the finished games, recomputed here
    totals = [0, 0, 0]
    for i in range(6):
        game = random_playout(
            cardkit.new_game("cutthroat-spades", players=3, seed=3 + i, wins_needed=1, mercy=300),
            Rng.stream(3, 1 << 32 | i), 120,
        )  # fmt: skip
        if game.result is not None:
            totals = [t + s for t, s in zip(totals, game.result.scores)]
    assert [float(r[2]) for r in rows] == [round(t / finished, 2) for t in totals]


def test_simulate_explains_no_winner(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "crazy-eights", "--players", "3", "--games", "200", "--seed", "1"]) == 0
    line = _table(capsys.readouterr().out)["no winner"]
    count = int(line.split()[2])
    assert count > 0 and "without a winner" in line and "tie" in line


def test_simulate_output_is_deterministic_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for _ in range(2):
        assert main(["simulate", "wizard", "--players", "4", "--games", "3", "--seed", "9"]) == 0
        out = capsys.readouterr().out.splitlines()
        assert out[-1].endswith("player actions/s")  # the one timing line comes last
        runs.append(out[:-1])
    assert runs[0] == runs[1]


@pytest.mark.parametrize("games", ["0", "-5", "two", "²"])
def test_simulate_games_below_one_is_a_usage_error(games: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", "crazy-eights", "--players", "3", "--games", games])
    assert info.value.code == 2
    assert "--games" in capsys.readouterr().err


def test_simulate_max_actions_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", "crazy-eights", "--players", "3", "--max-actions", "0"])
    assert info.value.code == 2 and "max-actions" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    import cardkit.kernels

    # the second line names the kernel build this process loaded
    assert capsys.readouterr().out.strip().splitlines() == [
        f"cardkit {cardkit.__version__}",
        f"kernels: {cardkit.kernels.BUILD}",
    ]


@pytest.mark.parametrize(
    "text,expected",
    [
        ("jack_skips=True", ("jack_skips", True)), ("jack_skips=true", ("jack_skips", True)),
        ("x=False", ("x", False)), ("x=false", ("x", False)), ("x=None", ("x", None)), ("x=null", ("x", None)),
        ("target=200", ("target", 200)), ("mode=points", ("mode", "points")), ("j=[\"JC\"]", ("j", ["JC"])),
        (" mode = points", ("mode", " points")), ("deep=" + "[" * 5000, ("deep", "[" * 5000)),
    ],
)  # fmt: skip
def test_parse_option_reads_json_and_python_words(text: str, expected: tuple[str, object]) -> None:
    assert parse_option(text) == expected


def test_python_and_json_booleans_give_the_same_simulation(capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for word in ("True", "true"):
        assert main(["simulate", "crazy-eights", "--players", "3", "--games", "5", "-o", f"jack_skips={word}"]) == 0
        outs.append(capsys.readouterr().out.splitlines()[:-1])
    assert outs[0] == outs[1] and "'jack_skips': True" in outs[0][0]


def test_replay_reads_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    game = random_playout(cardkit.new_game("wizard", players=3, seed=4), Rng(4))
    stdin = io.TextIOWrapper(io.BytesIO(cardkit.dumps(game.log).encode()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main(["replay", "-"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"wizard: {len(game.log.entries)} entries verified")
    assert str(list(game.scores)) in out


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``main(args)`` in this process: its exit code, stdout and stderr (any exception
    other than argparse's SystemExit escapes and fails the test, as a traceback would)."""
    try:
        code = main(args)
    except SystemExit as exc:
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    "content,message",
    [
        (b"\xff\xfe{}", "is not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "LogError"),
        (b'{"a":' * 3000 + b"1" + b"}" * 3000, "LogError"),
        (b"", "LogError"),
    ],
    ids=["not-utf8", "deep-list", "deep-object", "empty"],
)
def test_replay_bad_files_give_one_clean_line(
    tmp_path: Path, content: bytes, message: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    path = tmp_path / "log.json"
    path.write_bytes(content)
    results = [_run(["replay", str(path)], capsys)]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(content), encoding="utf-8"))
    results.append(_run(["replay", "-"], capsys))
    for code, out, err in results:
        assert code == 1 and out == ""
        assert message in err and len(err.strip().splitlines()) == 1 and err.startswith("cardkit: ")


def test_the_installed_entry_point_prints_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_bytes(b"\xff\xfe{}")
    for result in (_cli("replay", str(path)), _cli("replay", "-", stdin=b"[" * 100_000)):
        assert result.returncode == 1 and result.stdout == ""
        assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args,code",
    [
        (["simulate", "nogame", "--players", "3"], 1),
        (["simulate", "wizard", "--players", "99"], 1),
        (["simulate", "wizard", "--players", "3", "-o", "colour=red"], 1),
        (["simulate", "wizard", "--players", "3", "--games", "2", "--seed", str(2**64 - 1)], 1),
        (["simulate", "wizard", "--players", "3", "-o", "players=4"], 2),
        (["simulate", "wizard", "--players", "3", "-o", "noequals"], 2),
        (["simulate", "wizard"], 2),
        (["replay"], 2),
        (["replay", "/nonexistent/log.json"], 1),
        (["replay", "/"], 1),
        ([], 2),
    ],
)
def test_every_error_path_is_a_message_and_an_exit_code(
    args: list[str], code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    got, out, err = _run(args, capsys)
    assert got == code and err.strip()
    if code == 1:
        assert len(err.strip().splitlines()) == 1 and err.startswith("cardkit: ")
    else:
        assert "usage: cardkit" in err


def _ctrl_c_as_in_a_terminal() -> None:
    # A test run started in the background of a non-interactive shell (``cmd &``) ignores
    # SIGINT, and an ignored signal stays ignored across exec: the child would never see
    # the Ctrl-C this test sends. A person at a terminal has it at its default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_prints_partial_results_and_exits_130() -> None:
    env = dict(os.environ, PYTHONPATH=SRC)
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardkit.cli.main", "simulate", "cutthroat-spades", "--players", "3",
         "--games", "100000", "--max-actions", "200"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )  # fmt: skip
    assert proc.stdout is not None
    first = proc.stdout.readline()  # printed before the first game starts
    assert first.startswith("cutthroat-spades: 100000 games")
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == INTERRUPTED
    assert "Traceback" not in err
    lines = _table(out)
    played = int(lines["interrupted"].split()[1])
    assert 0 <= played < 100000  # usually dozens; none if the machine is very slow
    assert lines["unfinished"].startswith("unfinished: ")
    assert "seat  wins  mean score" in out


@given(st.text(max_size=60))
def test_parse_option_gives_a_pair_or_a_usage_error(text: str) -> None:
    try:
        key, _ = parse_option(text)
    except argparse.ArgumentTypeError:
        assert "=" not in text or not text.partition("=")[0].strip() or text.partition("=")[0].strip() == "players"
    else:
        assert key and key == text.partition("=")[0].strip()
