"""How far the example agent (examples/rl_train.py) gets against random play in a CPU budget.

    python benchmarks/rl_learn.py                    # 10 CPU-minutes of training
    python benchmarks/rl_learn.py --minutes 1        # a shorter run
    python benchmarks/rl_learn.py --out docs/img     # also write rl-learning-curve.{csv,png}

Trains the masked REINFORCE agent of ``examples/rl_train.py`` on Crazy Eights, 2 players,
against uniformly random legal play (what ``RandomBot`` plays) for ``--minutes`` of CPU
time (evaluations excluded), printing the learning curve as it goes: the win share of the
policy being trained (sampled actions) on ``--eval-games`` held-out seeds, with its 95%
Wilson interval (a drawn game is half a win). At the end it evaluates the final policy on
``--final-games`` other held-out seeds, sampled and greedy, and prints the verdict against
the target of 0.60 (the interval's low end must clear it).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))

import rl_train  # noqa: E402

TARGET = 0.60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="CPU minutes of training (default 10)")
    parser.add_argument("--eval-every", type=float, default=20.0, help="CPU seconds between curve points")
    parser.add_argument("--eval-games", type=int, default=400, help="held-out games per curve point")
    parser.add_argument("--final-games", type=int, default=4000, help="held-out games of the final evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="write rl-learning-curve.csv/.png here")
    args = parser.parse_args()
    start = time.process_time()
    policy, curve, facts = rl_train.train(
        args.minutes * 60, eval_every=args.eval_every, eval_games=args.eval_games, seed=args.seed
    )
    print(
        f"trained {facts['episodes']} episodes in {curve[-1].cpu_seconds:.0f} CPU-s "
        f"({len(facts['losses'])} updates, illegal actions sampled: {facts['illegal']})"
    )
    rl_train.EVAL_SEED = 2 * 10**12  # the final games: seeds neither training nor the curve used
    for greedy in (False, True):
        share, low, high = rl_train.evaluate(policy, args.final_games, greedy=greedy)
        kind = "greedy " if greedy else "sampled"
        print(
            f"final policy ({kind}) vs random, {args.final_games} held-out games: win share {share:.3f} "
            f"(95% Wilson [{low:.3f}, {high:.3f}])   target >= {TARGET:.2f}: {'met' if low >= TARGET else 'not met'}"
        )
    first = next((p for p in curve if p.low >= TARGET), None)
    if first is not None:
        print(f"first curve point whose interval clears {TARGET:.2f}: {first.cpu_seconds:.1f} CPU-s ({first.episodes} episodes)")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        rl_train.write_csv(args.out / "rl-learning-curve.csv", curve)
        rl_train.write_png(args.out / "rl-learning-curve.png", curve)
        print(f"wrote {args.out / 'rl-learning-curve.csv'} and {args.out / 'rl-learning-curve.png'}")
    print(f"total CPU {time.process_time() - start:.0f} s")


if __name__ == "__main__":
    main()
