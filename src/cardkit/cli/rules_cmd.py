"""``cardkit rules GAME [--json]``: print a game's rules summary and option schema (``rules.options()``)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from cardkit.games import get_rules

if TYPE_CHECKING:
    from cardkit.core.options import OptionSpec

__all__ = ["add_rules_command", "rules_document", "rules_text"]


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


def _allowed(spec: OptionSpec) -> str | None:
    """The values allowed beyond the type (choices, a range, null), or None when the type
    says it all (``bool``: printing ``bool; bool`` said the type twice)."""
    if spec.choices is not None:
        text = " | ".join(json.dumps(c) for c in spec.choices)
    elif spec.type == "int" and (spec.minimum is not None or spec.maximum is not None):
        high = "" if spec.maximum is None else str(spec.maximum)
        text = f"{spec.minimum if spec.minimum is not None else ''}..{high}"
    else:
        return "null allowed" if spec.nullable else None
    return text + (" | null" if spec.nullable else "")


def rules_text(rules: Any) -> str:
    """The text ``cardkit rules GAME`` prints: players, rules version, the rules summary
    (``rules.summary()`` where the game has one) and every option's schema."""
    from cardkit.core.options import options_of  # here: `cardkit games` should start fast

    version = getattr(rules, "rules_version", None)
    lines = [
        f"{rules.name} ({rules.min_players}-{rules.max_players} players)"
        + ("" if version is None else f", rules version {version}"),
        "",
    ]
    summary = getattr(rules, "summary", None)
    # the rules in a few sentences, with the action notation
    lines += [str(summary()) if callable(summary) else "(this game has no summary)", ""]
    lines.append("Options (-o key=value):")
    specs = options_of(rules)
    if not specs:
        lines.append("  (none)")
    for spec in specs:
        default = "depends on players" if spec.default_depends else json.dumps(spec.to_json()["default"])
        allowed = _allowed(spec)
        parts = [spec.type, *([allowed] if allowed is not None else []), f"default {default}"]
        lines.append(f"  {spec.name} ({'; '.join(parts)})")
        lines.append(f"      {spec.doc}")
    return "\n".join(lines)


def _print_rules(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps(rules_document(args.game), indent=2, sort_keys=False))
    else:
        print(rules_text(get_rules(args.game)))
    return 0


def add_rules_command(sub: Any) -> None:
    """Register the ``rules`` subcommand on the ``cardkit`` parser's subparsers."""
    cmd = sub.add_parser("rules", help="print a game's rules summary and options: type, default, allowed values")
    cmd.add_argument("game")
    cmd.add_argument("--json", action="store_true", help="print the schema as JSON")
    cmd.set_defaults(func=_print_rules)
