"""A table for an uploaded seat log: a game consistent with everything one seat saw.

A seat log (``game.log_for(seat)``) has no seed and its events are redacted, so the game
cannot be replayed from it. But the seat's table at each step (``rules.view(state, seat)``)
depends only on what the seat could see, so *any* full game whose every entry looks to that
seat exactly as the log says gives the same tables. :func:`rebuild` searches for one:

* it plays the log's entries in order on a game of its own; a chance entry is given an
  outcome (a shuffle starts in the spec's own order, a pick is tried index by index), a
  seat's entry is the logged action;
* after each entry it compares what the seat would be told (the entry's events redacted for
  the seat) with the log. Where the log shows card X and the rebuilt game card Y, X and Y
  are swapped in the shuffle that dealt them and the game is played again from that
  shuffle; where a logged move is illegal in the rebuilt game (another seat plays a card it
  does not hold there, or does not follow a suit it holds there), the cards that make it so
  are swapped with cards hidden from the seat elsewhere;
* cards the seat has already seen are never moved (that would change what it was shown).

Every step of the result is checked against the log, so what it shows the seat is what the
seat was shown; the hidden cards in it are invented and never leave this module (only
``rules.view(state, seat)`` and the seat's redacted entries do). A log that shows the seat a
card that its seat could not see (another seat's hidden hand) is :class:`ClaimsHiddenCards`.
The search is bounded (:data:`WORK_PER_ENTRY` plays per entry of the log): a log it cannot
fit in that (or one that is inconsistent) is :class:`Unrebuildable`, and the replay then
shows the sentences only.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

import attrs

from cardkit.cards import Card
from cardkit.core.config import resolve_config
from cardkit.core.game import Game
from cardkit.core.knowledge import cards_named
from cardkit.core.log import SeatEntry
from cardkit.core.rules import CHANCE, Pick, PickSpec, Shuffle
from cardkit.errors import CardkitError

__all__ = ["rebuild", "Unrebuildable", "ClaimsHiddenCards", "WORK_PER_ENTRY", "MAX_WORK", "MAX_REPAIRS", "MAX_STALL"]

WORK_PER_ENTRY = 40
"""The most entries :func:`rebuild` plays per entry of the log (replaying after repairs
included) before it gives up, and at most :data:`MAX_WORK` in all: bounds an upload's cost."""

MAX_REPAIRS = 8
"""The most repairs :func:`rebuild` makes for one entry of the log before it gives up."""

MAX_STALL = 40
"""The most repairs :func:`rebuild` makes without getting further into the log."""

MAX_WORK = 10_000
"""The most entries :func:`rebuild` plays for one log (a few seconds of CPU at most)."""


class Unrebuildable(CardkitError):
    """No game consistent with the seat log was found (within the bound): no table."""


class ClaimsHiddenCards(CardkitError):
    """The seat log shows its seat a card the rules hide from that seat (``seq``: the entry)."""

    def __init__(self, message: str, seq: int) -> None:
        super().__init__(message)
        self.seq = seq


_TRIES = 12  # alternative repairs tried at one entry


def _diff(logged: Any, world: Any, pairs: list[tuple[Card, Card]], seq: int) -> bool:
    """Walk ``logged`` (the log's redacted event) beside ``world`` (the rebuilt one): collect
    (wanted, present) card pairs; False on any other difference."""
    if world is None and logged is not None and next(iter(cards_named(logged)), None) is not None:
        # where the rules tell this seat nothing (a redacted hand), the log names cards
        raise ClaimsHiddenCards(
            f"entry {seq} of this seat log shows its seat cards the rules hide from it (another "
            "seat's hidden cards): the file was changed", seq)
    if isinstance(logged, Card) or isinstance(world, Card):
        if isinstance(logged, Card) and isinstance(world, Card):
            if logged != world:
                pairs.append((logged, world))
            return True
        return False
    if type(logged) is not type(world):
        return False
    # every part is walked (no short cut), so a card the seat may not see is found wherever it is
    if attrs.has(type(logged)):
        return all([_diff(getattr(logged, f.name), getattr(world, f.name), pairs, seq) for f in attrs.fields(type(logged))])
    if isinstance(logged, (tuple, list)):
        same = [_diff(a, b, pairs, seq) for a, b in zip(logged, world)]
        return len(logged) == len(world) and all(same)
    if isinstance(logged, Mapping):
        same = [_diff(logged[k], world[k], pairs, seq) for k in logged if k in world]
        return logged.keys() == world.keys() and all(same)
    equal = bool(logged == world)
    return equal


