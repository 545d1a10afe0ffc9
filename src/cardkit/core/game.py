"""The :class:`Game` aggregate: an immutable, event-sourced game driven by a :class:`Rules`.

A ``Game`` holds the rules, the resolved config, the seed, the current state and the log.
Every method that changes something returns a new ``Game``; the old one stays valid, so a
host can keep any number of branches. The log is a persistent linked list with a state
snapshot every :data:`SNAPSHOT_EVERY` entries: ``play`` is O(1) amortized in the length of
the game, and ``undo(k)`` re-applies at most ``SNAPSHOT_EVERY`` entries' events after
walking back ``k`` entries.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final, Iterable, Mapping

from cardkit.cards import Card
from cardkit.core.log import GameLog, LogEntry, upcast
from cardkit.core.rules import (
    CHANCE,
    ChanceAction,
    ChanceSpec,
    Pick,
    PickSpec,
    Result,
    Rules,
    Shuffle,
    Zone,
    guard_turn,
)
from cardkit.core.seat import SeatState
from cardkit.errors import (
    ConfigError,
    GameOverError,
    IllegalActionError,
    LogError,
    NotYourTurnError,
    ReplayMismatchError,
    SeatError,
)
from cardkit.rng import Rng

__all__ = ["Game", "SNAPSHOT_EVERY", "chance_outcome"]

SNAPSHOT_EVERY: Final = 32
"""A log node keeps the state after it every this many entries (undo's restart points)."""

AnyRules = Rules[Any, Any, Any, Any]


def chance_outcome(spec: ChanceSpec, seed: int, index: int) -> ChanceAction:
    """The chance action number ``index`` of a game seeded ``seed`` (see :mod:`cardkit.rng`)."""
    rng = Rng.stream(seed, index)
    if isinstance(spec, PickSpec):
        return Pick(rng.below(spec.n))
    return Shuffle(rng.shuffle(spec.cards))


class _Node:
    """One log entry in a persistent singly linked list (newest first)."""

    __slots__ = ("entry", "prev", "length", "chances", "snapshot")

    def __init__(
        self, entry: LogEntry, prev: _Node | None, chances: int, snapshot: Any
    ) -> None:
        self.entry = entry
        self.prev = prev
        self.length = entry.seq + 1
        self.chances = chances
        self.snapshot = snapshot


def _visible(zones: Iterable[Zone], seat: int) -> Counter[Card]:
    seen: Counter[Card] = Counter()
    for zone in zones:
        if seat in zone.visible_to:
            seen.update(zone.cards)
    return seen


class Game:
    """An immutable game in progress (or over). Create one with :func:`cardkit.new_game`."""

    __slots__ = ("rules", "config", "seed", "auto_chance", "state", "_initial", "_head", "_log")

    rules: AnyRules
    config: Any
    seed: int
    auto_chance: bool
    state: Any

    def __init__(
        self,
        rules: AnyRules,
        config: Any,
        seed: int,
        auto_chance: bool,
        state: Any,
        initial: Any,
        head: _Node | None,
    ) -> None:
        """Internal: use :func:`cardkit.new_game`, :meth:`start` or :func:`cardkit.replay`."""
        self.rules = rules
        self.config = config
        self.seed = seed
        self.auto_chance = auto_chance
        self.state = state
        self._initial = initial
        self._head = head
        self._log: GameLog | None = None

    # ----------------------------------------------------------------- creation

    @classmethod
    def start(cls, rules: AnyRules, config: Any, seed: int, auto_chance: bool = True) -> Game:
        """A new game of ``rules`` with a validated ``config``."""
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ConfigError(f"seed must be an integer, not {type(seed).__name__}")
        initial = rules.initial_state(config)
        game = cls(rules, config, seed, auto_chance, initial, initial, None)
        return game._run_chance() if auto_chance else game

    @classmethod
    def from_log(cls, rules: AnyRules, log: GameLog) -> Game:
        """Rebuild a game by re-deciding every entry (see :func:`cardkit.core.log.replay`)."""
        if log.game != rules.name:
            raise LogError(f"the log is a {log.game!r} game, not {rules.name!r}")
        log = upcast(log, rules.rules_version)
        options = dict(log.config)
        players = options.pop("players", None)
        if not isinstance(players, int):
            raise LogError("the log's config has no integer 'players'")
        try:
            config = rules.config(players, **options)
        except ConfigError as exc:
            raise LogError(f"the log's config is invalid: {exc}") from exc
        game = cls.start(rules, config, log.seed, auto_chance=False)
        for i, entry in enumerate(log.entries):
            if entry.seq != i:
                raise LogError(f"entry {i} has seq {entry.seq}: the log is out of order")
            game = game._replay_entry(entry)
        game.auto_chance = log.auto_chance
        return game._run_chance() if log.auto_chance else game

    def _replay_entry(self, entry: LogEntry) -> Game:
        to_act = self.rules.to_act(self.state)
        where = f"entry {entry.seq} ({entry.action})"
        if to_act is None:
            raise ReplayMismatchError(f"{where}: the game was already over")
        if entry.actor != to_act:
            raise ReplayMismatchError(f"{where}: actor {entry.actor} but {to_act} was to act")
        try:
            self._check_action(entry.action, None)
            events = tuple(self.rules.decide(self.state, entry.action))
        except IllegalActionError as exc:
            raise ReplayMismatchError(f"{where}: the rules now refuse it: {exc}") from exc
        if events != tuple(entry.events):
            raise ReplayMismatchError(f"{where}: its events differ from what the rules decide now")
        return self._append(to_act, entry.action, events)

    # ----------------------------------------------------------------- the contract

    @property
    def players(self) -> int:
        """Number of seats."""
        return int(self.config.players)

    @property
    def to_act(self) -> int | None:
        """The seat to decide next, :data:`CHANCE` at a pending chance node, ``None`` when over."""
        return self.rules.to_act(self.state)

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.rules.to_act(self.state) is None

    @property
    def result(self) -> Result | None:
        """The result of a finished game, else ``None``."""
        return self.rules.result(self.state)

    @property
    def scores(self) -> tuple[int, ...]:
        """Points of the current game per seat, as the game's rules define them."""
        return self.rules.scores(self.state)

    def legal_actions(self) -> tuple[Any, ...]:
        """Actions the seat to act may play, in the game's documented order (``()`` at chance)."""
        to_act = self.rules.to_act(self.state)
        if to_act is None or to_act == CHANCE:
            return ()
        return self.rules.legal_actions(self.state)

    def pending_chance(self) -> ChanceSpec:
        """What chance must decide now; :class:`IllegalActionError` if no chance node is pending."""
        if self.rules.to_act(self.state) != CHANCE:
            raise IllegalActionError("no chance outcome is pending", None, None)
        return self.rules.pending_chance(self.state)

    def _check_seat(self, seat: int | None) -> None:
        if seat is None:
            return
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise SeatError(f"seat {seat!r} is out of range 0..{self.players - 1}")

    def _check_action(self, action: Any, seat: int | None) -> None:
        # The shared guards run here too (not only inside decide), so that a user's rules
        # that forget them still cannot accept a bad shuffle or an action of another game.
        try:
            to_act = guard_turn(self.rules, self.state, action)
        except IllegalActionError as exc:
            exc.seat = seat if exc.seat is None else exc.seat
            raise
        if to_act != CHANCE and not isinstance(action, self.rules.action_types):
            raise IllegalActionError(
                f"{action!r} is not an action of {self.rules.name}", action, seat
            )

    def play(self, action: Any, seat: int | None = None) -> Game:
        """The game after ``action``; this game is unchanged.

        Guards, in order: the game is over (:class:`GameOverError`), ``seat`` out of range
        (:class:`SeatError`), ``seat`` given but not to act (:class:`NotYourTurnError`),
        the action is not allowed (:class:`IllegalActionError`).
        """
        to_act = self.rules.to_act(self.state)
        if to_act is None:
            raise GameOverError("the game is over", action, seat)
        if seat is not None:
            self._check_seat(seat)
            if seat != to_act:
                who = "chance" if to_act == CHANCE else f"seat {to_act}"
                raise NotYourTurnError(f"it is not seat {seat}'s turn: {who} is to act", action, seat)
        self._check_action(action, seat)
        try:
            events = self.rules.decide(self.state, action)
        except IllegalActionError as exc:
            if exc.seat is None:
                exc.seat = to_act
            if exc.action is None:
                exc.action = action
            raise
        game = self._append(to_act, action, events)
        return game._run_chance() if self.auto_chance else game

    def play_text(self, text: str, seat: int | None = None) -> Game:
        """:meth:`play` an action given in the game's notation (``"play 8H S"``)."""
        return self.play(self.rules.parse_action(text), seat)

    def view(self, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may see (``None``: a spectator), JSON-compatible."""
        self._check_seat(seat)
        return self.rules.view(self.state, seat)

    def zones(self) -> tuple[Zone, ...]:
        """Every card of the game and who may see it (host side)."""
        return self.rules.zones(self.state)

    @property
    def log(self) -> GameLog:
        """The whole log (built once per ``Game`` object, O(entries))."""
        if self._log is None:
            self._log = GameLog(
                game=self.rules.name,
                rules_version=self.rules.rules_version,
                config={"players": self.players, **self.config.as_options()},
                seed=self.seed,
                entries=tuple(self._entries()),
                auto_chance=self.auto_chance,
            )
        return self._log

    @property
    def last_entry(self) -> LogEntry | None:
        """The newest log entry (O(1)), or None before anything happened."""
        return self._head.entry if self._head is not None else None

    @property
    def events(self) -> tuple[Any, ...]:
        """Every event so far, unredacted (host side)."""
        return tuple(e for entry in self._entries() for e in entry.events)

    def events_for(self, seat: int | None) -> tuple[Any, ...]:
        """Every event so far as ``seat`` may see it (``None``: a spectator)."""
        self._check_seat(seat)
        redact = self.rules.redact
        out = []
        for entry in self._entries():
            for event in entry.events:
                shown = redact(event, seat)
                if shown is not None:
                    out.append(shown)
        return tuple(out)

    @property
    def seat_actions(self) -> int:
        """How many log entries were made by seats (what :meth:`undo` counts)."""
        return sum(1 for e in self._entries() if e.actor != CHANCE)

    def undo(self, steps: int = 1, safe: bool = False) -> Game:
        """The game as it was ``steps`` seat actions ago (with the chance entries they caused).

        With ``safe=True`` it refuses (:class:`IllegalActionError`) when the undone entries
        include a chance entry, actions of more than one seat, or an entry that let its
        seat see a card it could not see before.
        """
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 0:
            raise IllegalActionError(f"undo steps must be a non-negative integer, not {steps!r}")
        if steps == 0:
            return self
        undone: list[_Node] = []
        node = self._head
        found = 0
        while node is not None:
            undone.append(node)
            if node.entry.actor != CHANCE:
                found += 1
                if found == steps:
                    break
            node = node.prev
        if found < steps:
            raise IllegalActionError(
                f"cannot undo {steps} seat action(s): only {found} were played"
            )
        target = undone[-1].prev
        state = self._state_at(target)
        if safe:
            self._check_safe_undo(state, [n.entry for n in reversed(undone)])
        return Game(self.rules, self.config, self.seed, self.auto_chance, state, self._initial, target)

    # ----------------------------------------------------------------- internals

    def _append(self, actor: int, action: Any, events: Iterable[Any]) -> Game:
        rules = self.rules
        events = tuple(events)
        state = self.state
        evolve = rules.evolve
        for event in events:
            state = evolve(state, event)
        head = self._head
        seq = head.length if head is not None else 0
        chances = head.chances if head is not None else 0
        if actor == CHANCE:
            chances += 1
        snapshot = state if (seq + 1) % SNAPSHOT_EVERY == 0 else None
        node = _Node(LogEntry(seq, actor, action, events), head, chances, snapshot)
        return Game(rules, self.config, self.seed, self.auto_chance, state, self._initial, node)

    def _run_chance(self) -> Game:
        game = self
        rules = self.rules
        while rules.to_act(game.state) == CHANCE:
            index = game._head.chances if game._head is not None else 0
            action = chance_outcome(rules.pending_chance(game.state), self.seed, index)
            game = game._append(CHANCE, action, rules.decide(game.state, action))
        return game

    def _entries(self) -> list[LogEntry]:
        out = []
        node = self._head
        while node is not None:
            out.append(node.entry)
            node = node.prev
        out.reverse()
        return out

    def _state_at(self, node: _Node | None) -> Any:
        if node is self._head:
            return self.state
        pending: list[LogEntry] = []
        while node is not None and node.snapshot is None:
            pending.append(node.entry)
            node = node.prev
        state = node.snapshot if node is not None else self._initial
        evolve = self.rules.evolve
        for entry in reversed(pending):
            for event in entry.events:
                state = evolve(state, event)
        return state

    def _check_safe_undo(self, state: Any, entries: list[LogEntry]) -> None:
        if any(e.actor == CHANCE for e in entries):
            raise IllegalActionError("unsafe undo: it would take back a chance outcome")
        if len({e.actor for e in entries}) > 1:
            raise IllegalActionError("unsafe undo: it would take back actions of several seats")
        rules = self.rules
        for entry in entries:
            before = _visible(rules.zones(state), entry.actor)
            for event in entry.events:
                state = rules.evolve(state, event)
            if _visible(rules.zones(state), entry.actor) - before:
                raise IllegalActionError(
                    f"unsafe undo: {entry.action} showed seat {entry.actor} a card it had not seen"
                )

    def seat_state(self, seat: int) -> SeatState:
        """What ``seat`` knows now, for a bot: view, redacted events, legal actions, rules,
        config, and ``sample(rng)`` (see :class:`cardkit.core.seat.SeatState`)."""
        if seat is None:
            raise SeatError("a seat state needs a seat, not None (spectators do not play)")
        self._check_seat(seat)
        entries_for = getattr(self, "entries_for", None)
        return SeatState(
            self.rules,
            self.config,
            self.state,
            seat,
            lambda: self.events_for(seat),
            (lambda: entries_for(seat)) if entries_for is not None else tuple,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (
            self.rules is other.rules
            and self.config == other.config
            and self.seed == other.seed
            and self.auto_chance == other.auto_chance
            and self.state == other.state
            and self._entries() == other._entries()
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        length = self._head.length if self._head is not None else 0
        return (
            f"<Game {self.rules.name} players={self.players} seed={self.seed} "
            f"entries={length} to_act={self.to_act}>"
        )
