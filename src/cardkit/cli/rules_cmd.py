"""``cardkit rules GAME [--json]``: print a game's rules summary and option schema (``rules.options()``)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from cardkit.games import get_rules

if TYPE_CHECKING:
    from cardkit.core.options import OptionSpec

__all__ = ["add_rules_command", "rules_document"]


def rules_document(name: str) -> dict[str, Any]:
    """The JSON document ``cardkit rules NAME --json`` prints: the game's name, rules
    version, player range and every option's schema (see :class:`OptionSpec`)."""
    from cardkit.core.options import options_of  # here: `cardkit games` should start fast

    rules = get_rules(name)
    return {
        "game": rules.name,
        "rules_version": rules.rules_version,
        "min_players": rules.min_players,
        "max_players": rules.max_players,
        "options": [spec.to_json() for spec in options_of(rules)],
    }


def _allowed(spec: OptionSpec) -> str:
    if spec.choices is not None:
        text = " | ".join(json.dumps(c) for c in spec.choices)
    elif spec.type == "int":
        high = "" if spec.maximum is None else str(spec.maximum)
        text = f"{spec.minimum if spec.minimum is not None else ''}..{high}"
    else:
        text = spec.type
    return text + (" | null" if spec.nullable else "")


def _print_rules(args: argparse.Namespace) -> int:
    document = rules_document(args.game)
    if args.json:
        print(json.dumps(document, indent=2, sort_keys=False))
        return 0
    rules = get_rules(args.game)
    print(
        f"{document['game']} ({document['min_players']}-{document['max_players']} players), "
        f"rules version {document['rules_version']}"
    )
    summary = getattr(rules, "summary", None)
    if callable(summary):  # the rules in a few sentences, with the action notation
        print()
        print(summary())
        print()
    print("Options (-o key=value):")
    from cardkit.core.options import options_of

    specs = options_of(rules)
    if not specs:
        print("  no options described")
    for spec in specs:
        default = "depends on players" if spec.default_depends else json.dumps(spec.to_json()["default"])
        print(f"  {spec.name} ({spec.type}; {_allowed(spec)}; default {default})")
        print(f"      {spec.doc}")
    return 0


def add_rules_command(sub: Any) -> None:
    """Register the ``rules`` subcommand on the ``cardkit`` parser's subparsers."""
    cmd = sub.add_parser("rules", help="print a game's rules summary and options: type, default, allowed values")
    cmd.add_argument("game")
    cmd.add_argument("--json", action="store_true", help="print the schema as JSON")
    cmd.set_defaults(func=_print_rules)
