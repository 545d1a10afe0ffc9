"""``cardkit show`` and ``cardkit replay --step``: games as text for people.

A transcript line is one log entry: its number, who acted and what, then what happened in
sentences (``rules.describe``)::

    [12] seat 2: play Q♠. Seat 2 plays Q♠. Seat 0 (you) draws five cards (the queen of spades).

With ``--seat`` the entries are those the seat may see (``game.entries_for(seat)``, or a
per-seat export made with ``game.log_for(seat)``); without it, the whole host-side log.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from typing import Any, Iterable, Sequence, TextIO

from cardkit.cli.lines import read_line, tolerant
from cardkit.errors import ConfigError, LogError

__all__ = [
    "MAX_LOG_BYTES",
    "add_parsers",
    "read_log_text",
    "load_entries",
    "entry_line",
    "show",
    "step",
]


MAX_LOG_BYTES = 64 * 1024 * 1024
"""The largest log file the commands read (64 MiB; a 10,000-action game's log is about
1.6 MB). A larger file, or standard input that goes on past it, is refused unread."""


def read_log_text(name: str, limit: int | None = None) -> str:
    """The text of ``name`` (``-``: standard input), strictly UTF-8, at most ``limit`` bytes
    (default :data:`MAX_LOG_BYTES`).

    ``name`` must be a regular file (or a link to one): a device such as ``/dev/zero``, a
    directory or a named pipe is refused before anything is read (:class:`LogError`).
    """
    limit = MAX_LOG_BYTES if limit is None else limit
    if name == "-":
        data = sys.stdin.buffer.read(limit + 1)
        where = "standard input"
    else:
        data = _read_regular_file(name, limit)
        where = name
    if len(data) > limit:
        raise LogError(f"{where} is larger than {limit} bytes, the most a cardkit command reads")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogError(
            f"{where} is not UTF-8 text (byte {data[exc.start]:#04x} at offset {exc.start}): "
            "a cardkit log is UTF-8 JSON"
        ) from None


def _read_regular_file(name: str, limit: int) -> bytes:
    # open first, then look at what was opened (no window between a check and the read);
    # O_NONBLOCK: opening a named pipe must not wait for a writer
    fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    with os.fdopen(fd, "rb") as file:
        mode = os.fstat(file.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise LogError(f"{name} is {_kind(mode)}, not a log file: give a regular file, or - for standard input")
        return file.read(limit + 1)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def load_entries(text: str, seat: int | None) -> tuple[Any, tuple[Any, ...], int | None, Any]:
    """``(rules, entries, viewer, game)`` from a log's text.

    A full log is replayed (and so verified); ``seat`` then selects what that seat saw.
    A per-seat export (``dumps(game.log_for(seat))``) is shown as it is: it cannot be
    replayed (``game`` is None), and ``seat`` must be absent or its own seat.
    """
    from cardkit.api import replay
    from cardkit.games import get_rules
    from cardkit.serde import loads, loads_seat_log

    try:
        try:
            log = loads(text)
        except LogError as first:
            try:
                seat_log = loads_seat_log(text)
            except LogError:
                raise first from None
            if seat is not None and seat != seat_log.seat:
                raise ConfigError(
                    f"this log is seat {seat_log.seat}'s export; it cannot be shown as seat {seat} saw it"
                ) from None
            return get_rules(seat_log.game), tuple(seat_log.entries), seat_log.seat, None
    except RecursionError:
        raise LogError("the log is nested too deeply to be a cardkit log") from None
    game = replay(log)
    if seat is None:
        return game.rules, tuple(game.log.entries), None, game
    if isinstance(seat, bool) or not 0 <= seat < game.players:
        raise ConfigError(f"--seat must be a seat of this game, 0 to {game.players - 1}, not {seat}")
    return game.rules, game.entries_for(seat), seat, game


def entry_line(rules: Any, entry: Any, viewer: int | None) -> str:
    """One transcript line for a log entry or a seat entry (see the module docs)."""
    from cardkit.render import action_text, describe

    if entry.actor < 0:
        head = f"[{entry.seq}] chance"
    elif entry.action is None:
        head = f"[{entry.seq}] seat {entry.actor}"
    else:
        head = f"[{entry.seq}] seat {entry.actor}: {action_text(entry.action)}."
    sentences = [describe(rules, event, viewer) for event in entry.events]
    if entry.actor < 0 or entry.action is None:
        head += ":"
    return " ".join([head, *sentences])


def _line(rules: Any, entry: Any, viewer: int | None, game: Any) -> str:
    """:func:`entry_line`; for a per-seat export (``game`` None: nothing was replayed, so
    nothing was verified) an entry the game's ``describe`` cannot read is a :class:`LogError`."""
    if game is not None:
        return entry_line(rules, entry, viewer)
    try:
        return entry_line(rules, entry, viewer)
    except Exception as exc:  # noqa: BLE001 - unverified data: any failure is the file's
        raise LogError(
            f"entry {entry.seq} of this per-seat log is not one {rules.name} writes "
            f"({type(exc).__name__}): the file was changed or is not a cardkit log"
        ) from None


