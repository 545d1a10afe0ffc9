"""One shape for every game: package names, view fields, option schemas, errors with data,
undo by seat, hashing, and the trick winner in trick-taking views."""

from __future__ import annotations

import importlib
import json
import pickle
import random
from typing import Any

import attrs
import pytest

import cardkit
from cardkit import CHANCE, CommonView, Game
from cardkit.cli.main import main as cli_main
from cardkit.core.options import OptionSpec, options_of
from cardkit.core.views import COMMON_VIEW_FIELDS
from cardkit.errors import (
    ConfigError,
    IllegalActionError,
    NotationError,
    ReplayMismatchError,
    SeatError,
)

PACKAGES = {
    "crazy-eights": ("cardkit.games.crazy_eights", "CrazyEights", 3),
    "wizard": ("cardkit.games.wizard", "Wizard", 4),
    "cutthroat-spades": ("cardkit.games.cutthroat_spades", "Cutthroat", 4),
    "spacc-u-mazz": ("cardkit.games.spacc_u_mazz", "Spacc", 3),
}
GAMES = sorted(PACKAGES)


def _package(name: str) -> Any:
    return importlib.import_module(PACKAGES[name][0])


def _playout(game: Game[Any, Any], seed: int, limit: int) -> list[Game[Any, Any]]:
    """The games after each of up to ``limit`` random legal actions (the start included)."""
    rng = random.Random(seed)
    games = [game]
    for _ in range(limit):
        if game.is_over:
            break
        game = game.play(rng.choice(game.legal_actions()), seat=game.to_act)
        games.append(game)
    return games


# ------------------------------------------------------------------ package shape


@pytest.mark.parametrize("name", GAMES)
def test_every_game_package_exports_the_same_kinds_of_names(name: str) -> None:
    package = _package(name)
    prefix = PACKAGES[name][1]
    exported = set(package.__all__)
    kinds = {"Config", "State", "View", "Options", "Action", "Event"}
    assert {prefix + kind for kind in kinds} <= exported
    assert {"RULES", "OPTIONS", "new_game"} <= exported
    assert {t.__name__ for t in package.RULES.action_types} <= exported
    assert {t.__name__ for t in package.RULES.event_types} <= exported
    assert all(hasattr(package, n) for n in exported)
    assert package.RULES is cardkit.get_rules(name)
    assert package.RULES.options() is package.OPTIONS


@pytest.mark.parametrize("name", GAMES)
def test_the_typed_constructor_is_new_game_with_typed_options(name: str) -> None:
    package = _package(name)
    players = PACKAGES[name][2]
    typed = package.new_game(players=players, seed=11)
    assert typed == cardkit.new_game(name, players=players, seed=11)
    with pytest.raises(ConfigError) as info:
        package.new_game(players=players, seed=11, max_turns=0) if name in (
            "crazy-eights", "spacc-u-mazz"
        ) else package.new_game(players=players, seed=11, target=0) if name == "cutthroat-spades" else package.new_game(
            players=players, seed=11, rounds=0
        )  # fmt: skip
    assert info.value.option in ("max_turns", "target", "rounds")
    assert info.value.value == 0


# ------------------------------------------------------------------ views


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_view_has_the_common_fields_and_only_declared_fields(name: str, seed: int) -> None:
    package = _package(name)
    view_type = getattr(package, PACKAGES[name][1] + "View")
    declared = view_type.__required_keys__ | view_type.__optional_keys__
    assert set(COMMON_VIEW_FIELDS) <= declared
    start = cardkit.new_game(name, players=PACKAGES[name][2], seed=seed)
    for game in _playout(start, seed, 150)[::7] + [_playout(start, seed, 3000)[-1]]:
        for seat in (None, *range(game.players)):
            view = game.view(seat)
            assert set(view) == declared
            assert json.loads(json.dumps(view)) == view
            assert view["game"] == name and view["seat"] == seat
            assert view["players"] == game.players
            assert view["to_act"] == game.to_act
            assert view["scores"] == list(game.scores)
            assert (view["phase"] == "over") == game.is_over
            held = [0] * game.players  # Spacc 'u Mazz keeps the publicly known part apart
            for zone in game.zones():
                if zone.name in ("hand", "known") and zone.owner is not None:
                    held[zone.owner] += len(zone.cards)
            assert view["hand_sizes"] == held
            if view["hand"] is not None:
                assert len(view["hand"]) == view["hand_sizes"][seat]  # type: ignore[index]
            result = game.result
            assert view["result"] == (
                None if result is None else {"scores": list(result.scores), "winners": list(result.winners)}
            )
            assert (view["legal_actions"] != []) == (seat is not None and seat == game.to_act)


