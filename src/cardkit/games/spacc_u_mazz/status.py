"""The Spacc 'u Mazz table for people: a view as sentences and a per-seat table
(``SpaccUMazzRules.status``; laid out by ``cardkit play``, reusable by any surface)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from cardkit.cards import Card
from cardkit.render import Status, Table, card_text, count_text, hand_text, seat_label

__all__ = ["status"]

_RANK_NAMES = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def _cards(codes: Sequence[str]) -> str:
    return " ".join(card_text(Card.parse(c)) for c in codes) if codes else "—"


def status(view: Mapping[str, Any], names: Mapping[int, str] | None = None) -> Status:
    """Sentences (the pile and its reference rank, the stocks, a red joker's pending
    decision, who is out) and a table (hand, face-up, face-down and known cards, points)
    for a Spacc 'u Mazz view."""
    viewer = view.get("seat")
    players = int(view["players"])
    sentences: list[str] = []
    match = view.get("target_score")
    head = f"Hand {view['hand_number']}"
    if view.get("dealer") is not None:
        head += f"; seat {view['dealer']} dealt"
    head += f"; a match to {match} points." if match is not None else " (a one-hand game)."
    sentences.append(head)
    pile = view.get("pile") or []
    if pile:
        top = card_text(Card.parse(pile[-1]))
        shown = pile[-6:]
        more = f"{count_text(len(pile) - len(shown), 'card')} under " if len(pile) > len(shown) else ""
        sentences.append(f"Pile ({count_text(len(pile), 'card')}): {more}{hand_text(shown)}; {top} on top.")
    elif view.get("phase") == "play":
        sentences.append("The pile is empty.")
    reference = view.get("reference")
    if view.get("phase") == "play":
        if reference is None:
            sentences.append("No reference rank: any card may be played.")
        else:
            rank = _RANK_NAMES.get(str(reference), str(reference))
            sentences.append(f"Reference rank: {rank}; play that rank or higher (a 2 or a 10 goes on anything).")
    stock = f"Main stock: {count_text(int(view['main_stock_size']), 'card')}"
    buried = view.get("main_stock_buried") or []
    if buried:
        stock += f" ({_cards(buried)} face up at the bottom)"
    sentences.append(f"{stock}; reserve stock: {count_text(int(view['reserve_stock_size']), 'card')}.")
    pending = view.get("pending")
    to_act = view.get("to_act")
    if pending and isinstance(to_act, int):
        who = seat_label(to_act, viewer, names)
        choice = (
            "throw the whole hand onto the pile, or keep it"
            if pending == "dump"
            else "remove a face-up or face-down card from the game, or decline"
        )
        sentences.append(f"{who} turned up the red joker and decides: {choice}.")
    places = view.get("places") or []
    if places:
        sentences.append("Out so far, best first: " + ", ".join(seat_label(s, viewer, names) for s in places) + ".")
    known = view.get("known") or [[] for _ in range(players)]
    revealed = view.get("revealed_hands")
    rows = []
    for s in range(players):
        hand = _cards(revealed[s]) if revealed is not None else str(view["hand_sizes"][s])
        rows.append((
            seat_label(s, viewer, names),
            hand,
            _cards(view["face_up"][s]),
            str(view["face_down_counts"][s]),
            _cards(known[s]),
            str(view["scores"][s]),
        ))  # fmt: skip
    # "known": the cards of that hand every seat saw (a pile taken, a failed blind card)
    header = ("seat", "hand", "face up", "face down", "known", "score")
    numeric = (False, revealed is None, False, True, False, True)
    return Status(tuple(sentences), (Table("", header, tuple(rows), numeric),))
