"""``cardkit play``: a person at a table of bots, in line mode.

Works in any terminal, in a pipe and with a screen reader: it reads one line at a time
from standard input and writes plain sentences. What happens between the person's turns
is narrated from the person's own redacted entries (``game.entries_for(seat, after)``),
never from the full state, so the command shows exactly what a seat may know.

Commands at the prompt: a number (from the list of legal actions) or an action's notation
(``play QS``, ``play 10♥``, ``draw``); an empty line lists the actions again; ``hint``,
``undo``, ``view``, ``save FILE``, ``save --seat FILE``, ``help``, ``quit``. End of input
ends the game cleanly.

No input ends the game by accident: a line that is not text, is too long, names no action,
or cannot be saved is answered with a sentence and the prompt comes back (see
:mod:`cardkit.cli.lines`); the game is changed only by a legal action or ``undo``.
"""

from __future__ import annotations

import argparse
import random
import textwrap
from pathlib import Path
from typing import Any, Callable, TextIO

from cardkit.cli.lines import quoted, read_line, tolerant, unusable
from cardkit.errors import CardkitError, ConfigError

__all__ = ["add_parser", "run", "PlaySession", "HELP", "SAVE_WARNING"]

HELP = (
    "Type the number of an action or its notation (e.g. 'play QS' or 'play 10♥'). "
    "Enter on its own lists the actions again. Other commands: hint (what a bot would "
    "play), undo (take back your last action, when that reveals nothing), view (your view "
    "again), save FILE (the whole game's log as JSON, with the seed and every hidden card), "
    "save --seat FILE (only what your seat saw), help, quit."
)
"""The text ``help`` prints."""

_MAX_BOT_ACTIONS = 100_000  # a guard against a game that never returns to the person
_MAX_ERROR_TEXT = 300  # an error text echoed back is cut here (it may quote the input)

SAVE_WARNING = (
    "Warning: {name} holds the whole game: the seed and every hidden card, the other seats' "
    "hands and the order of the deck included. Whoever reads it sees them. "
    "save --seat FILE writes only what your seat saw."
)
"""The line ``save FILE`` prints after writing the host log (``{name}``: the file)."""


