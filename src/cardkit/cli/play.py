"""``cardkit play``: a person at a table of bots, in line mode.

Works in any terminal, in a pipe and with a screen reader: it reads one line at a time
from standard input and writes plain sentences. What happens between the person's turns
is narrated from the person's own redacted entries (``game.entries_for(seat, after)``),
never from the full state, so the command shows exactly what a seat may know.

Before each of the person's turns the table is shown: the hand, then
:func:`cardkit.render.status` (the game's sentences and per-seat tables, the words any
surface shows) laid out for the terminal by :mod:`cardkit.cli.layout`.

Commands at the prompt: a number (from the list of legal actions), an action's notation
(``play QS``, ``play 10♥``, ``draw``) or the words the list shows (``play jester``, or
the start of one action's words); an empty line lists the actions again; ``hint``,
``undo`` (with the bots' replies: ``Game.undo_seat(seat, replies=True)``), ``view``,
``save FILE``, ``save --seat FILE``, ``help``, ``quit``. End of input ends the game
cleanly; Ctrl-C offers to save first.

No input ends the game by accident: a line that is not text, is too long, names no action,
or cannot be saved is answered with a sentence and the prompt comes back (see
:mod:`cardkit.cli.lines`); the game is changed only by a legal action or ``undo``.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import textwrap
from pathlib import Path
from typing import Any, Callable, TextIO

from cardkit.cli.lines import quoted, read_line, tolerant, unusable
from cardkit.errors import CardkitError, ConfigError

__all__ = ["add_parser", "run", "PlaySession", "HELP", "SAVE_WARNING"]

HELP = (
    "Type the number of an action, its notation (e.g. 'play QS' or 'play 10♥') or the words "
    "the list shows ('play jester'). Enter on its own lists the actions again. Other "
    "commands: hint (what a bot would play), undo (take back your last action and the bots' "
    "moves since, unless a card hidden from you was shown since), view (the table again), "
    "save FILE (the whole game's log as JSON, with the seed and every hidden card), "
    "save --seat FILE (only what your seat saw), help, quit. Ctrl-C offers to save."
)
"""The text ``help`` prints."""

INTERRUPTED = 130  # the exit status of a command ended by Ctrl-C
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

    from cardkit.cli.layout import terminal_width
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
    session.width = terminal_width()
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
        self.width = 100  # columns; run() sets the terminal's

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
            f"{others}.\n{self.help_text()}"
        )

    def help_text(self) -> str:
        """:data:`HELP`, wrapped at the terminal's width."""
        return "\n".join(textwrap.wrap(HELP, self.width, break_on_hyphens=False))

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

    def names(self) -> dict[int, str]:
        """How the table labels the other seats: ``{1: "rule bot"}``."""
        return {s: f"{spec} bot" for s, spec in self.bot_names.items()}

    def view_text(self) -> str:
        """The person's hand, then the table: sentences and a per-seat table
        (:func:`cardkit.render.status`, the words any surface shows), laid out for the terminal."""
        from cardkit.cli.layout import status_lines
        from cardkit.render import hand_text, status

        view = self.game.view(self.seat)
        hand = view.get("hand")
        lines = [f"Your hand: {hand_text(hand) if hand is not None else 'not looked at yet'}"]
        table = status_lines(status(self.game.rules, view, self.names()), self.width)
        if any(len(line) > self.width for line in table):  # a narrow terminal: no bot names
            table = status_lines(status(self.game.rules, view), self.width)
        lines += table
        return self._paint("\n".join(lines))

    def actions_text(self) -> str:
        """The numbered legal actions, wrapped between actions at the terminal's width, then
        what any terse notation among them means (``bid 1f: one for fifty, ...``)."""
        from cardkit.cli.layout import wrap_items
        from cardkit.render import action_notes, action_text

        legal = self.game.legal_actions()
        items = [f"[{i}] {action_text(a)}" for i, a in enumerate(legal, 1)]
        lines = wrap_items(items, self.width)
        for note in action_notes(self.game.rules, legal, self.game.view(self.seat)):
            lines += textwrap.wrap(note, self.width, initial_indent="  ", subsequent_indent="    ")
        return self._paint("\n".join(lines))

    def _paint(self, text: str) -> str:
        from cardkit.cli.layout import paint

        return paint(text) if self.color else text

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
            lines.append(self.view_text())  # the final table: scores, and any cards shown
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
            return [self.help_text()]
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
        """Play the action the person named (a number, a notation, or the words the list
        shows, such as ``play jester``); explain a refusal."""
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
                matched = self._by_words(text, legal)
                if isinstance(matched, list):
                    return matched
                if matched is None:
                    return [
                        f"I did not understand {quoted(text)}: {_cut(exc)}. Enter lists the actions; "
                        "help explains."
                    ]
                action = matched
            if action not in legal:
                return [self._refusal(text, action)]
        try:
            self.game = self.game.play(action, self.seat)
        except CardkitError as exc:
            return [f"That was refused: {_cut(exc)}"]
        return self.advance()

    def _by_words(self, text: str, legal: list[Any]) -> Any:
        """The legal action whose shown words (``play Jester``) or notation (``play N``)
        ``text`` spells, or starts (``play J`` when only one action starts so); a list of
        lines when several do; None when none does."""
        from cardkit.render import action_text

        typed = " ".join(text.lower().split())
        if not typed:
            return None
        shown = [(action_text(a).lower(), str(a).lower()) for a in legal]
        exact = [a for a, words in zip(legal, shown) if typed in words]
        if len(exact) == 1:
            return exact[0]
        starts = [i for i, words in enumerate(shown) if any(w.startswith(typed) for w in words)]
        if len(starts) == 1:
            return legal[starts[0]]
        if len(starts) > 1:
            options = "  ".join(f"[{i + 1}] {action_text(legal[i], self.color)}" for i in starts)
            return [f"{quoted(text)} could be any of: {options}. Type more, or a number."]
        return None

    def _refusal(self, text: str, action: Any) -> str:
        """Why ``action`` is not legal now, in the rules' own words where those name no card
        the person cannot see (the reason is the rules' check of the full state)."""
        from cardkit.errors import IllegalActionError

        try:
            self.game.play(action, self.seat)
        except IllegalActionError as exc:
            reason = _cut(exc.reason).rstrip(".")
            if _names_only(reason, self.game.view(self.seat), action):
                return f"{quoted(text)} is not legal now: {reason}. Enter lists the legal actions."
        except CardkitError:
            pass
        return f"{quoted(text)} is not legal now. Enter lists the legal actions."

    def hint(self) -> str:
        """What a bot would play here, with its one-line reason where the bot can give one."""
        from cardkit.bots import ISMCTSBot, RuleBot
        from cardkit.render import action_text

        seat_state = self.game.seat_state(self.seat)
        legal = self.game.legal_actions()
        rng = random.Random(self.game.entry_count)
        try:
            best = RuleBot().explain(seat_state, rng)[0]
        except CardkitError:  # a game RuleBot has no strategy for (a user's game)
            best = ISMCTSBot(iterations=200).explain(seat_state, rng, top=1)[0]
        number = legal.index(best.action) + 1
        # the reason begins with the action's own text ("bid 2: ..."): show it once, in colour
        text = str(best.action)
        reason = best.reason[len(text) + 2 :] if best.reason.startswith(text + ": ") else best.reason
        return f"Hint: [{number}] {action_text(best.action, self.color)}: {reason}"

    def undo(self) -> list[str]:
        """Take back the person's last action, with the bots' replies since, when no card
        hidden from the person was shown to them since (``Game.undo_seat(seat, replies=True)``)."""
        if not any(entry.actor == self.seat for entry in self.game.entries_for(self.seat)):
            return ["There is nothing of yours to undo."]
        try:
            earlier = self.game.undo_seat(self.seat, safe=True, replies=True)
        except CardkitError as exc:
            return [f"Cannot undo: {_cut(exc)}."]
        replies = sum(
            1 for e in self.game.log.entries[earlier.entry_count :] if e.actor >= 0 and e.actor != self.seat
        )
        self.game = earlier
        self.narrated = min(self.narrated, earlier.entry_count - 1)
        also = f", with {replies} bot move(s) that followed it" if replies else ""
        return [f"Your last action is taken back{also}."]

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
        name = os.path.expanduser(name)  # save ~/x.json: the shell is not there to expand ~
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
        """The whole game on two text streams; returns the exit status (0, or 130 after
        Ctrl-C, which first offers to save the game)."""
        say: Callable[[str], None] = lambda text: print(text, file=stdout, flush=True)
        try:
            return self._play(stdin, stdout, say, prompt)
        except KeyboardInterrupt:
            return self._interrupted(stdin, stdout, say)

    def _play(self, stdin: TextIO, stdout: TextIO, say: Callable[[str], None], prompt: str) -> int:
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

    def _interrupted(self, stdin: TextIO, stdout: TextIO, say: Callable[[str], None]) -> int:
        """Ctrl-C: offer to save before ending; a second Ctrl-C or the end of input ends
        without saving. Returns 130, the status of a command ended by Ctrl-C."""
        if self.done or self.game.entry_count == 0:
            say("\nInterrupted: bye.")
            return INTERRUPTED
        say(
            "\nInterrupted. To keep this game, type a file name to save it to (save --seat FILE "
            "keeps only what your seat saw); Enter, Ctrl-C or end of input leaves without saving."
        )
        while True:
            try:
                stdout.write("save to> ")
                stdout.flush()
                line = read_line(stdin)
            except KeyboardInterrupt:
                say("\nNot saved: bye.")
                return INTERRUPTED
            if line is None or not line.text.strip():
                say("\nNot saved: bye." if line is None else "Not saved: bye.")
                return INTERRUPTED
            if line.problem is not None:
                say(line.problem)
                continue
            words = line.text.strip()
            if words.lower().startswith("save "):
                words = words[5:].strip()
            answer = self.save(words)
            for text in answer:
                say(text)
            if answer and answer[0].startswith("Saved"):
                say("Bye.")
                return INTERRUPTED

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


def _cut(exc: BaseException | str) -> str:
    """An error's text on one line, cut to a bounded length (it may quote the input)."""
    text = " ".join(str(exc).split())
    return text if len(text) <= _MAX_ERROR_TEXT else text[:_MAX_ERROR_TEXT] + " ..."


_CARD_CODE = re.compile(r"\b(10[SHDC]|[2-9TJQKA][SHDC]|RJ|BJ|XJ)\b")


def _names_only(reason: str, view: Any, action: object) -> bool:
    """Whether every card code in ``reason`` is one the person can see in ``view`` or typed
    in ``action``: a rules message is written for the full state and could name a hidden card."""
    visible = {code.replace("10", "T", 1) for code in _CARD_CODE.findall(str(action))}
    visible.update(_codes_in(view))
    return all(code.replace("10", "T", 1) in visible for code in _CARD_CODE.findall(reason))


def _codes_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_codes_in(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(_codes_in(v) for v in value)) if value else set()
    return set()
