"""The view fields of each built-in game, as observation blocks.

For each game, ``fields`` are ``(name, size, low, high, doc)`` blocks and ``encode(view,
seat, players, base, positions, values)`` appends the non-zero values of those blocks,
read from ``rules.view(state, seat)`` only, at ``base`` plus their offset. Per-seat lists
are rotated so that position 0 is the observing seat (see :mod:`cardkit.rl.encoding`).
A user's game gets the generic fields (:func:`generic`): its view's ``scores`` if it has them.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from cardkit.cards import RANK_CHARS, SUITS, Card
from cardkit.rl.encoding import BIG, ViewFeatures

__all__ = ["FieldSpec", "GameFeatures", "features_for", "generic"]

FieldSpec = tuple[str, int, float, float, str]
"""``(name, size, low, high, doc)`` of one view block."""

GameFeatures = tuple[tuple[FieldSpec, ...], ViewFeatures]
"""The blocks of a game's view fields and the function that computes them."""

_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


def _offsets(spec: Sequence[FieldSpec]) -> dict[str, int]:
    out: dict[str, int] = {}
    at = 0
    for name, size, *_ in spec:
        out[name] = at
        at += size
    return out


def _num(x: Any) -> float:
    """A view number as a float inside the observation bounds (``±BIG``)."""
    return max(-BIG, min(BIG, float(x)))


class _Writer:
    """Appends (position, value) pairs for one observation; zeros are left out."""

    __slots__ = ("pos", "val", "seat", "n")

    def __init__(self, pos: list[int], val: list[float], seat: int, n: int) -> None:
        self.pos, self.val, self.seat, self.n = pos, val, seat, n

    def put(self, at: int, value: Any) -> None:
        if value:  # counters and flags: far inside the bounds, no clipping needed
            self.pos.append(at)
            self.val.append(float(value))

    def hot(self, at: int, index: int | None) -> None:
        if index is not None:
            self.pos.append(at + index)
            self.val.append(1.0)

    def per_seat(self, at: int, values: Sequence[Any]) -> None:
        """``values[s]`` of every seat ``s``, at its relative position (clipped to ``±BIG``)."""
        seat, n, pos, val = self.seat, self.n, self.pos, self.val
        for s, value in enumerate(values):
            if value:
                v = float(value)
                pos.append(at + (s - seat) % n)
                val.append(v if -BIG <= v <= BIG else _num(v))

    def seat_hot(self, at: int, who: Any) -> None:
        """One-hot of the relative position of seat ``who`` (nothing for None)."""
        if isinstance(who, int) and 0 <= who < self.n:
            self.pos.append(at + (who - self.seat) % self.n)
            self.val.append(1.0)


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
    o = _offsets(spec)

    def encode(view: Mapping[str, Any], seat: int, n: int, base: int, pos: list[int], val: list[float]) -> None:
        w = _Writer(pos, val, seat, n)
        w.seat_hot(base + o["dealer"], view["dealer"])
        top = view["top_card"]
        w.hot(base + o["top_card"], None if top is None else index[top])
        w.hot(base + o["active_suit"], _SUIT_INDEX.get(view["active_suit"]))
        w.put(base + o["pending_draw"], view["pending_draw"])
        w.put(base + o["direction"], view["direction"])
        drawn = view["drawn"]
        w.hot(base + o["drawn"], None if drawn is None else index[drawn])
        w.put(base + o["hand_number"], view["hand_number"])
        w.per_seat(base + o["scores"], view["scores"])
        w.per_seat(base + o["hand_points"], view["hand_points"])
        w.put(base + o["target"], view["target"])

    return spec, encode


_WIZARD_PHASES = ("pick", "deal", "trump", "bid", "play", "over")


def wizard(players: int, config: Any, cards: Sequence[Card]) -> GameFeatures:
    """Wizard: phase, round, dealer, trump, bids, tricks won, the trick by seat, scores."""
    n, c = players, len(cards)
    index = {card.code: i for i, card in enumerate(cards)}
    phases = {p: i for i, p in enumerate(_WIZARD_PHASES)}
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
    o = _offsets(spec)

    def encode(view: Mapping[str, Any], seat: int, n: int, base: int, pos: list[int], val: list[float]) -> None:
        w = _Writer(pos, val, seat, n)
        w.hot(base + o["phase"], phases.get(view["phase"]))
        w.put(base + o["round"], view["round"])
        w.put(base + o["rounds"], view["rounds"])
        w.seat_hot(base + o["dealer"], view["dealer"])
        w.hot(base + o["trump"], _SUIT_INDEX.get(view["trump"]))
        bids = view["bids"]
        w.per_seat(base + o["bid_made"], [b is not None for b in bids])
        w.per_seat(base + o["bids"], [b or 0 for b in bids])
        w.per_seat(base + o["tricks_won"], view["tricks_won"])
        at = base + o["trick"]
        for who, code in view["trick"]:
            w.hot(at + ((who - seat) % n) * c, index[code])
        w.hot(base + o["suit_to_follow"], _SUIT_INDEX.get(view["suit_to_follow"]))
        banned = view["forbidden_bid"]
        if banned is not None:
            w.put(base + o["forbidden_bid"], 1)
            w.put(base + o["forbidden_bid"] + 1, banned)
        w.per_seat(base + o["scores"], view["scores"])

    return spec, encode


_SPADES_PHASES = ("pick", "deal", "bid", "play", "over")
_BID_KINDS = ("normal", "nil", "blind_nil", "blind_six", "one_for_fifty", "two_for_forty", "moon")


