"""The one-pass reading of ``cardkit.loads`` (``cardkit.serde._fast``) agrees with the
generic path (``parse_json`` then ``log_from_json``) on every input: the same log for
what ``dumps`` wrote, of every game, and the same error, word for word, for damaged text."""

from __future__ import annotations

import json
import os
import random
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardkit
from cardkit import serde
from cardkit.rng import Rng
from cardkit.serde._convert import _converter
from cardkit.serde._fast import _reader, fused_loads
from cardkit.testing import random_playout

LONG = os.environ.get("CARDKIT_LONG") == "1"

# (game, players, options) for every game, short and long options
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("crazy-eights", 2, {}),
    ("crazy-eights", 4, {"mode": "points", "target": 200}),
    ("crazy-eights", 5, {"two_draws_two": True, "jack_skips": True, "ace_reverses": True}),
    ("wizard", 3, {}),
    ("wizard", 6, {}),
    ("cutthroat-spades", 3, {}),
    ("spacc-u-mazz", 2, {}),
    ("spacc-u-mazz", 4, {}),
]


def _random_game(name: str, players: int, options: dict[str, Any], seed: int, actions: int) -> cardkit.Game:
    game = cardkit.new_game(name, players=players, seed=seed, **options)
    return random_playout(game, Rng(seed), max_seat_actions=actions)


def _generic(text: str | bytes, rules: Any = None) -> cardkit.GameLog:
    return serde.log_from_json(serde.parse_json(text), rules)


def _outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return ("ok", call())
    except Exception as exc:  # noqa: BLE001 - compared: the same class and words on both paths
        return (type(exc).__name__, str(exc))


def _same_outcome(text: str, rules: Any = None) -> tuple[str, Any]:
    fast = _outcome(lambda: cardkit.loads(text, rules))
    generic = _outcome(lambda: _generic(text, rules))
    assert fast == generic, (fast, generic)
    if fast[0] == "ok":
        assert cardkit.dumps(fast[1]) == cardkit.dumps(generic[1])
    return fast


@pytest.mark.parametrize("name,players,options", TABLES)
def test_the_fast_path_reads_logs_of_every_game_as_the_generic_path_does(
    name: str, players: int, options: dict[str, Any]
) -> None:
    for seed in range(1, 4 if not LONG else 30):
        game = _random_game(name, players, options, seed, 150 if not LONG else 3000)
        text = cardkit.dumps(game.log)
        fast = fused_loads(text, None)
        assert fast is not None, "the fast path declined a log that dumps wrote"
        generic = _generic(text)
        assert fast == generic == game.log
        assert all(type(a) is type(b) for x, y in zip(fast.entries, generic.entries)
                   for a, b in zip((x.action, *x.events), (y.action, *y.events)))  # fmt: skip
        assert cardkit.dumps(fast) == text
        # the rules given as a Rules object or a name read the same
        assert fused_loads(text, game.rules) == fused_loads(text, name) == generic


@pytest.mark.parametrize("name", cardkit.available_games())
def test_every_record_class_of_every_game_has_a_one_pass_builder(name: str) -> None:
    # Not a speed test: a class left to the generic structuring would still be read right,
    # but several times slower; this names the class when that happens.
    rules = cardkit.get_rules(name)
    builders = _reader(rules).builders
    for cls in rules.action_types + rules.event_types + (cardkit.Shuffle, cardkit.Pick):
        assert serde.type_name(cls) in builders, cls.__name__


def test_a_game_without_chance_nodes_left_and_auto_chance_off_reads_the_same() -> None:
    game = cardkit.new_game("wizard", players=4, seed=3, auto_chance=False)
    game = random_playout(game, Rng(3), max_seat_actions=40)
    text = cardkit.dumps(game.log)
    assert fused_loads(text, None) == _generic(text) == game.log


def _log_data(seed: int = 5) -> tuple[cardkit.Game, dict[str, Any]]:
    game = _random_game("crazy-eights", 3, {"mode": "points", "target": 100}, seed, 80)
    return game, json.loads(cardkit.dumps(game.log))