def _header(rules: Any, entries: Sequence[Any], viewer: int | None, game: Any) -> str:
    who = "the whole game (host view)" if viewer is None else f"as seat {viewer} saw it"
    players = f", {game.players} players" if game is not None else ""
    return f"{rules.name}{players}, {len(entries)} entries, {who}"


def _footer(game: Any) -> str | None:
    if game is None:
        return None
    result = game.result
    if result is None:
        return f"In progress: seat {game.to_act} to act."
    winners = ", ".join(f"seat {s}" for s in result.winners) or "nobody"
    return f"Over. Scores: {', '.join(map(str, result.scores))}. Winner: {winners}."


def show(args: argparse.Namespace) -> int:
    """``cardkit show LOG [--seat S]``: the whole game as readable lines."""
    rules, entries, viewer, game = load_entries(read_log_text(args.log), args.seat)
    out = sys.stdout
    print(_header(rules, entries, viewer, game), file=out)
    for entry in entries:
        print(_line(rules, entry, viewer, game), file=out)
    footer = _footer(game)
    if footer:
        print(footer, file=out)
    return 0


def step(args: argparse.Namespace, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    """``cardkit replay LOG --step``: one entry, then wait for Enter (``q`` quits).

    Standard input may be a pipe: each line read is one step, and at the end of input the
    remaining entries are printed without waiting.
    """
    stdin = stdin if stdin is not None else tolerant(sys.stdin)
    out = out if out is not None else sys.stdout
    if args.log == "-":
        raise ConfigError("--step reads Enter from standard input, so give the log as a file, not -")
    rules, entries, viewer, game = load_entries(read_log_text(args.log), args.seat)
    print(_header(rules, entries, viewer, game) + ". Enter: next entry; q: quit.", file=out, flush=True)
    waiting = True
    for number, entry in enumerate(entries, 1):
        print(_line(rules, entry, viewer, game), file=out, flush=True)
        if waiting and number < len(entries):
            out.write(f"({number}/{len(entries)}) ")
            out.flush()
            line = read_line(stdin)
            if line is None:
                waiting = False  # end of input: show the rest
                print(file=out)
            elif line.text.strip().lower() in ("q", "quit"):
                print("Stopped.", file=out)
                return 0
    footer = _footer(game)
    if footer:
        print(footer, file=out)
    return 0


def add_parsers(sub: Any) -> None:
    """Register ``show`` on the ``cardkit`` subparsers (``rules`` is :mod:`cardkit.cli.rules_cmd`)."""
    sh = sub.add_parser(
        "show",
        help="print a game log as a readable transcript",
        description=(
            "Replay LOG (which verifies it) and print every entry as a sentence. With --seat, "
            "only what that seat saw, as it saw it. A per-seat export (game.log_for) is shown "
            "as it is."
        ),
    )
    sh.add_argument("log", help="the log file, or - for standard input")
    sh.add_argument("--seat", type=int, default=None, help="show the game as this seat saw it")
    sh.set_defaults(func=show)


def lines_of(rules: Any, entries: Iterable[Any], viewer: int | None) -> list[str]:
    """Transcript lines for ``entries`` (a helper for hosts that log games as text)."""
    return [entry_line(rules, e, viewer) for e in entries]
