"""Readers: what the observation encoder needs of a state, without a full view or ``Zone``s.

A game's ``rules.view`` builds a whole JSON view (hand codes, the legal actions as text,
the history) and ``rules.zones`` a ``Zone`` record per zone; the encoder uses a few view
values and each zone's cards, visibility and size. A reader gives exactly those, read
from the same state fields the game's own ``view`` and ``zones`` read, as a
:class:`~cardkit.rl.incremental.Reading`:

* ``keys``, ``cards``, ``visible_to``: every zone's ``(name, owner)``, cards and seats that
  may see them, the same zones in the same order as ``rules.zones(state)``;
* ``view``: the keys of ``rules.view(state, seat)`` that the game's view fields
  (:mod:`cardkit.rl.features`) read, with equal values.

The encoder's no-peek guarantee is therefore the view's and the zones' guarantee, as long
as a reader agrees with them; the test suite checks that the cached encoding of a reading
equals the reference encoding of ``rules.view`` and ``rules.zones`` at every step of many
random games of every game, for every seat. A game without a reader here (a user's game)
is encoded from ``rules.view`` and ``rules.zones`` directly.
"""

from __future__ import annotations

from typing import Any, Callable

from cardkit.cards import RANK_CHARS
from cardkit.rl.incremental import Reading

__all__ = ["Reader", "reader_for"]

Reader = Callable[[Any, int], Reading]
"""``reader(state, seat)``: the reading of ``state`` for ``seat``."""


def _played_cards() -> Callable[[tuple[tuple[int, Any], ...]], tuple[Any, ...]]:
    """``trick -> the cards played to it`` that returns one tuple while the trick is one
    object (the trick zone then keeps its identity across readings, see CachedEncoder)."""
    last: list[Any] = [None, ()]

    def played(trick: tuple[tuple[int, Any], ...]) -> tuple[Any, ...]:
        if trick is not last[0]:
            last[0], last[1] = trick, tuple(c for _, c in trick)
        return last[1]  # type: ignore[no-any-return]

    return played


def _one_card() -> Callable[[Any], tuple[Any, ...]]:
    """``card -> (card,)`` (``()`` for None) that returns one tuple per card object."""
    last: list[Any] = [None, ()]

    def zone(card: Any) -> tuple[Any, ...]:
        if card is not last[0]:
            last[0], last[1] = card, (card,) if card is not None else ()
        return last[1]  # type: ignore[no-any-return]

    return zone


def crazy_eights(rules: Any, config: Any) -> Reader:
    """Crazy Eights (mirrors ``CrazyEightsRules.zones`` and ``view``)."""
    n = config.players
    everyone = tuple(range(n))
    keys = (("stock", None), ("discard", None), *(("hand", s) for s in range(n)))
    private = ((), everyone, *((s,) for s in range(n)))
    public = ((), everyone, *(everyone for _ in range(n)))
    single = config.mode == "single"
    target = config.target

    def read(state: Any, seat: int) -> Reading:
        discard = state.discard
        drawn = state.drawn
        view = {
            "dealer": state.dealer if state.dealer >= 0 else None,
            "top_card": discard[-1].code if discard else None,
            "active_suit": state.active_suit,
            "pending_draw": state.pending_draw,
            "direction": state.direction,
            "drawn": drawn.code if drawn is not None and seat == state.to_act else None,
            "hand_number": state.hand_number,
            "scores": state.hand_points if single else state.scores,
            "hand_points": state.hand_points,
            "target": target,
        }
        cards = (state.stock, discard, *state.hands)
        return Reading(keys, cards, public if state.revealed else private, view)

    return read


def wizard(rules: Any, config: Any) -> Reader:
    """Wizard (mirrors ``WizardRules.zones`` and ``view``)."""
    from cardkit.games.wizard.tricks import suit_to_follow

    n = config.players
    everyone = tuple(range(n))
    keys = (
        ("stock", None), ("turned", None), *(("hand", s) for s in range(n)),
        ("trick", None), *(("won", s) for s in range(n)),
    )  # fmt: skip
    visible = ((), everyone, *((s,) for s in range(n)), everyone, *(everyone for _ in range(n)))
    rounds = config.rounds
    forbidden_bid = rules.forbidden_bid

    played_of = _played_cards()
    turned_of = _one_card()

    def read(state: Any, seat: int) -> Reading:
        trick = state.trick
        played = played_of(trick)
        turned = turned_of(state.turned)
        view = {
            "phase": state.phase,
            "round": state.round,
            "rounds": rounds,
            "dealer": state.dealer if state.dealer >= 0 else None,
            "trump": state.trump,
            "bids": state.bids,
            "tricks_won": state.tricks_won,
            "trick": [(s, c.code) for s, c in trick],
            "suit_to_follow": suit_to_follow(list(played)),
            "forbidden_bid": forbidden_bid(state),
            "scores": state.scores,
        }
        return Reading(keys, (state.stock, turned, *state.hands, played, *state.won), visible, view)

    return read


