"""A masked policy-gradient agent that learns Crazy Eights (2 players) against RandomBot.

numpy only (the ``rl`` extra): REINFORCE with a learned value baseline, a one-hidden-layer
network and Adam, written out below. The games run on :class:`cardkit.rl.vector.VectorEnv`
(the Crazy Eights kernel): the agent plays seat 0 of every sub-environment, a uniformly
random legal action (what :class:`cardkit.bots.RandomBot` plays) answers for seat 1, and
the action mask decides every sampled action (an illegal action would raise).

Every ``--eval-every`` CPU-seconds the greedy policy plays ``--eval-games`` games on
held-out seeds; the learning curve goes to ``curve.csv`` and ``curve.png`` in ``--out``
(a temporary folder unless given). The PNG is drawn with numpy and zlib (no matplotlib).

Run it:  python examples/rl_train.py --seconds 120 --out /tmp/rl
(the default, 1 CPU-second, only shows the loop; ``benchmarks/rl_learn.py`` runs the
10-minute version and prints the win share with a Wilson interval.)
"""

from __future__ import annotations

import argparse
import math
import struct
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any, NamedTuple

try:
    import numpy as np

    from cardkit.rl.vector import VectorEnv, random_actions
except ImportError as exc:  # the example is documentation: say what is missing
    MISSING: str | None = str(exc)
else:
    MISSING = None

LEARNER = 0
EVAL_SEED = 10**12  # held-out seeds start here: training seeds are far below


