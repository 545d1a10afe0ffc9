"""``cardkit play`` driven through a pseudo-terminal, as a person would type.

Each game is played to its end by a scripted player who makes typos, asks for a hint,
tries ``undo``, saves the log mid-game (the whole log, which comes with a warning, and the
seat's own log) and otherwise chooses the first legal action by number; the saved log must
replay with ``cardkit replay``, and the seat's log must show with ``cardkit show``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cardkit

pexpect = pytest.importorskip("pexpect")

SRC = str(Path(cardkit.__file__).resolve().parent.parent)
PROMPT = "\r\n> |^> "


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    env["NO_COLOR"] = "1"
    env.update(extra)
    return env


def _spawn(args: list[str], env: dict[str, str]) -> Any:
    child = pexpect.spawn(
        sys.executable, ["-m", "cardkit.cli.main", *args], env=env, encoding="utf-8",
        timeout=60, dimensions=(50, 200),
    )  # fmt: skip
    child.delaybeforesend = None  # a person is slower, but the test need not be
    return child


GAMES = [
    ("crazy-eights", ["--players", "3", "--bots", "rule,random", "--seed", "11"]),
    ("wizard", ["--players", "3", "--bots", "rule", "--seed", "12", "-o", "rounds=2"]),
    ("cutthroat-spades", ["--players", "3", "--bots", "rule", "--seed", "13", "-o", "max_hands=1"]),
    ("spacc-u-mazz", ["--players", "3", "--bots", "random,rule", "--seed", "14"]),
]


@pytest.mark.parametrize(("game", "args"), GAMES, ids=[g for g, _ in GAMES])
def test_a_person_plays_a_whole_game(game: str, args: list[str], tmp_path: Path) -> None:
    saved = tmp_path / "mid.json"
    mine = tmp_path / "mine.json"
    script = ["", "plya 3X", "0", "999", "hint", "help", "undo", "1", f"save {saved}", f"save --seat {mine}"]
    child = _spawn(["play", game, *args], _env())
    child.expect("You are seat 0")
    moves = 0
    hints = 0
    seen: list[str] = []
    while True:
        index = child.expect([PROMPT, "The game is over[^\r\n]*", pexpect.EOF])
        seen.append(child.before or "")
        if index == 1:
            over = child.after
            break
        assert index == 0, "the command ended without finishing the game"
        line = script.pop(0) if script else "1"
        if line == "hint":
            hints += 1
        moves += 1
        assert moves < 3000
        child.sendline(line)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    transcript = "".join(seen)
    assert "Traceback" not in transcript
    assert "I did not understand 'plya 3X'" in transcript
    assert "There is no action 0" in transcript and "There is no action 999" in transcript
    assert re.search(r"Hint: \[\d+\] .+: .+", transcript), "hint names an action and a reason"
    assert "Type the number of an action" in transcript  # help
    assert "There is nothing of yours to undo." in transcript  # undo before any action of ours
    assert f"Saved the log to {saved}" in transcript
    assert f"Warning: {saved} holds the whole game: the seed and every hidden card" in transcript
    assert f"Saved your seat's log to {mine}" in transcript
    assert "Scores:" in over
    assert "\x1b[" not in transcript, "NO_COLOR is set: no colour codes"
    # the saved log replays, and so does the narration's source of truth
    out = subprocess.run(
        [sys.executable, "-m", "cardkit.cli.main", "replay", str(saved)],
        env=_env(), capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "entries verified" in out
    replayed = cardkit.replay(cardkit.loads(saved.read_text(encoding="utf-8")))
    assert replayed.rules.name == game
    assert any(e.actor == 0 for e in replayed.log.entries), "the save holds the person's move"
    shown = subprocess.run(
        [sys.executable, "-m", "cardkit.cli.main", "show", str(mine)],
        env=_env(), capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "as seat 0 saw it" in shown.splitlines()[0] and "seat 0" in shown
    assert cardkit.loads_seat_log(mine.read_text(encoding="utf-8")) == replayed.log_for(0)


def test_colour_on_a_terminal_unless_no_color() -> None:
    env = _env()
    del env["NO_COLOR"]
    # Crazy Eights with enough cards that a red card shows in the first view
    child = _spawn(["play", "crazy-eights", "--players", "2", "--seed", "5", "-o", "mode=single"], env)
    child.expect(PROMPT)
    assert "\x1b[31m" in (child.before or "")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_simulate_draws_a_progress_bar_on_a_terminal() -> None:
    pytest.importorskip("tqdm")
    child = _spawn(["simulate", "crazy-eights", "--players", "2", "--games", "30", "--seed", "1"], _env())
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = child.before or ""
    assert "game/s" in text or "it/s" in text or "30/30" in text, "tqdm's bar"
    assert "simulate: 3/30 games" not in text, "no plain progress lines on a terminal"
    assert "seat  wins  mean score" in text


def test_level_bots_and_a_hint_through_a_terminal() -> None:
    # level:1 and level:2 opponents (named as in the lobby's list), a hint, one move, quit
    child = _spawn(["play", "crazy-eights", "--players", "3", "--bots", "level:1,level:2", "--seed", "21"], _env())
    child.expect(PROMPT)
    header = child.before or ""
    assert "level:1" in header and "level:2" in header
    child.sendline("hint")
    child.expect(PROMPT)
    hint = child.before or ""
    match = re.search(r"Hint: \[(\d+)\] (.+?): (.+)", hint)
    assert match, hint
    child.sendline(match.group(1))  # take the hint
    child.expect(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
