"""A short Cutthroat Spades demo: a 3-player hand with a look, a blind nil and a tournament played out
(random play drifts negative, so the games end by `max_hands` or by `mercy`).

Run: ``python examples/cutthroat_spades_demo.py``
"""

from __future__ import annotations

import cardkit
from cardkit.rng import Rng


def main() -> None:
    game = cardkit.new_game("cutthroat-spades", players=3, seed=2024, preset="short", max_hands=10, mercy=300)
    seat = game.to_act
    print(f"dealer: seat {game.view(None)['dealer']}; seat {seat} bids first")
    print("before looking, seat", seat, "sees its hand as:", game.view(seat)["hand"])
    print("its legal actions:", [str(a) for a in game.legal_actions()])
    game = game.play_text("look")
    print("after `look`:", " ".join(game.view(seat)["hand"]))
    game = game.play_text("bid 4")
    game = game.play_text("bid blind-nil")  # the next seat bids blind: its hand is shown to it now
    game = game.play_text("look").play_text("bid moon")
    view = game.view(None)
    print("bids:", view["bids"])
    print("seat", game.to_act, "leads; legal:", [str(a) for a in game.legal_actions()][:6], "...")

    rng = Rng(7)
    while not game.is_over:  # random play to the end of the tournament
        legal = game.legal_actions()
        game = game.play(legal[rng.below(len(legal))])
    view = game.view(None)
    for record in view["games"]:
        print(f"game {record['game_number']}: scores {record['scores']} winners {record['winners']}")
    print("tokens:", view["tokens"], "tournament winners:", game.result.winners if game.result else None)
    print("log entries:", len(game.log.entries), "- replays identically:",
          cardkit.replay(cardkit.loads(cardkit.dumps(game.log))) == game)


if __name__ == "__main__":
    main()
