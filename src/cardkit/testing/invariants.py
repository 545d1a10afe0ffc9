"""The generic invariant checker (no third-party dependencies)."""

from __future__ import annotations

import copy
import json
import pickle
from collections import Counter
from typing import Any, Callable, Final, Iterable

import attrs

from cardkit.cards import Card
from cardkit.core.game import Game, chance_outcome, replay
from cardkit.core.log import GameLog
from cardkit.core.rules import CHANCE, Pick, PickSpec, Rules, Shuffle, Zone
from cardkit.errors import CardkitError, IllegalActionError, LogError, NotYourTurnError
from cardkit.games import get_rules
from cardkit.rng import Rng
from cardkit.serde import action_from_json, dumps, event_from_json, loads, to_json
from cardkit.testing.leaks import CardScanner, format_excess
from cardkit.testing.probes import action_mutations

__all__ = [
    "InvariantViolation",
    "InvariantReport",
    "check_invariants",
    "random_playout",
    "cards_mentioned",
    "safe_undo_leaks",
    "tampered_chance_log",
    "visible_counts",
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
    """Every card code found in JSON-compatible ``data`` (strings that are exact card codes).

    Kept for compatibility; the checker itself tokenizes every string and counts copies
    (see :func:`cardkit.testing.leaks.excess_mentions`).
    """
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


def visible_counts(zones: Iterable[Zone], viewer: int | None, players: int) -> Counter[Card]:
    """The cards (a multiset) that ``viewer`` may see in ``zones``; for ``None`` (a
    spectator) only zones visible to every seat."""
    everyone = tuple(range(players))
    out: Counter[Card] = Counter()
    for zone in zones:
        if viewer is None:
            if zone.visible_to == everyone:
                out.update(zone.cards)
        elif viewer in zone.visible_to:
            out.update(zone.cards)
    return out


def _fail(where: str, message: str) -> InvariantViolation:
    return InvariantViolation(f"{where}: {message}")


def _who(viewer: int | None) -> str:
    return "a spectator" if viewer is None else f"seat {viewer}"


class _Checker:
    """The per-game context of :func:`check_invariants` (one instance per checked game)."""

    def __init__(self, rules: AnyRules, players: int, deck: Counter[Card], probes: int, rng: Rng) -> None:
        self.rules = rules
        self.players = players
        self.deck = deck
        self.cards = sorted(deck, key=lambda c: c.code)
        self.scanner = CardScanner(self.cards)
        self.probes = probes
        self.rng = rng
        self.pool: dict[str, Any] = {}

    def leak(self, data: Any, allowed: Counter[Card], where: str, what: str) -> None:
        excess = self.scanner.excess(data, allowed)
        if excess:
            raise _fail(where, f"{what} names concealed cards {format_excess(excess)}")

    # ---------------------------------------------------------------- zones and views

    def zones(self, state: Any, where: str) -> tuple[Zone, ...]:
        zones = self.rules.zones(state)
        total: Counter[Card] = Counter()
        for zone in zones:
            if list(zone.visible_to) != sorted(set(zone.visible_to)) or any(
                not 0 <= s < self.players for s in zone.visible_to
            ):
                raise _fail(where, f"zone {zone.name}/{zone.owner} has bad visible_to {zone.visible_to}")
            total.update(zone.cards)
        if total != self.deck:
            missing = self.deck - total
            extra = total - self.deck
            raise _fail(where, f"cards not conserved: missing {sorted(map(str, missing))}, extra {sorted(map(str, extra))}")
        return zones

    def views(self, game: Game[Any, Any], zones: tuple[Zone, ...], where: str) -> None:
        for viewer in (None, *range(self.players)):
            view = game.view(viewer)
            try:
                data = json.loads(json.dumps(view))
            except (TypeError, ValueError) as exc:
                raise _fail(where, f"view({viewer}) is not JSON-serializable: {exc}") from exc
            self.leak(data, visible_counts(zones, viewer, self.players), where, f"view({viewer})")

    # ---------------------------------------------------------------- actions

    def actions(self, game: Game[Any, Any], legal: tuple[Any, ...], zones: tuple[Zone, ...], where: str) -> None:
        rules = self.rules
        seat = game.to_act
        assert seat is not None
        allowed = visible_counts(zones, seat, self.players)
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
            self.pool.setdefault(text, action)
        self.leak([str(a) for a in legal], allowed, where, f"legal_actions() of seat {seat}")
        self.leak([to_json(a) for a in legal], allowed, where, f"the JSON of seat {seat}'s legal actions")
        # legal => accepted is checked by playing every legal action
        for action in legal:
            try:
                game.play(action)
            except IllegalActionError as exc:
                raise _fail(where, f"legal action {action} was refused: {exc}") from exc
        # accepted => legal: actions legal elsewhere in this game, and legal actions with
        # one field changed; every refusal must name no card the seat cannot see
        elsewhere = [a for a in self.pool.values() if a not in seen]
        mutations = [a for a in action_mutations(legal, self.pool.values(), self.cards, self.rng) if a not in seen]
        # every candidate is played; the messages of all mutations and of a sample of the
        # (possibly thousands of) actions legal elsewhere are scanned for concealed cards
        scanned = {self.rng.below(len(elsewhere)) for _ in range(self.probes)} if elsewhere else set()
        for index, action in enumerate(elsewhere):
            self.refused(game, action, allowed, where, scan=index in scanned)
        for _ in range(min(self.probes, len(mutations))):
            self.refused(game, mutations.pop(self.rng.below(len(mutations))), allowed, where)
        to_act = game.to_act
        if legal and to_act is not None and self.players > 1:
            other = (to_act + 1) % self.players
            try:
                game.play(legal[0], seat=other)
            except NotYourTurnError as exc:
                other_allowed = visible_counts(zones, other, self.players) | self.scanner.tokens(str(legal[0]))
                self.leak(str(exc), other_allowed, where, f"the error seat {other} gets for playing out of turn")
            else:
                raise _fail(where, f"seat {other} played out of turn")

    def refused(self, game: Game[Any, Any], action: Any, allowed: Counter[Card], where: str, scan: bool = True) -> None:
        """``action`` must be refused with a cardkit error that (if ``scan``) names no
        card the seat to act cannot see, except cards the action itself names."""
        try:
            game.play(action)
        except CardkitError as exc:
            if not scan:
                return
            message = str(exc)
            excess = self.scanner.excess(message, allowed)
            if excess:
                # the seat may read back the cards it typed itself
                typed = self.scanner.tokens(str(action))
                if any(n > typed.get(c, 0) for c, n in excess.items()):
                    typed |= self.scanner.tokens(json.dumps(to_json(action)))
                    self.leak(message, allowed | typed, where, f"the error for {str(action)!r} ({type(exc).__name__})")
            return
        except Exception as exc:  # noqa: BLE001 - reported as a violation
            raise _fail(where, f"{action!r} raised {type(exc).__name__} ({exc}), not a cardkit error") from exc
        raise _fail(where, f"{str(action)!r} is not in legal_actions() but was accepted")

    # ---------------------------------------------------------------- entries

    def entry(self, game: Game[Any, Any], before: tuple[Zone, ...], after: tuple[Zone, ...], where: str) -> None:
        rules = self.rules
        entry = game.last_entry
        assert entry is not None
        for event in entry.events:
            if event_from_json(rules, json.loads(json.dumps(to_json(event)))) != event:
                raise _fail(where, f"JSON round trip changed event {event!r}")
        stream = game.entries_for
        for viewer in (None, *range(self.players)):
            allowed = visible_counts(before, viewer, self.players) | visible_counts(after, viewer, self.players)
            for event in entry.events:
                shown = rules.redact(event, viewer)
                if shown is not None:
                    self.leak(to_json(shown), allowed, where, f"event {type(event).__name__} as {_who(viewer)} sees it")
            new = stream(viewer, entry.seq - 1)
            if len(new) != 1 or new[0].seq != entry.seq:
                raise _fail(where, f"entries_for({viewer}, after={entry.seq - 1}) is not the one new entry")
            seat_entry = new[0]
            if entry.actor == CHANCE and seat_entry.action is not None:
                raise _fail(where, f"entries_for({viewer}) shows a chance action")
            if seat_entry.action is not None:
                self.leak(to_json(seat_entry.action), allowed, where, f"the action in entries_for({viewer})")
            self.leak([to_json(e) for e in seat_entry.events], allowed, where, f"the events in entries_for({viewer})")

    def safe_undo(self, before: Game[Any, Any], after: Game[Any, Any], where: str) -> None:
        """If ``after.undo(1, safe=True)`` is accepted, it must be ``before`` and let no
        seat have seen a card it could not see before (unless the actor could)."""
        try:
            undone = after.undo(1, safe=True)
        except IllegalActionError:
            return
        # the same log node means the same log; comparing whole logs here would be O(n) a step
        if undone.state != before.state or (undone._head is not before._head and undone != before):
            raise _fail(where, "safe undo(1) is not the previous game")
        leaks = safe_undo_leaks(before, after)
        if leaks:
            raise _fail(where, f"safe undo was accepted, but {leaks[0]}")


def safe_undo_leaks(before: Game[Any, Any], after: Game[Any, Any]) -> list[str]:
    """What a seat learned between ``before`` and ``after`` (a continuation of ``before``
    by one seat's entries) that the acting seat could not already see: cards newly visible
    to it in the zones after any entry, or named in its redacted events. Empty when taking
    the entries back is safe under the undo policy (docs/concepts.md, *Undo policy*)."""
    rules = before.rules
    players = before.players
    entries = after._entries_after(before.entry_count - 1)
    state = before.state
    actors = {e.actor for e in entries}
    zones = rules.zones(state)
    scanner = CardScanner({c for z in zones for c in z.cards})
    known = {v: visible_counts(zones, v, players) for v in range(players)}
    out: list[str] = []
    for entry in entries:
        for event in entry.events:
            state = rules.evolve(state, event)
        zones_after = rules.zones(state)
        for viewer in range(players):
            seen = visible_counts(zones_after, viewer, players)
            for event in entry.events:
                shown = rules.redact(event, viewer)
                if shown is not None:
                    seen |= scanner.tokens(json.dumps(to_json(shown)))
            new = seen - known[viewer]
            for actor in actors:
                new -= known[actor]
            if new:
                out.append(f"seat {viewer} saw {format_excess(new)} after {entry.action} (seq {entry.seq})")
    return out


def tampered_chance_log(game: Game[Any, Any]) -> GameLog | None:
    """``game``'s log with one chance outcome changed and every later entry re-decided, as
    a log claiming ``auto_chance``: a consistent log of a stacked deck that a verifying
    replay must reject. ``None`` if the game has no chance entry with another outcome."""
    rules = game.rules
    entries = game.log.entries
    target = None
    for entry in entries:
        if entry.actor != CHANCE:
            continue
        if isinstance(entry.action, Shuffle) and len(set(entry.action.order)) > 1:
            target = entry
        elif isinstance(entry.action, Pick) and target is None:
            target = entry
    if target is None:
        return None
    manual = Game.start(rules, game.config, game.seed, auto_chance=False)
    for entry in entries:
        action = entry.action
        if entry.seq == target.seq:
            if isinstance(action, Shuffle):
                order = list(action.order)
                j = next(i for i in range(1, len(order)) if order[i] != order[0])
                order[0], order[j] = order[j], order[0]
                action = Shuffle(tuple(order))
            else:
                spec = manual.pending_chance()
                assert isinstance(spec, PickSpec)
                if spec.n < 2:
                    return None
                action = Pick((action.index + 1) % spec.n)
        try:
            manual = manual.play(action)
        except IllegalActionError:
            break
    return attrs.evolve(manual.log, auto_chance=True, seed=game.seed)


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
    probes: int = 8,
    **options: Any,
) -> InvariantReport:
    """Play one random game and check every library invariant along the way.

    ``game`` is a registered name or a Rules object; ``options`` are its options.
    Random choices come from ``policy_seed``; chance from ``seed``. With
    ``full_checks_every=k`` the per-state checks (views, every legal action played,
    accepted ⇔ legal, refusals and their messages, state not mutated, safe undo) run on
    every k-th seat decision; zones and events are checked on every entry regardless.
    ``probes`` is how many legal actions with one field changed are tried per checked
    state (on top of every action seen legal elsewhere in the game).
    ``policy(game, legal, rng)`` replaces the uniformly random choice (e.g. a greedy
    player that reaches natural endings); it must return one of ``legal``. Raises
    :class:`InvariantViolation` on the first failure. docs/testing-your-rules.md lists
    every check.
    """
    rules = get_rules(game) if isinstance(game, str) else game
    config = rules.config(players, **options)
    tag = f"{rules.name} players={players} seed={seed} policy_seed={policy_seed} options={options}"
    manual = Game.start(rules, config, seed, auto_chance=False)
    deck = Counter(c for z in rules.zones(manual.state) for c in z.cards)
    rng = Rng.stream(policy_seed, 0)
    check = _Checker(rules, players, deck, probes, Rng.stream(policy_seed, 7))
    before_seat: list[Game[Any, Any]] = []
    seat_actions: list[Any] = []
    zones = check.zones(manual.state, f"{tag} entry 0")
    decisions = 0
    while True:
        to_act = manual.to_act
        where = f"{tag} entry {manual.entry_count}"
        full = False
        if to_act is None:
            if manual.legal_actions():
                raise _fail(where, "legal actions after the end")
            break
        if to_act == CHANCE:
            spec = manual.pending_chance()
            action = chance_outcome(spec, seed, manual._chance_count)
            if manual.legal_actions():
                raise _fail(where, "legal actions at a chance node")
        else:
            if max_seat_actions is not None and len(seat_actions) >= max_seat_actions:
                break
            legal = manual.legal_actions()
            if not legal:
                raise _fail(where, f"seat {to_act} is to act but has no legal action")
            full = decisions % full_checks_every == 0
            if full:
                snapshot = _fingerprint(manual.state, where)
                check.views(manual, zones, where)
                check.actions(manual, legal, zones, where)
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
        new_zones = check.zones(nxt.state, where)
        check.entry(nxt, zones, new_zones, where)
        if full:
            if _fingerprint(manual.state, where) != snapshot:
                raise _fail(where, "the state before the step changed: evolve or decide mutated shared state")
            # a safe undo rebuilds and compares visibility: costly, so at the 1st, 2nd,
            # 4th, 8th … checked decision (a dozen per long game)
            checked = decisions // full_checks_every
            if checked & (checked - 1) == 0:
                check.safe_undo(manual, nxt, where)
        scores = nxt.scores
        if len(scores) != players or not all(isinstance(x, int) and not isinstance(x, bool) for x in scores):
            raise _fail(where, f"scores must be one integer per seat, not {scores!r}")
        manual, zones = nxt, new_zones
    check.views(manual, zones, f"{tag} end")
    _check_result(manual, tag)
    _check_copies(manual, tag)
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
    _check_chance_verified(auto, tag)
    _check_streams(auto, tag)
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
    return InvariantReport(
        game=rules.name,
        players=players,
        seed=seed,
        entries=len(manual.log.entries),
        seat_actions=len(seat_actions),
        finished=manual.is_over,
        final=manual,
    )


