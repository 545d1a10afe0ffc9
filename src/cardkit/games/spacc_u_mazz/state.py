"""The Spacc 'u Mazz state: everything, host side."""

from __future__ import annotations

from typing import Literal

import attrs

from cardkit.cards import Card
from cardkit.core.records import maker, replacer
from cardkit.core.rules import Result
from cardkit.games.spacc_u_mazz.config import SpaccConfig

__all__ = ["SpaccState", "Phase", "make_state", "replace"]

Phase = Literal[
    "first_dealer", "deal", "deal_face_down", "deal_reserve", "play", "next_hand", "over"
]
"""The phase of a hand: the three chance deals, ``play``, ``next_hand`` (between hands) or ``over``."""


@attrs.frozen(weakref_slot=False)  # no __weakref__ slot: see cardkit.core.records
class SpaccState:
    """Full state of a Spacc 'u Mazz game.

    * ``phase``: ``first_dealer`` (Pick pending), ``deal`` / ``next_hand`` (shuffle of pack A
      pending), ``deal_face_down`` (shuffle of the rest of pack A with the jokers),
      ``deal_reserve`` (shuffle of pack B), ``play``, ``over``.
    * ``dealer`` is -1 before the first Pick; ``to_act`` is the seat to act in ``play``.
    * ``pending`` is ``""``, or ``"dump"`` / ``"remove"`` while ``to_act`` decides what its
      red joker does (rules 19-20).
    * ``turns`` counts the completed turns of the current hand (rule 23); a red joker's
      decision belongs to the turn that turned the joker up (rule 20), it adds none.
    * ``deck`` (pack A), ``jokers`` and ``pack_b`` hold the cards not yet dealt this hand.
    * ``hands`` and ``face_up`` are sorted; ``face_down`` is in position order (first = 1).
    * ``pile`` is bottom first; ``reference`` is a rank 3..14, or 0 for none (rule 9).
    * ``main_stock`` and ``reserve_stock`` are top first; the last ``main_known`` cards of
      the main stock are starting cards buried face up at its bottom (rule 5), known to all.
    * ``places`` are the seats out so far, best first (the whole order once the hand ended).
    * ``revealed`` is true from the end of a hand to the next deal: every card is shown.
    * ``totals`` are the match scores; ``hand_points`` the points of the last scored hand.
    * ``known`` per seat: the cards of its hand that every seat saw go there (a pile picked
      up, a failed blind card, a buried starter drawn), sorted; a sub-multiset of the hand.
    """

    config: SpaccConfig
    phase: Phase
    hand_number: int
    dealer: int
    to_act: int
    pending: str
    turns: int
    deck: tuple[Card, ...]
    jokers: tuple[Card, ...]
    pack_b: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]
    face_up: tuple[tuple[Card, ...], ...]
    face_down: tuple[tuple[Card, ...], ...]
    pile: tuple[Card, ...]
    reference: int
    main_stock: tuple[Card, ...]
    main_known: int
    reserve_stock: tuple[Card, ...]
    removed: tuple[Card, ...]
    places: tuple[int, ...]
    revealed: bool
    totals: tuple[int, ...]
    hand_points: tuple[int, ...]
    result: Result | None
    known: tuple[tuple[Card, ...], ...]

    def holds_cards(self, seat: int) -> bool:
        """True while ``seat`` has a card in hand, face up or face down (rule 22)."""
        return bool(self.hands[seat] or self.face_up[seat] or self.face_down[seat])

    def main_top_is_buried(self) -> bool:
        """True when the next card of the main stock is a starting card buried face up
        at its bottom (rule 5): everyone saw it, so drawing it reveals nothing."""
        return 0 < len(self.main_stock) <= self.main_known


make_state = maker(SpaccState)
"""``make_state(...)``: ``SpaccState(...)`` from every field in order, built cheaply."""
replace = replacer(SpaccState)
"""``replace(state, field=value, ...)``: what ``attrs.evolve(state, ...)`` returns, built cheaply."""