def _compact(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _first(data: dict[str, Any], type_name: str) -> dict[str, Any]:
    for entry in data["entries"]:
        for record in [entry["action"], *entry["events"]]:
            if record is not None and record["type"] == type_name:
                return record  # type: ignore[no-any-return]
    raise AssertionError(f"no {type_name} in the log")


def _reordered(record: dict[str, Any]) -> None:
    items = list(record.items())
    record.clear()
    record.update(reversed(items))


DAMAGE: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("keys of a record in another order", lambda d: _reordered(_first(d, "card_played"))),
    ("keys of an entry in another order", lambda d: _reordered(d["entries"][3])),
    ("an unknown field", lambda d: _first(d, "card_played").update(extra=1)),
    ("a missing field", lambda d: _first(d, "card_played").pop("seat")),
    ("true for an int", lambda d: _first(d, "card_played").update(seat=True)),
    ("a float for an int", lambda d: _first(d, "card_played").update(seat=1.0)),
    ("a string for an int", lambda d: _first(d, "card_played").update(pending_draw="0")),
    ("null for an int", lambda d: _first(d, "card_played").update(pending_draw=None)),
    ("a lower-case card", lambda d: _first(d, "card_played").update(card="qs")),
    ("a ten as 10", lambda d: _first(d, "card_played").update(card="10S")),
    ("a padded card", lambda d: _first(d, "card_played").update(card=" QS")),
    ("an int for a card", lambda d: _first(d, "card_played").update(card=7)),
    ("a list for a card", lambda d: _first(d, "card_played").update(card=["QS"])),
    ("an object for a card", lambda d: _first(d, "card_played").update(card={"type": "pass"})),
    ("a bad card in a list", lambda d: _first(d, "shuffle")["order"].__setitem__(3, "qs")),
    ("a card list as a string", lambda d: _first(d, "shuffle").update(order="QS")),
    ("a bad suit", lambda d: _first(d, "card_played").update(suit="X")),
    ("an unknown type", lambda d: _first(d, "card_played").update(type="card_flipped")),
    ("an action type as an event", lambda d: d["entries"][2]["events"].__setitem__(0, {"type": "pass"})),
    ("an event type as an action", lambda d: d["entries"][2].update(action=d["entries"][2]["events"][0])),
    ("a type that is not a string", lambda d: _first(d, "card_played").update(type=["card_played"])),
    ("a record that is a list", lambda d: d["entries"][2].update(action=["play"])),
    ("seq out of order", lambda d: d["entries"][4].update(seq=5)),
    ("seq as true", lambda d: d["entries"][1].update(seq=True)),
    ("a bool actor", lambda d: d["entries"][2].update(actor=False)),
    ("a negative actor", lambda d: d["entries"][2].update(actor=-1)),
    ("a misspelt chance actor", lambda d: d["entries"][0].update(actor="Chance")),
    ("events as an object", lambda d: d["entries"][2].update(events={})),
    ("an entry with a fifth key", lambda d: d["entries"][2].update(note="x")),
    ("an entry without events", lambda d: d["entries"][2].pop("events")),
    ("an entry as a list", lambda d: d["entries"].__setitem__(2, [1, 2])),
    ("a truncated log", lambda d: d.update(entries=d["entries"][:-3] + d["entries"][-2:])),
    ("an unknown envelope key", lambda d: d.update(extra=1)),
    ("a format_version of 1.0", lambda d: d.update(format_version=1.0)),
    ("a bool seed", lambda d: d.update(seed=True)),
    ("a seed too large", lambda d: d.update(seed=2**64)),
    ("a string auto_chance", lambda d: d.update(auto_chance="yes")),
    ("no auto_chance (optional)", lambda d: d.pop("auto_chance")),
    ("a bool rules_version", lambda d: d.update(rules_version=True)),
    ("a list config", lambda d: d.update(config=[])),
    ("a config holding a record-shaped object", lambda d: d["config"].update(x={"type": "draw"})),
    ("a config holding an entry-shaped object",
     lambda d: d["config"].update(x={"seq": 0, "actor": 0, "action": {"type": "draw"}, "events": []})),
    ("a config that is record-shaped", lambda d: d.update(config={"type": "draw"})),
    ("entries holding a bare record", lambda d: d["entries"].__setitem__(1, {"type": "draw"})),
    ("another game's name", lambda d: d.update(game="wizard")),
    ("an unknown game", lambda d: d.update(game="go-fish")),
]


@pytest.mark.parametrize("what,change", DAMAGE, ids=[what for what, _ in DAMAGE])
def test_damaged_logs_get_the_same_answer_on_both_paths(what: str, change: Callable[[dict[str, Any]], None]) -> None:
    _, data = _log_data()
    change(data)
    text = _compact(data)
    kind, _ = _same_outcome(text)
    accepted = ("another order", "optional", "record-shaped", "entry-shaped")  # config is checked at replay
    assert (kind == "ok") == any(word in what for word in accepted), kind
    if kind != "ok":
        assert kind == "LogError"


