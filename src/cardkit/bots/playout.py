"""Playout policies and cut-off evaluations for :class:`~cardkit.bots.ISMCTSBot`.

A playout runs on full (determinized) states, so these functions may read the whole
state: they belong to the search, not to the deciding seat. Every built-in game's playout
plays that game's rule strategy (:mod:`cardkit.bots.heuristics`) for the seat to act, with
a share :data:`EPSILON` of uniformly random moves (:func:`rule_policy`): uniformly random
playouts bid and play at random, which makes every bid and every bid-making play look
alike, and random shedding players draw and pick up the pile for ever. Other games play
uniformly at random.
"""

from __future__ import annotations

import math
import random
from operator import attrgetter
from typing import Any, Callable, Sequence

from cardkit.bots.heuristics import crazy_eights, cutthroat_spades, spacc_u_mazz, wizard

__all__ = [
    "POLICIES", "POLICY_EPSILONS", "EVALUATIONS", "HORIZONS", "HAND_VALUES", "EPSILON", "WIZARD_EPSILON", "WIZARD_SPREAD",
    "prefer_plays", "crazy_eights_policy", "fewest_cards", "rule_policy", "lead_chances",
    "wizard_hand_value", "OPPONENT_MODELS", "OPPONENT_MODEL_NAMES",
]  # fmt: skip

Policy = Callable[[Any, Sequence[Any], random.Random], Any]
Evaluation = Callable[[Any], list[float]]
HandValue = Callable[[Any, Any, int], list[float]]


def prefer_plays(state: Any, legal: Sequence[Any], rng: random.Random) -> Any:
    """A random action among those that play a card (``play ...``), else any random action."""
    plays = [a for a in legal if type(a).__name__ == "Play"]
    pool = plays if plays else legal
    return pool[rng.randrange(len(pool))]


def crazy_eights_policy(state: Any, legal: Sequence[Any], rng: random.Random) -> Any:
    """A plausible Crazy Eights player: a random non-eight play if any, else an eight naming
    the suit it holds most of, else draw (or pass): opponents in a playout that waste
    their eights would make every move look better than it is."""
    plain: list[Any] = []
    eights: list[Any] = []
    for a in legal:
        if type(a).__name__ == "Play":
            (eights if a.card.rank == 8 else plain).append(a)
    if plain:
        return plain[rng.randrange(len(plain))]
    if eights:
        hand = state.hands[state.to_act]
        counts: dict[Any, int] = {}
        for card in hand:
            if card.rank != 8:
                counts[card.suit] = counts.get(card.suit, 0) + 1
        best = max(counts, key=lambda s: counts[s]) if counts else None
        for a in eights:
            if a.suit == best or best is None:
                return a
        return eights[0]
    return legal[rng.randrange(len(legal))]


EPSILON = 0.1
"""Share of the playout moves made uniformly at random by :func:`rule_policy`."""


WIZARD_EPSILON = 0.2
"""The random share of Wizard playouts: one move in five (see :data:`WIZARD_SPREAD` for
how it was chosen)."""


