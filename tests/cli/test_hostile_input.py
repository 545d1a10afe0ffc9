"""Hostile input to the ``cardkit`` command (issue 24, item 17): each gives a named error in
one line (status 1 where a command ends), and ``cardkit play`` never loses a game to it.

Where the trouble is in how Python decodes the command line or standard input, the real
command runs in a subprocess (``python -m cardkit.cli.main``, the console script's code)
with bytes for arguments and input. ``PYTHONIOENCODING=utf-8`` makes standard input
strict, as a ``en_US.UTF-8`` terminal has it; ``C.UTF-8`` decodes it with
``surrogateescape``: both are tried.
"""

from __future__ import annotations

import io
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

import cardkit
from cardkit.cli import transcript
from cardkit.cli.main import main
from cardkit.cli.play import PlaySession

SRC = str(Path(cardkit.__file__).resolve().parent.parent)
BUG = "a bug in cardkit"

STDIN_MODES = {
    "strict": {"PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8"},
    "surrogateescape": {"LC_ALL": "C.UTF-8"},
}


def _limits() -> None:  # pragma: no cover - runs in the child
    # a child that reads /dev/zero without bound must fail fast, not eat the machine
    try:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    except (ValueError, OSError):  # a platform without this limit: the timeout still holds
        pass


def _cardkit(args: list[str | bytes], stdin: bytes = b"", **env: str) -> subprocess.CompletedProcess[bytes]:
    environ = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    environ.pop("PYTHONIOENCODING", None)
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-m", "cardkit.cli.main", *args], input=stdin, capture_output=True,
        env=environ, timeout=120, preexec_fn=_limits,
    )  # fmt: skip


def _one_named_line(done: subprocess.CompletedProcess[bytes], name: str) -> str:
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 1, err
    assert err.startswith(f"cardkit: {name}: ") and err.count("\n") == 1, err
    assert BUG not in err and "Traceback" not in err
    return err


# ------------------------------------------------------------------ cardkit play


@pytest.mark.parametrize("mode", sorted(STDIN_MODES))
def test_play_survives_every_bad_line_and_keeps_the_game(mode: str, tmp_path: Path) -> None:
    saved = tmp_path / "kept.json"
    lines = [
        "²".encode(),  # str.isdigit() is True, int() refuses it
        b"9" * 5000,  # more digits than int() converts
        b"9" * 4000,  # a number that converts, far out of range
        b"save a\x00b",  # no file name holds a NUL
        b"\xff\xfe not utf-8",  # bytes that are not text
        b"x" * (3 * 4096),  # longer than a line may be (cardkit.cli.lines.MAX_LINE)
        b"1",  # and the game goes on: a legal action
        b"save " + str(saved).encode(),
    ]
    done = _cardkit(["play", "crazy-eights", "--players", "2", "--seed", "5"],
                    b"\n".join(lines) + b"\n", **STDIN_MODES[mode])  # fmt: skip
    out = done.stdout.decode("utf-8")
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert BUG not in out
    assert "I did not understand '²'" in out
    assert "That line is longer than 4096 characters; nothing was done." in out  # the 5,000 digits
    assert "There is no action '999999999999'... (4000 characters)" in out
    assert "Could not save to 'a\\x00b': that is not a possible file name" in out
    assert "holds bytes that are not text" in out
    assert "Seat 0 (you) plays" in out, "the legal action after the bad lines was played"
    kept = cardkit.replay(cardkit.loads(saved.read_text(encoding="utf-8")))
    assert any(e.actor == 0 for e in kept.log.entries), "the game was kept, with the person's move"
    assert out.rstrip().endswith("End of input: bye.")


def test_a_session_answers_the_bad_lines_and_changes_nothing(tmp_path: Path) -> None:
    session = PlaySession.start("crazy-eights", players=2, seat=0, bots="rule", seed=5)
    session.advance()
    game = session.game
    for line in ["²", "٣", "9" * 5000, "0" * 40 + "1", "save a\x00b", "save --seat a\x00b",
                 "\udcff\udcfe", "save \udcff", "play " + "9" * 5000]:  # fmt: skip
        answer = session.handle(line)
        assert answer and all(a and len(a) < 1000 for a in answer), line
        assert session.game is game and not session.done, line
        for text in answer:
            text.encode("utf-8")  # printable on any UTF-8 terminal: no lone surrogate echoed
    assert session.handle("9" * 5000)[0] == "That line is longer than 4096 characters; nothing was done."
    assert session.handle("9" * 4000)[0].startswith("There is no action '999999999999'... (4000")


def test_an_unexpected_error_is_reported_and_the_game_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    session = PlaySession.start("crazy-eights", players=2, seat=0, bots="rule", seed=5)
    session.advance()
    game = session.game

    def broken() -> str:
        raise ZeroDivisionError("a stand-in for a bug")

    monkeypatch.setattr(session, "hint", broken)
    out = io.StringIO()
    assert session.run(io.StringIO("hint\nquit\n"), out) == 0
    text = out.getvalue()
    assert "Sorry, that hit a bug in cardkit (ZeroDivisionError: a stand-in for a bug)" in text
    assert text.rstrip().endswith("Bye.") and session.game is game


def test_read_line_is_bounded_and_never_raises() -> None:
    from cardkit.cli.lines import read_line, tolerant

    raw = io.TextIOWrapper(io.BytesIO(b"ok\n" + b"y" * 100_000 + b"\n\xff\nlast"), encoding="utf-8")
    stream = tolerant(raw)
    assert stream.errors == "surrogateescape"
    first = read_line(stream)
    assert first is not None and first == ("ok", None)
    long = read_line(stream, limit=10)
    assert long is not None and long.text == "" and "longer than 10 characters" in (long.problem or "")
    bad = read_line(stream)
    assert bad is not None and "not text" in (bad.problem or "")
    assert read_line(stream) == ("last", None)
    assert read_line(stream) is None
    # a strict stream that cannot be made tolerant: the bad line is refused, never raised
    strict = io.TextIOWrapper(io.BytesIO(b"\xff\n"), encoding="utf-8")
    refused = read_line(strict)
    assert refused is not None and "not text" in (refused.problem or "")


