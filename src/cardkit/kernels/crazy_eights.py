"""The Crazy Eights kernel: every option of ``cardkit.games.crazy_eights``, int-coded.

Restricted typed Python (see :mod:`cardkit.kernels._base`), compiled by mypyc when it
can be. The encoding:

* a card is ``suit * 13 + rank - 2`` with the suits S, H, D, C as 0..3 and ranks 2..14
  (ace high): 0..51, the order of ``standard_deck()`` and of the display sort. A second
  pack repeats the same ints.
* action ids (``CrazyEightsRules.action_space``): ``c`` plays card ``c`` naming no suit,
  ``52 + 4 * suit(c) + s`` plays the 8 ``c`` naming suit ``s``, 68 draws, 69 passes.
* a hand is a multiset: ``count[52 * seat + c]`` copies of card ``c`` (a flat list), with
  per seat a 52-bit mask of the values held (bit ``c``), the number of cards and the
  cards per suit. The rules never look at the order of a hand (legal plays come in card
  order, a drawn card is kept apart in ``drawn``), so the kernel keeps none: the legal
  plays are ``mask & (eights | suit | rank)``, read off lowest bit first, already in the
  reference order and without repeats. The stock is a list with its *top at the end* (a
  draw pops), the discard pile bottom first (top at the end).
* an absent value (no drawn card, no owed draw) is -1; ``to_act`` is a seat,
  :data:`CHANCE` or :data:`OVER`.

Each method mirrors one path of ``CrazyEightsRules.decide`` followed by ``evolve`` of
its events; the comments name the rule (docs/games/crazy-eights.md).
"""

from __future__ import annotations

from typing import Final

from cardkit.kernels._base import CHANCE, OVER, Kernel, KRng, fewest_cards_values

__all__ = [
    "CrazyEightsKernel",
    "DRAW",
    "PASS",
    "EIGHT_PLAYS",
    "ZONE_STOCK",
    "ZONE_DISCARD",
    "ZONE_HAND",
    "REASON_DRAW",
    "REASON_PENDING",
    "REASON_PENALTY",
]

EIGHT_PLAYS: Final = 52
"""Action id of the first ``play 8X S`` (``52 + 4 * suit of the 8 + named suit``)."""
DRAW: Final = 68
"""Action id of ``draw``."""
PASS: Final = 69
"""Action id of ``pass``."""

ZONE_STOCK: Final = 0
"""``set_zone`` code of the stock (cards top first, owner -1)."""
ZONE_DISCARD: Final = 1
"""``set_zone`` code of the discard pile (cards bottom first, owner -1)."""
ZONE_HAND: Final = 2
"""``set_zone`` code of a hand (owner: the seat)."""

REASON_DRAW: Final = 0
"""An owed draw's reason: a chosen draw (the reference ``"draw"``)."""
REASON_PENDING: Final = 1
"""An owed draw's reason: the pending total of 2s (``"pending"``)."""
REASON_PENALTY: Final = 2
"""An owed draw's reason: the queen of spades (``"penalty"``)."""

_EIGHT: Final = 6  # rank index (card % 13) of an 8
_TWO: Final = 0
_JACK: Final = 9
_ACE: Final = 12
_QUEEN_OF_SPADES: Final = 10
_SUIT_BITS: Final = 0x1FFF  # the 13 cards of suit 0; << 13 * suit for the others
_RANK_BITS: Final = 1 | (1 << 13) | (1 << 26) | (1 << 39)  # rank index 0; << r for rank r
_EIGHT_BITS: Final = _RANK_BITS << _EIGHT
_TWO_BITS: Final = _RANK_BITS
_PLAIN_BITS: Final = ((1 << 52) - 1) ^ _EIGHT_BITS


def card_points(card: int) -> int:
    """Rule 15: 8 = 50; K, Q, J, 10 = 10; A = 1; 2-7 and 9 face value."""
    r = card % 13
    if r == _EIGHT:
        return 50
    if r == _ACE:
        return 1
    if r >= 8:
        return 10
    return r + 2


def _bot_points(card: int) -> int:
    # RuleBot's own shedding value (bots/heuristics/crazy_eights.py _points): the ace
    # counts 10 there, not 1.
    r = card % 13
    if r == _EIGHT:
        return 50
    if r >= 8:
        return 10
    return r + 2


