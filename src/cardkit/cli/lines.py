"""Input lines a person types, read so that no line can end a command by accident.

``cardkit play`` and ``cardkit replay --step`` read standard input one line at a time. A
line may be anything a terminal or a pipe can send: bytes that are not text in the
terminal's encoding, a line of megabytes, control characters. :func:`read_line` reads at
most :data:`MAX_LINE` characters of a line (the rest of a longer line is read and dropped
in pieces of that size, never held), and says why a line cannot be used instead of
raising. :func:`quoted` turns anything typed into a short, printable echo.
"""

from __future__ import annotations

import io
from typing import NamedTuple, TextIO

__all__ = ["MAX_LINE", "InputLine", "read_line", "tolerant", "unusable", "quoted"]

MAX_LINE = 4096
"""The most characters of one input line that are used; a longer line is refused whole."""


class InputLine(NamedTuple):
    """One line read: ``text`` (end of line removed) and ``problem``, a sentence saying why
    the line cannot be used, or None when it can."""

    text: str
    problem: str | None = None


def tolerant(stream: TextIO) -> TextIO:
    """``stream`` made to decode bytes that are not text as lone surrogates instead of
    raising (where it is a :class:`io.TextIOWrapper`, as ``sys.stdin`` is); the reader then
    refuses such a line with :func:`unusable`. Other streams are returned as they are."""
    if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
        try:
            stream.reconfigure(errors="surrogateescape")
        except (ValueError, OSError):  # pragma: no cover - a stream that cannot change
            pass
    return stream


def unusable(text: str) -> str | None:
    """Why ``text`` (a decoded line) cannot be used, or None: it holds bytes that were not
    text (lone surrogates, from ``surrogateescape`` decoding) or is longer than :data:`MAX_LINE`."""
    if len(text) > MAX_LINE:
        return f"That line is longer than {MAX_LINE} characters; nothing was done."
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "That line holds bytes that are not text in this terminal's encoding; nothing was done."
    return None


def read_line(stream: TextIO, limit: int = MAX_LINE) -> InputLine | None:
    """The next line of ``stream``, or None at the end of input (see the module docs)."""
    try:
        line = stream.readline(limit + 1)
    except UnicodeDecodeError:  # a strict stream (see tolerant): the line is lost, not the session
        return InputLine("", "That line holds bytes that are not text in this terminal's encoding; nothing was done.")
    if not line:
        return None
    if len(line) > limit and not line.endswith("\n"):
        while True:  # drop the rest of the line, a bounded piece at a time
            try:
                rest = stream.readline(limit)
            except UnicodeDecodeError:
                break
            if not rest or rest.endswith("\n"):
                break
        return InputLine("", f"That line is longer than {limit} characters; nothing was done.")
    text = line.rstrip("\r\n")
    return InputLine(text, unusable(text))


def quoted(text: str, width: int = 60) -> str:
    """``text`` as a short quoted echo that is safe to print anywhere: ``repr`` (which
    escapes control characters and lone surrogates), cut to about ``width`` characters."""
    if len(text) > width:
        return repr(text[:width]) + f"... ({len(text)} characters)"
    return repr(text)
