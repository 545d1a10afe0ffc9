"""The Cutthroat Spades table for people: a view as sentences and a per-seat table
(``CutthroatSpadesRules.status``), and what the special bids mean where bids are listed
(``CutthroatSpadesRules.action_notes``). Laid out by ``cardkit play``, reusable by any surface."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from cardkit.cards import Card
from cardkit.games._trick_text import trick_text
from cardkit.render import Status, Table, card_text, seat_label

__all__ = ["status", "action_notes", "BID_NOTES", "bid_cell"]

BID_NOTES: Mapping[str, str] = {
    "nil": "bid nil: take no trick (+100; -100 if you take one)",
    "blind-nil": "bid blind-nil: nil without looking at your hand (+200 or -200)",
    "b6": "bid b6: blind six, six tricks or more without looking at your hand "
          "(+100 and bags over six; -100)",
    "1f": "bid 1f: one for fifty, take exactly one trick (+50; more: +10 and bags; none: -50)",
    "2f": "bid 2f: two for forty, take exactly two tricks (+40; more: +20 and bags; fewer: -40)",
    "moon": "bid moon: shoot the moon, take {moon} tricks or more (+150; fewer: -150)",
}  # fmt: skip
"""What each special bid's notation means (``{moon}``: the tricks the moon needs)."""

_SHORT = {
    "nil": "nil",
    "blind_nil": "blind nil",
    "blind_six": "blind 6",
    "one_for_fifty": "1 for 50",
    "two_for_forty": "2 for 40",
    "moon": "moon",
}


def bid_cell(bid: Mapping[str, Any] | None) -> str:
    """A bid in a few characters: ``3``, ``nil``, ``1 for 50``, ``moon (14)``, ``—``."""
    if bid is None:
        return "—"
    kind = str(bid["kind"])
    if kind == "normal":
        return str(bid["tricks"])
    if kind == "moon":
        return f"moon ({bid['tricks']})"
    return _SHORT.get(kind, kind)


def action_notes(actions: Iterable[object], view: Mapping[str, Any]) -> tuple[str, ...]:
    """One line per special bid among ``actions`` (the legal actions of ``view``'s seat),
    saying what it means and what it scores."""
    from cardkit.games.cutthroat_spades.scoring import moon_threshold

    seat = view.get("seat")
    tricks = int(view["hand_sizes"][seat]) if isinstance(seat, int) else 0
    notes = []
    for action in actions:
        word, _, rest = str(action).partition(" ")
        if word == "bid" and rest in BID_NOTES:
            moon = moon_threshold(tricks) if tricks else 14
            notes.append(BID_NOTES[rest].format(moon=moon))
    return tuple(notes)


def status(view: Mapping[str, Any], names: Mapping[int, str] | None = None) -> Status:
    """Sentences (game and hand, spades broken, the trick in play or the last trick) and a
    table (cards held, bids, tricks, bags, scores, games won) for a Cutthroat Spades view."""
    viewer = view.get("seat")
    players = int(view["players"])
    sentences = [
        f"Game {view['game_number']}, hand {view['hand_number']}"
        + (f"; seat {view['dealer']} dealt" if view.get("dealer") is not None else "")
        + f". {view['target']} points win a game"
        + (f" (or the lead after {view['max_hands']} hands)" if view.get("max_hands") else "")
        + f"; {view['wins_needed']} games win the tournament."
    ]
    removed = view.get("removed") or []
    if removed:
        sentences.append("Out of play: " + " ".join(card_text(Card.parse(c)) for c in removed) + ".")
    if view.get("phase") == "play":
        sentences.append("Spades are broken." if view.get("spades_broken") else "Spades are not broken yet.")
    trick = view.get("trick") or []
    if trick:
        winner = view.get("trick_winner")
        who = "you are" if winner == viewer else f"seat {winner} is"
        sentences.append(f"Trick: {trick_text(trick, viewer, names)}; {who} winning it.")
    elif view.get("last_trick"):
        sentences.append(f"Last trick: {trick_text(view['last_trick'], viewer, names)}.")
    if view.get("tie_continues"):
        sentences.append("The game was tied at the top: another hand is played.")
    rows = []
    for s in range(players):
        bid = view["bids"][s]
        cell = bid_cell(bid)
        if bid is None and view.get("phase") == "bid" and not view["looked"][s]:
            cell = "not looked"
        rows.append((
            seat_label(s, viewer, names), str(view["hand_sizes"][s]), cell, str(view["tricks_won"][s]),
            str(view["bags"][s]), str(view["scores"][s]), str(view["tokens"][s]),
        ))  # fmt: skip
    header = ("seat", "cards", "bid", "tricks", "bags", "score", "games")
    numeric = (False, True, False, True, True, True, True)
    return Status(tuple(sentences), (Table("", header, tuple(rows), numeric),))
