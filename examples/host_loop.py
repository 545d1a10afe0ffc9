"""A host loop: seats act in turn; each sees only its own view.

A real server would send ``game.view(seat)`` to each client and read their text back;
here seat 0 types nothing and always plays its first legal action, the others play at
random from a seeded generator (never the global ``random``).

Run it:  python examples/host_loop.py
"""

from __future__ import annotations

import cardkit
from cardkit.rng import Rng


def main() -> None:
    game = cardkit.new_game("crazy-eights", players=3, seed=2024, jack_skips=True)
    bots = Rng(7)
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if seat == 0:
            text = view["legal_actions"][0]
        else:
            options = view["legal_actions"]
            text = options[bots.below(len(options))]
        try:
            game = game.play_text(text, seat=seat)
        except cardkit.IllegalActionError as exc:  # a client sent something illegal
            print(f"seat {seat}: refused ({exc.reason})")
            continue
        print(f"seat {seat}: {text:<12} top={game.view(None)['top_card']} hand sizes={game.view(None)['hand_sizes']}")
    assert game.result is not None
    print("winners:", game.result.winners, "scores:", game.result.scores)


if __name__ == "__main__":
    main()