def _fingerprint(state: Any, where: str) -> Any:
    """Something equal for an unchanged state and (almost surely) unequal once anything
    inside it was mutated: its pickle (fast), or a deep copy if it does not pickle."""
    try:
        return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - fall back to a deep copy (compared with ==)
        return _Copy(_snapshot(state, where))


class _Copy:
    """A deep copy that compares with ``==`` to another :class:`_Copy` (not to bytes)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Copy) and bool(self.value == other.value)

    __hash__ = None  # type: ignore[assignment]


def _snapshot(state: Any, where: str) -> Any:
    try:
        return copy.deepcopy(state)
    except Exception as exc:  # noqa: BLE001 - reported as a violation
        raise _fail(where, f"the state cannot be deep-copied ({type(exc).__name__}: {exc})") from exc


def _check_result(game: Game[Any, Any], tag: str) -> None:
    if not game.is_over:
        if game.result is not None:
            raise _fail(tag, f"a result {game.result!r} before the end")
        return
    result = game.result
    players = game.players
    if result is None:
        raise _fail(tag, "the game is over but has no result")
    scores, winners = result.scores, result.winners
    if len(scores) != players or not all(isinstance(x, int) and not isinstance(x, bool) for x in scores):
        raise _fail(tag, f"the result's scores must be one integer per seat: {result!r}")
    if any(not isinstance(w, int) or isinstance(w, bool) or not 0 <= w < players for w in winners):
        raise _fail(tag, f"the result names a winner seat that does not exist: {result!r}")
    if list(winners) != sorted(set(winners)):
        raise _fail(tag, f"the result's winners must be ascending and distinct: {result!r}")


def _check_copies(game: Game[Any, Any], tag: str) -> None:
    state = game.state
    try:
        again = pickle.loads(pickle.dumps(state))
    except Exception as exc:  # noqa: BLE001 - reported as a violation
        raise _fail(tag, f"the state does not pickle ({type(exc).__name__}: {exc})") from exc
    if again != state:
        raise _fail(tag, "the state unpickles unequal")
    if _snapshot(state, tag) != state:
        raise _fail(tag, "the state deep-copies unequal")
    for name in ("pickle", "deepcopy"):
        try:
            other: Game[Any, Any] = pickle.loads(pickle.dumps(game)) if name == "pickle" else copy.deepcopy(game)
        except Exception as exc:  # noqa: BLE001 - reported as a violation
            raise _fail(tag, f"the game does not {name} ({type(exc).__name__}: {exc})") from exc
        if other != game or dumps(other.log) != dumps(game.log):
            raise _fail(tag, f"the game is unequal after a {name} round trip")


def _check_chance_verified(game: Game[Any, Any], tag: str) -> None:
    tampered = tampered_chance_log(game)
    if tampered is None:
        return
    try:
        replay(game.rules, tampered)
    except LogError:
        return
    raise _fail(tag, "a log with auto_chance and a stacked chance entry replays without error")


def _check_streams(game: Game[Any, Any], tag: str) -> None:
    stream = game.entries_for
    length = len(game.log.entries)
    for viewer in (None, *range(game.players)):
        full = stream(viewer)
        if [e.seq for e in full] != list(range(length)):
            raise _fail(tag, f"entries_for({viewer}) does not list every entry once, in order")
        if tuple(e for entry in full for e in entry.events) != game.events_for(viewer):
            raise _fail(tag, f"the events of entries_for({viewer}) are not events_for({viewer})")
        for after in sorted({-1, 0, length // 2, length - 2, length - 1}):
            if after >= -1 and tuple(stream(viewer, after)) != tuple(full[after + 1:]):
                raise _fail(tag, f"entries_for({viewer}, after={after}) is not the tail of entries_for({viewer})")
