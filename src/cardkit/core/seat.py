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

import attrs

from cardkit.core.resample import Constraint, conceal, inferences, resample
from cardkit.core.rules import CHANCE, Rules

__all__ = ["SeatState"]

AnyRules = Rules[Any, Any, Any, Any]


@attrs.frozen(eq=False)
class SeatState:
    """Everything ``seat`` knows at one moment, and samples of what it does not.

    * ``view`` is ``rules.view(state, seat)``; ``events`` the seat's redacted events of the
      whole game (``game.events_for(seat)``); ``entries`` the per-seat log entries when the
      core provides them (``game.entries_for(seat)``), else ``()``.
    * ``legal_actions`` are the actions of ``seat`` if it is to act, else ``()``.
    * ``masked`` is a full state equal to the true one except that the cards concealed
      from ``seat`` are in a canonical order: a function of the seat's knowledge only.
    * ``constraints`` are the game's inferences for this seat (voids, ...).

    Build one with ``game.seat_state(seat)`` or :meth:`of`.
    """

    seat: int
    rules: AnyRules = attrs.field(repr=False)
    config: Any = attrs.field(repr=False)
    to_act: int | None
    view: Mapping[str, Any] = attrs.field(repr=False)
    legal_actions: tuple[Any, ...]
    events: tuple[Any, ...] = attrs.field(repr=False)
    entries: tuple[Any, ...] = attrs.field(repr=False)
    masked: Any = attrs.field(repr=False)
    constraints: tuple[Constraint, ...] = attrs.field(repr=False)

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
        masked = conceal(rules, state, seat)
        to_act = rules.to_act(state)
        legal = rules.legal_actions(state) if to_act == seat else ()
        events = tuple(events)
        return cls(
            seat=seat,
            rules=rules,
            config=config,
            to_act=to_act,
            view=rules.view(state, seat),
            legal_actions=tuple(legal),
            events=events,
            entries=tuple(entries),
            masked=masked,
            constraints=inferences(rules, masked, seat, events),
        )

    @property
    def is_my_turn(self) -> bool:
        """True when ``seat`` is to act (and ``legal_actions`` is not empty)."""
        return self.to_act == self.seat and self.to_act != CHANCE

    def sample(self, rng: random.Random) -> Any:
        """A full state consistent with what the seat knows, drawn with ``rng``.

        It has exactly the seat's view and legal actions, and respects the game's
        inferences; see :func:`cardkit.core.resample.resample`.
        """
        return resample(
            self.rules, self.masked, self.seat, rng, self.events, constraints=self.constraints
        )
