"""The Rules protocol (a Decider), chance actions, zones and results.

A game is a :class:`Rules` object: ``decide(state, action) -> events`` holds every rule
and raises :class:`~cardkit.errors.IllegalActionError`; ``evolve(state, event) -> state``
is bookkeeping with no checks. Randomness never enters the rules: at a chance node
``to_act(state)`` returns :data:`CHANCE` and ``pending_chance(state)`` says what is
needed, a :class:`ShuffleSpec` or a :class:`PickSpec`; the driver answers with a
:class:`Shuffle` or :class:`Pick` action that is logged like any other.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final, Mapping, Protocol, TypeVar, Union

import attrs

from cardkit.cards import Card
from cardkit.core.views import TurnViewFields
from cardkit.errors import GameOverError, IllegalActionError, NotationError, NotYourTurnError

__all__ = [
    "CHANCE",
    "Shuffle",
    "Pick",
    "ShuffleSpec",
    "PickSpec",
    "ChanceSpec",
    "ChanceAction",
    "Zone",
    "Result",
    "Config",
    "Rules",
    "check_chance_action",
    "guard_turn",
    "guard_turn_at",
    "turn_view_fields",
    "parse_chance_action",
]

CHANCE: Final = -1
"""``to_act`` at a pending chance node (and the actor of a chance log entry)."""


@attrs.frozen
class Shuffle:
    """Chance outcome: ``order`` is a permutation of the pending spec's cards, top of the stock first."""

    order: tuple[Card, ...]

    def __str__(self) -> str:
        return "shuffle " + " ".join(c.code for c in self.order)


@attrs.frozen
class Pick:
    """Chance outcome: ``index`` in ``0..n-1`` of a pending :class:`PickSpec` (e.g. the first dealer)."""

    index: int

    def __str__(self) -> str:
        return f"pick {self.index}"


@attrs.frozen
class ShuffleSpec:
    """A pending shuffle of ``cards`` (listed in a deterministic order)."""

    cards: tuple[Card, ...]


@attrs.frozen
class PickSpec:
    """A pending uniform choice among ``n`` outcomes."""

    n: int


ChanceSpec = Union[ShuffleSpec, PickSpec]
"""What a pending chance node asks for: a shuffle or a pick."""
ChanceAction = Union[Shuffle, Pick]
"""An answer to a chance node: ``Shuffle(order)`` or ``Pick(index)``."""


_last_counts: tuple[tuple[Card, ...], Counter[Card]] = ((), Counter())


def _counts(cards: tuple[Card, ...]) -> Counter[Card]:
    """``Counter(cards)``, kept for the last tuple asked (a game deals the same pack tuple
    again and again). Compared with ``dict.__eq__`` (C): Counter's own ``==`` walks both
    in Python, and with counts that are all positive the two agree."""
    global _last_counts
    last, counts = _last_counts
    if cards is not last:
        counts = Counter(cards)
        _last_counts = (cards, counts)
    return counts


def check_chance_action(spec: ChanceSpec, action: object) -> None:
    """Raise :class:`IllegalActionError` unless ``action`` answers ``spec``."""
    if isinstance(spec, PickSpec):
        if not isinstance(action, Pick):
            raise IllegalActionError(f"a Pick in 0..{spec.n - 1} is pending", action, CHANCE)
        if not (isinstance(action.index, int) and 0 <= action.index < spec.n):
            raise IllegalActionError(
                f"pick index {action.index} is out of range 0..{spec.n - 1}", action, CHANCE
            )
        return
    if not isinstance(action, Shuffle):
        raise IllegalActionError(
            f"a Shuffle of {len(spec.cards)} cards is pending", action, CHANCE
        )
    if len(action.order) != len(spec.cards) or not dict.__eq__(Counter(action.order), _counts(spec.cards)):
        raise IllegalActionError(
            f"the shuffle order must be a permutation of the {len(spec.cards)} pending cards",
            action,
            CHANCE,
        )


def guard_turn(rules: Rules[Any, Any, Any, Any], state: Any, action: object) -> int:
    """The fixed guards every ``decide`` (and ``Game.play``) starts with, in order.

    The game is over → :class:`GameOverError`; a chance action while a seat is to act →
    :class:`IllegalActionError`; a seat action at a chance node → :class:`NotYourTurnError`;
    a chance action that does not answer ``pending_chance`` → :class:`IllegalActionError`.
    Returns ``to_act``: :data:`CHANCE` when ``action`` is a valid chance action, else the
    seat that is to act (the game then checks the action itself).
    """
    to_act = rules.to_act(state)
    if to_act is not None and to_act != CHANCE and not isinstance(action, (Shuffle, Pick)):
        return to_act  # the common case, answered without a second call
    return guard_turn_at(rules, state, action, to_act)


def guard_turn_at(rules: Rules[Any, Any, Any, Any], state: Any, action: object, to_act: int | None) -> int:
    """:func:`guard_turn` for a caller that has already computed ``to_act`` for ``state``
    (``Game.play`` does: ``to_act`` is computed once per step)."""
    if to_act is None:
        raise GameOverError("the game is over", action)
    if isinstance(action, (Shuffle, Pick)):
        if to_act != CHANCE:
            raise IllegalActionError(
                f"no chance outcome is pending: seat {to_act} is to act", action, to_act
            )
        check_chance_action(rules.pending_chance(state), action)
    elif to_act == CHANCE:
        raise NotYourTurnError(
            "chance is to act: answer pending_chance() with a Shuffle or a Pick", action
        )
    return to_act


