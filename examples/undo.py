"""Undo: take back a misclick safely, and see what safe undo refuses.

Run it:  python examples/undo.py
"""

from __future__ import annotations

import cardkit
from cardkit.games.crazy_eights import Draw, Play


def main() -> None:
    game = cardkit.new_game("crazy-eights", players=2, seed=3)
    seat = game.to_act
    play = next(a for a in game.legal_actions() if isinstance(a, Play))

    after = game.play(play)
    back = after.undo(1, safe=True)  # a misclick: nothing was learned
    assert back == game
    print(f"seat {seat} played {play}, then took it back safely")

    drew = game.play(Draw())
    try:
        drew.undo(1, safe=True)
    except cardkit.IllegalActionError as exc:
        print(f"safe undo after a draw is refused: {exc.reason}")
    assert drew.undo(1) == game  # the host may still force it
    print("an unsafe undo is still possible when the host allows it")

    # both branches stay valid: games are immutable
    print("branch A hand size:", len(after.state.hands[seat]), "branch B:", len(drew.state.hands[seat]))


if __name__ == "__main__":
    main()