TEXT_DAMAGE: list[tuple[str, Callable[[str], str]]] = [
    ("a duplicate key in a record", lambda t: t.replace('{"type":"card_played",', '{"type":"card_played","seat":0,', 1)),
    ("a duplicate key in an entry", lambda t: t.replace('{"seq":3,', '{"seq":3,"seq":3,', 1)),
    ("a duplicate type key", lambda t: t.replace('{"type":"draw"}', '{"type":"draw","type":"draw"}', 1)),
    ("a duplicate key in the config", lambda t: t.replace('"config":{', '"config":{"players":3,', 1)),
    ("a duplicate envelope key", lambda t: t[:-1] + ',"seed":5}'),
    ("a duplicate game key", lambda t: t[:-1] + ',"game":"wizard"}'),
    ("a huge int", lambda t: t.replace('"seq":3,', '"seq":' + "9" * 5000 + ",", 1)),
    ("NaN", lambda t: t.replace('"seq":3,', '"seq":NaN,', 1)),
    ("a long float", lambda t: t.replace('"seq":3,', '"seq":0.' + "1" * 5000 + ",", 1)),
    ("deep nesting in the config", lambda t: t.replace('"config":{', '"config":{"x":' + "[" * 100_000 + "]" * 100_000 + ",", 1)),
    ("spaces (not what dumps writes)", lambda t: json.dumps(json.loads(t), indent=1)),
    ("leading whitespace", lambda t: " " + t),
    ("trailing garbage", lambda t: t + "x"),
    ("a truncated text", lambda t: t[: len(t) // 2]),
    ("an escaped card code", lambda t: t.replace('"card":"', '"card":"\\u0051', 1)),
    ("an escaped game name", lambda t: t.replace('"game":"crazy-eights"', '"game":"crazy\\u002deights"', 1)),
]


@pytest.mark.parametrize("what,change", TEXT_DAMAGE, ids=[what for what, _ in TEXT_DAMAGE])
def test_damaged_texts_get_the_same_answer_on_both_paths(what: str, change: Callable[[str], str]) -> None:
    game, _ = _log_data()
    text = cardkit.dumps(game.log)
    damaged = change(text)
    assert damaged != text
    kind, value = _same_outcome(damaged)
    if kind == "ok":
        assert what in ("spaces (not what dumps writes)", "leading whitespace", "an escaped game name")
        assert value == game.log
    else:
        assert kind == "LogError"


def test_bytes_and_the_rules_argument_behave_as_before() -> None:
    from unittest import mock

    game, _ = _log_data()
    text = cardkit.dumps(game.log)
    with mock.patch.object(serde, "log_from_json", side_effect=AssertionError("generic path")):
        # UTF-8 bytes of what dumps wrote take the one-pass reader too
        assert cardkit.loads(text.encode()) == game.log
        assert cardkit.loads(bytearray(text.encode())) == game.log
    for bad in (text.encode()[:-1] + b"\xff", b"\xef\xbb\xbf" + text.encode(), 7, None):
        fast = _outcome(lambda: cardkit.loads(bad))  # type: ignore[arg-type]
        assert fast == _outcome(lambda: _generic(bad)) and fast[0] == "LogError"  # type: ignore[arg-type]
    assert _same_outcome(text, "wizard")[0] == "LogError"
    assert _same_outcome(text, cardkit.get_rules("wizard"))[0] == "LogError"
    assert _same_outcome(text, "no-such-game")[0] == "LogError"
    assert _same_outcome(text, object())[0] == "ConfigError"
    assert _same_outcome(text, cardkit.get_rules("crazy-eights"))[1] == game.log


def test_a_user_game_reads_the_same_on_both_paths() -> None:
    from tiny_game import ticked

    game = ticked(30)
    text = cardkit.dumps(game.log)
    assert fused_loads(text, None) == _generic(text) == game.log
    assert _same_outcome(text.replace('{"type":"tick","n":3}', '{"type":"tick","n":"3"}'))[0] == "LogError"


def test_random_edits_of_the_text_get_the_same_answer_on_both_paths() -> None:
    # character-level damage anywhere: a deleted, doubled or replaced character, or a
    # swapped pair of neighbours; both paths must give the same log or the same error
    game = _random_game("crazy-eights", 3, {}, 9, 12)
    text = cardkit.dumps(game.log)
    rnd = random.Random(2024)
    alphabet = '{}[]",:0123456789-.eEtrufalsnQSHDCT \\'
    outcomes: dict[str, int] = {}
    for _ in range(2000 if LONG else 250):
        i = rnd.randrange(len(text))
        how = rnd.randrange(4)
        if how == 0:
            damaged = text[:i] + text[i + 1 :]
        elif how == 1:
            damaged = text[:i] + text[i] + text[i:]
        elif how == 2:
            damaged = text[:i] + rnd.choice(alphabet) + text[i + 1 :]
        else:
            damaged = text[:i] + text[i + 1 : i + 2] + text[i] + text[i + 2 :]
        kind, _ = _same_outcome(damaged)
        outcomes[kind] = outcomes.get(kind, 0) + 1
    assert set(outcomes) <= {"ok", "LogError"}, outcomes
    assert outcomes.get("LogError", 0) > 0 and outcomes.get("ok", 0) > 0


_FUZZ_GAME = _random_game("spacc-u-mazz", 2, {}, 4, 30)
_FUZZ_DATA = json.loads(cardkit.dumps(_FUZZ_GAME.log))


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        out += _paths(value, prefix + (key,))
    return out


_FUZZ_PATHS = _paths(_FUZZ_DATA)
_FUZZ_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=4),
    st.sampled_from(["QS", "qs", "10S", "RJ", "chance", "pick", "shuffle", "play", "dealer_chosen", "seat"]),
    st.lists(st.sampled_from(["QS", "AH", 3, None]), max_size=3),
    st.dictionaries(st.sampled_from(["type", "seat", "card"]), st.sampled_from(["play", 1, "QS"]), max_size=2),
)