def turn_view_fields(rules: Rules[Any, Any, Any, Any], state: Any, seat: int | None) -> TurnViewFields:
    """The view fields every game shares: ``legal_actions`` (their text, for the seat to
    act only; ``[]`` for others and spectators) and ``result`` (``{"scores", "winners"}``
    once the game is over, else ``None``)."""
    to_act = rules.to_act(state)
    result = rules.result(state)
    return {
        "legal_actions": (
            [str(a) for a in rules.legal_actions(state)]
            if seat is not None and seat == to_act
            else []
        ),
        "result": (
            None
            if result is None
            else {"scores": list(result.scores), "winners": list(result.winners)}
        ),
    }


def _is_small_number(word: str) -> bool:
    # str.isdigit accepts "²" and other digits int() refuses; int() refuses over 4,300 digits.
    return 0 < len(word) <= 20 and word.isascii() and word.isdigit()


def parse_chance_action(text: str) -> ChanceAction:
    """Parse ``pick N`` or ``shuffle C1 C2 ...`` (used by game ``parse_action`` methods)."""
    parts = text.split()
    if not parts:
        raise NotationError("empty action")
    verb = parts[0].lower()
    if verb == "pick" and len(parts) == 2 and _is_small_number(parts[1]):
        return Pick(int(parts[1]))
    if verb == "shuffle":
        return Shuffle(tuple(Card.parse(p) for p in parts[1:]))
    raise NotationError(f"{text!r} is not a chance action (pick N | shuffle CARDS)")


@attrs.frozen
class Zone:
    """Where some cards are: every card of a game is in exactly one zone at every step.

    ``visible_to`` lists, ascending, the seats that may see the cards. The order of
    ``cards`` is the zone's physical order (a stock top first, a pile bottom first).
    """

    name: str
    owner: int | None
    cards: tuple[Card, ...]
    visible_to: tuple[int, ...]


@attrs.frozen
class Result:
    """The outcome of a finished game: points per seat and the winning seats (ascending)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


class Config(Protocol):
    """A validated configuration: every option resolved to its value.

    ``rules.config(players, **config.as_options())`` must give an equal config; the
    options dict is JSON-compatible (it is stored in logs).
    """

    @property
    def players(self) -> int:
        """Number of seats."""
        ...

    def as_options(self) -> dict[str, Any]:
        """Every option (not ``players``) with its resolved, JSON-compatible value."""
        ...


S = TypeVar("S")
A = TypeVar("A", covariant=True)
E = TypeVar("E")
V = TypeVar("V", covariant=True)


class Rules(Protocol[S, A, E, V]):
    """What a game implements. See docs/concepts.md.

    Contract highlights:

    * ``decide`` is pure and total: it returns the events of an accepted action or raises
      :class:`IllegalActionError` (:class:`NotationError` never: actions are values).
    * ``evolve`` does bookkeeping only; folding ``decide``'s events gives the next state.
    * ``legal_actions`` lists, without duplicates and in a documented stable order, exactly
      the actions ``decide`` accepts for the seat ``to_act`` (``()`` at chance nodes and
      when the game is over).
    * ``zones`` puts every card in exactly one zone; ``view`` and ``redact`` never show a
      card that every zone visible to the viewer hides.
    * Optional: ``options()``, the game's option schema as a tuple of
      :class:`~cardkit.core.options.OptionSpec` (``cardkit rules GAME`` prints it).
    * Optional: ``decide_after_guard(state, action, to_act)``, ``decide`` for a caller
      that has already run :func:`guard_turn_at` on this state and action (``to_act`` is
      what it returned): the same events and errors as ``decide`` without the shared guards
      run twice. ``Game`` calls it when present; ``decide`` itself stays safe for anyone.
    * Optional: ``action_space(config)``, every action the game can ever offer under a
      config in a fixed order (:mod:`cardkit.core.action_space`); learning environments
      (``cardkit.rl``) need it, nothing else does.
    """

    name: str
    rules_version: int
    min_players: int
    max_players: int
    action_types: tuple[type, ...]
    event_types: tuple[type, ...]

    def config(self, players: int, **options: Any) -> Any:
        """Validate options, resolve defaults; :class:`ConfigError` on bad input."""
        ...

    def initial_state(self, config: Any) -> S:
        """The state before anything happened (normally a chance node: the first dealer)."""
        ...

    def to_act(self, state: S) -> int | None:
        """The seat to decide, :data:`CHANCE`, or ``None`` when the game is over."""
        ...

    def pending_chance(self, state: S) -> ChanceSpec:
        """What chance must decide now (only when ``to_act(state) == CHANCE``)."""
        ...

    def legal_actions(self, state: S) -> tuple[A, ...]:
        """The actions accepted now, in a stable documented order."""
        ...

    def decide(self, state: S, action: Any) -> tuple[E, ...]:
        """The events an action causes; :class:`IllegalActionError` if it is not allowed."""
        ...

    def evolve(self, state: S, event: E) -> S:
        """Apply one event; no rule checks."""
        ...

    def zones(self, state: S) -> tuple[Zone, ...]:
        """Every card, in exactly one zone."""
        ...

    def view(self, state: S, seat: int | None) -> V:
        """What ``seat`` (``None``: a spectator) may see, as JSON-compatible data (a
        built-in game's view is a TypedDict extending :class:`~cardkit.core.views.CommonView`)."""
        ...

    def redact(self, event: E, viewer: int | None) -> E | None:
        """The event as ``viewer`` may see it, or ``None`` if they see nothing of it."""
        ...

    def scores(self, state: S) -> tuple[int, ...]:
        """Points of the current game per seat."""
        ...

    def result(self, state: S) -> Result | None:
        """The result once the game is over, else ``None``."""
        ...

    def parse_action(self, text: str) -> A | ChanceAction:
        """An action from its notation; :class:`NotationError` if malformed."""
        ...
