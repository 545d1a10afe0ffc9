"""A naive, mutable, plain-Python Crazy Eights: the yardstick for "what plain Python costs".

It plays cardkit's ``crazy-eights`` with its default options (one hand, draw one card,
no reshuffle, no action cards, one pack, 2-5 players) plus ``max_turns``, the way a
programmer would write it in an afternoon: one mutable object, cards as small integers,
lists changed in place, no log, no events, no validation of the actions it is given.

It makes the same choices as cardkit: ``legal_actions()`` lists the same actions in the
same order (cardkit's documented order), so a policy that picks an index plays the same
game on both; ``tests/benchmarks/test_naive_crazy_eights.py`` proves it in lock-step.
It draws no chance of its own: the first dealer and the shuffled pack are given (the
benchmark and the test feed it cardkit's chance outcomes, so the deals are identical).

Encoding: a card is ``suit * 16 + rank`` (suit 0..3 = S, H, D, C; rank 2..14, ace high),
so sorting the integers gives cardkit's display order. An action is an ``int``: a card
code plays that card; ``code | (suit + 1) << 6`` plays an 8 naming ``suit``; ``DRAW`` and
``PASS`` are constants.
"""

from __future__ import annotations

from typing import Final, Sequence

__all__ = ["DRAW", "PASS", "NaiveCrazyEights", "card_code", "describe_action"]

DRAW: Final = 1024
"""The action "draw one card from the stock"."""

PASS: Final = 1025
"""The action "pass"."""

_SUIT_LETTERS: Final = "SHDC"
_RANK_CHARS: Final = "23456789TJQKA"
_VALUE: Final = {8: 50, 10: 10, 11: 10, 12: 10, 13: 10, 14: 1}


def card_code(text: str) -> int:
    """The integer of a card given by its cardkit code (``"QS"`` -> ``0 * 16 + 12``)."""
    return _SUIT_LETTERS.index(text[1]) * 16 + _RANK_CHARS.index(text[0]) + 2


def describe_action(action: int) -> str:
    """cardkit's notation of ``action`` (``"play 8H S"``, ``"draw"``, ``"pass"``)."""
    if action == DRAW:
        return "draw"
    if action == PASS:
        return "pass"
    card = action & 63
    text = f"play {_RANK_CHARS[(card & 15) - 2]}{_SUIT_LETTERS[card >> 4]}"
    named = action >> 6
    return text if named == 0 else f"{text} {_SUIT_LETTERS[named - 1]}"


class NaiveCrazyEights:
    """One mutable game of default-option Crazy Eights, dealt from a given pack order.

    ``dealer`` is the first dealer's seat and ``order`` the shuffled pack as card codes,
    top first; the deal follows cardkit's convention (one card at a time from the
    dealer's left, 7 cards each with 2 players and 5 with more; the first card left is the
    starter, 8s buried at the bottom). ``blocked_rule`` is the Crazy Eights
    ``rules_version`` whose counting of passes to mirror: 1 counts every pass since the
    last card played; 2 and later count only passes without a draw that turn, and any turn
    spent drawing starts the count again.
    """

    __slots__ = (
        "players", "hands", "stock", "top", "active", "to_act", "drawn", "passes", "turns",
        "max_turns", "blocked_rule", "over", "scores", "winners", "player_actions",
    )  # fmt: skip

    def __init__(
        self,
        players: int,
        dealer: int,
        order: Sequence[int],
        max_turns: int = 1000,
        blocked_rule: int = 1,
    ) -> None:
        """Deal a new hand; see the class docs for the arguments."""
        size = 7 if players == 2 else 5
        hands: list[list[int]] = [[] for _ in range(players)]
        seat = dealer
        pos = 0
        while pos < size * players:
            seat = (seat + 1) % players
            hands[seat].append(order[pos])
            pos += 1
        rest = list(order[pos:])
        if any(c & 15 != 8 for c in rest):
            while rest[0] & 15 == 8:
                rest.append(rest.pop(0))
        starter = rest.pop(0)
        self.players = players
        self.hands = hands
        self.stock = rest  # top first
        self.top = starter
        self.active = starter >> 4
        self.to_act: int | None = (dealer + 1) % players
        self.drawn: int | None = None
        self.passes = 0
        self.turns = 0
        self.max_turns = max_turns
        self.blocked_rule = blocked_rule
        self.over = False
        self.scores: list[int] = [0] * players
        self.winners: list[int] = []
        self.player_actions = 0

    def _playable(self, card: int) -> bool:
        return card & 15 == 8 or card >> 4 == self.active or card & 15 == self.top & 15

    def legal_actions(self) -> list[int]:
        """The actions of the seat to act, in cardkit's order (empty once the game is over)."""
        if self.over:
            return []
        drawn = self.drawn
        if drawn is not None:
            if self._playable(drawn):
                if drawn & 15 == 8:
                    return [drawn | 64, drawn | 128, drawn | 192, drawn | 256, PASS]
                return [drawn, PASS]
            return [PASS]
        hand = self.hands[self.to_act]  # type: ignore[index]
        going_out = len(hand) == 1
        actions = []
        for card in sorted(hand):
            if card & 15 == 8:
                if going_out:
                    actions.append(card)
                else:
                    actions += (card | 64, card | 128, card | 192, card | 256)
            elif card >> 4 == self.active or card & 15 == self.top & 15:
                actions.append(card)
        if self.stock:
            actions.append(DRAW)
        elif not actions:
            actions.append(PASS)
        return actions

    def apply(self, action: int) -> None:
        """Play ``action`` for the seat to act (it must be one of :meth:`legal_actions`)."""
        seat = self.to_act
        assert seat is not None
        self.player_actions += 1
        limit = self.turns + 1 >= self.max_turns
        self.turns += 1
        if action == DRAW:
            card = self.stock.pop(0)
            self.hands[seat].append(card)
            self.drawn = card
            if self.blocked_rule >= 2:
                self.passes = 0
            if limit:
                self._end_hand(None)
            return
        if action == PASS:
            if self.blocked_rule >= 2 and self.drawn is not None:
                self.passes = 0
            else:
                self.passes += 1
            self.drawn = None
            self.to_act = (seat + 1) % self.players
            if (self.passes >= self.players and not self.stock) or limit:
                self._end_hand(None)
            return
        card = action & 63
        hand = self.hands[seat]
        hand.remove(card)
        self.top = card
        named = action >> 6
        self.active = named - 1 if named else card >> 4
        self.drawn = None
        self.passes = 0
        if not hand:
            self._end_hand(seat)
            return
        self.to_act = (seat + 1) % self.players
        if limit:
            self._end_hand(None)

    def _end_hand(self, winner: int | None) -> None:
        totals = [sum(_VALUE.get(c & 15, c & 15) for c in hand) for hand in self.hands]
        self.over = True
        self.to_act = None
        if winner is None:
            lowest = min(totals)
            holders = [seat for seat, total in enumerate(totals) if total == lowest]
            if len(holders) > 1:
                return  # a tie for lowest: a draw, nobody scores
            winner = holders[0]
            self.scores[winner] = sum(total - lowest for total in totals)
        else:
            self.scores[winner] = sum(totals)
        self.winners = [winner]
