"""The fixed action index of Cutthroat Spades (``CutthroatSpadesRules.action_space``)."""

from __future__ import annotations

from cardkit.cards import sort_cards
from cardkit.games.cutthroat_spades.actions import Action, Bid, Look, Play, SpecialBid
from cardkit.games.cutthroat_spades.config import CutthroatConfig
from cardkit.games.cutthroat_spades.layout import layout_of

__all__ = ["action_space"]


def action_space(config: CutthroatConfig) -> tuple[Action, ...]:
    """``look``, ``bid blind-nil``, ``bid b6``, ``bid 1..T`` (T: the most cards a hand can
    hold under ``config``), ``bid nil``, ``bid 1f``, ``bid 2f``, ``bid moon``, then ``play C``
    for every card of the configuration's pack in display order."""
    layout = layout_of(config)
    bids: tuple[Action, ...] = (Look(), SpecialBid("blind_nil"), SpecialBid("blind_six"))
    bids += tuple(Bid(t) for t in range(1, layout.tricks + 1))
    bids += tuple(SpecialBid(k) for k in ("nil", "one_for_fifty", "two_for_forty", "moon"))
    return bids + tuple(Play(c) for c in sort_cards(tuple(set(layout.cards))))
