"""``cardkit simulate``: many games, random or between bots, on one or several processes.

Game ``i`` (from 0) is dealt with seed ``--seed + i``; its random choices (random play, or
each bot's ``random.Random``) come from streams derived from ``--seed`` and ``i`` alone,
so the printed results never depend on ``--workers``.

A game ends in one of three ways, counted apart: *finished* by its rules; *guard-ended*,
stopped by an end guard among its own options (Spacc 'u Mazz's ``max_turns``, Cutthroat
Spades' ``max_hands`` …: :mod:`cardkit.games.guards`), which still gives it the result its
rules give a stopped game; or *unfinished*, stopped by ``--max-actions`` with no result.
Wins and mean scores are over the games with a result (finished and guard-ended), and the
wins of guard-ended games are also counted on their own.

``--engine auto`` (the default) plays whole games on the game's kernel when it has one and
every seat is random or rule (:mod:`cardkit.bots.kernel_play`): the same games, so the
same report, at a fraction of the cost; logs are then made, only when asked for, by
replaying the games' actions through the reference ``Game``.

Games travel to workers in chunks (:mod:`cardkit.parallel`): ``--workers N`` shares them
between this process and ``N - 1`` spawned ones, ``--cluster`` sends them to a Dask
cluster (:mod:`cardkit.cluster`), and :func:`play_games` takes any
:class:`concurrent.futures.Executor`; the report is the same whichever runs them.

With ``--store``, game ``i`` is stored as match ``GAME-seedSEED-gameI``; a run that finds
some of its matches already stored (an earlier run of the same command, interrupted)
counts them from the store instead of playing them again, so a run can be resumed and
its report is that of an uninterrupted run (docs/scale.md).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Generator, Iterator, Mapping, NamedTuple, Sequence, TextIO

from cardkit.errors import ConfigError

if TYPE_CHECKING:
    from concurrent.futures import Executor

__all__ = [
    "add_parser", "run", "play_game", "play_games", "match_id", "stored_outcomes", "GameOutcome", "Tally",
    "DEFAULT_MAX_ACTIONS", "INTERRUPTED",
]  # fmt: skip

DEFAULT_MAX_ACTIONS = 10_000
"""Seat actions after which ``simulate`` stops a game and counts it as unfinished.

