"""Correct generic host code: ``mypy --strict`` must accept it without a single error.

One code path for every game, typed against :class:`cardkit.CommonView`; plus the precise
types a host gets for one game. Checked by tests/typing/test_typing.py, also run there.
"""

from __future__ import annotations

from typing import Any

import cardkit
from cardkit import CommonView, Game
from cardkit.games import cutthroat_spades, wizard


def summary(view: CommonView) -> str:
    """One line about any game's view: only the common fields are used."""
    turn = "over" if view["to_act"] is None else f"seat {view['to_act']} to act"
    return f"{view['game']} ({view['players']} players, {view['phase']}): {turn}, scores {view['scores']}"


def play_first_legal(game: Game[Any, CommonView], limit: int) -> Game[Any, CommonView]:
    """Play the first legal action until the game ends or ``limit`` actions were played."""
    for _ in range(limit):
        if game.is_over:
            break
        actions = game.legal_actions()
        game = game.play(actions[0], seat=game.to_act)
    return game


def main() -> list[str]:
    """Every built-in game through the same code path, then one game's own fields."""
    lines: list[str] = []
    games: list[Game[Any, CommonView]] = [
        cardkit.new_game("crazy-eights", players=3, seed=1),
        cardkit.new_game("wizard", players=3, seed=1),
        cardkit.new_game("cutthroat-spades", players=4, seed=1),
        cardkit.new_game("spacc-u-mazz", players=2, seed=1),
    ]
    for game in games:
        game = play_first_legal(game, 20)
        seat = game.to_act
        lines.append(summary(game.view(seat if seat is not None and seat >= 0 else None)))
    wiz = wizard.new_game(players=4, seed=3, rounds=2, forbid_even_bids=True)
    bid: wizard.WizardAction = wizard.Bid(1)
    if bid in wiz.legal_actions():
        wiz = wiz.play(bid)
    view: wizard.WizardView = wiz.view(0)
    winner: int | None = view["trick_winner"]
    lines.append(f"trump {view['trump']}, bids {view['bids']}, winning {winner}")
    spades = cutthroat_spades.new_game(players=5, seed=2, preset="short", jokers=2)
    lines.append(f"removed {spades.view(None)['removed']}")
    return lines


if __name__ == "__main__":
    print("\n".join(main()))
