"""Wald's sequential probability ratio test for "is bot A stronger than bot B".

Each game gives A a *win* (an A seat among the winners and no B seat), a *loss* (the
reverse) or a *draw* (anything else: both sides among the winners, a third bot won, no
result). Draws say nothing about which of the two is stronger and are left out: the test
is on ``p``, A's share of the decisive games (wins / (wins + losses), "the share of the
two"), a Bernoulli stream.

* H0: ``p = p0`` (default 0.5: A is no stronger than B);
* H1: ``p = p1`` (default 0.55: A wins 55% of the games one of the two wins, about +35 Elo).

Every decisive game adds ``log(p1/p0)`` (win) or ``log((1-p1)/(1-p0))`` (loss) to the log
likelihood ratio; the test accepts H1 once it reaches ``log((1-beta)/alpha)``, accepts H0
once it falls to ``log(beta/(1-alpha))``, and continues in between. ``alpha`` bounds the
chance of accepting H1 when H0 holds, ``beta`` that of accepting H0 when H1 holds (both
0.05 by default). Between p0 and p1 either answer may come; that is the test's indifference
zone.
"""

from __future__ import annotations

import math
from typing import Iterable

import attrs

from cardkit.errors import ConfigError

__all__ = ["Sprt", "SprtState", "elo_of_share", "ACCEPT_H0", "ACCEPT_H1", "CONTINUE"]

ACCEPT_H0 = "accept H0"
"""The decision once the ratio reaches the lower bound: A is not shown stronger (p = p0)."""
ACCEPT_H1 = "accept H1"
"""The decision once the ratio reaches the upper bound: A is stronger (p = p1)."""
CONTINUE = "continue"
"""No decision yet: the ratio lies between the bounds."""


def elo_of_share(p: float) -> float:
    """The Elo difference whose logistic expected score is ``p`` (0 < p < 1)."""
    return -400.0 * math.log10(1.0 / p - 1.0) + 0.0  # + 0.0: no "-0" for p = 0.5


@attrs.frozen
class Sprt:
    """The test's settings (see the module docs); :meth:`state` reads a stream."""

    p0: float = 0.5
    p1: float = 0.55
    alpha: float = 0.05
    beta: float = 0.05

    def __attrs_post_init__(self) -> None:
        if not 0 < self.p0 < self.p1 < 1:
            raise ConfigError(f"SPRT needs 0 < p0 < p1 < 1, not p0={self.p0}, p1={self.p1}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ConfigError(f"SPRT needs 0 < alpha, beta < 0.5, not {self.alpha}, {self.beta}")

    @property
    def upper(self) -> float:
        """Accept H1 at or above this log likelihood ratio."""
        return math.log((1 - self.beta) / self.alpha)

    @property
    def lower(self) -> float:
        """Accept H0 at or below this log likelihood ratio."""
        return math.log(self.beta / (1 - self.alpha))

    def llr(self, wins: int, losses: int) -> float:
        """The log likelihood ratio of H1 against H0 after ``wins`` and ``losses``."""
        return wins * math.log(self.p1 / self.p0) + losses * math.log((1 - self.p1) / (1 - self.p0))

    def state(self, wins: int, draws: int, losses: int) -> "SprtState":
        """The test after these counts: its log likelihood ratio and decision."""
        llr = self.llr(wins, losses)
        decision = ACCEPT_H1 if llr >= self.upper else ACCEPT_H0 if llr <= self.lower else CONTINUE
        return SprtState(self, wins, draws, losses, llr, decision)

    def run(self, stream: Iterable[float]) -> "SprtState":
        """Read outcomes (1 win, 0.5 draw, 0 loss) until a decision or the stream's end."""
        w = d = lo = 0
        state = self.state(0, 0, 0)
        for x in stream:
            if x == 1:
                w += 1
            elif x == 0:
                lo += 1
            elif x == 0.5:
                d += 1
            else:
                raise ValueError(f"an outcome is 1, 0.5 or 0, not {x!r}")
            state = self.state(w, d, lo)
            if state.decision != CONTINUE:
                break
        return state

    def describe(self) -> str:
        """One line: the hypotheses, error rates and bounds."""
        return (
            f"SPRT on A's share of decisive games: H0 p={self.p0:g} ({elo_of_share(self.p0):+.0f} Elo), "
            f"H1 p={self.p1:g} ({elo_of_share(self.p1):+.0f} Elo), alpha={self.alpha:g}, beta={self.beta:g}, "
            f"LLR bounds [{self.lower:.3f}, {self.upper:.3f}]"
        )


@attrs.frozen
class SprtState:
    """Counts, log likelihood ratio and decision (``accept H0``, ``accept H1``, ``continue``)."""

    test: Sprt
    wins: int
    draws: int
    losses: int
    llr: float
    decision: str
