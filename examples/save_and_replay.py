"""Save a game's log as JSON, load it back, verify it by replay, and continue playing.

Run it:  python examples/save_and_replay.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import cardkit
from cardkit.rng import Rng
from cardkit.testing import random_playout


def main() -> None:
    game = cardkit.new_game("crazy-eights", players=4, seed=99, mode="points", target=100)
    game = random_playout(game, Rng(1), max_seat_actions=60)

    path = Path(tempfile.mkdtemp()) / "game.json"
    path.write_text(cardkit.dumps(game.log), encoding="utf-8")
    print(f"saved {len(game.log.entries)} entries to {path} ({path.stat().st_size} bytes)")

    restored = cardkit.replay(cardkit.loads(path.read_text(encoding="utf-8")))
    assert restored == game
    print("replayed and verified; seat", restored.to_act, "is to act; scores", restored.scores)

    finished = random_playout(restored, Rng(2))
    assert finished.result is not None
    print("finished: winners", finished.result.winners, "scores", finished.result.scores)

    # a tampered log is caught
    tampered = path.read_text(encoding="utf-8").replace('"pending_draw":0', '"pending_draw":2', 1)
    try:
        cardkit.replay(cardkit.loads(tampered))
    except cardkit.LogError as exc:
        print(f"tampered log refused: {type(exc).__name__}")


if __name__ == "__main__":
    main()
