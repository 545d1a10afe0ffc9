"""cardkit benchmarks: every measure of the performance targets from one command.

    python benchmarks/run.py            # the full run, a few minutes
    python benchmarks/run.py --quick    # a smoke run of every measure (seconds; the tests run it)

Run it with the cardkit under test first on the path (``PYTHONPATH=src``); the header
prints which cardkit was measured.

Throughput: random games, counting only **player** actions on every side, CPU time
(``time.process_time``), every workload once per round, interleaved (A, B, C, A, B, C ...)
for several rounds, each batch cut into slices taken in turn (A1 B1 C1 A2 ...); best and
median round are printed, and ratios also as *paired* (the median of the per-round
ratios), which the target verdicts read. The sides:

* cardkit pure reducer: ``rules.legal_actions`` / ``decide`` / ``evolve`` on states;
* cardkit ``Game.play``: the public immutable API (log, guards, auto-played chance);
* cardkit replay: log entries (player and chance) re-decided per CPU-second;
* cardkit kernel compiled / interpreted: whole random games inside the game's kernel
  (``cardkit.kernels.random_play.random_game``, one call per game), the compiled build
  when one is importable and the same sources as plain Python (``kernel_sides.py``);
* OpenSpiel C++ evaluate_bots: whole games inside C++ (``pyspiel.evaluate_bots`` with
  ``pyspiel.make_uniform_random_bot`` bots), one Python call per game;
* OpenSpiel Python-driven: the same OpenSpiel games stepped from Python at its fastest;
* naive mutable Python: ``benchmarks/naive_crazy_eights.py``, the same Crazy Eights games;
* RLCard UNO 2p, if ``rlcard`` imports (a different game: for scale only).

OpenSpiel's games are the nearest ones, not the same rules (``crazy_eights``; ``oh_hell``
for Wizard; ``spades``, four players in partnerships, for Cutthroat Spades), so those
ratios compare engines on similar work, not identical games. The naive Crazy Eights plays
exactly cardkit's games (same deals, same choices). Targets are printed next to the
figures; they are never asserted by timed tests.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cardkit  # noqa: E402

import kernel_sides as ks  # noqa: E402
import measures  # noqa: E402
import workloads as wl  # noqa: E402
from harness import Measured, Workload, measure, ratios, verdict  # noqa: E402


@dataclass(frozen=True)
class Plan:
    """How much of everything to measure."""

    rounds: int
    batch_seconds: float
    slices: int
    check_seeds: int
    log_entries: int
    serde_repeats: int
    startup_repeats: int
    memory_entries: int
    far_actions: int


FULL = Plan(rounds=7, batch_seconds=0.6, slices=10, check_seeds=30, log_entries=10_000, serde_repeats=7,
            startup_repeats=10, memory_entries=10_000, far_actions=10_000)  # fmt: skip
QUICK = Plan(rounds=2, batch_seconds=0.005, slices=1, check_seeds=3, log_entries=1_000, serde_repeats=1,
             startup_repeats=1, memory_entries=500, far_actions=1_000)  # fmt: skip


def _rate(value: float) -> str:
    return f"{value:>12,.0f}"


def _ratio_line(label: str, what: str, num: Measured, den: Measured, target: str | None = None,
                goal: float | None = None, at_least: bool = True) -> str:
    median, best, paired = ratios(num, den)  # the verdict reads the paired one
    line = f"{label:<20} {what:<62} {median:6.2f}x median ({best:.2f}x best; {paired:.2f}x paired)"
    if target is not None and goal is not None:
        line += f"   target {target}: {verdict(paired, goal, at_least)}"
    return line


def _same_games(configs: list[wl.Config], seeds: int) -> list[str]:
    """Check that cardkit's reducer, Game.play and the naive Python play the same games."""
    problems = []
    rules_version = cardkit.get_rules("crazy-eights").rules_version
    for config in configs:
        rules = cardkit.get_rules(config.game)
        cfg = rules.config(config.players, **config.options)
        total = 0
        # the other games are 5-20 times longer: fewer seeds check as many actions
        checked = seeds if config.game == "crazy-eights" else max(1, seeds // 3)
        for seed in range(1, checked + 1):
            counts = {
                "pure reducer": wl.pure_playout(rules, cfg, seed),
                "Game.play": wl.game_playout(config, seed),
            }
            if config.game == "crazy-eights":
                counts["naive Python"] = wl.naive_playout(config.players, seed, rules_version)
            if ks.has_kernel(config.game, config.players, config.options):
                counts["kernel"] = ks.kernel_same_game(config.game, config.players, config.options, seed)
            if len(set(counts.values())) != 1:
                problems.append(f"{config.label} seed {seed}: player actions differ {counts}")
            total += counts["pure reducer"]
        names = ["pure reducer", "Game.play"]
        if ks.has_kernel(config.game, config.players, config.options):
            names.append("the kernel")
        if config.game == "crazy-eights":
            names.append("naive Python")
        sides = ", ".join(names[:-1]) + " and " + names[-1]
        print(f"{config.label:<20} seeds 1..{checked}: {sides} made the same player actions per game "
              f"({total:,} in all)")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks; exit status 1 if a consistency check fails."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="tiny samples of every measure (smoke run)")
    parser.add_argument("--only", help="throughput only for configurations whose label contains this text")
    parser.add_argument("--rounds", type=int, help="interleaved rounds (default 7; quick 2)")
    parser.add_argument("--batch-seconds", type=float,
                        help="CPU seconds per batch (default 0.6; quick 0.005); the long games "
                             "(Cutthroat, Spacc) need long batches for a steady median")
    parser.add_argument("--slices", type=int,
                        help="runs each batch is cut into, taken in turn across the sides (default 10)")
    parser.add_argument("--progress", action="store_true", help="print progress to stderr")
    parser.add_argument("--serde-only", action="store_true",
                        help="only the loads/dumps lines (no throughput, no other single measures)")
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else FULL
    if args.serde_only:
        print(f"cardkit {cardkit.__version__} from {Path(cardkit.__file__).resolve().parent}, "
              f"Python {sys.version.split()[0]}, serde only")
        _print_serde(plan)
        return 0
    rounds = args.rounds or plan.rounds
    if args.batch_seconds is not None:
        plan = replace(plan, batch_seconds=args.batch_seconds)
    if args.slices is not None:
        plan = replace(plan, slices=max(1, args.slices))
    configs = [c for c in wl.CONFIGS if not args.only or args.only in c.label]
    no_openspiel = wl.openspiel_missing()
    no_rlcard = wl.rlcard_missing()

    print(f"cardkit {cardkit.__version__} from {Path(cardkit.__file__).resolve().parent}, "
          f"Python {sys.version.split()[0]}, {'quick smoke run' if args.quick else 'full run'}")
    print(no_openspiel or f"OpenSpiel {_version('open_spiel')}")
    print(no_rlcard or f"RLCard {_version('rlcard')}")
    print(ks.build_note())
    print()

    # ---------------------------------------------------------------- same games
    print("== Same games (checked, untimed) ==")
    problems = _same_games(configs, plan.check_seeds)
    print()

    # ---------------------------------------------------------------- throughput
    work: list[Workload] = []
    for config in configs:
        work += [wl.pure_workload(config), wl.game_workload(config), wl.replay_workload(config)]
        if ks.has_kernel(config.game, config.players, config.options):
            if ks.compiled_importable():
                work.append(ks.kernel_workload(config, "compiled"))
            work.append(ks.kernel_workload(config, "interpreted"))
        if config.game == "crazy-eights":
            work.append(wl.naive_workload(config))
        if config.openspiel is not None and no_openspiel is None:
            work += [wl.openspiel_cpp_workload(config), wl.openspiel_python_workload(config)]
    if no_rlcard is None and not args.only:
        work.append(wl.rlcard_uno_workload())
    progress = (lambda text: print(text, file=sys.stderr, flush=True)) if args.progress else None
    results = measure(work, rounds, plan.batch_seconds, progress, warm_up=not args.quick, slices=plan.slices)

    _print_throughput(configs, results, rounds, plan)
    _print_ratios(configs, results, no_openspiel, no_rlcard)
    _print_single_measures(plan, args.quick, no_openspiel is None)
    _print_other(plan)

    for problem in problems:
        print(f"CHECK FAILED: {problem}")
    return 1 if problems else 0


def _print_throughput(configs: list[wl.Config], results: dict[str, Measured], rounds: int, plan: Plan) -> None:
    print(f"== Throughput: units per CPU-second, {rounds} interleaved rounds, "
          f"batches of about {plan.batch_seconds:g} s CPU in up to {plan.slices} slices taken in turn; "
          "best = the round of least CPU time ==")
    print(f"{'configuration':<20} {'side':<46} {'best':>12} {'median':>12}  unit, batch")
    for config in configs:
        for key in ("pure", "game", "replay", "kc", "kp", "naive", "os-cpp", "os-py"):
            m = results.get(f"{key} {config.label}")
            if m is not None:
                other = f" ({_os_name(config)})" if key.startswith("os") else ""
                print(f"{config.label:<20} {m.workload.label + other:<46} {_rate(m.best)} {_rate(m.median)}  "
                      f"{m.workload.unit}, {m.games} games")
    uno = results.get("rlcard uno")
    if uno is not None:
        print(f"{'uno 2p':<20} {uno.workload.label:<46} {_rate(uno.best)} {_rate(uno.median)}  "
              f"{uno.workload.unit}, {uno.games} games")
    print()


def _print_ratios(configs: list[wl.Config], results: dict[str, Measured], no_openspiel: str | None,
                  no_rlcard: str | None) -> None:
    uno = results.get("rlcard uno")
    print("== Ratios of player actions per CPU-second (replay: entries) ==")
    for config in configs:
        r = {key: results.get(f"{key} {config.label}")
             for key in ("pure", "game", "replay", "kc", "kp", "naive", "os-cpp", "os-py")}
        pure = r["pure"]
        assert pure is not None
        label = config.label
        if r["os-cpp"] is not None:
            goal = 0.15 if config.game == "crazy-eights" else 0.10
            print(_ratio_line(label, f"pure reducer / OpenSpiel C++ evaluate_bots ({_os_name(config)})",
                              pure, r["os-cpp"], f">= {goal:.2f}x", goal))
        if r["os-py"] is not None:
            print(_ratio_line(label, f"pure / OpenSpiel Python-driven ({_os_name(config)})", pure, r["os-py"]))
        if r["naive"] is not None:
            print(_ratio_line(label, "pure / naive mutable Python", pure, r["naive"]))
        _kernel_ratios(config, r)
        game, replay = r["game"], r["replay"]
        assert game is not None and replay is not None
        print(_ratio_line(label, "Game.play / pure reducer", game, pure, ">= 0.85x", 0.85))
        print(_ratio_line(label, "replay entries/s / pure reducer actions/s", replay, pure, ">= 1.0x", 1.0))
    if no_openspiel is not None:
        print(f"(no OpenSpiel ratios: {no_openspiel})")
    if uno is not None:
        first = results.get("pure crazy-eights 2p")
        if first is not None:
            print(_ratio_line("crazy-eights 2p", "pure / RLCard UNO 2p (Python; another game, for scale)", first, uno))
    elif no_rlcard is not None:
        print(f"({no_rlcard})")
    print()


def _kernel_ratios(config: wl.Config, r: dict[str, Measured | None]) -> None:
    """The kernel sides against OpenSpiel's C++ (or, without a counterpart, the reducer)."""
    label, pure, compiled, interpreted, cpp = config.label, r["pure"], r["kc"], r["kp"], r["os-cpp"]
    assert pure is not None
    if compiled is None and interpreted is None:
        print(f"{label:<20} (no kernel for this configuration on this branch: no kernel ratios)")
        return
    if cpp is not None:
        goal = 1.5 if config.game == "crazy-eights" else 1.0
        name = f"OpenSpiel C++ evaluate_bots ({_os_name(config)})"
        if compiled is not None:
            print(_ratio_line(label, f"kernel compiled / {name}", compiled, cpp, f">= {goal:.1f}x", goal))
        else:
            print(f"{label:<20} kernel compiled / {name}: not measured (no compiled build importable)")
        if interpreted is not None:
            print(_ratio_line(label, f"kernel interpreted / {name}", interpreted, cpp, ">= 0.35x", 0.35))
    elif compiled is not None:
        print(_ratio_line(label, "kernel compiled / pure reducer (no OpenSpiel counterpart)", compiled, pure,
                          ">= 15x", 15.0))
    else:
        print(f"{label:<20} kernel compiled / pure reducer: not measured (no compiled build importable)")
    if interpreted is not None:
        print(_ratio_line(label, "kernel interpreted / pure reducer", interpreted, pure))
        if compiled is not None:
            print(_ratio_line(label, "kernel compiled / kernel interpreted", compiled, interpreted))


def _print_serde(plan: Plan) -> cardkit.Game:
    """Print the loads/dumps lines for one long Crazy Eights log; return its game."""
    c8 = wl.CONFIGS[1]  # crazy-eights 4p points match: long logs
    long_game = measures.long_log_game(c8, plan.log_entries)
    serde = measures.serde_cost(long_game, plan.serde_repeats)
    ratio = serde.loads / serde.json_loads
    print(f"loads / json.loads, same {serde.entries:,}-entry log ({serde.chars / 1e6:.1f} MB of JSON): "
          f"{ratio:.1f}x (loads {serde.loads * 1e3:.0f} ms = {serde.loads / serde.entries * 1e6:.1f} us/entry, "
          f"json.loads {serde.json_loads * 1e3:.1f} ms)   target <= 3x: {verdict(ratio, 3, False)}")
    ratio = serde.dumps / serde.json_dumps
    print(f"dumps / json.dumps, same log: {ratio:.1f}x (dumps {serde.dumps * 1e3:.0f} ms = "
          f"{serde.dumps / serde.entries * 1e6:.1f} us/entry, json.dumps {serde.json_dumps * 1e3:.1f} ms)   no target")
    return long_game


def _print_single_measures(plan: Plan, quick: bool, with_pyspiel: bool) -> None:
    print("== Serde, per-seat stream, start-up, memory ==")
    long_game = _print_serde(plan)
    last = long_game.last_entry
    assert last is not None
    events_for, entries_for = measures.newest_entry_costs(long_game, 0, 3 if quick else 5)
    at = f"at {last.seq + 1:,} entries"
    if entries_for is None:
        print(f"newest entry through events_for(seat), the whole game (entries_for is not on this branch), {at}: "
              f"{events_for * 1e6:,.1f} us per call   target <= 50 us: {verdict(events_for, 50e-6, False)}")
    else:
        print(f"events_for(seat), the whole game, {at}: {events_for * 1e6:,.1f} us per call   for reference")
        print(f"entries_for(seat, after=newest - 1), the newest entry, {at}: {entries_for * 1e6:,.1f} us per call   "
              f"target <= 50 us: {verdict(entries_for, 50e-6, False)}")
    start = measures.startup_cost(plan.startup_repeats, with_pyspiel)
    how = f"wall, fresh interpreters, best of {plan.startup_repeats}"
    print(f"import cardkit / import attrs ({how}): {start.cardkit / start.attrs:.2f}x "
          f"(import cardkit {start.cardkit * 1e3:.0f} ms, import attrs {start.attrs * 1e3:.0f} ms)   "
          f"target <= 1.15x: {verdict(start.cardkit / start.attrs, 1.15, False)}")
    print(f"cardkit games / import attrs ({how}): {start.cli_games / start.attrs:.2f}x "
          f"(cardkit games {start.cli_games * 1e3:.0f} ms)   "
          f"target <= 1.5x: {verdict(start.cli_games / start.attrs, 1.5, False)}")
    if start.pyspiel is not None:
        print(f"import pyspiel ({how}): {start.pyspiel * 1e3:.0f} ms   for reference")
    for config in wl.CONFIGS:
        per_entry, count = measures.memory_per_entry(config, plan.memory_entries)
        print(f"memory per logged entry, {config.label} {_long(config)} ({count:,} entries, retained size, tracemalloc): "
              f"{per_entry:,.0f} B   target <= 400 B: {verdict(per_entry, 400, False)}")
    print()


def _print_other(plan: Plan) -> None:
    c8 = wl.CONFIGS[1]
    print("== Other ==")
    near = measures.play_cost(c8, 100)
    far = measures.play_cost(c8, plan.far_actions)
    print(f"crazy-eights 4p points match: Game.play {near * 1e6:.1f} us at 100 actions, {far * 1e6:.1f} us at "
          f"{plan.far_actions:,} actions (far/near {far / near:.2f}x; near 1 when play is O(1) in the game's length)")
    deep = wl.play_game(c8, 5, c8.long_options, max_actions=plan.far_actions)
    print(f"crazy-eights 4p points match: undo(1) {measures.undo_cost(deep, 1) * 1e6:.0f} us, "
          f"undo(10) {measures.undo_cost(deep, 10) * 1e6:.0f} us at {plan.far_actions:,} actions")


def _os_name(config: wl.Config) -> str:
    return f"{config.openspiel} {config.openspiel_params.get('players', 4)}p"


def _long(config: wl.Config) -> str:
    options = ", ".join(f"{k}={v!r}" for k, v in config.long_options.items())
    return f"[{options}]" if options else "[default options]"


def _version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "(version unknown)"


if __name__ == "__main__":
    raise SystemExit(main())