class CrazyEightsKernel(Kernel):
    """A mutable Crazy Eights state under one config (see the module docs for the encoding).

    Built from a reference state by the bridge (``cardkit.games.crazy_eights.kernel``);
    ``CrazyEightsKernel(...)`` alone is the state before the first dealer is picked.
    """

    # the config
    points_mode: bool
    until_playable: bool
    reshuffle: bool
    two_draws_two: bool
    queen_draws_five: bool
    jack_skips: bool
    ace_reverses: bool
    target: int
    decks: int
    hand_size: int
    max_turns: int
    cap: int
    # the state
    to_act: int
    dealer: int
    hand_number: int
    count: list[int]
    mask: list[int]
    hlen: list[int]
    hsuit: list[int]
    stock: list[int]
    slen: int
    disc: list[int]
    dlen: int
    active: int
    direction: int
    pending: int
    drawn: int
    passes: int
    turns: int
    score: list[int]
    hand_points: list[int]
    revealed: bool
    owed_seat: int
    owed_count: int
    owed_reason: int
    owed_next: int
    over: bool
    won: list[int]
    # scratch for chance_random's deal (refilled in pack order before each use)
    pack: list[int]

    def __init__(
        self,
        players: int,
        points_mode: bool,
        until_playable: bool,
        reshuffle: bool,
        two_draws_two: bool,
        queen_draws_five: bool,
        jack_skips: bool,
        ace_reverses: bool,
        target: int,
        decks: int,
        hand_size: int,
        max_turns: int,
        blank: bool = False,
    ) -> None:
        super().__init__(players)
        self.points_mode = points_mode
        self.until_playable = until_playable
        self.reshuffle = reshuffle
        self.two_draws_two = two_draws_two
        self.queen_draws_five = queen_draws_five
        self.jack_skips = jack_skips
        self.ace_reverses = ace_reverses
        self.target = target
        self.decks = decks
        self.hand_size = hand_size
        self.max_turns = max_turns
        cap = 52 * decks
        self.cap = cap
        if blank:  # copy() fills every state attribute itself
            return
        self.to_act = CHANCE
        self.dealer = -1
        self.hand_number = 0
        self.count = [0] * (players * 52)
        self.mask = [0] * players
        self.hlen = [0] * players
        self.hsuit = [0] * (players * 4)
        # before the first deal the stock is the pack in order (top first), stored reversed
        self.stock = [0] * cap
        i = 0
        while i < cap:
            self.stock[i] = (cap - 1 - i) % 52
            i += 1
        self.slen = cap
        self.disc = [0] * cap
        self.dlen = 0
        self.active = -1
        self.direction = 1
        self.pending = 0
        self.drawn = -1
        self.passes = 0
        self.turns = 0
        self.score = [0] * players
        self.hand_points = [0] * players
        self.revealed = False
        self.owed_seat = -1
        self.owed_count = 0
        self.owed_reason = 0
        self.owed_next = -1
        self.over = False
        self.won = []
        self.pack = [0] * cap

    # ------------------------------------------------------------------ queries

    def actor(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`OVER`."""
        return self.to_act

    def _playable(self, card: int) -> bool:
        """Rule 5 (and rule 9: only a 2 answers a pending draw)."""
        r = card % 13
        if self.pending > 0:
            return r == _TWO
        return r == _EIGHT or card // 13 == self.active or r == self.disc[self.dlen - 1] % 13

    def _can_supply(self) -> bool:
        """Can the stock give a card now (possibly after a reshuffle, rule 7)?"""
        return self.slen > 0 or (self.reshuffle and self.dlen > 1)

    def _playable_bits(self, seat: int) -> int:
        """The values ``seat`` holds that it could play now (rules 5 and 9)."""
        if self.pending > 0:
            return self.mask[seat] & _TWO_BITS
        return self.mask[seat] & (
            _EIGHT_BITS | (_SUIT_BITS << (13 * self.active)) | (_RANK_BITS << (self.disc[self.dlen - 1] % 13))
        )

    def legal(self) -> list[int]:
        """The legal action ids: plays by card (an 8 once per named suit S, H, D, C unless
        going out), then draw, then pass (the reference order)."""
        out: list[int] = []
        seat = self.to_act
        if seat < 0:
            return out
        drawn = self.drawn
        if drawn >= 0:
            if self._playable(drawn):
                if drawn % 13 == _EIGHT:
                    base = EIGHT_PLAYS + (drawn // 13) * 4
                    out.append(base)
                    out.append(base + 1)
                    out.append(base + 2)
                    out.append(base + 3)
                else:
                    out.append(drawn)
                out.append(PASS)
            elif self.until_playable and self._can_supply():
                out.append(DRAW)
            else:
                out.append(PASS)
            return out
        bits = self._playable_bits(seat)
        going_out = self.hlen[seat] == 1
        while bits != 0:
            low = bits & -bits
            bits ^= low
            c = low.bit_length() - 1
            if c % 13 == _EIGHT and not going_out:
                base = EIGHT_PLAYS + (c // 13) * 4
                out.append(base)
                out.append(base + 1)
                out.append(base + 2)
                out.append(base + 3)
            else:
                out.append(c)
        if self.pending > 0 or self._can_supply():
            out.append(DRAW)
        elif len(out) == 0:
            out.append(PASS)
        return out

    def rule_action(self) -> int:
        """RuleBot (bots/heuristics/crazy_eights.py): the playable non-8 of my longest suit
        (ties: more points, then the first in display order); else the lowest playable 8
        naming my longest suit without 8s (ties: S, H, D, C); else draw; else pass."""
        seat = self.to_act
        drawn = self.drawn
        if drawn >= 0:  # after drawing, only the drawn card may be played
            if not self._playable(drawn):
                if self.until_playable and self._can_supply():
                    return DRAW
                return PASS
            bits = 1 << drawn
        else:
            bits = self._playable_bits(seat)
        plain = bits & _PLAIN_BITS
        hsuit = self.hsuit
        base4 = seat * 4
        if plain != 0:
            best = -1
            best_count = -1
            best_points = -1
            while plain != 0:  # ascending: a tie keeps the first in display order
                low = plain & -plain
                plain ^= low
                c = low.bit_length() - 1
                count = hsuit[base4 + c // 13]
                points = _bot_points(c)
                if count > best_count or (count == best_count and points > best_points):
                    best = c
                    best_count = count
                    best_points = points
            return best
        eights = bits & _EIGHT_BITS
        if eights != 0:
            eight = (eights & -eights).bit_length() - 1
            if self.hlen[seat] == 1:
                return eight  # going out: the 8 names no suit
            # the longest suit without 8s (ties: the first of S, H, D, C)
            cnt = self.count
            base = seat * 52 + _EIGHT
            longest = 0
            most = hsuit[base4] - cnt[base]
            s = 1
            while s < 4:
                k = hsuit[base4 + s] - cnt[base + 13 * s]
                if k > most:
                    longest = s
                    most = k
                s += 1
            return EIGHT_PLAYS + (eight // 13) * 4 + longest
        if self.pending > 0 or self._can_supply():
            return DRAW
        return PASS

    def held(self, seat: int) -> int:
        """The cards in ``seat``'s hand."""
        return self.hlen[seat]

    def scores(self) -> list[int]:
        """Single hand: the hand's points once scored (zeros before); points match: totals."""
        if self.points_mode:
            return self.score.copy()
        return self.hand_points.copy()

    def winners(self) -> list[int]:
        """The winner once over (none for a drawn blocked hand), else ``[]``."""
        return self.won.copy()

    def cutoff_values(self) -> list[float]:
        """Rank shares by the cards still held (the reference ``fewest_cards``)."""
        return fewest_cards_values(self)

    def random_playout(self, rng: KRng, limit: int) -> int:
        """Play on to the end (or ``limit`` seat actions) with uniformly random legal
        actions and chance answered by ``rng``; the seat actions played. The whole loop
        stays in the kernel (compiled, one call per playout)."""
        played = 0
        while played < limit:
            actor = self.to_act
            if actor == OVER:
                break
            if actor == CHANCE:
                self.chance_random(rng)
                continue
            legal = self.legal()
            self.apply(legal[rng.below(len(legal))])
            played += 1
        return played

    # ------------------------------------------------------------------ seat actions

    def apply(self, action: int) -> None:
        """Play the legal action id ``action`` for the seat to act."""
        seat = self.to_act
        if action == DRAW:
            if self.pending > 0:  # rule 9: draw the whole pending total, the turn ends
                self._take(seat, self.pending, REASON_PENDING, (seat + self.direction) % self.players, True)
            else:
                self._take(seat, 1, REASON_DRAW, -1, True)
            self._after_turn(False)
        elif action == PASS:
            # rule 8: only a pass without a draw this turn counts towards a blocked hand
            self.passes = self.passes + 1 if self.drawn < 0 else 0
            self.to_act = (seat + self.direction) % self.players
            self.drawn = -1
            self.turns += 1
            self._after_turn(True)
        elif action < EIGHT_PLAYS:
            self._play(seat, action, -1)
        else:
            k = action - EIGHT_PLAYS
            self._play(seat, (k // 4) * 13 + _EIGHT, k % 4)

    def _play(self, seat: int, card: int, named: int) -> None:
        size = self.hlen[seat]
        self._remove(seat, card)
        self.disc[self.dlen] = card
        self.dlen += 1
        self.active = named if named >= 0 else card // 13
        self.drawn = -1
        self.passes = 0
        self.turns += 1
        if size == 1:  # rule 14: going out ends the hand, the card's effect is not applied
            self.pending = 0
            self._end_hand(seat)
            return
        r = card % 13
        n = self.players
        if self.two_draws_two and r == _TWO:
            self.pending += 2
        else:
            self.pending = 0
        if self.ace_reverses and r == _ACE and n > 2:  # rule 12
            self.direction = -self.direction
        step = 1
        queen = self.queen_draws_five and card == _QUEEN_OF_SPADES
        if (self.jack_skips and r == _JACK) or queen:  # rules 10, 11
            step = 2
        nxt = (seat + self.direction * step) % n
        self.to_act = nxt
        if queen:  # rule 10: the next player draws 5 and loses the turn
            self._take((seat + self.direction) % n, 5, REASON_PENALTY, nxt, False)
        self._after_turn(False)

    def _take(self, seat: int, count: int, reason: int, nxt: int, turn: bool) -> None:
        """``seat`` takes ``count`` cards (what the stock has; rule 13); ``nxt`` acts next
        (-1: the drawing seat goes on); a shortfall asks for a reshuffle (rule 7)."""
        take = count if count < self.slen else self.slen
        stock = self.stock
        slen = self.slen
        last = -1
        k = 0
        while k < take:
            slen -= 1
            last = stock[slen]
            self._add(seat, last)
            k += 1
        self.slen = slen
        if nxt < 0:
            self.to_act = seat
            if take > 0:
                self.drawn = last
        else:
            self.to_act = nxt
            self.drawn = -1
        if reason == REASON_PENDING:
            self.pending = 0
        if turn:
            self.passes = 0
            self.turns += 1
        self.owed_seat = -1
        self.owed_count = 0
        self.owed_reason = 0
        self.owed_next = -1
        if count > take and self.reshuffle and self.dlen > 1:
            self.to_act = CHANCE
            self.owed_seat = seat
            self.owed_count = count - take
            self.owed_reason = reason
            self.owed_next = nxt

    def _after_turn(self, passing: bool) -> None:
        """Rule 8 (a blocked hand) and the ``max_turns`` guard end the hand."""
        limit = self.turns >= self.max_turns
        blocked = (
            passing and self.passes >= self.players and not self._can_supply() and self.owed_seat < 0
        )
        if limit or blocked:
            # the guard ends the hand: no reshuffle is needed any more
            self.owed_seat = -1
            self.owed_count = 0
            self.owed_reason = 0
            self.owed_next = -1
            self._end_hand(-1)

    def _end_hand(self, winner: int) -> None:
        """Rules 16-22: score the hand (``winner`` went out, -1: blocked); end the game or
        call for the next deal."""
        n = self.players
        totals = [0] * n
        seat = 0
        while seat < n:
            totals[seat] = self._hand_points(seat)
            seat += 1
        points = self.hand_points
        seat = 0
        while seat < n:
            points[seat] = 0
            seat += 1
        if winner >= 0:  # rule 20
            won = 0
            seat = 0
            while seat < n:
                if seat != winner:
                    won += totals[seat]
                seat += 1
            points[winner] = won
        else:  # rules 17, 21: the unique lowest total scores the differences
            lowest = totals[0]
            holder = 0
            ties = 0
            seat = 0
            while seat < n:
                t = totals[seat]
                if t < lowest:
                    lowest = t
                    holder = seat
                    ties = 1
                elif t == lowest:
                    ties += 1
                seat += 1
            if ties == 1:
                winner = holder
                won = 0
                seat = 0
                while seat < n:
                    won += totals[seat] - lowest
                    seat += 1
                points[winner] = won
        seat = 0
        while seat < n:
            self.score[seat] += points[seat]
            seat += 1
        self.revealed = True
        self.drawn = -1
        if self.points_mode and (winner < 0 or self.score[winner] < self.target):
            self.to_act = CHANCE  # rule 19: the next dealer deals
            self.dealer = (self.dealer + 1) % n
            return
        self.to_act = OVER
        self.over = True
        self.won = [winner] if winner >= 0 else []

    # ------------------------------------------------------------------ hands

    def _add(self, seat: int, card: int) -> None:
        i = seat * 52 + card
        if self.count[i] == 0:
            self.mask[seat] |= 1 << card
        self.count[i] += 1
        self.hlen[seat] += 1
        self.hsuit[seat * 4 + card // 13] += 1

    def _remove(self, seat: int, card: int) -> None:
        i = seat * 52 + card
        k = self.count[i] - 1
        self.count[i] = k
        if k == 0:
            self.mask[seat] ^= 1 << card
        self.hlen[seat] -= 1
        self.hsuit[seat * 4 + card // 13] -= 1

    def _clear(self, seat: int) -> None:
        base = seat * 52
        c = 0
        while c < 52:
            self.count[base + c] = 0
            c += 1
        self.mask[seat] = 0
        self.hlen[seat] = 0
        base = seat * 4
        self.hsuit[base] = 0
        self.hsuit[base + 1] = 0
        self.hsuit[base + 2] = 0
        self.hsuit[base + 3] = 0

    def _hand_points(self, seat: int) -> int:
        """The value of the cards in ``seat``'s hand (rule 15)."""
        total = 0
        bits = self.mask[seat]
        base = seat * 52
        while bits != 0:
            low = bits & -bits
            bits ^= low
            c = low.bit_length() - 1
            total += card_points(c) * self.count[base + c]
        return total

    # ------------------------------------------------------------------ chance

    def chance_is_pick(self) -> bool:
        """The first dealer is a pick; a deal or a rebuilt stock is a shuffle."""
        return self.dealer < 0

    def chance_size(self) -> int:
        """The seats (pick), the discard but its top (rebuild), or the whole pack (deal)."""
        if self.dealer < 0:
            return self.players
        if self.owed_seat >= 0:
            return self.dlen - 1
        return self.cap

    def chance_pick(self, index: int) -> None:
        """Seat ``index`` is the first dealer."""
        self.dealer = index

    def chance_shuffle(self, order: list[int]) -> None:
        """Deal ``order`` (top first), or make it the new stock and complete the owed draw."""
        if self.owed_seat >= 0:
            m = len(order)
            i = 0
            while i < m:
                self.stock[i] = order[m - 1 - i]
                i += 1
            self._rebuilt(m)
        else:
            self._deal(order)

    def chance_random(self, rng: KRng) -> None:
        """A uniform pick, or a uniformly random order of the pending shuffle's cards."""
        if self.dealer < 0:
            self.dealer = rng.below(self.players)
        elif self.owed_seat >= 0:
            m = self.dlen - 1
            stock = self.stock
            disc = self.disc
            i = 0
            while i < m:
                stock[i] = disc[i]
                i += 1
            _shuffle_prefix(stock, m, rng)
            self._rebuilt(m)
        else:
            pack = self.pack
            cap = self.cap
            i = 0
            while i < cap:
                pack[i] = i % 52
                i += 1
            _shuffle_prefix(pack, cap, rng)
            self._deal(pack)

    def _rebuilt(self, m: int) -> None:
        """Rule 7: the stock holds ``m`` cards; the discard keeps its top; the owed draw
        completes (no further reshuffle: the discard is down to one card)."""
        self.slen = m
        self.disc[0] = self.disc[self.dlen - 1]
        self.dlen = 1
        self.passes = 0
        self._take(self.owed_seat, self.owed_count, self.owed_reason, self.owed_next, False)

    def _deal(self, order: list[int]) -> None:
        """Rules 2-4: deal one at a time from the dealer's left, turn the starter, bury 8s."""
        n = self.players
        hs = self.hand_size
        dealer = self.dealer
        seat = 0
        while seat < n:
            self._clear(seat)
            seat += 1
        pos = 0
        k = 0
        while k < hs:
            j = 1
            while j <= n:
                self._add((dealer + j) % n, order[pos])
                pos += 1
                j += 1
            k += 1
        size = len(order)
        # rule 3: 8s on top of the rest go to the bottom, unless only 8s are left
        buried = 0
        i = pos
        while i < size and order[i] % 13 == _EIGHT:
            i += 1
        if i < size:
            buried = i - pos
        starter = order[pos + buried]
        # stock top first: order[pos+buried+1:] then the buried 8s; stored reversed
        stock = self.stock
        s = 0
        i = pos + buried - 1
        while i >= pos:
            stock[s] = order[i]
            s += 1
            i -= 1
        i = size - 1
        while i > pos + buried:
            stock[s] = order[i]
            s += 1
            i -= 1
        self.slen = s
        self.disc[0] = starter
        self.dlen = 1
        self.active = starter // 13
        self.hand_number += 1
        self.to_act = (dealer + 1) % n
        self.direction = 1
        self.pending = 0
        self.drawn = -1
        self.passes = 0
        self.turns = 0
        self.revealed = False
        self.owed_seat = -1
        self.owed_count = 0
        self.owed_reason = 0
        self.owed_next = -1

    # ------------------------------------------------------------------ copies, zones

    def copy(self) -> CrazyEightsKernel:
        """An independent copy."""
        k = CrazyEightsKernel(
            self.players, self.points_mode, self.until_playable, self.reshuffle, self.two_draws_two,
            self.queen_draws_five, self.jack_skips, self.ace_reverses, self.target, self.decks,
            self.hand_size, self.max_turns, True,
        )  # fmt: skip
        k.to_act = self.to_act
        k.dealer = self.dealer
        k.hand_number = self.hand_number
        k.count = self.count.copy()
        k.mask = self.mask.copy()
        k.hlen = self.hlen.copy()
        k.hsuit = self.hsuit.copy()
        k.stock = self.stock.copy()
        k.slen = self.slen
        k.disc = self.disc.copy()
        k.dlen = self.dlen
        k.active = self.active
        k.direction = self.direction
        k.pending = self.pending
        k.drawn = self.drawn
        k.passes = self.passes
        k.turns = self.turns
        k.score = self.score.copy()
        k.hand_points = self.hand_points.copy()
        k.revealed = self.revealed
        k.owed_seat = self.owed_seat
        k.owed_count = self.owed_count
        k.owed_reason = self.owed_reason
        k.owed_next = self.owed_next
        k.over = self.over
        k.won = self.won.copy()
        k.pack = [0] * self.cap
        return k

    def snapshot(self) -> list[int]:
        """The state as ints: the scalars, scores, points, each hand, the stock (top
        first), the discard (bottom first)."""
        out = [
            self.to_act, self.dealer, self.hand_number, self.active, self.direction, self.pending,
            self.drawn, self.passes, self.turns, 1 if self.revealed else 0, self.owed_seat,
            self.owed_count, self.owed_reason, self.owed_next, 1 if self.over else 0, len(self.won),
        ]  # fmt: skip
        out.extend(self.won)
        out.extend(self.score)
        out.extend(self.hand_points)
        seat = 0
        while seat < self.players:
            out.append(self.hlen[seat])
            i = seat * 52
            c = 0
            while c < 52:
                k = self.count[i + c]
                while k > 0:
                    out.append(c)
                    k -= 1
                c += 1
            seat += 1
        out.append(self.slen)
        i = self.slen - 1
        while i >= 0:
            out.append(self.stock[i])
            i -= 1
        out.append(self.dlen)
        out.extend(self.disc[: self.dlen])
        return out

    def set_zone(self, zone: int, owner: int, cards: list[int]) -> None:
        """Replace the stock (top first), the discard (bottom first) or ``owner``'s hand;
        the card the seat to act drew this turn is the last of its new hand (the game's
        ``with_zones``)."""
        m = len(cards)
        i = 0
        if zone == ZONE_STOCK:
            while i < m:
                self.stock[i] = cards[m - 1 - i]
                i += 1
            self.slen = m
        elif zone == ZONE_DISCARD:
            while i < m:
                self.disc[i] = cards[i]
                i += 1
            self.dlen = m
        else:
            self._clear(owner)
            while i < m:
                self._add(owner, cards[i])
                i += 1
            if owner == self.to_act and self.drawn >= 0 and m > 0:
                self.drawn = cards[m - 1]


def _shuffle_prefix(items: list[int], m: int, rng: KRng) -> None:
    """Shuffle ``items[:m]`` in place (Fisher-Yates)."""
    i = m - 1
    while i > 0:
        j = rng.below(i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t
        i -= 1