def add_parser(sub: Any, parse_option: Any) -> None:
    """Register the ``play`` subcommand on the ``cardkit`` subparsers."""
    play = sub.add_parser(
        "play",
        help="play a game against bots in the terminal",
        description=(
            "Play GAME at seat --seat against bots, one line at a time. " + HELP
            + " Colour is used only on a terminal and never when NO_COLOR is set."
        ),
    )
    play.add_argument("game")
    play.add_argument("--players", type=int, default=None,
                      help="number of players (default: one more than the bots listed, "
                           "or the game's minimum)")  # fmt: skip
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument(
        "--bots", default="rule",
        help="the other seats' bots, comma-separated in seat order skipping yours "
             "(random, rule, ismcts, ismcts:ITERATIONS); one spec is used for every bot "
             "(default rule)",
    )  # fmt: skip
    play.add_argument("--seed", type=int, default=None,
                      help="deal seed (default: a fresh random one)")  # fmt: skip
    play.add_argument("--option", "-o", action="append", type=parse_option, metavar="KEY=VALUE")
    play.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Start the game described by ``args`` and play it on standard input and output."""
    import sys

    from cardkit.render import use_color

    session = PlaySession.start(
        args.game,
        players=args.players,
        seat=args.seat,
        bots=args.bots,
        seed=args.seed,
        options=dict(args.option or []),
        color=use_color(sys.stdout),
    )
    # bytes that are not text become a refused line, not a UnicodeDecodeError
    return session.run(tolerant(sys.stdin), sys.stdout)


def _bot_specs(text: str, others: int) -> list[str]:
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if not specs:
        raise ConfigError("--bots is empty: name a bot such as rule, random or ismcts:500")
    if len(specs) == 1:
        return specs * others
    if len(specs) != others:
        raise ConfigError(
            f"--bots lists {len(specs)} bots for {others} other seat(s): list one per other "
            "seat, or a single bot for all of them"
        )
    return specs


class PlaySession:
    """One person's game against bots; :meth:`handle` answers one input line.

    The session is the only mutable object of the command: it holds the current
    (immutable) :class:`~cardkit.core.game.Game`, the bots, and the last entry already
    narrated to the person.
    """

    def __init__(self, game: Any, seat: int, bots: dict[int, Any], bot_names: dict[int, str],
                 rngs: dict[int, random.Random], color: bool = False) -> None:  # fmt: skip
        """Internal: use :meth:`start`."""
        self.game = game
        self.seat = seat
        self.bots = bots
        self.bot_names = bot_names
        self.rngs = rngs
        self.color = color
        self.narrated = -1
        self.done = False

    @classmethod
    def start(
        cls,
        game_name: str,
        *,
        players: int | None = None,
        seat: int = 0,
        bots: str = "rule",
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        color: bool = False,
    ) -> PlaySession:
        """A new game; :class:`ConfigError` for a bad seat, bot list or option."""
        from cardkit.api import new_game
        from cardkit.bots import make_bot
        from cardkit.games import get_rules

        rules = get_rules(game_name)
        specs = [s.strip() for s in bots.split(",") if s.strip()]
        if players is None:
            players = len(specs) + 1 if len(specs) > 1 else rules.min_players
        game = new_game(game_name, players=players, seed=seed, **(options or {}))
        if isinstance(seat, bool) or not 0 <= seat < players:
            raise ConfigError(f"--seat must be a seat of the game, 0 to {players - 1}, not {seat}")
        others = [s for s in range(players) if s != seat]
        names = dict(zip(others, _bot_specs(bots, len(others))))
        made = {s: make_bot(spec) for s, spec in names.items()}
        # bots draw from their own streams, derived from the deal seed: a given --seed
        # replays the same game for the same inputs
        rngs = {s: random.Random(f"cardkit-play:{game.seed}:{s}") for s in others}
        return cls(game, seat, made, names, rngs, color)

    # ------------------------------------------------------------------ output pieces

    def header(self) -> str:
        """Who sits where, and how to play."""
        others = ", ".join(f"seat {s}: {name}" for s, name in sorted(self.bot_names.items()))
        return (
            f"{self.game.rules.name}, {self.game.players} players. You are seat {self.seat}; "
            f"{others}.\n{HELP}"
        )

    def narrate(self) -> list[str]:
        """Sentences for the entries the person has not been told about yet."""
        from cardkit.render import describe

        lines = []
        entries = self.game.entries_for(self.seat, self.narrated)
        for entry in entries:
            sentences = [describe(self.game.rules, e, self.seat) for e in entry.events]
            if sentences:
                lines.append(" ".join(sentences))
        if entries:
            self.narrated = entries[-1].seq
        return lines

    def view_text(self) -> str:
        """The person's view, with cards as symbols."""
        from cardkit.render import view_summary

        return view_summary(self.game.view(self.seat), self.color)

    def actions_text(self) -> str:
        """The numbered legal actions."""
        from cardkit.render import action_text

        items = [f"[{i}] {action_text(a, self.color)}" for i, a in enumerate(self.game.legal_actions(), 1)]
        # wrap on the plain text so that colour codes never split an item
        return "\n".join(textwrap.wrap("  ".join(items), 100, break_long_words=False, break_on_hyphens=False))

    def your_turn(self) -> str:
        """What the person sees when it is their turn."""
        return f"{self.view_text()}\nYour turn. Actions:\n{self.actions_text()}"

    # ------------------------------------------------------------------ game flow

    def advance(self) -> list[str]:
        """Let the bots play until it is the person's turn or the game is over; say what happened."""
        lines: list[str] = []
        moves = 0
        while not self.game.is_over and self.game.to_act != self.seat and moves < _MAX_BOT_ACTIONS:
            actor = self.game.to_act
            bot = self.bots[actor]
            action = bot.choose(self.game.seat_state(actor), self.rngs[actor])
            self.game = self.game.play(action, actor)
            moves += 1
        lines.extend(self.narrate())
        if self.game.is_over:
            lines.append(self.result_text())
            self.done = True
        return lines

    def result_text(self) -> str:
        """The end of the game in one sentence."""
        result = self.game.result
        assert result is not None
        winners = ", ".join("you" if s == self.seat else f"seat {s}" for s in result.winners)
        return (
            f"The game is over. Scores: {', '.join(map(str, result.scores))}. "
            f"Winner: {winners or 'nobody'}."
        )

    def handle(self, line: str) -> list[str]:
        """Answer one input line (the person's turn): the lines to print."""
        problem = unusable(line.rstrip("\r\n"))
        if problem is not None:
            return [problem]
        word = line.strip()
        command, _, rest = word.partition(" ")
        command = command.lower()
        if not word:
            return [self.actions_text()]
        if command in ("help", "?"):
            return [HELP]
        if command in ("quit", "exit"):
            self.done = True
            return ["Bye."]
        if command == "view":
            return [self.your_turn()]
        if command == "hint":
            return [self.hint()]
        if command == "undo":
            return self.undo()
        if command == "save":
            return self.save(rest.strip())
        return self.act(word)

    def act(self, text: str) -> list[str]:
        """Play the action the person named (a number or notation); explain a refusal."""
        from cardkit.render import symbols_to_codes

        legal = self.game.legal_actions()
        # only ASCII digits are a number: "²".isdigit() is True but int("²") fails, and a
        # number of thousands of digits is out of range without converting it
        if text.isascii() and text.isdigit():
            index = int(text) if len(text) <= 9 else 0
            if not 1 <= index <= len(legal):
                shown = text if len(text) <= 12 else quoted(text, 12)
                return [f"There is no action {shown}: choose 1 to {len(legal)}, or type an action."]
            action = legal[index - 1]
        else:
            try:
                action = self.game.rules.parse_action(symbols_to_codes(text))
            except CardkitError as exc:
                return [
                    f"I did not understand {quoted(text)}: {_cut(exc)}. Enter lists the actions; "
                    "help explains."
                ]
            if action not in legal:
                return [f"{quoted(text)} is not legal now. Enter lists the legal actions."]
        try:
            self.game = self.game.play(action, self.seat)
        except CardkitError as exc:
            return [f"That was refused: {_cut(exc)}"]
        return self.advance()

    def hint(self) -> str:
        """What a bot would play here, with its one-line reason where the bot can give one."""
        from cardkit.bots import ISMCTSBot, RuleBot
        from cardkit.render import action_text

        seat_state = self.game.seat_state(self.seat)
        legal = self.game.legal_actions()
        try:
            action, reason = RuleBot().explain(seat_state)
        except CardkitError:  # a game RuleBot has no strategy for (a user's game)
            action = ISMCTSBot(iterations=200).choose(seat_state, random.Random(self.game.entry_count))
            reason = "the choice of a short tree search"
        number = legal.index(action) + 1
        return f"Hint: [{number}] {action_text(action, self.color)}: {reason}"

    def undo(self) -> list[str]:
        """Take back the person's last action when that is safe (nothing was revealed since)."""
        entries = self.game.log.entries
        steps = 0
        for entry in reversed(entries):
            if entry.actor >= 0:
                steps += 1
                if entry.actor == self.seat:
                    break
        else:
            return ["There is nothing of yours to undo."]
        if steps > 1:
            return [
                "Cannot undo: other seats have played since your last action, and undo never "
                "takes back a move made after seeing yours."
            ]
        try:
            earlier = self.game.undo(steps, safe=True)
        except CardkitError as exc:
            return [f"Cannot undo: {exc}"]
        self.game = earlier
        self.narrated = min(self.narrated, earlier.entry_count - 1)
        return ["Your last action is taken back."]

    def save(self, words: str) -> list[str]:
        """``save FILE``: write the whole game's log (the host log: JSON that ``cardkit
        replay`` verifies, with the seed and every hidden card) to FILE, and say so in a
        warning line. ``save --seat FILE``: write the person's own log
        (``game.log_for(seat)``: only what the seat saw), which ``cardkit show`` reads."""
        from cardkit.serde import dumps

        first, _, rest = words.partition(" ")
        seat_only = first == "--seat"
        name = rest.strip() if seat_only else words
        if not name:
            return ["Say where: save FILE (the whole game) or save --seat FILE (what your seat saw)"]
        log = self.game.log_for(self.seat) if seat_only else self.game.log
        shown = name if name.isprintable() and len(name) <= 200 else quoted(name, 200)
        try:
            Path(name).write_text(dumps(log), encoding="utf-8")
        except OSError as exc:
            return [f"Could not save to {shown}: {exc.strerror or exc}"]
        except ValueError as exc:  # a NUL in the name, or a name the file system cannot encode
            return [f"Could not save to {shown}: that is not a possible file name ({_cut(exc)})"]
        entries = len(log.entries)
        if seat_only:
            return [
                f"Saved your seat's log to {shown} ({entries} entries): only what seat "
                f"{self.seat} saw, no seed. cardkit show reads it; it cannot be replayed."
            ]
        return [f"Saved the log to {shown} ({entries} entries).", SAVE_WARNING.format(name=shown)]

    def run(self, stdin: TextIO, stdout: TextIO, prompt: str = "> ") -> int:
        """The whole game on two text streams; returns the exit status (0)."""
        say: Callable[[str], None] = lambda text: print(text, file=stdout, flush=True)
        say(self.header())
        for text in self.advance():
            say(text)
        while not self.done:
            say(self.your_turn())
            while True:
                stdout.write(prompt)
                stdout.flush()
                line = read_line(stdin)
                if line is None:  # end of input: leave cleanly, like quit
                    say("\nEnd of input: bye.")
                    return 0
                if line.problem is not None:
                    say(line.problem)
                    continue
                before = self.game.entry_count
                for out in self.answer(line.text):
                    say(out)
                if self.done or self.game.entry_count != before:
                    break
        return 0

    def answer(self, line: str) -> list[str]:
        """:meth:`handle`, except that an unexpected error (a bug) is reported in one line
        and the game goes on: the game is immutable, so a failed step left it as it was."""
        try:
            return self.handle(line)
        except Exception as exc:  # noqa: BLE001 - the person's game outlives a bug
            return [
                f"Sorry, that hit a bug in cardkit ({type(exc).__name__}: {_cut(exc)}); please "
                "report it. Nothing was changed: the game goes on (save FILE keeps it)."
            ]


def _cut(exc: BaseException) -> str:
    """An error's text on one line, cut to a bounded length (it may quote the input)."""
    text = " ".join(str(exc).split())
    return text if len(text) <= _MAX_ERROR_TEXT else text[:_MAX_ERROR_TEXT] + " ..."
