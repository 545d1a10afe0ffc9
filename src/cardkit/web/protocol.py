"""The JSON wire protocol of the web host: parsing what clients send, building what they get.

Everything here is pure (no I/O), so the rules of the protocol are tested without a server.
A message that is not what the protocol allows raises :class:`ProtocolError` with the
error code the client receives and a sentence saying what is wrong.
"""

from __future__ import annotations

import importlib
import json
import typing
from typing import Any, Literal, Mapping

import attrs

from cardkit.core.game import Game
from cardkit.errors import CardkitError
from cardkit.games import available_games, get_rules
from cardkit.serde import to_json
from cardkit.core.log import SeatEntry

__all__ = [
    "MAX_MESSAGE",
    "MAX_ACTION",
    "ErrorCode",
    "ProtocolError",
    "describe_levels",
    "Join",
    "Move",
    "parse_message",
    "parse_join",
    "parse_move",
    "parse_undo",
    "error_message",
    "server_error",
    "SERVER_ERROR_TEXT",
    "update_message",
    "encode",
    "entry_json",
    "describe_games",
]

MAX_MESSAGE = 4096
"""The longest WebSocket message a client may send, in characters."""

MAX_ACTION = 200
"""The longest action text."""

ErrorCode = Literal["stale", "not_your_turn", "illegal", "malformed", "server"]
"""The codes of an ``{"type": "error"}`` message (``server``: the host failed, not the client)."""

SERVER_ERROR_TEXT = "the server could not do that (its log says why); try again later"
"""The message of every ``server`` error: what went wrong stays in the server's log, since
an error's text may name what a client must not see (a stored deal that no longer replays)."""


class ProtocolError(CardkitError, ValueError):
    """A client message the protocol does not allow; ``code`` is what the client is told."""

    def __init__(self, message: str, code: ErrorCode = "malformed") -> None:
        super().__init__(message)
        self.code: ErrorCode = code


@attrs.frozen
class Join:
    """``{"type": "join", "seat": 0, "token": "…"}`` or ``{"type": "join", "spectator": true}``.

    ``after`` (optional) is the last seq the client saw, so a reconnect resumes there. A
    spectator of a private match also sends the match's spectator ``token``.
    """

    seat: int | None
    token: str | None
    after: int = -1