# ------------------------------------------------------------------ logs: show, replay, store import


def test_show_refuses_a_link_to_dev_zero_without_reading_it(tmp_path: Path) -> None:
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    err = _one_named_line(_cardkit(["show", str(link)]), "LogError")
    assert "is a device, not a log file" in err
    for command in (["replay", str(link)], ["store", "memory:", "import", str(link)]):
        assert "is a device" in _one_named_line(_cardkit(command), "LogError")


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    assert "is a named pipe" in _one_named_line(_cardkit(["show", str(fifo)]), "LogError")


def test_a_log_larger_than_the_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    game = cardkit.new_game("crazy-eights", players=2, seed=1)
    path = tmp_path / "log.json"
    path.write_text(cardkit.dumps(game.log), encoding="utf-8")
    monkeypatch.setattr(transcript, "MAX_LOG_BYTES", path.stat().st_size)
    assert main(["replay", str(path)]) == 0
    capsys.readouterr()
    monkeypatch.setattr(transcript, "MAX_LOG_BYTES", path.stat().st_size - 1)
    assert main(["show", str(path)]) == 1
    assert "is larger than" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes()), encoding="utf-8"))
    assert main(["replay", "-"]) == 1
    assert "standard input is larger than" in capsys.readouterr().err


def test_replay_step_reads_lines_that_are_not_text(tmp_path: Path) -> None:
    game = cardkit.new_game("crazy-eights", players=2, seed=1)
    path = tmp_path / "log.json"
    path.write_text(cardkit.dumps(game.log), encoding="utf-8")
    for env in STDIN_MODES.values():
        done = _cardkit(["replay", str(path), "--step"], b"\xff\n" + b"z" * 100_000 + b"\n", **env)
        assert done.returncode == 0 and done.stderr == b"", done.stderr
        assert b"In progress" in done.stdout


# ------------------------------------------------------------------ cardkit store


def test_store_import_of_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_bytes(b'{"format": "\xff"}')
    err = _one_named_line(_cardkit(["store", f"sqlite:///{tmp_path}/s.db", "import", str(path)]), "LogError")
    assert "is not UTF-8 text" in err


@pytest.mark.parametrize("url", ["sqlite:///x%00.db", b"sqlite:///\xff\x00".replace(b"\x00", b"%00")])
def test_a_nul_in_a_store_url_is_a_config_error(url: str | bytes, tmp_path: Path) -> None:
    environ = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(
        # in tmp_path: a store that did open would leave its file there, not in the checkout
        [sys.executable, "-m", "cardkit.cli.main", "store", url, "list"], capture_output=True,
        env=environ, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert "cannot be opened" in _one_named_line(done, "ConfigError")
    done = subprocess.run(
        [sys.executable, "-m", "cardkit.cli.main", "simulate", "wizard", "--players", "3",
         "--games", "1", "--store", url], capture_output=True, env=environ, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert "cannot be opened" in _one_named_line(done, "ConfigError")


@pytest.mark.parametrize(
    "command",
    [["show", b"\xff"], ["export", b"m\xfe"], ["import", "LOG", "--match-id", b"\xff"], ["list", "--game", b"\xff"]],
)
def test_a_match_id_that_is_not_utf8_is_a_config_error(command: list[str | bytes], tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    log.write_text(cardkit.dumps(cardkit.new_game("wizard", players=3, seed=2).log), encoding="utf-8")
    args = [str(log) if part == "LOG" else part for part in command]
    done = _cardkit(["store", f"sqlite:///{tmp_path}/s.db", *args])
    assert "is not UTF-8 text" in _one_named_line(done, "ConfigError")


def test_an_output_encoding_without_suit_symbols_does_not_end_a_command(tmp_path: Path) -> None:
    game = cardkit.new_game("crazy-eights", players=2, seed=5)
    path = tmp_path / "log.json"
    path.write_text(cardkit.dumps(game.log), encoding="utf-8")
    done = _cardkit(["show", str(path)], PYTHONIOENCODING="ascii")
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert b"\\u2665" in done.stdout or b"\\u2660" in done.stdout  # escaped, not a crash
    done = _cardkit(["play", "crazy-eights", "--players", "2", "--seed", "5"], "1\n♥\n".encode(),
                    PYTHONIOENCODING="ascii")  # fmt: skip
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert b"Seat 0 (you) plays" in done.stdout and b"not text in this terminal's encoding" in done.stdout


def test_a_changed_seat_log_is_a_log_error_not_a_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    game = cardkit.new_game("crazy-eights", players=3, seed=2)
    data = json.loads(cardkit.dumps(game.log_for(1)))
    (event,) = [e for entry in data["entries"] for e in entry["events"] if "hand_sizes" in e][:1]
    event["hand_sizes"] = []  # a seat log is not replayed, so nothing else checks it
    path = tmp_path / "seat.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["show", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cardkit: LogError: entry ") and "per-seat log" in err and err.count("\n") == 1


def test_a_store_limit_beyond_a_database_integer_is_a_usage_error(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    with pytest.raises(SystemExit) as info:
        main(["store", f"sqlite:///{tmp_path}/s.db", "list", "--limit", "9" * 30])
    assert info.value.code == 2 and "--limit must be a whole number" in capsys.readouterr().err
    assert main(["store", f"sqlite:///{tmp_path}/s.db", "list", "--limit", "3"]) == 0