class Policy:
    """Masked softmax policy and value baseline: one tanh hidden layer, two heads."""

    def __init__(self, obs_size: int, actions: int, hidden: int, scale: Any, rng: Any) -> None:
        self.scale = scale
        self.params = {
            "w1": rng.normal(0, 1 / math.sqrt(obs_size), (obs_size, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "wp": np.zeros((hidden, actions), np.float32),
            "bp": np.zeros(actions, np.float32),
            "wv": np.zeros((hidden, 1), np.float32),
            "bv": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.t = 0

    def forward(self, obs: Any, mask: Any) -> tuple[Any, Any, Any]:
        """Hidden layer, masked action probabilities and values of a batch."""
        p = self.params
        h = np.tanh((obs * self.scale) @ p["w1"] + p["b1"])
        logits = h @ p["wp"] + p["bp"]
        logits = np.where(mask > 0, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits) * (mask > 0)
        probs = e / e.sum(axis=1, keepdims=True)
        value = (h @ p["wv"] + p["bv"])[:, 0]
        return h, probs, value

    def act(self, obs: Any, mask: Any, rng: Any, greedy: bool = False) -> Any:
        """A sampled (or the most likely) legal action per row."""
        _, probs, _ = self.forward(obs, mask)
        if greedy:
            return np.where(mask > 0, probs, -1.0).argmax(axis=1)
        u = rng.random((len(probs), 1))
        return np.minimum((probs.cumsum(axis=1) < u).sum(axis=1), probs.shape[1] - 1)

    def update(self, obs: Any, mask: Any, actions: Any, returns: Any, lr: float, entropy: float) -> tuple[float, float, float]:
        """One REINFORCE step with the value baseline; (policy loss, value loss, entropy)."""
        p = self.params
        n = len(obs)
        x = obs * self.scale
        h, probs, value = self.forward(obs, mask)
        adv = returns - value
        logp = np.log(probs[np.arange(n), actions] + 1e-12)
        ent = -(probs * np.log(probs + 1e-12)).sum(axis=1)
        # d(-(adv * logp) - entropy * ent) / d logits
        g = probs.copy()
        g[np.arange(n), actions] -= 1.0
        g *= adv[:, None]
        logq = np.log(probs + 1e-12)
        g += entropy * probs * (logq + ent[:, None])
        g *= mask > 0
        g /= n
        gv = ((value - returns) / n)[:, None]
        dh = g @ p["wp"].T + gv @ p["wv"].T
        dz = dh * (1 - h * h)
        grads = {
            "wp": h.T @ g, "bp": g.sum(0), "wv": h.T @ gv, "bv": gv.sum(0),
            "w1": x.T @ dz, "b1": dz.sum(0),
        }  # fmt: skip
        self.t += 1
        for k, grad in grads.items():  # Adam
            self.m[k] = 0.9 * self.m[k] + 0.1 * grad
            self.v[k] = 0.999 * self.v[k] + 0.001 * grad * grad
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            p[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        return float(-(adv * logp).mean()), float((adv * adv).mean()), float(ent.mean())


class Point(NamedTuple):
    """One point of the learning curve."""

    cpu_seconds: float
    episodes: int
    win_share: float
    low: float
    high: float
    policy_loss: float
    entropy: float


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win share (draws count half a win)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    d = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / d
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / d
    return centre - half, centre + half


def evaluate(policy: Policy, games: int, envs: int = 50, greedy: bool = False) -> tuple[float, float, float]:
    """The policy (sampled, or its most likely action with ``greedy``) against random play
    on ``games`` held-out seeds: (win share, Wilson low, high); a drawn game is half a win.

    The curve uses the sampled policy, the one being trained: the untrained network is
    then uniformly random (0.5). Its greedy policy is not a fair start: with equal logits
    it plays the first legal action, a play before ``draw``, and never drawing while a
    card can be played already beats random play about nine games in ten."""
    envs = min(envs, games)
    venv = VectorEnv("crazy-eights", envs, players=2, seed=EVAL_SEED)
    rng = np.random.default_rng(EVAL_SEED)
    obs, info = venv.reset()
    wins = 0.0
    done = 0
    while done < games:
        mask = info["action_mask"]
        actions = random_actions(mask, rng)
        mine = info["agent"] == LEARNER
        if mine.any():
            actions[mine] = policy.act(obs[mine], mask[mine], rng, greedy=greedy)
        obs, rewards, terminated, truncated, info = venv.step(actions)
        for i in np.flatnonzero(terminated | truncated):
            if done < games:
                r = rewards[i, LEARNER]
                wins += 1.0 if r > 0 else 0.5 if r == 0 else 0.0
                done += 1
    low, high = wilson(wins, games)
    return wins / games, low, high


def train(
    seconds: float, *, envs: int = 64, batch_episodes: int = 128, lr: float = 3e-3, entropy: float = 0.01,
    hidden: int = 64, eval_every: float = 10.0, eval_games: int = 400, seed: int = 0, log: Any = print,
    max_updates: int | None = None,
) -> tuple[Policy, list[Point], dict[str, Any]]:
    """Train for ``seconds`` of CPU time (or until ``max_updates`` policy updates: a run
    that does not depend on the machine's speed); the policy, the learning curve and run
    facts (``episodes``, ``illegal`` actions sampled, the ``losses`` of every update)."""
    rng = np.random.default_rng(seed)
    venv = VectorEnv("crazy-eights", envs, players=2, seed=seed * 1_000_003)
    high = venv.encoder.high
    scale = (1.0 / np.clip(high, 1.0, 100.0)).astype(np.float32)
    policy = Policy(venv.obs_size, venv.num_actions, hidden, scale, rng)
    obs, info = venv.reset()
    start = time.process_time()
    # per sub-environment, the learner's steps of the running episode
    steps: list[list[tuple[Any, Any, int]]] = [[] for _ in range(envs)]
    batch_obs: list[Any] = []
    batch_mask: list[Any] = []
    batch_act: list[int] = []
    batch_ret: list[float] = []
    finished = 0
    episodes = 0
    illegal = 0
    losses: list[float] = []
    curve: list[Point] = []
    last_eval = -math.inf
    last = (math.nan, math.nan)
    while True:
        spent = time.process_time() - start
        stop = spent >= seconds or (max_updates is not None and len(losses) >= max_updates)
        if spent - last_eval >= eval_every or stop:
            share, lo, hi = evaluate(policy, eval_games)
            curve.append(Point(round(spent, 1), episodes, share, lo, hi, *last))
            log(f"cpu {spent:6.1f}s  episodes {episodes:6d}  win share {share:.3f} [{lo:.3f}, {hi:.3f}]  "
                f"policy loss {last[0]:.4f}  entropy {last[1]:.3f}")  # fmt: skip
            last_eval = time.process_time() - start
            start += time.process_time() - start - spent  # evaluation is not training time
            if stop:
                break
        mask = info["action_mask"]
        actions = random_actions(mask, rng)
        mine = np.flatnonzero(info["agent"] == LEARNER)
        if len(mine):
            chosen = policy.act(obs[mine], mask[mine], rng)
            illegal += int((mask[mine, chosen] == 0).sum())
            actions[mine] = chosen
            for j, i in enumerate(mine):
                steps[i].append((obs[i], mask[i], int(chosen[j])))
        obs, rewards, terminated, truncated, info = venv.step(actions)
        for i in np.flatnonzero(terminated | truncated):
            ret = float(rewards[i, LEARNER])
            for o, m, a in steps[i]:
                batch_obs.append(o)
                batch_mask.append(m)
                batch_act.append(a)
                batch_ret.append(ret)
            steps[i] = []
            finished += 1
            episodes += 1
        if finished >= batch_episodes:
            rate = lr * max(0.1, 1.0 - spent / seconds)  # a linear decay steadies the late run
            loss, _, ent = policy.update(
                np.array(batch_obs), np.array(batch_mask), np.array(batch_act), np.array(batch_ret, np.float32), rate, entropy
            )
            losses.append(loss)
            last = (loss, ent)
            batch_obs, batch_mask, batch_act, batch_ret = [], [], [], []
            finished = 0
    return policy, curve, {"episodes": episodes, "illegal": illegal, "losses": losses}


# ---------------------------------------------------------------------- output


def write_csv(path: Path, curve: list[Point]) -> None:
    """The learning curve as CSV."""
    lines = [",".join(Point._fields)] + [",".join(f"{v:.4f}" if isinstance(v, float) else str(v) for v in p) for p in curve]
    path.write_text("\n".join(lines) + "\n")


def _png(path: Path, image: Any) -> None:
    """Write an (h, w, 3) uint8 image as a PNG (zlib and struct only)."""
    h, w, _ = image.shape
    raw = b"".join(b"\x00" + image[y].tobytes() for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def write_png(path: Path, curve: list[Point], width: int = 640, height: int = 360) -> None:
    """The win share against CPU seconds: the curve (blue) and its 95% interval (light
    blue band) on a 0..1 axis; grey lines at every 0.1, dark lines at 0.5 and at the 0.6
    target. No text: the CSV has the numbers."""
    img = np.full((height, width, 3), 255, np.uint8)
    left, right, top, bottom = 40, width - 20, 20, height - 30
    xs = [p.cpu_seconds for p in curve] or [0.0]
    x_max = max(xs) or 1.0

    def px(x: float) -> int:
        return int(round(left + (right - left) * x / x_max))

    def py(y: float) -> int:
        return int(round(bottom - (bottom - top) * y))

    for k in range(11):
        img[py(k / 10), left:right + 1] = (225, 225, 225)
    img[py(0.5), left:right + 1] = (120, 120, 120)
    img[py(0.6), left:right + 1] = (200, 60, 60)
    img[top:bottom + 1, left] = (0, 0, 0)
    img[bottom, left:right + 1] = (0, 0, 0)
    for a, b in zip(curve, curve[1:]):  # the interval band, then the line
        for x in range(px(a.cpu_seconds), px(b.cpu_seconds) + 1):
            t = (x - px(a.cpu_seconds)) / max(1, px(b.cpu_seconds) - px(a.cpu_seconds))
            lo = a.low + t * (b.low - a.low)
            hi = a.high + t * (b.high - a.high)
            img[py(hi):py(lo) + 1, x] = (200, 220, 255)
    for a, b in zip(curve, curve[1:]):
        x0, x1 = px(a.cpu_seconds), px(b.cpu_seconds)
        for x in range(x0, x1 + 1):
            t = (x - x0) / max(1, x1 - x0)
            y = py(a.win_share + t * (b.win_share - a.win_share))
            img[y - 1:y + 2, x] = (20, 60, 200)
    for p in curve:
        x, y = px(p.cpu_seconds), py(p.win_share)
        img[y - 3:y + 4, x - 3:x + 4] = (20, 60, 200)
    _png(path, img)


def main(argv: list[str] | None = None) -> int:
    """Train, print the curve, write curve.csv and curve.png."""
    if MISSING is not None:
        print(f"this example needs the rl extra (pip install 'cardkit[rl]'): {MISSING}")
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds of training (default 1)")
    parser.add_argument("--eval-every", type=float, default=None, help="CPU seconds between evaluations")
    parser.add_argument("--eval-games", type=int, default=100, help="held-out games per evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="folder for curve.csv and curve.png")
    args, _ = parser.parse_known_args(argv)
    every = args.eval_every if args.eval_every is not None else max(args.seconds / 10, min(args.seconds, 5.0))
    policy, curve, facts = train(args.seconds, eval_every=every, eval_games=args.eval_games, seed=args.seed)
    out = args.out if args.out is not None else Path(tempfile.mkdtemp(prefix="cardkit-rl-"))
    out.mkdir(parents=True, exist_ok=True)
    write_csv(out / "curve.csv", curve)
    write_png(out / "curve.png", curve)
    print(f"{facts['episodes']} training episodes, {len(facts['losses'])} updates, illegal actions {facts['illegal']}")
    print(f"wrote {out / 'curve.csv'} and {out / 'curve.png'}")
    return 0


if __name__ == "__main__":
    main(sys.argv[1:])
