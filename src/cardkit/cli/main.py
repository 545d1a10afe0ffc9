"""``cardkit games | play | simulate | show | replay | rules | arena`` (see ``cardkit --help``).

Exit codes: 0 success, 1 a cardkit error (bad log, bad option, unreadable file …),
2 bad usage (argparse), 130 interrupted by Ctrl-C (``simulate`` prints what it had).
No error path prints a traceback: each prints one ``cardkit: ...`` line on stderr.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from typing import Any, Sequence

from cardkit import __version__
from cardkit.cli import arena, play, simulate, transcript
from cardkit.cli.simulate import DEFAULT_MAX_ACTIONS, INTERRUPTED
from cardkit.cli.serve import add_serve_parser
from cardkit.cli.rules_cmd import add_rules_command
from cardkit.cli.store_cmd import add_store_parser
from cardkit.errors import CardkitError, ConfigError, LogError
from cardkit.games import available_games, builtin_player_range, get_rules

# The engine, serde and the testing module are imported by the commands that use them:
# `cardkit games` and `--help` need none of them and should start fast.

__all__ = ["main", "parse_option", "build_parser", "DEFAULT_MAX_ACTIONS", "INTERRUPTED"]

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


def _replay(args: argparse.Namespace) -> int:
    if args.step:
        return transcript.step(args)
    if args.seat is not None:
        raise ConfigError("--seat goes with --step (or use: cardkit show LOG --seat S)")
    from cardkit.api import replay
    from cardkit.serde import loads, loads_seat_log

    text = transcript.read_log_text(args.log)
    try:
        log = loads(text)
    except RecursionError:
        raise LogError("the log is nested too deeply to be a cardkit log") from None
    except LogError as exc:
        try:
            seat_log = loads_seat_log(text)
        except (LogError, RecursionError):
            raise exc from None
        who = "a spectator's" if seat_log.seat is None else f"seat {seat_log.seat}'s own"
        raise LogError(
            f"this is {who} log (as `save --seat` or game.log_for writes "
            "it: no seed, the other seats' cards withheld), which cannot be replayed; "
            f"`cardkit show {args.log}` prints it"
        ) from None
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
        # built-in games are listed without importing them (a fast `cardkit games`)
        players = builtin_player_range(name)
        if players is None:
            rules = get_rules(name)
            players = (rules.min_players, rules.max_players)
        print(f"{name}  ({players[0]}-{players[1]} players)")
    return 0


class _VersionAction(argparse.Action):
    """``--version``: the release, and ``kernels: compiled`` or ``kernels: pure`` (the build
    of the game kernels this process loads; ``python -m cardkit.kernels info`` says why).
    The kernels are imported only here, so that other commands do not pay for the check."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        try:
            from cardkit import kernels
        except ImportError as exc:  # CARDKIT_KERNELS=compiled without a compiled build
            print(f"cardkit {__version__}", flush=True)
            print(f"cardkit: {exc}", file=sys.stderr)
            parser.exit(1)
        print(f"cardkit {__version__}\nkernels: {kernels.BUILD}")
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``cardkit`` command."""
    parser = argparse.ArgumentParser(prog="cardkit", description="Run cardkit games from the shell.")
    parser.add_argument(
        "--version", action=_VersionAction, help="show the version and which kernel build loads, and exit"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("games", help="list the registered games").set_defaults(func=_games)
    simulate.add_parser(sub, parse_option, _count)
    rep = sub.add_parser("replay", help="verify a JSON log and print its final scores")
    rep.add_argument("log", help="the log file, or - for standard input")
    rep.add_argument("--step", action="store_true",
                     help="walk the game entry by entry: Enter for the next, q to quit")  # fmt: skip
    rep.add_argument("--seat", type=int, default=None, help="with --step: as this seat saw it")
    rep.set_defaults(func=_replay)
    arena.add_parser(sub, parse_option)
    play.add_parser(sub, parse_option)
    add_rules_command(sub)
    add_store_parser(sub)
    transcript.add_parsers(sub)
    add_serve_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    _tolerant_stdout()
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


def _tolerant_stdout() -> None:
    # a terminal or pipe whose encoding has no ♥ (PYTHONIOENCODING=ascii, a latin-1
    # locale) gets \u2665 instead of the command dying half-way through a game or transcript
    stdout = sys.stdout
    if isinstance(stdout, io.TextIOWrapper) and stdout.errors == "strict":
        try:
            stdout.reconfigure(errors="backslashreplace")
        except (ValueError, OSError):  # pragma: no cover - a stream that cannot change
            pass


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 500 else text[:500] + " ..."


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
