"""A short Spacc 'u Mazz demo: a 3-player match to 100 points played by a greedy bot.

Run: python examples/spacc_u_mazz_demo.py
"""

from __future__ import annotations

from typing import Any

import cardkit
from cardkit.games.spacc_u_mazz.actions import Blind, Play
from cardkit.games.spacc_u_mazz.events import HandScored, JokerDrawn, JokerRevealed, PileBurned


def greedy(legal: tuple[Any, ...]) -> Any:
    """Shed the lowest ordinary rank (all copies); else blind, a 2 or 10, draw, take."""
    plays = [a for a in legal if isinstance(a, Play)]
    ordinary = [a for a in plays if (a.hand + a.up)[0].rank not in (2, 10)]
    if ordinary:
        low = (ordinary[0].hand + ordinary[0].up)[0].rank
        return [a for a in ordinary if (a.hand + a.up)[0].rank == low][-1]
    blind = [a for a in legal if isinstance(a, Blind)]
    if blind:
        return blind[0]
    if plays:
        return plays[0]
    for verb in ("dump", "remove", "draw", "take"):
        for action in legal:
            if str(action).startswith(verb):
                return action
    return legal[0]


def main() -> None:
    game = cardkit.new_game("spacc-u-mazz", players=3, seed=2026, target_score=100)
    hand = 0
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if view["hand_number"] != hand:
            hand = view["hand_number"]
            print(f"\n-- hand {hand}: dealer {view['dealer']}, starting card {view['pile'][-1]}")
        action = greedy(game.legal_actions())
        if isinstance(action, Play) or str(action) in ("take", "dump"):
            print(f"seat {seat} (hand {len(view['hand'])}, pile ref {view['reference']}) -> {action}")
        before = len(game.events)
        game = game.play(action)
        for event in game.events_for(None)[before:]:
            if isinstance(event, PileBurned):
                print(f"   a 10 burns {len(event.cards)} cards")
            elif isinstance(event, (JokerDrawn, JokerRevealed)):
                print(f"   seat {event.seat} meets the {event.card} joker")
            elif isinstance(event, HandScored):
                print(f"   hand scored {event.points} (variable {event.variable}) -> {event.totals}")
    result = game.result
    assert result is not None
    print("\nscores", result.scores, "winners", result.winners)
    assert cardkit.replay(cardkit.loads(cardkit.dumps(game.log))) == game


if __name__ == "__main__":
    main()
