"""The shared guards run once per action on the ``Game`` path (``decide_after_guard``),
with the same events and the same refusals as ``decide``; a game without that method is
played through ``decide`` with identical results; the checked-action cache keeps only
what cannot change after its check."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import cardkit
from cardkit.core.fields import CHECKED_ACTIONS, check_fields
from cardkit.core.game import Game, chance_outcome
from cardkit.core.log import GameLog, LogEntry
from cardkit.core.rules import CHANCE, Pick
from cardkit.errors import IllegalActionError, LogError, ReplayMismatchError

GAMES = [("crazy-eights", 3), ("wizard", 4), ("cutthroat-spades", 3), ("spacc-u-mazz", 2)]


def _outcome(call: Any) -> tuple[str, Any]:
    try:
        return ("events", call())
    except IllegalActionError as exc:
        return ("refused", str(exc))


@pytest.mark.parametrize("name,players", GAMES)
def test_decide_after_guard_is_decide_for_every_action_of_the_space(name: str, players: int) -> None:
    rules = cardkit.get_rules(name)
    config = rules.config(players)
    space = rules.action_space(config)
    rnd = random.Random(3)
    game = cardkit.new_game(name, players=players, seed=3, auto_chance=False)
    compared = refused = 0
    while not game.is_over and game.seat_actions < 150:
        state, to_act = game.state, game.to_act
        assert to_act is not None
        if to_act == CHANCE:
            action: Any = chance_outcome(rules.pending_chance(state), 3, game.entry_count)
            candidates = [action]
        else:
            legal = game.legal_actions()
            action = legal[int(rnd.random() * len(legal))]
            candidates = list(legal) + rnd.sample(space, min(12, len(space)))
        for candidate in candidates:
            guarded = _outcome(lambda: rules.decide(state, candidate))
            after = _outcome(lambda: rules.decide_after_guard(state, candidate, to_act))
            assert guarded == after, (candidate, guarded, after)
            compared += 1
            refused += guarded[0] == "refused"
        game = game.play(action)
    assert compared > 500 and refused > 50


class _WithoutAfterGuard:
    """The rules of a built-in game, minus decide_after_guard (a user's game may lack it)."""

    def __init__(self, rules: Any) -> None:
        self._rules = rules

    def __getattr__(self, name: str) -> Any:
        if name == "decide_after_guard":
            raise AttributeError(name)
        return getattr(self._rules, name)


@pytest.mark.parametrize("name,players", GAMES)
def test_a_game_without_decide_after_guard_plays_and_replays_alike(name: str, players: int) -> None:
    rules = cardkit.get_rules(name)
    plain = _WithoutAfterGuard(rules)
    config = rules.config(players)
    fast: Game[Any, Any] = Game.start(rules, config, 11)
    slow: Game[Any, Any] = Game.start(plain, config, 11)  # type: ignore[arg-type]
    assert slow._decide is None and fast._decide is not None
    rnd = random.Random(11)
    while not fast.is_over and fast.seat_actions < 200:
        legal = fast.legal_actions()
        assert slow.legal_actions() == legal
        action = legal[int(rnd.random() * len(legal))]
        fast, slow = fast.play(action), slow.play(action)
        assert fast.state == slow.state and fast.to_act == slow.to_act
    assert fast.log.entries == slow.log.entries
    assert Game.from_log(plain, fast.log).state == fast.state  # type: ignore[arg-type]
    assert Game.from_log(rules, slow.log).state == slow.state


def test_a_chance_entry_equal_to_the_seeds_outcome_still_has_its_fields_checked() -> None:
    rules = cardkit.get_rules("crazy-eights")
    config = rules.config(2)
    seed = next(
        s for s in range(100) if chance_outcome(rules.pending_chance(rules.initial_state(config)), s, 0) == Pick(1)
    )
    log = cardkit.new_game("crazy-eights", players=2, seed=seed).log
    first = log.entries[0]
    assert first.action == Pick(1) == Pick(True)  # noqa: E712 - what makes the check necessary
    forged = attrs.evolve(log, entries=(LogEntry(0, CHANCE, Pick(True), first.events), *log.entries[1:]))
    with pytest.raises((ReplayMismatchError, LogError), match="integer"):
        cardkit.replay(forged)
    assert cardkit.replay(log).state == cardkit.new_game("crazy-eights", players=2, seed=seed).state


@attrs.define
class _Mutable:
    n: int


@attrs.frozen
class _Frozen:
    n: int


def test_only_frozen_actions_are_remembered_as_checked() -> None:
    mutable = _Mutable(1)
    check_fields(mutable)
    assert CHECKED_ACTIONS.get(id(mutable)) is not mutable
    mutable.n = True  # type: ignore[assignment]
    with pytest.raises(IllegalActionError, match="_Mutable.n must be an integer"):
        check_fields(mutable)
    frozen = _Frozen(1)
    check_fields(frozen)
    assert CHECKED_ACTIONS.get(id(frozen)) is frozen
    check_fields(frozen)  # answered from the cache
    with pytest.raises(IllegalActionError, match="_Frozen.n must be an integer"):
        check_fields(_Frozen(True))  # type: ignore[arg-type]


def test_the_checked_action_cache_stays_bounded() -> None:
    from cardkit.core.fields import _CHECKED_LIMIT

    for i in range(3 * _CHECKED_LIMIT):
        check_fields(_Frozen(i))
        assert len(CHECKED_ACTIONS) <= _CHECKED_LIMIT


def test_a_log_entry_list_that_is_not_a_tuple_replays() -> None:
    game = cardkit.new_game("wizard", players=3, seed=5)
    for _ in range(10):
        game = game.play(game.legal_actions()[0])
    log = game.log
    as_lists = GameLog(
        log.game, log.rules_version, log.config, log.seed,
        tuple(LogEntry(e.seq, e.actor, e.action, list(e.events)) for e in log.entries),  # type: ignore[arg-type]
        log.auto_chance,
    )  # fmt: skip
    assert cardkit.replay(as_lists).state == game.state


@pytest.mark.parametrize("name,players", GAMES)
def test_a_cached_config_is_never_given_for_inputs_of_another_type(name: str, players: int) -> None:
    from cardkit.core.config import resolve_config
    from cardkit.errors import ConfigError

    rules = cardkit.get_rules(name)
    first = resolve_config(rules, players, {})
    assert resolve_config(rules, players, {}) == first == rules.config(players)
    for bad_players in (float(players), True if players == 1 else str(players)):
        with pytest.raises(ConfigError):
            resolve_config(rules, bad_players, {})
    option = rules.options()[0]
    good = resolve_config(rules, players, {option.name: option.default})
    assert good == rules.config(players, **{option.name: option.default})
    if isinstance(option.default, bool):
        with pytest.raises(ConfigError):
            resolve_config(rules, players, {option.name: int(option.default)})
    elif isinstance(option.default, int):
        with pytest.raises(ConfigError):
            resolve_config(rules, players, {option.name: float(option.default)})
