"""The view fields of each built-in game, as observation blocks.

Each game has ``fields(players, config, cards)`` giving ``(name, size, low, high, doc)``
blocks and an encoder ``(view, seat, players) -> list[float]`` filling them, in order, from
``rules.view(state, seat)`` only. Per-seat lists are rotated so that position 0 is the
observing seat (see :mod:`cardkit.rl.encoding`). A user's game gets the generic fields
(:func:`generic`): its view's ``scores`` if it has them.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from cardkit.cards import RANK_CHARS, SUITS, Card
from cardkit.rl.encoding import BIG, ViewFeatures

__all__ = ["FieldSpec", "GameFeatures", "features_for"]

FieldSpec = tuple[str, int, float, float, str]
"""``(name, size, low, high, doc)`` of one view block."""

GameFeatures = tuple[tuple[FieldSpec, ...], ViewFeatures]
"""The blocks of a game's view fields and the function that computes them."""


def _rel(values: Sequence[Any], seat: int, n: int) -> list[Any]:
    """``values`` (one per seat) rotated so that index 0 is ``seat``."""
    return [values[(seat + i) % n] for i in range(n)]


def _onehot(value: Any, options: Sequence[Any]) -> list[float]:
    return [1.0 if value == o else 0.0 for o in options]


def _rel_seat(seat_value: Any, seat: int, n: int) -> list[float]:
    """One-hot of a seat number relative to ``seat`` (zeros for None)."""
    out = [0.0] * n
    if isinstance(seat_value, int) and 0 <= seat_value < n:
        out[(seat_value - seat) % n] = 1.0
    return out


def _card_onehot(code: str | None, index: Mapping[str, int], size: int) -> list[float]:
    out = [0.0] * size
    if code is not None:
        out[index[code]] = 1.0
    return out


def _trick_planes(trick: Sequence[Sequence[Any]], seat: int, n: int, index: Mapping[str, int], size: int) -> list[float]:
    """Per relative seat, a one-hot of the card it played to the current trick."""
    out = [0.0] * (n * size)
    for who, code in trick:
        out[((who - seat) % n) * size + index[code]] = 1.0
    return out


def _scores(n: int) -> FieldSpec:
    return ("scores", n, -BIG, BIG, "the view's scores, relative seats")


def crazy_eights(players: int, config: Any, cards: Sequence[Card]) -> GameFeatures:
    """Crazy Eights: top card, active suit, pending draw, direction, drawn card, scores."""
    n, c = players, len(cards)
    index = {card.code: i for i, card in enumerate(cards)}
    spec: tuple[FieldSpec, ...] = (
        ("dealer", n, 0, 1, "one-hot relative dealer"),
        ("top_card", c, 0, 1, "one-hot top card of the discard pile"),
        ("active_suit", 4, 0, 1, "one-hot suit to match (S, H, D, C)"),
        ("pending_draw", 1, 0, BIG, "cards the next player must draw unless they play a 2"),
        ("direction", 1, -1, 1, "1 clockwise, -1 after an ace reversed it"),
        ("drawn", c, 0, 1, "one-hot card you drew this turn (only it may be played)"),
        ("hand_number", 1, 0, BIG, "hand number (from 1)"),
        _scores(n),
        ("hand_points", n, -BIG, BIG, "points of the last scored hand, relative seats"),
        ("target", 1, 0, BIG, "points target (0 in single-hand mode)"),
    )

    def encode(view: Mapping[str, Any], seat: int, n: int) -> list[float]:
        return [
            *_rel_seat(view["dealer"], seat, n),
            *_card_onehot(view["top_card"], index, c),
            *_onehot(view["active_suit"], SUITS),
            float(view["pending_draw"]),
            float(view["direction"]),
            *_card_onehot(view["drawn"], index, c),
            float(view["hand_number"]),
            *_rel(view["scores"], seat, n),
            *_rel(view["hand_points"], seat, n),
            float(view["target"] or 0),
        ]

    return spec, encode


_WIZARD_PHASES = ("pick", "deal", "trump", "bid", "play", "over")


