"""``Game.undo_seat(seat, replies=True)``: taking back a move against bots (issue 27).

The seat's last action goes with everything after it, unless one of those entries showed
that seat a card hidden from it before.
"""

from __future__ import annotations

import pytest

import cardkit
from cardkit.errors import IllegalActionError


def _to(game: cardkit.Game, phase: str) -> cardkit.Game:
    while game.view(None)["phase"] != phase:
        game = game.play(game.legal_actions()[0])
    return game


def test_a_bid_goes_back_with_the_bids_that_followed_it() -> None:
    start = _to(cardkit.new_game("wizard", players=3, seed=4), "bid")
    seat = start.to_act
    assert seat is not None
    game = start.play(start.legal_actions()[0])
    while game.to_act != seat and game.view(None)["phase"] == "bid":
        game = game.play(game.legal_actions()[-1])
    assert game.seat_actions - start.seat_actions >= 2, "other seats bid after it"
    with pytest.raises(IllegalActionError, match="came after it"):
        game.undo_seat(seat)  # the plain safe undo takes back one seat's move only
    assert game.undo_seat(seat, replies=True) == start


def test_a_card_played_face_up_by_another_seat_cannot_be_taken_back() -> None:
    start = _to(cardkit.new_game("wizard", players=3, seed=4), "play")
    seat = start.to_act
    assert seat is not None
    game = start.play(start.legal_actions()[0])  # the seat leads; the next seat follows
    game = game.play(game.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="hidden from you was shown to you") as info:
        game.undo_seat(seat, replies=True)
    assert info.value.seat == seat
    shown = game.last_entry.action.card  # type: ignore[union-attr]
    assert str(shown) not in str(info.value).split(), "the refusal never names the card"
    assert game.undo_seat(seat, safe=False, replies=True) == start


def test_another_seats_face_down_draw_goes_back_but_the_seats_own_draw_does_not() -> None:
    start = cardkit.new_game("crazy-eights", players=2, seed=3)
    seat = start.to_act
    assert seat is not None
    other = 1 - seat
    game = start.play(start.legal_actions()[0])  # a card, or a draw
    assert game.to_act == other, "seed 3: the first action is a card played"
    drawn = game.play(cardkit.games.crazy_eights.Draw(), seat=other)
    assert drawn.undo_seat(seat, replies=True) == start, "the other seat's hidden draw goes back too"
    own = start.play(cardkit.games.crazy_eights.Draw(), seat=seat)
    with pytest.raises(IllegalActionError, match="hidden from you"):
        own.undo_seat(seat, replies=True)


def test_replies_must_be_a_bool() -> None:
    game = _to(cardkit.new_game("wizard", players=3, seed=4), "bid")
    game = game.play(game.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="replies must be True or False"):
        game.undo_seat(game.last_entry.actor, replies=1)  # type: ignore[arg-type, union-attr]
