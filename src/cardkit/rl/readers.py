"""Readers: what the observation encoder needs of a state, without a full view or ``Zone``s.

A game's ``rules.view`` builds a whole JSON view (hand codes, the legal actions as text,
the history) and ``rules.zones`` a ``Zone`` record per zone; the encoder uses a few view
values and each zone's cards, visibility and size. A reader gives exactly those, read
from the same state fields the game's own ``view`` and ``zones`` read, as a
:class:`~cardkit.rl.incremental.Reading`:

* ``zones``: ``((name, owner), cards, visible_to)`` for every zone, the same zones with the
  same cards and visibility as ``rules.zones(state)``;
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
from cardkit.rl.incremental import Reading, ZoneCards

__all__ = ["Reader", "reader_for"]

Reader = Callable[[Any, int], Reading]
"""``reader(state, seat)``: the reading of ``state`` for ``seat``."""


def _keys(name: str, players: int) -> tuple[tuple[str, int], ...]:
    return tuple((name, s) for s in range(players))


def crazy_eights(rules: Any, config: Any) -> Reader:
    """Crazy Eights (mirrors ``CrazyEightsRules.zones`` and ``view``)."""
    n = config.players
    everyone = tuple(range(n))
    own = tuple((s,) for s in range(n))
    hands = _keys("hand", n)
    single = config.mode == "single"
    target = config.target

    def read(state: Any, seat: int) -> Reading:
        shown = everyone if state.revealed else None
        zones: list[ZoneCards] = [(("stock", None), state.stock, ()), (("discard", None), state.discard, everyone)]
        for s, hand in enumerate(state.hands):
            zones.append((hands[s], hand, shown or own[s]))
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
        return Reading(zones, view)

    return read


def wizard(rules: Any, config: Any) -> Reader:
    """Wizard (mirrors ``WizardRules.zones`` and ``view``)."""
    from cardkit.games.wizard.tricks import suit_to_follow

    n = config.players
    everyone = tuple(range(n))
    own = tuple((s,) for s in range(n))
    hands, won = _keys("hand", n), _keys("won", n)
    rounds = config.rounds
    forbidden_bid = rules.forbidden_bid

    def read(state: Any, seat: int) -> Reading:
        trick = state.trick
        cards = tuple(c for _, c in trick)
        zones: list[ZoneCards] = [
            (("stock", None), state.stock, ()),
            (("turned", None), (state.turned,) if state.turned is not None else (), everyone),
        ]
        zones.extend((hands[s], state.hands[s], own[s]) for s in range(n))
        zones.append((("trick", None), cards, everyone))
        zones.extend((won[s], state.won[s], everyone) for s in range(n))
        view = {
            "phase": state.phase,
            "round": state.round,
            "rounds": rounds,
            "dealer": state.dealer if state.dealer >= 0 else None,
            "trump": state.trump,
            "bids": state.bids,
            "tricks_won": state.tricks_won,
            "trick": [(s, c.code) for s, c in trick],
            "suit_to_follow": suit_to_follow(list(cards)),
            "forbidden_bid": forbidden_bid(state),
            "scores": state.scores,
        }
        return Reading(zones, view)

    return read


def cutthroat_spades(rules: Any, config: Any) -> Reader:
    """Cutthroat Spades (mirrors ``CutthroatSpadesRules.zones`` and ``view``)."""
    from cardkit.games.cutthroat_spades.rules import layout_of

    n = config.players
    everyone = tuple(range(n))
    own = tuple((s,) for s in range(n))
    hands, won = _keys("hand", n), _keys("won", n)
    removed = layout_of(config).removed
    target, wins_needed = config.target, config.wins_needed

    def read(state: Any, seat: int) -> Reading:
        trick = state.trick
        looked = state.looked
        zones: list[ZoneCards] = [(("deck", None), state.deck, ()), (("removed", None), removed, everyone)]
        zones.extend((hands[s], state.hands[s], own[s] if looked[s] else ()) for s in range(n))
        zones.append((("trick", None), tuple(c for _, c in trick), everyone))
        zones.extend((won[s], state.won[s], everyone) for s in range(n))
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
        return Reading(zones, view)

    return read


def spacc_u_mazz(rules: Any, config: Any) -> Reader:
    """Spacc 'u Mazz (mirrors ``SpaccUMazzRules.zones`` and ``view``)."""
    from cardkit.games.spacc_u_mazz.rules import _remove

    n = config.players
    everyone = tuple(range(n))
    own = tuple((s,) for s in range(n))
    keys = [(("hand", s), ("known", s), ("face_up", s), ("face_down", s)) for s in range(n)]
    max_turns, target_score = config.max_turns, config.target_score

    def read(state: Any, seat: int) -> Reading:
        revealed = state.revealed
        zones: list[ZoneCards] = []
        for s in range(n):
            hand_key, known_key, up_key, down_key = keys[s]
            known = state.known[s]
            private = _remove(state.hands[s], known) if known else state.hands[s]
            zones.append((hand_key, private, everyone if revealed else own[s]))
            zones.append((known_key, known, everyone))
            zones.append((up_key, state.face_up[s], everyone))
            zones.append((down_key, state.face_down[s], everyone if revealed else ()))
        main = state.main_stock
        split = len(main) - min(state.main_known, len(main))
        zones.append((("pile", None), state.pile, everyone))
        zones.append((("main_stock", None), main[:split], ()))
        zones.append((("main_stock_buried", None), main[split:], everyone))
        zones.append((("reserve_stock", None), state.reserve_stock, ()))
        zones.append((("removed", None), state.removed, everyone))
        zones.append((("deck", None), state.deck, ()))
        zones.append((("jokers", None), state.jokers, everyone))
        zones.append((("pack_b", None), state.pack_b, ()))
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
        return Reading(zones, view)

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