def _common(view: CommonView) -> tuple[str, int | None]:
    return view["phase"], view["dealer"]


def test_crazy_eights_phases() -> None:
    game = cardkit.new_game("crazy-eights", players=2, seed=5, auto_chance=False)
    assert _common(game.view(None)) == ("pick", None)
    game = game.play(cardkit.Pick(0))
    assert _common(game.view(None)) == ("deal", 0)
    game = game.play(cardkit.Shuffle(game.pending_chance().cards))  # type: ignore[union-attr]
    assert game.view(None)["phase"] == "play"


@pytest.mark.parametrize("name", ["wizard", "cutthroat-spades"])
@pytest.mark.parametrize("seed", [3, 4, 5])
def test_trick_winner_says_who_the_rules_make_win(name: str, seed: int) -> None:
    """After each card: the trick is won (TrickWon) by the seat that was winning or by
    the seat that just played, and the same holds for who is winning an unfinished trick."""
    game = cardkit.new_game(name, players=4, seed=seed)
    tricks_checked = 0
    for before, after in zip(_playout(game, seed, 400), _playout(game, seed, 400)[1:]):
        entry = after.last_entry
        assert entry is not None
        view = before.view(None)
        played = [e for e in entry.events if type(e).__name__ == "CardPlayed"]
        if not played:
            continue
        seat = played[0].seat
        candidates = {seat} if not view["trick"] else {view["trick_winner"], seat}
        won = [e for e in entry.events if type(e).__name__ == "TrickWon"]
        if won:
            tricks_checked += 1
            assert won[0].seat in candidates
            assert after.view(None)["trick_winner"] is None or after.view(None)["trick"] != []
        else:
            now = after.view(None)
            assert now["trick_winner"] in candidates
            assert now["trick"][-1][0] == seat
    assert tricks_checked >= 5


def test_trick_helpers_are_public_and_agree_with_the_rules() -> None:
    from cardkit.cards import Card
    from cardkit.games import cutthroat_spades, wizard

    cards = [Card("KH"), Card("2S"), Card("AH")]
    assert cardkit.winning_index(cards, "H", "S") == 1
    assert cardkit.winning_index(cards, "H", None) == 2
    assert wizard.trick_winner([Card("N"), Card("KH"), Card("W")], "H") == 2
    assert cutthroat_spades.suit_of(Card("RJ")) == "S"
    assert cutthroat_spades.rank_of(Card("RJ")) > cutthroat_spades.rank_of(Card("AS"))
    trick = [(0, Card("AS")), (1, Card("BJ")), (2, Card("KS"))]
    assert cutthroat_spades.current_trick_winner(trick) == 1
    assert cutthroat_spades.current_trick_winner([]) is None


# ------------------------------------------------------------------ option schemas


@pytest.mark.parametrize("name", GAMES)
def test_option_schema_is_json_and_matches_config_and_typed_options(name: str) -> None:
    rules = cardkit.get_rules(name)
    specs = options_of(rules)
    assert specs and all(isinstance(s, OptionSpec) and s.doc for s in specs)
    names = [s.name for s in specs]
    document = json.loads(json.dumps([s.to_json() for s in specs]))
    assert [d["name"] for d in document] == names
    config = rules.config(rules.max_players)
    assert list(config.as_options()) == names
    typed = getattr(_package(name), PACKAGES[name][1] + "Options")
    assert set(typed.__optional_keys__) == set(names)
    for spec in specs:
        if not spec.default_depends:  # the documented default is the resolved one
            assert json.loads(json.dumps(config.as_options()[spec.name])) == spec.to_json()["default"]


