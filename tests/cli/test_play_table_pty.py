"""What a person sees at ``cardkit play`` and the other commands in a terminal (issue 27).

Each test drives the real command through a pseudo-terminal (or a real pipe, for ``| head``)
and reads the screen as a person would: the table as sentences and aligned per-seat
tables, never Python literals; refusals that say why; action lists that break only between
actions; undo against bots; ``~`` in file names; Ctrl-C; a closed pipe; ``cardkit show``
with every card; Wizard's Jester by name; the special Spades bids explained; ``cardkit
rules`` naming each type once.
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
from cardkit.core.knowledge import cards_named
from cardkit.render import card_text

pexpect = pytest.importorskip("pexpect")

SRC = str(Path(cardkit.__file__).resolve().parent.parent)
PROMPT = "\r\n> |^> "


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    env["NO_COLOR"] = "1"
    env.pop("COLUMNS", None)
    env.update(extra)
    return env


def _spawn(args: list[str], env: dict[str, str] | None = None, columns: int = 200) -> Any:
    child = pexpect.spawn(
        sys.executable, ["-m", "cardkit.cli.main", *args], env=env or _env(), encoding="utf-8",
        timeout=60, dimensions=(50, columns),
    )  # fmt: skip
    child.delaybeforesend = None
    return child


def _screen(child: Any) -> str:
    """Everything up to the next prompt."""
    child.expect(PROMPT)
    return str(child.before or "").replace("\r\n", "\n")


def _leave(child: Any, status: int = 0) -> None:
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status


# ------------------------------------------------------------------ (b) the status line

FIRST_SCREENS = [
    ("crazy-eights", ["--seed", "5"], ["Top card: ", "the suit to play is", "Stock: "], "cards  score"),
    ("wizard", ["--seed", "5"], ["Round 1 of 20; seat 2 dealt.", "Trumps: "], "cards  bid  tricks  score"),
    ("cutthroat-spades", ["--seed", "5"], ["Game 1, hand 1", "Out of play: 2♣."], "tricks  bags  score  games"),
    ("spacc-u-mazz", ["--seed", "5"], ["Pile (one card)", "Reference rank: ", "Main stock: "], "face up"),
]


@pytest.mark.parametrize(("game", "args", "sentences", "header"), FIRST_SCREENS, ids=[g[0] for g in FIRST_SCREENS])
def test_the_table_is_sentences_and_a_seat_table(game: str, args: list[str], sentences: list[str],
                                                 header: str) -> None:  # fmt: skip
    child = _spawn(["play", game, "--players", "3", *args])
    screen = _screen(child)
    _leave(child)
    table = screen[screen.index("Your hand:") : screen.index("Your turn.")]
    for sentence in sentences:
        assert sentence in table
    assert header in table, table
    # one row per seat, the person and the bots named
    assert re.search(r"^  Seat 0 \(you\) +\S", table, re.M)
    assert re.search(r"^  Seat 1 \(rule bot\) +\S", table, re.M)
    assert re.search(r"^  Seat 2 \(rule bot\) +\S", table, re.M)
    # no Python literals: lists, dicts, booleans, None, snake_case keys
    for literal in ("[", "{", "False", "True", "None", "_", "kind:"):
        assert literal not in table, (literal, table)


def test_the_table_shows_the_trick_in_play_and_undo_is_refused_once_a_bot_showed_a_card() -> None:
    child = _spawn(["play", "wizard", "--players", "3", "--seed", "5", "-o", "rounds=3"])
    screen = _screen(child)
    for _ in range(8):  # bid and play until a bot has led a card to the person
        if "Trick: seat" in screen:
            break
        child.sendline("1")
        screen = _screen(child)
    assert re.search(r"Trick: seat \d led \S+(, seat \d played \S+)*; follow . \w+ if you can; seat \d is winning it\.",
                     " ".join(screen.split())), screen  # fmt: skip
    assert "last round" in screen and re.search(r"[+-]\d+\s*$", screen.split("Your turn.")[0].splitlines()[-1])
    # (d) the bot's card was shown to the person: undo is refused, and the game is unchanged
    child.sendline("undo")
    answer = " ".join(_screen(child).split())
    assert "Cannot undo: since your last action, a card that was hidden from you was shown to you" in answer
    child.sendline("view")
    assert "Trick: seat" in _screen(child)
    _leave(child)


# ------------------------------------------------------------------ (a) refusals say why


def test_an_illegal_move_says_why() -> None:
    child = _spawn(["play", "crazy-eights", "--players", "2", "--seed", "0"])
    _screen(child)
    child.sendline("play JS")
    answer = " ".join(_screen(child).split())
    _leave(child)
    assert "'play JS' is not legal now: JS does not match 2H (active suit H)." in answer


# ------------------------------------------------------------------ (c) wrapping, (j) special bids


def test_action_lists_break_only_between_actions_and_special_bids_are_explained() -> None:
    child = _spawn(["play", "cutthroat-spades", "--players", "3", "--seed", "5"], columns=60)
    first = " ".join(_screen(child).split())
    child.sendline("look")
    screen = _screen(child)
    _leave(child)
    # (j) what the special bids mean, under the list of bids
    words = " ".join(screen.split())
    assert "bid blind-nil: nil without looking at your hand" in first
    assert "bid 1f: one for fifty, take exactly one trick (+50;" in words
    assert "bid 2f: two for forty, take exactly two tricks (+40;" in words
    assert "bid moon: shoot the moon, take 14 tricks or more" in words
    assert "bid nil: take no trick" in words
    # (c) the list wraps at 60 columns, between actions only
    actions = screen.split("Your turn. Actions:\n")[1].splitlines()
    listed = [line for line in actions if line.startswith("[")]
    assert len(listed) >= 3, "21 bids do not fit in one line of 60 columns"
    for line in listed:
        assert len(line) <= 60, line
        assert re.fullmatch(r"\[\d+\] \S+( \S+)*?(  \[\d+\] \S+( \S+)*?)*", line), line
        assert not re.search(r"\bbid$", line), f"an action cut in two: {line!r}"
    numbers = [int(n) for n in re.findall(r"\[(\d+)\]", "\n".join(listed))]
    assert numbers == list(range(1, 22))


# ------------------------------------------------------------------ (d) undo against bots


def test_undo_takes_back_the_bots_replies_when_nothing_was_shown() -> None:
    child = _spawn(["play", "wizard", "--players", "3", "--seed", "3", "-o", "rounds=1"])
    _screen(child)
    child.sendline("1")  # bid 0; both bots bid; the person leads
    before = _screen(child)
    assert "Seat 1 bids" in before and "Seat 2 bids" in before
    child.sendline("undo")
    after = _screen(child)
    assert "Your last action is taken back, with 2 bot move(s) that followed it." in after
    assert "[1] bid 0  [2] bid 1" in after, "the person bids again"
    child.sendline("2")  # bid 1 this time; then play the card: the bots answer with cards
    _screen(child)
    child.sendline("1")
    child.expect("The game is over|" + PROMPT)
    _leave(child) if child.isalive() else child.close()


# ------------------------------------------------------------------ (e) save ~/x.json


def test_save_expands_the_home_directory(tmp_path: Path) -> None:
    child = _spawn(["play", "crazy-eights", "--players", "2", "--seed", "1"], _env(HOME=str(tmp_path)))
    _screen(child)
    child.sendline("save ~/x.json")
    answer = _screen(child)
    child.sendline("save --seat ~/mine.json")
    mine = _screen(child)
    _leave(child)
    assert f"Saved the log to {tmp_path}/x.json" in answer
    assert f"Saved your seat's log to {tmp_path}/mine.json" in mine
    assert cardkit.replay(cardkit.loads((tmp_path / "x.json").read_text(encoding="utf-8"))).players == 2
    assert not (Path.cwd() / "~").exists()


# ------------------------------------------------------------------ (f) Ctrl-C


def test_ctrl_c_offers_to_save_before_ending(tmp_path: Path) -> None:
    child = _spawn(["play", "spacc-u-mazz", "--players", "3", "--seed", "2"])
    _screen(child)
    child.sendline("1")
    _screen(child)
    child.sendintr()
    child.expect("save to> ")
    offer = " ".join(str(child.before).split())
    assert "Interrupted. To keep this game, type a file name" in offer
    saved = tmp_path / "kept.json"
    child.sendline(str(saved))
    child.expect(pexpect.EOF)
    tail = str(child.before)
    child.close()
    assert child.exitstatus == 130
    assert f"Saved the log to {saved}" in tail and "Traceback" not in tail
    game = cardkit.replay(cardkit.loads(saved.read_text(encoding="utf-8")))
    assert any(e.actor == 0 for e in game.log.entries), "the person's move is in the saved game"


@pytest.mark.parametrize("second", ["ctrl-c", "eof"])
def test_ctrl_c_then_ctrl_c_or_end_of_input_ends_cleanly(second: str) -> None:
    child = _spawn(["play", "crazy-eights", "--players", "2", "--seed", "3"])
    _screen(child)
    child.sendline("1")
    _screen(child)
    child.sendintr()
    child.expect("save to> ")
    child.sendintr() if second == "ctrl-c" else child.sendeof()
    child.expect(pexpect.EOF)
    tail = str(child.before)
    child.close()
    assert "Not saved: bye." in tail
    assert "Traceback" not in tail and "KeyboardInterrupt" not in tail
    assert child.exitstatus == 130


# ------------------------------------------------------------------ (g) | head


def _log(tmp_path: Path, game: str, **options: Any) -> Path:
    import random

    from cardkit.bots import make_bot

    played = cardkit.new_game(game, players=3, seed=4, **options)
    bot, rng = make_bot("random"), random.Random(4)
    for _ in range(60):  # a few dozen actions: the deal and some play
        if played.is_over:
            break
        played = played.play(bot.choose(played.seat_state(played.to_act), rng), played.to_act)
    path = tmp_path / f"{game}.json"
    path.write_text(cardkit.dumps(played.log), encoding="utf-8")
    return path


HEAD = [
    ["show", "{log}"],
    ["replay", "{log}", "--step"],
    ["rules", "cutthroat-spades"],
    ["play", "crazy-eights", "--players", "2", "--seed", "1"],
    ["simulate", "crazy-eights", "--players", "2", "--games", "3"],
]


@pytest.mark.parametrize("args", HEAD, ids=[" ".join(a[:2]) for a in HEAD])
def test_a_pipe_into_head_prints_no_traceback(args: list[str], tmp_path: Path) -> None:
    log = _log(tmp_path, "crazy-eights")
    argv = [a.format(log=log) for a in args]
    # a shell pipeline, as a person types it: `cardkit ... | head -1`
    command = " ".join([sys.executable, "-m", "cardkit.cli.main", *argv]) + " | head -c 20"
    proc = subprocess.run(
        ["bash", "-o", "pipefail", "-c", f"yes 1 | {command}"], env=_env(), capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip
    assert proc.stdout, "head printed the start"
    assert proc.stderr == "", proc.stderr
    assert proc.returncode in (0, 141), proc.returncode


# ------------------------------------------------------------------ (h) show shows every card


@pytest.mark.parametrize("game", ["crazy-eights", "wizard", "cutthroat-spades", "spacc-u-mazz"])
def test_show_without_seat_names_every_dealt_card(game: str, tmp_path: Path, capsys: Any) -> None:
    from cardkit.cli.main import main

    log = _log(tmp_path, game)
    full = cardkit.replay(cardkit.loads(log.read_text(encoding="utf-8")))
    assert main(["show", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    by_seq = {int(line[1:].split("]")[0]): line for line in out if line.startswith("[")}
    checked = 0
    for entry in full.log.entries:
        if entry.actor >= 0:
            continue  # the deal and the other chance entries: the host sees every card
        named = [c for e in entry.events for c in cards_named(e)]
        line = by_seq[entry.seq]
        for card in set(named):
            assert card_text(card) in line, (card, line)
        checked += len(named)
    assert checked >= 3 * 5, "the deal was checked"


# ------------------------------------------------------------------ (i) Jester by name


def test_a_jester_is_played_by_name() -> None:
    child = _spawn(["play", "wizard", "--players", "3", "--seed", "5", "-o", "rounds=3"])
    screen = _screen(child)
    for _ in range(7):
        child.sendline("1")
        screen = _screen(child)
    assert "[1] play Jester  [2] play 4♦" in screen, "the list names the Jester as the hand does"
    child.sendline("play jester")
    answer = _screen(child)
    _leave(child)
    assert "Seat 0 (you) plays Jester." in answer


# ------------------------------------------------------------------ (k) rules


def _option_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"  \w+ \(", line)]


def _check_option_line(line: str) -> None:
    kinds = re.match(r"  \w+ \(([^)]*)\)", line)
    assert kinds is not None
    parts = [p.strip() for p in kinds.group(1).split(";")]
    assert parts[0] in ("bool", "int", "str", "list", "mapping", "float"), line
    assert parts[0] not in parts[1:] and len(parts) == len(set(parts)), f"a type said twice: {line}"


def test_rules_names_each_type_once() -> None:
    from cardkit.cli.rules_cmd import rules_text
    from cardkit.games import get_rules

    for game in ["crazy-eights", "wizard", "cutthroat-spades", "spacc-u-mazz"]:
        for line in _option_lines(rules_text(get_rules(game))):
            _check_option_line(line)
    child = _spawn(["rules", "crazy-eights"])  # and as printed on a terminal
    child.expect(pexpect.EOF)
    text = str(child.before).replace("\r\n", "\n")
    child.close()
    assert "two_draws_two (bool; default false)" in text
    for line in _option_lines(text):
        _check_option_line(line)
