"""Long-run scans any game can be put through: typed errors, indistinguishability, log fuzzing.

* :func:`check_error_texts` types text at a game as its seat to act would, and checks
  that every refusal is a cardkit error naming no card that seat cannot see.
* :func:`check_indistinguishable` swaps two cards a seat never saw in a deal and checks
  that nothing the seat observes changes.
* :func:`fuzz_log` mutates a game's log many ways and checks that each mutant is
  rejected with :class:`~cardkit.errors.LogError` or replays to a game the mutation could
  not have changed.

All three raise :class:`~cardkit.testing.InvariantViolation` on the first failure.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Callable, Iterable, Sequence

import attrs

from cardkit.cards import Card
from cardkit.core.game import Game, chance_outcome, replay
from cardkit.core.log import GameLog
from cardkit.core.rules import CHANCE, Rules, Shuffle, Zone
from cardkit.errors import CardkitError, IllegalActionError, LogError
from cardkit.games import get_rules
from cardkit.rng import Rng
from cardkit.serde import dumps, loads, to_json
from cardkit.testing.invariants import InvariantViolation, visible_counts
from cardkit.testing.leaks import CardScanner, format_excess
from cardkit.testing.probes import typed_texts

__all__ = [
    "FuzzReport",
    "LOG_MUTATIONS",
    "check_error_texts",
    "check_indistinguishable",
    "fuzz_log",
    "mutate_log",
    "seat_observations",
]

AnyRules = Rules[Any, Any, Any, Any]


def _deck(game: Game[Any, Any]) -> list[Card]:
    return sorted({c for z in game.zones() for c in z.cards}, key=lambda c: c.code)


# --------------------------------------------------------------------------- typed errors


def check_error_texts(game: Game[Any, Any], texts: Iterable[str] | None = None) -> int:
    """Play every text of ``texts`` (default: :func:`~cardkit.testing.probes.typed_texts`
    for this game's verbs and deck) as the seat to act; return how many were tried.

    Each text must either be accepted as one of ``legal_actions()`` or raise a
    :class:`~cardkit.errors.CardkitError`. The message of a refusal by ``play`` must name
    no card the seat cannot see (cards the text itself names excepted); notation errors of
    ``parse_action`` are not scanned, since parsing never sees the state. ``game`` itself
    is never changed.
    """
    seat = game.to_act
    if seat is None or seat == CHANCE:
        return 0
    deck = _deck(game)
    scanner = CardScanner(deck)
    legal = game.legal_actions()
    if texts is None:
        verbs = {str(a).split()[0] for a in legal if str(a).split()}
        texts = typed_texts(sorted(verbs), deck)
    allowed = visible_counts(game.zones(), seat, game.players)
    before = dumps(game.log)
    count = 0
    for text in texts:
        count += 1
        try:
            action = game.rules.parse_action(text)
        except CardkitError:
            # parse_action never sees the state, so its messages cannot depend on hidden
            # cards (they may quote example codes such as "e.g. play 9S 9H")
            continue
        except Exception as exc:  # noqa: BLE001 - reported as a violation
            raise InvariantViolation(
                f"{game.rules.name}: parsing {text[:80]!r} raised {type(exc).__name__} ({exc}), not a cardkit error"
            ) from exc
        try:
            after = game.play(action)
        except CardkitError as exc:
            message = str(exc)
            excess = scanner.excess(message, allowed)
            if excess:
                typed = scanner.tokens(text.upper())  # what was typed counts in any case
                if any(n > typed.get(c, 0) for c, n in excess.items()):
                    raise InvariantViolation(
                        f"{game.rules.name}: the error seat {seat} gets for typing {text[:80]!r} names concealed "
                        f"cards {format_excess(scanner.excess(message, allowed | typed))}: {message!r}"
                    ) from exc
            continue
        except Exception as exc:  # noqa: BLE001 - reported as a violation
            raise InvariantViolation(
                f"{game.rules.name}: typing {text[:80]!r} raised {type(exc).__name__} ({exc}), not a cardkit error"
            ) from exc
        entry = after.log.entries[len(game.log.entries)]
        if entry.action not in legal:
            raise InvariantViolation(f"{game.rules.name}: {text[:80]!r} was accepted but is not a legal action")
    if dumps(game.log) != before:
        raise InvariantViolation(f"{game.rules.name}: typing text changed the game")
    return count


# --------------------------------------------------------------------------- indistinguishability


def seat_observations(game: Game[Any, Any], viewer: int | None) -> Any:
    """Everything ``viewer`` observes in ``game`` now, as JSON-compatible data: its view,
    its legal actions when it is to act, and the last entry's events redacted for it."""
    entry = game.last_entry
    events = []
    if entry is not None:
        for event in entry.events:
            shown = game.rules.redact(event, viewer)
            if shown is not None:
                events.append(to_json(shown))
    legal = [str(a) for a in game.legal_actions()] if viewer is not None and game.to_act == viewer else []
    return {"view": json.loads(json.dumps(game.view(viewer))), "legal": legal, "events": events}


def _zone_counts(zones: Sequence[Zone]) -> dict[tuple[str, int | None], Counter[Card]]:
    out: dict[tuple[str, int | None], Counter[Card]] = {}
    for zone in zones:
        out.setdefault((zone.name, zone.owner), Counter()).update(zone.cards)
    return out


def _concealed(zones: Sequence[Zone], card: Card, viewer: int | None, players: int) -> bool:
    everyone = tuple(range(players))
    for zone in zones:
        if card in zone.cards:
            if viewer is None and zone.visible_to == everyone:
                return False
            if viewer is not None and viewer in zone.visible_to:
                return False
    return True


def check_indistinguishable(
    game: str | AnyRules,
    players: int,
    seed: int,
    *,
    policy_seed: int = 0,
    swaps: int = 4,
    max_seat_actions: int | None = 400,
    public_places: Sequence[str] = (),
    **options: Any,
) -> int:
    """Swap two cards a seat never saw in a deal and check the seat observes no difference.

    ``public_places`` names cards whose holder the rules announce although the card stays
    concealed (Cutthroat Spades with two jokers: whoever holds the 2♣ leads): they are
    never swapped, since moving one changes a public fact by design.

    Plays one random game (chance from ``seed``, choices from ``policy_seed``), then
    ``swaps`` times: picks a shuffle of the game, a viewer (a seat or a spectator) and two
    cards of that shuffle with different codes whose every copy is concealed from the
    viewer right after the deal, swaps them in the shuffle order, and replays the same
    actions. The two games are compared entry by entry for as long as

    * the same action is still accepted in the swapped game, and
    * no card changed zone differently: the per-zone multisets of the two games differ
      exactly as they did right after the swapped deal (once a swapped card moves —
      is drawn, played, revealed — the games may legitimately differ), and
    * both swapped cards are still concealed from the viewer in both games;

    within that window the viewer's observations (:func:`seat_observations`) must be
    identical. Returns the number of entries compared.
    """
    rules = get_rules(game) if isinstance(game, str) else game
    config = rules.config(players, **options)
    rng = Rng.stream(policy_seed, 11)
    original = Game.start(rules, config, seed, auto_chance=False)
    actions: list[Any] = []
    states: list[Game[Any, Any]] = [original]
    seat_moves = 0
    while original.to_act is not None:
        if original.to_act == CHANCE:
            action = chance_outcome(original.pending_chance(), seed, original._chance_count)
        else:
            if max_seat_actions is not None and seat_moves >= max_seat_actions:
                break
            legal = original.legal_actions()
            action = legal[rng.below(len(legal))]
            seat_moves += 1
        original = original.play(action)
        actions.append(action)
        states.append(original)
    shuffles = [i for i, a in enumerate(actions) if isinstance(a, Shuffle) and len(set(a.order)) > 1]
    compared = 0
    tag = f"{rules.name} players={players} seed={seed} policy_seed={policy_seed} options={options}"
    for _ in range(swaps if shuffles else 0):
        index = shuffles[rng.below(len(shuffles))]
        viewers: list[int | None] = [None, *range(players)]
        viewer = viewers[rng.below(len(viewers))]
        dealt = states[index + 1]
        zones = dealt.zones()
        order = actions[index].order
        hidden = [
            i for i, c in enumerate(order)
            if c.code not in public_places and _concealed(zones, c, viewer, players)
        ]  # fmt: skip
        pairs = [(i, j) for i in hidden for j in hidden if i < j and order[i] != order[j]]
        if not pairs:
            continue
        i, j = pairs[rng.below(len(pairs))]
        swapped_order = list(order)
        swapped_order[i], swapped_order[j] = swapped_order[j], swapped_order[i]
        a, b = order[i], order[j]
        other = states[index].play(Shuffle(tuple(swapped_order)))
        initial_diff = _diff(dealt.zones(), other.zones())
        where = f"{tag}: shuffle at entry {index} with {a} and {b} swapped, seen by {'spectator' if viewer is None else f'seat {viewer}'}"
        step = index + 1
        while True:
            mine, theirs = states[step], other
            if _diff(mine.zones(), theirs.zones()) != initial_diff:
                break
            if not all(
                _concealed(g.zones(), card, viewer, players) for g in (mine, theirs) for card in (a, b)
            ):
                break
            if seat_observations(mine, viewer) != seat_observations(theirs, viewer):
                raise InvariantViolation(f"{where}: entry {step - 1} looks different to the viewer")
            compared += 1
            if step >= len(actions):
                break
            try:
                other = other.play(actions[step])
            except IllegalActionError:
                break
            step += 1
    return compared


def _diff(left: Sequence[Zone], right: Sequence[Zone]) -> list[tuple[Any, ...]]:
    mine, theirs = _zone_counts(left), _zone_counts(right)
    out = []
    for key in sorted(set(mine) | set(theirs), key=repr):
        plus = mine.get(key, Counter()) - theirs.get(key, Counter())
        minus = theirs.get(key, Counter()) - mine.get(key, Counter())
        if plus or minus:
            out.append((key, sorted(c.code for c in plus.elements()), sorted(c.code for c in minus.elements())))
    return out


# --------------------------------------------------------------------------- log fuzzing


Mutation = Callable[[dict[str, Any], Rng], "tuple[str | dict[str, Any], bool] | None"]
"""A mutation: the mutant (data or text) and whether it must be rejected, or None."""


def _pick(items: Sequence[Any], rng: Rng) -> Any:
    return items[rng.below(len(items))]


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out.extend(_paths(value, prefix + (key,)))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out.extend(_paths(value, prefix + (i,)))
    return out


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def _set(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


_CARD_SPELLINGS = ("qs", "10S", "10s", "QS ", " QS", "Qs", "1S", "ZZ", "", "Q♠")


def _replace_value(data: dict[str, Any], rng: Rng) -> tuple[dict[str, Any], bool] | None:
    paths = [p for p in _paths(data) if p]
    path = _pick(paths, rng)
    value = _get(data, path)
    choices: list[Any]
    if isinstance(value, bool):
        choices = [not value, 1 if value else 0, str(value).lower(), None]
    elif isinstance(value, int):
        choices = [value + 1, value - 1, -value - 1, str(value), float(value), True, None, 2**70, [value]]
    elif isinstance(value, str):
        choices = [*_CARD_SPELLINGS, value.lower(), value + " ", value[:-1], 7, None, [value]]
    elif isinstance(value, list):
        choices = [[], value[:-1], value + value[-1:], {}, None, "x"] if value else [[None], {}, None]
    elif isinstance(value, dict):
        choices = [{}, [], None, {**value, "extra": 1}]
    else:
        choices = [0, "x", [], {}]
    new = _pick(choices, rng)
    if new == value and type(new) is type(value):
        return None
    _set(data, path, new)
    return data, False


def _card_spelling(data: dict[str, Any], rng: Rng) -> tuple[dict[str, Any], bool] | None:
    paths = [p for p in _paths(data) if isinstance(_get(data, p), str) and len(_get(data, p)) <= 3 and p and p[0] == "entries"]
    cards = [p for p in paths if Card._interned.get(_get(data, p)) is not None]
    if not cards:
        return None
    path = _pick(cards, rng)
    code = _get(data, path)
    variants = [code.lower(), code + " ", " " + code, code[0] + code[1:].lower()]
    if code.startswith("T"):
        variants.append("10" + code[1:])
    new = _pick(variants, rng)
    if new == code:
        return None
    _set(data, path, new)
    return data, True  # logs are machine-written: only canonical card codes


def _entries_edit(data: dict[str, Any], rng: Rng) -> tuple[dict[str, Any], bool] | None:
    entries = data["entries"]
    if len(entries) < 2:
        return None
    i = rng.below(len(entries))
    kind = rng.below(4)
    if kind == 0:
        del entries[i]
    elif kind == 1:
        entries.insert(i, json.loads(json.dumps(entries[i])))
    elif kind == 2:
        j = rng.below(len(entries))
        if i == j:
            return None
        entries[i], entries[j] = entries[j], entries[i]
    else:
        # drop/duplicate/swap with the seq numbers repaired, so only the content is wrong
        j = rng.below(len(entries))
        if i == j:
            return None
        entries[i], entries[j] = entries[j], entries[i]
        for seq, entry in enumerate(entries):
            entry["seq"] = seq
    return data, False


def _truncate_entries(data: dict[str, Any], rng: Rng) -> tuple[dict[str, Any], bool] | None:
    data["entries"] = data["entries"][: rng.below(len(data["entries"]) + 1)]
    return data, False


def _header_edit(data: dict[str, Any], rng: Rng) -> tuple[dict[str, Any], bool] | None:
    key = _pick(["format", "format_version", "game", "rules_version", "seed", "auto_chance", "config"], rng)
    value = data[key]
    if key == "config":
        options = sorted(value)
        option = _pick(options, rng)
        current = value[option]
        candidates: list[Any] = [None, "x", -1, 0, 1, 3, True, False, [current], {}]
        value = {**value, option: _pick(candidates, rng)}
        if rng.below(4) == 0:
            value = {**value, "self": 1}
    elif key == "seed":
        value = _pick([value + 1, value ^ 1, 0, -1, 2**64, 10**5000 if rng.below(50) == 0 else 2**64 - 1, "1", None], rng)
    else:
        value = _pick([None, "x", 0, 1, 2, -1, True, 1.0, [], {}], rng)
    if value == data[key] and type(value) is type(data[key]):
        return None
    data[key] = value
    # a config or auto_chance edit may be a consistent log of another game; an edited
    # seed is not when chance is verified (auto_chance), nor is any other envelope edit
    must = key not in ("config", "auto_chance") and not (key == "seed" and data.get("auto_chance") is False)
    return data, must


def _text_edit(data: dict[str, Any], rng: Rng) -> tuple[str, bool] | None:
    text = json.dumps(data)
    kind = rng.below(3)
    if kind == 0:
        return text[: rng.below(len(text))], False
    i = rng.below(len(text))
    if kind == 1:
        return text[:i] + _pick(["{", "}", "[", "]", ",", '"', ":", "\\", "\x00", "é", "9"], rng) + text[i + 1:], False
    return text[:i] + text[i + 1:], False


def _deep_nesting(data: dict[str, Any], rng: Rng) -> tuple[str, bool] | None:
    depth = 500 + rng.below(5000)
    return ("[" * depth + "]" * depth if rng.below(2) else '{"entries": ' + "[" * depth + "]" * depth + "}"), True


def _duplicate_key(data: dict[str, Any], rng: Rng) -> tuple[str, bool] | None:
    text = json.dumps(data)
    key = _pick(["entries", "seed", "config", "game"], rng)
    return text.replace(f'"{key}":', f'"{key}": {json.dumps(data[key])}, "{key}":', 1), True


LOG_MUTATIONS: dict[str, Mutation] = {
    "replace_value": _replace_value,
    "card_spelling": _card_spelling,
    "entries_edit": _entries_edit,
    "truncate_entries": _truncate_entries,
    "header_edit": _header_edit,
    "text_edit": _text_edit,
    "duplicate_key": _duplicate_key,
    "deep_nesting": _deep_nesting,
}
"""Mutation kinds of :func:`mutate_log`, by name."""


def mutate_log(text: str, kind: str, rng: Rng) -> tuple[str, bool] | None:
    """``text`` (a log's JSON) mutated by the mutation ``kind`` of :data:`LOG_MUTATIONS`,
    and whether the mutant must be rejected (a non-canonical or ambiguous log, an edited
    envelope); ``None`` if the mutation does not apply or changed nothing."""
    data = json.loads(text)
    out = LOG_MUTATIONS[kind](data, rng)
    if out is None:
        return None
    mutant, must_reject = out
    new = mutant if isinstance(mutant, str) else json.dumps(mutant, ensure_ascii=False)
    return None if new == text else (new, must_reject)


@attrs.frozen
class FuzzReport:
    """What :func:`fuzz_log` did: mutants tried and how each ended, by outcome."""

    tried: int
    rejected: int
    neutral: int
    prefix: int
    consistent: int = 0
    """Mutants that are another true record of a legal game from the same deal (a play
    replaced, with its events, by another legal play): replay re-decides every entry and
    verifies chance, so such a log is accepted by design, and it must replay to exactly
    the entries it states."""


def _states_exactly(game: Game[Any, Any], log: GameLog) -> bool:
    """``game`` (replayed from ``log``) holds exactly the entries ``log`` states, under its
    header (chance played after them, when the log auto-plays chance, may follow)."""
    mine = game.log
    if (mine.game, mine.rules_version, mine.seed) != (log.game, log.rules_version, log.seed):
        return False
    n = len(log.entries)
    return mine.entries[:n] == log.entries and all(e.actor == CHANCE for e in mine.entries[n:])


def _prefix_of(game: Game[Any, Any], original: Game[Any, Any]) -> bool:
    mine, theirs = game.log, original.log
    if (mine.game, mine.rules_version, mine.seed) != (theirs.game, theirs.rules_version, theirs.seed):
        return False
    n = len(mine.entries)
    if n > len(theirs.entries) or mine.entries != theirs.entries[:n]:
        return False
    return True


def _upcast_of(again: Game[Any, Any], original: Game[Any, Any], mutant: str) -> bool:
    """Whether ``mutant`` states an older ``rules_version`` that the game's registered
    upcasters brought to exactly ``original``: a true record of the same game, as an older
    library would have written it (Spacc 'u Mazz versions 1 and 2, for one)."""
    stated = loads(mutant, original.rules).rules_version
    return stated < original.log.rules_version and again == original


def fuzz_log(game: Game[Any, Any], count: int, rng: Rng, kinds: Sequence[str] | None = None) -> FuzzReport:
    """Mutate ``game``'s log ``count`` times and replay each mutant.

    Each mutant must raise :class:`~cardkit.errors.LogError` (from ``loads`` or
    ``replay``; :class:`~cardkit.errors.ReplayMismatchError` is one) or replay to a game
    the mutation could not have changed. That is precisely: the replayed game's entries
    (actor, action, events of each) are the original's entries or a prefix of them (a log
    cut at an entry boundary is a genuine earlier game), under the same game name,
    ``rules_version`` and seed. A changed config or ``auto_chance`` is accepted only with
    entries that the rules re-decided identically under it: the log is then a true record
    of that game. A log whose seat actions were replaced, events and all, by other legal
    ones is another true record of a game from the same (seed-verified) deal: logs are not
    signed, so it is accepted, and it must replay to exactly the entries it states
    (``consistent``). A header that states an older ``rules_version`` is accepted only when
    the registered upcasters bring it to exactly the original game (``neutral``). Anything else — another exception, entries other than the log states,
    another seed that replays — is an :class:`~cardkit.testing.InvariantViolation`.
    """
    rules = game.rules
    text = dumps(game.log)
    kinds = list(kinds or LOG_MUTATIONS)
    tried = rejected = neutral = prefix = consistent = 0
    attempts = 0
    while tried < count and attempts < count * 20:
        attempts += 1
        kind = _pick(kinds, rng)
        mutated = mutate_log(text, kind, rng)
        if mutated is None:
            continue
        mutant, must_reject = mutated
        tried += 1
        try:
            again = replay(rules, loads(mutant, rules))
        except LogError:
            rejected += 1
            continue
        except Exception as exc:  # noqa: BLE001 - reported as a violation
            raise InvariantViolation(
                f"{rules.name}: a {kind} mutant raised {type(exc).__name__} ({str(exc)[:200]}), not LogError; "
                f"mutant starts {mutant[:300]!r}"
            ) from exc
        if must_reject and _upcast_of(again, game, mutant):
            neutral += 1
            continue
        if must_reject:
            raise InvariantViolation(
                f"{rules.name}: a {kind} mutant was accepted but must be rejected; mutant starts {mutant[:300]!r}"
            )
        if not _prefix_of(again, game):
            if not _states_exactly(again, loads(mutant, rules)):
                raise InvariantViolation(
                    f"{rules.name}: a {kind} mutant replayed to another game than it states; "
                    f"mutant starts {mutant[:300]!r}"
                )
            consistent += 1
        elif len(again.log.entries) == len(game.log.entries) and again == game:
            neutral += 1
        else:
            prefix += 1
    return FuzzReport(tried, rejected, neutral, prefix, consistent)
