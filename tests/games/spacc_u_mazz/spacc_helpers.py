"""Helpers for the Spacc 'u Mazz tests: stacked decks and hand-built states."""

from __future__ import annotations

from typing import Any, Sequence

import cardkit
from cardkit import Card, Game, Pick, Shuffle, parse_cards, sort_cards
from cardkit.core.table import seats_from
from cardkit.games.spacc_u_mazz.rules import JOKERS, PACK, RULES
from cardkit.games.spacc_u_mazz.state import SpaccState, replace

NAME = "spacc-u-mazz"


def cards(text: str) -> tuple[Card, ...]:
    """``"9S 9H"`` -> cards."""
    return parse_cards(text)


def _take(pool: list[Card], wanted: Sequence[Card]) -> None:
    for card in wanted:
        pool.remove(card)


def interleave(dealer: int, packets: Sequence[Sequence[Card]], size: int) -> list[Card]:
    """The top of a stacked order dealing ``packets[seat]`` by the dealing convention."""
    n = len(packets)
    out: list[Card] = []
    for r in range(size):
        for seat in seats_from((dealer + 1) % n, n):
            out.append(packets[seat][r])
    return out


def stacked(
    players: int,
    dealer: int = 0,
    hands: Sequence[str] | None = None,
    ups: Sequence[str] | None = None,
    downs: Sequence[str] | None = None,
    top: str = "",
    reserve_top: str = "",
    **options: Any,
) -> Game:
    """A game whose first hand is dealt from stacked packs.

    ``hands``/``ups``/``downs`` per seat (None: filled from the unused cards in pack order);
    ``top``: the cards of pack A (+ jokers) after the face-down deal, top first (the
    starting card candidates, then the main stock); ``reserve_top``: top of pack B.
    """
    game = cardkit.new_game(NAME, players=players, seed=0, auto_chance=False, **options)
    game = game.play(Pick(dealer))
    given_hands = [cards(h) for h in hands] if hands is not None else [()] * players
    given_ups = [cards(u) for u in ups] if ups is not None else [()] * players
    given_downs = [cards(d) for d in downs] if downs is not None else [()] * players
    top_cards = cards(top)
    pool_a = list(PACK) + list(JOKERS)
    for group in (*given_hands, *given_ups, *given_downs, top_cards):
        _take(pool_a, group)
    plain = [c for c in pool_a if c.suit is not None]

    def fill(given: tuple[Card, ...], size: int) -> tuple[Card, ...]:
        extra = plain[: size - len(given)]
        del plain[: size - len(given)]
        for card in extra:
            pool_a.remove(card)
        return given + tuple(extra)

    hand_packets = [fill(h, 5) for h in given_hands]
    up_packets = [fill(u, 3) for u in given_ups]
    order1 = interleave(dealer, hand_packets, 5) + interleave(dealer, up_packets, 3)
    rest1 = [c for c in PACK]
    _take(rest1, order1)
    game = game.play(Shuffle(tuple(order1 + rest1)))
    spec = list(game.pending_chance().cards)  # type: ignore[union-attr]
    down_packets = []
    for d in given_downs:
        down_packets.append(d)
    for seat, d in enumerate(down_packets):
        if len(d) < 3:
            extra = tuple(c for c in pool_a if c.suit is not None and c.rank != 10)[: 3 - len(d)]
            _take(pool_a, extra)
            down_packets[seat] = d + extra
    order2 = interleave(dealer, down_packets, 3) + list(top_cards)
    rest2 = list(spec)
    _take(rest2, order2)
    game = game.play(Shuffle(tuple(order2 + rest2)))
    top_b = cards(reserve_top)
    rest3 = list(PACK)
    _take(rest3, top_b)
    return game.play(Shuffle(tuple(top_b) + tuple(rest3)))


def table(
    players: int = 2,
    *,
    hands: Sequence[str],
    ups: Sequence[str] | None = None,
    downs: Sequence[str] | None = None,
    pile: str = "",
    ref: str | None | bool = True,
    main: str = "",
    reserve: str = "",
    to_act: int = 0,
    dealer: int | None = None,
    places: tuple[int, ...] = (),
    removed: str = "",
    pending: str = "",
    turns: int = 0,
    totals: tuple[int, ...] | None = None,
    **options: Any,
) -> SpaccState:
    """A play-phase state built by hand (``ref=True``: the reference follows the pile top)."""
    cfg = RULES.config(players, **options)
    base = RULES.initial_state(cfg)
    pile_cards = cards(pile)
    if ref is True:
        reference = 0
        if pile_cards and pile_cards[-1].rank != 2:
            reference = pile_cards[-1].rank
    elif ref is None or ref is False:
        reference = 0
    else:
        reference = Card.parse(ref + "S").rank
    return replace(
        base,
        phase="play",
        hand_number=1,
        dealer=(to_act - 1) % players if dealer is None else dealer,
        to_act=to_act,
        pending=pending,
        turns=turns,
        deck=(),
        jokers=(),
        pack_b=(),
        hands=tuple(sort_cards(cards(h)) for h in hands),
        face_up=tuple(sort_cards(cards(u)) for u in (ups or [""] * players)),
        face_down=tuple(cards(d) for d in (downs or [""] * players)),
        pile=pile_cards,
        reference=reference,
        main_stock=cards(main),
        reserve_stock=cards(reserve),
        removed=cards(removed),
        places=places,
        totals=totals if totals is not None else (0,) * players,
    )


def game_at(state: SpaccState) -> Game:
    """A Game (no history) at a hand-built state."""
    return Game(RULES, state.config, 0, False, state, state, None)


def act(state: SpaccState, text: str) -> tuple[SpaccState, tuple[Any, ...]]:
    """Decide and apply one action given in notation."""
    events = RULES.decide(state, RULES.parse_action(text))
    for event in events:
        state = RULES.evolve(state, event)
    return state, events


def legal(state: SpaccState) -> list[str]:
    """The legal actions as notation."""
    return [str(a) for a in RULES.legal_actions(state)]


def types(events: Sequence[Any]) -> list[str]:
    """Event class names."""
    return [type(e).__name__ for e in events]


def random_game_until(event_type: type, seeds: Sequence[int] = range(200), steps: int = 3000) -> tuple[Game, Any]:
    """The first 3-player game, over ``seeds`` in order, played by uniformly random legal
    moves (``random.Random(seed)``) until its newest entry has an ``event_type`` event
    and the game goes on; that game and the event. ``AssertionError`` if none does."""
    import random

    for seed in seeds:
        rng = random.Random(seed)
        game = cardkit.new_game(NAME, players=3, seed=seed)
        for _ in range(steps):
            if game.is_over:
                break
            game = game.play(rng.choice(game.legal_actions()))
            last = game.last_entry
            assert last is not None
            found = [e for e in last.events if isinstance(e, event_type)]
            if found and not game.is_over:
                return game, found[0]
    raise AssertionError(f"no random game of seeds {seeds} had a {event_type.__name__}")
