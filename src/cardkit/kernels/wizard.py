"""The Wizard kernel: the whole game (3-6 players, every option) on small ints.

Restricted typed Python (see :mod:`cardkit.kernels._base`), compiled by mypyc when it
can be and proved equal to :class:`cardkit.games.wizard.rules.WizardRules` step by step
(tests/kernels/test_wizard_kernel.py). The bridge, :mod:`cardkit.games.wizard.kernel`,
converts states, actions and chance outcomes.

Encoding:

* a card is an int: ``0`` a Wizard, ``1`` a Jester, ``2 + 13 * suit + rank - 2`` a
  suited card (suits ``S H D C`` are 0-3, ranks 2-14), so the card ints sort in the
  game's display order and the 60-card deck holds each Wizard/Jester int four times;
* action ids are the indices of ``rules.action_space(config)``: ``0-3`` trump S, H, D,
  C; ``4 + b`` a bid of ``b`` (``b`` up to ``rounds``); ``5 + rounds + card`` a play;
* hands are one flat list, seat ``s`` at ``hands[s * stride : s * stride + hlen[s]]``
  (``stride`` is ``rounds``, the most cards a hand can hold), sorted ascending, which
  is the display order the reference keeps;
* the trick is its cards in the order played and the seat that led it; ``led`` (-1 while
  only Jesters were played, 4 when a Wizard fixed "no suit", else the suit to follow)
  and ``best`` (the index of the card winning so far) are kept as cards are played;
* what the reference keeps only for display (last trick, the cards won, the history of
  round points) is not kept.

Belief support: :meth:`WizardKernel.fit` is ``cardkit.bots.beliefs.wizard_fit`` on the
kernel of a sampled state, given the round's moves as action ids
(``WizardBridge.fit_moves``).
"""

from __future__ import annotations

import math
from typing import Final

from cardkit.kernels._base import CHANCE, OVER, Kernel, KRng

__all__ = [
    "WizardKernel", "WIZARD", "JESTER", "DECK_INTS", "PICK", "DEAL", "TRUMP", "BID", "PLAY",
    "GAME_OVER", "ZONE_STOCK", "ZONE_HAND", "SPREAD",
]  # fmt: skip

WIZARD: Final = 0
"""The card int of a Wizard."""

JESTER: Final = 1
"""The card int of a Jester."""

DECK_INTS: Final = 60
"""Cards in the deck (what a round's shuffle orders)."""

PICK: Final = 0
"""Phase: chance picks the first dealer."""
DEAL: Final = 1
"""Phase: chance shuffles for the next round."""
TRUMP: Final = 2
"""Phase: the dealer names trump after a turned Wizard."""
BID: Final = 3
"""Phase: bidding."""
PLAY: Final = 4
"""Phase: playing tricks."""
GAME_OVER: Final = 5
"""Phase: the game is over."""

ZONE_STOCK: Final = 0
"""Zone code of the undealt stock (:meth:`WizardKernel.set_zone`, owner -1)."""
ZONE_HAND: Final = 1
"""Zone code of a seat's hand (:meth:`WizardKernel.set_zone`, owner = the seat)."""

_MASK: Final = 0xFFFFFFFF

_DECK: Final[list[int]] = [WIZARD] * 4 + [JESTER] * 4 + list(range(2, 54))
"""The 60 card ints in the order of the reference deck (``DECK``, the shuffle spec's)."""

SPREAD: Final = 15.0
"""Points of lead worth one logistic unit with one round left (the reference
``cardkit.bots.playout.WIZARD_SPREAD``; a test keeps the two equal)."""


def _suit(card: int) -> int:
    """The suit (0-3) of a suited card, -1 for a Wizard or a Jester."""
    if card < 2:
        return -1
    return (card - 2) // 13


def _points(bid: int, tricks: int) -> int:
    if bid == tricks:
        return 20 + 10 * tricks
    d = tricks - bid
    return -10 * (d if d > 0 else -d)


