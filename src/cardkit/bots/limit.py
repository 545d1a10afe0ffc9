""":class:`Limit`: how long a search bot thinks, in iterations, in wall-clock time, or both."""

from __future__ import annotations

import math
from typing import Any

import attrs

from cardkit.errors import ConfigError

__all__ = ["Limit"]


def _iterations(instance: Any, attribute: Any, value: Any) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"Limit: iterations is a whole number of at least 1, or None, not {value!r}")


def _time_ms(instance: Any, attribute: Any, value: Any) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise ConfigError(f"Limit: time_ms is a positive number of milliseconds, or None, not {value!r}")


@attrs.frozen
class Limit:
    """A search budget: ``iterations`` (deterministic for a given rng), ``time_ms`` (a
    wall-clock budget for hosts; the decision then depends on the machine's speed), or
    both (whichever ends first). At least one is required: :class:`ConfigError` otherwise,
    and for a non-positive or non-numeric value."""

    iterations: int | None = attrs.field(default=None, validator=_iterations)
    """Search iterations per decision, or ``None`` for no count limit."""

    time_ms: float | None = attrs.field(default=None, validator=_time_ms)
    """Milliseconds per decision, or ``None`` for no clock limit."""

    def __attrs_post_init__(self) -> None:
        if self.iterations is None and self.time_ms is None:
            raise ConfigError("Limit needs iterations or time_ms (or both): Limit(iterations=1000)")

    @property
    def deterministic(self) -> bool:
        """Whether a bot under this limit decides the same for the same rng (no clock)."""
        return self.time_ms is None

    def __str__(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations} iterations")
        if self.time_ms is not None:
            parts.append(f"{self.time_ms:g} ms")
        return " or ".join(parts)
