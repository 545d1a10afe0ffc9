"""Shared helpers of the Cutthroat Spades tests (imported as a plain module)."""

from __future__ import annotations

from typing import Any, Sequence

import cardkit
from cardkit import Card, Game, Pick, Shuffle, parse_cards
from cardkit.games.cutthroat_spades.rules import RULES, layout_of
from cardkit.games.cutthroat_spades.state import BidInfo, CutthroatState, replace

NAME = "cutthroat-spades"


def stack(dealer: int, hands: Sequence[Sequence[Card]], players: int, shares: Sequence[int]) -> tuple[Card, ...]:
    """A shuffle order (top first) that deals ``hands`` by the dealing convention."""
    pending = [list(h) for h in hands]
    got = [0] * players
    order: list[Card] = []
    seat = dealer
    while len(order) < sum(shares):
        seat = (seat + 1) % players
        if got[seat] < shares[seat]:
            order.append(pending[seat].pop(0))
            got[seat] += 1
    return tuple(order)


def dealt_game(players: int, dealer: int, hands: Sequence[str] | None = None, **options: Any) -> Game:
    """A game stopped after the first deal; ``hands`` (texts) are completed from the rest of the layout."""
    game = cardkit.new_game(NAME, players=players, seed=0, auto_chance=False, **options)
    game = game.play(Pick(dealer))
    spec = game.pending_chance()
    lay = layout_of(game.config)
    shares = lay.shares(players, dealer)
    texts = list(hands or []) + [""] * (players - len(hands or []))
    wanted = [list(parse_cards(h)) for h in texts]
    used = {c for h in wanted for c in h}
    rest = [c for c in spec.cards if c not in used]  # type: ignore[union-attr]
    for s in range(players):
        while len(wanted[s]) < shares[s]:
            wanted[s].append(rest.pop(0))
    return game.play(Shuffle(stack(dealer, wanted, players, shares)))


def bid_all(game: Game, bids: dict[int, str]) -> Game:
    """Every seat bids in turn: ``bids[seat]`` is the bid notation (default ``bid 1`` after looking)."""
    while game.state.phase == "bid":
        seat = game.to_act
        assert seat is not None
        text = bids.get(seat, "bid 1")
        if text not in ("bid blind-nil", "bid b6") and not game.state.looked[seat]:
            game = game.play_text("look")
        game = game.play_text(text)
    return game


def play_first_legal(game: Game, until_phase: str = "deal") -> Game:
    """Play the first legal action until the phase is ``until_phase`` (or the game ends)."""
    while game.state.phase not in (until_phase, "over"):
        game = game.play(game.legal_actions()[0])
    return game


def apply(state: CutthroatState, action: Any) -> tuple[CutthroatState, tuple[Any, ...]]:
    """Decide and fold ``action`` directly on a state."""
    events = RULES.decide(state, action)
    for e in events:
        state = RULES.evolve(state, e)
    return state, events


def last_trick_state(
    players: int,
    last_cards: Sequence[str],
    bids: Sequence[tuple[str, int]],
    tricks_won: Sequence[int],
    scores: Sequence[int] | None = None,
    bags: Sequence[int] | None = None,
    won: Sequence[str] | None = None,
    leader: int = 0,
    dealer: int = 0,
    tokens: Sequence[int] | None = None,
    hands_in_game: int = 0,
    overtime: bool = False,
    **options: Any,
) -> CutthroatState:
    """A state at the start of the last trick of a hand (cards need not be conserved)."""
    cfg = RULES.config(players, **options)
    lay = layout_of(cfg)
    base = RULES.initial_state(cfg)
    n = players
    return replace(
        base, phase="play", dealer=dealer, turn=leader, deck=(),
        hands=tuple((Card.parse(c),) for c in last_cards), looked=(True,) * n,
        bids=tuple(BidInfo(k, t) for k, t in bids),  # type: ignore[arg-type]
        trick=(), trick_count=lay.tricks - 1, tricks_won=tuple(tricks_won),
        won=tuple(parse_cards(w) for w in (won or [""] * n)),
        scores=tuple(scores or (0,) * n), bags=tuple(bags or (0,) * n),
        tokens=tuple(tokens or (0,) * n), hands_in_game=hands_in_game, overtime=overtime,
    )


def finish_last_trick(state: CutthroatState) -> tuple[CutthroatState, tuple[Any, ...]]:
    """Play out the last trick (each seat's single card) and return all events."""
    events: list[Any] = []
    while state.phase == "play":
        card = state.hands[state.turn][0]
        from cardkit.games.cutthroat_spades.actions import Play

        state, evs = apply(state, Play(card))
        events.extend(evs)
    return state, tuple(events)
