"""One-line reasons for a search bot's actions (:meth:`cardkit.bots.ISMCTSBot.explain`).

A search knows how each action fared, not why; the reason is built from what a player
can check: the game's rule strategy (:data:`cardkit.bots.rule.HEURISTICS`) when the search
agrees with it (its reason, such as ``"bid 2: my Wizards, trumps and aces are worth about
2.1 tricks"``), else a phrase from the action itself (a bid: the tricks it expects; a Crazy
Eights play: whether it keeps an eight for later), then the searched figure
(``"wins about 61% in 840 deals searched"``: the mean payoff of the action over the searched deals, a rough chance of winning). Only the seat state is read.
"""

from __future__ import annotations

from typing import Any

from cardkit.bots.rule import HEURISTICS
from cardkit.core.seat import SeatState
from cardkit.errors import CardkitError

__all__ = ["action_phrase", "search_reason"]


def _rule_choice(seat_state: SeatState) -> tuple[Any, str] | None:
    heuristic = HEURISTICS.get(seat_state.rules.name)
    if heuristic is None:
        return None
    try:
        return heuristic(seat_state)
    except (CardkitError, LookupError, ValueError):  # a strategy that cannot judge this state
        return None


def action_phrase(seat_state: SeatState, action: Any) -> str | None:
    """What ``action`` does in a player's words, where its kind says it (else ``None``)."""
    tricks = getattr(action, "tricks", None)
    if isinstance(tricks, int) and not isinstance(tricks, bool):
        return f"expects to take {tricks} trick{'s' if tricks != 1 else ''}"
    card = getattr(action, "card", None)
    if seat_state.rules.name == "crazy-eights":
        hands = getattr(seat_state.masked, "hands", None)
        hand = list(hands[seat_state.seat]) if hands is not None else []
        eights = sum(1 for c in hand if getattr(c, "rank", None) == 8)
        if card is None:
            return "keeps every card: nothing it holds is worth playing now" if hand else None
        if getattr(card, "rank", None) == 8:
            suit = getattr(action, "suit", None)
            return f"plays an 8 now{f' and names {suit}' if suit is not None else ''}"
        if eights:
            return "keeps the 8 for later"
        return "sheds a card of the suit in play"
    hands = getattr(seat_state.masked, "hands", None)
    hand = list(hands[seat_state.seat]) if hands is not None and seat_state.seat < len(hands) else []
    suit = getattr(action, "suit", None)
    if card is None and suit is not None:  # naming a suit (a Wizard trump)
        held = sum(1 for c in hand if getattr(c, "suit", None) == suit)
        return f"names {suit}: holds {held} of them"
    rank = getattr(card, "rank", None)
    played_suit = getattr(card, "suit", None)
    if isinstance(rank, int) and played_suit is not None:
        ranks = [c.rank for c in hand if getattr(c, "suit", None) == played_suit and isinstance(getattr(c, "rank", None), int)]
        if len(ranks) > 1 and rank == max(ranks):
            return "its highest card of that suit"
        if len(ranks) > 1 and rank == min(ranks):
            return "its lowest card of that suit, keeping the higher ones"
    return None


def search_reason(seat_state: SeatState, action: Any, value: float, visits: int) -> str:
    """The one-line reason of a searched ``action`` (see the module docs)."""
    figure = f"wins about {round(100 * value)}% in {visits} deals searched" if visits else "not searched"
    rule = _rule_choice(seat_state)
    if rule is not None and rule[0] == action:
        return f"{rule[1]}; {figure}"
    phrase = action_phrase(seat_state, action)
    head = str(action)  # plain text, as the rule strategy's reasons (a host may colour it)
    return f"{head}: {phrase}; {figure}" if phrase else f"{head}: {figure}"