def _patched(order: tuple[Card, ...], cards: tuple[Card, ...]) -> Shuffle:
    gone, new = Counter(order) - Counter(cards), Counter(cards) - Counter(order)
    incoming = list(new.elements())
    out = []
    for card in order:
        if gone[card] > 0 and incoming:
            gone[card] -= 1
            out.append(incoming.pop(0))
        else:
            out.append(card)
    return Shuffle(tuple(out))


def _unique(cards: list[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


class _Search:
    def __init__(self, rules: Any, config: Any, seat: int | None, entries: Sequence[SeatEntry]) -> None:
        self.rules = rules
        self.seat = seat
        self.entries = entries
        self.players: int = int(config.players)
        self.prefix: list[Game[Any, Any]] = [Game.start(rules, config, 0, auto_chance=False)]
        self.outcomes: dict[int, Any] = {}
        self.protected: dict[int, set[int]] = {}  # shuffle -> positions holding another seat's logged plays
        self.budget = min(WORK_PER_ENTRY * max(len(entries), 1), MAX_WORK)
        self.work = 0
        self.furthest = 0  # the furthest entry reached, and the repairs made since
        self.stalled = 0
        self.repairs: Counter[int] = Counter()
        # seen[k]: the cards named to the seat in the log's entries before k (a count per card)
        self.seen: list[Counter[Card]] = [Counter()]
        for entry in entries:
            named = Counter(cards_named(entry.events)) | Counter(cards_named(entry.action))
            self.seen.append(self.seen[-1] | named)

    def _hidden(self, zone: Any) -> bool:
        if self.seat is None:
            return len(zone.visible_to) < self.players
        return self.seat not in zone.visible_to

    def _told(self, game: Game[Any, Any]) -> tuple[Any, Any]:
        last = game.last_entry
        assert last is not None
        redact = self.rules.redact
        events = tuple(e for e in (redact(ev, self.seat) for ev in last.events) if e is not None)
        if last.actor == CHANCE:
            return None, events
        redact_action = getattr(self.rules, "redact_action", None)
        return (last.action if redact_action is None else redact_action(last.action, self.seat)), events

    def _step(self, k: int) -> tuple[Game[Any, Any] | None, list[list[tuple[Card, Card]]] | None, str]:
        """Play entry k on prefix[k]: (the game, None, "") when it matches the log; else
        (None, alternative lists of card pairs to swap, "") or (None, None, why)."""
        entry = self.entries[k]
        game = self.prefix[k]
        if entry.actor == CHANCE:
            if game.to_act != CHANCE:
                return None, None, f"entry {k} is chance in the log but not in the game"
            spec = game.pending_chance()
            if isinstance(spec, PickSpec) and k not in self.outcomes:
                for index in range(spec.n):  # a pick (the first dealer): the one the log shows
                    tried = game.play(Pick(index))
                    if self._matches(tried, entry) == []:
                        self.outcomes[k] = Pick(index)
                        return tried, None, ""
                return None, None, f"no outcome of chance entry {k} gives what the log shows"
            if isinstance(spec, PickSpec):
                action = self.outcomes[k]
            else:
                stored = self.outcomes.get(k)
                if stored is None:
                    self.outcomes[k] = self._first_deal(k, tuple(spec.cards))
                elif Counter(stored.order) != Counter(spec.cards):
                    # an earlier repair changed which cards this shuffle gets (the rest of
                    # a pack, a stock rebuilt from the pile): the new cards take the places
                    # of the ones gone, every other place is kept
                    self.outcomes[k] = _patched(stored.order, tuple(spec.cards))
                action = self.outcomes[k]
            nxt = game.play(action)
        else:
            action = entry.action
            if action is None:
                return self._redacted_action(k)
            try:
                nxt = game.play(action, entry.actor)
            except CardkitError:
                return None, self._make_legal(k, action), ""  # several tries
        pairs = self._matches(nxt, entry)
        if pairs is None:
            return None, None, f"entry {k} does not match the game"
        return (nxt, None, "") if not pairs else (None, [pairs], "")

    def _mismatches(self, k: int, outcome: Shuffle) -> int:
        """How far entry k (a shuffle) played with ``outcome`` is from the log (0: equal)."""
        try:
            game = self.prefix[k].play(outcome)
        except CardkitError:
            return 1_000_000
        action, events = self._told(game)
        pairs: list[tuple[Card, Card]] = []
        ok = _diff(self.entries[k].events, events, pairs, k)
        return len(pairs) + (0 if ok else 1000)

    def _later_plays(self, k: int, seat: int) -> Counter[Card]:
        """The cards ``seat`` is logged to name in its actions after entry k, up to the next
        chance entry (in a trick game: the rest of its hand)."""
        out: Counter[Card] = Counter()
        for entry in self.entries[k + 1:]:
            if entry.actor == CHANCE:
                break
            if entry.actor == seat:
                out.update(cards_named(entry.action))
        return out

    def _slots(self, k: int, cards: tuple[Card, ...]) -> dict[int, list[int]]:
        """For shuffle k: the positions of its order that land in each other seat's hidden
        cards (a deal places by position, not by card). Learnt by dealing a few rotations
        of the spec's order: in one of them the card at a position has no copy."""
        found: dict[int, int] = {}  # position -> owner
        counts = Counter(cards)
        for d in range(0, len(cards), max(1, len(cards) // 8)):  # 8 rotations spread over the order
            order = cards[d:] + cards[:d]
            try:
                dealt = self.prefix[k].play(Shuffle(order))
            except CardkitError:
                break
            where = {card: i for i, card in enumerate(order) if counts[card] == 1}
            for zone in dealt.zones():
                if zone.owner is not None and zone.owner != self.seat and self._hidden(zone):
                    for card in zone.cards:
                        if card in where:
                            found.setdefault(where[card], zone.owner)
            if all(counts[c] == 1 for c in cards):
                break
        slots: dict[int, list[int]] = {}
        for position, owner in sorted(found.items()):
            slots.setdefault(owner, []).append(position)
        return slots

    def _first_deal(self, k: int, cards: tuple[Card, ...]) -> Shuffle:
        """The first outcome tried for shuffle k: the cards each other seat is logged to
        play before the next chance entry put where that seat's hidden cards land, the
        rest in the spec's order."""
        order = list(cards)
        placed: set[int] = set()
        for owner, owner_slots in sorted(self._slots(k, cards).items()):
            demand = list(self._later_plays(k, owner).elements())
            for i, card in zip(owner_slots, demand):
                j = next((j for j, x in enumerate(order) if x == card and j not in placed), None)
                if j is None:
                    continue
                order[i], order[j] = order[j], order[i]
                placed.add(i)
        self.protected[k] = placed
        return Shuffle(tuple(order))

    def _redacted_action(self, k: int) -> tuple[Game[Any, Any] | None, list[list[tuple[Card, Card]]] | None, str]:
        entry, game = self.entries[k], self.prefix[k]
        for candidate in game.legal_actions():
            tried = game.play(candidate, entry.actor)
            if self._matches(tried, entry) == []:
                return tried, None, ""
        return None, None, f"no move of seat {entry.actor} at entry {k} gives what the log shows"

    def _matches(self, game: Game[Any, Any], entry: SeatEntry) -> list[tuple[Card, Card]] | None:
        # The card pairs to swap ([] when equal); None when something else differs and no
        # card does (a field derived from a card, such as a trump suit, follows its card).
        action, events = self._told(game)
        pairs: list[tuple[Card, Card]] = []
        ok = _diff(entry.events, events, pairs, entry.seq)
        if entry.actor != CHANCE and not _diff(entry.action, action, pairs, entry.seq):
            ok = False
        if not ok and not pairs:
            # a different shape (a starter buried instead of turned): pair the cards the log
            # names and the game does not with those the game names and the log does not
            logged = list(cards_named(entry.events)) + list(cards_named(entry.action))
            world = list(cards_named(events)) + list(cards_named(action))
            extra_logged, extra_world = Counter(logged) - Counter(world), Counter(world) - Counter(logged)
            wants = [c for c in _unique(logged) for _ in range(extra_logged[c])]
            haves = [c for c in _unique(world) for _ in range(extra_world[c])]
            if wants and not haves:
                # the log shows a card where the game dealt one the seat does not see (a
                # joker, shown when drawn, where the game drew a hidden card): that card
                last = game.last_entry
                hidden = list(cards_named(last.events)) if last is not None else []
                extra_hidden = Counter(hidden) - Counter(logged)
                haves = [c for c in _unique(hidden) for _ in range(extra_hidden[c])]
            pairs = list(zip(wants, haves))
        return pairs if ok or pairs else None

    def _make_legal(self, k: int, action: Any) -> list[list[tuple[Card, Card]]]:
        """Alternative swaps that may make ``action`` legal for its actor at entry k, most
        likely first: a card it names that the actor lacks, for one of the actor's hidden
        cards (the newest first: a card just drawn); else the actor's hidden cards that the
        game would let it play instead (a suit it must follow), for hidden cards of another
        suit elsewhere."""
        game, actor = self.prefix[k], self.entries[k].actor
        zones = game.zones()
        since = self._since(k)
        mine = [c for z in zones if z.owner == actor and self._hidden(z) for c in z.cards]
        later = self._later_plays(k, actor)
        mine = ([c for c in reversed(mine) if not since[c] and not later[c]]
                + [c for c in reversed(mine) if not since[c] and later[c]] + [c for c in reversed(mine) if since[c]])
        held = Counter(c for z in zones if z.owner == actor for c in z.cards)
        missing = []
        for card in cards_named(action):
            if held[card] > 0:
                held[card] -= 1
            else:
                missing.append(card)
        if missing:
            first, rest = missing[0], missing[1:]
            alternatives = []
            for y in mine[:_TRIES]:
                if y in missing:
                    continue
                pairs = [(first, y)]
                left = [c for c in mine if c != y and c not in missing]
                for card in rest:  # the other missing cards: greedily
                    if not left:
                        break
                    pairs.append((card, left.pop(0)))
                alternatives.append(pairs)
            return alternatives
        others = [c for z in zones if z.owner != actor and self._hidden(z) for c in z.cards]
        others = [c for c in others if not since[c]] + [c for c in others if since[c]]
        playable = {c for a in game.legal_actions() for c in cards_named(a)}
        wanted = set(cards_named(action))
        suits = {w.suit for w in wanted}
        alternatives = []
        for card in wanted:  # held, yet not playable (a rule on a card just drawn): the newest card becomes it
            for y in mine[:_TRIES]:
                if y != card:
                    alternatives.append([(card, y)])
        pairs = []
        for card in mine:
            if card in playable and card not in wanted:
                swap = next((o for o in others if o.suit != card.suit and o.suit not in suits), None)
                swap = swap or next((o for o in others if o.suit != card.suit), None)
                if swap is None:
                    break
                others.remove(swap)
                pairs.append((swap, card))
        return ([pairs] if pairs else []) + alternatives

    def _since(self, k: int) -> Counter[Card]:
        """The cards named to the seat from the newest shuffle at or before entry k up to
        entry k (moving one of them in that shuffle would change what the seat was shown)."""
        c = max((c for c, o in self.outcomes.items() if c <= k and isinstance(o, Shuffle)), default=0)
        return self.seen[k] - self.seen[c]

    def _swap(self, k: int, want: Card, have: Card) -> int | None:
        """Swap ``want`` and ``have`` in a shuffle at or before entry k holding both (the
        newest; with two packs in two shuffles, the one after which the log fits furthest);
        the seq of that shuffle (``None``: none can)."""
        candidates = []
        for c in range(min(k, len(self.entries) - 1), -1, -1):
            outcome = self.outcomes.get(c)
            if isinstance(outcome, Shuffle) and want in outcome.order and have in outcome.order:
                candidates.append(c)
        if not candidates:
            return None
        if candidates[0] == k:  # what a shuffle itself shows (a deal) is fixed in that shuffle
            candidates = candidates[:1]
        best: tuple[int, int, Shuffle] | None = None
        saved = dict(self.outcomes)
        earliest = k
        for c in candidates[:3]:
            earliest = min(earliest, c)  # the games after it may have been played with a trial swap
            shuffle, score = self._best_swap(c, k, want, have, several=len(candidates) > 1)
            if best is None or score < best[0]:
                best = (score, c, shuffle)
            self.outcomes = dict(saved)
            if score == 0:
                break
        assert best is not None
        self.outcomes[best[1]] = best[2]
        del self.prefix[earliest + 1:]
        return earliest

    def _best_swap(self, c: int, k: int, want: Card, have: Card, several: bool) -> tuple[Shuffle, int]:
        # The swap of want and have in shuffle c that fits best (copies: four Wizards), and
        # its score (0: fits; at the shuffle itself: how far its entry is from the log;
        # later: how many entries up to k do not fit).
        order = list(self.outcomes[c].order)
        keep = self.protected.get(c, set())
        wants = sorted((i for i, x in enumerate(order) if x == want), key=lambda i: i in keep)
        haves = [j for j, x in enumerate(order) if x == have]
        scored = several or len(wants) > 1 or len(haves) > 1
        best: tuple[int, Shuffle] | None = None
        for i in wants:
            for j in haves:
                tried = order.copy()
                tried[i], tried[j] = tried[j], tried[i]
                shuffle = Shuffle(tuple(tried))
                score = 0
                if scored:
                    self.outcomes[c] = shuffle
                    if c == k and len(self.prefix) > c:
                        score = self._mismatches(c, shuffle)
                    else:
                        score = k + 1 - self._progress(c, k)
                if best is None or score < best[0]:
                    best = (score, shuffle)
                if score == 0:
                    return shuffle, 0
        assert best is not None
        return best[1], best[0]

    def _spend(self) -> None:
        self.work += 1
        if self.work > self.budget:
            raise Unrebuildable("no game consistent with this seat log was found in time")

    def _apply(self, k: int, pairs: list[tuple[Card, Card]]) -> int | None:
        """Swap ``pairs`` for entry k; the entry to play again from (None: impossible)."""
        back = k
        done: set[frozenset[Card]] = set()
        for want, have in pairs:
            if frozenset((want, have)) in done:
                continue  # two places that each want the other's card: one swap fixed both
            done.add(frozenset((want, have)))
            c = self._swap(k, want, have)
            if c is None:
                return None
            back = min(back, c)
        return back

    def _progress(self, back: int, k: int) -> int:
        """Play entries back..k again; the first that does not fit (k + 1: none)."""
        back = min(back, len(self.prefix) - 1)  # an earlier trial may have cut the games short
        del self.prefix[back + 1:]
        for j in range(back, k + 1):
            self._spend()
            nxt, _, _ = self._step(j)
            if nxt is None:
                return j
            self.prefix.append(nxt)
        return k + 1

    def _replays_to(self, back: int, k: int) -> bool:
        """Play entries back..k again; whether all of them now match (prefix extended)."""
        return self._progress(back, k) == k + 1

    def run(self) -> Game[Any, Any]:
        k = 0
        while k < len(self.entries):
            self._spend()
            del self.prefix[k + 1:]
            nxt, alternatives, why = self._step(k)
            if nxt is not None:
                self.prefix.append(nxt)
                k += 1
                if k > self.furthest:  # progress: the stall count starts again
                    self.furthest, self.stalled = k, 0
                continue
            self.stalled += 1
            if self.stalled > MAX_STALL:
                raise Unrebuildable("no game consistent with this seat log was found in time")
            if not alternatives:
                raise Unrebuildable(why or f"entry {k} cannot be fitted")
            self.repairs[k] += 1
            if self.repairs[k] > MAX_REPAIRS:  # going round in circles: give up early
                raise Unrebuildable(f"entry {k} cannot be fitted")
            if len(alternatives) == 1:  # the one repair there is: made, then played on
                back = self._apply(k, alternatives[0])
                if back is None:
                    raise Unrebuildable(f"entry {k} shows cards no shuffle before it can give")
                k = back
                continue
            saved = dict(self.outcomes)
            for pairs in alternatives:  # tried one by one: the first that fits entry k stays
                back = self._apply(k, pairs)
                if back is not None and self._replays_to(back, k):
                    k += 1
                    break
                self.outcomes = dict(saved)
            else:
                back = self._apply(k, alternatives[0])  # none fits now: later repairs may
                if back is None:
                    raise Unrebuildable(f"entry {k} cannot be fitted")
                k = back
        return self.prefix[-1]


def rebuild(rules: Any, config: Mapping[str, Any], seat: int | None, entries: Sequence[SeatEntry]) -> Game[Any, Any]:
    """A game of ``rules`` (options ``config``, with ``players``) whose every entry, as
    ``seat`` (``None``: a spectator) would be told it, is the matching one of ``entries``.

    :class:`ClaimsHiddenCards` if the entries show the seat a card hidden from it;
    :class:`Unrebuildable` if no such game was found within the bound."""
    options = dict(config)
    players = options.pop("players", None)
    if not isinstance(players, int) or isinstance(players, bool):
        raise Unrebuildable("the log's config has no number of players")
    try:
        resolved = resolve_config(rules, players, options)
    except CardkitError as exc:
        raise Unrebuildable(f"the log's config is invalid: {str(exc)[:200]}") from None
    if seat is not None and not 0 <= seat < players:
        raise Unrebuildable("the log's seat is not a seat of its game")
    try:
        return _Search(rules, resolved, seat, entries).run()
    except (ClaimsHiddenCards, Unrebuildable):
        raise
    except (CardkitError, ValueError, TypeError, AttributeError, KeyError, IndexError) as exc:
        # unverified data the rules choke on: the file's fault, said without its contents
        raise Unrebuildable(f"the log does not fit its game ({type(exc).__name__})") from None
