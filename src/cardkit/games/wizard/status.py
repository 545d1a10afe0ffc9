"""The Wizard table for people: a view as sentences and a per-seat table
(``WizardRules.status``; laid out by ``cardkit play``, reusable by any surface)."""

from __future__ import annotations

from typing import Any, Mapping

from cardkit.cards import Card
from cardkit.games._trick_text import trick_text
from cardkit.render import SUIT_NAMES, SUIT_SYMBOLS, Status, Table, card_text, seat_label, signed

__all__ = ["status"]


def status(view: Mapping[str, Any], names: Mapping[int, str] | None = None) -> Status:
    """Sentences (the round, trumps, the trick in play, the last trick, a forbidden bid)
    and a table (cards held, bids, tricks, scores, the last round's points) for a Wizard view."""
    viewer = view.get("seat")
    players = int(view["players"])
    sentences: list[str] = []
    if view.get("dealer") is not None:
        sentences.append(f"Round {view['round']} of {view['rounds']}; seat {view['dealer']} dealt.")
    turned = view.get("turned_card")
    trump = view.get("trump")
    if turned is None:
        if view.get("phase") in ("bid", "play"):
            sentences.append("No card was turned (the last round): no trumps.")
    else:
        card = card_text(Card.parse(turned))
        if trump is not None:
            why = f"seat {view['dealer']} chose them: a Wizard was turned" if turned == "W" else f"{card} turned"
            sentences.append(f"Trumps: {SUIT_SYMBOLS[trump]} {SUIT_NAMES[trump]} ({why}).")
        elif turned == "N":
            sentences.append("A Jester was turned: no trumps.")
        elif view.get("phase") == "trump":
            sentences.append(f"A Wizard was turned: seat {view['dealer']} names trumps.")
        else:
            sentences.append(f"{card} turned: no trumps.")
    trick = view.get("trick") or []
    if trick:
        text = "Trick: " + trick_text(trick, viewer, names)
        led = view.get("suit_to_follow")
        if led is not None:
            text += f"; follow {SUIT_SYMBOLS[led]} {SUIT_NAMES[led]} if you can"
        winner = view.get("trick_winner")
        if winner is not None:
            text += f"; {'you are' if winner == viewer else f'seat {winner} is'} winning it"
        sentences.append(text + ".")
    elif view.get("last_trick"):
        won = view.get("last_trick_winner")
        who = "you" if won == viewer else f"seat {won}"
        sentences.append(f"Last trick: {trick_text(view['last_trick'], viewer, names)}; {who} won it.")
    banned = view.get("forbidden_bid")
    if banned is not None and view.get("phase") == "bid":
        sentences.append(
            f"Seat {view['dealer']} (the dealer) may not bid {banned}: the bids would add up to "
            "the cards dealt."
        )
    rounds = view.get("round_points") or []
    last = rounds[-1] if rounds else None
    rows = []
    for s in range(players):
        bid = view["bids"][s]
        rows.append((
            seat_label(s, viewer, names),
            str(view["hand_sizes"][s]),
            "—" if bid is None else str(bid),
            str(view["tricks_won"][s]),
            str(view["scores"][s]),
            *([signed(int(last[s]))] if last is not None else []),
        ))  # fmt: skip
    header = ("seat", "cards", "bid", "tricks", "score", *(["last round"] if last is not None else []))
    return Status(tuple(sentences), (Table("", header, tuple(rows), (False,) + (True,) * (len(header) - 1)),))
