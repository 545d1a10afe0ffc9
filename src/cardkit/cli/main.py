"""``cardkit games | simulate | replay | arena | rules`` (see ``cardkit --help``).

Exit codes: 0 success, 1 a cardkit error (bad log, bad option, unreadable file …),
2 bad usage (argparse), 130 interrupted by Ctrl-C (``simulate`` prints what it had).
No error path prints a traceback: each prints one ``cardkit: ...`` line on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Sequence, TextIO

import attrs

from cardkit import __version__
from cardkit.api import new_game, replay
from cardkit.cli import arena
from cardkit.cli.rules_cmd import add_rules_command
from cardkit.cli.store_cmd import add_store_parser
from cardkit.errors import CardkitError, ConfigError, LogError
from cardkit.games import available_games, get_rules
from cardkit.rng import Rng
from cardkit.serde import loads
from cardkit.testing.invariants import random_playout

__all__ = ["main", "parse_option", "build_parser", "DEFAULT_MAX_ACTIONS", "INTERRUPTED"]

DEFAULT_MAX_ACTIONS = 10_000
"""Seat actions after which ``simulate`` stops a game and counts it as unfinished.

Every built-in game with its default options ends well within it under random play
(the longest seen: a 3-player Crazy Eights points match with reshuffles, about 3,400);
a Cutthroat Spades tournament without ``max_hands`` or ``mercy`` may never end."""

_MAX_SEED = 2**64 - 1

INTERRUPTED = 130
"""The exit code after Ctrl-C (128 + SIGINT), as shells use."""

# Python spellings a person types on a command line, besides JSON's true/false/null.
_PYTHON_WORDS: dict[str, Any] = {"True": True, "False": False, "None": None}


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value``; the value is read as JSON when it parses (``3``, ``true``, ``null``,
    ``["JD","JC"]``), as Python's ``True``/``False``/``None``, else kept as a string
    (``mode=points``)."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"option {text!r} must look like key=value")
    if key.strip() == "players":
        raise argparse.ArgumentTypeError("give the number of players with --players, not -o")
    word = raw.strip()
    if word in _PYTHON_WORDS:
        return key.strip(), _PYTHON_WORDS[word]
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        value = raw
    return key.strip(), value


def _count(low: int, what: str) -> Any:
    def parse(text: str) -> int:
        word = text.strip()
        if not (word.isascii() and word.lstrip("-").isdigit() and len(word) <= 20):
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, not {text!r}")
        value = int(word)
        if value < low:
            raise argparse.ArgumentTypeError(f"{what} must be at least {low}, not {value}")
        return value

    parse.__name__ = what  # argparse names the type in its messages
    return parse


@attrs.define
class _Tally:
    """What ``simulate`` has counted so far (printed at the end or on Ctrl-C)."""

    players: int
    played: int = 0
    finished: int = 0
    no_winner: int = 0
    unfinished: int = 0
    actions: int = 0
    wins: list[int] = attrs.Factory(list)
    totals: list[int] = attrs.Factory(list)

    def __attrs_post_init__(self) -> None:
        self.wins = [0] * self.players
        self.totals = [0] * self.players

    def add(self, result: Any, seat_actions: int) -> None:
        self.played += 1
        self.actions += seat_actions
        if result is None:
            self.unfinished += 1
            return
        self.finished += 1
        for seat in result.winners:
            self.wins[seat] += 1
        if not result.winners:
            self.no_winner += 1
        for seat, score in enumerate(result.scores):
            self.totals[seat] += score


def _print_tally(tally: _Tally, args: argparse.Namespace, elapsed: float, out: TextIO) -> None:
    print("seat  wins  mean score", file=out)
    for seat in range(tally.players):
        mean = f"{tally.totals[seat] / tally.finished:>10.2f}" if tally.finished else f"{'n/a':>10}"
        print(f"{seat:>4}  {tally.wins[seat]:>4}  {mean}", file=out)
    print(f"means are over the {tally.finished} finished game(s)", file=out)
    why = " (finished games that ended without a winner, e.g. a hand blocked with a tie)"
    print(f"no winner: {tally.no_winner}{why if tally.no_winner else ''}", file=out)
    line = f"unfinished: {tally.unfinished}"
    if tally.unfinished:
        line += (
            f" (stopped after --max-actions {args.max_actions} seat actions; not in wins or"
            " means: raise --max-actions, or use an option that bounds the game)"
        )
    print(line, file=out)
    if elapsed > 0:
        print(
            f"{tally.played / elapsed:.1f} games/s, {tally.actions / elapsed:.0f} player actions/s",
            file=out,
        )


def _simulate(args: argparse.Namespace) -> int:
    options = dict(args.option or [])
    get_rules(args.game)
    if args.seed + args.games - 1 > _MAX_SEED:
        raise ConfigError(
            f"game i is dealt with seed --seed + i, and seeds stop at 2**64 - 1: with "
            f"--games {args.games}, --seed must be at most {_MAX_SEED - args.games + 1}"
        )
    new_game(args.game, players=args.players, seed=args.seed, **options)  # options checked first
    out = sys.stdout
    print(
        f"{args.game}: {args.games} games, {args.players} players, seed {args.seed}, options {options}",
        file=out,
        flush=True,
    )
    tally = _Tally(args.players)
    start = time.perf_counter()
    try:
        for i in range(args.games):
            game = new_game(args.game, players=args.players, seed=args.seed + i, **options)
            game = random_playout(game, Rng.stream(args.seed, 1 << 32 | i), args.max_actions)
            tally.add(game.result, game.seat_actions)
    except KeyboardInterrupt:
        print(f"interrupted: {tally.played} of {args.games} games played", file=out)
        _print_tally(tally, args, time.perf_counter() - start, out)
        out.flush()
        return INTERRUPTED
    _print_tally(tally, args, time.perf_counter() - start, out)
    return 0


def _read_log_text(name: str) -> str:
    """The text of ``name`` (``-``: standard input), strictly UTF-8."""
    if name == "-":
        data = sys.stdin.buffer.read()
        where = "standard input"
    else:
        data = Path(name).read_bytes()
        where = name
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogError(
            f"{where} is not UTF-8 text (byte {data[exc.start]:#04x} at offset {exc.start}): "
            "a cardkit log is UTF-8 JSON"
        ) from None


def _replay(args: argparse.Namespace) -> int:
    text = _read_log_text(args.log)
    try:
        log = loads(text)
    except RecursionError:
        raise LogError("the log is nested too deeply to be a cardkit log") from None
    game = replay(log)
    entries = len(game.log.entries)
    print(f"{game.rules.name}: {entries} entries verified, {game.players} players, seed {game.seed}")
    print(f"scores: {list(game.scores)}")
    if game.result is not None:
        print(f"over; winners: {list(game.result.winners)}; final scores {list(game.result.scores)}")
    else:
        print(f"in progress; seat {game.to_act} to act")
    return 0


def _games(_: argparse.Namespace) -> int:
    for name in available_games():
        rules = get_rules(name)
        print(f"{name}  ({rules.min_players}-{rules.max_players} players)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``cardkit`` command."""
    parser = argparse.ArgumentParser(prog="cardkit", description="Run cardkit games from the shell.")
    parser.add_argument("--version", action="version", version=f"cardkit {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("games", help="list the registered games").set_defaults(func=_games)
    sim = sub.add_parser(
        "simulate",
        help="play random legal games and print statistics",
        description=(
            "Play GAMES games of uniformly random legal actions (game i uses seed SEED+i) and "
            "print each seat's wins and mean score over the finished games. A game still "
            "running after --max-actions seat actions is stopped and counted as unfinished. "
            "Ctrl-C prints the results so far and exits with 130."
        ),
    )
    sim.add_argument("game")
    sim.add_argument("--players", type=_count(1, "players"), required=True)
    sim.add_argument("--games", type=_count(1, "games"), default=100, help="games to play (default 100)")
    sim.add_argument("--seed", type=_count(0, "seed"), default=0, help="seed of the first game (default 0)")
    sim.add_argument(
        "--max-actions",
        type=_count(1, "max-actions"),
        default=DEFAULT_MAX_ACTIONS,
        help=(
            f"stop a game after this many seat actions and count it as unfinished "
            f"(default {DEFAULT_MAX_ACTIONS})"
        ),
    )
    sim.add_argument(
        "--option", "-o", action="append", type=parse_option, metavar="KEY=VALUE",
        help="a game option; the value is JSON (3, true, [\"JC\"]), True/False/None, or text",
    )  # fmt: skip
    sim.set_defaults(func=_simulate)
    rep = sub.add_parser("replay", help="verify a JSON log and print its final scores")
    rep.add_argument("log", help="the log file, or - for standard input")
    rep.set_defaults(func=_replay)
    arena.add_parser(sub, parse_option)
    add_rules_command(sub)
    add_store_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except CardkitError as exc:
        print(f"cardkit: {type(exc).__name__}: {_one_line(exc)}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"cardkit: {_one_line(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("cardkit: interrupted", file=sys.stderr)
        return INTERRUPTED
    except Exception as exc:  # a bug: still one line, not a traceback, and say so
        print(
            f"cardkit: unexpected {type(exc).__name__} (a bug in cardkit, please report it): "
            f"{_one_line(exc)}",
            file=sys.stderr,
        )
        return 1


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 500 else text[:500] + " ..."


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
