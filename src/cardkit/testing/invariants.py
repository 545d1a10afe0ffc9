"""The generic invariant checker (no third-party dependencies)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Callable, Iterable

import attrs

from cardkit.cards import Card
from cardkit.core.game import Game, chance_outcome
from cardkit.core.log import replay
from cardkit.core.rules import CHANCE, Rules, Zone
from cardkit.errors import IllegalActionError, NotYourTurnError
from cardkit.games import get_rules
from cardkit.rng import Rng
from cardkit.serde import action_from_json, dumps, event_from_json, loads, to_json

__all__ = [
    "InvariantViolation",
    "InvariantReport",
    "check_invariants",
    "random_playout",
    "cards_mentioned",
]

AnyRules = Rules[Any, Any, Any, Any]


class InvariantViolation(AssertionError):
    """A game broke a library invariant; the message says which, where, and how to reproduce."""


@attrs.frozen
class InvariantReport:
    """What :func:`check_invariants` exercised."""

    game: str
    players: int
    seed: int
    entries: int
    seat_actions: int
    finished: bool
    final: Game[Any, Any] = attrs.field(eq=False, repr=False)
    """The last game reached (for further assertions)."""


Policy = Callable[[Game[Any, Any], "tuple[Any, ...]", Rng], Any]
"""Chooses a seat action: ``policy(game, legal_actions, rng) -> action``."""


def random_playout(game: Game[Any, Any], rng: Rng, max_seat_actions: int | None = None) -> Game[Any, Any]:
    """Play uniformly random legal actions (and chance if pending) until the game ends."""
    count = 0
    while True:
        to_act = game.to_act
        if to_act is None:
            return game
        if to_act == CHANCE:
            game = game.play(chance_outcome(game.pending_chance(), rng.next64(), 0))
            continue
        if max_seat_actions is not None and count >= max_seat_actions:
            return game
        legal = game.legal_actions()
        game = game.play(legal[rng.below(len(legal))])
        count += 1


def cards_mentioned(data: Any) -> set[Card]:
    """Every card code found in JSON-compatible ``data`` (strings that are exact card codes)."""
    found: set[Card] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            card = Card._interned.get(item)
            if card is not None:
                found.add(card)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def _visible_cards(zones: Iterable[Zone], viewer: int | None, players: int) -> set[Card]:
    everyone = tuple(range(players))
    out: set[Card] = set()
    for zone in zones:
        if viewer is None:
            if zone.visible_to == everyone:
                out.update(zone.cards)
        elif viewer in zone.visible_to:
            out.update(zone.cards)
    return out


def _fail(where: str, message: str) -> InvariantViolation:
    return InvariantViolation(f"{where}: {message}")


def _check_zones(rules: AnyRules, state: Any, deck: Counter[Card], players: int, where: str) -> tuple[Zone, ...]:
    zones = rules.zones(state)
    total: Counter[Card] = Counter()
    for zone in zones:
        if list(zone.visible_to) != sorted(set(zone.visible_to)) or any(
            not 0 <= s < players for s in zone.visible_to
        ):
            raise _fail(where, f"zone {zone.name}/{zone.owner} has bad visible_to {zone.visible_to}")
        total.update(zone.cards)
    if total != deck:
        missing = deck - total
        extra = total - deck
        raise _fail(where, f"cards not conserved: missing {sorted(map(str, missing))}, extra {sorted(map(str, extra))}")
    return zones


def _check_views(game: Game[Any, Any], zones: tuple[Zone, ...], where: str) -> None:
    players = game.players
    for viewer in (None, *range(players)):
        view = game.view(viewer)
        try:
            text = json.dumps(view)
        except (TypeError, ValueError) as exc:
            raise _fail(where, f"view({viewer}) is not JSON-serializable: {exc}") from exc
        leaked = cards_mentioned(json.loads(text)) - _visible_cards(zones, viewer, players)
        if leaked:
            raise _fail(where, f"view({viewer}) shows concealed cards {sorted(map(str, leaked))}")


def _check_actions(game: Game[Any, Any], legal: tuple[Any, ...], pool: dict[str, Any], where: str) -> None:
    rules = game.rules
    seen: set[Any] = set()
    for action in legal:
        if action in seen:
            raise _fail(where, f"legal_actions lists {action} twice")
        seen.add(action)
        text = str(action)
        try:
            parsed = rules.parse_action(text)
        except Exception as exc:  # noqa: BLE001 - reported as a violation
            raise _fail(where, f"parse_action({text!r}) failed: {exc!r}") from exc
        if parsed != action:
            raise _fail(where, f"notation round trip: {action!r} -> {text!r} -> {parsed!r}")
        if action_from_json(rules, to_json(action)) != action:
            raise _fail(where, f"JSON round trip changed {action!r}")
        pool.setdefault(text, action)
    # legal => accepted is checked by playing every legal action
    for action in legal:
        try:
            game.play(action)
        except IllegalActionError as exc:
            raise _fail(where, f"legal action {action} was refused: {exc}") from exc
    # accepted => legal, on every action seen legal anywhere so far
    for text, action in pool.items():
        if action in seen:
            continue
        try:
            game.play(action)
        except IllegalActionError:
            continue
        raise _fail(where, f"{text!r} is not in legal_actions() but was accepted")
    to_act = game.to_act
    if legal and to_act is not None and game.players > 1:
        other = (to_act + 1) % game.players
        try:
            game.play(legal[0], seat=other)
        except NotYourTurnError:
            pass
        else:
            raise _fail(where, f"seat {other} played out of turn")


def _check_entry_events(game: Game[Any, Any], before: tuple[Zone, ...], after: tuple[Zone, ...], events: tuple[Any, ...], where: str) -> None:
    rules = game.rules
    players = game.players
    for event in events:
        if event_from_json(rules, json.loads(json.dumps(to_json(event)))) != event:
            raise _fail(where, f"JSON round trip changed event {event!r}")
    for viewer in (None, *range(players)):
        allowed = _visible_cards(before, viewer, players) | _visible_cards(after, viewer, players)
        for event in events:
            shown = rules.redact(event, viewer)
            if shown is None:
                continue
            leaked = cards_mentioned(to_json(shown)) - allowed
            if leaked:
                raise _fail(where, f"event {type(event).__name__} shows seat {viewer} concealed cards {sorted(map(str, leaked))}")


def check_invariants(
    game: str | AnyRules,
    players: int,
    seed: int,
    *,
    policy_seed: int = 0,
    max_seat_actions: int | None = None,
    undo_checks: int = 3,
    full_checks_every: int = 1,
    policy: Policy | None = None,
    **options: Any,
) -> InvariantReport:
    """Play one random game and check every library invariant along the way.

    ``game`` is a registered name or a Rules object; ``options`` are its options.
    Random choices come from ``policy_seed``; chance from ``seed``. With
    ``full_checks_every=k`` the per-state checks (views, every legal action played,
    accepted ⇔ legal) run on every k-th seat decision; zones and events are checked
    on every entry regardless. ``policy(game, legal, rng)`` replaces the uniformly random
    choice (e.g. a greedy player that reaches natural endings); it must return one of
    ``legal``. Raises :class:`InvariantViolation` on the first failure.
    """
    rules = get_rules(game) if isinstance(game, str) else game
    config = rules.config(players, **options)
    tag = f"{rules.name} players={players} seed={seed} policy_seed={policy_seed} options={options}"
    manual = Game.start(rules, config, seed, auto_chance=False)
    deck = Counter(c for z in rules.zones(manual.state) for c in z.cards)
    rng = Rng.stream(policy_seed, 0)
    pool: dict[str, Any] = {}
    before_seat: list[Game[Any, Any]] = []
    seat_actions: list[Any] = []
    zones = _check_zones(rules, manual.state, deck, players, f"{tag} entry 0")
    decisions = 0
    while True:
        to_act = manual.to_act
        where = f"{tag} entry {manual._head.length if manual._head is not None else 0}"
        if to_act is None:
            if manual.legal_actions():
                raise _fail(where, "legal actions after the end")
            break
        if to_act == CHANCE:
            spec = manual.pending_chance()
            head = manual._head
            action = chance_outcome(spec, seed, head.chances if head is not None else 0)
            if manual.legal_actions():
                raise _fail(where, "legal actions at a chance node")
        else:
            if max_seat_actions is not None and len(seat_actions) >= max_seat_actions:
                break
            legal = manual.legal_actions()
            if not legal:
                raise _fail(where, f"seat {to_act} is to act but has no legal action")
            if decisions % full_checks_every == 0:
                _check_views(manual, zones, where)
                _check_actions(manual, legal, pool, where)
            decisions += 1
            if policy is None:
                action = legal[rng.below(len(legal))]
            else:
                action = policy(manual, legal, rng)
                if action not in legal:
                    raise _fail(where, f"the policy chose {action!r}, which is not legal")
            before_seat.append(manual)
            seat_actions.append(action)
        nxt = manual.play(action)
        new_zones = _check_zones(rules, nxt.state, deck, players, where)
        entry = nxt.last_entry
        assert entry is not None
        _check_entry_events(nxt, zones, new_zones, entry.events, where)
        if len(nxt.scores) != players:
            raise _fail(where, "scores must have one entry per seat")
        manual, zones = nxt, new_zones
    _check_views(manual, zones, f"{tag} end")
    if manual.is_over:
        result = manual.result
        if result is None or len(result.scores) != players or list(result.winners) != sorted(set(result.winners)):
            raise _fail(tag, f"bad result {result!r}")
    # replay through JSON
    text = dumps(manual.log)
    again = replay(rules, loads(text, rules))
    if again != manual:
        raise _fail(tag, "replay(loads(dumps(log))) differs from the game")
    if dumps(again.log) != text:
        raise _fail(tag, "replayed log serializes differently")
    # determinism and auto chance: the same seat actions from the seed give the same log
    auto = Game.start(rules, config, seed, auto_chance=True)
    for action in seat_actions:
        auto = auto.play(action)
    if [(e.actor, e.action, e.events) for e in auto.log.entries] != [
        (e.actor, e.action, e.events) for e in manual.log.entries
    ]:
        raise _fail(tag, "auto-chance game differs from the manual game with the seeded chance outcomes")
    auto2 = Game.start(rules, config, seed, auto_chance=True)
    for action in seat_actions:
        auto2 = auto2.play(action)
    if dumps(auto2.log) != dumps(auto.log):
        raise _fail(tag, "the same seed and actions gave a different log")
    # undo returns the earlier game exactly
    n = len(before_seat)
    if n:
        picks = {1, n} | {1 + rng.below(n) for _ in range(max(0, undo_checks - 2))}
        for k in sorted(picks):
            undone = manual.undo(k)
            expected = before_seat[n - k]
            if undone != expected or dumps(undone.log) != dumps(expected.log):
                raise _fail(tag, f"undo({k}) is not the game before the {k}-th last seat action")
            if undone.legal_actions() != expected.legal_actions():
                raise _fail(tag, f"undo({k}) has other legal actions")
            for viewer in (None, *range(players)):
                if undone.view(viewer) != expected.view(viewer):
                    raise _fail(tag, f"undo({k}) shows seat {viewer} another view")
        try:
            safe = manual.undo(1, safe=True)
        except IllegalActionError:
            pass
        else:
            if safe != before_seat[-1]:
                raise _fail(tag, "safe undo(1) is not the previous game")
    return InvariantReport(
        game=rules.name,
        players=players,
        seed=seed,
        entries=len(manual.log.entries),
        seat_actions=len(seat_actions),
        finished=manual.is_over,
        final=manual,
    )
