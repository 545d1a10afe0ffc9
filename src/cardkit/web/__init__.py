"""A multiplayer web host over a :mod:`cardkit.store` (extra ``web``; Python >= 3.11).

:func:`create_app` gives a Starlette app: a lobby and play page, ``GET /api/games``,
``POST /api/matches`` and a WebSocket per seat (see docs/web.md for the protocol).
``cardkit serve`` runs it with uvicorn.
"""

from __future__ import annotations

from cardkit.web.app import WebHost, create_app
from cardkit.web.bots import BotLimits
from cardkit.web.protocol import MAX_MESSAGE, ProtocolError, describe_games

__all__ = ["create_app", "WebHost", "BotLimits", "ProtocolError", "MAX_MESSAGE", "describe_games"]