@attrs.frozen
class Move:
    """``{"type": "move", "expected_seq": n, "action": "play 8H S"}``."""

    expected_seq: int
    action: str


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_message(text: object) -> dict[str, Any]:
    """A client message as a JSON object with a string ``type``; :class:`ProtocolError` otherwise."""
    if not isinstance(text, str):
        raise ProtocolError("messages are JSON text, not binary")
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(f"a message is at most {MAX_MESSAGE} characters, this one has {len(text)}")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ProtocolError("the message is not valid JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError('a message is a JSON object with a "type" such as "join" or "move"')
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _seq(data: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if not _is_int(value) or not -1 <= value < 2**62:
        raise ProtocolError(f'"{key}" must be a seq: an integer, -1 for none')
    return int(value)


def parse_join(data: Mapping[str, Any], players: int) -> Join:
    """The join request in ``data`` for a match of ``players`` seats."""
    if data.get("type") != "join":
        raise ProtocolError('the first message must be {"type": "join", ...}')
    after = _seq(data, "after", -1)
    seat, token = data.get("seat"), data.get("token")
    if data.get("spectator") is True:
        if token is not None and (not isinstance(token, str) or not 0 < len(token) <= 256):
            raise ProtocolError('a spectator\'s "token" is the match\'s spectator token')
        return Join(None, token, after)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise ProtocolError(f'"seat" must be a seat number from 0 to {players - 1}')
    if not isinstance(token, str) or not 0 < len(token) <= 256:
        raise ProtocolError('a seat joins with its "token"')
    return Join(int(seat), token, after)


def parse_move(data: Mapping[str, Any]) -> Move:
    """The move in ``data``; :class:`ProtocolError` for anything else."""
    if data.get("type") != "move":
        raise ProtocolError(f'unknown message type {str(data.get("type"))[:40]!r}: send "move"')
    action = data.get("action")
    if not isinstance(action, str) or not action.strip():
        raise ProtocolError('"action" must be the action\'s text, e.g. "play 8H S"')
    if len(action) > MAX_ACTION:
        raise ProtocolError(f'"action" is at most {MAX_ACTION} characters')
    if "expected_seq" not in data:
        raise ProtocolError('a move carries "expected_seq": the seq of the newest update seen')
    return Move(_seq(data, "expected_seq"), action)


def parse_undo(data: Mapping[str, Any]) -> int:
    """The ``expected_seq`` of ``{"type": "undo", "expected_seq": n}`` (a take-back against
    bots, :mod:`cardkit.web.undo`): the seq of the newest update the seat saw, so it never
    takes back a reply it has not seen yet."""
    if "expected_seq" not in data:
        raise ProtocolError('an undo carries "expected_seq": the seq of the newest update seen')
    return _seq(data, "expected_seq")


def error_message(code: ErrorCode, message: str) -> dict[str, Any]:
    """``{"type": "error", "code": ..., "message": ...}``."""
    return {"type": "error", "code": code, "message": message}


def server_error() -> dict[str, Any]:
    """The ``server`` error: the same text whatever failed (the details are only logged)."""
    return error_message("server", SERVER_ERROR_TEXT)


def entry_json(entry: SeatEntry) -> dict[str, Any]:
    """One per-seat entry as JSON, with ``text``: the action's notation (``None`` if withheld)."""
    data: dict[str, Any] = to_json(entry)
    data["text"] = None if entry.action is None else str(entry.action)
    return data


def encode(message: Mapping[str, Any]) -> str:
    """``message`` as compact JSON text: orjson's when it is installed (the ``web`` extra
    installs it: ten times faster than the standard library, and updates are encoded once
    per move and audience), else :func:`json.dumps`. Both give the same JSON values; orjson
    writes non-ASCII characters as themselves rather than as ``\\u`` escapes."""
    if _orjson is not None:
        try:
            return str(_orjson.dumps(message).decode())
        except TypeError:  # what orjson does not take (an integer over 64 bits): the standard library
            pass
    return json.dumps(message, separators=(",", ":"))


_orjson: Any
try:
    _orjson = importlib.import_module("orjson")
except ImportError:  # pragma: no cover - depends on the environment
    _orjson = None


def update_message(
    game: Game[Any, Any],
    seat: int | None,
    entries: tuple[SeatEntry, ...],
    bots: tuple[int, ...],
    seeded: bool = False,
    *,
    view: Any = None,
    legal: tuple[Any, ...] | None = None,
) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) is sent: its view and its new entries.

    Besides the contract's ``seq``, ``view`` and ``entries``: ``game``, ``players``,
    ``seat``, ``to_act``, ``legal`` (the action texts, only for the seat to act), ``scores``,
    ``is_over``, ``result``, ``bots`` (the bot seats) and ``seeded`` (the match's creator
    chose its seed, so the creator can know every hand), so a generic page can draw it.
    ``view`` (``to_json(game.view(seat))``) and ``legal`` (``game.legal_actions()``) may be
    given when the caller has them already.
    """
    last = game.last_entry
    seq = -1 if last is None else last.seq
    to_act = game.to_act
    result = game.result
    return {
        "type": "update",
        "seq": seq,
        "game": game.rules.name,
        "players": game.players,
        "seat": seat,
        "to_act": to_act,
        "legal": ([str(a) for a in (game.legal_actions() if legal is None else legal)]
                  if seat is not None and to_act == seat else []),
        "view": to_json(game.view(seat)) if view is None else view,
        "scores": list(game.scores),
        "is_over": game.is_over,
        "result": None if result is None else {"scores": list(result.scores), "winners": list(result.winners)},
        "bots": list(bots),
        "seeded": seeded,
        "entries": [entry_json(e) for e in entries if e.seq <= seq],
    }


def _type_text(annotation: Any) -> tuple[str, list[Any] | None]:
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return "choice", list(typing.get_args(annotation))
    if annotation is bool:
        return "bool", None
    if annotation is int:
        return "int", None
    if annotation is str:
        return "str", None
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if len(args) == 1 and args[0] in (int, str, bool):
        kind, _ = _type_text(args[0])
        return f"{kind}?", None
    return "json", None


def describe_levels() -> dict[str, Any]:
    """The bot levels a lobby offers (:data:`cardkit.bots.LEVELS`): ``{"default": "level:3",
    "levels": [{"spec": "level:1", "number": 1, "name": "beginner", "summary": ...}, ...]}``."""
    from cardkit.bots import DEFAULT_LEVEL, LEVELS

    return {
        "default": f"level:{DEFAULT_LEVEL}",
        "levels": [{"spec": lv.spec, "number": lv.number, "name": lv.name, "summary": lv.summary} for lv in LEVELS],
    }


def describe_games() -> list[dict[str, Any]]:
    """Every registered game with its player range and options.

    There is no option-schema API in the rules protocol, so options are read from the game's
    config class (an attrs class): each field but ``players`` with its type (``bool``,
    ``int``, ``str``, ``choice`` with its ``choices``, ``int?`` for optional, else ``json``)
    and its default (``None`` with ``depends_on_players`` when the default differs between
    the fewest and the most players, such as a hand size).
    """
    out = []
    for name in available_games():
        rules = get_rules(name)
        options: list[dict[str, Any]] = []
        try:
            config = rules.config(rules.min_players)
            widest = rules.config(rules.max_players)
        except CardkitError:
            config = widest = None
        cls = type(config)
        if config is not None and attrs.has(cls):
            try:
                hints = typing.get_type_hints(cls)
            except Exception:  # a user's config with unresolvable hints: show names only
                hints = {}
            for field in attrs.fields(cls):
                if field.name == "players":
                    continue
                kind, choices = _type_text(hints.get(field.name, Any))
                default = to_json(getattr(config, field.name))
                item: dict[str, Any] = {"name": field.name, "type": kind, "default": default}
                if default != to_json(getattr(widest, field.name)):
                    # e.g. a hand size that depends on the number of players: left out, the game decides
                    item["default"] = None
                    item["depends_on_players"] = True
                if choices is not None:
                    item["choices"] = choices
                options.append(item)
        _add_docs(rules, options)
        out.append(
            {"name": name, "min_players": rules.min_players, "max_players": rules.max_players, "options": options}
        )
    return out


def _add_docs(rules: Any, options: list[dict[str, Any]]) -> None:
    # The option schema's description of each option (rules.options()), for the lobby.
    from cardkit.core.options import options_of

    try:
        docs = {spec.name: spec.doc for spec in options_of(rules)}
    except Exception:  # a user's game without a schema: names and defaults only
        return
    for item in options:
        doc = docs.get(item["name"])
        if doc:
            item["doc"] = str(doc)
