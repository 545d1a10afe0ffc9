"""The wire protocol's parsing rules, without a server."""

from __future__ import annotations

import json

import pytest

from cardkit.web.protocol import (
    MAX_ACTION,
    MAX_MESSAGE,
    Join,
    Move,
    ProtocolError,
    describe_games,
    parse_join,
    parse_message,
    parse_move,
)


def test_join_forms() -> None:
    assert parse_join({"type": "join", "seat": 1, "token": "t"}, 3) == Join(1, "t", -1)
    assert parse_join({"type": "join", "spectator": True, "after": 4}, 3) == Join(None, None, 4)
    assert parse_join({"type": "join", "seat": 0, "token": "t", "after": 7}, 2).after == 7


@pytest.mark.parametrize(
    "data",
    [
        {"type": "move"},
        {"type": "join"},
        {"type": "join", "seat": 3, "token": "t"},
        {"type": "join", "seat": -1, "token": "t"},
        {"type": "join", "seat": True, "token": "t"},
        {"type": "join", "seat": "0", "token": "t"},
        {"type": "join", "seat": 0},
        {"type": "join", "seat": 0, "token": ""},
        {"type": "join", "seat": 0, "token": 5},
        {"type": "join", "seat": 0, "token": "x" * 257},
        {"type": "join", "spectator": "yes"},
        {"type": "join", "spectator": True, "after": -2},
        {"type": "join", "spectator": True, "after": 1.5},
    ],
)
def test_bad_joins(data: dict[str, object]) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_join(data, 3)
    assert info.value.code == "malformed" and str(info.value)


def test_move_forms() -> None:
    assert parse_move({"type": "move", "expected_seq": 3, "action": "play 8H S"}) == Move(3, "play 8H S")


@pytest.mark.parametrize(
    "data",
    [
        {"type": "mvoe", "expected_seq": 1, "action": "draw"},
        {"type": "move", "action": "draw"},
        {"type": "move", "expected_seq": "1", "action": "draw"},
        {"type": "move", "expected_seq": None, "action": "draw"},
        {"type": "move", "expected_seq": 1},
        {"type": "move", "expected_seq": 1, "action": ""},
        {"type": "move", "expected_seq": 1, "action": ["draw"]},
        {"type": "move", "expected_seq": 1, "action": "x" * (MAX_ACTION + 1)},
    ],
)
def test_bad_moves(data: dict[str, object]) -> None:
    with pytest.raises(ProtocolError):
        parse_move(data)


@pytest.mark.parametrize(
    "text",
    ["", "{", "[]", "null", '"join"', '{"type": 3}', "NaN", '{"type": "move", "x": Infinity}',
     "[" * 100_000, b'{"type": "join"}', "x" * (MAX_MESSAGE + 1)],
)
def test_bad_messages(text: object) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_message(text)
    assert info.value.code == "malformed"


def test_games_describe_their_options() -> None:
    games = {g["name"]: g for g in describe_games()}
    assert {"crazy-eights", "cutthroat-spades", "spacc-u-mazz", "wizard"} <= set(games)
    eights = {o["name"]: o for o in games["crazy-eights"]["options"]}
    assert eights["mode"]["type"] == "choice" and eights["mode"]["choices"] == ["single", "points"]
    jack = eights["jack_skips"]
    assert {k: jack[k] for k in ("name", "type", "default")} == {"name": "jack_skips", "type": "bool", "default": False}
    assert "skip" in jack["doc"]  # the option schema's description, for the lobby
    # every option of the built-in games has its schema's description (other tests may
    # register games of their own in this process, without a schema)
    builtin = ("crazy-eights", "cutthroat-spades", "spacc-u-mazz", "wizard")
    assert all(o.get("doc") for name in builtin for o in games[name]["options"])
    assert games["crazy-eights"]["min_players"] == 2
    assert eights["hand_size"]["default"] is None and eights["hand_size"]["depends_on_players"]
    json.dumps(games)  # JSON-compatible throughout


from hypothesis import given, strategies as st  # noqa: E402

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
_messages = st.dictionaries(
    st.sampled_from(["type", "seat", "token", "spectator", "after", "expected_seq", "action", "x"]),
    _json | st.sampled_from(["join", "move"]),
    max_size=6,
)


@given(_messages)
def test_any_json_object_parses_or_is_a_protocol_error(data: dict[str, object]) -> None:
    text = json.dumps(data)
    try:
        message = parse_message(text)
    except ProtocolError:
        return
    for parse in (lambda: parse_join(message, 4), lambda: parse_move(message)):
        try:
            parsed = parse()
        except ProtocolError as exc:
            assert exc.code == "malformed" and str(exc)
        else:
            assert isinstance(parsed, (Join, Move))


@given(st.text(max_size=200) | st.binary(max_size=50))
def test_any_text_parses_or_is_a_protocol_error(text: object) -> None:
    try:
        assert isinstance(parse_message(text), dict)
    except ProtocolError as exc:
        assert exc.code == "malformed"
