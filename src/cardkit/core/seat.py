"""What one seat knows: the input of a bot (:class:`SeatState`).

A bot never receives ``game.state``. It receives a :class:`SeatState`: the seat's view,
its own redacted log, the legal actions when it is to act, the rules and the config, and
:meth:`SeatState.sample`, which draws a full state consistent with all of that (see
:mod:`cardkit.core.resample`). The full state kept inside (``masked``) has every card
concealed from the seat put back in a canonical order, so not even a careless bot can
read the true arrangement from it.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from cardkit.core.resample import Constraint, Resampler, conceal, inferences
from cardkit.core.rules import CHANCE, Rules

__all__ = ["SeatState"]

AnyRules = Rules[Any, Any, Any, Any]

_UNSET: Any = object()


class SeatState:
    """Everything ``seat`` knows at one moment, and samples of what it does not.

    * ``view`` is ``rules.view(state, seat)``; ``events`` the seat's redacted events of the
      whole game (``game.events_for(seat)``); ``entries`` the seat's log entries
      (``game.entries_for(seat)``: chance orders withheld, events redacted).
    * ``legal_actions`` are the actions of ``seat`` if it is to act, else ``()``.
    * ``masked`` is a full state equal to the true one except that the cards concealed
      from ``seat`` are in a canonical order: a function of the seat's knowledge only.
    * ``constraints`` are the game's inferences for this seat (voids, ...).

    A seat state holds only what the seat may know: the masked state, its redacted
    ``events`` and ``entries`` (built when the seat state is made, never a reference to
    the game, the true state or the seed), the rules and the config. ``view``,
    ``constraints`` and the sampler are derived from those on first use. A seat state is
    immutable (assigning or deleting an attribute is an ``AttributeError``); build one
    with ``game.seat_state(seat)`` or :meth:`of`.
    """

    __slots__ = (
        "_seat", "_rules", "_config", "_to_act", "_legal_actions", "_events", "_entries",
        "_masked", "_view", "_constraints", "_resampler",
    )  # fmt: skip

    _seat: int
    _rules: AnyRules
    _config: Any
    _to_act: int | None
    _legal_actions: tuple[Any, ...]
    _events: tuple[Any, ...]
    _entries: tuple[Any, ...]
    _masked: Any
    _view: Any
    _constraints: Any
    _resampler: Any

    def __init__(
        self,
        rules: AnyRules,
        config: Any,
        state: Any,
        seat: int,
        events: Sequence[Any] = (),
        entries: Sequence[Any] = (),
    ) -> None:
        """Internal: use ``game.seat_state(seat)`` or :meth:`of`. ``events`` and ``entries``
        are the seat's redacted ones (``game.events_for(seat)``, ``game.entries_for(seat)``)."""
        to_act = rules.to_act(state)
        store = object.__setattr__  # the slots are written once, here (and caches below)
        store(self, "_seat", seat)
        store(self, "_rules", rules)
        store(self, "_config", config)
        store(self, "_to_act", to_act)
        store(self, "_legal_actions", tuple(rules.legal_actions(state)) if to_act == seat else ())
        store(self, "_events", events if type(events) is tuple else tuple(events))
        store(self, "_entries", entries if type(entries) is tuple else tuple(entries))
        # Only the masked state is kept: the true arrangement of concealed cards never
        # reaches a bot, not even through a private attribute.
        store(self, "_masked", conceal(rules, state, seat))
        store(self, "_view", _UNSET)
        store(self, "_constraints", _UNSET)
        store(self, "_resampler", _UNSET)

    @classmethod
    def of(
        cls,
        rules: AnyRules,
        config: Any,
        state: Any,
        seat: int,
        events: Sequence[Any],
        entries: Sequence[Any] = (),
    ) -> SeatState:
        """The seat state of ``seat`` in ``state``; ``events`` are ``events_for(seat)``."""
        return cls(rules, config, state, seat, events, entries)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a SeatState is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a SeatState is immutable: cannot delete {name!r}")

    def __reduce__(self) -> Any:
        # Pickle (and copy) by the seat's own parts; the derived caches are rebuilt.
        parts = (
            self._seat, self._rules, self._config, self._to_act, self._legal_actions,
            self._events, self._entries, self._masked,
        )  # fmt: skip
        return (_rebuild, parts)

    @property
    def seat(self) -> int:
        """The seat this state belongs to."""
        return self._seat

    @property
    def rules(self) -> AnyRules:
        """The game's rules."""
        return self._rules

    @property
    def config(self) -> Any:
        """The game's resolved config."""
        return self._config

    @property
    def to_act(self) -> int | None:
        """The seat to act now (``CHANCE`` at a pending chance node, ``None`` when over)."""
        return self._to_act

    @property
    def legal_actions(self) -> tuple[Any, ...]:
        """The seat's legal actions when it is to act, else ``()``."""
        return self._legal_actions

    @property
    def is_my_turn(self) -> bool:
        """True when ``seat`` is to act (``legal_actions`` is then not empty)."""
        return self._to_act == self._seat and self._to_act != CHANCE

    @property
    def view(self) -> Mapping[str, Any]:
        """``rules.view(state, seat)``."""
        if self._view is _UNSET:
            object.__setattr__(self, "_view", self._rules.view(self._masked, self._seat))
        return self._view  # type: ignore[no-any-return]

    @property
    def events(self) -> tuple[Any, ...]:
        """The seat's redacted events of the whole game."""
        return self._events

    @property
    def entries(self) -> tuple[Any, ...]:
        """The seat's log entries (``game.entries_for(seat)``)."""
        return self._entries

    @property
    def masked(self) -> Any:
        """The full state with every card concealed from the seat in canonical order."""
        return self._masked

    @property
    def constraints(self) -> tuple[Constraint, ...]:
        """The game's inferences for this seat (drawn from ``masked`` and ``events``)."""
        if self._constraints is _UNSET:
            found = inferences(self._rules, self._masked, self._seat, self._events)
            object.__setattr__(self, "_constraints", found)
        return self._constraints  # type: ignore[no-any-return]

    def sample(self, rng: random.Random) -> Any:
        """A full state consistent with what the seat knows, drawn with ``rng``.

        It has exactly the seat's view and legal actions, and respects the game's
        inferences; see :func:`cardkit.core.resample.resample`. The first call prepares a
        :class:`~cardkit.core.resample.Resampler`; later calls reuse it.
        """
        if self._resampler is _UNSET:
            sampler = Resampler(self._rules, self._masked, self._seat, self.constraints)
            object.__setattr__(self, "_resampler", sampler)
        return self._resampler.draw(rng)

    def __repr__(self) -> str:
        return f"<SeatState {self._rules.name} seat={self._seat} to_act={self._to_act}>"


def _rebuild(*parts: Any) -> SeatState:
    """Unpickle a :class:`SeatState` from the parts ``__reduce__`` gives."""
    seat_state: SeatState = object.__new__(SeatState)
    names = ("_seat", "_rules", "_config", "_to_act", "_legal_actions", "_events", "_entries", "_masked")
    for name, value in zip(names, parts, strict=True):
        object.__setattr__(seat_state, name, value)
    for name in ("_view", "_constraints", "_resampler"):
        object.__setattr__(seat_state, name, _UNSET)
    return seat_state