def wizard(players: int, config: Any, cards: Sequence[Card]) -> GameFeatures:
    """Wizard: phase, round, dealer, trump, bids, tricks won, the trick by seat, scores."""
    n, c = players, len(cards)
    index = {card.code: i for i, card in enumerate(cards)}
    spec: tuple[FieldSpec, ...] = (
        ("phase", len(_WIZARD_PHASES), 0, 1, "one-hot " + ", ".join(_WIZARD_PHASES)),
        ("round", 1, 0, BIG, "round number (= cards dealt to each seat)"),
        ("rounds", 1, 0, BIG, "rounds in the game"),
        ("dealer", n, 0, 1, "one-hot relative dealer"),
        ("trump", 4, 0, 1, "one-hot trump suit (zeros: no trump)"),
        ("bid_made", n, 0, 1, "1 if the relative seat has bid this round"),
        ("bids", n, 0, BIG, "bids of this round (0 until made)"),
        ("tricks_won", n, 0, BIG, "tricks won this round"),
        ("trick", n * c, 0, 1, "per relative seat, one-hot card it played to the current trick"),
        ("suit_to_follow", 4, 0, 1, "one-hot suit to follow (zeros: none)"),
        ("forbidden_bid", 2, 0, BIG, "[1, bid] if you may not bid it (forbid_even_bids), else [0, 0]"),
        _scores(n),
    )

    def encode(view: Mapping[str, Any], seat: int, n: int) -> list[float]:
        bids = _rel(view["bids"], seat, n)
        banned = view["forbidden_bid"]
        return [
            *_onehot(view["phase"], _WIZARD_PHASES),
            float(view["round"]),
            float(view["rounds"]),
            *_rel_seat(view["dealer"], seat, n),
            *_onehot(view["trump"], SUITS),
            *[0.0 if b is None else 1.0 for b in bids],
            *[0.0 if b is None else float(b) for b in bids],
            *_rel(view["tricks_won"], seat, n),
            *_trick_planes(view["trick"], seat, n, index, c),
            *_onehot(view["suit_to_follow"], SUITS),
            *([0.0, 0.0] if banned is None else [1.0, float(banned)]),
            *_rel(view["scores"], seat, n),
        ]

    return spec, encode


_SPADES_PHASES = ("pick", "deal", "bid", "play", "over")
_BID_KINDS = ("normal", "nil", "blind_nil", "blind_six", "one_for_fifty", "two_for_forty", "moon")


def cutthroat_spades(players: int, config: Any, cards: Sequence[Card]) -> GameFeatures:
    """Cutthroat Spades: phase, bids (kind and tricks), tricks, the trick by seat, bags,
    scores, tokens and the tournament counters."""
    n, c = players, len(cards)
    index = {card.code: i for i, card in enumerate(cards)}
    kinds = len(_BID_KINDS)
    spec: tuple[FieldSpec, ...] = (
        ("phase", len(_SPADES_PHASES), 0, 1, "one-hot " + ", ".join(_SPADES_PHASES)),
        ("dealer", n, 0, 1, "one-hot relative dealer"),
        ("looked", n, 0, 1, "1 if the relative seat has looked at its hand"),
        ("bid_kind", n * kinds, 0, 1, "per relative seat, one-hot bid kind (" + ", ".join(_BID_KINDS) + "); zeros until bid"),
        ("bid_tricks", n, 0, BIG, "tricks bid (0 until bid)"),
        ("tricks_won", n, 0, BIG, "tricks won this hand"),
        ("trick", n * c, 0, 1, "per relative seat, one-hot card it played to the current trick"),
        ("spades_broken", 1, 0, 1, "1 once spades are broken"),
        ("bags", n, 0, BIG, "bags"),
        _scores(n),
        ("tokens", n, 0, BIG, "games won in the tournament"),
        ("blind_six_used", n, 0, BIG, "blind-six bids used this game"),
        ("game_number", 1, 0, BIG, "game of the tournament (from 1)"),
        ("hand_number", 1, 0, BIG, "hand of the game (from 1)"),
        ("tie_continues", 1, 0, 1, "1 while a tie at the target makes the game continue"),
        ("target", 1, 0, BIG, "points target of a game"),
        ("wins_needed", 1, 0, BIG, "games needed to win the tournament"),
    )

    def encode(view: Mapping[str, Any], seat: int, n: int) -> list[float]:
        bids = _rel(view["bids"], seat, n)
        kind_block: list[float] = []
        for b in bids:
            kind_block.extend(_onehot(None if b is None else b["kind"], _BID_KINDS))
        return [
            *_onehot(view["phase"], _SPADES_PHASES),
            *_rel_seat(view["dealer"], seat, n),
            *[1.0 if x else 0.0 for x in _rel(view["looked"], seat, n)],
            *kind_block,
            *[0.0 if b is None else float(b["tricks"]) for b in bids],
            *_rel(view["tricks_won"], seat, n),
            *_trick_planes(view["trick"], seat, n, index, c),
            1.0 if view["spades_broken"] else 0.0,
            *_rel(view["bags"], seat, n),
            *_rel(view["scores"], seat, n),
            *_rel(view["tokens"], seat, n),
            *_rel(view["blind_six_used"], seat, n),
            float(view["game_number"]),
            float(view["hand_number"]),
            1.0 if view["tie_continues"] else 0.0,
            float(view["target"]),
            float(view["wins_needed"]),
        ]

    return spec, encode


