"""cardkit: card games as immutable state plus a pure reducer.

Start with :func:`new_game`; see README.md and docs/ for the concepts.
"""

from __future__ import annotations

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
