"""``cardkit play``: a person at a table of bots, in line mode.

Works in any terminal, in a pipe and with a screen reader: it reads one line at a time
from standard input and writes plain sentences. What happens between the person's turns
is narrated from the person's own redacted entries (``game.entries_for(seat, after)``),
never from the full state, so the command shows exactly what a seat may know.

Commands at the prompt: a number (from the list of legal actions) or an action's notation
(``play QS``, ``play 10♥``, ``draw``); an empty line lists the actions again; ``hint``,
``undo``, ``view``, ``save FILE``, ``help``, ``quit``. End of input ends the game cleanly.
"""

from __future__ import annotations

import argparse
import random
import textwrap
from pathlib import Path
from typing import Any, Callable, TextIO

from cardkit.errors import CardkitError, ConfigError

__all__ = ["add_parser", "run", "PlaySession", "HELP"]

HELP = (
    "Type the number of an action or its notation (e.g. 'play QS' or 'play 10♥'). "
    "Enter on its own lists the actions again. Other commands: hint (what a bot would "
    "play), undo (take back your last action, when that reveals nothing), view (your view "
    "again), save FILE (the game's log as JSON), help, quit."
)
"""The text ``help`` prints."""

_MAX_BOT_ACTIONS = 100_000  # a guard against a game that never returns to the person


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
    return session.run(sys.stdin, sys.stdout)


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
            return [self.save(rest.strip())]
        return self.act(word)

    def act(self, text: str) -> list[str]:
        """Play the action the person named (a number or notation); explain a refusal."""
        from cardkit.render import symbols_to_codes

        legal = self.game.legal_actions()
        if text.isdigit():
            index = int(text)
            if not 1 <= index <= len(legal):
                return [f"There is no action {index}: choose 1 to {len(legal)}, or type an action."]
            action = legal[index - 1]
        else:
            try:
                action = self.game.rules.parse_action(symbols_to_codes(text))
            except CardkitError as exc:
                return [f"I did not understand {text!r}: {exc}. Enter lists the actions; help explains."]
            if action not in legal:
                return [f"{text!r} is not legal now. Enter lists the legal actions."]
        try:
            self.game = self.game.play(action, self.seat)
        except CardkitError as exc:
            return [f"That was refused: {exc}"]
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

    def save(self, name: str) -> str:
        """Write the game's log (JSON that ``cardkit replay`` accepts) to ``name``."""
        from cardkit.serde import dumps

        if not name:
            return "Say where: save FILE"
        try:
            Path(name).write_text(dumps(self.game.log), encoding="utf-8")
        except OSError as exc:
            return f"Could not save to {name}: {exc.strerror or exc}"
        return f"Saved the log to {name} ({len(self.game.log.entries)} entries)."

    def run(self, stdin: TextIO, stdout: TextIO, prompt: str = "> ") -> int:
        """The whole game on two text streams; returns the exit status (0)."""
        say: Callable[[str], None] = lambda text: print(text, file=stdout, flush=True)
        say(self.header())
        for line in self.advance():
            say(line)
        while not self.done:
            say(self.your_turn())
            while True:
                stdout.write(prompt)
                stdout.flush()
                line = stdin.readline()
                if not line:  # end of input: leave cleanly, like quit
                    say("\nEnd of input: bye.")
                    return 0
                before = self.game.entry_count
                for out in self.handle(line):
                    say(out)
                if self.done or self.game.entry_count != before:
                    break
        return 0