def spacc_u_mazz(players: int, config: Any, cards: Sequence[Card]) -> GameFeatures:
    """Spacc 'u Mazz: the pending red-joker choice, the reference rank, places, turns, scores."""
    n = players
    ranks = tuple(RANK_CHARS)
    spec: tuple[FieldSpec, ...] = (
        ("dealer", n, 0, 1, "one-hot relative dealer"),
        ("pending", 2, 0, 1, "one-hot red-joker choice you must make: dump/keep, remove"),
        ("reference", len(ranks), 0, 1, "one-hot rank to match or beat (zeros: none)"),
        ("out_place", n, 0, BIG, "place of the relative seat once out (1 = first), else 0"),
        ("turns", 1, 0, BIG, "seat actions of this hand"),
        ("max_turns", 1, 0, BIG, "the max_turns guard"),
        ("hand_number", 1, 0, BIG, "hand number (from 1)"),
        _scores(n),
        ("hand_points", n, -BIG, BIG, "points of the last scored hand, relative seats"),
        ("target_score", 1, 0, BIG, "match target (0: a single hand)"),
    )

    def encode(view: Mapping[str, Any], seat: int, n: int) -> list[float]:
        places = [0.0] * n
        for place, who in enumerate(view["places"]):
            places[(who - seat) % n] = float(place + 1)
        return [
            *_rel_seat(view["dealer"], seat, n),
            *_onehot(view["pending"], ("dump", "remove")),
            *_onehot(view["reference"], ranks),
            *places,
            float(view["turns"]),
            float(view["max_turns"]),
            float(view["hand_number"]),
            *_rel(view["scores"], seat, n),
            *_rel(view["hand_points"], seat, n),
            float(view["target_score"] or 0),
        ]

    return spec, encode


def generic(players: int, initial_view: Mapping[str, Any]) -> GameFeatures:
    """Any game: the view's ``scores`` (relative seats) when it has a list of ``players`` numbers."""
    scores = initial_view.get("scores")
    if isinstance(scores, list) and len(scores) == players:
        spec: tuple[FieldSpec, ...] = (_scores(players),)

        def encode(view: Mapping[str, Any], seat: int, n: int) -> list[float]:
            return [float(x) for x in _rel(view["scores"], seat, n)]

        return spec, encode
    return (), lambda view, seat, n: []


_BUILTIN: dict[str, Callable[[int, Any, Sequence[Card]], GameFeatures]] = {
    "crazy-eights": crazy_eights,
    "wizard": wizard,
    "cutthroat-spades": cutthroat_spades,
    "spacc-u-mazz": spacc_u_mazz,
}


def features_for(
    name: str, players: int, config: Any, cards: Sequence[Card], initial_view: Mapping[str, Any]
) -> GameFeatures:
    """The view fields of game ``name`` (the generic ones for a game not built in)."""
    make = _BUILTIN.get(name)
    if make is None:
        return generic(players, initial_view)
    return make(players, config, cards)
