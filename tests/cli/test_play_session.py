"""``cardkit play`` without a terminal: the session object, pipes, end of input, determinism."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardkit
from cardkit.cli.main import main
from cardkit.cli.play import PlaySession
from cardkit.errors import ConfigError

SRC = str(Path(cardkit.__file__).resolve().parent.parent)


def _run(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NO_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "cardkit.cli.main", "play", *args],
        input=stdin, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_a_pipe_gets_no_colour_and_end_of_input_ends_cleanly() -> None:
    done = _run(["crazy-eights", "--players", "2", "--seed", "5"], "1\n")
    assert done.returncode == 0, done.stderr
    assert "\x1b[" not in done.stdout, "not a terminal: no colour"
    assert done.stdout.rstrip().endswith("End of input: bye.")
    assert done.stderr == ""


def test_same_seed_and_input_print_the_same_game() -> None:
    args = ["wizard", "--players", "3", "--bots", "rule,random", "--seed", "8", "-o", "rounds=2"]
    first = _run(args, "1\n" * 40)
    second = _run(args, "1\n" * 40)
    assert first.returncode == 0 and first.stdout == second.stdout
    assert "The game is over" in first.stdout
    other = _run([*args[:-3], "9", "-o", "rounds=2"], "1\n" * 40)
    assert other.stdout != first.stdout, "another seed deals another game"


def test_narration_comes_from_the_persons_redacted_entries_only() -> None:
    session = PlaySession.start("crazy-eights", players=3, seat=1, bots="rule", seed=3)
    lines = session.advance()
    text = "\n".join(lines)
    from cardkit.render import hand_text

    for other in (0, 2):
        hidden = session.game.view(other)["hand"]
        if session.game.view(1)["hand"] != hidden:
            assert hand_text(hidden) not in text


def _position_where_seat_0_acts_twice() -> cardkit.Game:
    """A Wizard game just before seat 0 wins a trick with its card and leads the next one."""
    for seed in range(50):
        game = cardkit.new_game("wizard", players=3, seed=seed, rounds=3)
        rng = random.Random(seed)
        while not game.is_over:
            before = game
            game = game.play(rng.choice(game.legal_actions()))
            if before.to_act == 0 and game.to_act == 0 and before.view(0)["phase"] == "play":
                return before
    raise AssertionError("no such position in 50 seeds")


def test_undo_takes_back_a_move_that_revealed_nothing() -> None:
    before = _position_where_seat_0_acts_twice()
    session = PlaySession.start("wizard", players=3, seat=0, bots="rule", seed=0, options={"rounds": 3})
    session.game = before
    session.narrated = before.entry_count - 1
    for action in before.legal_actions():
        if before.play(action).to_act == 0:
            break
    session.handle(str(action))
    assert session.game.to_act == 0 and session.game != before
    assert session.handle("undo") == ["Your last action is taken back."]
    assert session.game == before


def test_undo_takes_back_the_bots_replies_unless_a_card_was_shown() -> None:
    session = PlaySession.start("wizard", players=3, seat=0, bots="rule", seed=3, options={"rounds": 1})
    session.advance()
    before = session.game
    session.handle("1")  # a bid; the bots bid after it and show no card
    assert session.game.entry_count == before.entry_count + 3
    assert session.handle("undo") == ["Your last action is taken back, with 2 bot move(s) that followed it."]
    assert session.game == before
    session = PlaySession.start("wizard", players=3, seat=0, bots="rule", seed=5, options={"rounds": 3})
    session.advance()
    while "Trick: seat" not in session.view_text():  # until a bot has led a card to the person
        session.handle("1")
    after = session.game
    answer = session.handle("undo")
    assert answer[0].startswith("Cannot undo: since your last action, a card that was hidden from you")
    assert session.game is after


def test_cards_may_be_named_as_the_list_shows_them() -> None:
    session = PlaySession.start("wizard", players=3, seat=0, bots="rule", seed=5, options={"rounds": 3})
    session.advance()
    for _ in range(7):
        session.handle("1")
    assert [str(a) for a in session.game.legal_actions()] == ["play N", "play 4D"]
    game = session.game
    for typed in ("play jester", "PLAY Jester", "play J", "play N", "play n", "1"):
        session.game, session.narrated = game, game.entry_count - 1
        assert session.handle(typed)[0] == "Seat 0 (you) plays Jester.", typed
    session.game = game
    answer = session.handle("play")
    assert answer == ["'play' could be any of: [1] play Jester  [2] play 4♦. Type more, or a number."]
    assert session.game is game


def test_a_refusal_never_names_a_card_the_person_cannot_see() -> None:
    from cardkit.cli.play import _names_only

    view = {"hand": ["JS", "2H"], "top_card": "KH", "pile": [["1", "9C"]]}
    assert _names_only("JS does not match KH (active suit H)", view, "play JS")
    assert _names_only("9C is on top; 10H is yours", view, "play 10H")
    assert not _names_only("seat 1 holds QD", view, "play JS")


def test_ctrl_c_then_enter_leaves_without_saving() -> None:
    import io

    session = PlaySession.start("crazy-eights", players=2, seat=0, bots="rule", seed=3)
    session.advance()
    session.handle("1")
    out = io.StringIO()
    assert session._interrupted(io.StringIO("\n"), out, lambda t: print(t, file=out)) == 130
    assert "Not saved: bye." in out.getvalue()


def test_bad_input_is_answered_not_raised(tmp_path: Path) -> None:
    session = PlaySession.start("spacc-u-mazz", players=3, seat=0, bots="random", seed=1)
    session.advance()
    game = session.game
    for text in ["", "   ", "xyzzy", "play ZZ", "play 5X", "42", "0", "pick 1", "shuffle", "save",
                 f"save {tmp_path}/no/such/dir/x.json", "play " + "9" * 500, "\x00", "☃"]:  # fmt: skip
        answer = session.handle(text)
        assert answer and all(isinstance(a, str) and a for a in answer), text
        assert session.game is game, f"{text!r} changed the game"
    assert session.handle("save " + str(tmp_path / "ok.json"))[0].startswith("Saved")
    assert cardkit.replay(cardkit.loads((tmp_path / "ok.json").read_text())) == game


def test_hint_names_a_numbered_action_and_a_reason() -> None:
    session = PlaySession.start("crazy-eights", players=2, seat=0, bots="random", seed=2)
    session.advance()
    hint = session.hint()
    number = int(hint.split("[")[1].split("]")[0])
    assert 1 <= number <= len(session.game.legal_actions()) and hint.count(":") >= 2


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"players": 3, "seat": 3}, "--seat"),
        ({"players": 3, "bots": "rule,rule,rule"}, "--bots lists 3 bots for 2"),
        ({"players": 3, "bots": "nonsense"}, "unknown bot"),
        ({"players": 3, "bots": ","}, "--bots is empty"),
    ],
)
def test_bad_setup_is_a_config_error(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        PlaySession.start("crazy-eights", **kwargs)  # type: ignore[arg-type]


def test_bad_setup_through_main_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "crazy-eights", "--players", "9"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cardkit: ConfigError") and err.count("\n") == 1


def test_run_on_streams_plays_to_the_end() -> None:
    session = PlaySession.start("cutthroat-spades", players=3, seat=2, bots="rule", seed=4,
                                options={"max_hands": 1})  # fmt: skip
    out = io.StringIO()
    assert session.run(io.StringIO("1\n" * 100), out) == 0
    text = out.getvalue()
    assert "The game is over" in text and "You are seat 2" in text


_SESSION = PlaySession.start("wizard", players=3, seat=0, bots="random", seed=5, options={"rounds": 2})
_SESSION.advance()


@settings(max_examples=150)
@given(st.text(max_size=40).filter(lambda t: t.strip().split(" ")[0].lower() not in ("save", "quit", "exit")))
def test_any_line_gets_an_answer_and_only_a_legal_action_changes_the_game(text: str) -> None:
    session = PlaySession(_SESSION.game, 0, _SESSION.bots, _SESSION.bot_names,
                          {s: random.Random(s) for s in _SESSION.bots})  # fmt: skip
    session.narrated = _SESSION.narrated
    before = session.game
    answer = session.handle(text)
    assert answer and all(isinstance(a, str) for a in answer)
    if session.game is not before:
        played = session.game.log.entries[before.entry_count]
        assert played.actor == 0 and played.action in before.legal_actions()


def test_players_default_from_the_bots_listed() -> None:
    assert PlaySession.start("crazy-eights", bots="rule,random,rule", seed=1).game.players == 4
    assert PlaySession.start("wizard", bots="rule", seed=1).game.players == 3  # the game's minimum


def test_undo_of_a_draw_is_refused_because_it_showed_a_card() -> None:
    for seed in range(100):
        session = PlaySession.start("crazy-eights", players=2, seat=0, bots="rule", seed=seed)
        session.advance()
        if "draw" not in [str(a) for a in session.game.legal_actions()]:
            continue
        session.handle("draw")
        if session.game.to_act != 0:
            continue
        after = session.game
        answer = session.handle("undo")
        assert answer[0].startswith("Cannot undo: ") and "other seats" not in answer[0]
        assert session.game is after
        return
    raise AssertionError("no deal in 100 seeds where seat 0 draws and keeps the turn")


# ---------------------------------------------------------------- save (issue 24, item 4)


def test_save_says_the_host_log_holds_every_hidden_card_and_save_seat_writes_the_seats_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    session = PlaySession.start("crazy-eights", players=3, seat=1, bots="rule", seed=9)
    session.advance()
    session.handle("1")
    host, seat = tmp_path / "host.json", tmp_path / "seat.json"
    said = session.handle(f"save {host}")
    assert said[0].startswith(f"Saved the log to {host}")
    warning = said[1]
    assert warning.startswith(f"Warning: {host} holds the whole game") and "seed" in warning
    assert "hidden card" in warning and "save --seat FILE" in warning
    said = session.handle(f"save --seat {seat}")
    assert len(said) == 1 and said[0].startswith(f"Saved your seat's log to {seat}")
    assert "no seed" in said[0] and "cardkit show" in said[0]

    full = cardkit.replay(cardkit.loads(host.read_text(encoding="utf-8")))
    assert full == session.game
    data = json.loads(seat.read_text(encoding="utf-8"))
    assert "seed" not in data and data["seat"] == 1
    assert cardkit.loads_seat_log(seat.read_text(encoding="utf-8")) == full.log_for(1)
    hidden = [code for other in (0, 2) for code in full.view(other)["hand"]]
    assert hidden and all(f'"{code}"' in host.read_text() for code in hidden), "as the warning says"

    # cardkit show reads the seat's file as that seat saw it; replay names it and points to show
    assert main(["show", str(seat)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"crazy-eights, {len(full.log_for(1).entries)} entries, as seat 1 saw it")
    assert main(["show", str(seat), "--seat", "0"]) == 1
    assert "seat 1's export" in capsys.readouterr().err
    assert main(["replay", str(seat)]) == 1
    err = capsys.readouterr().err
    assert "seat 1's own log" in err and f"cardkit show {seat}" in err and err.count("\n") == 1


def test_the_seats_file_holds_no_card_the_seat_never_saw(tmp_path: Path) -> None:
    session = PlaySession.start("wizard", players=3, seat=0, bots="rule", seed=4, options={"rounds": 3})
    session.advance()
    seat = tmp_path / "seat.json"
    session.handle(f"save --seat {seat}")
    text = seat.read_text(encoding="utf-8")
    hidden = [code for s in (1, 2) for code in session.game.view(s)["hand"]]  # one deck: none is ours
    assert hidden and not any(f'"{code}"' in text for code in hidden)
    assert all(f'"{code}"' in cardkit.dumps(session.game.log) for code in hidden)
    assert str(session.game.seed) not in text
    assert session.handle("save --seat")[0].startswith("Say where")
