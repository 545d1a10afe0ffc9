"""The :class:`Game` aggregate: an immutable, event-sourced game driven by a :class:`Rules`.

A ``Game`` holds the rules, the resolved config, the seed, the current state and the log.
Every method that changes something returns a new ``Game``; the old one stays valid, so a
host can keep any number of branches. The log is a persistent linked list with a state
snapshot every :data:`SNAPSHOT_EVERY` entries: ``play`` is O(1) amortized in the length of
the game, and ``undo(k)`` re-applies at most ``SNAPSHOT_EVERY`` entries' events after
walking back ``k`` entries.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Final, Generic, Iterable, Sequence, TypeVar

from cardkit.core.config import resolve_config
from cardkit.core.fields import CHECKED_ACTIONS, check_fields, wrong_field
from cardkit.core.knowledge import check_safe_undo, check_take_back
from cardkit.core.log import GameLog, LogEntry, SeatEntry, SeatLog, upcast
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
    guard_turn_at,
)
from cardkit.core.seat import SeatState
from cardkit.errors import (
    ConfigError,
    GameOverError,
    NotationError,
    IllegalActionError,
    LogError,
    NotYourTurnError,
    ReplayMismatchError,
    SeatError,
)
from cardkit.rng import Rng

__all__ = ["Game", "SNAPSHOT_EVERY", "SEED_LIMIT", "check_seed", "chance_outcome", "replay"]

SNAPSHOT_EVERY: Final = 32
"""A log node keeps the state after it every this many entries (undo's restart points)."""

SEED_LIMIT: Final = 2**64
"""Seeds are integers in ``0..SEED_LIMIT - 1`` (what SplitMix64 consumes)."""

AnyRules = Rules[Any, Any, Any, Any]

A = TypeVar("A")
"""The game's action type (``Game[A, V]``)."""
V = TypeVar("V", covariant=True)
"""The game's view type (``Game[A, V]``): a built-in game's is a TypedDict."""


def check_seed(seed: object) -> int:
    """``seed`` if it is an int in ``0..2**64-1``; :class:`ConfigError` otherwise."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ConfigError(f"the seed must be an integer, not {type(seed).__name__}", "seed", seed)
    if not 0 <= seed < SEED_LIMIT:
        shown = repr(seed) if seed.bit_length() <= 256 else f"an integer of {seed.bit_length()} bits"
        raise ConfigError(f"the seed must be in 0..2**64-1, not {shown}", "seed", seed)
    return seed


def chance_outcome(spec: ChanceSpec, seed: int, index: int) -> ChanceAction:
    """The chance action number ``index`` of a game seeded ``seed`` (see :mod:`cardkit.rng`)."""
    rng = Rng.stream(seed, index)
    if isinstance(spec, PickSpec):
        return Pick(rng.below(spec.n))
    return Shuffle(rng.shuffle(spec.cards))


def replay(rules: Rules[Any, Any, Any, Any], log: GameLog) -> Game[Any, Any]:
    """Rebuild a game by re-deciding every entry of ``log`` with ``rules``.

    Raises :class:`~cardkit.errors.LogError` if the log belongs to another game or
    rules version or has a bad config, and :class:`~cardkit.errors.ReplayMismatchError`
    if an entry's actor or events differ from what the rules decide now. (It lives here,
    beside :class:`Game`, not in :mod:`cardkit.core.log`: the log is data the game
    imports, and a log module that built games would close an import circle.)
    """
    return Game.from_log(rules, log)


_new = object.__new__
_checked_get = CHECKED_ACTIONS.get  # the cache is cleared in place, never replaced


_Node = tuple[int, int, Any, tuple[Any, ...], Any, int, Any]
"""One log entry in a persistent singly linked list (newest first), as a plain tuple:
``(seq, actor, action, events, prev, chances, snapshot)``. ``prev`` is the node before
(``None`` for the first); ``chances`` counts the chance entries so far, this one included
(seat entries are ``seq + 1 - chances``); ``snapshot`` is the state after the entry every
:data:`SNAPSHOT_EVERY` entries, else ``None``. A tuple, not an object with slots: it is
built once per log entry, and a tuple is built in one step (a third of the time)."""

# The positions in a _Node.
_SEQ: Final = 0
_ACTOR: Final = 1
_ACTION: Final = 2
_EVENTS: Final = 3
_PREV: Final = 4
_CHANCES: Final = 5
_SNAPSHOT: Final = 6


def _entry_of(node: _Node) -> LogEntry:
    """The entry of ``node`` as a :class:`LogEntry` (built when asked for)."""
    return LogEntry(node[_SEQ], node[_ACTOR], node[_ACTION], node[_EVENTS])


class _History:
    """The entries before seq ``base`` of a game resumed from a state (a store's snapshot),
    fetched the first time anything reaches back past ``base`` (``log``, ``undo``,
    ``entries_for(after < base)``...), then kept: the nodes of seq ``0 .. base - 1``.

    ``load`` returns those entries (the store checks them against its hash chain);
    folding their events must give ``state``, the state the game was resumed from, after
    ``chances`` chance entries, else :class:`LogError`.
    """

    __slots__ = ("base", "_load", "_rules", "_config", "_state", "_chances", "_head", "_lock", "_initial")

    def __init__(
        self,
        base: int,
        load: Callable[[], Sequence[LogEntry]],
        rules: AnyRules,
        config: Any,
        state: Any,
        chances: int,
    ) -> None:
        self.base = base
        self._load = load
        self._rules = rules
        self._config = config
        self._state = state
        self._chances = chances
        self._head: _Node | None = None
        self._initial: Any = None
        self._lock = threading.Lock()

    def initial(self) -> Any:
        """The state before seq 0 (the rules' initial state)."""
        if self._initial is None:
            self._initial = self._rules.initial_state(self._config)
        return self._initial

    def head(self) -> _Node:
        """The node of seq ``base - 1`` (built once; later calls cost nothing)."""
        head = self._head
        if head is not None:
            return head
        with self._lock:
            if self._head is None:
                self._head = self._build()
            return self._head

    def _build(self) -> _Node:
        entries = self._load()
        if len(entries) != self.base or any(e.seq != i for i, e in enumerate(entries)):
            raise LogError(f"the entries before seq {self.base} did not come back whole and in order")
        evolve = self._rules.evolve
        state = self.initial()
        node: _Node | None = None
        chances = 0
        for entry in entries:
            for event in entry.events:
                state = evolve(state, event)
            if entry.actor == CHANCE:
                chances += 1
            snapshot = state if (entry.seq + 1) % SNAPSHOT_EVERY == 0 else None
            node = (entry.seq, entry.actor, entry.action, tuple(entry.events), node, chances, snapshot)
        if node is None or chances != self._chances or state != self._state:
            raise LogError(
                f"the entries before seq {self.base} do not lead to the state this game was resumed from"
            )
        return node


class _Line:
    """What every game of one line of play shares: the rules (with the bound methods the
    hot paths call), the config, the seed, ``auto_chance``, the initial state and, for a
    game resumed from a state, the :class:`_History` before it."""

    __slots__ = (
        "rules", "config", "seed", "auto_chance", "initial", "history",
        "decide", "evolve", "to_act", "legal_actions", "action_types", "seat_action_classes",
        "seat_histories",
    )  # fmt: skip

    def __init__(
        self,
        rules: AnyRules,
        config: Any,
        seed: int,
        auto_chance: bool,
        initial: Any,
        history: _History | None = None,
    ) -> None:
        self.rules = rules
        self.config = config
        self.seed = seed
        self.auto_chance = auto_chance
        self.initial = initial
        self.history = history
        # decide_after_guard is optional (see Rules): None means "call rules.decide".
        self.decide: Any = getattr(rules, "decide_after_guard", None)
        self.evolve = rules.evolve
        self.to_act = rules.to_act
        self.legal_actions = rules.legal_actions
        self.action_types = rules.action_types
        # The game's own action classes a seat plays (what play's fast path accepts: its
        # guards cannot fail for them, only their field types are left to check).
        self.seat_action_classes = frozenset(
            cls for cls in rules.action_types if cls is not Shuffle and cls is not Pick
        )
        # seat -> (node, its entries_for(seat), their events): the newest seat history
        # built on this line, so that a seat state after one more move redacts only the new
        # entries (a bot's seat state every move would otherwise cost O(game) each time).
        self.seat_histories: dict[int, tuple[Any, tuple[SeatEntry, ...], tuple[Any, ...]]] = {}


def _rules_key(rules: AnyRules) -> tuple[Any, ...]:
    # Rules are compared by what they are, not by identity, so that an unpickled game
    # (or one built with an equal rules object) equals the original.
    return (type(rules), rules.name, rules.rules_version)


def _rebuild(
    rules: AnyRules,
    config: Any,
    seed: int,
    auto_chance: bool,
    state: Any,
    initial: Any,
    actors: tuple[int, ...],
    actions: tuple[Any, ...],
    events: tuple[tuple[Any, ...], ...],
    snapshots: tuple[Any, ...],
    first: int = 0,
    chances: int = 0,
) -> Game[Any, Any]:
    """Unpickle a :class:`Game` from its flat form (see ``Game.__reduce__``).

    ``first`` and ``chances``: the seq of its first entry and the chance entries before it
    (not 0 for a game made by :meth:`Game.resume`, whose history starts later).
    """
    head: _Node | None = None
    shots = iter(snapshots)
    for seq, actor in enumerate(actors, first):
        if actor == CHANCE:
            chances += 1
        snapshot = next(shots) if (seq + 1) % SNAPSHOT_EVERY == 0 else None
        head = (seq, actor, actions[seq - first], events[seq - first], head, chances, snapshot)
    return Game(rules, config, seed, auto_chance, state, initial, head)


class Game(Generic[A, V]):
    """An immutable game in progress (or over). Create one with :func:`cardkit.new_game`.

    ``Game[A, V]`` is generic over the game's action type ``A`` (what :meth:`play` takes
    and :meth:`legal_actions` returns) and view type ``V`` (what :meth:`view` returns):
    ``new_game("wizard", ...)`` is a ``Game[WizardAction, WizardView]``, so a type checker
    catches a string passed to ``play``, another game's action or a misspelt view key.
    Games compare by value and hash consistently with ``==`` (O(1)), so they can be keys
    of a search table.

    Its attributes cannot be reassigned; every change returns a new ``Game``. ``seed``
    and ``state`` are host-side secrets (the seed predicts every deal): send players
    :meth:`entries_for`, :meth:`log_for` and :meth:`view`, never these.
    """

    # Public fields are read-only properties over private slots: assigning one is an
    # AttributeError, while building a Game stays plain slot stores (it is on the hot
    # path of every play; a __setattr__ override would cost twice as much). What every
    # game of one line of play shares (rules, config, seed...) is one _Line object, so
    # a play stores five slots, not ten.
    __slots__ = ("_line", "_state", "_head", "_log", "_to_act")

    _line: _Line
    _state: Any
    _head: _Node | None
    _log: GameLog | None
    _to_act: int | None

    def __init__(
        self,
        rules: Rules[Any, A, Any, V],
        config: Any,
        seed: int,
        auto_chance: bool,
        state: Any,
        initial: Any,
        head: _Node | None,
        history: _History | None = None,
    ) -> None:
        """Internal: use :func:`cardkit.new_game`, :meth:`start` or :func:`cardkit.replay`."""
        self._line = _Line(rules, config, seed, auto_chance, initial, history)
        self._state = state
        self._head = head
        self._log = None
        # Computed once per state: play, legal_actions, the chance loop and to_act all read it.
        self._to_act = rules.to_act(state)

    # The shared fields, for the code off the hot path.
    @property
    def _rules(self) -> Rules[Any, A, Any, V]:
        return self._line.rules

    @property
    def _config(self) -> Any:
        return self._line.config

    @property
    def _seed(self) -> int:
        return self._line.seed

    @property
    def _auto_chance(self) -> bool:
        return self._line.auto_chance

    @property
    def _initial(self) -> Any:
        return self._line.initial

    @property
    def _decide(self) -> Any:
        return self._line.decide

    @property
    def rules(self) -> Rules[Any, A, Any, V]:
        """The game's rules (a :class:`~cardkit.core.rules.Rules`)."""
        return self._rules

    @property
    def config(self) -> Any:
        """The validated config, every option resolved."""
        return self._config

    @property
    def seed(self) -> int:
        """The seed (``0..2**64-1``): host-side only, it predicts every deal."""
        return self._seed

    @property
    def auto_chance(self) -> bool:
        """Whether chance nodes are answered from the seed (else the game stops at them)."""
        return self._auto_chance

    @property
    def state(self) -> Any:
        """The full-information state: host-side only."""
        return self._state

    # ----------------------------------------------------------------- creation

    @classmethod
    def start(
        cls, rules: Rules[Any, A, Any, V], config: Any, seed: int, auto_chance: bool = True
    ) -> Game[A, V]:
        """A new game of ``rules`` with a validated ``config`` and a seed in ``0..2**64-1``."""
        check_seed(seed)
        if not isinstance(auto_chance, bool):
            raise ConfigError(
                f"auto_chance must be True or False, not {auto_chance!r}", "auto_chance", auto_chance
            )
        initial = rules.initial_state(config)
        game = cls(rules, config, seed, auto_chance, initial, initial, None)
        return game._run_chance() if auto_chance else game

    @classmethod
    def from_log(cls, rules: Rules[Any, A, Any, V], log: GameLog) -> Game[A, V]:
        """Rebuild a game by re-deciding every entry (see :func:`replay`).

        When the log says ``auto_chance``, every chance entry must be the outcome the
        seed gives (:func:`chance_outcome`): a stacked deal or an edited seed is a
        :class:`ReplayMismatchError`. Logs of ``auto_chance=False`` games carry chance
        supplied by hand and are replayed as they are.
        """
        if log.game != rules.name:
            raise LogError(f"the log is a {log.game!r} game, not {rules.name!r}")
        log = upcast(log, rules.rules_version)
        options = dict(log.config)
        players = options.pop("players", None)
        if not isinstance(players, int) or isinstance(players, bool):
            raise LogError("the log's config has no integer 'players'")
        try:
            config = resolve_config(rules, players, options)
            game = cls.start(rules, config, log.seed, auto_chance=False)
        except ConfigError as exc:
            raise LogError(f"the log's config is invalid: {exc}") from exc
        verify = log.auto_chance
        for i, entry in enumerate(log.entries):
            if entry.seq != i:
                raise LogError(f"entry {i} has seq {entry.seq}: the log is out of order", seq=i)
            if verify and entry.actor == CHANCE:
                game._verify_chance(entry)
                game = game._replay_entry(entry, chance_verified=True)
            else:
                game = game._replay_entry(entry)
        game = cls(
            rules, game._config, game._seed, log.auto_chance, game._state, game._initial, game._head
        )
        return game._run_chance() if log.auto_chance else game

    @classmethod
    def resume(
        cls,
        rules: Rules[Any, A, Any, V],
        config: Any,
        seed: int,
        auto_chance: bool,
        entries: Iterable[LogEntry],
        state: Any = None,
        chances: int = 0,
        history: Callable[[], Sequence[LogEntry]] | None = None,
    ) -> Game[A, V]:
        """A game rebuilt from a trusted ``state`` plus the log entries after it, each re-decided.

        ``state`` is the state before ``entries`` (``None``: the initial state, and then the
        entries start at seq 0); ``chances`` counts the chance entries before them. Chance
        entries are checked against ``seed`` when ``auto_chance``. This is how a store loads
        a long game from a snapshot in time proportional to the tail only.

        ``history`` returns the entries before the first of ``entries`` (seq 0 onwards); it
        is called once, the first time the game (or a game played or undone from it) reaches
        back that far: its ``log`` and ``events`` are then the whole game's, ``undo`` goes
        past the state, and ``replay(game.log) == game``. Folding those entries' events must
        give ``state`` (else :class:`LogError`). Without ``history`` the game's history
        starts at the first of ``entries``. Seqs and counts (``entry_count``,
        ``seat_actions``) are the whole game's either way.
        Raises :class:`LogError` (or :class:`ReplayMismatchError`) where the entries do not fit.
        """
        if state is None:
            game = cls.start(rules, config, seed, auto_chance=False)
            chances, first = 0, 0
        else:
            game = cls(rules, config, seed, False, state, state, None)
            first = -1
        for entry in entries:
            if first == -1:
                first = entry.seq
            expected = game._head[_SEQ] + 1 if game._head is not None else first
            if entry.seq != expected:
                raise LogError(
                    f"entry {entry.seq} follows entry {expected - 1}: the log has a gap", seq=entry.seq
                )
            if auto_chance and entry.actor == CHANCE and game._to_act == CHANCE:
                index = game._head[_CHANCES] if game._head is not None else chances
                drawn = chance_outcome(rules.pending_chance(game.state), seed, index)
                if entry.action != drawn:
                    raise ReplayMismatchError(
                        f"{_where(entry)}: its chance outcome is not the one the seed gives",
                        seq=entry.seq,
                    )
            game = game._replay_entry(entry)
            if game._head is not None and game._head[_PREV] is None and entry.seq != 0:
                # _append numbered the first entry 0; give it its place in the whole log.
                head = game._head
                node: _Node = (
                    entry.seq,
                    head[_ACTOR],
                    head[_ACTION],
                    head[_EVENTS],
                    None,
                    chances + (1 if head[_ACTOR] == CHANCE else 0),
                    game.state if (entry.seq + 1) % SNAPSHOT_EVERY == 0 else None,
                )
                game = cls(rules, config, seed, False, game.state, game._initial, node)
        if state is not None and first == -1:
            raise LogError("a game resumed from a state needs at least one entry after it")
        past = None
        if history is not None and state is not None and first > 0:
            past = _History(first, history, rules, config, state, chances)
        game = cls(rules, config, seed, auto_chance, game.state, game._initial, game._head, past)
        return game._run_chance() if auto_chance else game

    def _verify_chance(self, entry: LogEntry) -> None:
        if self._to_act != CHANCE:
            return  # _replay_entry reports the actor mismatch
        index = self._head[_CHANCES] if self._head is not None else 0
        expected = chance_outcome(self._rules.pending_chance(self._state), self._seed, index)
        if entry.action != expected:
            raise ReplayMismatchError(
                f"{_where(entry)}: this chance outcome is not the one the log's seed gives "
                "(a stacked deal or an edited seed); a log of a game with supplied chance "
                "must say auto_chance false",
                seq=entry.seq,
            )

    def _replay_entry(self, entry: LogEntry, chance_verified: bool = False) -> Game[A, V]:
        # chance_verified: a chance entry that _verify_chance found equal to the seed's
        # outcome, which answers pending_chance by construction (no guard to run again).
        to_act = self._to_act
        if to_act is None:
            raise ReplayMismatchError(f"{_where(entry)}: the game was already over", seq=entry.seq)
        if entry.actor != to_act:
            raise ReplayMismatchError(
                f"{_where(entry)}: {_actor_name(to_act)} was to act", seq=entry.seq
            )
        action = entry.action
        line = self._line  # the shared fields read directly: this runs once per entry
        after_guard = line.decide
        failure: str | None = None
        try:
            if to_act != CHANCE and type(action) in line.seat_action_classes:
                # all that is left of _check_action for such an action: its field types
                if CHECKED_ACTIONS.get(id(action)) is not action:
                    check_fields(action, None)
            elif chance_verified and to_act == CHANCE:
                check_fields(action, None)  # equal to the seed's outcome, but maybe Pick(True)
            else:
                self._check_action(action, None, to_act)
            if after_guard is None:
                events = self._decide_checked(action, to_act)
            else:
                events = after_guard(self._state, action, to_act)
                if type(events) is not tuple:
                    events = tuple(events)
        except IllegalActionError:
            wrong = wrong_field(action)
            failure = (
                "the rules now refuse its action" if wrong is None else f"its action is ill-typed: {wrong}"
            )
        if failure is not None:
            # Raised here, outside the except clause, and without the rules' reason: the
            # reason, the action and the original exception (its __context__) may name
            # hidden cards (a chance entry's action is the deck order), and hosts show
            # this text to people. The seq and the kind of entry are enough to find it.
            raise ReplayMismatchError(f"{_where(entry)}: {failure}", seq=entry.seq)
        logged = entry.events
        if type(logged) is not tuple:
            logged = tuple(logged)
        if events != logged:
            first = next(
                (i for i, (a, b) in enumerate(zip(events, logged)) if a != b), min(len(events), len(logged))
            )
            raise ReplayMismatchError(
                f"{_where(entry)}: its events differ from what the rules decide now (from event "
                f"{first}; {len(logged)} logged, {len(events)} decided)",
                seq=entry.seq,
            )
        return self._append(to_act, action, events)

    # ----------------------------------------------------------------- the contract

    @property
    def players(self) -> int:
        """Number of seats."""
        return int(self._config.players)

    @property
    def to_act(self) -> int | None:
        """The seat to decide next, :data:`CHANCE` at a pending chance node, ``None`` when over."""
        return self._to_act

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self._to_act is None

    @property
    def result(self) -> Result | None:
        """The result of a finished game, else ``None``."""
        return self._rules.result(self._state)

    @property
    def scores(self) -> tuple[int, ...]:
        """Points of the current game per seat, as the game's rules define them."""
        return self._rules.scores(self._state)

    def legal_actions(self) -> tuple[A, ...]:
        """Actions the seat to act may play, in the game's documented order (``()`` at chance)."""
        to_act = self._to_act
        if to_act is None or to_act == CHANCE:
            return ()
        return self._line.legal_actions(self._state)

    def pending_chance(self) -> ChanceSpec:
        """What chance must decide now; :class:`IllegalActionError` if no chance node is pending."""
        if self._to_act != CHANCE:
            raise IllegalActionError("no chance outcome is pending", None, None)
        return self._rules.pending_chance(self._state)

    def _check_seat(self, seat: int | None) -> None:
        if seat is None:
            return
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise SeatError(f"seat {seat!r} is out of range 0..{self.players - 1}")

    def _check_action(self, action: Any, seat: int | None, to_act: int | None) -> None:
        # The shared guards run here too (not only inside decide), so that a user's rules
        # that forget them still cannot accept a bad shuffle or an action of another game.
        # Field types are checked first: the guards themselves assume well-typed actions.
        cls = type(action)
        if to_act != CHANCE and cls is not Shuffle and cls is not Pick and cls in self._rules.action_types:
            # A seat is to act and this is one of the game's own action classes: the shared
            # guards pass (the caller has seen that the game is not over), the field types
            # are all that is left to check.
            check_fields(action, seat)
            return
        if isinstance(action, (Shuffle, Pick)):
            check_fields(action, seat)
        try:
            to_act = guard_turn_at(self._rules, self._state, action, to_act)
        except IllegalActionError as exc:
            exc.seat = seat if exc.seat is None else exc.seat
            raise
        if to_act != CHANCE:
            if not isinstance(action, self._rules.action_types):
                raise IllegalActionError(
                    f"{_short(action)} is not an action of {self._rules.name}", action, seat
                )
            check_fields(action, seat)

    def play(self, action: A | ChanceAction, seat: int | None = None) -> Game[A, V]:
        """The game after ``action``; this game is unchanged.

        Guards, in order: the game is over (:class:`GameOverError`), ``seat`` out of range
        (:class:`SeatError`), ``seat`` given but not to act (:class:`NotYourTurnError`),
        the action is not allowed or a field of it has the wrong type
        (:class:`IllegalActionError`).
        """
        to_act = self._to_act
        if to_act is None:
            raise GameOverError("the game is over", action, seat)
        if seat is not None:
            self._check_seat(seat)
            if seat != to_act:
                who = "chance" if to_act == CHANCE else f"seat {to_act}"
                raise NotYourTurnError(f"it is not seat {seat}'s turn: {who} is to act", action, seat)
        line = self._line
        if to_act != CHANCE and type(action) in line.seat_action_classes:
            # all that is left of _check_action for such an action: its field types
            if _checked_get(id(action)) is not action:
                check_fields(action, seat)
        else:
            self._check_action(action, seat, to_act)
        after_guard = line.decide
        try:
            if after_guard is None:
                events = tuple(line.rules.decide(self._state, action))
            else:
                events = after_guard(self._state, action, to_act)
                if type(events) is not tuple:
                    events = tuple(events)
        except IllegalActionError as exc:
            if exc.seat is None:
                exc.seat = to_act
            if exc.action is None:
                exc.action = action
            raise
        if to_act == CHANCE:
            game = self._append(to_act, action, events)
        else:
            # _append for a seat's entry, inlined: this is the hot path of every play.
            state = self._state
            evolve = line.evolve
            for event in events:
                state = evolve(state, event)
            head = self._head
            if head is not None:
                seq = head[_SEQ] + 1
                node: _Node = (
                    seq, to_act, action, events, head, head[_CHANCES],
                    state if (seq + 1) % SNAPSHOT_EVERY == 0 else None,
                )  # fmt: skip
            else:
                node = (0, to_act, action, events, None, 0, None)  # SNAPSHOT_EVERY > 1
            game = _new(Game)
            game._line = line
            game._state = state
            game._head = node
            game._log = None
            game._to_act = line.to_act(state)
        return game._run_chance() if game._to_act == CHANCE and line.auto_chance else game

    def play_text(self, text: str, seat: int | None = None) -> Game[A, V]:
        """:meth:`play` an action given in the game's notation (``"play 8H S"``).

        Text that does not parse is a :class:`NotationError` whose ``text`` is ``text``.
        """
        try:
            action = self._rules.parse_action(text)
        except NotationError as exc:
            if exc.text is None:
                exc.text = text
            raise
        return self.play(action, seat)

    def view(self, seat: int | None) -> V:
        """What ``seat`` may see (``None``: a spectator), JSON-compatible."""
        self._check_seat(seat)
        return self._rules.view(self._state, seat)

    def zones(self) -> tuple[Zone, ...]:
        """Every card of the game and who may see it (host side)."""
        return self._rules.zones(self._state)

    @property
    def log(self) -> GameLog:
        """The whole log (built once per ``Game`` object, O(entries)); host side: it has the seed.

        A game a store loaded from a snapshot fetches its older entries from the store the
        first time anything reaches back past the snapshot (see :meth:`resume`)."""
        log = self._log
        if log is None:
            log = GameLog(
                game=self._rules.name,
                rules_version=self._rules.rules_version,
                config={"players": self.players, **self._config.as_options()},
                seed=self._seed,
                entries=tuple(self._entries()),
                auto_chance=self._auto_chance,
            )
            self._log = log
        return log

    @property
    def last_entry(self) -> LogEntry | None:
        """The newest log entry (O(1)), or None before anything happened."""
        return _entry_of(self._head) if self._head is not None else None

    @property
    def entry_count(self) -> int:
        """How many log entries there are (O(1))."""
        return self._head[_SEQ] + 1 if self._head is not None else 0

    def entries_for(self, seat: int | None, after: int = -1) -> tuple[SeatEntry, ...]:
        """The log entries with ``seq > after`` as ``seat`` may see them (``None``: a spectator).

        This is what a host sends to a player: chance actions are withheld (``None``),
        seat actions are shown unless the rules withhold them (an optional
        ``rules.redact_action(action, viewer)``), events are redacted and the ones the
        viewer sees nothing of are left out. Costs O(new entries), not O(game): a host
        can stream every seat after every move with ``after`` = the last ``seq`` it sent.
        """
        self._check_seat(seat)
        if not isinstance(after, int) or isinstance(after, bool) or after < -1:
            raise IllegalActionError(f"after must be a seq (an integer >= -1), not {after!r}")
        nodes: list[_Node] = []
        node = self._head
        while node is not None and node[_SEQ] > after:
            nodes.append(node)
            node = node[_PREV] if node[_PREV] is not None else self._before(node)
        rules = self._rules
        redact = rules.redact
        redact_action = getattr(rules, "redact_action", None)
        out = []
        for node in reversed(nodes):
            actor = node[_ACTOR]  # a node has the entry's fields: no LogEntry built
            if actor == CHANCE:
                action = None
            elif redact_action is not None:
                action = redact_action(node[_ACTION], seat)
            else:
                action = node[_ACTION]
            events = []
            for event in node[_EVENTS]:
                shown = redact(event, seat)
                if shown is not None:
                    events.append(shown)
            out.append(SeatEntry(node[_SEQ], actor, action, tuple(events)))
        return tuple(out)

    def log_for(self, seat: int | None) -> SeatLog:
        """The whole game as ``seat`` may see it (no seed, no chance orders, redacted
        events): JSON through :func:`cardkit.dumps`, back through :func:`cardkit.loads_seat_log`."""
        return SeatLog(
            game=self._rules.name,
            rules_version=self._rules.rules_version,
            config={"players": self.players, **self._config.as_options()},
            seat=seat,
            entries=self.entries_for(seat),
        )

    @property
    def events(self) -> tuple[Any, ...]:
        """Every event so far, unredacted (host side)."""
        return tuple(e for entry in self._entries() for e in entry.events)

    def events_for(self, seat: int | None) -> tuple[Any, ...]:
        """Every event so far as ``seat`` may see it (``None``: a spectator)."""
        return tuple(e for entry in self.entries_for(seat) for e in entry.events)

    @property
    def seat_actions(self) -> int:
        """How many log entries were made by seats (what :meth:`undo` counts); O(1)."""
        head = self._head
        return head[_SEQ] + 1 - head[_CHANCES] if head is not None else 0

    def undo(self, steps: int = 1, safe: bool = False) -> Game[A, V]:
        """The game as it was ``steps`` seat actions ago (with the chance entries they caused).

        The result equals the earlier game exactly (log, state, views). With ``safe=True``
        it refuses (:class:`IllegalActionError`) when the undone entries include a chance
        entry or actions of more than one seat, or when after one of them any seat could
        know where a card is that it could not know before (a card it can now see, an
        event naming a card hidden from it, an event that depends on where hidden cards
        lie), unless the actor could already see that card before the entry.
        """
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 0:
            raise IllegalActionError(f"undo steps must be a non-negative integer, not {steps!r}")
        if not isinstance(safe, bool):
            raise IllegalActionError(f"undo safe must be True or False, not {safe!r}")
        if steps == 0:
            return self
        undone: list[_Node] = []
        node = self._head
        found = 0
        while node is not None:
            undone.append(node)
            if node[_ACTOR] != CHANCE:
                found += 1
                if found == steps:
                    break
            node = node[_PREV] if node[_PREV] is not None else self._before(node)
        if found < steps:
            raise IllegalActionError(
                f"cannot undo {steps} seat action(s): only {found} were played"
            )
        target = self._before(undone[-1])
        state = self._state_at(target)
        if safe:
            check_safe_undo(self._rules, self.players, state, [_entry_of(n) for n in reversed(undone)])
        return Game(
            self._rules, self._config, self._seed, self._auto_chance, state, self._initial, target,
            self._line.history,
        )  # fmt: skip

    def undo_seat(self, seat: int, safe: bool = True, replies: bool = False) -> Game[A, V]:
        """The game as it was just before ``seat``'s most recent action, so that it is
        ``seat``'s turn again; the entries after that action go too.

        ``replies=True`` is taking back a move against bots: the other seats' actions and
        chance entries since ``seat``'s action go with it, and ``safe`` then refuses only
        when one of those entries (or the action itself) showed ``seat`` a card that was
        hidden from it (:func:`cardkit.core.knowledge.check_take_back`); what the other
        seats learned is not considered, so use it only where they are programs.

        Safe by default: with ``safe=True`` it is refused (:class:`IllegalActionError`)
        when another seat or chance has acted since (that would take back more than this
        seat's own move) or when the move showed anyone a card (the rules of
        :meth:`undo`). ``safe=False`` also takes back everything after the seat's action.
        A seat that has not acted yet is an :class:`IllegalActionError`; a seat out of
        range a :class:`SeatError`. Costs O(entries undone), plus :meth:`undo`'s replay.
        """
        if seat is None:
            raise SeatError("undo_seat needs a seat, not None")
        self._check_seat(seat)
        if not isinstance(safe, bool):
            raise IllegalActionError(f"undo_seat safe must be True or False, not {safe!r}", None, seat)
        if not isinstance(replies, bool):
            raise IllegalActionError(f"undo_seat replies must be True or False, not {replies!r}", None, seat)
        steps = 0
        node = self._head
        while node is not None:
            actor = node[_ACTOR]
            if actor != CHANCE:
                steps += 1
                if actor == seat:
                    break
            node = node[_PREV] if node[_PREV] is not None else self._before(node)
        if node is None:
            raise IllegalActionError(f"seat {seat} has not acted yet: nothing to take back", None, seat)
        if replies:
            earlier = self.undo(steps, safe=False)
            if safe:
                undone = self.log.entries[earlier.entry_count :]
                check_take_back(self._rules, self.players, earlier._state, undone, seat)
            return earlier
        if safe and steps > 1:
            raise IllegalActionError(
                f"cannot take back seat {seat}'s last action safely: {steps - 1} action(s) of "
                "other seats came after it (use safe=False to take those back too)",
                node[_ACTION],
                seat,
            )
        try:
            return self.undo(steps, safe=safe)
        except IllegalActionError as exc:
            exc.seat = seat
            raise

    # ----------------------------------------------------------------- internals

    def _decide_checked(self, action: Any, to_act: int) -> tuple[Any, ...]:
        """``rules.decide`` for an action that has passed the shared guards for this state
        (``to_act`` is what they returned): a game that offers ``decide_after_guard``
        does not run them a second time; any other game's ``decide`` runs as it is."""
        rules = self._rules
        after_guard = self._decide
        if after_guard is None:
            return tuple(rules.decide(self._state, action))
        events = after_guard(self._state, action, to_act)
        return events if type(events) is tuple else tuple(events)

    def _append(self, actor: int, action: Any, events: tuple[Any, ...]) -> Game[A, V]:
        line = self._line
        state = self._state
        evolve = line.evolve
        for event in events:
            state = evolve(state, event)
        head = self._head
        seq = head[_SEQ] + 1 if head is not None else 0
        chances = head[_CHANCES] if head is not None else 0
        if actor == CHANCE:
            chances += 1
        snapshot = state if (seq + 1) % SNAPSHOT_EVERY == 0 else None
        node: _Node = (seq, actor, action, events, head, chances, snapshot)
        # The game is built by plain slot stores, without its __init__ call: this runs
        # once per log entry (the same fields, in the same order).
        game: Game[A, V] = _new(Game)
        game._line = line
        game._state = state
        game._head = node
        game._log = None
        game._to_act = line.to_act(state)
        return game

    def _run_chance(self) -> Game[A, V]:
        game = self
        rules = self._rules
        while game._to_act == CHANCE:
            index = game._head[_CHANCES] if game._head is not None else 0
            # The outcome answers pending_chance by construction (a Pick in range, a
            # permutation of the spec's cards): the guards have nothing to check.
            action = chance_outcome(rules.pending_chance(game._state), self._seed, index)
            game = game._append(CHANCE, action, game._decide_checked(action, CHANCE))
        return game

    def _nodes(self) -> list[_Node]:
        out = []
        node = self._head
        while node is not None:
            out.append(node)
            node = node[_PREV] if node[_PREV] is not None else self._before(node)
        out.reverse()
        return out

    def _entries(self) -> list[LogEntry]:
        return [_entry_of(node) for node in self._nodes()]

    def _entries_after(self, after: int) -> list[LogEntry]:
        """The entries with ``seq > after``, oldest first, in time proportional to them
        (for the store and the test kit: ``log`` would build the whole history)."""
        out = []
        node = self._head
        while node is not None and node[_SEQ] > after:
            out.append(_entry_of(node))
            node = node[_PREV] if node[_PREV] is not None else self._before(node)
        out.reverse()
        return out

    def _before(self, node: _Node) -> _Node | None:
        """The node before ``node``: its link, or, for the first node of a game resumed
        from a state, the newest node of its history (fetched on first use)."""
        prev: _Node | None = node[_PREV]
        if prev is None:
            history = self._line.history
            if history is not None and node[_SEQ] == history.base:
                return history.head()
        return prev

    def _first_state(self) -> Any:
        """The state before seq 0."""
        history = self._line.history
        return history.initial() if history is not None else self._initial

    @property
    def _chance_count(self) -> int:
        """How many chance entries the log holds (the index of the next chance outcome)."""
        head = self._head
        return head[_CHANCES] if head is not None else 0

    def _state_at(self, node: _Node | None) -> Any:
        if node is self._head:
            return self._state
        pending: list[_Node] = []
        while node is not None and node[_SNAPSHOT] is None:
            pending.append(node)
            node = node[_PREV]  # the history (if any) has its own snapshots: no need to go there
        if node is not None:
            state = node[_SNAPSHOT]
        elif pending and pending[-1][_SEQ] != 0:
            state = self._initial  # the first node of a resumed game: the state it resumed from
        else:
            state = self._first_state()
        evolve = self._rules.evolve
        for entry in reversed(pending):
            for event in entry[_EVENTS]:
                state = evolve(state, event)
        return state

    # ----------------------------------------------------------------- value protocol

    def __reduce__(self) -> tuple[Any, ...]:
        # Flat, not the linked list: pickle would recurse once per entry. Parallel
        # tuples instead of LogEntry objects: a third of the size and time.
        nodes = self._nodes()
        return (
            _rebuild,
            (
                self._rules,
                self._config,
                self._seed,
                self._auto_chance,
                self._state,
                self._initial,
                tuple(n[_ACTOR] for n in nodes),
                tuple(n[_ACTION] for n in nodes),
                tuple(n[_EVENTS] for n in nodes),
                tuple(n[_SNAPSHOT] for n in nodes if n[_SNAPSHOT] is not None),
                nodes[0][_SEQ] if nodes else 0,
                nodes[0][_CHANCES] - (nodes[0][_ACTOR] == CHANCE) if nodes else 0,
            ),
        )

    def __copy__(self) -> Game[A, V]:
        return self

    def __deepcopy__(self, memo: object) -> Game[A, V]:
        # An immutable value: like a tuple of immutables, a copy is the object itself.
        return self

    def seat_state(self, seat: int) -> SeatState:
        """What ``seat`` knows now, for a bot: view, redacted events, legal actions, rules,
        config, and ``sample(rng)`` (see :class:`cardkit.core.seat.SeatState`).

        The seat state holds no reference to this game: its entries and events are
        redacted here, when it is made (in time proportional to the entries since the last
        seat state of that seat along the same line of play)."""
        if seat is None:
            raise SeatError("a seat state needs a seat, not None (spectators do not play)")
        self._check_seat(seat)
        entries, events = self._seat_history(seat)
        return SeatState(self._rules, self._config, self._state, seat, events, entries)

    def _seat_history(self, seat: int) -> tuple[tuple[SeatEntry, ...], tuple[Any, ...]]:
        """``(entries_for(seat), events_for(seat))``, extending the line's newest history of
        ``seat`` when this game continues it."""
        head = self._head
        if head is None:
            return (), ()
        histories = self._line.seat_histories
        known = histories.get(seat)
        entries: tuple[SeatEntry, ...] | None = None
        if known is not None:
            node, old_entries, old_events = known
            if node is head:
                return old_entries, old_events
            # Does this game continue that history? Walk back to its seq (O(new entries)).
            seq = node[_SEQ]
            walk: _Node | None = head
            while walk is not None and walk[_SEQ] > seq:
                walk = walk[_PREV]
            if walk is node:
                new = self.entries_for(seat, seq)
                entries = old_entries + new
                events = old_events + tuple(e for entry in new for e in entry.events)
        if entries is None:
            entries = self.entries_for(seat)
            events = tuple(e for entry in entries for e in entry.events)
        histories[seat] = (head, entries, events)  # one tuple: a reader sees all or nothing
        return entries, events

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (
            _rules_key(self._rules) == _rules_key(other._rules)
            and self._config == other._config
            and self._seed == other._seed
            and self._auto_chance == other._auto_chance
            and self._state == other._state
            and self._entries() == other._entries()
        )

    def __hash__(self) -> int:
        # Consistent with __eq__ (equal games have equal rules, seed, length and newest
        # entry) and O(1): the state and the whole log are left out, the newest entry
        # tells branches of one game apart.
        head = self._head
        last: object = None
        if head is not None:
            try:
                last = hash((head[_ACTOR], head[_ACTION], head[_EVENTS]))
            except TypeError:  # a user's game with unhashable actions or events
                last = head[_ACTOR]
        return hash((_rules_key(self._rules), self._seed, self._auto_chance, self.entry_count, last))

    def __repr__(self) -> str:
        # No seed: it predicts every deal, and reprs end up in logs and error reports.
        return (
            f"<Game {self._rules.name} players={self.players} "
            f"entries={self.entry_count} to_act={self.to_act}>"
        )


def _where(entry: LogEntry) -> str:
    """An entry for a replay error message: its seq and kind, ``entry 7 (chance)`` or
    ``entry 8 (seat 2)``; never its action or events (a chance action is the deck order,
    events can name hidden cards, and hosts show these messages to people)."""
    return f"entry {entry.seq} ({_actor_name(entry.actor)})"


def _actor_name(actor: object) -> str:
    """``chance``, ``seat N`` or, for a value that is neither (a corrupt entry), its type."""
    if actor == CHANCE:
        return "chance"
    if isinstance(actor, int) and not isinstance(actor, bool):
        return f"seat {actor}" if abs(actor) < 10**6 else "a seat out of range"
    return f"an actor of type {type(actor).__name__}"


def _short(action: object) -> str:
    """An action for an error message, bounded in length (it may come from a hostile log)."""
    try:
        text = str(action)
    except Exception:  # noqa: BLE001 - a message must never fail
        text = type(action).__name__
    return text if len(text) <= 80 else text[:77] + "..."
