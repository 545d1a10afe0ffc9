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
from typing import Any, Callable, Mapping, Sequence

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

    ``view``, ``events`` and ``constraints`` are computed on first use (a
    bot that needs only the legal actions pays for nothing else). A seat state is
    immutable; build one with ``game.seat_state(seat)`` or :meth:`of`.
    """

    __slots__ = (
        "seat", "rules", "config", "to_act", "legal_actions",
        "_events_of", "_entries_of", "_view", "_events", "_entries", "_masked",
        "_constraints", "_resampler",
    )  # fmt: skip

    seat: int
    rules: AnyRules
    config: Any
    to_act: int | None
    legal_actions: tuple[Any, ...]

    def __init__(
        self,
        rules: AnyRules,
        config: Any,
        state: Any,
        seat: int,
        events: Callable[[], Sequence[Any]],
        entries: Callable[[], Sequence[Any]] = tuple,
    ) -> None:
        """Internal: use ``game.seat_state(seat)`` or :meth:`of`."""
        self.seat = seat
        self.rules = rules
        self.config = config
        self.to_act = rules.to_act(state)
        self.legal_actions = tuple(rules.legal_actions(state)) if self.to_act == seat else ()
        # Only the masked state is kept: the true arrangement of concealed cards never
        # reaches a bot, not even through a private attribute.
        self._masked = conceal(rules, state, seat)
        self._events_of = events
        self._entries_of = entries
        self._view: Any = _UNSET
        self._events: Any = _UNSET
        self._entries: Any = _UNSET
        self._constraints: Any = _UNSET
        self._resampler: Any = _UNSET

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
        events = tuple(events)
        entries = tuple(entries)
        return cls(rules, config, state, seat, lambda: events, lambda: entries)

    @property
    def is_my_turn(self) -> bool:
        """True when ``seat`` is to act (``legal_actions`` is then not empty)."""
        return self.to_act == self.seat and self.to_act != CHANCE

    @property
    def view(self) -> Mapping[str, Any]:
        """``rules.view(state, seat)``."""
        if self._view is _UNSET:
            self._view = self.rules.view(self._masked, self.seat)
        return self._view  # type: ignore[no-any-return]

    @property
    def events(self) -> tuple[Any, ...]:
        """The seat's redacted events of the whole game."""
        if self._events is _UNSET:
            self._events = tuple(self._events_of())
        return self._events  # type: ignore[no-any-return]

    @property
    def entries(self) -> tuple[Any, ...]:
        """The seat's log entries (``game.entries_for(seat)``)."""
        if self._entries is _UNSET:
            self._entries = tuple(self._entries_of())
        return self._entries  # type: ignore[no-any-return]

    @property
    def masked(self) -> Any:
        """The full state with every card concealed from the seat in canonical order."""
        return self._masked

    @property
    def constraints(self) -> tuple[Constraint, ...]:
        """The game's inferences for this seat (drawn from ``masked`` and ``events``)."""
        if self._constraints is _UNSET:
            self._constraints = inferences(self.rules, self.masked, self.seat, self.events)
        return self._constraints  # type: ignore[no-any-return]

    def sample(self, rng: random.Random) -> Any:
        """A full state consistent with what the seat knows, drawn with ``rng``.

        It has exactly the seat's view and legal actions, and respects the game's
        inferences; see :func:`cardkit.core.resample.resample`. The first call prepares a
        :class:`~cardkit.core.resample.Resampler`; later calls reuse it.
        """
        if self._resampler is _UNSET:
            self._resampler = Resampler(self.rules, self._masked, self.seat, self.constraints)
        return self._resampler.draw(rng)

    def __repr__(self) -> str:
        return f"<SeatState {self.rules.name} seat={self.seat} to_act={self.to_act}>"