Every built-in game with its default options ends well within it under random play
(the longest seen: a 3-player Crazy Eights points match with reshuffles, about 3,400);
a Cutthroat Spades tournament without ``max_hands`` or ``mercy`` may never end."""

INTERRUPTED = 130
"""The exit code after Ctrl-C (128 + SIGINT), as shells use."""

_MAX_SEED = 2**64 - 1


class GameOutcome(NamedTuple):
    """One simulated game: ``finished`` is False when ``--max-actions`` stopped it (no
    result); ``guard_ended`` is True when it has a result because an end guard of the game
    stopped it (see the module docs); ``log`` is its JSON when logs were asked for
    (``--save-logs`` / ``--store``)."""

    number: int
    seed: int
    finished: bool
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    seat_actions: int
    log: str | None = None
    guard_ended: bool = False


class _Job(NamedTuple):
    game: str
    players: int
    options: tuple[tuple[str, Any], ...]
    bots: tuple[str, ...] | None
    seed: int
    number: int
    max_actions: int
    keep_log: bool
    engine: str = "reducer"


def play_game(job: _Job) -> GameOutcome:
    """Play one game of a simulation (module level so that worker processes can run it).

    With ``engine="kernel"`` (what ``--engine auto`` resolves to when the game has a kernel
    and every bot can play there) the game is played on the game's kernel
    (:mod:`cardkit.bots.kernel_play`): the same game and the same outcome as on the
    reference reducer, at a fraction of its cost; its log, when kept, comes from replaying
    its actions through the reference ``Game``."""
    if job.engine == "kernel":
        outcome = _play_on_kernel(job)
        if outcome is not None:
            return outcome
    from cardkit.api import new_game
    from cardkit.rng import Rng

    seed = job.seed + job.number
    game = new_game(job.game, players=job.players, seed=seed, **dict(job.options))
    if job.bots is None:
        from cardkit.testing.invariants import random_playout

        game = random_playout(game, Rng.stream(job.seed, 1 << 32 | job.number), job.max_actions)
    else:
        import random

        from cardkit.bots import make_bot

        bots = [make_bot(spec) for spec in job.bots]
        rngs = [random.Random(f"cardkit-simulate:{job.seed}:{job.number}:{s}") for s in range(job.players)]
        actions = 0
        while not game.is_over and actions < job.max_actions:
            seat = game.to_act
            assert seat is not None and seat >= 0  # Game plays chance itself
            game = game.play(bots[seat].choose(game.seat_state(seat), rngs[seat]), seat)
            actions += 1
    log = None
    if job.keep_log:
        from cardkit.serde import dumps

        log = dumps(game.log)
    result = game.result
    if result is None:
        return GameOutcome(job.number, seed, False, (), tuple(game.scores), game.seat_actions, log)
    from cardkit.games.guards import ended_by_guard

    guard = ended_by_guard(game)
    return GameOutcome(job.number, seed, True, result.winners, result.scores, game.seat_actions, log, guard)


def _play_on_kernel(job: _Job) -> GameOutcome | None:
    """The game on its kernel, or ``None`` when it cannot be played there."""
    import random

    from cardkit.bots import make_bot
    from cardkit.bots.kernel_play import bot_ids, kernel_bridge, kernel_ready, play_on_kernel, random_ids, replay_as_game
    from cardkit.games import get_rules
    from cardkit.rng import Rng

    rules = get_rules(job.game)
    config = rules.config(job.players, **dict(job.options))
    bridge = kernel_bridge(rules, config)
    bots = None if job.bots is None else [make_bot(spec) for spec in job.bots]
    if bridge is None or not kernel_ready(bots):
        return None
    seed = job.seed + job.number
    # the same rngs, with the same calls, as the reference loops of play_game
    if bots is None:
        choose = random_ids(Rng.stream(job.seed, 1 << 32 | job.number))
    else:
        rngs = [random.Random(f"cardkit-simulate:{job.seed}:{job.number}:{s}") for s in range(job.players)]
        choose = bot_ids(bots, rngs, bridge)
    played = play_on_kernel(bridge, rules, config, seed, choose, job.max_actions)
    if played is None:
        return None
    log = None
    guard = played.guard_ended
    if job.keep_log or (played.over and guard is None):
        game = replay_as_game(bridge, rules, config, seed, played)
        if job.keep_log:
            from cardkit.serde import dumps

            log = dumps(game.log)
        if played.over and guard is None:
            from cardkit.games.guards import ended_by_guard

            guard = ended_by_guard(game)
    if not played.over:
        return GameOutcome(job.number, seed, False, (), played.scores, played.seat_actions, log)
    return GameOutcome(job.number, seed, True, played.winners, played.scores, played.seat_actions, log, bool(guard))


def resolve_engine(
    game: str, players: int, options: Mapping[str, Any], bots: Sequence[str] | None, engine: str
) -> str:
    """``kernel`` or ``reducer``: where games are played under ``engine`` (``auto``,
    ``kernel`` or ``reducer``: see ``--engine``)."""
    if engine == "reducer":  # nothing to import or check
        return "reducer"
    from cardkit.bots import make_bot
    from cardkit.bots.kernel_play import use_kernel
    from cardkit.games import get_rules

    rules = get_rules(game)
    config = rules.config(players, **dict(options))
    made = None if bots is None else [make_bot(spec) for spec in bots]
    return "kernel" if use_kernel(engine, rules, config, made) else "reducer"


def play_games(
    game: str,
    players: int,
    games: int,
    *,
    seed: int = 0,
    bots: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    engine: str = "auto",
    keep_logs: bool = False,
    workers: int = 1,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    known: Mapping[int, GameOutcome] | None = None,
) -> Generator[GameOutcome, None, None]:
    """The outcomes of games ``0 .. games - 1`` of a simulation, in game order: what
    ``cardkit simulate`` counts, as a library call.

    Game ``i`` is dealt with seed ``seed + i`` (see the module docs); ``bots`` is one bot
    spec per seat (``None``: uniformly random play). The games run on ``workers`` local
    processes, or on ``executor`` (any :class:`concurrent.futures.Executor`; ``workers``
    then says how many chunks it runs at once), in chunks of ``chunk_size`` games (default:
    :func:`cardkit.parallel.auto_chunk_size`); ``progress(n)`` is called as each chunk of
    ``n`` games finishes. The outcomes never depend on where the games ran.

    ``known`` maps game numbers to outcomes already known (:func:`stored_outcomes`): those
    games are not played, their outcomes are yielded in their place (with no log).
    """
    from cardkit.parallel import map_ordered

    opts = tuple(dict(options or {}).items())
    specs = None if bots is None else tuple(bots)
    resolved = resolve_engine(game, players, dict(opts), specs, engine)
    known = known or {}
    jobs = [
        _Job(game, players, opts, specs, seed, i, max_actions, keep_logs, resolved)
        for i in range(games)
        if i not in known
    ]
    # never more processes than games (the results do not depend on the number)
    played = map_ordered(
        play_game, jobs, max(1, min(workers, len(jobs))), executor=executor, chunk_size=chunk_size, progress=progress
    )
    try:
        for i in range(games):
            outcome = known.get(i)
            yield next(played) if outcome is None else outcome
    finally:
        close = getattr(played, "close", None)
        if close is not None:
            close()


def match_id(game: str, seed: int, number: int) -> str:
    """The store's match id of game ``number`` of a simulation seeded ``seed``."""
    return f"{game}-seed{seed}-game{number}"


