"""A game whose view depends on a concealed card without naming it (for the swap scan)."""

from __future__ import annotations

from typing import Any, Mapping

from custom_game import HighCardRules, HighCardState


class PeekingView(HighCardRules):
    """Tells every seat whether the next seat holds the highest card: no card is named,
    so only the indistinguishability scan can see the leak."""

    name = "peeking-view"

    def view(self, state: HighCardState, seat: int | None) -> Mapping[str, Any]:
        nxt = state.hands[((seat or 0) + 1) % state.config.players]
        best = max((c.rank for h in state.hands for c in h), default=0)
        return {**super().view(state, seat), "next_has_best": any(c.rank == best for c in nxt)}
