"""Bot against bot: many games, seats balanced, win shares with 95% Wilson intervals.

Three seating designs (``design=``):

* ``permutations`` (duplicate deals, the fair default of ``cardkit arena``): deal ``d`` is
  played once per permutation of the seats (6 games for 3 players, 24 for 4), in the
  lexicographic order of ``itertools.permutations``; game ``g`` is deal ``g // N!`` under
  permutation ``g % N!``. Every bot sits in every seat ``(N-1)!`` times per deal and
  behind every other bot equally often.
* ``rotations`` (duplicate deals, a balanced subset): deal ``d`` is played once per cyclic
  rotation (``N`` games, a Latin square): game ``g`` is deal ``g // N`` with bot
  ``(s + g) % N`` at seat ``s``. Every bot sits in every seat once per deal, but the order
  around the table is always the listed one.
* ``fresh`` (the default of :func:`run_arena`, kept so that recorded tables replay): a new
  deal every game, game ``g`` seats bot ``(s + g) % N`` at seat ``s``.

Under both duplicate designs the deal's seed is common to all its seatings (the same cards
for every seating: luck of the deal cancels), and bot ``i``'s rng is seeded by the arena
seed, the deal and ``i`` (the same stream on every seating of a deal). Each game's seed and
rngs are derived from the arena seed and the game number only, so the results do not
depend on how many worker processes share the games, nor on where they run: both
runners take any :class:`concurrent.futures.Executor` (``executor=``, e.g. a Dask
cluster's) and send the games in chunks (:mod:`cardkit.parallel`), merged in game order.

The Wilson interval treats every game as an independent trial; the seatings of one deal are
positively correlated, so read it as approximate (it is what the issue's targets quote).

A win counts 1, shared equally among tied winners; a game that reaches the step limit
without a result is *unfinished*: it counts in every bot's games but as a win for none.
A game stopped by an end guard of its own options (``max_turns``, ``max_hands``: see
:mod:`cardkit.games.guards`) has the result its rules give a stopped game and counts like
any other, but the report counts such *guard-ended* games apart, so that a table of
mostly stopped games does not read as a table of finished ones.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import attrs

from cardkit.api import new_game
from cardkit.bots.kernel_play import bot_ids, kernel_bridge, play_on_kernel, replay_as_game, use_kernel
from cardkit.bots.spec import make_bot
from cardkit.bots.sprt import CONTINUE, Sprt, SprtState, elo_of_share
from cardkit.errors import ConfigError
from cardkit.games import get_rules
from cardkit.games.guards import ended_by_guard
from cardkit.parallel import auto_chunk_size, map_ordered
from cardkit.rng import mix64

if TYPE_CHECKING:
    from concurrent.futures import Executor

__all__ = [
    "GameOutcome", "BotSummary", "ArenaReport", "DESIGNS", "seatings", "describe_design",
    "play_one", "run_arena", "wilson", "duel_score", "SprtReport", "run_sprt",
]  # fmt: skip

DESIGNS = ("permutations", "rotations", "fresh")
"""The seating designs (see the module docs): two duplicate-deal designs, then ``fresh``."""


def seatings(players: int, design: str) -> tuple[tuple[int, ...], ...]:
    """The seatings one deal is played under: ``seating[s]`` is the bot index at seat ``s``
    (``fresh``: the rotations, one per game, each with its own deal)."""
    if design == "permutations":
        return tuple(itertools.permutations(range(players)))
    if design in ("rotations", "fresh"):
        return tuple(tuple((s + k) % players for s in range(players)) for k in range(players))
    raise ConfigError(f"unknown arena design {design!r}: one of {', '.join(DESIGNS)}")


def describe_design(players: int, design: str, games: int) -> str:
    """One sentence stating the seating design of a run of ``games`` games."""
    block = len(seatings(players, design))
    deals = games // block
    if design == "fresh":
        return f"seats rotated: a new deal every game, game g seats bot (s + g) % {players} at seat s"
    what = "seating permutation" if design == "permutations" else "cyclic rotation of the seats (a Latin square)"
    per_seat = block // players
    return (
        f"duplicate deals: {deals} deal(s), each played once per {what}, {block} seatings; every bot "
        f"in every seat {per_seat}x per deal; the same deal seed and bot rngs on every seating"
    )


@attrs.frozen
class GameOutcome:
    """One arena game: ``bots[s]`` is the index (in the bot list) of the bot at seat ``s``;
    ``deal`` the deal it was played on (its ``seed`` is that deal's); ``finished`` is False
    when the step limit stopped it (no result); ``guard_ended`` is True
    when it has a result because an end guard of the game stopped it (see the module docs)."""

    number: int
    seed: int
    bots: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    actions: int
    guard_ended: bool = False
    deal: int = 0


@attrs.frozen
class BotSummary:
    """One bot of the list: games, win share and its 95% Wilson interval, mean score."""

    index: int
    spec: str
    games: int
    wins: float
    share: float
    low: float
    high: float
    mean_score: float


@attrs.frozen
class ArenaReport:
    """The whole run: settings, per-bot summaries, unfinished and guard-ended games."""

    game: str
    players: int
    options: Mapping[str, Any]
    seed: int
    games: int
    unfinished: int
    bots: tuple[BotSummary, ...]
    outcomes: tuple[GameOutcome, ...] = attrs.field(repr=False)
    guard_ended: int = 0
    design: str = "fresh"

    @property
    def design_text(self) -> str:
        """The seating design, in one sentence (the table's second line)."""
        return describe_design(self.players, self.design, self.games)

    def as_json(self) -> dict[str, Any]:
        """JSON-compatible form (``--json``)."""
        return {
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "games": self.games,
            "design": self.design,
            "seatings": len(seatings(self.players, self.design)),
            "design_text": self.design_text,
            "unfinished": self.unfinished,
            "guard_ended": self.guard_ended,
            "bots": [attrs.asdict(b) for b in self.bots],
        }

    def table(self) -> str:
        """A plain-text table, one line per bot."""
        lines = [
            f"{self.game}, {self.players} players, {self.games} games, seed {self.seed}, "
            f"options {dict(self.options)}",
            self.design_text,
            f"{'bot':<16} {'games':>5} {'wins':>7} {'share':>6}  {'95% interval':<15} {'mean score':>10}",
        ]
        for b in self.bots:
            lines.append(
                f"{b.spec:<16} {b.games:>5} {b.wins:>7.1f} {b.share:>6.3f}  "
                f"[{b.low:.3f}, {b.high:.3f}]  {b.mean_score:>10.2f}"
            )
        lines.append(f"unfinished games: {self.unfinished}")
        guard = f"guard-ended games: {self.guard_ended}"
        if self.guard_ended:
            guard += " (stopped by an end guard of the game's options and scored as its rules score a stopped game; counted in the shares)"
        lines.append(guard)
        return "\n".join(lines)


def wilson(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); ``(0, 1)`` when n = 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


def _game_seed(seed: int, number: int) -> int:
    return mix64((seed * 0x9E3779B97F4A7C15 + number) & 0xFFFFFFFFFFFFFFFF)


def play_one(
    game_name: str,
    players: int,
    options: Mapping[str, Any],
    specs: Sequence[str],
    seed: int,
    number: int,
    max_actions: int = 5000,
    engine: str = "reducer",
    design: str = "fresh",
) -> GameOutcome:
    """Play arena game ``number`` (seating and seeds as in the module docs).

    ``engine="kernel"`` plays it on the game's kernel (every bot must have ``choose_id``:
    see :mod:`cardkit.bots.kernel_play`), which gives the same game as the reference."""
    n = players
    block = seatings(n, design)
    if design == "fresh":
        deal, seating = number, block[number % n]
        rngs = [random.Random(f"cardkit-arena:{seed}:{number}:{s}") for s in range(n)]
    else:
        deal, seating = divmod(number, len(block))[0], block[number % len(block)]
        # bot i draws the same stream on every seating of the deal (common random numbers)
        rngs = [random.Random(f"cardkit-arena-{design}:{seed}:{deal}:{i}") for i in seating]
    bots = [make_bot(specs[i]) for i in seating]
    game_seed = _game_seed(seed, deal)
    if engine == "kernel":
        outcome = _on_kernel(game_name, n, options, bots, rngs, game_seed, number, seating, max_actions, deal)
        if outcome is not None:
            return outcome
    game = new_game(game_name, players=n, seed=game_seed, **dict(options))
    actions = 0
    while not game.is_over and actions < max_actions:
        seat = game.to_act
        assert seat is not None and seat >= 0
        action = bots[seat].choose(game.seat_state(seat), rngs[seat])
        game = game.play(action, seat)
        actions += 1
    result = game.result
    if result is None:
        return GameOutcome(number, game_seed, seating, False, (), tuple(game.scores), actions, False, deal)
    guard = ended_by_guard(game)
    return GameOutcome(number, game_seed, seating, True, result.winners, result.scores, actions, guard, deal)


def _on_kernel(
    game_name: str,
    players: int,
    options: Mapping[str, Any],
    bots: Sequence[Any],
    rngs: Sequence[random.Random],
    game_seed: int,
    number: int,
    seating: tuple[int, ...],
    max_actions: int,
    deal: int,
) -> GameOutcome | None:
    rules = get_rules(game_name)
    config = rules.config(players, **dict(options))
    bridge = kernel_bridge(rules, config)
    if bridge is None:
        return None
    played = play_on_kernel(bridge, rules, config, game_seed, bot_ids(bots, rngs, bridge), max_actions)
    if played is None:
        return None
    if not played.over:
        return GameOutcome(number, game_seed, seating, False, (), played.scores, played.seat_actions, False, deal)
    guard = played.guard_ended
    if guard is None:  # the kernel cannot tell: ask the reference game
        guard = ended_by_guard(replay_as_game(bridge, rules, config, game_seed, played))
    return GameOutcome(
        number, game_seed, seating, True, played.winners, played.scores, played.seat_actions, guard, deal
    )


def _job(args: tuple[str, int, dict[str, Any], tuple[str, ...], int, int, int, str, str]) -> GameOutcome:
    return play_one(*args)


def _prepare(
    game_name: str, players: int, specs: Sequence[str], games: int, workers: int,
    options: Mapping[str, Any], engine: str, design: str,
) -> tuple[dict[str, Any], tuple[str, ...], str]:  # fmt: skip
    # every check in this process, before any worker starts
    options = dict(options)
    rules = get_rules(game_name)
    config = rules.config(players, **options)  # ConfigError early, in this process
    specs = tuple(specs)
    if len(specs) != players:
        raise ConfigError(
            f"{len(specs)} bot(s) for {players} seats: list one bot per seat, e.g. "
            f"--bots {','.join(['rule'] * players)}"
        )
    for spec in specs:
        make_bot(spec)
    block = len(seatings(players, design))
    if games < 1 or games % block:
        raise ConfigError(
            f"--games must be a positive multiple of {block} (design {design}: every bot in every "
            f"seat equally, {block} seating(s) per deal)"
        )
    if workers < 1:
        raise ConfigError(f"--workers must be at least 1, not {workers}")
    resolved = "kernel" if use_kernel(engine, rules, config, [make_bot(s) for s in specs]) else "reducer"
    return options, specs, resolved


def run_arena(
    game_name: str,
    players: int,
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int = 1,
    options: Mapping[str, Any] | None = None,
    max_actions: int = 5000,
    engine: str = "auto",
    design: str = "fresh",
    executor: Executor | None = None,
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> ArenaReport:
    """Play ``games`` games and summarize them (see the module docs).

    ``specs`` lists one bot per seat (``len(specs) == players``); ``games`` must be a
    multiple of the design's seatings per deal (``players`` for ``fresh`` and
    ``rotations``, ``players!`` for ``permutations``) so that every bot sits in every seat
    equally often. ``engine`` is ``auto`` (the game's kernel when it has one and every bot
    can play on it: random and rule bots; the same games, faster), ``kernel`` (required: a
    :class:`ConfigError` if it cannot be used) or ``reducer`` (the reference reducer).

    The games run on ``workers`` local processes (this one included) or on ``executor``
    (any :class:`concurrent.futures.Executor`; ``workers`` then says how many chunks it runs
    at once), in chunks of ``chunk_size`` games (default
    :func:`cardkit.parallel.auto_chunk_size`); ``progress(n)`` is called as each chunk of
    ``n`` games finishes. None of these change the report.
    """
    opts, specs, resolved = _prepare(game_name, players, specs, games, workers, options or {}, engine, design)
    jobs = [(game_name, players, opts, specs, seed, g, max_actions, resolved, design) for g in range(games)]
    # in game order, whatever workers is (and never more processes than games)
    ordered = tuple(
        map_ordered(_job, jobs, min(workers, len(jobs)), executor=executor, chunk_size=chunk_size, progress=progress)
    )
    return summarize(game_name, players, opts, seed, specs, ordered, design)


def duel_score(outcome: GameOutcome, a: Sequence[int], b: Sequence[int]) -> float:
    """A's result against B in one game: 1 (a seat of A's among the winners and none of
    B's), 0 (the reverse) or 0.5 (a draw: both, neither, or no result). ``a`` and ``b``
    are the bot indices of each side (a bot listed twice plays on both of its seats)."""
    won = {outcome.bots[seat] for seat in outcome.winners}
    a_won = any(i in won for i in a)
    b_won = any(i in won for i in b)
    return 1.0 if a_won and not b_won else 0.0 if b_won and not a_won else 0.5


@attrs.frozen
class SprtReport:
    """An SPRT run: the games played (``arena``), A's and B's specs, the test's state after
    the last deal, and whether it stopped before ``max_games``."""

    arena: ArenaReport
    a: str
    b: str
    state: SprtState
    deals: int
    stopped_early: bool

    def as_json(self) -> dict[str, Any]:
        """JSON-compatible form (``--json``): the arena's report plus ``sprt``."""
        t = self.state.test
        data = self.arena.as_json()
        data["sprt"] = {
            "a": self.a, "b": self.b, "p0": t.p0, "p1": t.p1, "alpha": t.alpha, "beta": t.beta,
            "elo0": elo_of_share(t.p0), "elo1": elo_of_share(t.p1),
            "lower": t.lower, "upper": t.upper, "llr": self.state.llr,
            "wins": self.state.wins, "draws": self.state.draws, "losses": self.state.losses,
            "decision": self.state.decision, "deals": self.deals, "stopped_early": self.stopped_early,
        }  # fmt: skip
        return data

    def table(self) -> str:
        """The arena's table, then the test and its decision."""
        s = self.state
        decisive = s.wins + s.losses
        low, high = wilson(s.wins, decisive)
        share = s.wins / decisive if decisive else 0.0
        return "\n".join([
            self.arena.table(),
            f"A = {self.a}, B = {self.b}: a game is a win for A when a seat of A's is among the winners "
            "and none of B's, a loss for the reverse, a draw otherwise (draws left out of the test)",
            s.test.describe() + f"; checked after every {len(seatings(self.arena.players, self.arena.design))} "
            "games (a whole set of seatings)",
            f"A: {s.wins} wins, {s.draws} draws, {s.losses} losses; share of the two {share:.3f} "
            f"[{low:.3f}, {high:.3f}]; LLR {s.llr:.3f}",
            f"decision: {s.decision}" + ("" if self.stopped_early or s.decision != CONTINUE
                                         else f" (max games reached after {self.deals} deals: inconclusive)"),
        ])  # fmt: skip


def run_sprt(
    game_name: str,
    players: int,
    specs: Sequence[str],
    max_games: int,
    seed: int = 0,
    workers: int = 1,
    options: Mapping[str, Any] | None = None,
    max_actions: int = 5000,
    engine: str = "auto",
    design: str = "permutations",
    test: Sprt | None = None,
    a: int = 0,
    b: int = 1,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> SprtReport:
    """Is ``specs[a]`` stronger than ``specs[b]``? Play duplicate deals (games in the order
    of :func:`run_arena`) and stop after the first complete deal at which the test of
    :mod:`cardkit.bots.sprt` decides, or at ``max_games``. Every seat listing A's spec plays
    for A, every seat listing B's for B; other seats are neutral (e.g. a RuleBot third).

    The decision is read deal by deal in deal order and the games after the deciding deal
    are dropped, so the report is the same for any ``workers``, ``executor`` or
    ``chunk_size`` (as in :func:`run_arena`). The automatic chunk size is at most one set
    of seatings per worker per chunk here, so that little is played past the decision."""
    test = test or Sprt()
    specs = tuple(specs)
    if not (0 <= a < len(specs) and 0 <= b < len(specs)) or specs[a] == specs[b]:
        raise ConfigError("the SPRT compares two different bots of --bots (A first, B second)")
    opts, specs, resolved = _prepare(game_name, players, specs, max_games, workers, options or {}, engine, design)
    side_a = [i for i, spec in enumerate(specs) if spec == specs[a]]
    side_b = [i for i, spec in enumerate(specs) if spec == specs[b]]
    block = len(seatings(players, design))
    jobs = [(game_name, players, opts, specs, seed, g, max_actions, resolved, design) for g in range(max_games)]
    outcomes: list[GameOutcome] = []
    counts = [0, 0, 0]  # losses, draws, wins
    state = test.state(0, 0, 0)
    if chunk_size is None:
        # games past the deciding deal are wasted: keep the chunks small
        chunk_size = min(auto_chunk_size(len(jobs), workers), block)
    results = map_ordered(
        _job, jobs, min(workers, len(jobs)), executor=executor, chunk_size=chunk_size, progress=progress
    )
    try:
        for outcome in results:
            outcomes.append(outcome)
            counts[int(2 * duel_score(outcome, side_a, side_b))] += 1
            if len(outcomes) % block == 0:
                state = test.state(counts[2], counts[1], counts[0])
                if state.decision != CONTINUE:
                    break
    finally:
        # a generator: closing it stops the workers still playing games past the decision
        close = getattr(results, "close", None)
        if close is not None:
            close()
    report = summarize(game_name, players, opts, seed, specs, outcomes, design)
    stopped = len(outcomes) < max_games
    return SprtReport(report, specs[a], specs[b], state, len(outcomes) // block, stopped)


def summarize(
    game_name: str,
    players: int,
    options: Mapping[str, Any],
    seed: int,
    specs: Sequence[str],
    outcomes: Sequence[GameOutcome],
    design: str = "fresh",
) -> ArenaReport:
    """Per-bot summaries of ``outcomes``."""
    k = len(specs)
    wins = [0.0] * k
    played = [0] * k
    points = [0] * k
    for o in outcomes:
        for seat, bot in enumerate(o.bots):
            played[bot] += 1
            points[bot] += o.scores[seat]
        if o.winners:
            share = 1.0 / len(o.winners)
            for seat in o.winners:
                wins[o.bots[seat]] += share
    summaries = []
    for i, spec in enumerate(specs):
        low, high = wilson(wins[i], played[i])
        summaries.append(
            BotSummary(
                i, spec, played[i], wins[i], wins[i] / played[i] if played[i] else 0.0,
                low, high, points[i] / played[i] if played[i] else 0.0,
            )  # fmt: skip
        )
    return ArenaReport(
        game_name, players, dict(options), seed, len(outcomes),
        sum(1 for o in outcomes if not o.finished), tuple(summaries), tuple(outcomes),
        sum(1 for o in outcomes if o.finished and o.guard_ended), design,
    )  # fmt: skip
