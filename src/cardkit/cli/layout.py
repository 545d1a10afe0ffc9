"""Laying out text for a terminal: a :class:`~cardkit.render.Status` as wrapped sentences
and aligned columns, and lists of items wrapped only between items.

The words come from :func:`cardkit.render.status` (the same sentences and tables any other
surface shows); this module only decides where lines break and, on a colour terminal,
paints red suits after the layout so that escape codes never shift a column.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from typing import Sequence

from cardkit.render import Status, Table

__all__ = ["terminal_width", "wrap_items", "table_lines", "status_lines", "paint"]

_RED_CARD = re.compile(r"(?<![\w♥♦])(10|[2-9JQKA])([♥♦])")
_RED = "\x1b[31m"
_RESET = "\x1b[0m"


def terminal_width(default: int = 100) -> int:
    """The terminal's width in columns (``COLUMNS`` or the terminal's size), at least 20;
    ``default`` when standard output is not a terminal and ``COLUMNS`` is not set."""
    return max(20, shutil.get_terminal_size((default, 24)).columns)


def wrap_items(items: Sequence[str], width: int, sep: str = "  ") -> list[str]:
    """``items`` joined by ``sep`` into lines of at most ``width`` characters, breaking only
    between items (an item longer than a line gets a line of its own)."""
    lines: list[str] = []
    line = ""
    for item in items:
        if line and len(line) + len(sep) + len(item) > width:
            lines.append(line)
            line = item
        else:
            line = f"{line}{sep}{item}" if line else item
    if line:
        lines.append(line)
    return lines


def table_lines(table: Table, indent: str = "  ") -> list[str]:
    """``table`` as aligned columns under its header (numbers right-aligned)."""
    rows = [table.header, *table.rows]
    widths = [max(len(row[c]) for row in rows) for c in range(len(table.header))]
    out = [table.title] if table.title else []
    for row in rows:
        cells = [
            cell.rjust(widths[c]) if table.is_numeric(c) else cell.ljust(widths[c])
            for c, cell in enumerate(row)
        ]
        out.append((indent + "  ".join(cells)).rstrip())
    return out


def status_lines(status: Status, width: int) -> list[str]:
    """The sentences wrapped at ``width``, then each table."""
    text = " ".join(status.sentences)
    lines = textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) if text else []
    for table in status.tables:
        lines.extend(table_lines(table))
    return lines


def paint(text: str) -> str:
    """Hearts and diamonds in ``text`` (``10♥``, ``Q♦``) in red, for a colour terminal."""
    return _RED_CARD.sub(lambda m: f"{_RED}{m.group(0)}{_RESET}", text)