def stored_outcomes(
    store: Any, game: str, players: int, games: int, seed: int, options: Mapping[str, Any], max_actions: int
) -> dict[int, GameOutcome]:
    """The outcomes of the games of this simulation that ``store`` already holds, by number.

    Each is read from its stored game, which is the game this run would play again: the
    same seed, players and options are checked (a :class:`ConfigError` names the first
    match that differs). The store does not record the bots, so a resumed run must repeat
    the first run's ``--bots`` (and ``--max-actions``, which is checked where it shows).
    """
    from cardkit.games import get_rules
    from cardkit.games.guards import ended_by_guard

    config = get_rules(game).config(players, **dict(options))
    ids = {info.match_id for info in store.matches(game=game)}
    found: dict[int, GameOutcome] = {}
    for number in range(games):
        mid = match_id(game, seed, number)
        if mid not in ids:
            continue
        stored = store.load(mid)
        unfinished = stored.result is None
        if (
            stored.seed != seed + number
            or stored.players != players
            or stored.config != config
            or stored.seat_actions > max_actions
            or (unfinished and stored.seat_actions != max_actions)
        ):
            raise ConfigError(
                f"the store already holds {mid}, but not as this run would play it (another seed, "
                f"players, options or --max-actions): resume with the first run's arguments, or "
                f"use another store"
            )
        result = stored.result
        if result is None:
            found[number] = GameOutcome(number, stored.seed, False, (), tuple(stored.scores), stored.seat_actions)
        else:
            found[number] = GameOutcome(
                number, stored.seed, True, result.winners, result.scores, stored.seat_actions, None,
                ended_by_guard(stored),
            )  # fmt: skip
    return found