@settings(max_examples=1500 if LONG else 120)
@given(st.lists(st.tuples(st.sampled_from(_FUZZ_PATHS), _FUZZ_VALUES), min_size=1, max_size=3))
def test_mutated_logs_get_the_same_answer_on_both_paths(mutations: list[tuple[tuple[Any, ...], Any]]) -> None:
    data = json.loads(json.dumps(_FUZZ_DATA))
    for path, value in mutations:
        node = data
        try:
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed this path
    kind, _ = _same_outcome(_compact(data))
    assert kind in ("ok", "LogError")


def _deep_typed(value: Any) -> Any:
    """``value`` with every container's type kept (a tuple and a list differ)."""
    if isinstance(value, dict):
        return ("dict", [(k, _deep_typed(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_deep_typed(v) for v in value])
    return (type(value).__name__, value)


@pytest.mark.parametrize("name,players,options", TABLES)
def test_the_generated_writers_write_what_cattrs_writes(name: str, players: int, options: dict[str, Any]) -> None:
    game = _random_game(name, players, options, 2, 150)
    seen = 0
    for entry in game.log.entries:
        for record in (entry.action, *entry.events):
            expected = {"type": serde.type_name(type(record)), **_converter.unstructure(record)}
            assert _deep_typed(serde.to_json(record)) == _deep_typed(expected)
            seen += 1
    assert seen > len(game.log.entries)


def test_a_hand_built_record_with_a_bad_field_is_still_named_when_dumped() -> None:
    from cardkit.games.crazy_eights.actions import Play

    game = _random_game("crazy-eights", 3, {}, 1, 5)
    bad = cardkit.LogEntry(seq=0, actor=0, action=Play("QS", None), events=())  # type: ignore[arg-type]
    log = cardkit.GameLog(game="crazy-eights", rules_version=game.log.rules_version,
                          config=game.log.config, seed=1, entries=(bad,))  # fmt: skip
    for obj in (bad.action, bad, log):
        with pytest.raises(cardkit.IllegalActionError, match=r"Play\.card must be"):
            cardkit.dumps(obj)


def test_a_record_whose_constructor_refuses_a_value_is_a_log_error() -> None:
    # a user's record with a validator: the generated builder calls the constructor, which
    # raises; the record then goes to cattrs, which words the error (once a bare ValueError)
    import types as pytypes

    import attrs

    @attrs.frozen
    class Bet:
        chips: int = attrs.field(validator=attrs.validators.gt(0))

    rules: Any = pytypes.SimpleNamespace(name="betting", action_types=(Bet,), event_types=())
    assert serde.action_from_json(rules, {"type": "bet", "chips": 3}) == Bet(3)
    with pytest.raises(cardkit.LogError, match="malformed action 'bet'"):
        serde.action_from_json(rules, {"type": "bet", "chips": 0})


# ------------------------------------------------------------------ per-seat logs


def _generic_seat(text: str | bytes, rules: Any = None) -> cardkit.SeatLog:
    return serde.seat_log_from_json(serde.parse_json(text), rules)


def _same_seat_outcome(text: str, rules: Any = None) -> tuple[str, Any]:
    fast = _outcome(lambda: cardkit.loads_seat_log(text, rules))
    generic = _outcome(lambda: _generic_seat(text, rules))
    assert fast == generic, (fast, generic)
    return fast


@pytest.mark.parametrize("name,players,options", TABLES)
def test_per_seat_logs_of_every_game_read_the_same_on_both_paths(
    name: str, players: int, options: dict[str, Any]
) -> None:
    from cardkit.serde._fast import fused_loads_seat_log

    game = _random_game(name, players, options, 3, 150 if not LONG else 3000)
    for seat in [*range(players), None]:
        text = cardkit.dumps(game.log_for(seat))
        fast = fused_loads_seat_log(text, None)
        assert fast is not None, "the fast path declined a per-seat log that dumps wrote"
        assert fast == _generic_seat(text) == game.log_for(seat)
        assert cardkit.dumps(fast) == text
        assert fused_loads_seat_log(text, game.rules) == fast


SEAT_DAMAGE: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("a withheld action", lambda d: d["entries"][3].update(action=None)),
    ("a seat of null", lambda d: d.update(seat=None)),
    ("a bool seat", lambda d: d.update(seat=True)),
    ("a negative seat", lambda d: d.update(seat=-1)),
    ("a seed (a full log's field)", lambda d: d.update(seed=1)),
    ("a missing seat", lambda d: d.pop("seat")),
    ("seq out of order", lambda d: d["entries"][4].update(seq=5)),
    ("a gap in seq", lambda d: d["entries"].pop(3)),
    ("a bad card", lambda d: _first(d, "card_played").update(card="qs")),
    ("a full log's format", lambda d: d.update(format="cardkit-log")),
]


@pytest.mark.parametrize("what,change", SEAT_DAMAGE, ids=[what for what, _ in SEAT_DAMAGE])
def test_damaged_per_seat_logs_get_the_same_answer_on_both_paths(
    what: str, change: Callable[[dict[str, Any]], None]
) -> None:
    game, _ = _log_data()
    data = json.loads(cardkit.dumps(game.log_for(1)))
    change(data)
    kind, _ = _same_seat_outcome(_compact(data))
    assert kind == ("ok" if what in ("a withheld action", "a seat of null") else "LogError")


def test_random_edits_of_a_per_seat_log_get_the_same_answer_on_both_paths() -> None:
    game = _random_game("wizard", 3, {}, 9, 10)
    text = cardkit.dumps(game.log_for(2))
    rnd = random.Random(7)
    kinds = set()
    for _ in range(1000 if LONG else 120):
        i = rnd.randrange(len(text))
        damaged = text[:i] + rnd.choice('{}[]",:019-tnQSW \\') + text[i + 1 :]
        kinds.add(_same_seat_outcome(damaged)[0])
    assert kinds <= {"ok", "LogError"} and "LogError" in kinds
    # a full log is not a per-seat log, and the other way round, on both paths
    assert _same_seat_outcome(cardkit.dumps(game.log))[0] == "LogError"
    assert _same_outcome(text)[0] == "LogError"


def test_the_serde_package_has_no_import_circle() -> None:
    # Issue 24 item 25: serde.py and _serde_fast.py imported each other. Each module of the
    # package imports only modules listed before it (and never the package itself).
    import ast
    import importlib.util
    from pathlib import Path

    order = ["_convert", "_build", "_records", "_text", "_envelope", "_fast", "_state"]
    spec = importlib.util.find_spec("cardkit.serde")
    assert spec is not None and spec.origin is not None
    folder = Path(spec.origin).parent
    assert sorted(p.stem for p in folder.glob("*.py")) == sorted(order + ["__init__"])
    for i, name in enumerate(order):
        tree = ast.parse((folder / f"{name}.py").read_text("utf-8"))
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cardkit.serde"):
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.startswith("cardkit.serde")}
        assert found <= {f"cardkit.serde.{lower}" for lower in order[:i]}, (name, found)
    assert importlib.util.find_spec("cardkit._serde_fast") is None
