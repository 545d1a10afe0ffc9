"""A generic host: one code path for every registered game, typed against CommonView.

It builds a lobby form from each game's option schema (``rules.options()``), starts a
game, streams each seat its own view and new log entries, asks a "player" (here: the
first legal action) and takes back one move with ``undo_seat``. Nothing here names a
game's own classes: a game you register works unchanged if its view has the common
fields (:class:`cardkit.CommonView`).
"""

from __future__ import annotations

from typing import Any

import cardkit
from cardkit import CommonView, Game
from cardkit.core.options import options_of

GAMES = ("crazy-eights", "cutthroat-spades", "spacc-u-mazz", "wizard")
"""The built-in games (``cardkit.available_games()`` also lists games others registered)."""


def lobby_form(name: str) -> list[dict[str, Any]]:
    """What a lobby shows for a game: every option with its type, default and allowed values."""
    return [spec.to_json() for spec in options_of(cardkit.get_rules(name))]


def status(view: CommonView) -> str:
    """One line from the fields every game's view has."""
    if view["result"] is not None:
        return f"{view['game']}: over, winners {view['result']['winners']}"
    who = "chance" if view["to_act"] == cardkit.CHANCE else f"seat {view['to_act']}"
    return f"{view['game']}: {view['phase']}, {who} to act, scores {view['scores']}"


def run(game: Game[Any, CommonView], moves: int) -> Game[Any, CommonView]:
    """Play ``moves`` moves, sending every seat what it may see after each one."""
    sent = [-1] * game.players  # the last seq each seat has received
    for _ in range(moves):
        seat = game.to_act
        if seat is None:  # over: with auto_chance a game is never left at a chance node
            break
        view = game.view(seat)
        choice = view["legal_actions"][0]  # a player answers with notation text
        game = game.play_text(choice, seat=seat)
        for viewer in range(game.players):
            new = game.entries_for(viewer, after=sent[viewer])
            if new:
                sent[viewer] = new[-1].seq
    return game


def main() -> None:
    """Every built-in game through the same code path."""
    for name in GAMES:
        rules = cardkit.get_rules(name)
        form = lobby_form(name)
        first = f", e.g. {form[0]['name']} (default {form[0]['default']})" if form else ""
        print(f"{name}: {len(form)} options{first}")
        game: Game[Any, CommonView] = cardkit.new_game(name, players=rules.min_players, seed=2024)
        game = run(game, 12)
        print("  " + status(game.view(None)))
        last = game.last_entry
        if last is not None and last.actor >= 0:
            try:
                back = game.undo_seat(last.actor)
                print(f"  seat {last.actor} took back its move: {status(back.view(None))}")
            except cardkit.IllegalActionError as exc:
                print(f"  seat {last.actor} may not take back its move: {exc.reason}")
        assert hash(game) == hash(cardkit.replay(game.log))  # equal games, equal hashes


if __name__ == "__main__":
    main()