class Tally:
    """What ``simulate`` has counted so far (printed at the end or on Ctrl-C)."""

    # plain classes in this module, not attrs: `cardkit games` and `--help` import it and
    # should not pay for importing attrs
    def __init__(self, players: int) -> None:
        self.players = players
        self.played = 0
        self.finished = 0  # ended by their rules
        self.guard_ended = 0  # ended by an end guard of the game, with a result
        self.no_winner = 0
        self.unfinished = 0  # stopped by --max-actions, no result
        self.actions = 0
        self.wins = [0] * players
        self.guard_wins = [0] * players  # the part of wins won in guard-ended games
        self.totals = [0] * players

    @property
    def with_result(self) -> int:
        """The games that have a result (finished or guard-ended): what wins and means are over."""
        return self.finished + self.guard_ended

    def add(self, outcome: GameOutcome) -> None:
        """Count one game."""
        self.played += 1
        self.actions += outcome.seat_actions
        if not outcome.finished:
            self.unfinished += 1
            return
        if outcome.guard_ended:
            self.guard_ended += 1
        else:
            self.finished += 1
        for seat in outcome.winners:
            self.wins[seat] += 1
            if outcome.guard_ended:
                self.guard_wins[seat] += 1
        if not outcome.winners:
            self.no_winner += 1
        for seat, score in enumerate(outcome.scores):
            self.totals[seat] += score

    def as_json(self) -> dict[str, Any]:
        """The counts as JSON-ready values (``mean_scores`` null without a game with a result)."""
        means = [t / self.with_result for t in self.totals] if self.with_result else None
        return {
            "played": self.played,
            "finished": self.finished,
            "guard_ended": self.guard_ended,
            "no_winner": self.no_winner,
            "unfinished": self.unfinished,
            "wins": list(self.wins),
            "guard_wins": list(self.guard_wins),
            "mean_scores": means,
            "seat_actions": self.actions,
        }


def add_parser(sub: Any, parse_option: Any, count: Any) -> None:
    """Register the ``simulate`` subcommand on the ``cardkit`` subparsers."""
    sim = sub.add_parser(
        "simulate",
        help="play many games (random or between bots) and print statistics",
        description=(
            "Play GAMES games (game i uses seed SEED+i) of uniformly random legal actions, or "
            "between the bots of --bots, and print each seat's wins and mean score over the "
            "games with a result. A game stopped by an end guard of its own options (such as "
            "max_turns or max_hands) is counted as guard-ended, apart from the games its rules "
            "finished. A game still running after --max-actions seat actions is stopped "
            "and counted as unfinished. Results never depend on --workers. Ctrl-C prints the "
            "results so far and exits with 130."
        ),
    )
    sim.add_argument("game")
    sim.add_argument("--players", type=count(1, "players"), required=True)
    sim.add_argument("--games", type=count(1, "games"), default=100, help="games to play (default 100)")
    sim.add_argument("--seed", type=count(0, "seed"), default=0, help="seed of the first game (default 0)")
    sim.add_argument(
        "--max-actions",
        type=count(1, "max-actions"),
        default=DEFAULT_MAX_ACTIONS,
        help=(
            f"stop a game after this many seat actions and count it as unfinished "
            f"(default {DEFAULT_MAX_ACTIONS})"
        ),
    )
    sim.add_argument(
        "--bots", default=None,
        help="a bot per seat, comma-separated (random, rule, ismcts, ismcts:ITERATIONS), or one "
             "bot for every seat (default: uniformly random legal actions)",
    )  # fmt: skip
    sim.add_argument("--workers", type=count(1, "workers"), default=1,
                     help="processes to play on, this one included (default 1; results do not depend on it)")  # fmt: skip
    add_scale_arguments(sim)
    sim.add_argument(
        "--engine", choices=("auto", "kernel", "reducer"), default="auto",
        help="auto (default): play whole games on the game's compiled kernel when it has one "
             "and every bot is random, rule or level:1, else on the reference reducer; kernel: "
             "require the kernel; reducer: always the reference reducer. Both give the same games",
    )  # fmt: skip
    sim.add_argument("--json", action="store_true", help="print the results as one JSON object")
    sim.add_argument("--save-logs", metavar="DIR", default=None,
                     help="write each game's log to DIR/game-NNNNNN.json")  # fmt: skip
    sim.add_argument("--store", metavar="URL", default=None,
                     help="store each game's log through cardkit.store (e.g. sqlite:///games.db)")  # fmt: skip
    sim.add_argument(
        "--option", "-o", action="append", type=parse_option, metavar="KEY=VALUE",
        help="a game option; the value is JSON (3, true, [\"JC\"]), True/False/None, or text",
    )  # fmt: skip
    sim.set_defaults(func=run)


