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


# The encoders below are on the hot path of every environment step: they append the
# non-zero (position, value) pairs with as few Python operations as they can, through
# these two helpers and inline one-hots. Their meaning, block by block:
#   put    a number when it is non-zero (counters and flags: far inside the bounds);
#   hot    a 1 at ``at + index`` (nothing for a None index);
#   per-seat lists: ``values[s]`` at the relative position of seat ``s``, clipped to ±BIG;
#   a seat one-hot: a 1 at the relative position of an int seat in range (else nothing).


def _per_seat(pos: list[int], val: list[float], at: int, values: Sequence[Any], seat: int, n: int) -> None:
    """``values[s]`` of every seat ``s`` at ``at`` + its relative position, zeros left out."""
    s = 0
    for value in values:
        if value:
            v = float(value)
            pos.append(at + (s - seat) % n)
            val.append(v if -BIG <= v <= BIG else _num(v))
        s += 1


def _absolute(base: int, offsets: Sequence[int], memo: dict[int, tuple[int, ...]]) -> tuple[int, ...]:
    """``base + offset`` of every block (computed once per ``base``)."""
    found = memo.get(base)
    if found is None:
        found = memo[base] = tuple(base + o for o in offsets)
    return found


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
    offsets = tuple(_offsets(spec).values())
    memo: dict[int, tuple[int, ...]] = {}
    suits = _SUIT_INDEX

    def encode(view: Mapping[str, Any], seat: int, n: int, base: int, pos: list[int], val: list[float]) -> None:
        dealer, top_card, active_suit, pending_draw, direction, drawn, hand_number, scores, hand_points, target = (
            _absolute(base, offsets, memo)
        )
        ap, av = pos.append, val.append
        who = view["dealer"]
        if isinstance(who, int) and 0 <= who < n:
            ap(dealer + (who - seat) % n)
            av(1.0)
        top = view["top_card"]
        if top is not None:
            ap(top_card + index[top])
            av(1.0)
        suit = suits.get(view["active_suit"])
        if suit is not None:
            ap(active_suit + suit)
            av(1.0)
        for at, key in ((pending_draw, "pending_draw"), (direction, "direction")):
            x = view[key]
            if x:
                ap(at)
                av(float(x))
        card = view["drawn"]
        if card is not None:
            ap(drawn + index[card])
            av(1.0)
        x = view["hand_number"]
        if x:
            ap(hand_number)
            av(float(x))
        _per_seat(pos, val, scores, view["scores"], seat, n)
        _per_seat(pos, val, hand_points, view["hand_points"], seat, n)
        x = view["target"]
        if x:
            ap(target)
            av(float(x))

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
    offsets = tuple(_offsets(spec).values())
    memo: dict[int, tuple[int, ...]] = {}
    suits = _SUIT_INDEX

    def encode(view: Mapping[str, Any], seat: int, n: int, base: int, pos: list[int], val: list[float]) -> None:
        (phase, round_, rounds, dealer, trump, bid_made, bids_at, tricks_won, trick, suit_to_follow,
         forbidden_bid, scores) = _absolute(base, offsets, memo)  # fmt: skip
        ap, av = pos.append, val.append
        i = phases.get(view["phase"])
        if i is not None:
            ap(phase + i)
            av(1.0)
        for at, key in ((round_, "round"), (rounds, "rounds")):
            x = view[key]
            if x:
                ap(at)
                av(float(x))
        who = view["dealer"]
        if isinstance(who, int) and 0 <= who < n:
            ap(dealer + (who - seat) % n)
            av(1.0)
        i = suits.get(view["trump"])
        if i is not None:
            ap(trump + i)
            av(1.0)
        bids = view["bids"]
        _per_seat(pos, val, bid_made, [b is not None for b in bids], seat, n)
        _per_seat(pos, val, bids_at, bids, seat, n)  # a bid not made (None) is left out: 0
        _per_seat(pos, val, tricks_won, view["tricks_won"], seat, n)
        for who, code in view["trick"]:
            ap(trick + ((who - seat) % n) * c + index[code])
            av(1.0)
        i = suits.get(view["suit_to_follow"])
        if i is not None:
            ap(suit_to_follow + i)
            av(1.0)
        banned = view["forbidden_bid"]
        if banned is not None:
            ap(forbidden_bid)
            av(1.0)
            if banned:
                ap(forbidden_bid + 1)
                av(float(banned))
        _per_seat(pos, val, scores, view["scores"], seat, n)

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
    offsets = tuple(_offsets(spec).values())
    memo: dict[int, tuple[int, ...]] = {}
    width = len(kinds)
    scalars = ("spades_broken", "game_number", "hand_number", "tie_continues", "target", "wins_needed")

    def encode(view: Mapping[str, Any], seat: int, n: int, base: int, pos: list[int], val: list[float]) -> None:
        (phase, dealer, looked, bid_kind, bid_tricks, tricks_won, trick, spades_broken, bags, scores,
         tokens, blind_six_used, game_number, hand_number, tie_continues, target, wins_needed) = (
            _absolute(base, offsets, memo)
        )  # fmt: skip
        ap, av = pos.append, val.append
        i = phases.get(view["phase"])
        if i is not None:
            ap(phase + i)
            av(1.0)
        who = view["dealer"]
        if isinstance(who, int) and 0 <= who < n:
            ap(dealer + (who - seat) % n)
            av(1.0)
        _per_seat(pos, val, looked, view["looked"], seat, n)
        who = 0
        for bid in view["bids"]:
            if bid is not None:
                rel = (who - seat) % n
                ap(bid_kind + rel * width + kinds[bid["kind"]])
                av(1.0)
                tricks = bid["tricks"]
                if tricks:
                    ap(bid_tricks + rel)
                    av(float(tricks))
            who += 1
        _per_seat(pos, val, tricks_won, view["tricks_won"], seat, n)
        for who, code in view["trick"]:
            ap(trick + ((who - seat) % n) * c + index[code])
            av(1.0)
        _per_seat(pos, val, bags, view["bags"], seat, n)
        _per_seat(pos, val, scores, view["scores"], seat, n)
        _per_seat(pos, val, tokens, view["tokens"], seat, n)
        _per_seat(pos, val, blind_six_used, view["blind_six_used"], seat, n)
        for at, key in zip((spades_broken, game_number, hand_number, tie_continues, target, wins_needed), scalars):
            x = view[key]
            if x:
                ap(at)
                av(float(x))

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
        ("turns", 1, 0, BIG, "turns of this hand (a red-joker decision adds none)"),
        ("max_turns", 1, 0, BIG, "the max_turns guard"),
        ("hand_number", 1, 0, BIG, "hand number (from 1)"),
        _scores(n),
        ("hand_points", n, -BIG, BIG, "points of the last scored hand, relative seats"),
        ("target_score", 1, 0, BIG, "match target (0: a single hand)"),
    )
    offsets = tuple(_offsets(spec).values())
    memo: dict[int, tuple[int, ...]] = {}
    pendings = {"dump": 0, "remove": 1}

    def encode(view: Mapping[str, Any], seat: int, n: int, base: int, pos: list[int], val: list[float]) -> None:
        dealer, pending, reference, out_place, turns, max_turns, hand_number, scores, hand_points, target_score = (
            _absolute(base, offsets, memo)
        )
        ap, av = pos.append, val.append
        who = view["dealer"]
        if isinstance(who, int) and 0 <= who < n:
            ap(dealer + (who - seat) % n)
            av(1.0)
        i = pendings.get(view["pending"])
        if i is not None:
            ap(pending + i)
            av(1.0)
        i = ranks.get(view["reference"])
        if i is not None:
            ap(reference + i)
            av(1.0)
        place = 1
        for who in view["places"]:
            ap(out_place + (who - seat) % n)
            av(float(place))
            place += 1
        for at, key in ((turns, "turns"), (max_turns, "max_turns"), (hand_number, "hand_number")):
            x = view[key]
            if x:
                ap(at)
                av(float(x))
        _per_seat(pos, val, scores, view["scores"], seat, n)
        _per_seat(pos, val, hand_points, view["hand_points"], seat, n)
        x = view["target_score"]
        if x:
            ap(target_score)
            av(float(x))

    return spec, encode


def _no_features(view: Mapping[str, Any], seat: int, n: int, base: int, pos: list[int], val: list[float]) -> None:
    return None


def generic(players: int, initial_view: Mapping[str, Any]) -> GameFeatures:
    """Any game: the view's ``scores`` (relative seats) when it has a list of ``players`` numbers."""
    scores = initial_view.get("scores")
    if isinstance(scores, list) and len(scores) == players:
        spec: tuple[FieldSpec, ...] = (_scores(players),)

        def encode(view: Mapping[str, Any], seat: int, n: int, base: int, pos: list[int], val: list[float]) -> None:
            _per_seat(pos, val, base, view["scores"], seat, n)

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
