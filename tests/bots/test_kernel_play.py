"""Whole games on a kernel are the reference path's games (simulate, arena, saved logs).

Every output of ``cardkit simulate``'s ``play_game`` and of the arena's ``play_one`` is
compared between ``engine="kernel"`` and ``engine="reducer"`` on many seeds: winners,
scores, seat actions, finished / guard-ended / unfinished, and the saved log's JSON. Each
case runs on the game's own kernel when it has one for the options (``real``) and on
:class:`~reference_kernel.ReferenceKernel`, a kernel-shaped adapter around the reference
``Game`` (``adapter``), so the drivers (chance drawn from the seed, the bots' rng calls,
the step limit, the guard endings, the log replay) are proved on every game even where
no compiled kernel exists yet.
"""

from __future__ import annotations

import json
from typing import Any, Iterator

import pytest
from conftest import long_or, long_scaled
from reference_kernel import ReferenceBridge, ReferenceKernel, WithoutChanceCards, WithoutGuard

from cardkit.bots import make_bot
from cardkit.bots.arena import play_one
from cardkit.bots.kernel_play import kernel_problem, use_kernel
from cardkit.cli.main import main
from cardkit.cli.simulate import _Job, play_game
from cardkit.errors import ConfigError
from cardkit.games import get_rules
from cardkit.kernels.bridge import bridge_for

# (game, players, options): defaults, and options whose guard fires under random play
CASES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("crazy-eights", 2, {}),
    ("crazy-eights", 4, {"max_turns": 30}),
    ("crazy-eights", 3, {"mode": "points", "target": 60, "stock_empty": "reshuffle", "jack_skips": True}),
    ("wizard", 4, {"rounds": 3}),
    ("cutthroat-spades", 3, {"wins_needed": 1, "max_hands": 2}),
    ("spacc-u-mazz", 2, {"max_turns": 40}),
    ("spacc-u-mazz", 3, {"max_turns": 300, "rank_order": "as_printed", "target_score": 30}),
)
BOTS = (None, ("random", "rule", "random", "rule"), ("rule",) * 4)