@pytest.mark.parametrize("name", GAMES)
def test_config_validation_follows_the_schema(name: str) -> None:
    rules = cardkit.get_rules(name)
    players = rules.max_players
    for spec in options_of(rules):
        for value in spec.choices or ():
            assert rules.config(players, **{spec.name: value}).as_options()[spec.name] == value
        bad: list[object] = []
        if spec.choices is not None:
            bad.append("no such value")
        if spec.type == "bool":
            bad += ["yes", 1]
        if spec.type == "int" and spec.choices is None:
            assert spec.minimum is not None
            bad += [spec.minimum - 1, "3", True]
            if spec.maximum is not None:
                bad.append(spec.maximum + 1)
        if not spec.nullable and spec.type in ("bool", "int", "str"):
            bad.append(None)
        for value in bad:
            with pytest.raises(ConfigError) as info:
                rules.config(players, **{spec.name: value})
            assert info.value.option == spec.name, (spec.name, value, str(info.value))
            assert info.value.value == value


def test_config_errors_carry_the_option_and_value() -> None:
    with pytest.raises(ConfigError) as info:
        cardkit.new_game("wizard", players=4, rounds=99)
    assert (info.value.option, info.value.value) == ("rounds", 99)
    with pytest.raises(ConfigError) as info:
        cardkit.new_game("wizard", players=4, colour="red")
    assert (info.value.option, info.value.value) == ("colour", "red")
    with pytest.raises(ConfigError) as info:
        cardkit.new_game("wizard", players=9)
    assert (info.value.option, info.value.value) == ("players", 9)
    with pytest.raises(ConfigError) as info:
        cardkit.new_game("wizard", players=4, seed=-1)
    assert (info.value.option, info.value.value) == ("seed", -1)
    with pytest.raises(ConfigError) as info:
        cardkit.new_game("spacc-u-mazz", players=2, card_points={"Z": 3})
    assert (info.value.option, info.value.value) == ("card_points", {"Z": 3})
    with pytest.raises(ConfigError) as info:
        cardkit.new_game("cutthroat-spades", players=4, prize_jacks=["JS"])
    assert (info.value.option, info.value.value) == ("prize_jacks", ["JS"])
    with pytest.raises(ConfigError) as info:
        cardkit.new_game("crazy-eights", players=7, decks=1, hand_size=8)
    assert (info.value.option, info.value.value) == ("hand_size", 8)


