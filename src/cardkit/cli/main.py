"""``cardkit games | simulate | replay | arena`` (see ``cardkit --help``).

Exit codes: 0 success, 1 a cardkit error (bad log, bad option …), 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from cardkit.api import new_game, replay
from cardkit.cli import arena
from cardkit.errors import CardkitError
from cardkit.games import available_games, get_rules
from cardkit.rng import Rng
from cardkit.serde import loads
from cardkit.testing.invariants import random_playout

__all__ = ["main", "parse_option"]


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value``; the value is read as JSON when it parses (``3``, ``true``, ``null``,
    ``["JD","JC"]``), else kept as a string (``mode=points``)."""
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"option {text!r} must look like key=value")
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    return key.strip(), value


def _simulate(args: argparse.Namespace) -> int:
    options = dict(args.option or [])
    get_rules(args.game)
    wins = [0] * args.players
    draws = 0
    totals = [0] * args.players
    actions = 0
    start = time.perf_counter()
    for i in range(args.games):
        game = new_game(args.game, players=args.players, seed=args.seed + i, **options)
        game = random_playout(game, Rng.stream(args.seed, 1 << 32 | i), args.max_actions)
        actions += game.seat_actions
        result = game.result
        if result is None:
            draws += 1
            continue
        for seat in result.winners:
            wins[seat] += 1
        if not result.winners:
            draws += 1
        for seat, score in enumerate(result.scores):
            totals[seat] += score
    elapsed = time.perf_counter() - start
    print(f"{args.game}: {args.games} games, {args.players} players, seed {args.seed}, options {options}")
    print("seat  wins  mean score")
    for seat in range(args.players):
        print(f"{seat:>4}  {wins[seat]:>4}  {totals[seat] / max(1, args.games):>10.2f}")
    print(f"no winner: {draws}")
    print(f"{args.games / elapsed:.1f} games/s, {actions / elapsed:.0f} player actions/s")
    return 0


def _replay(args: argparse.Namespace) -> int:
    text = Path(args.log).read_text(encoding="utf-8")
    game = replay(loads(text))
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
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("games", help="list the registered games").set_defaults(func=_games)
    sim = sub.add_parser("simulate", help="play random legal games and print statistics")
    sim.add_argument("game")
    sim.add_argument("--players", type=int, required=True)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--max-actions", type=int, default=None, help="stop each game after this many seat actions")
    sim.add_argument("--option", "-o", action="append", type=parse_option, metavar="KEY=VALUE")
    sim.set_defaults(func=_simulate)
    rep = sub.add_parser("replay", help="verify a JSON log and print its final scores")
    rep.add_argument("log")
    rep.set_defaults(func=_replay)
    arena.add_parser(sub, parse_option)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except CardkitError as exc:
        print(f"cardkit: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"cardkit: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
