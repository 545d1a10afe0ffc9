"""The fair arena (issue 26, item 5): duplicate deals, balanced seatings, Wilson intervals,
SPRT early stopping, results independent of the number of workers."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest

import cardkit.bots.arena as arena_module
from cardkit.bots.arena import GameOutcome, duel_score, run_arena, run_sprt, seatings, wilson
from cardkit.bots.sprt import ACCEPT_H0, ACCEPT_H1, CONTINUE, Sprt, elo_of_share
from cardkit.cli.main import main
from cardkit.errors import ConfigError

DUEL = ("rule", "random", "random")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_permutations_put_every_bot_in_every_seat_equally(players: int) -> None:
    block = seatings(players, "permutations")
    assert len(block) == len(set(block)) == [1, 1, 2, 6, 24][players]
    assert set(block) == set(itertools.permutations(range(players)))
    per_seat = Counter((bot, seat) for seating in block for seat, bot in enumerate(seating))
    assert set(per_seat.values()) == {len(block) // players} and len(per_seat) == players * players
    # and every bot sits right after every other bot equally often
    follows = Counter((s[i], s[(i + 1) % players]) for s in block for i in range(players))
    assert len(set(follows.values())) == 1 and len(follows) == players * (players - 1)


def test_rotations_are_a_latin_square() -> None:
    block = seatings(4, "rotations")
    assert len(block) == 4
    for seat in range(4):
        assert sorted(s[seat] for s in block) == [0, 1, 2, 3]
    with pytest.raises(ConfigError, match="unknown arena design"):
        seatings(3, "shuffled")


def test_a_run_covers_each_bot_in_each_seat_equally_and_deal_by_deal() -> None:
    report = run_arena("crazy-eights", 3, DUEL, 18, seed=3, design="permutations")
    assert [o.deal for o in report.outcomes] == [g // 6 for g in range(18)]
    for deal in range(3):
        games = [o for o in report.outcomes if o.deal == deal]
        assert {o.bots for o in games} == set(itertools.permutations(range(3)))
        assert len({o.seed for o in games}) == 1  # one deal seed for all six seatings
    assert len({o.seed for o in report.outcomes}) == 3  # three different deals
    counts = Counter((bot, seat) for o in report.outcomes for seat, bot in enumerate(o.bots))
    assert set(counts.values()) == {6}
    assert all(b.games == 18 for b in report.bots)


def test_the_cards_dealt_are_identical_across_the_seatings_of_a_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    # record the state each game starts from: the same deal must give the same cards
    # (hands, stock, up-card) under every seating, and different deals different cards
    dealt: list[str] = []
    real = arena_module.new_game

    def recording(*args: Any, **kwargs: Any) -> Any:
        game = real(*args, **kwargs)
        dealt.append(repr(game.state))
        return game

    monkeypatch.setattr(arena_module, "new_game", recording)
    report = run_arena("crazy-eights", 3, DUEL, 12, seed=8, design="permutations", engine="reducer")
    assert len(dealt) == 12 and "Card(" in dealt[0]
    assert len(set(dealt[:6])) == 1 and len(set(dealt[6:])) == 1 and dealt[0] != dealt[6]
    # and the games differ by seating: the seating, not the deal, changed who won
    assert len({(o.bots, o.winners) for o in report.outcomes[:6]}) > 1


def test_the_deals_are_common_across_pairings() -> None:
    # the same arena seed deals the same cards whoever plays: two pairings are compared on
    # the same deals (a ladder's rungs, a bot against rule bots and against random bots)
    one = run_arena("crazy-eights", 3, ("rule", "random", "random"), 12, seed=6, design="permutations")
    two = run_arena("crazy-eights", 3, ("random", "rule", "rule"), 12, seed=6, design="permutations")
    assert [o.seed for o in one.outcomes] == [o.seed for o in two.outcomes]
    assert [o.seed for o in one.outcomes] != [o.seed for o in run_arena(
        "crazy-eights", 3, ("rule", "random", "random"), 12, seed=7, design="permutations").outcomes]


def test_fresh_design_keeps_the_recorded_games() -> None:
    # the default of run_arena: a new deal every game, as the recorded tables were played
    report = run_arena("crazy-eights", 3, DUEL, 6, seed=4)
    assert report.design == "fresh" and len({o.seed for o in report.outcomes}) == 6
    assert [o.deal for o in report.outcomes] == list(range(6))


def test_games_must_fill_whole_deals() -> None:
    with pytest.raises(ConfigError, match="multiple of 6"):
        run_arena("crazy-eights", 3, DUEL, 9, design="permutations")
    run_arena("crazy-eights", 3, DUEL, 3, design="rotations")


def test_wilson_interval_against_published_values() -> None:
    # Wilson score intervals (95%, z = 1.959964) as tabulated by Newcombe (1998), Table I
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(15, 148) == pytest.approx((0.0624, 0.1605), abs=1e-4)
    assert wilson(0, 20) == pytest.approx((0.0, 0.1611), abs=1e-4)
    assert wilson(1, 29) == pytest.approx((0.0061, 0.1718), abs=1e-4)
    assert wilson(7, 10) == pytest.approx((0.3968, 0.8922), abs=1e-4)


def test_sprt_accepts_h1_on_a_strong_stream() -> None:
    rng = random.Random(1)
    state = Sprt().run(1.0 if rng.random() < 0.7 else 0.0 for _ in range(2000))
    assert state.decision == ACCEPT_H1 and state.llr >= Sprt().upper
    assert state.wins + state.losses < 300  # stopped early, not at the stream's end


def test_sprt_accepts_h0_on_an_even_stream() -> None:
    rng = random.Random(2)
    stream = [rng.choice((1.0, 0.0, 0.5)) for _ in range(20000)]
    state = Sprt().run(stream)
    assert state.decision == ACCEPT_H0 and state.llr <= Sprt().lower
    assert state.draws > 0  # draws were read and left out of the ratio


def test_sprt_continues_on_too_little_data() -> None:
    test = Sprt()
    assert test.run([1.0, 1.0, 1.0, 0.0, 1.0]).decision == CONTINUE
    assert test.state(0, 500, 0).decision == CONTINUE  # draws alone decide nothing
    # the bounds are Wald's: log((1 - beta) / alpha) and log(beta / (1 - alpha))
    assert test.upper == pytest.approx(2.944439) and test.lower == pytest.approx(-2.944439)
    assert elo_of_share(0.55) == pytest.approx(34.86, abs=0.01) and elo_of_share(0.5) == 0.0
    with pytest.raises(ConfigError):
        Sprt(p0=0.6, p1=0.55)


def test_duel_score_with_a_neutral_third_and_duplicated_bots() -> None:
    def game(winners: tuple[int, ...]) -> GameOutcome:
        return GameOutcome(0, 1, (2, 0, 1), True, winners, (0, 0, 0), 10)

    # seat 1 holds bot 0 (A), seat 2 bot 1 (B), seat 0 bot 2 (neutral)
    assert duel_score(game((1,)), [0], [1]) == 1.0
    assert duel_score(game((2,)), [0], [1]) == 0.0
    assert duel_score(game((0,)), [0], [1]) == 0.5  # the third won
    assert duel_score(game((1, 2)), [0], [1]) == 0.5  # shared
    # B listed twice (bots 1 and 2): a win of either B seat is a loss for A
    assert duel_score(game((0,)), [0], [1, 2]) == 0.0


def test_sprt_run_stops_early_and_is_the_same_for_any_workers() -> None:
    kwargs: dict[str, Any] = dict(seed=5, design="permutations", test=Sprt(0.5, 0.7))
    one = run_sprt("crazy-eights", 3, DUEL, 120, **kwargs)
    two = run_sprt("crazy-eights", 3, DUEL, 120, workers=2, **kwargs)
    assert one.state.decision == ACCEPT_H1 and one.stopped_early
    assert one.arena.games % 6 == 0 and one.arena.games < 120
    assert one.arena.outcomes == two.arena.outcomes and one.as_json() == two.as_json()
    # counted from the games themselves: the B side is both random seats
    scores = [duel_score(o, [0], [1, 2]) for o in one.arena.outcomes]
    counted = (scores.count(1.0), scores.count(0.5), scores.count(0.0))
    assert (one.state.wins, one.state.draws, one.state.losses) == counted
    with pytest.raises(ConfigError, match="two different bots"):
        run_sprt("crazy-eights", 3, ("rule", "rule", "random"), 6)


def test_duplicate_arena_is_the_same_for_any_workers() -> None:
    opts = {"rounds": 2}
    specs = ("rule", "random", "ismcts:8")
    one = run_arena("wizard", 3, specs, 6, seed=9, options=opts, design="permutations")
    two = run_arena("wizard", 3, specs, 6, seed=9, options=opts, design="permutations", workers=2)
    assert one.outcomes == two.outcomes and one.as_json() == two.as_json()


def test_cli_states_the_design(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["arena", "crazy-eights", "--players", "3", "--bots", "rule,random,random", "--seed", "1"]
    assert main(base) == 0
    out = capsys.readouterr().out
    assert "12 games" in out
    assert "duplicate deals: 2 deal(s), each played once per seating permutation, 6 seatings" in out
    assert main([*base, "--design", "rotations", "--games", "6"]) == 0
    assert "once per cyclic rotation of the seats (a Latin square), 3 seatings" in capsys.readouterr().out
    assert main([*base, "--design", "fresh", "--games", "3"]) == 0
    assert "a new deal every game" in capsys.readouterr().out
    assert main([*base, "--sprt", "--p1", "0.7", "--games", "120"]) == 0
    out = capsys.readouterr().out
    assert "H0 p=0.5 (+0 Elo), H1 p=0.7" in out and "alpha=0.05, beta=0.05" in out
    assert "decision: accept H1" in out and "a draw otherwise" in out
    assert main([*base, "--sprt", "--games", "6", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sprt"]["decision"] == "continue" and data["design"] == "permutations"
