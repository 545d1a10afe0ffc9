"""A short Wizard demo: a 4-player, 3-round game played by a naive bot.

Run: python examples/wizard_demo.py
"""

from __future__ import annotations

import cardkit
from cardkit.games.wizard.events import RoundScored, TrickWon


def main() -> None:
    game = cardkit.new_game("wizard", players=4, seed=2026, rounds=3, forbid_even_bids=True)
    shown_round = 0
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if view["round"] != shown_round:
            shown_round = view["round"]
            print(f"\n-- round {shown_round}: dealer {view['dealer']}, turned {view['turned_card']}, "
                  f"trump {view['trump']}")
        legal = game.legal_actions()
        if view["phase"] == "bid":
            # bid how many Wizards and aces we hold, if allowed
            strong = sum(1 for c in view["hand"] if c in ("W",) or c.startswith("A"))
            choice = next((a for a in legal if str(a) == f"bid {strong}"), legal[0])
        else:
            choice = legal[0]  # first legal: trump S, or the first playable card
        print(f"seat {seat} holds {' '.join(view['hand']):<20} -> {choice}")
        before = len(game.events)
        game = game.play(choice)
        for event in game.events_for(None)[before:]:
            if isinstance(event, TrickWon):
                print(f"   trick {' '.join(c.code for _, c in event.trick)} won by seat {event.seat}")
            elif isinstance(event, RoundScored):
                print(f"   round {event.round} scored: {event.points} -> totals {event.scores}")
    result = game.result
    assert result is not None
    print("\nscores", result.scores, "winners", result.winners)
    # the log round-trips through JSON and replays to the same game
    assert cardkit.replay(cardkit.loads(cardkit.dumps(game.log))) == game


if __name__ == "__main__":
    main()
