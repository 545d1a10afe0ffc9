"""RandomBot, RuleBot and ISMCTSBot: legal, deterministic, explained, and strict on bad input."""

from __future__ import annotations

import random

import pytest

import cardkit
from cardkit.bots import Bot, ISMCTSBot, RandomBot, RuleBot, make_bot
from cardkit.bots.heuristics.wizard import estimate_tricks
from cardkit.errors import ConfigError, IllegalActionError, UnknownGameError

from bots_helpers import GAMES, SHORT, positions


@pytest.mark.parametrize("name", GAMES)
def test_every_bot_plays_legal_actions_to_the_end(name: str) -> None:
    bots = [RuleBot(), RandomBot(), ISMCTSBot(iterations=20)]
    game = cardkit.new_game(name, players=3, seed=4, **SHORT[name])
    rngs = [random.Random(s) for s in range(3)]
    steps = 0
    # Spacc 'u Mazz hands with random players last thousands of steps: 120 are enough here
    limit = 120 if name == "spacc-u-mazz" else 1500
    while not game.is_over and steps < limit:
        seat = game.to_act
        assert seat is not None
        ss = game.seat_state(seat)
        action = bots[seat].choose(ss, rngs[seat])
        assert action in game.legal_actions()
        game = game.play(action, seat)
        steps += 1
    assert game.is_over or name == "spacc-u-mazz"


@pytest.mark.parametrize("name", GAMES)
def test_bots_are_deterministic_for_a_seed(name: str) -> None:
    for game in positions(name, 21, 4):
        ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
        for bot in (RandomBot(), RuleBot(), ISMCTSBot(iterations=40)):
            assert bot.choose(ss, random.Random(5)) == bot.choose(ss, random.Random(5))


def test_bots_never_touch_global_random() -> None:
    game = next(positions("wizard", 3, 1))
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    random.seed(12345)
    before = random.getstate()
    for bot in (RandomBot(), RuleBot(), ISMCTSBot(iterations=50)):
        bot.choose(ss, random.Random(1))
    assert random.getstate() == before


def test_ismcts_does_not_change_the_game() -> None:
    game = next(positions("crazy-eights", 5, 1))
    snapshot = (game.state, game.log)
    ISMCTSBot(iterations=60).choose(game.seat_state(game.to_act), random.Random(0))  # type: ignore[arg-type]
    assert (game.state, game.log) == snapshot


@pytest.mark.parametrize("name", GAMES)
def test_rule_bot_explains_in_one_line(name: str) -> None:
    for game in positions(name, 8, 5):
        action, reason = RuleBot().reason(game.seat_state(game.to_act))  # type: ignore[arg-type]
        assert action in game.legal_actions()
        assert reason and "\n" not in reason and "fallback" not in reason


def test_ismcts_prefers_a_sure_win_over_visits_order() -> None:
    """A Crazy Eights seat with one card left that it can play goes out."""
    game = cardkit.new_game("crazy-eights", players=3, seed=2, auto_chance=False)
    game = game.play(cardkit.Pick(0))
    spec = game.pending_chance()
    assert isinstance(spec, cardkit.ShuffleSpec)
    game = game.play(cardkit.Shuffle(spec.cards))
    # play until seat to act holds a single playable card (random search over seeds would
    # be slower); instead check the search is consistent: the most-visited root action
    # is the one returned.
    bot = ISMCTSBot(iterations=80)
    ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
    visits = bot.root_visits(ss, random.Random(3))
    chosen = bot.choose(ss, random.Random(3))
    assert visits[chosen] == max(visits.values())
    assert sum(visits.values()) == 80