def cutthroat_spades(rules: Any, config: Any) -> Reader:
    """Cutthroat Spades (mirrors ``CutthroatSpadesRules.zones`` and ``view``)."""
    from cardkit.games.cutthroat_spades.rules import layout_of

    n = config.players
    everyone = tuple(range(n))
    keys = (
        ("deck", None), ("removed", None), *(("hand", s) for s in range(n)),
        ("trick", None), *(("won", s) for s in range(n)),
    )  # fmt: skip
    own = tuple((s,) for s in range(n))
    rest = (everyone, *(everyone for _ in range(n)))
    removed = layout_of(config).removed
    target, wins_needed = config.target, config.wins_needed
    played_of = _played_cards()

    def read(state: Any, seat: int) -> Reading:
        trick = state.trick
        looked = state.looked
        phase = state.phase
        view = {
            "phase": phase,
            "dealer": state.dealer if state.dealer >= 0 else None,
            "looked": looked,
            "bids": [None if b is None else {"kind": b.kind, "tricks": b.tricks} for b in state.bids],
            "tricks_won": state.tricks_won,
            "trick": [(s, c.code) for s, c in trick],
            "spades_broken": state.spades_broken,
            "bags": state.bags,
            "scores": state.scores,
            "tokens": state.tokens,
            "blind_six_used": state.blind_six_used,
            "game_number": state.game_number,
            "hand_number": state.hands_in_game + (0 if phase in ("deal", "pick") else 1),
            "tie_continues": state.overtime,
            "target": target,
            "wins_needed": wins_needed,
        }
        cards = (state.deck, removed, *state.hands, played_of(trick), *state.won)
        visible = ((), everyone, *(own[s] if looked[s] else () for s in range(n)), *rest)
        return Reading(keys, cards, visible, view)

    return read


def spacc_u_mazz(rules: Any, config: Any) -> Reader:
    """Spacc 'u Mazz (mirrors ``SpaccUMazzRules.zones`` and ``view``)."""
    from cardkit.games.spacc_u_mazz.rules import _remove

    n = config.players
    everyone = tuple(range(n))
    keys = (
        *(k for s in range(n) for k in (("hand", s), ("known", s), ("face_up", s), ("face_down", s))),
        ("pile", None), ("main_stock", None), ("main_stock_buried", None), ("reserve_stock", None),
        ("removed", None), ("deck", None), ("jokers", None), ("pack_b", None),
    )  # fmt: skip
    tail = (everyone, (), everyone, (), everyone, (), everyone, ())
    hidden = (*(v for s in range(n) for v in ((s,), everyone, everyone, ())), *tail)
    shown = (*(v for s in range(n) for v in (everyone, everyone, everyone, everyone)), *tail)
    max_turns, target_score = config.max_turns, config.target_score

    # A hand's private part and the stock's concealed part are new tuples each time they
    # are computed; remembered per source tuple, they keep one identity while their source
    # does, which is what lets the cached encoder skip an unchanged zone.
    parts: dict[tuple[int, int], tuple[Any, Any, Any]] = {}

    def private(hand: tuple[Any, ...], known: tuple[Any, ...]) -> tuple[Any, ...]:
        if not known:
            return hand
        hit = parts.get((id(hand), id(known)))
        if hit is not None and hit[0] is hand and hit[1] is known:
            return hit[2]  # type: ignore[no-any-return]
        if len(parts) >= 64:
            parts.clear()
        rest = _remove(hand, known)
        parts[id(hand), id(known)] = (hand, known, rest)
        return rest

    def read(state: Any, seat: int) -> Reading:
        cards: list[tuple[Any, ...]] = []
        for hand, known, up, down in zip(state.hands, state.known, state.face_up, state.face_down):
            cards += (private(hand, known), known, up, down)
        main = state.main_stock
        split = len(main) - min(state.main_known, len(main))
        cards += (
            state.pile, main[:split] if split < len(main) else main, main[split:], state.reserve_stock,
            state.removed, state.deck, state.jokers, state.pack_b,
        )  # fmt: skip
        ref = state.reference
        view = {
            "dealer": state.dealer if state.dealer >= 0 else None,
            "pending": state.pending or None,
            "reference": None if ref == 0 else RANK_CHARS[ref - 2],
            "places": state.places,
            "turns": state.turns,
            "max_turns": max_turns,
            "hand_number": state.hand_number,
            "scores": state.totals,
            "hand_points": state.hand_points,
            "target_score": target_score,
        }
        return Reading(keys, cards, shown if state.revealed else hidden, view)

    return read


_BUILTIN: dict[str, Callable[[Any, Any], Reader]] = {
    "crazy-eights": crazy_eights,
    "wizard": wizard,
    "cutthroat-spades": cutthroat_spades,
    "spacc-u-mazz": spacc_u_mazz,
}


def reader_for(rules: Any, config: Any) -> Reader | None:
    """The reader of a built-in game's ``rules`` under ``config``; ``None`` for any other game.

    A user's game registered under a built-in name with other rules gets no reader: only
    the built-in rules objects are known to match these readers."""
    make = _BUILTIN.get(rules.name)
    if make is None or type(rules).__module__.split(".")[:2] != ["cardkit", "games"]:
        return None
    return make(rules, config)
