"""``cardkit store URL list | show | export | import | verify`` — look into, fill and check a store.

``export`` writes the whole log (seed included: it is for the host, like the log file it
came from); ``show`` prints no seed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardkit.core.log import GameLog
    from cardkit.store import Store


# serde and the store are imported when a store command runs, not when the parser is
# built: `cardkit games` should not load cattrs or a database driver.
def open_store(url: str) -> Store:
    """:func:`cardkit.store.open`, imported on first use; a URL no store can open (a NUL
    as ``%00``, bytes that are not text) is a :class:`ConfigError`, not a crash."""
    from cardkit.errors import CardkitError, ConfigError
    from cardkit.store import open as open_

    try:
        return open_(url)
    except CardkitError:
        raise
    except (ValueError, UnicodeError) as exc:
        raise ConfigError(f"the store URL {url!r} cannot be opened: {exc}") from None


def _utf8(text: str, what: str = "match id") -> str:
    # a command-line argument of bytes that are not UTF-8 arrives with lone surrogates,
    # which no database accepts: refuse it here, in one line, on every backend
    from cardkit.errors import ConfigError

    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ConfigError(f"the {what} {text!r} is not UTF-8 text") from None
    return text


def dumps(obj: Any) -> str:
    """:func:`cardkit.serde.dumps`, imported on first use."""
    from cardkit.serde import dumps as dumps_

    return dumps_(obj)


def loads(text: str) -> GameLog:
    """:func:`cardkit.serde.loads`, imported on first use."""
    from cardkit.serde import loads as loads_

    return loads_(text)

__all__ = ["add_store_parser"]


def _list(args: argparse.Namespace) -> int:
    finished = {"all": None, "finished": True, "open": False}[args.status]
    with open_store(args.url) as store:
        game = None if args.game is None else _utf8(args.game, "game name")
        found = store.matches(game=game, finished=finished, limit=args.limit)
    for m in found:
        state = "over" if m.is_over else f"seat {m.to_act} to act"
        print(f"{m.match_id}\t{m.game}\t{m.players} players\t{m.entries} entries\t{state}")
    if not found:
        print("no matches", file=sys.stderr)
    return 0


def _show(args: argparse.Namespace) -> int:
    with open_store(args.url) as store:
        info = store.info(_utf8(args.match_id))
        game = store.load(info.match_id)
    print(f"match {info.match_id}: {info.game}, {info.players} players, rules_version {info.rules_version}")
    print(f"options: {dumps(info.config)}")
    print(f"entries: {info.entries} (last seq {info.last_seq})")
    print(f"scores: {list(game.scores)}")
    if game.result is not None:
        print(f"over; winners: {list(game.result.winners)}")
    else:
        print(f"seat {game.to_act} to act; legal: {', '.join(str(a) for a in game.legal_actions())}")
    return 0


def _export(args: argparse.Namespace) -> int:
    with open_store(args.url) as store:
        text = dumps(store.log(_utf8(args.match_id)))
    if args.output in (None, "-"):
        print(text)
    else:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
    return 0


def _import(args: argparse.Namespace) -> int:
    from cardkit.cli.transcript import read_log_text  # bounded, UTF-8 checked, regular files only

    wanted = None if args.match_id is None else _utf8(args.match_id)
    log = loads(read_log_text(args.log))
    with open_store(args.url) as store:
        stored = store.import_log(log, match_id=wanted)
    print(stored)
    return 0


def _limit(text: str) -> int:
    # a database integer is 64 bits: a larger --limit is a usage error, not an OverflowError
    word = text.strip()
    if not (word.isascii() and word.isdigit() and len(word) <= 18):
        raise argparse.ArgumentTypeError(f"--limit must be a whole number from 0 to 10**18 - 1, not {text!r}")
    return int(word)


def _verify(args: argparse.Namespace) -> int:
    # One line per match; the exit status says whether every match held.
    with open_store(args.url) as store:
        checks = store.verify(args.match_ids or None)
    for check in checks:
        if check.ok:
            print(f"ok\t{check.match_id}\t{check.entries} entries")
        else:
            print(f"BROKEN\t{check.match_id}\t{check.problem}")
    if not checks:
        print("no matches", file=sys.stderr)
    return 0 if all(c.ok for c in checks) else 1


def add_store_parser(sub: Any) -> None:
    """Register ``cardkit store`` and its subcommands on ``sub``, the ``add_subparsers()``
    of the ``cardkit`` parser."""
    parser = sub.add_parser("store", help="list, show, export, import and verify matches of a store")
    parser.add_argument("url", help="the store: sqlite:///games.db, postgresql://…")
    cmds = parser.add_subparsers(dest="store_command", required=True)
    ls = cmds.add_parser("list", help="list matches, oldest first")
    ls.add_argument("--game", default=None)
    ls.add_argument("--status", choices=("all", "finished", "open"), default="all")
    ls.add_argument("--limit", type=_limit, default=None, help="at most this many matches")
    ls.set_defaults(func=_list)
    show = cmds.add_parser("show", help="where a match stands")
    show.add_argument("match_id")
    show.set_defaults(func=_show)
    exp = cmds.add_parser("export", help="write a match's whole log as JSON (seed included)")
    exp.add_argument("match_id")
    exp.add_argument("--output", "-o", default=None, help="a file (default: standard output)")
    exp.set_defaults(func=_export)
    imp = cmds.add_parser("import", help="verify a JSON log and store it; prints the match id")
    imp.add_argument("log")
    imp.add_argument("--match-id", default=None)
    imp.set_defaults(func=_import)
    ver = cmds.add_parser(
        "verify",
        help="re-check whole matches (hash chain, snapshots, a replay from the first entry); "
        "exit status 1 if any is broken",
    )
    ver.add_argument("match_ids", nargs="*", metavar="ID", help="matches to check (default: all)")
    ver.set_defaults(func=_verify)