def cutthroat_spades(players: int, config: Any, cards: Sequence[Card]) -> GameFeatures:
    """Cutthroat Spades: phase, bids (kind and tricks), tricks, the trick by seat, bags,
    scores, tokens and the tournament counters."""
    n, c = players, len(cards)
    index = {card.code: i for i, card in enumerate(cards)}
    phases = {p: i for i, p in enumerate(_SPADES_PHASES)}
    kinds = {k: i for i, k in enumerate(_BID_KINDS)}
    spec: tuple[FieldSpec, ...] = (
        ("phase", len(_SPADES_PHASES), 0, 1, "one-hot " + ", ".join(_SPADES_PHASES)),
        ("dealer", n, 0, 1, "one-hot relative dealer"),
        ("looked", n, 0, 1, "1 if the relative seat has looked at its hand"),
        ("bid_kind", n * len(kinds), 0, 1, "per relative seat, one-hot bid kind (" + ", ".join(_BID_KINDS) + "); zeros until bid"),
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
    o = _offsets(spec)
    width = len(kinds)

    def encode(view: Mapping[str, Any], seat: int, n: int, base: int, pos: list[int], val: list[float]) -> None:
        w = _Writer(pos, val, seat, n)
        w.hot(base + o["phase"], phases.get(view["phase"]))
        w.seat_hot(base + o["dealer"], view["dealer"])
        w.per_seat(base + o["looked"], view["looked"])
        for who, bid in enumerate(view["bids"]):
            if bid is not None:
                rel = (who - seat) % n
                w.hot(base + o["bid_kind"] + rel * width, kinds[bid["kind"]])
                w.put(base + o["bid_tricks"] + rel, bid["tricks"])
        w.per_seat(base + o["tricks_won"], view["tricks_won"])
        at = base + o["trick"]
        for who, code in view["trick"]:
            w.hot(at + ((who - seat) % n) * c, index[code])
        w.put(base + o["spades_broken"], view["spades_broken"])
        w.per_seat(base + o["bags"], view["bags"])
        w.per_seat(base + o["scores"], view["scores"])
        w.per_seat(base + o["tokens"], view["tokens"])
        w.per_seat(base + o["blind_six_used"], view["blind_six_used"])
        w.put(base + o["game_number"], view["game_number"])
        w.put(base + o["hand_number"], view["hand_number"])
        w.put(base + o["tie_continues"], view["tie_continues"])
        w.put(base + o["target"], view["target"])
        w.put(base + o["wins_needed"], view["wins_needed"])

    return spec, encode


def spacc_u_mazz(players: int, config: Any, cards: Sequence[Card]) -> GameFeatures:
    """Spacc 'u Mazz: the pending red-joker choice, the reference rank, places, turns, scores."""
    n = players
    ranks = {r: i for i, r in enumerate(RANK_CHARS)}
    spec: tuple[FieldSpec, ...] = (
        ("dealer", n, 0, 1, "one-hot relative dealer"),
        ("pending", 2, 0, 1, "one-hot red-joker choice you must make: dump/keep, remove"),
        ("reference", len(ranks), 0, 1, "one-hot rank to match or beat, 2..A (zeros: none)"),
        ("out_place", n, 0, BIG, "place of the relative seat once out (1 = first), else 0"),
        ("turns", 1, 0, BIG, "seat actions of this hand"),
        ("max_turns", 1, 0, BIG, "the max_turns guard"),
        ("hand_number", 1, 0, BIG, "hand number (from 1)"),
        _scores(n),
        ("hand_points", n, -BIG, BIG, "points of the last scored hand, relative seats"),
        ("target_score", 1, 0, BIG, "match target (0: a single hand)"),
    )
    o = _offsets(spec)
    pendings = {"dump": 0, "remove": 1}

    def encode(view: Mapping[str, Any], seat: int, n: int, base: int, pos: list[int], val: list[float]) -> None:
        w = _Writer(pos, val, seat, n)
        w.seat_hot(base + o["dealer"], view["dealer"])
        w.hot(base + o["pending"], pendings.get(view["pending"]))
        w.hot(base + o["reference"], ranks.get(view["reference"]))
        for place, who in enumerate(view["places"]):
            w.put(base + o["out_place"] + (who - seat) % n, place + 1)
        w.put(base + o["turns"], view["turns"])
        w.put(base + o["max_turns"], view["max_turns"])
        w.put(base + o["hand_number"], view["hand_number"])
        w.per_seat(base + o["scores"], view["scores"])
        w.per_seat(base + o["hand_points"], view["hand_points"])
        w.put(base + o["target_score"], view["target_score"])

    return spec, encode


def _no_features(view: Mapping[str, Any], seat: int, n: int, base: int, pos: list[int], val: list[float]) -> None:
    return None


def generic(players: int, initial_view: Mapping[str, Any]) -> GameFeatures:
    """Any game: the view's ``scores`` (relative seats) when it has a list of ``players`` numbers."""
    scores = initial_view.get("scores")
    if isinstance(scores, list) and len(scores) == players:
        spec: tuple[FieldSpec, ...] = (_scores(players),)

        def encode(view: Mapping[str, Any], seat: int, n: int, base: int, pos: list[int], val: list[float]) -> None:
            _Writer(pos, val, seat, n).per_seat(base, view["scores"])

        return spec, encode
    return (), _no_features


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
