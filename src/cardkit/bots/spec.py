"""Bots from text: ``level:N`` (N = 1..5, :data:`cardkit.bots.LEVELS`), ``random``, ``rule``, ``ismcts``, ``ismcts:ITERATIONS``,
``ismcts:ITERATIONS:C``, ``ismcts:ITERATIONS:C:OPPONENTS`` (``search`` or ``policy``),
``ismcts:ITERATIONS:C:OPPONENTS:BELIEFS`` (``uniform`` or ``policy``),
``ismcts:ITERATIONS:C:OPPONENTS:BELIEFS:ENGINE`` (``auto``, ``kernel`` or ``reducer``; see
:class:`~cardkit.bots.ISMCTSBot`); ``pimc[:PLAYOUTS]``; ``bid-search[:ITERATIONS[:SOLVE_AT]]``
(Wizard's Monte-Carlo bidder, :class:`~cardkit.bots.search_wizard.BidSearchBot`, with a belief
pool of ITERATIONS deals); ``mcbid[:ITERATIONS[:BID_PLAYOUTS[:METRIC[:FIGHT]]]]``
(Cutthroat Spades' Monte-Carlo bidder, :class:`~cardkit.bots.search_cutthroat_spades.MCBidBot`); an empty field keeps its default
(``ismcts:1000:0.7::uniform``, ``ismcts:1000::::reducer``). The arena's ``--bots`` and a web host's ``bots`` use this."""

from __future__ import annotations

from typing import Any

from cardkit.bots.base import RandomBot
from cardkit.bots.ismcts import ISMCTSBot
from cardkit.bots.levels import LEVELS, level_bot
from cardkit.bots.limit import Limit
from cardkit.bots.pimc import PIMCBot
from cardkit.bots.rule import RuleBot
from cardkit.bots.search_cutthroat_spades import BID_FIGHT, METRICS, MCBidBot
from cardkit.bots.search_wizard import BidSearchBot
from cardkit.errors import ConfigError

__all__ = ["make_bot"]


def make_bot(spec: str) -> Any:
    """The bot named by ``spec``; :class:`ConfigError` for an unknown or malformed spec."""
    if not isinstance(spec, str):
        raise ConfigError(f"a bot spec is text such as 'ismcts:1000', not {spec!r}")
    parts = spec.strip().lower().split(":")
    kind = parts[0]
    if kind == "level":
        if len(parts) != 2 or not parts[1].isascii() or not parts[1].isdigit():
            raise ConfigError(f"bad bot spec {spec!r}: use level:N, N from 1 to {len(LEVELS)}")
        try:
            return level_bot(int(parts[1]))
        except ConfigError as exc:
            raise ConfigError(f"bad bot spec {spec!r}: {exc}") from None
    if kind == "random" and len(parts) == 1:
        return RandomBot()
    if kind == "rule" and len(parts) == 1:
        return RuleBot()
    if kind == "ismcts" and len(parts) <= 6:
        try:
            iterations = int(parts[1]) if len(parts) > 1 and parts[1] else 1000
            c = float(parts[2]) if len(parts) > 2 and parts[2] else 0.7
        except ValueError:
            raise ConfigError(
                f"bad bot spec {spec!r}: use ismcts, ismcts:ITERATIONS, ismcts:ITERATIONS:C, "
                "ismcts:ITERATIONS:C:OPPONENTS, ismcts:ITERATIONS:C:OPPONENTS:BELIEFS or "
                "ismcts:ITERATIONS:C:OPPONENTS:BELIEFS:ENGINE"
            ) from None
        opponents = parts[3] if len(parts) > 3 and parts[3] else None
        beliefs = parts[4] if len(parts) > 4 and parts[4] else None
        engine = parts[5] if len(parts) > 5 and parts[5] else "auto"
        try:  # the bot checks its own settings; the message says which spec they came from
            return ISMCTSBot(iterations=iterations, c=c, opponents=opponents, beliefs=beliefs, engine=engine)
        except ConfigError as exc:
            raise ConfigError(f"bad bot spec {spec!r}: {exc}") from None
    if kind == "pimc" and len(parts) <= 2:
        if len(parts) == 2 and not (parts[1].isascii() and parts[1].isdigit() and len(parts[1]) <= 9):
            raise ConfigError(f"bad bot spec {spec!r}: use pimc or pimc:PLAYOUTS")
        try:
            return PIMCBot(Limit(iterations=int(parts[1]) if len(parts) == 2 else 1000))
        except ConfigError as exc:
            raise ConfigError(f"bad bot spec {spec!r}: {exc}") from None
    if kind == "bid-search" and len(parts) <= 3:
        fields = parts[1:]
        if not all(f.isascii() and f.isdigit() and len(f) <= 9 for f in fields) or (fields and int(fields[0]) < 1):
            raise ConfigError(f"bad bot spec {spec!r}: use bid-search, bid-search:ITERATIONS or bid-search:ITERATIONS:SOLVE_AT")
        iterations = int(fields[0]) if fields else 1000
        solve_at = int(fields[1]) if len(fields) > 1 else 0
        return BidSearchBot(Limit(iterations=iterations), pool=iterations, solve_at=solve_at)
    if kind == "mcbid" and len(parts) <= 5:
        fields = parts[1:3]
        try:
            fight = float(parts[4]) if len(parts) > 4 and parts[4] else BID_FIGHT
        except ValueError:
            fight = -1.0
        if (
            not all(f == "" or (f.isascii() and f.isdigit() and len(f) <= 9) for f in fields)
            or (len(parts) > 3 and parts[3] not in ("", *METRICS))
            or not 0.0 <= fight <= 1.0
        ):
            raise ConfigError(
                f"bad bot spec {spec!r}: use mcbid[:ITERATIONS[:BID_PLAYOUTS[:METRIC[:FIGHT]]]] "
                f"(METRIC: {', '.join(METRICS)}; FIGHT: a share from 0 to 1)"
            )
        iterations = int(parts[1]) if len(parts) > 1 and parts[1] else 1000
        bids = int(parts[2]) if len(parts) > 2 and parts[2] else None
        metric = parts[3] if len(parts) > 3 and parts[3] else "auto"
        try:
            return MCBidBot(Limit(iterations=iterations), bid_iterations=bids, metric=metric, fight=fight)
        except ConfigError as exc:
            raise ConfigError(f"bad bot spec {spec!r}: {exc}") from None
    raise ConfigError(
        f"unknown bot {spec!r}: use level:1 to level:{len(LEVELS)}, random, rule, pimc[:PLAYOUTS], "
        "bid-search[:ITERATIONS[:SOLVE_AT]], mcbid[:ITERATIONS[:BID_PLAYOUTS[:METRIC[:FIGHT]]]], "
        "ismcts or ismcts:ITERATIONS[:C[:OPPONENTS[:BELIEFS[:ENGINE]]]]"
    )