def rule_policy(
    decide: Callable[[Any, int, Sequence[Any]], tuple[Any, Any]],
    seat_field: str,
    epsilon: float = EPSILON,
) -> Policy:
    """A playout policy that plays the game's rule strategy (``decide``, see
    :mod:`cardkit.bots.heuristics`) for the seat to act (``getattr(state, seat_field)``),
    and a uniformly random legal action with probability ``epsilon``.

    Every seat of a playout plays sensibly, so a move is judged by what follows against
    sensible play (random opponents in a playout bid and play at random, which makes bids
    and bid-making plays look arbitrary); the random share keeps the playouts varied."""
    getter = attrgetter(seat_field)

    def policy(state: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        if rng.random() < epsilon:
            return legal[rng.randrange(len(legal))]
        return decide(state, getter(state), legal)[0]

    return policy


def _rank_share(values: Sequence[float]) -> list[float]:
    n = len(values)
    out = []
    for v in values:
        below = sum(1 for w in values if w < v)
        ties = sum(1 for w in values if w == v)
        out.append((below + (ties - 1) / 2) / (n - 1) if n > 1 else 1.0)
    return out


def fewest_cards(state: Any) -> list[float]:
    """Payoffs by cards still held (fewer is better), as rank shares in [0, 1]."""
    held = []
    for seat, hand in enumerate(state.hands):
        count = len(hand)
        for extra in ("face_up", "face_down"):
            more = getattr(state, extra, None)
            if more is not None:
                count += len(more[seat])
        held.append(-float(count))
    return _rank_share(held)


def lead_chances(scores: Sequence[float], spread: float) -> list[float]:
    """Each seat's chance of finishing ahead, guessed from its lead: the logistic of its
    score minus the best other score, in units of ``spread`` (0.5 when level with the best
    other seat; near 1 when far ahead; near 0 when far behind)."""
    out = []
    for seat, mine in enumerate(scores):
        best_other = max((t for i, t in enumerate(scores) if i != seat), default=mine)
        z = (mine - best_other) / spread
        out.append(1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0)
    return out


WIZARD_SPREAD = 15.0
"""Points of lead that count as one logistic unit with one round left in Wizard
(:func:`wizard_hand_value`); the unit grows with the square root of the rounds left.

How it and :data:`WIZARD_EPSILON` were chosen: ISMCTS-1000 against two RuleBots in 5-round
Wizard, arena seeds 5000 and 5001 (90 games each, apart from the strength table's seeds),
same games for every setting. Half rank and half place after a round (the earlier payoff),
random share 0.1: 0.522 over 180 games. Lead chances with a 15-point unit: 0.580 at a
random share of 0.1, 0.611 at 0.2, 0.550 at 0.3, 0.533 at 0.03 (180 games each). On seed
5000 alone at 0.1: an 8-point unit 0.522, 15 points 0.572, 25 points 0.583. Playouts to
the end of the game instead of the end of the round (seed 5000, 90 games): 0.531 against
the earlier payoff's 0.511, at 2.8 times the CPU. Each figure is good to about +-0.07
(90 games) or +-0.05 (180), so these pick a setting; they do not rank close ones. On
the strength table's seeds (4000-4009, held out from the choice) the chosen setting gave
0.528 over 300 games against the earlier search's 0.549: no measurable gain there."""


def wizard_hand_value(rules: Any, state: Any, players: int) -> list[float]:
    """Wizard payoffs after a scored round that did not end the game:
    :func:`lead_chances` of the scores, with a spread of :data:`WIZARD_SPREAD` points times
    the square root of the rounds left plus one (a lead is worth less the more rounds can
    overturn it). Only the winner of a Wizard game counts, so a round is judged by the
    chance of winning it leaves, not by its points: 20 points that put a seat 5 ahead are
    worth more than 20 that leave it 40 behind."""
    left = max(0, int(state.config.rounds) - int(state.round))
    return lead_chances(rules.scores(state), WIZARD_SPREAD * math.sqrt(left + 1))


POLICY_EPSILONS: dict[str, float] = {
    "crazy-eights": EPSILON,
    "cutthroat-spades": EPSILON,
    "spacc-u-mazz": EPSILON,
    "wizard": WIZARD_EPSILON,
}
"""Game name → the random share of its playout policy (:data:`POLICIES`; a game kernel's
``policy_action`` takes the same share)."""

POLICIES: dict[str, Policy] = {
    "crazy-eights": rule_policy(crazy_eights.decide, "to_act", POLICY_EPSILONS["crazy-eights"]),
    "cutthroat-spades": rule_policy(cutthroat_spades.decide, "turn", POLICY_EPSILONS["cutthroat-spades"]),
    "spacc-u-mazz": rule_policy(spacc_u_mazz.decide, "to_act", POLICY_EPSILONS["spacc-u-mazz"]),
    "wizard": rule_policy(wizard.decide, "turn", POLICY_EPSILONS["wizard"]),
}
"""Game name → playout policy (default: uniformly random)."""

EVALUATIONS: dict[str, Evaluation] = {
    "crazy-eights": fewest_cards,
    "spacc-u-mazz": fewest_cards,
}
"""Game name → payoffs of a playout cut off by the step limit (default: from the scores)."""

HORIZONS: dict[str, int] = {
    "spacc-u-mazz": 40,
}
"""Game name → default playout step limit where a hand is long and a step is costly
(a Spacc 'u Mazz hand lasts hundreds of turns; 40 steps, about 13 turns each, and then
the cards held decide). Other games play out to the end of the hand (limit 400)."""

HAND_VALUES: dict[str, HandValue] = {
    "wizard": wizard_hand_value,
}
"""Game name → payoffs ``(rules, state, players)`` of a playout that stopped after a
scored hand of a game that goes on (default: :func:`cardkit.bots.ismcts.payoffs`, half
rank and half place between the lowest and highest score)."""

OPPONENT_MODEL_NAMES: tuple[str, ...] = ("search", "policy")
"""The values of :class:`~cardkit.bots.ISMCTSBot`'s ``opponents`` (and of a bot spec's
fourth field)."""

OPPONENT_MODELS: dict[str, str] = {
    "spacc-u-mazz": "policy",
    "wizard": "policy",
}
"""Game name → how :class:`~cardkit.bots.ISMCTSBot` moves the other seats inside its tree
when its ``opponents`` argument is not given: ``"search"`` (the default: their moves are
chosen by UCB on their own statistics, as plain SO-ISMCTS does) or ``"policy"`` (they play
the game's playout policy, :data:`POLICIES`). In Spacc 'u Mazz an opponent's node offers
the whole pile (``take``) and every draw, and UCB tries each of them in turn: searched
opponents pick up the pile far more often than any sensible player, and every move looks
better than it is. In Wizard the model pays only together with determinizations weighed by
the same strategy (:data:`cardkit.bots.beliefs.BELIEF_MODELS`): each alone gained nothing
measurable (see docs/bots.md, *Strength*)."""
