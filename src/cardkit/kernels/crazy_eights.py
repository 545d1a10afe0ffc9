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
  order, a drawn card is kept apart in ``drawn``), so the kernel keeps none. ``playable``
  is the mask of the values playable now (the 8s, the active suit and the top card's
  rank; only the 2s while a draw is pending), so the legal plays are ``mask & playable``
  read off lowest bit first: already in the reference order and without repeats.
* the stock (``stock[:slen]``) has its *top at the end*, so a draw takes the last card;
  the discard pile (``disc[:dlen]``) is bottom first. Both lists keep the pack's size.
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
    action_cards: bool
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
    playable: int
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
        self.action_cards = two_draws_two or queen_draws_five or jack_skips or ace_reverses
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
        self.stock = list(range(51, -1, -1)) * decks
        self.slen = cap
        self.disc = [0] * cap
        self.dlen = 0
        self.active = -1
        self.playable = 0
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

    # ------------------------------------------------------------------ queries

    def actor(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`OVER`."""
        return self.to_act

    def _playable(self, card: int) -> bool:
        """Rule 5 (and rule 9: only a 2 answers a pending draw)."""
        return (self.playable >> card) & 1 != 0

    def retarget(self) -> None:
        """Recompute :attr:`playable`, the 52-bit mask of the card values playable now
        (rule 5: the 8s, the active suit, the top card's rank; rule 9: only the 2s while
        a draw is pending). Derived from ``active``, ``pending`` and the discard: every
        change of those calls this (and so must a caller that sets them directly)."""
        if self.pending > 0:
            self.playable = _TWO_BITS
        elif self.dlen == 0 or self.active < 0:
            self.playable = 0
        else:
            self.playable = (
                _EIGHT_BITS | (_SUIT_BITS << (13 * self.active)) | (_RANK_BITS << (self.disc[self.dlen - 1] % 13))
            )

    def _can_supply(self) -> bool:
        """Can the stock give a card now (possibly after a reshuffle, rule 7)?"""
        return self.slen > 0 or (self.reshuffle and self.dlen > 1)

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
        bits = self.mask[seat] & self.playable
        if bits != 0:
            if bits & _EIGHT_BITS == 0 or self.hlen[seat] == 1:
                while bits != 0:  # no 8 to expand
                    low = bits & -bits
                    bits ^= low
                    out.append(low.bit_length() - 1)
            else:
                while bits != 0:
                    low = bits & -bits
                    bits ^= low
                    c = low.bit_length() - 1
                    if c % 13 == _EIGHT:
                        base = EIGHT_PLAYS + (c // 13) * 4
                        out.append(base)
                        out.append(base + 1)
                        out.append(base + 2)
                        out.append(base + 3)
                    else:
                        out.append(c)
        if self.pending > 0 or self.slen > 0 or (self.reshuffle and self.dlen > 1):
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
            bits = self.mask[seat] & self.playable
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
        actions and chance answered by ``rng``; the seat actions played.

        The same game as ``apply(legal[rng.below(len(legal))])`` at every seat step with
        a choice (a forced action draws nothing) and :meth:`chance_random` at chance,
        without building the legal list: the loop stays in the kernel (one call per
        playout when compiled)."""
        played = 0
        x = rng.state  # rng.below, inlined (the same xorshift32 draws)
        while played < limit:
            seat = self.to_act
            if seat < 0:
                if seat == OVER:
                    break
                rng.state = x
                self.chance_random(rng)
                x = rng.state
                continue
            drawn = self.drawn
            action = PASS
            if drawn >= 0:  # legal(): the drawn card's plays and pass, or one action
                if (self.playable >> drawn) & 1 != 0:
                    x ^= (x << 13) & 0xFFFFFFFF
                    x ^= x >> 17
                    x ^= (x << 5) & 0xFFFFFFFF
                    if drawn % 13 == _EIGHT:
                        pick = (x * 5) >> 32
                        if pick < 4:
                            action = EIGHT_PLAYS + (drawn // 13) * 4 + pick
                    elif (x * 2) >> 32 == 0:
                        action = drawn
                elif self.until_playable and (self.slen > 0 or (self.reshuffle and self.dlen > 1)):
                    action = DRAW
            else:
                bits = self.mask[seat] & self.playable
                supply = self.slen > 0 or self.pending > 0 or (self.reshuffle and self.dlen > 1)
                if bits == 0:
                    if supply:
                        action = DRAW
                else:
                    eights = 0 if self.hlen[seat] == 1 else bits & _EIGHT_BITS
                    # legal()'s play ids: one per card, four per 8
                    plays = bits.bit_count()
                    if eights != 0:
                        plays += 3 * eights.bit_count()
                    options = plays + 1 if supply else plays
                    pick = 0
                    if options > 1:
                        x ^= (x << 13) & 0xFFFFFFFF
                        x ^= x >> 17
                        x ^= (x << 5) & 0xFFFFFFFF
                        pick = (x * options) >> 32
                    if pick >= plays:
                        action = DRAW
                    elif eights == 0:  # the pick-th lowest value held and playable
                        while pick > 0:
                            bits &= bits - 1
                            pick -= 1
                        action = (bits & -bits).bit_length() - 1
                    else:
                        while True:
                            low = bits & -bits
                            if low & eights != 0:
                                if pick < 4:
                                    action = EIGHT_PLAYS + ((low.bit_length() - 1) // 13) * 4 + pick
                                    break
                                pick -= 4
                            else:
                                if pick == 0:
                                    action = low.bit_length() - 1
                                    break
                                pick -= 1
                            bits ^= low
            if action < EIGHT_PLAYS:  # apply(), its dispatch inlined
                self._play(seat, action, -1)
            elif action < DRAW:
                k = action - EIGHT_PLAYS
                self._play(seat, (k // 4) * 13 + _EIGHT, k % 4)
            else:
                self.apply(action)
            played += 1
        rng.state = x
        return played

    # ------------------------------------------------------------------ seat actions

    def apply(self, action: int) -> None:
        """Play the legal action id ``action`` for the seat to act."""
        seat = self.to_act
        if action < EIGHT_PLAYS:
            self._play(seat, action, -1)
        elif action == DRAW:
            slen = self.slen
            if self.pending == 0 and slen > 0:
                # the common draw, _take inlined: one card, the seat goes on
                slen -= 1
                c = self.stock[slen]
                self.slen = slen
                i = seat * 52 + c
                if self.count[i] == 0:
                    self.mask[seat] |= 1 << c
                self.count[i] += 1
                self.hsuit[seat * 4 + c // 13] += 1
                self.hlen[seat] += 1
                self.drawn = c
                self.passes = 0
                self.turns += 1
            elif self.pending > 0:  # rule 9: draw the whole pending total, the turn ends
                self._take(seat, self.pending, REASON_PENDING, (seat + self.direction) % self.players, True)
            else:
                self._take(seat, 1, REASON_DRAW, -1, True)
            if self.turns >= self.max_turns:
                self._end_by_guard()
        elif action == PASS:
            # rule 8: only a pass without a draw this turn counts towards a blocked hand
            passes = self.passes + 1 if self.drawn < 0 else 0
            self.passes = passes
            self.to_act = (seat + self.direction) % self.players
            self.drawn = -1
            self.turns += 1
            if self.turns >= self.max_turns or (
                passes >= self.players and self.slen == 0 and not (self.reshuffle and self.dlen > 1)
            ):
                self._end_by_guard()  # the guard, or a blocked hand (rule 8)
        else:
            k = action - EIGHT_PLAYS
            self._play(seat, (k // 4) * 13 + _EIGHT, k % 4)

    def _play(self, seat: int, card: int, named: int) -> None:
        # the card leaves the hand (_remove, inlined)
        size = self.hlen[seat]
        i = seat * 52 + card
        left = self.count[i] - 1
        self.count[i] = left
        if left == 0:
            self.mask[seat] ^= 1 << card
        self.hlen[seat] = size - 1
        self.hsuit[seat * 4 + card // 13] -= 1
        self.disc[self.dlen] = card
        self.dlen += 1
        self.active = named if named >= 0 else card // 13
        self.drawn = -1
        self.passes = 0
        self.turns += 1
        if size == 1:  # rule 14: going out ends the hand, the card's effect is not applied
            self.pending = 0
            self.retarget()
            self._end_hand(seat)
            return
        r = card % 13
        n = self.players
        if not self.action_cards:  # the plain game: pending stays 0, the next seat plays
            self.playable = _EIGHT_BITS | (_SUIT_BITS << (13 * self.active)) | (_RANK_BITS << r)
            self.to_act = (seat + self.direction) % n
            if self.turns >= self.max_turns:
                self._end_by_guard()
            return
        if self.two_draws_two and r == _TWO:
            self.pending += 2
            self.playable = _TWO_BITS
        else:
            self.pending = 0
            # retarget(), inlined
            self.playable = _EIGHT_BITS | (_SUIT_BITS << (13 * self.active)) | (_RANK_BITS << r)
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
        if self.turns >= self.max_turns:
            self._end_by_guard()

    def _take(self, seat: int, count: int, reason: int, nxt: int, turn: bool) -> None:
        """``seat`` takes ``count`` cards (what the stock has; rule 13); ``nxt`` acts next
        (-1: the drawing seat goes on); a shortfall asks for a reshuffle (rule 7)."""
        take = count if count < self.slen else self.slen
        stock = self.stock
        slen = self.slen
        last = -1
        if take > 0:  # _add, inlined
            counts = self.count
            hsuit = self.hsuit
            base = seat * 52
            base4 = seat * 4
            mask = self.mask[seat]
            for _ in range(take):
                slen -= 1
                last = stock[slen]
                i = base + last
                if counts[i] == 0:
                    mask |= 1 << last
                counts[i] += 1
                hsuit[base4 + last // 13] += 1
            self.mask[seat] = mask
            self.hlen[seat] += take
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
            self.retarget()
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

    def _end_by_guard(self) -> None:
        """Rule 8 (a blocked hand) or the ``max_turns`` guard ends the hand (the caller
        checked which); an owed draw is dropped: no reshuffle is needed any more."""
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
        for seat in range(n):
            totals[seat] = self._hand_points(seat)
        points = [0] * n
        if winner >= 0:  # rule 20
            won = 0
            for seat in range(n):
                if seat != winner:
                    won += totals[seat]
            points[winner] = won
        else:  # rules 17, 21: the unique lowest total scores the differences
            lowest = min(totals)
            holder = -1
            ties = 0
            won = 0
            for seat in range(n):
                t = totals[seat]
                won += t - lowest
                if t == lowest:
                    holder = seat
                    ties += 1
            if ties == 1:
                winner = holder
                points[winner] = won
        self.hand_points = points
        score = self.score
        for seat in range(n):
            score[seat] += points[seat]
        self.revealed = True
        self.drawn = -1
        if self.points_mode and (winner < 0 or score[winner] < self.target):
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

    def _clear(self, seat: int) -> None:
        base = seat * 52
        for c in range(52):
            self.count[base + c] = 0
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
        count = self.count
        while bits != 0:
            low = bits & -bits
            bits ^= low
            c = low.bit_length() - 1
            r = c % 13  # rule 15: 8 = 50; A = 1; K, Q, J, 10 = 10; the others face value
            total += (50 if r == _EIGHT else 1 if r == _ACE else 10 if r >= 8 else r + 2) * count[base + c]
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

    def chance_cards(self) -> list[int]:
        """The reference ``ShuffleSpec``'s cards: the discard but its top, bottom first (a
        rebuilt stock), or ``standard_deck(decks)`` (a deal)."""
        if self.owed_seat >= 0:
            return self.disc[: self.dlen - 1]
        cap = self.cap
        out = [0] * cap
        i = 0
        while i < cap:
            out[i] = i % 52
            i += 1
        return out

    def guard_ended(self) -> bool:
        """Once over: the ``max_turns`` guard stopped the deciding hand (no seat went out,
        and the hand was not truly blocked: every seat passed with nothing left to draw);
        ``cardkit.games.guards``."""
        if not self.over or self.turns < self.max_turns:
            return False
        seat = 0
        while seat < self.players:
            if self.hlen[seat] == 0:
                return False  # someone went out: a rules ending
            seat += 1
        blocked = self.passes >= self.players and self.slen == 0 and (not self.reshuffle or self.dlen <= 1)
        return not blocked

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
            pack = list(range(52)) * self.decks
            _shuffle_prefix(pack, self.cap, rng)
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
        # fresh hands, then _add inlined: one card at a time from the dealer's left
        counts = [0] * (n * 52)
        masks = [0] * n
        hsuit = [0] * (n * 4)
        pos = 0
        for _ in range(hs):
            for j in range(1, n + 1):
                seat = (dealer + j) % n
                c = order[pos]
                i = seat * 52 + c
                if counts[i] == 0:
                    masks[seat] |= 1 << c
                counts[i] += 1
                hsuit[seat * 4 + c // 13] += 1
                pos += 1
        self.count = counts
        self.mask = masks
        self.hsuit = hsuit
        self.hlen = [hs] * n
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
        rest = order[pos + buried + 1 :] + order[pos : pos + buried]
        rest.reverse()
        s = len(rest)
        self.stock[0:s] = rest
        self.slen = s
        self.disc[0] = starter
        self.dlen = 1
        self.active = starter // 13
        self.pending = 0
        self.retarget()
        self.hand_number += 1
        self.to_act = (dealer + 1) % n
        self.direction = 1
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
        k.playable = self.playable
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
            self.retarget()
        else:
            self._clear(owner)
            while i < m:
                self._add(owner, cards[i])
                i += 1
            if owner == self.to_act and self.drawn >= 0 and m > 0:
                self.drawn = cards[m - 1]


def _shuffle_prefix(items: list[int], m: int, rng: KRng) -> None:
    """Shuffle ``items[:m]`` in place: Fisher-Yates, two positions per draw.

    One ``rng.below((i + 1) * i)`` (inlined) gives the swap of position ``i`` (its
    remainder by ``i + 1``, uniform in ``0..i``) and of position ``i - 1`` (its quotient,
    uniform in ``0..i-1``), independent of each other: half the draws of one per position,
    with the bias of ``below`` itself (below ``(i + 1) * i / 2**32``, about 6e-7 for 52)."""
    x = rng.state
    i = m - 1
    while i > 1:
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        k = (x * ((i + 1) * i)) >> 32
        j = k % (i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t
        j = k // (i + 1)
        t = items[i - 1]
        items[i - 1] = items[j]
        items[j] = t
        i -= 2
    if i == 1:
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        j = x >> 31
        t = items[1]
        items[1] = items[j]
        items[j] = t
    rng.state = x