class WizardKernel(Kernel):
    """A Wizard game under one config, mutable and int-coded (see the module docs).

    The fields mirror ``WizardState``: ``phase`` (the phase codes of this module),
    ``rnd`` (the round), ``dealer``, ``turn``, ``hands``/``hlen`` (flat, ``stride`` cards
    per seat), ``stock``/``slen``, ``turned`` (a card int or -1), ``trump`` (0-3 or -1),
    ``bids`` (-1 before a bid), ``tricks`` (won this round; ``taken`` their sum),
    ``scores_``, and the trick: ``trick``/``tlen`` (its cards), ``tlead`` (who led it),
    ``led`` and ``best`` (the suit to follow and the winning card's index). ``pbase`` is
    the id of the first play action; ``deck`` is the shuffle buffer of
    :meth:`chance_random`.
    """

    rounds: int
    forbid: bool
    stride: int
    pbase: int
    phase: int
    rnd: int
    dealer: int
    turn: int
    hands: list[int]
    hlen: list[int]
    stock: list[int]
    slen: int
    turned: int
    trump: int
    bids: list[int]
    tricks: list[int]
    taken: int
    scores_: list[int]
    trick: list[int]
    tlen: int
    tlead: int
    led: int
    best: int
    deck: list[int]

    def __init__(self, players: int, rounds: int, forbid: bool) -> None:
        super().__init__(players)
        self.rounds = rounds
        self.forbid = forbid
        self.stride = rounds
        self.pbase = 5 + rounds
        self.phase = PICK
        self.rnd = 0
        self.dealer = -1
        self.turn = -1
        self.hands = [0] * (players * rounds)
        self.hlen = [0] * players
        self.stock = _DECK[:]
        self.slen = DECK_INTS
        self.deck = _DECK[:]
        self.turned = -1
        self.trump = -1
        self.bids = [-1] * players
        self.tricks = [0] * players
        self.taken = 0
        self.scores_ = [0] * players
        self.trick = [0] * players
        self.tlen = 0
        self.tlead = -1
        self.led = -1
        self.best = -1

    # ------------------------------------------------------------------ whose turn

    def actor(self) -> int:
        """The seat to act, ``CHANCE`` or ``OVER``."""
        phase = self.phase
        if phase >= TRUMP:
            if phase == GAME_OVER:
                return OVER
            return self.turn
        return CHANCE

    def forbidden(self) -> int:
        """The bid the dealer may not make now under ``forbid_even_bids``, else -1."""
        if not self.forbid or self.phase != BID or self.turn != self.dealer:
            return -1
        rest = self.rnd
        for b in self.bids:
            if b >= 0:
                rest -= b
        return rest if 0 <= rest <= self.rnd else -1

    def _follows(self, seat: int) -> int:
        """The suit ``seat`` must follow now, or -1 (no suit to follow, or none held)."""
        led = self.led
        if led < 0 or led > 3:
            return -1
        hands = self.hands
        off = seat * self.stride
        end = off + self.hlen[seat]
        lo = 2 + 13 * led
        hi = lo + 13
        for i in range(off, end):
            c = hands[i]
            if lo <= c < hi:
                return led
        return -1

    def _span(self) -> tuple[int, int, int]:
        """The legal plays of the seat to act: ``(specials, start, end)``, ``specials``
        bit 1 a Wizard and bit 2 a Jester, then the suited cards ``hands[start:end]``.

        The hand is sorted (Wizards, Jesters, then each suit by rank), so the cards of
        the suit to follow are one run and equal cards are neighbours."""
        hands = self.hands
        i = self.turn * self.stride
        end = i + self.hlen[self.turn]
        specials = 0
        if i < end and hands[i] == WIZARD:
            specials = 1
            i += 1
            while i < end and hands[i] == WIZARD:
                i += 1
        if i < end and hands[i] == JESTER:
            specials |= 2
            i += 1
            while i < end and hands[i] == JESTER:
                i += 1
        led = self.led
        if 0 <= led <= 3:
            lo = 2 + 13 * led
            j = i
            while j < end and hands[j] < lo:
                j += 1
            m = j
            while m < end and hands[m] < lo + 13:
                m += 1
            if m > j:
                return specials, j, m
        return specials, i, end

    def legal(self) -> list[int]:
        """The legal action ids, in the reference order."""
        phase = self.phase
        out: list[int] = []
        if phase == PLAY:
            specials, i, end = self._span()
            pbase = self.pbase
            if specials & 1:
                out.append(pbase)
            if specials & 2:
                out.append(pbase + 1)
            hands = self.hands
            for q in range(i, end):
                out.append(pbase + hands[q])
            return out
        if phase == BID:
            banned = self.forbidden()
            for b in range(self.rnd + 1):
                if b != banned:
                    out.append(4 + b)
            return out
        if phase == TRUMP:
            return [0, 1, 2, 3]
        return out

    def legal_count(self) -> int:
        """``len(self.legal())`` without building the list."""
        phase = self.phase
        if phase == PLAY:
            specials, i, end = self._span()
            return (specials & 1) + (specials >> 1) + end - i
        if phase == BID:
            return self.rnd if self.forbidden() >= 0 else self.rnd + 1
        if phase == TRUMP:
            return 4
        return 0

    def legal_at(self, index: int) -> int:
        """``self.legal()[index]`` without building the list."""
        phase = self.phase
        if phase == PLAY:
            specials, i, end = self._span()
            if specials & 1:
                if index == 0:
                    return self.pbase
                index -= 1
            if specials & 2:
                if index == 0:
                    return self.pbase + 1
                index -= 1
            return self.pbase + self.hands[i + index]
        if phase == BID:
            banned = self.forbidden()
            return 4 + (index if banned < 0 or index < banned else index + 1)
        return index

    def _count_any_order(self) -> int:
        """``legal_count`` for a hand in any order (the belief replay's hands are not
        sorted: the reference then lists a card again after another one between)."""
        if self.phase != PLAY:
            return self.legal_count()
        seat = self.turn
        follow = self._follows(seat)
        hands = self.hands
        off = seat * self.stride
        end = off + self.hlen[seat]
        last = -1
        n = 0
        lo = 2 + 13 * follow
        hi = lo + 13
        for i in range(off, end):
            c = hands[i]
            if c != last and (follow < 0 or c < 2 or lo <= c < hi):
                n += 1
                last = c
        return n

    def policy_action(self, rng: KRng, epsilon: float) -> int:
        """The playout policy (the base class's, drawing the same numbers) without
        building the legal list."""
        n = self.legal_count()
        if n == 1:
            return self.legal_at(0)
        if rng.random() < epsilon:
            return self.legal_at(rng.below(n))
        return self.rule_action()

    def play_random(self, rng: KRng) -> int:
        """Play on to the end of the game: chance with :meth:`chance_random`, every seat
        uniformly at random among its legal actions; returns the seat actions played."""
        actions = 0
        while True:
            phase = self.phase
            if phase == GAME_OVER:
                return actions
            if phase < TRUMP:
                self.chance_random(rng)
                continue
            actions += 1
            if phase != PLAY:
                self.apply(self.legal_at(rng.below(self.legal_count())))
                continue
            specials, i, end = self._span()
            w = specials & 1
            index = rng.below(w + (specials >> 1) + end - i)
            if index < w:
                self.apply(self.pbase)
            elif index < w + (specials >> 1):
                self.apply(self.pbase + 1)
            else:
                self.apply(self.pbase + self.hands[i + index - w - (specials >> 1)])

    # ------------------------------------------------------------------ moves

    def apply(self, action: int) -> None:
        """Play the legal action id ``action`` for the seat to act."""
        n = self.players
        seat = self.turn
        card = action - self.pbase
        if card < 0:
            if action >= 4:
                self.bids[seat] = action - 4
                if seat == self.dealer:
                    self.phase = PLAY
                self.turn = seat + 1 if seat + 1 < n else 0
                return
            self.trump = action
            self.phase = BID
            d = self.dealer + 1
            self.turn = d if d < n else 0
            return
        # Play ``card``: out of the hand (keeping the hand's order), into the trick.
        hands = self.hands
        i = seat * self.stride
        end = i + self.hlen[seat] - 1
        while hands[i] != card:
            i += 1
        while i < end:
            hands[i] = hands[i + 1]
            i += 1
        self.hlen[seat] -= 1
        trick = self.trick
        pos = self.tlen
        trick[pos] = card
        self.tlen = pos + 1
        nxt = seat + 1
        self.turn = nxt if nxt < n else 0
        # The winning card so far (rules 11-14), as _trick_add keeps it (inlined: the
        # hottest path of a playout).
        if pos == 0:
            self.tlead = seat
            self.best = 0
            self.led = 4 if card == WIZARD else -1 if card == JESTER else (card - 2) // 13
        else:
            b = trick[self.best]
            if b != WIZARD:
                if card == WIZARD:
                    self.best = pos
                    if self.led < 0:
                        self.led = 4
                elif card != JESTER:
                    cs = (card - 2) // 13
                    if self.led < 0:
                        self.led = cs
                        self.best = pos
                    else:
                        bs = (b - 2) // 13
                        if (cs == bs and card > b) or (cs == self.trump and bs != cs):
                            self.best = pos
            if pos + 1 == n:
                self._trick_done()

    def _trick_done(self) -> None:
        """The trick is complete: its winner takes it and leads; the round is scored
        after its last trick."""
        n = self.players
        w = self.tlead + self.best
        if w >= n:
            w -= n
        self.tricks[w] += 1
        self.taken += 1
        self.tlen = 0
        self.led = -1
        self.best = -1
        self.turn = w
        if self.taken < self.rnd:
            return
        bids = self.bids
        tricks = self.tricks
        scores = self.scores_
        for s in range(n):
            b = bids[s]
            scores[s] += _points(b if b > 0 else 0, tricks[s])
        self.phase = GAME_OVER if self.rnd >= self.rounds else DEAL

    # ------------------------------------------------------------------ chance

    def chance_is_pick(self) -> bool:
        """True before the first dealer is picked, False before a deal."""
        return self.phase == PICK

    def chance_size(self) -> int:
        """The players (the first dealer) or the 60 cards of a shuffle."""
        return self.players if self.phase == PICK else DECK_INTS

    def chance_pick(self, index: int) -> None:
        """The first dealer is seat ``index``."""
        self.dealer = index
        self.phase = DEAL

    def chance_shuffle(self, order: list[int]) -> None:
        """Deal the next round from ``order`` (the 60 card ints, top first)."""
        n = self.players
        rnd = self.rnd + 1
        self.rnd = rnd
        if rnd > 1:
            d = self.dealer + 1
            self.dealer = d if d < n else 0
        dealer = self.dealer
        hands = self.hands
        hlen = self.hlen
        stride = self.stride
        for s in range(n):
            self.bids[s] = -1
            self.tricks[s] = 0
        k = rnd * n
        for s in range(n):
            # seat s gets every n-th card, starting with the (s - dealer)-th
            first = s - dealer - 1
            if first < 0:
                first += n
            cards = order[first:k:n]
            cards.sort()
            off = s * stride
            for i in range(rnd):
                hands[off + i] = cards[i]
            hlen[s] = rnd
        self.taken = 0
        self.tlen = 0
        self.led = -1
        self.best = -1
        self.phase = BID
        d = dealer + 1
        self.turn = d if d < n else 0
        if k >= DECK_INTS:
            self.slen = 0
            self.turned = -1
            self.trump = -1
            return
        top = order[k]
        self.turned = top
        stock = self.stock
        m = 0
        for i in range(k + 1, DECK_INTS):
            stock[m] = order[i]
            m += 1
        self.slen = m
        if top == WIZARD:
            self.trump = -1
            self.phase = TRUMP
            self.turn = dealer
        elif top == JESTER:
            self.trump = -1
        else:
            self.trump = (top - 2) // 13

    def chance_cards(self) -> list[int]:
        """The 60 cards in the order of the reference ``ShuffleSpec`` (``DECK``)."""
        out = [0] * DECK_INTS
        for i in range(4):
            out[i] = WIZARD
            out[4 + i] = JESTER
        for c in range(52):
            out[8 + c] = 2 + c
        return out

    def guard_ended(self) -> bool:
        """Wizard has no end guard."""
        return False

    def chance_random(self, rng: KRng) -> None:
        """A uniform first dealer, or a shuffle: the dealt hands and the turned card are
        uniformly random (the order of the stock below the turned card is not)."""
        if self.phase == PICK:
            self.chance_pick(rng.below(self.players))
            return
        # Only the dealt cards and the turned card are ever read by the rules: draw those
        # positions uniformly (Fisher-Yates from the top); the rest of the stock keeps
        # the order it had (the stock's order beyond its top card is never read).
        deck = self.deck
        draws = (self.rnd + 1) * self.players + 1
        if draws > DECK_INTS - 1:
            draws = DECK_INTS - 1
        x = rng.state  # KRng.below, inlined: one call per draw costs more than the draw
        for i in range(draws):
            x ^= (x << 13) & _MASK
            x ^= x >> 17
            x ^= (x << 5) & _MASK
            j = i + ((x * (DECK_INTS - i)) >> 32)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        rng.state = x
        self.chance_shuffle(deck)

    # ------------------------------------------------------------------ copies

    def copy(self) -> WizardKernel:
        """An independent copy."""
        k = WizardKernel(self.players, self.rounds, self.forbid)
        k.phase = self.phase
        k.rnd = self.rnd
        k.dealer = self.dealer
        k.turn = self.turn
        k.hands = self.hands[:]
        k.hlen = self.hlen[:]
        k.stock = self.stock[:]
        k.slen = self.slen
        k.turned = self.turned
        k.trump = self.trump
        k.bids = self.bids[:]
        k.tricks = self.tricks[:]
        k.taken = self.taken
        k.scores_ = self.scores_[:]
        k.trick = self.trick[:]
        k.tlen = self.tlen
        k.tlead = self.tlead
        k.led = self.led
        k.best = self.best
        return k

    def snapshot(self) -> list[int]:
        """``[phase, round, dealer, turn, turned, trump]``, per seat its hand size and
        cards, the stock size and cards, bids (-1 before), tricks won, scores, the trick
        size and its ``(seat, card)`` pairs, then ``led`` and ``best`` (derived: :meth:`load`
        recomputes them)."""
        n = self.players
        out = [self.phase, self.rnd, self.dealer, self.turn, self.turned, self.trump]
        for s in range(n):
            off = s * self.stride
            out.append(self.hlen[s])
            for i in range(off, off + self.hlen[s]):
                out.append(self.hands[i])
        out.append(self.slen)
        for i in range(self.slen):
            out.append(self.stock[i])
        for s in range(n):
            out.append(self.bids[s])
        for s in range(n):
            out.append(self.tricks[s])
        for s in range(n):
            out.append(self.scores_[s])
        out.append(self.tlen)
        for i in range(self.tlen):
            seat = self.tlead + i
            out.append(seat - n if seat >= n else seat)
            out.append(self.trick[i])
        out.append(self.led)
        out.append(self.best)
        return out

    def load(self, data: list[int]) -> None:
        """Become the state ``data`` describes, in the :meth:`snapshot` layout (hands
        sorted; the trailing ``led`` and ``best`` may be left out: they are recomputed)."""
        n = self.players
        self.phase = data[0]
        self.rnd = data[1]
        self.dealer = data[2]
        self.turn = data[3]
        self.turned = data[4]
        self.trump = data[5]
        p = 6
        for s in range(n):
            size = data[p]
            p += 1
            self.hlen[s] = size
            off = s * self.stride
            for i in range(size):
                self.hands[off + i] = data[p]
                p += 1
        self.slen = data[p]
        p += 1
        for i in range(self.slen):
            self.stock[i] = data[p]
            p += 1
        self.taken = 0
        for s in range(n):
            self.bids[s] = data[p]
            p += 1
        for s in range(n):
            self.tricks[s] = data[p]
            self.taken += data[p]
            p += 1
        for s in range(n):
            self.scores_[s] = data[p]
            p += 1
        size = data[p]
        p += 1
        # Replay the trick's cards through _play's bookkeeping without touching hands.
        self.tlen = 0
        self.led = -1
        self.best = -1
        self.tlead = data[p] if size > 0 else -1
        for i in range(size):
            self._trick_add(data[p + 2 * i + 1])

    def _trick_add(self, card: int) -> None:
        """Add ``card`` to the trick and keep the winning card so far (rules 11-14)."""
        pos = self.tlen
        trick = self.trick
        trick[pos] = card
        self.tlen = pos + 1
        if pos == 0:
            self.best = 0
            self.led = 4 if card == WIZARD else -1 if card == JESTER else (card - 2) // 13
            return
        b = trick[self.best]
        if b == WIZARD:
            return  # the first Wizard wins; the suit to follow is already fixed
        if card == WIZARD:
            self.best = pos
            if self.led < 0:
                self.led = 4  # the first card that is not a Jester: no suit to follow
            return
        if card == JESTER:
            return
        cs = (card - 2) // 13
        if self.led < 0:
            self.led = cs  # only Jesters before: this card fixes the suit and wins so far
            self.best = pos
            return
        bs = (b - 2) // 13
        if (cs == bs and card > b) or (cs == self.trump and bs != cs):
            self.best = pos

    # ------------------------------------------------------------------ results

    def scores(self) -> list[int]:
        """Cumulative points per seat."""
        return self.scores_[:]

    def winners(self) -> list[int]:
        """Every seat with the highest total once over (ascending), else ``[]``."""
        out: list[int] = []
        if self.phase != GAME_OVER:
            return out
        top = max(self.scores_)
        for s in range(self.players):
            if self.scores_[s] == top:
                out.append(s)
        return out

    def solvable(self) -> bool:
        """True while tricks are played: the rest of the round is card play alone."""
        return self.phase == PLAY

    def held(self, seat: int) -> int:
        """Cards in ``seat``'s hand."""
        return self.hlen[seat]

    def hand_values(self) -> list[float]:
        """Each seat's lead chance after a scored round (the reference
        ``cardkit.bots.playout.wizard_hand_value``): the logistic of its score minus the
        best other score, in units of ``SPREAD * sqrt(rounds left + 1)``."""
        left = self.rounds - self.rnd
        if left < 0:
            left = 0
        spread = SPREAD * math.sqrt(left + 1)
        n = self.players
        scores = self.scores_
        out: list[float] = []
        for s in range(n):
            mine = scores[s]
            best_other = mine
            first = True
            for t in range(n):
                if t != s and (first or scores[t] > best_other):
                    best_other = scores[t]
                    first = False
            z = (mine - best_other) / spread
            out.append(1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0)
        return out

    # ------------------------------------------------------------------ zones

    def set_zone(self, zone: int, owner: int, cards: list[int]) -> None:
        """Replace the stock (:data:`ZONE_STOCK`, in the given order) or a hand
        (:data:`ZONE_HAND` of seat ``owner``, sorted), as ``WizardRules.with_zones`` does."""
        if zone == ZONE_STOCK:
            self.slen = len(cards)
            for i in range(len(cards)):
                self.stock[i] = cards[i]
            return
        if zone != ZONE_HAND:
            raise ValueError(f"zone {zone} is not a concealed Wizard zone")
        off = owner * self.stride
        size = 0
        hands = self.hands
        for c in cards:
            j = off + size
            while j > off and hands[j - 1] > c:
                hands[j] = hands[j - 1]
                j -= 1
            hands[j] = c
            size += 1
        self.hlen[owner] = size

    # ------------------------------------------------------------------ the rule strategy

    def _strength(self, card: int) -> int:
        if card == WIZARD:
            return 100
        if card == JESTER:
            return -1
        r = (card - 2) % 13 + 2
        return r + 20 if (card - 2) // 13 == self.trump else r

    def _wins_now(self, card: int) -> bool:
        """Would ``card`` win the trick as it stands were it played now."""
        if self.tlen == 0:
            return True
        b = self.trick[self.best]
        if b == WIZARD:
            return False  # the first Wizard wins
        if card == WIZARD:
            return True
        if card == JESTER:
            return False
        if self.led < 0:
            return True  # only Jesters so far: the first suited card leads and wins
        cs = (card - 2) // 13
        bs = (b - 2) // 13
        return (cs == bs and card > b) or (cs == self.trump and bs != cs)

    def rule_action(self) -> int:
        """What ``RuleBot`` (``cardkit.bots.heuristics.wizard.decide``) plays for the seat
        to act, reading only its hand and the public state; ties break by hand order."""
        seat = self.turn
        hands = self.hands
        off = seat * self.stride
        end = off + self.hlen[seat]
        phase = self.phase
        if phase == TRUMP:
            best_suit = 0
            best_count = -1
            best_high = -1
            for s in range(4):
                lo = 2 + 13 * s
                count = 0
                high = 0
                for i in range(off, end):
                    c = hands[i]
                    if lo <= c < lo + 13:
                        count += 1
                        high += c - lo + 2
                if count > best_count or (count == best_count and high > best_high):
                    best_suit = s
                    best_count = count
                    best_high = high
            return best_suit
        if phase == BID:
            n = self.players
            trump = self.trump
            want = 0.0
            for i in range(off, end):
                c = hands[i]
                if c == WIZARD:
                    want += 1.0
                elif c != JESTER:
                    r = (c - 2) % 13 + 2
                    if (c - 2) // 13 == trump:
                        want += 0.95 if r >= 12 else 0.6 if r >= 9 else 0.3
                    elif r == 14:
                        want += 0.75 if n <= 4 else 0.55
                    elif r == 13:
                        want += 0.35 if n <= 4 else 0.2
            banned = self.forbidden()
            pick = -1
            pick_gap = 0.0
            for b in range(self.rnd + 1):
                if b == banned:
                    continue
                gap = abs(b - want)
                if pick < 0 or gap < pick_gap:
                    pick = b
                    pick_gap = gap
            return 4 + pick
        # play: walk the legal plays in order (as the reference's min/max do: first of ties)
        bid = self.bids[seat]
        need = (bid if bid > 0 else 0) - self.tricks[seat]
        follow = self._follows(seat)
        lo = 2 + 13 * follow
        hi = lo + 13
        tlen = self.tlen
        last = -1
        # the strongest and weakest play; the strongest/weakest winner; the strongest loser
        hi_c = -1
        hi_k = 0
        lo_c = -1
        lo_k = 0
        wmax_c = -1
        wmax_k = 0
        wmin_c = -1
        wmin_k = 0
        lmax_c = -1
        lmax_k = 0
        for i in range(off, end):
            c = hands[i]
            if c == last or not (follow < 0 or c < 2 or lo <= c < hi):
                continue
            last = c
            k = self._strength(c)
            if hi_c < 0 or k > hi_k:
                hi_c = c
                hi_k = k
            if lo_c < 0 or k < lo_k:
                lo_c = c
                lo_k = k
            if tlen > 0:
                if self._wins_now(c):
                    if wmax_c < 0 or k > wmax_k:
                        wmax_c = c
                        wmax_k = k
                    if wmin_c < 0 or k < wmin_k:
                        wmin_c = c
                        wmin_k = k
                elif lmax_c < 0 or k > lmax_k:
                    lmax_c = c
                    lmax_k = k
        pbase = self.pbase
        if need > 0:
            if tlen == 0:
                return pbase + hi_c
            if wmax_c >= 0:
                return pbase + (wmin_c if tlen == self.players - 1 else wmax_c)
            return pbase + lo_c
        if tlen > 0 and lmax_c >= 0:
            return pbase + lmax_c
        return pbase + lo_c

    # ------------------------------------------------------------------ beliefs

    def fit(self, moves: list[int], seat: int, epsilon: float) -> float:
        """``cardkit.bots.beliefs.wizard_fit`` for this kernel as the sampled state.

        The kernel must be in the round the moves belong to (bidding or playing it);
        ``moves`` are that round's seat moves in order as flat pairs ``[mover, action
        id, ...]`` (``WizardBridge.fit_moves`` builds them from the seat's events). The
        round is replayed on a copy from the hands it began with (each hand as it is now
        followed by the cards its seat played, in the order played), and each trump
        choice, bid and card of a seat other than ``seat`` multiplies the result by
        ``(1 - epsilon if it is the rule strategy's move else 0) + epsilon / legal moves``.
        As in the reference, a played card is put first in its hand before the strategy is
        asked, so that a tie never counts against it.
        """
        n = self.players
        r = self.copy()
        stride = r.stride
        hands = r.hands
        hlen = r.hlen
        pbase = self.pbase
        m = len(moves)
        for i in range(0, m, 2):
            a = moves[i + 1]
            if a >= pbase:
                mover = moves[i]
                hands[mover * stride + hlen[mover]] = a - pbase
                hlen[mover] += 1
        for s in range(n):
            r.bids[s] = -1
            r.tricks[s] = 0
        r.taken = 0
        r.tlen = 0
        r.led = -1
        r.best = -1
        turned = self.turned
        d = self.dealer + 1
        if turned == WIZARD:
            r.phase = TRUMP
            r.turn = self.dealer
            r.trump = -1
        else:
            r.phase = BID
            r.turn = d if d < n else 0
            r.trump = _suit(turned) if turned >= 0 else -1
        weight = 1.0
        for i in range(0, m, 2):
            mover = moves[i]
            a = moves[i + 1]
            if mover != seat:
                if a >= pbase:
                    # move the first copy of the card to the front of the hand
                    card = a - pbase
                    off = mover * stride
                    j = off
                    while hands[j] != card:
                        j += 1
                    while j > off:
                        hands[j] = hands[j - 1]
                        j -= 1
                    hands[off] = card
                chosen = r.rule_action()
                count = r._count_any_order()
                weight *= (1.0 - epsilon if a == chosen else 0.0) + epsilon / count
            r.apply(a)
        return weight
