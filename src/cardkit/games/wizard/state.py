"""The Wizard state: one immutable value holding everything (host side)."""

from __future__ import annotations

from typing import Final, Literal

import attrs

from cardkit.cards import Card, Suit, standard_deck
from cardkit.core.records import maker, replacer
from cardkit.games.wizard.config import WizardConfig

__all__ = ["WIZARD", "JESTER", "DECK", "Phase", "WizardState", "initial_state", "make_state", "replace"]

WIZARD: Final = Card("W")
"""A Wizard (rule 2): above every suited card, no suit."""

JESTER: Final = Card("N")
"""A Jester (rule 2): below every suited card, no suit."""

DECK: Final[tuple[Card, ...]] = (WIZARD,) * 4 + (JESTER,) * 4 + standard_deck()
"""The 60 cards in display order: 4 Wizards, 4 Jesters, then S, H, D, C from 2 to A.
This is also the card list of every round's ``ShuffleSpec``."""

Phase = Literal["pick", "deal", "trump", "bid", "play", "over"]
"""``pick``: chance picks the first dealer; ``deal``: chance shuffles for the next round;
``trump``: the dealer chooses trump; ``bid``; ``play``; ``over``."""


@attrs.frozen(weakref_slot=False)  # no __weakref__ slot: see cardkit.core.records
class WizardState:
    """Everything about a Wizard game.

    ``round`` is the round being played (0 before the first deal); ``dealer`` is -1
    before the first dealer is chosen; ``turn`` is the seat to act in ``trump``/``bid``/
    ``play``; ``hands`` are sorted in display order; ``stock`` holds the undealt cards
    (top first) except the turned card, which is ``turned``; ``won`` holds each seat's
    completed tricks of this round; ``history`` the points of every scored round.
    """

    config: WizardConfig
    phase: Phase
    round: int
    dealer: int
    turn: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    turned: Card | None
    trump: Suit | None
    bids: tuple[int | None, ...]
    tricks_won: tuple[int, ...]
    trick: tuple[tuple[int, Card], ...]
    last_trick: tuple[tuple[int, Card], ...]
    last_winner: int | None
    won: tuple[tuple[Card, ...], ...]
    scores: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]


make_state = maker(WizardState)
"""``make_state(...)``: ``WizardState(...)`` from every field in order, built cheaply."""
replace = replacer(WizardState)
"""``replace(state, field=value, ...)``: what ``attrs.evolve(state, ...)`` returns, built cheaply."""


def initial_state(config: WizardConfig) -> WizardState:
    """Before anything: every card in the (concealed) stock, chance picks the first dealer."""
    n = config.players
    return WizardState(
        config=config,
        phase="pick",
        round=0,
        dealer=-1,
        turn=-1,
        hands=((),) * n,
        stock=DECK,
        turned=None,
        trump=None,
        bids=(None,) * n,
        tricks_won=(0,) * n,
        trick=(),
        last_trick=(),
        last_winner=None,
        won=((),) * n,
        scores=(0,) * n,
        history=(),
    )
