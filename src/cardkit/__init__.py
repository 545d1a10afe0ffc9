"""cardkit: card games as immutable state plus a pure reducer.

Start with :func:`new_game`; see README.md and docs/ for the concepts.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardkit.api import new_game, replay
    from cardkit.cards import SUITS, Card, Rank, Suit, format_cards, parse_cards, sort_cards, standard_deck
    from cardkit.core.game import Game
    from cardkit.core.log import GameLog, LogEntry, SeatEntry, SeatLog, register_upcaster
    from cardkit.core.options import OptionSpec
    from cardkit.core.rules import (
        CHANCE,
        Config,
        Pick,
        PickSpec,
        Result,
        Rules,
        Shuffle,
        ShuffleSpec,
        Zone,
    )
    from cardkit.core.tricks import winning_index
    from cardkit.core.views import CommonView, ResultView
    from cardkit.errors import (
        CardkitError,
        ConfigError,
        GameOverError,
        IllegalActionError,
        LogError,
        NotationError,
        NotYourTurnError,
        ReplayMismatchError,
        SeatError,
        UnknownGameError,
    )
    from cardkit.games import available_games, get_rules, register
    from cardkit.rng import Rng
    from cardkit.serde import dumps, loads, loads_seat_log

# Every public name is imported on first use (module __getattr__, PEP 562), so
# `import cardkit` stays cheap and a host pays only for the layers it touches.
_LAZY: dict[str, str] = {
    "new_game": "cardkit.api",
    "replay": "cardkit.api",
    "SUITS": "cardkit.cards",
    "Card": "cardkit.cards",
    "Rank": "cardkit.cards",
    "Suit": "cardkit.cards",
    "format_cards": "cardkit.cards",
    "parse_cards": "cardkit.cards",
    "sort_cards": "cardkit.cards",
    "standard_deck": "cardkit.cards",
    "Game": "cardkit.core.game",
    "GameLog": "cardkit.core.log",
    "LogEntry": "cardkit.core.log",
    "SeatEntry": "cardkit.core.log",
    "SeatLog": "cardkit.core.log",
    "register_upcaster": "cardkit.core.log",
    "CHANCE": "cardkit.core.rules",
    "Config": "cardkit.core.rules",
    "Pick": "cardkit.core.rules",
    "PickSpec": "cardkit.core.rules",
    "Result": "cardkit.core.rules",
    "Rules": "cardkit.core.rules",
    "Shuffle": "cardkit.core.rules",
    "ShuffleSpec": "cardkit.core.rules",
    "Zone": "cardkit.core.rules",
    "OptionSpec": "cardkit.core.options",
    "winning_index": "cardkit.core.tricks",
    "CommonView": "cardkit.core.views",
    "ResultView": "cardkit.core.views",
    "CardkitError": "cardkit.errors",
    "ConfigError": "cardkit.errors",
    "GameOverError": "cardkit.errors",
    "IllegalActionError": "cardkit.errors",
    "LogError": "cardkit.errors",
    "NotationError": "cardkit.errors",
    "NotYourTurnError": "cardkit.errors",
    "ReplayMismatchError": "cardkit.errors",
    "SeatError": "cardkit.errors",
    "UnknownGameError": "cardkit.errors",
    "available_games": "cardkit.games",
    "get_rules": "cardkit.games",
    "register": "cardkit.games",
    "Rng": "cardkit.rng",
    "dumps": "cardkit.serde",
    "loads": "cardkit.serde",
    "loads_seat_log": "cardkit.serde",
}


def __getattr__(name: str) -> Any:
    """Import the public name ``name`` from the module that defines it, on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'cardkit' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    """The module's names, the lazily imported public ones included."""
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"
"""The installed cardkit version."""

__all__ = [
    "__version__",
    "available_games",
    "get_rules",
    "register",
    "new_game",
    "replay",
    "dumps",
    "loads",
    "loads_seat_log",
    "Game",
    "GameLog",
    "LogEntry",
    "SeatEntry",
    "SeatLog",
    "register_upcaster",
    "Rules",
    "Config",
    "OptionSpec",
    "CommonView",
    "ResultView",
    "winning_index",
    "Zone",
    "Result",
    "CHANCE",
    "Shuffle",
    "Pick",
    "ShuffleSpec",
    "PickSpec",
    "Card",
    "Suit",
    "SUITS",
    "Rank",
    "standard_deck",
    "sort_cards",
    "parse_cards",
    "format_cards",
    "Rng",
    "CardkitError",
    "ConfigError",
    "NotationError",
    "SeatError",
    "IllegalActionError",
    "NotYourTurnError",
    "GameOverError",
    "UnknownGameError",
    "LogError",
    "ReplayMismatchError",
]