@pytest.fixture(params=["real", "adapter"])
def engine_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _install(kind: str, game: str, players: int, options: dict[str, Any],
             monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    rules = get_rules(game)
    if kind == "real":
        config = rules.config(players, **options)
        if bridge_for(rules, config) is None:
            pytest.skip(f"{game} has no kernel for {options} on this branch")
        # a kernel that cannot play whole games would fall back to the reducer unseen
        assert kernel_problem(rules, config, None) is None
        return
    monkeypatch.setattr(rules, "kernel_bridge", lambda config: ReferenceBridge(rules, config), raising=False)


def _jobs(game: str, players: int, options: dict[str, Any], seeds: int) -> Iterator[tuple[_Job, _Job]]:
    for number in range(seeds):
        bots = BOTS[number % len(BOTS)]
        specs = None if bots is None else bots[:players] + ("random",) * (players - len(bots))
        # some games are cut by the step limit; every fourth keeps its log
        limit = 25 if number % 5 == 4 else 10_000
        job = _Job(game, players, tuple(options.items()), specs, 7, number, limit, number % 4 == 0, "reducer")
        yield job, job._replace(engine="kernel")


@long_scaled
@pytest.mark.parametrize("game, players, options", CASES, ids=[f"{c[0]}-{c[1]}p-{i}" for i, c in enumerate(CASES)])
def test_simulate_plays_the_same_games_on_the_kernel(
    engine_kind: str, game: str, players: int, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(engine_kind, game, players, options, monkeypatch)
    seeds = long_or(12 if engine_kind == "adapter" else 50, 1000)
    endings = set()
    for reducer_job, kernel_job in _jobs(game, players, options, seeds):
        reference = play_game(reducer_job)
        fast = play_game(kernel_job)
        assert fast == reference, f"game {reducer_job.number}"
        endings.add("unfinished" if not fast.finished else "guard" if fast.guard_ended else "rules")
    assert "unfinished" in endings and len(endings) >= 2


@pytest.mark.parametrize("game, players, options", [CASES[1], CASES[4], CASES[5]], ids=lambda c: str(c))
def test_arena_plays_the_same_games_on_the_kernel(
    engine_kind: str, game: str, players: int, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(engine_kind, game, players, options, monkeypatch)
    specs = ("rule", "random", "rule", "random")[:players]
    for number in range(long_or(6, 60)):
        both = [play_one(game, players, options, specs, 3, number, 5000, engine) for engine in ("reducer", "kernel")]
        assert both[0] == both[1], f"game {number}"


def test_guard_is_asked_of_the_reference_when_the_kernel_cannot_tell(monkeypatch: pytest.MonkeyPatch) -> None:
    game, players, options = CASES[1]
    rules = get_rules(game)
    monkeypatch.setattr(rules, "kernel_bridge", lambda c: ReferenceBridge(rules, c, WithoutGuard), raising=False)
    guards = 0
    for reducer_job, kernel_job in _jobs(game, players, options, 8):
        reference = play_game(reducer_job)
        assert play_game(kernel_job) == reference
        guards += reference.guard_ended
    assert guards, "the case must reach the max_turns guard"


def test_a_kernel_without_chance_cards_stays_on_the_reducer(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = get_rules("crazy-eights")
    config = rules.config(2)
    monkeypatch.setattr(rules, "kernel_bridge", lambda c: ReferenceBridge(rules, c, WithoutChanceCards), raising=False)
    problem = kernel_problem(rules, config, None)
    assert problem is not None and "chance_cards" in problem
    assert use_kernel("auto", rules, config, None) is False
    with pytest.raises(ConfigError, match="--engine kernel"):
        use_kernel("kernel", rules, config, None)
    job = _Job("crazy-eights", 2, (), None, 1, 0, 10_000, False, "kernel")
    assert play_game(job) == play_game(job._replace(engine="reducer"))  # played on the reducer


def test_engine_choice(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    rules = get_rules("wizard")
    config = rules.config(3, rounds=2)
    monkeypatch.setattr(rules, "kernel_bridge", lambda c: ReferenceBridge(rules, c), raising=False)
    assert use_kernel("auto", rules, config, [make_bot("rule")] * 3)
    assert not use_kernel("reducer", rules, config, None)
    searcher = [make_bot("ismcts:10")] * 3
    assert not use_kernel("auto", rules, config, searcher)  # a search bot needs the reference
    assert "ISMCTSBot" in (kernel_problem(rules, config, searcher) or "")
    base = ["simulate", "wizard", "--players", "3", "--games", "3", "-o", "rounds=2", "--json"]
    reports = {}
    for engine in ("kernel", "reducer"):
        assert main([*base, "--engine", engine]) == 0
        reports[engine] = json.loads(capsys.readouterr().out)
    assert reports["kernel"].pop("engine") == "kernel" and reports["reducer"].pop("engine") == "reducer"
    assert reports["kernel"] == reports["reducer"]
    assert main([*base, "--engine", "kernel", "--bots", "ismcts:5"]) == 1
    assert "--engine kernel" in capsys.readouterr().err


def test_a_game_without_a_kernel_runs_on_the_reducer(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = get_rules("wizard")
    monkeypatch.setattr(rules, "kernel_bridge", lambda config: None, raising=False)  # no kernel for any config
    assert main(["simulate", "wizard", "--players", "3", "--games", "2", "-o", "rounds=1"]) == 0
    assert "engine reducer" in capsys.readouterr().out
    assert main(["simulate", "wizard", "--players", "3", "--games", "2", "-o", "rounds=1", "--engine", "kernel"]) == 1
    assert "no kernel" in capsys.readouterr().err


def test_the_adapters_differ_where_they_say() -> None:
    assert hasattr(ReferenceKernel, "guard_ended") and not hasattr(WithoutGuard, "guard_ended")
    assert hasattr(WithoutGuard, "chance_cards") and not hasattr(WithoutChanceCards, "chance_cards")


@pytest.mark.parametrize("game, players, options", [CASES[3], CASES[4], CASES[0]], ids=lambda c: str(c))
def test_a_beginner_plays_the_same_games_on_the_kernel(
    engine_kind: str, game: str, players: int, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # BeginnerBot.choose_id: the same slips with the same rng calls as its choose
    _install(engine_kind, game, players, options, monkeypatch)
    specs = ("level:1", "rule", "level:1", "random")[:players]
    rules = get_rules(game)
    assert use_kernel("auto", rules, rules.config(players, **options), [make_bot(s) for s in specs])
    for number in range(long_or(4, 40)):
        both = [play_one(game, players, options, specs, 5, number, 5000, engine) for engine in ("reducer", "kernel")]
        assert both[0] == both[1], f"game {number}"


def test_a_beginner_needs_the_action_index_on_a_kernel() -> None:
    from cardkit.bots import BeginnerBot

    rules = get_rules("wizard")
    config = rules.config(3, rounds=2)
    bridge = bridge_for(rules, config)
    if bridge is None:
        pytest.skip("no wizard kernel")
    kernel = bridge.kernel(rules.initial_state(config))
    with pytest.raises(ConfigError, match="bind_kernel"):
        BeginnerBot().choose_id(kernel, __import__("random").Random(0))