def test_ismcts_searches_rules_without_an_unguarded_decide() -> None:
    """The search calls ``decide_after_guard`` where the rules have it, else ``decide``
    (a user's rules need not offer it): the same search either way."""
    from cardkit.core.seat import SeatState

    game = next(g for g in positions("cutthroat-spades", 8, 12) if len(g.legal_actions()) > 1)
    seat = game.to_act
    assert seat is not None
    # The reducer engine (the kernel engine never calls decide).
    fast = ISMCTSBot(iterations=150, engine="reducer").root_visits(game.seat_state(seat), random.Random(6))
    calls = []

    class Guarded:
        """The game's rules without ``decide_after_guard``, counting ``decide`` calls."""

        def __getattr__(self, name: str) -> Any:
            if name == "decide_after_guard":
                raise AttributeError(name)
            return getattr(game.rules, name)

        def decide(self, state: Any, action: Any) -> Any:
            calls.append(action)
            return game.rules.decide(state, action)

    ss = SeatState.of(Guarded(), game.config, game.state, seat, game.events_for(seat))  # type: ignore[arg-type]
    assert ISMCTSBot(iterations=150, engine="reducer").root_visits(ss, random.Random(6)) == fast
    assert len(calls) > 150


def test_wizard_rule_bot_bids_from_wizards_trumps_and_aces() -> None:
    hand = tuple(cardkit.Card.parse(c) for c in ("W", "W", "AS", "KH", "2C"))
    assert estimate_tricks(hand, "H", 3) > 3
    weak = tuple(cardkit.Card.parse(c) for c in ("N", "2S", "3D", "4C", "5D"))
    assert estimate_tricks(weak, "H", 3) < 0.5


def test_cutthroat_rule_bot_bids_nil_when_weak() -> None:
    from cardkit.bots.heuristics.cutthroat_spades import _nil_safe, estimate_tricks as est

    weak = tuple(cardkit.Card.parse(c) for c in "2S 3S 2H 3H 4H 5D 6D 7D 2C 3C 4C 5C 6C 7C 8C 9C TC".split())
    strong = tuple(cardkit.Card.parse(c) for c in "AS KS QS JS TS 9S AH KH AD KD AC 2C 3C 4H 5H 6D 7D".split())
    assert _nil_safe(weak) and est(weak) < 1
    assert not _nil_safe(strong) and est(strong) > 7


def test_crazy_eights_rule_bot_keeps_eights_and_names_longest_suit() -> None:
    from cardkit.games.crazy_eights.actions import Play

    for game in positions("crazy-eights", 31, 40):
        ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
        action, _ = RuleBot().reason(ss)
        plays = [a for a in ss.legal_actions if isinstance(a, Play)]
        if isinstance(action, Play) and action.card.rank == 8:
            assert all(p.card.rank == 8 for p in plays), "an eight only when nothing else plays"
            if action.suit is not None:
                hand = [c for c in game.state.hands[ss.seat] if c.rank != 8]
                counts = {s: sum(1 for c in hand if c.suit == s) for s in "SHDC"}
                assert counts[action.suit] == max(counts.values())


def test_spacc_rule_bot_avoids_taking_the_pile() -> None:
    from cardkit.games.spacc_u_mazz.actions import Take

    for game in positions("spacc-u-mazz", 41, 40):
        ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
        action, _ = RuleBot().reason(ss)
        if isinstance(action, Take):
            assert all(isinstance(a, Take) for a in ss.legal_actions)


def test_bots_refuse_when_not_their_turn() -> None:
    game = next(positions("wizard", 1, 1))
    other = (game.to_act + 1) % 3  # type: ignore[operator]
    ss = game.seat_state(other)
    for bot in (RandomBot(), RuleBot(), ISMCTSBot(iterations=5)):
        with pytest.raises(IllegalActionError, match="not to act"):
            bot.choose(ss, random.Random(0))


