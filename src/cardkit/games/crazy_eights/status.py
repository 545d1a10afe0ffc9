"""The Crazy Eights table for people: a view as sentences and a per-seat table
(``CrazyEightsRules.status``; laid out by ``cardkit play``, reusable by any surface)."""

from __future__ import annotations

from typing import Any, Mapping

from cardkit.cards import Card
from cardkit.render import SUIT_NAMES, SUIT_SYMBOLS, Status, Table, card_text, count_text, seat_label

__all__ = ["status"]


def _order(players: int, start: int, direction: int) -> str:
    seats = [(start + direction * k) % players for k in range(players)]
    return "→".join(str(s) for s in seats)  # no spaces: a line never breaks inside it


def status(view: Mapping[str, Any], names: Mapping[int, str] | None = None) -> Status:
    """Sentences (the top card, the suit to play, draws pending, the order of play, the
    stock) and a table (cards held, scores) for a Crazy Eights view."""
    viewer = view.get("seat")
    players = int(view["players"])
    to_act = view.get("to_act")
    points = view.get("mode") == "points"
    sentences: list[str] = []
    if points:
        target = view.get("target")
        sentences.append(
            f"Hand {view['hand_number']} of a match to {target} points; seat {view['dealer']} dealt."
        )
    elif view.get("dealer") is not None:
        sentences.append(f"One hand; seat {view['dealer']} dealt.")
    top = view.get("top_card")
    suit = view.get("active_suit")
    if top is not None:
        text = f"Top card: {card_text(Card.parse(top))}"
        if suit is not None:
            named = " (named by the eight)" if Card.parse(top).suit != suit else ""
            text += f"; the suit to play is {SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}{named}"
        sentences.append(text + ".")
    pending = int(view.get("pending_draw") or 0)
    if pending:
        who = "The next player" if to_act is None else seat_label(to_act, viewer, names)
        sentences.append(
            f"{who} must play a 2 (adding two to the draw) or draw {count_text(pending, 'card')}."
        )
    if view.get("drawn") is not None:
        sentences.append(f"You drew {card_text(Card.parse(view['drawn']))}: play it or pass.")
    if isinstance(to_act, int) and view.get("phase") == "play":
        sentences.append(f"Order of play: {_order(players, to_act, int(view.get('direction') or 1))}.")
    sentences.append(
        f"Stock: {count_text(int(view['stock_size']), 'card')}; discard pile: "
        f"{count_text(int(view['discard_size']), 'card')}."
    )
    header = ["seat", "cards", "score"]
    revealed = view.get("revealed_hands")
    rows = []
    for s in range(players):
        row = [seat_label(s, viewer, names), str(view["hand_sizes"][s]), str(view["scores"][s])]
        if points:
            row.append(str(view["hand_points"][s]))
        if revealed is not None:
            row.append(" ".join(card_text(Card.parse(c)) for c in revealed[s]) or "—")
        rows.append(tuple(row))
    if points:
        header.append("last hand")
    if revealed is not None:
        header.append("cards left")
    numeric = (False, True, True, *([True] if points else []), *([False] if revealed is not None else []))
    return Status(tuple(sentences), (Table("", tuple(header), tuple(rows), numeric),))
