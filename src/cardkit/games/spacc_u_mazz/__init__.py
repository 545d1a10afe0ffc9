"""Spacc 'u Mazz (Spacca il mazzo): an Italian shedding game for 2-4 players, two packs.

See ``docs/games/spacc-u-mazz.md``; the registered rules are :data:`.rules.RULES`.
"""

from __future__ import annotations

__all__: list[str] = []