def test_bad_bot_settings_are_config_errors() -> None:
    for kwargs in (
        {"iterations": 0}, {"iterations": None}, {"time_ms": -1}, {"c": -0.5}, {"playout_limit": 0},
        {"opponents": "rule"}, {"opponents": ""}, {"beliefs": "rule"}, {"beliefs": ""},
        {"engine": "fast"}, {"engine": None},
    ):  # fmt: skip
        with pytest.raises(ConfigError):
            ISMCTSBot(**kwargs)  # type: ignore[arg-type]
    for spec in ("", "foo", "ismcts:abc", "rule:3", "ismcts:1:2:3", "ismcts:1:2:search:4", "ismcts:1:2:search:policy:5", "ismcts:1:2:search:policy:auto:6", 7):
        with pytest.raises(ConfigError):
            make_bot(spec)  # type: ignore[arg-type]
    for spec, says in (
        ("ismcts:0", "iterations"), ("ismcts:10:-1", "c must"), ("ismcts:1:2:rule", "opponents"),
        ("ismcts:1:2:search:rule", "beliefs"),
        ("ismcts:1:2:search:policy:fast", "engine"),
    ):  # fmt: skip
        with pytest.raises(ConfigError, match=f"bad bot spec '{spec}': {says}"):
            make_bot(spec)  # a setting the bot refuses is named with the spec it came from
    assert isinstance(make_bot("ismcts:250:1.2"), ISMCTSBot)
    assert make_bot("ismcts:250:1.2").iterations == 250  # type: ignore[attr-defined]
    assert make_bot("ismcts:250:1.2").opponents is None  # type: ignore[attr-defined]
    assert make_bot("ismcts:250:1.2:Policy").opponents == "policy"  # type: ignore[attr-defined]
    assert make_bot("ismcts:250:0.7:search").opponents == "search"  # type: ignore[attr-defined]
    assert make_bot("ismcts:250:1.2").beliefs is None  # type: ignore[attr-defined]
    both = make_bot("ismcts:250:0.7:search:Uniform")
    assert (both.opponents, both.beliefs) == ("search", "uniform")  # type: ignore[attr-defined]
    defaults = make_bot("ismcts:::policy:policy")  # an empty field keeps its default
    assert (defaults.iterations, defaults.c, defaults.beliefs) == (1000, 0.7, "policy")  # type: ignore[attr-defined]
    assert make_bot("ismcts:250:0.7::policy").opponents is None  # type: ignore[attr-defined]
    assert make_bot("ismcts:250").engine == "auto"  # type: ignore[attr-defined]
    assert make_bot("ismcts:250::::Reducer").engine == "reducer"  # type: ignore[attr-defined]
    assert isinstance(make_bot(" Rule "), RuleBot) and isinstance(make_bot("random"), Bot)


def test_time_budget_bounds_the_search() -> None:
    game = next(positions("cutthroat-spades", 2, 1))
    bot = ISMCTSBot(iterations=None, time_ms=30)
    action = bot.choose(game.seat_state(game.to_act), random.Random(0))  # type: ignore[arg-type]
    assert action in game.legal_actions() and bot.last_iterations >= 1


def test_rule_bot_unknown_game() -> None:
    from cardkit.core.seat import SeatState

    game = next(positions("wizard", 1, 1))

    class Renamed:
        name = "mystery"

        def __getattr__(self, item: str) -> object:
            return getattr(game.rules, item)

    ss = SeatState.of(Renamed(), game.config, game.state, game.to_act, ())  # type: ignore[arg-type]
    with pytest.raises(UnknownGameError, match="mystery"):
        RuleBot().choose(ss, random.Random(0))


def test_pimc_specs() -> None:
    from cardkit.bots import PIMCBot

    bot = make_bot("pimc:300")
    assert isinstance(bot, PIMCBot) and bot.limit.iterations == 300
    assert make_bot("pimc").limit.iterations == 1000  # type: ignore[attr-defined]
    for spec in ("pimc:", "pimc:x", "pimc:1:2", "pimc:-5", "pimc:" + "9" * 5000, "pimc:0"):
        with pytest.raises(ConfigError, match="bad bot spec|unknown bot"):
            make_bot(spec)
    game = cardkit.new_game("crazy-eights", players=3, seed=5)
    ss = game.seat_state(game.to_act)
    assert make_bot("pimc:60").choose(ss, random.Random(1)) in ss.legal_actions