def add_scale_arguments(parser: Any) -> None:
    """``--cluster`` and ``--chunk-size`` (``simulate`` and ``arena``; docs/scale.md)."""
    parser.add_argument(
        "--cluster", metavar="SPEC", default=None,
        help="play on a Dask cluster instead of local processes: dask://HOST:PORT (a running "
             "scheduler) or local:N (N worker processes started for the run); needs the dask "
             "extra. Results do not depend on it",
    )  # fmt: skip
    parser.add_argument(
        "--chunk-size", type=_positive_int, default=None, metavar="GAMES",
        help="games per chunk sent to a worker (default: about 16 chunks per worker, at most "
             "256 games each). Results do not depend on it",
    )  # fmt: skip


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _bots(text: str | None, players: int) -> tuple[str, ...] | None:
    if text is None:
        return None
    from cardkit.bots import make_bot

    specs = [s.strip() for s in text.split(",") if s.strip()]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ConfigError(
            f"--bots lists {len(specs)} bots for {players} seats: list one per seat, or one for all"
        )
    for spec in specs:
        make_bot(spec)  # a bad spec is refused before any game starts
    return tuple(specs)


class _Progress:
    """Progress on standard error: a tqdm bar on a terminal (extra ``cli``), else a line
    every tenth of the run (nothing for runs of fewer than 20 games)."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.done = 0
        self.bar: Any = None
        if stream.isatty():
            try:
                tqdm = importlib.import_module("tqdm")
            except ImportError:
                tqdm = None
            if tqdm is not None:
                self.bar = tqdm.tqdm(total=total, unit="game", file=stream, leave=False)
        self.step = max(1, total // 10) if total >= 20 else 0

    def update(self, games: int = 1) -> None:
        """``games`` more games done (a chunk's worth, as it finishes)."""
        before = self.done
        self.done += games
        if self.bar is not None:
            self.bar.update(games)
        elif self.step and (self.done // self.step > before // self.step or self.done == self.total):
            print(f"simulate: {self.done}/{self.total} games", file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _print_tally(tally: Tally, args: argparse.Namespace, elapsed: float, out: TextIO) -> None:
    counted = tally.with_result
    print("seat  wins  mean score", file=out)
    for seat in range(tally.players):
        mean = f"{tally.totals[seat] / counted:>10.2f}" if counted else f"{'n/a':>10}"
        print(f"{seat:>4}  {tally.wins[seat]:>4}  {mean}", file=out)
    if tally.guard_ended:
        print(
            f"means are over the {counted} game(s) with a result: {tally.finished} finished "
            f"by their rules, {tally.guard_ended} ended by a guard",
            file=out,
        )
    else:
        print(f"means are over the {tally.finished} finished game(s)", file=out)
    why = " (games with a result that ended without a winner, e.g. a hand blocked with a tie)"
    print(f"no winner: {tally.no_winner}{why if tally.no_winner else ''}", file=out)
    line = f"guard-ended: {tally.guard_ended}"
    if tally.guard_ended:
        line += (
            " (stopped by an end guard of the game's options, such as max_turns or max_hands, "
            "and scored as its rules score a stopped game; in wins and means, of which wins "
            f"{tally.guard_wins}: raise the guard to see more games finish)"
        )
    print(line, file=out)
    line = f"unfinished: {tally.unfinished}"
    if tally.unfinished:
        line += (
            f" (stopped after --max-actions {args.max_actions} seat actions; not in wins or"
            " means: raise --max-actions, or use an option that bounds the game)"
        )
    print(line, file=out)
    if elapsed > 0:
        print(
            f"{tally.played / elapsed:.1f} games/s, {tally.actions / elapsed:.0f} player actions/s",
            file=out,
        )


def _print_json(tally: Tally, args: argparse.Namespace, options: dict[str, Any], out: TextIO,
                interrupted: bool, engine: str) -> None:  # fmt: skip
    report = {
        "engine": engine,
        "game": args.game,
        "players": args.players,
        "games": args.games,
        "seed": args.seed,
        "options": options,
        "bots": list(_bots(args.bots, args.players) or ()) or None,
        "max_actions": args.max_actions,
        "interrupted": interrupted,
        **tally.as_json(),
    }
    print(json.dumps(report, indent=2, sort_keys=True), file=out)


def _engine(args: argparse.Namespace, options: dict[str, Any], bots: tuple[str, ...] | None) -> str:
    """``kernel`` or ``reducer``: where the games are played (see ``--engine``)."""
    return resolve_engine(args.game, args.players, options, bots, args.engine)


def _sinks(args: argparse.Namespace) -> tuple[Path | None, Any]:
    directory = None
    if args.save_logs is not None:
        directory = Path(args.save_logs)
        directory.mkdir(parents=True, exist_ok=True)
    store = None
    if args.store is not None:
        from cardkit.cli.store_cmd import open_store  # a bad URL is a ConfigError, not a crash

        store = open_store(args.store)
    return directory, store


def run(args: argparse.Namespace) -> int:
    """Run the simulation described by ``args`` and print the results."""
    from cardkit.api import new_game
    from cardkit.cluster import cluster_executor
    from cardkit.games import get_rules

    options = dict(args.option or [])
    get_rules(args.game)
    if args.seed + args.games - 1 > _MAX_SEED:
        raise ConfigError(
            f"game i is dealt with seed --seed + i, and seeds stop at 2**64 - 1: with "
            f"--games {args.games}, --seed must be at most {_MAX_SEED - args.games + 1}"
        )
    cluster = getattr(args, "cluster", None)
    if cluster is not None:
        from cardkit.cluster import parse_cluster

        parse_cluster(cluster)  # a bad spec is refused before any work
        if args.workers != 1:
            raise ConfigError("--workers and --cluster exclude each other (the cluster's workers play)")
    new_game(args.game, players=args.players, seed=args.seed, **options)  # options checked first
    bots = _bots(args.bots, args.players)
    engine = _engine(args, options, bots)
    directory, store = _sinks(args)
    out = sys.stdout
    known: dict[int, GameOutcome] = {}
    try:
        if store is not None:
            known = stored_outcomes(store, args.game, args.players, args.games, args.seed, options, args.max_actions)
    except BaseException:
        store.close()
        raise
    if not args.json:
        who = f", bots {','.join(bots)}" if bots else ""
        print(
            f"{args.game}: {args.games} games, {args.players} players, seed {args.seed}, "
            f"options {options}{who}, engine {engine}",
            file=out,
            flush=True,
        )
    if known:
        # on standard error: the report of a resumed run is that of an uninterrupted one
        print(f"simulate: resuming, {len(known)} of {args.games} games already in the store", file=sys.stderr)
    keep = directory is not None or store is not None
    tally = Tally(args.players)
    progress = _Progress(args.games, sys.stderr)
    if known:
        progress.update(len(known))
    interrupted = False
    start = time.perf_counter()
    try:
        with cluster_executor(cluster) as (executor, workers):
            outcomes = play_games(
                args.game, args.players, args.games, seed=args.seed, bots=bots, options=options,
                max_actions=args.max_actions, engine=engine, keep_logs=keep,
                workers=args.workers if executor is None else workers, executor=executor,
                chunk_size=getattr(args, "chunk_size", None), progress=progress.update, known=known,
            )  # fmt: skip
            try:
                for outcome in outcomes:
                    tally.add(outcome)
                    if outcome.log is not None:
                        _keep_log(outcome, args, directory, store)
            finally:
                outcomes.close()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        progress.close()
        if store is not None:
            store.close()
    elapsed = time.perf_counter() - start
    if args.json:
        _print_json(tally, args, options, out, interrupted, engine)
    else:
        if interrupted:
            print(f"interrupted: {tally.played} of {args.games} games played", file=out)
        _print_tally(tally, args, elapsed, out)
    out.flush()
    return INTERRUPTED if interrupted else 0


def _keep_log(outcome: GameOutcome, args: argparse.Namespace, directory: Path | None, store: Any) -> None:
    assert outcome.log is not None
    if directory is not None:
        (directory / f"game-{outcome.number:06d}.json").write_text(outcome.log, encoding="utf-8")
    if store is not None:
        from cardkit.serde import loads

        from cardkit.store import MatchExistsError

        try:
            store.import_log(loads(outcome.log), match_id(args.game, args.seed, outcome.number))
        except MatchExistsError:
            # stored meanwhile by another run of the same command: the same game (game i of
            # a seed is always the same game), so there is nothing more to keep
            pass