def test_cardkit_rules_prints_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["rules", "cutthroat-spades", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["game"] == "cutthroat-spades" and document["min_players"] == 3
    assert [o["name"] for o in document["options"]] == [
        s.name for s in cardkit.get_rules("cutthroat-spades").options()  # type: ignore[attr-defined]
    ]
    assert cli_main(["rules", "wizard"]) == 0
    text = capsys.readouterr().out
    assert "forbid_even_bids (bool" in text and "rounds (int; 1.. | null; default depends on players)" in text
    assert cli_main(["rules", "chess"]) == 1
    assert "UnknownGameError" in capsys.readouterr().err


# ------------------------------------------------------------------ errors with data


def test_notation_errors_carry_the_text() -> None:
    game = cardkit.new_game("crazy-eights", players=3, seed=1)
    with pytest.raises(NotationError) as info:
        game.play_text("fly me to the moon")
    assert info.value.text == "fly me to the moon"
    with pytest.raises(NotationError) as info:
        cardkit.Card.parse("ZZ")
    assert info.value.text == "ZZ"


def test_log_errors_name_the_entry_at_fault() -> None:
    game = _playout(cardkit.new_game("wizard", players=3, seed=2), 2, 10)[-1]
    log = game.log
    seq = log.entries[-1].seq
    bad = attrs.evolve(log.entries[-1], events=())
    with pytest.raises(ReplayMismatchError) as info:
        cardkit.replay(attrs.evolve(log, entries=(*log.entries[:-1], bad)))
    assert info.value.seq == seq


# ------------------------------------------------------------------ undo by seat, hashing


def _bidding_wizard() -> list[Game[Any, Any]]:
    game: Game[Any, Any] = cardkit.new_game("wizard", players=4, seed=9)
    games = [game]
    while game.view(None)["phase"] != "bid":
        game = game.play(game.legal_actions()[0])
        games.append(game)
    for _ in range(3):
        game = game.play(game.legal_actions()[0])
        games.append(game)
    return games


def test_undo_seat_takes_back_that_seats_last_action() -> None:
    games = _bidding_wizard()
    game = games[-1]
    last = game.last_entry
    assert last is not None
    assert game.undo_seat(last.actor) == games[-2]
    assert games[-2].to_act == last.actor
    earlier = games[-2].last_entry
    assert earlier is not None and earlier.actor != last.actor
    with pytest.raises(IllegalActionError) as info:
        game.undo_seat(earlier.actor)
    assert info.value.seat == earlier.actor and "safe=False" in str(info.value)
    assert game.undo_seat(earlier.actor, safe=False) == games[-3]
    never = next(s for s in range(4) if s not in {e.actor for e in game.log.entries})
    with pytest.raises(IllegalActionError, match="has not acted"):
        game.undo_seat(never)
    with pytest.raises(SeatError):
        game.undo_seat(4)


def test_undo_seat_is_safe_by_default() -> None:
    game = cardkit.new_game("crazy-eights", players=2, seed=3)
    seat = game.to_act
    assert seat is not None
    drawn = game.play(cardkit.games.crazy_eights.Draw(), seat=seat)
    with pytest.raises(IllegalActionError):
        drawn.undo_seat(seat)  # the draw showed the seat a card
    assert drawn.undo_seat(seat, safe=False) == game


def test_equal_games_hash_equal_and_work_as_keys() -> None:
    games = _playout(cardkit.new_game("cutthroat-spades", players=4, seed=6), 6, 60)
    table = {game: i for i, game in enumerate(games)}
    assert len(table) == len(games)
    for i in (0, 10, len(games) - 1):
        twin = cardkit.replay(games[i].log)
        assert twin == games[i] and hash(twin) == hash(games[i]) and table[twin] == i
        copy = pickle.loads(pickle.dumps(games[i]))
        assert hash(copy) == hash(games[i])
    other_seed = cardkit.new_game("cutthroat-spades", players=4, seed=7)
    assert other_seed != games[0] and other_seed not in table
    assert CHANCE == -1


# ------------------------------------------------------------------ the views' declared types


def _conforms(value: object, hint: Any) -> bool:
    """Whether JSON ``value`` has the declared type ``hint`` (the forms views use)."""
    import types
    import typing

    origin = typing.get_origin(hint)
    if hint is type(None):
        return value is None
    if origin in (typing.Union, types.UnionType):
        return any(_conforms(value, h) for h in typing.get_args(hint))
    if origin is list:
        (item,) = typing.get_args(hint)
        return isinstance(value, list) and all(_conforms(v, item) for v in value)
    if typing.is_typeddict(hint):
        hints = typing.get_type_hints(hint)
        return isinstance(value, dict) and set(value) == set(hints) and all(
            _conforms(value[k], h) for k, h in hints.items()
        )
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


@pytest.mark.parametrize("name", GAMES)
def test_every_view_value_has_its_declared_type(name: str) -> None:
    view_type = getattr(_package(name), PACKAGES[name][1] + "View")
    start = cardkit.new_game(name, players=PACKAGES[name][2], seed=8)
    for game in _playout(start, 8, 2000)[::25]:
        for seat in (None, 0):
            view = game.view(seat)
            assert _conforms(view, view_type), [
                k for k, h in __import__("typing").get_type_hints(view_type).items()
                if not _conforms(view[k], h)
            ]


def test_illegal_action_errors_carry_reason_action_and_seat() -> None:
    game = cardkit.new_game("wizard", players=3, seed=4)
    seat = game.to_act
    assert seat is not None and seat >= 0
    from cardkit.games import wizard

    bad = wizard.Bid(99)
    with pytest.raises(IllegalActionError) as info:
        game.play(bad, seat=seat)
    assert info.value.action == bad and info.value.seat == seat and info.value.reason == str(info.value)


@pytest.mark.parametrize("name", GAMES)
def test_every_view_type_declares_the_common_fields_with_their_types(name: str) -> None:
    import typing

    view_type = getattr(_package(name), PACKAGES[name][1] + "View")
    hints = typing.get_type_hints(view_type)
    common = typing.get_type_hints(CommonView)
    assert {k: hints[k] for k in common} == common
