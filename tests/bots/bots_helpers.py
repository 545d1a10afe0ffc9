"""Random positions of every game, and states a seat cannot tell apart."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Iterator

import attrs

import cardkit
from cardkit.core.game import Game
from cardkit.core.rules import Zone
from cardkit.core.seat import SeatState

SHORT: dict[str, dict[str, Any]] = {
    "wizard": {"rounds": 5},
    "cutthroat-spades": {"max_hands": 3, "wins_needed": 1},
    "crazy-eights": {},
    "spacc-u-mazz": {},
}
GAMES = tuple(sorted(SHORT))


def positions(name: str, seed: int, count: int, players: int = 3) -> Iterator[Game]:
    """``count`` positions of one random game (a seat to act in each), spread along it."""
    rng = random.Random(seed)
    game = cardkit.new_game(name, players=players, seed=seed, **SHORT[name])
    found = 0
    while found < count and not game.is_over:
        if rng.random() < 0.25:
            found += 1
            yield game
        game = game.play(rng.choice(game.legal_actions()))


def concealed_cards(rules: Any, state: Any, seat: int) -> tuple[tuple[Zone, ...], Counter[Any]]:
    zones = rules.zones(state)
    hidden = Counter(c for z in zones if seat not in z.visible_to for c in z.cards)
    return zones, hidden


def permuted(rules: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """``state`` with the cards concealed from ``seat`` permuted among the concealed zones
    (sizes kept): a state the seat cannot tell from ``state`` by what it sees."""
    zones = rules.zones(state)
    hidden = [i for i, z in enumerate(zones) if seat not in z.visible_to]
    pool = [c for i in hidden for c in zones[i].cards]
    rng.shuffle(pool)
    new = list(zones)
    at = 0
    for i in hidden:
        size = len(zones[i].cards)
        new[i] = attrs.evolve(zones[i], cards=tuple(pool[at : at + size]))
        at += size
    return rules.with_zones(state, tuple(new))


def twin_seat_state(game: Game, seat: int, rng: random.Random) -> SeatState:
    """``seat``'s seat state in a :func:`permuted` state of ``game``: one it cannot tell
    from its own (the no-peek tests compare a bot's answers on the two)."""
    other = permuted(game.rules, game.state, seat, rng)
    return SeatState.of(game.rules, game.config, other, seat, game.events_for(seat))


def arrangement(rules: Any, state: Any, seat: int) -> tuple[Any, ...]:
    """Where the concealed cards are (zone by zone, as multisets for unordered hands)."""
    out = []
    for z in rules.zones(state):
        if seat not in z.visible_to:
            out.append((z.name, z.owner, z.cards if "stock" in z.name or z.name in ("deck", "pack_b") else tuple(sorted(z.cards, key=lambda c: c.sort_key))))
    return tuple(out)
