"""The Cutthroat Spades kernel: the whole tournament, int-coded and mutable (see
:mod:`cardkit.kernels._base` for the contract; docs/kernels.md for the encoding).

Restricted typed Python (compiled by mypyc when available). Cards are ints in display
order: ``0 RJ, 1 BJ, 2 XJ``, then ``3 + 13 * suit + rank - 2`` with suits ``S H D C``
(``0..3``), so each suit (jokers counting as spades) is one run of a sorted hand; inside,
hands hold the cards' play action ids, in the same order (see the class docs). Every
option of ``CutthroatConfig`` is covered; the bridge
(``cardkit.games.cutthroat_spades.kernel``) turns a config into the ``params`` list and a
reference state into the :meth:`CutthroatSpadesKernel.snapshot` layout.

What the kernel leaves out of the reference state, because nothing that is decided later
reads it: the captured cards other than the prize jacks (only which seat took JD, JC and
JH this hand is kept), the last trick, and the record of finished games.
"""

from __future__ import annotations

from typing import Final

from cardkit.kernels._base import CHANCE, OVER, Kernel, KRng

__all__ = [
    "CutthroatSpadesKernel", "N_CARDS", "ZONE_DECK", "ZONE_HAND", "card_int",
    "K_NORMAL", "K_NIL", "K_BLIND_NIL", "K_BLIND_SIX", "K_ONE_FOR_FIFTY", "K_TWO_FOR_FORTY", "K_MOON",
    "PICK", "DEAL", "BID", "PLAY", "DONE", "P_PLAYERS", "P_JOKERS", "P_TARGET", "P_MINUS_10",
    "P_BAG_LIMIT", "P_CARRY", "P_BLIND_SIX", "P_JD", "P_JC", "P_JH", "P_WINS", "P_MAX_HANDS",
    "P_MERCY", "P_SIZE",
]  # fmt: skip

N_CARDS: Final = 55
"""Card ints ``0..54``: three jokers, then the 52 suited cards."""

_MASK: Final = 0xFFFFFFFF  # KRng's 32 bits

_C2C: Final = 42  # 3 + 13 * 3 + 0
_C2D: Final = 29  # 3 + 13 * 2 + 0
_JH: Final = 25  # 3 + 13 * 1 + 9
_JD: Final = 38  # 3 + 13 * 2 + 9
_JC: Final = 51  # 3 + 13 * 3 + 9

# Phases (the reference ``phase`` strings).
PICK: Final = 0
"""Phase: chance picks the first dealer."""
DEAL: Final = 1
"""Phase: chance shuffles the next hand."""
BID: Final = 2
"""Phase: bidding."""
PLAY: Final = 3
"""Phase: trick play."""
DONE: Final = 4
"""Phase: the tournament is over."""

# Bid kinds (the reference ``BidInfo.kind``); -1 for a seat that has not bid.
K_NORMAL: Final = 0
"""Bid kind ``normal``."""
K_NIL: Final = 1
"""Bid kind ``nil``."""
K_BLIND_NIL: Final = 2
"""Bid kind ``blind_nil``."""
K_BLIND_SIX: Final = 3
"""Bid kind ``blind_six``."""
K_ONE_FOR_FIFTY: Final = 4
"""Bid kind ``one_for_fifty``."""
K_TWO_FOR_FORTY: Final = 5
"""Bid kind ``two_for_forty``."""
K_MOON: Final = 6
"""Bid kind ``moon``."""

# Zones for set_zone.
ZONE_DECK: Final = 0
"""The undealt deck (before the first deal only)."""
ZONE_HAND: Final = 1
"""A seat's hand."""

# The params list (the bridge builds it from a CutthroatConfig); -1 spells None.
P_PLAYERS: Final = 0
"""params index: players."""
P_JOKERS: Final = 1
"""params index: jokers (0, 2, 3)."""
P_TARGET: Final = 2
"""params index: target."""
P_MINUS_10: Final = 3
"""params index: 1 for ``bags="each_minus_10"``, 0 for ``"limit"``."""
P_BAG_LIMIT: Final = 4
"""params index: bag_limit (``bags="limit"``)."""
P_CARRY: Final = 5
"""params index: 1 for ``bag_out="carry"``."""
P_BLIND_SIX: Final = 6
"""params index: blind_six_per_game, -1 for no limit."""
P_JD: Final = 7
"""params index: 1 if JD is a prize jack."""
P_JC: Final = 8
"""params index: 1 if JC is a prize jack."""
P_JH: Final = 9
"""params index: 1 if JH is a prize jack."""
P_WINS: Final = 10
"""params index: wins_needed."""
P_MAX_HANDS: Final = 11
"""params index: max_hands, -1 for none."""
P_MERCY: Final = 12
"""params index: mercy, -1 for none."""
P_SIZE: Final = 13
"""Length of the params list."""


def _suit_table() -> list[int]:
    out = [0, 0, 0]
    for c in range(52):
        out.append(c // 13)
    return out


def _rank_table() -> list[int]:
    out = [17, 16, 15]
    for c in range(52):
        out.append(c % 13 + 2)
    return out


SUIT_OF: Final[list[int]] = _suit_table()
"""Suit of each card int for following and leading: 0 S (jokers too), 1 H, 2 D, 3 C."""

RANK_OF: Final[list[int]] = _rank_table()
"""Rank of each card int: 2..14, XJ 15, BJ 16, RJ 17."""


def card_int(code: str) -> int:
    """The card int of a card code (``"RJ"``, ``"QS"``, ``"TH"``...)."""
    if code == "RJ":
        return 0
    if code == "BJ":
        return 1
    if code == "XJ":
        return 2
    return 3 + 13 * "SHDC".index(code[1]) + "23456789TJQKA".index(code[0])


class CutthroatSpadesKernel(Kernel):
    """A Cutthroat Spades tournament as flat int lists (see the module docs).

    ``params`` is the config as ints (the ``P_*`` indices). ``source``: copy that kernel
    instead (the tables are shared, the state lists copied).

    Inside, a card in a hand or a trick is its *play action id* (``play_base`` + its
    place in the pack), so that the legal plays are a slice of the hand: hands are kept
    sorted in a stride-``tricks`` list, with each seat's count per suit, and a suit is one
    run of the hand. Snapshots, ``set_zone`` and ``chance_shuffle`` speak card ints.
    """

    # the config and its tables (shared between copies, never mutated)
    jokers: int
    two_jokers: bool
    tricks: int
    ncards: int
    pack: list[int]
    play_base: int
    card_id: list[int]
    a_card: list[int]
    a_suit: list[int]
    a_rank: list[int]
    a_power: list[int]
    a_jack: list[int]
    suit_start: list[int]
    id_2c: int
    owners: list[int]
    target: int
    minus_10: bool
    bag_limit: int
    carry: bool
    b6_limit: int
    prize_jd: bool
    prize_jc: bool
    prize_jh: bool
    wins_needed: int
    max_hands: int
    mercy: int
    # the state
    phase: int
    dealer: int
    turn: int
    deck: list[int]
    hands: list[int]
    hlen: list[int]
    suit_count: list[int]
    looked: list[int]
    bid_kind: list[int]
    bid_tricks: list[int]
    trick_seat: list[int]
    trick_card: list[int]
    tlen: int
    led: int
    best_key: int
    best_seat: int
    trick_size: int
    skip: int
    next_seat: list[int]
    trick_count: int
    tricks_won: list[int]
    jack_owner: list[int]
    broken: bool
    score: list[int]
    bags: list[int]
    tokens: list[int]
    b6_used: list[int]
    game_number: int
    hands_in_game: int
    hands_played: int
    overtime: bool
    won_by: list[int]

    def __init__(self, params: list[int], source: CutthroatSpadesKernel | None = None) -> None:
        if source is not None:
            self._copy_from(source)
            return
        n = params[P_PLAYERS]
        super().__init__(n)
        jokers = params[P_JOKERS]
        self.jokers = jokers
        self.two_jokers = jokers == 2
        pack: list[int] = []
        for c in range(N_CARDS):
            if c < 3:
                if c < jokers:
                    pack.append(c)
            elif c == _C2C and (n == 3 or (n == 5 and jokers == 0)):
                continue
            elif c == _C2D and n == 5 and jokers == 0:
                continue
            else:
                pack.append(c)
        self.pack = pack
        ncards = len(pack)
        self.ncards = ncards
        self.tricks = 11 if jokers == 2 else ncards // n
        base = 7 + self.tricks
        self.play_base = base
        card_id = [-1] * N_CARDS
        a_card = [-1] * (base + ncards)
        a_suit = [-1] * (base + ncards)
        a_rank = [0] * (base + ncards)
        a_power = [0] * (base + ncards)
        a_jack = [0] * (base + ncards)
        for i in range(ncards):
            c = pack[i]
            a = base + i
            card_id[c] = a
            a_card[a] = c
            a_suit[a] = SUIT_OF[c]
            a_rank[a] = RANK_OF[c]
            a_power[a] = RANK_OF[c] + (100 if SUIT_OF[c] == 0 else 0)
            a_jack[a] = 1 if c == _JD else 2 if c == _JC else 3 if c == _JH else 0
        self.card_id = card_id
        self.a_card = a_card
        self.a_suit = a_suit
        self.a_rank = a_rank
        self.a_power = a_power
        self.a_jack = a_jack
        # the pack's positions of each suit's run (jokers with the spades), and the end
        starts = [ncards] * 5
        for i in range(ncards - 1, -1, -1):
            starts[SUIT_OF[pack[i]]] = i
        for suit in range(3, -1, -1):
            if starts[suit] > starts[suit + 1]:
                starts[suit] = starts[suit + 1]
        self.suit_start = starts
        self.id_2c = card_id[_C2C]
        # owners[dealer * ncards + i]: the seat dealt the i-th card from the top (core.table.deal)
        owners: list[int] = []
        for dealer in range(n):
            got = [0] * n
            seat = dealer
            for i in range(ncards):
                while True:
                    seat = (seat + 1) % n
                    share = 10 if (self.two_jokers and seat == dealer) else self.tricks
                    if got[seat] < share:
                        break
                got[seat] += 1
                owners.append(seat)
        self.owners = owners
        self.target = params[P_TARGET]
        self.minus_10 = params[P_MINUS_10] != 0
        self.bag_limit = params[P_BAG_LIMIT]
        self.carry = params[P_CARRY] != 0
        self.b6_limit = params[P_BLIND_SIX]
        self.prize_jd = params[P_JD] != 0
        self.prize_jc = params[P_JC] != 0
        self.prize_jh = params[P_JH] != 0
        self.wins_needed = params[P_WINS]
        self.max_hands = params[P_MAX_HANDS]
        self.mercy = params[P_MERCY]
        # the initial state (the reference initial_state)
        self.phase = PICK
        self.dealer = -1
        self.turn = -1
        self.deck = pack[:]
        self.hands = [0] * (n * self.tricks)
        self.hlen = [0] * n
        self.suit_count = [0] * (4 * n)
        self.looked = [0] * n
        self.bid_kind = [-1] * n
        self.bid_tricks = [0] * n
        self.trick_seat = [0] * n
        self.trick_card = [0] * n
        self.tlen = 0
        self.led = -1
        self.best_key = -1
        self.best_seat = -1
        self.trick_size = n
        self.skip = -1
        self.next_seat = [(s + 1) % n for s in range(n)]
        self.trick_count = 0
        self.tricks_won = [0] * n
        self.jack_owner = [-1, -1, -1, -1]  # [unused, JD, JC, JH]
        self.broken = False
        self.score = [0] * n
        self.bags = [0] * n
        self.tokens = [0] * n
        self.b6_used = [0] * n
        self.game_number = 1
        self.hands_in_game = 0
        self.hands_played = 0
        self.overtime = False
        self.won_by = []

    def _copy_from(self, k: CutthroatSpadesKernel) -> None:
        self.players = k.players
        self.jokers = k.jokers
        self.two_jokers = k.two_jokers
        self.tricks = k.tricks
        self.ncards = k.ncards
        self.pack = k.pack
        self.play_base = k.play_base
        self.card_id = k.card_id
        self.a_card = k.a_card
        self.a_suit = k.a_suit
        self.a_rank = k.a_rank
        self.a_power = k.a_power
        self.a_jack = k.a_jack
        self.suit_start = k.suit_start
        self.id_2c = k.id_2c
        self.owners = k.owners
        self.target = k.target
        self.minus_10 = k.minus_10
        self.bag_limit = k.bag_limit
        self.carry = k.carry
        self.b6_limit = k.b6_limit
        self.prize_jd = k.prize_jd
        self.prize_jc = k.prize_jc
        self.prize_jh = k.prize_jh
        self.wins_needed = k.wins_needed
        self.max_hands = k.max_hands
        self.mercy = k.mercy
        self.phase = k.phase
        self.dealer = k.dealer
        self.turn = k.turn
        self.deck = k.deck[:]
        self.hands = k.hands[:]
        self.hlen = k.hlen[:]
        self.suit_count = k.suit_count[:]
        self.looked = k.looked[:]
        self.bid_kind = k.bid_kind[:]
        self.bid_tricks = k.bid_tricks[:]
        self.trick_seat = k.trick_seat[:]
        self.trick_card = k.trick_card[:]
        self.tlen = k.tlen
        self.led = k.led
        self.best_key = k.best_key
        self.best_seat = k.best_seat
        self.trick_size = k.trick_size
        self.skip = k.skip
        self.next_seat = k.next_seat
        self.trick_count = k.trick_count
        self.tricks_won = k.tricks_won[:]
        self.jack_owner = k.jack_owner[:]
        self.broken = k.broken
        self.score = k.score[:]
        self.bags = k.bags[:]
        self.tokens = k.tokens[:]
        self.b6_used = k.b6_used[:]
        self.game_number = k.game_number
        self.hands_in_game = k.hands_in_game
        self.hands_played = k.hands_played
        self.overtime = k.overtime
        self.won_by = k.won_by[:]

    # ------------------------------------------------------------------ the contract

    def actor(self) -> int:
        """The seat to bid or play, CHANCE before a deal, OVER at the end."""
        phase = self.phase
        if phase == BID or phase == PLAY:
            return self.turn
        if phase == DONE:
            return OVER
        return CHANCE

    def copy(self) -> CutthroatSpadesKernel:
        """An independent copy (the config tables shared)."""
        return CutthroatSpadesKernel([], self)

    def solvable(self) -> bool:
        """True while tricks are played: the rest of the hand is card play alone."""
        return self.phase == PLAY

    def held(self, seat: int) -> int:
        """Cards in ``seat``'s hand."""
        return self.hlen[seat]

    def scores(self) -> list[int]:
        """Points of the current game."""
        return self.score[:]

    def winners(self) -> list[int]:
        """The tournament winners once over, else ``[]``."""
        if self.phase == DONE:
            return self.won_by[:]
        return []

    def blind_six_allowed(self, seat: int) -> bool:
        """Rule 4: uses left this game and at least 50 below the leader."""
        if self.b6_limit >= 0 and self.b6_used[seat] >= self.b6_limit:
            return False
        score = self.score
        top = score[0]
        for s in range(1, self.players):
            if score[s] > top:
                top = score[s]
        return top - score[seat] >= 50

    def playable(self, seat: int) -> tuple[int, int]:
        """In play, where the seat's playable cards lie in ``hands``: ``(first, count)``.

        A suit is one run of the sorted hand, so every legal set of plays is a slice:
        the led suit (else the whole hand); 2C alone for its holder's first lead with two
        jokers; leading before spades are broken, everything but the spades (unless
        that leaves nothing)."""
        start = seat * self.tricks
        sc = self.suit_count
        q = 4 * seat
        spades = sc[q]
        size = self.hlen[seat]
        if self.tlen > 0:
            led = self.led
            if led == 0:
                return start, spades if spades > 0 else size
            lo = start + spades
            if led > 1:
                lo += sc[q + 1]
                if led > 2:
                    lo += sc[q + 2]
            count = sc[q + led]
            if count > 0:
                return lo, count
            return start, size
        if self.trick_count == 0 and self.two_jokers and sc[q + 3] > 0:
            clubs = start + size - sc[q + 3]
            if self.hands[clubs] == self.id_2c:
                return clubs, 1
        if not self.broken and size > spades:
            return start + spades, size - spades
        return start, size

    def legal(self) -> list[int]:
        """The legal action ids in the reference order."""
        seat = self.turn
        if self.phase == PLAY:
            lo, count = self.playable(seat)
            return self.hands[lo : lo + count]
        out: list[int] = []
        if self.phase == BID:
            if self.looked[seat] == 0:
                out.append(0)
                out.append(1)
                if self.blind_six_allowed(seat):
                    out.append(2)
                return out
            for b in range(self.hlen[seat]):
                out.append(3 + b)
            t = self.tricks
            out.append(3 + t)
            out.append(4 + t)
            out.append(5 + t)
            out.append(6 + t)
        return out

    def play_random(self, rng: KRng, limit: int) -> int:
        """Play uniformly random legal actions, and chance with :meth:`chance_random`, until
        the game is over or ``limit`` player actions were made; returns the player actions
        made (whole random games in one call, without building the legal lists of plays)."""
        made = 0
        x = rng.state  # KRng's state, stepped here (xorshift32, inlined: see below)
        while made < limit:
            phase = self.phase
            if phase == PLAY:
                # the rest of the current trick, its state in locals (what _play does
                # play by play; a call and the attribute traffic per play cost more than
                # the rules when interpreted)
                hands = self.hands
                hlen = self.hlen
                sc = self.suit_count
                a_suit = self.a_suit
                a_power = self.a_power
                next_seat = self.next_seat
                tseat = self.trick_seat
                tcard = self.trick_card
                t = self.tricks
                size = self.trick_size
                skip = self.skip
                seat = self.turn
                tlen = self.tlen
                led = self.led
                best_key = self.best_key
                best_seat = self.best_seat
                broken = self.broken
                while tlen < size and made < limit:
                    if tlen == 0:
                        lo, count = self.playable(seat)
                    else:
                        # following: the led suit's run, else the whole hand (playable())
                        q = 4 * seat
                        count = sc[q + led]
                        lo = seat * t
                        if count == 0:
                            count = hlen[seat]
                        elif led > 0:
                            lo += sc[q]
                            if led > 1:
                                lo += sc[q + 1]
                                if led > 2:
                                    lo += sc[q + 2]
                    if count > 1:
                        # rng.below(count), inlined (see chance_random)
                        x ^= (x << 13) & _MASK
                        x ^= x >> 17
                        x ^= (x << 5) & _MASK
                        lo += (x * count) >> 32
                    card = hands.pop(lo)
                    hands.insert((seat + 1) * t - 1, 0)
                    hlen[seat] -= 1
                    suit = a_suit[card]
                    sc[4 * seat + suit] -= 1
                    key = a_power[card]
                    if tlen == 0:
                        led = suit
                        best_key = key
                        best_seat = seat
                    else:
                        if suit == 0:
                            if led != 0:
                                broken = True
                        elif suit != led:
                            key = -1
                        if key > best_key:
                            best_key = key
                            best_seat = seat
                    tseat[tlen] = seat
                    tcard[tlen] = card
                    tlen += 1
                    made += 1
                    seat = next_seat[seat]
                    if seat == skip:
                        seat = next_seat[seat]
                self.led = led
                self.best_key = best_key
                self.best_seat = best_seat
                self.broken = broken
                self.tlen = tlen
                if tlen < size:
                    self.turn = seat
                else:
                    self._end_trick()
                continue
            elif phase == BID:
                # legal() without the list: look, blind nil (and blind six), or the
                # bids 1..hand size then nil, 1f, 2f, moon
                seat = self.turn
                if self.looked[seat] == 0:
                    count = 3 if self.blind_six_allowed(seat) else 2
                else:
                    count = self.hlen[seat] + 4
                x ^= (x << 13) & _MASK
                x ^= x >> 17
                x ^= (x << 5) & _MASK
                r = (x * count) >> 32
                if self.looked[seat] == 0:
                    self.apply(r)
                elif r < count - 4:
                    self.apply(3 + r)
                else:
                    self.apply(3 + self.tricks + r - (count - 4))
            elif phase == DONE:
                break
            else:
                rng.state = x
                self.chance_random(rng)
                x = rng.state
                continue
            made += 1
        rng.state = x
        return made

    def apply(self, action: int) -> None:
        """Play the legal action id ``action`` of the seat to act."""
        seat = self.turn
        if self.phase == PLAY:
            # the card is in its suit's run of the hand
            sc = self.suit_count
            q = 4 * seat
            i = seat * self.tricks
            for suit in range(self.a_suit[action]):
                i += sc[q + suit]
            hands = self.hands
            while hands[i] != action:
                i += 1
            self._play(seat, i)
            return
        # bidding
        if action == 0:
            self.looked[seat] = 1
            return
        t = self.tricks
        kind = K_NORMAL
        need = 0
        if action == 1:
            kind = K_BLIND_NIL
        elif action == 2:
            kind = K_BLIND_SIX
            need = 6
            self.b6_used[seat] += 1
        elif action < 3 + t:
            need = action - 2
        elif action == 3 + t:
            kind = K_NIL
        elif action == 4 + t:
            kind = K_ONE_FOR_FIFTY
            need = 1
        elif action == 5 + t:
            kind = K_TWO_FOR_FORTY
            need = 2
        else:
            kind = K_MOON
            need = (14 * self.hlen[seat] + 16) // 17
        self.looked[seat] = 1
        self.bid_kind[seat] = kind
        self.bid_tricks[seat] = need
        n = self.players
        if seat != self.dealer:
            self.turn = seat + 1 if seat + 1 < n else 0
            return
        # the dealer bid last: the play starts
        leader = (self.dealer + 1) % n
        if self.two_jokers:
            for s in range(n):
                if s != self.dealer and self._holds_2c(s):
                    leader = s
        self.phase = PLAY
        self.turn = leader

    def _holds_2c(self, seat: int) -> bool:
        clubs = self.suit_count[4 * seat + 3]
        return clubs > 0 and self.hands[seat * self.tricks + self.hlen[seat] - clubs] == self.id_2c

    def _play(self, seat: int, index: int) -> None:
        """Play the card at ``hands[index]`` (in the seat's hand) for ``seat``."""
        hands = self.hands
        # out of the hand; the later seats' cards shift back into place with the filler
        card = hands.pop(index)
        hands.insert((seat + 1) * self.tricks - 1, 0)
        self.hlen[seat] -= 1
        suit = self.a_suit[card]
        self.suit_count[4 * seat + suit] -= 1
        tlen = self.tlen
        self.trick_seat[tlen] = seat
        self.trick_card[tlen] = card
        key = self.a_power[card]
        # the trick's running winner: the highest trump, else the highest of the led suit
        if tlen == 0:
            self.led = suit
            self.best_key = key
            self.best_seat = seat
        else:
            if suit == 0:
                if not self.broken and self.led != 0:
                    self.broken = True
            elif suit != self.led:
                key = -1
            if key > self.best_key:
                self.best_key = key
                self.best_seat = seat
        tlen += 1
        if tlen < self.trick_size:
            self.tlen = tlen
            nxt = self.next_seat[seat]
            if nxt == self.skip:  # the dealer sits out trick 1 with two jokers
                nxt = self.next_seat[nxt]
            self.turn = nxt
            return
        self.tlen = tlen
        self._end_trick()

    def _end_trick(self) -> None:
        """The trick is complete: its winner takes it and leads; the hand may end."""
        winner = self.best_seat
        tlen = self.tlen
        a_jack = self.a_jack
        for i in range(tlen):
            jack = a_jack[self.trick_card[i]]
            if jack != 0:
                self.jack_owner[jack] = winner
        self.tricks_won[winner] += 1
        self.tlen = 0
        self.turn = winner
        self.trick_size = self.players
        self.skip = -1
        self.trick_count += 1
        if self.trick_count == self.tricks:
            self._hand_end()

    def _hand_end(self) -> None:
        n = self.players
        score = self.score
        bags = self.bags
        for s in range(n):
            score[s], bags[s] = self._score_seat(s)
        self.phase = DEAL
        self.dealer = (self.dealer + 1) % n
        self.turn = -1
        hand_number = self.hands_in_game + 1
        self.hands_in_game = hand_number
        self.hands_played += 1
        top = score[0]
        reached_target = False
        mercy_hit = False
        for s in range(n):
            x = score[s]
            if x > top:
                top = x
            if x >= self.target:
                reached_target = True
            if self.mercy >= 0 and x <= -self.mercy:
                mercy_hit = True
        leaders = 0
        for s in range(n):
            if score[s] == top:
                leaders += 1
        reached = self.overtime or reached_target
        over = False
        if reached and leaders == 1:
            over = True
        elif mercy_hit or (self.max_hands >= 0 and hand_number >= self.max_hands):
            over = True
        elif reached and not self.overtime:
            self.overtime = True
        if not over:
            return
        tokens = self.tokens
        champions = False
        for s in range(n):
            if score[s] == top:
                tokens[s] += 1
                if tokens[s] >= self.wins_needed:
                    champions = True
        if champions:
            self.phase = DONE
            won_by = self.won_by
            won_by.clear()
            for s in range(n):
                if score[s] == top and tokens[s] >= self.wins_needed:
                    won_by.append(s)
            return
        self.game_number += 1
        for s in range(n):
            score[s] = 0
            bags[s] = 0
            self.b6_used[s] = 0
        self.hands_in_game = 0
        self.overtime = False

    def _score_seat(self, s: int) -> tuple[int, int]:
        """The seat's new score and bag count (scoring.score_seat, rule 18's order)."""
        kind = self.bid_kind[s]
        bid = self.bid_tricks[s]
        taken = self.tricks_won[s]
        points = 0
        bags_taken = 0
        if kind == K_NORMAL:
            if taken >= bid:
                points = 10 * bid
                bags_taken = taken - bid
            else:
                points = -10 * bid
        elif kind == K_NIL:
            points = 100 if taken == 0 else -100
        elif kind == K_BLIND_NIL:
            points = 200 if taken == 0 else -200
        elif kind == K_ONE_FOR_FIFTY:
            if taken == 1:
                points = 50
            elif taken > 1:
                points = 10
                bags_taken = taken - 1
            else:
                points = -50
        elif kind == K_TWO_FOR_FORTY:
            if taken == 2:
                points = 40
            elif taken > 2:
                points = 20
                bags_taken = taken - 2
            else:
                points = -40
        elif kind == K_BLIND_SIX:
            if taken >= 6:
                points = 100
                bags_taken = taken - 6
            else:
                points = -100
        else:
            points = 150 if taken >= bid else -150
        owner = self.jack_owner
        jd = self.prize_jd and owner[1] == s
        jc = self.prize_jc and owner[2] == s
        jh = self.prize_jh and owner[3] == s
        count = (1 if jd else 0) + (1 if jc else 0) + (1 if jh else 0)
        if count == 2:  # more than one prize jack pays nothing, unless all three
            jd = False
            jc = False
            jh = False
        prize = (10 if jd else 0) + (10 if jc else 0)
        if self.minus_10:
            if jh and bags_taken > 0:
                prize += 10
            return self.score[s] + points - 10 * bags_taken + prize, 0
        bag_count = self.bags[s] + bags_taken
        if jh and bag_count > 0:
            bag_count -= 1
        out_points = 0
        limit = self.bag_limit
        if self.carry:
            while bag_count >= limit:
                out_points -= 10 * limit
                bag_count -= limit
        elif bag_count >= limit:
            out_points = -10 * bag_count
            bag_count = 0
        return self.score[s] + points + bags_taken + prize + out_points, bag_count

    # ------------------------------------------------------------------ chance

    def chance_is_pick(self) -> bool:
        """The first dealer is a pick; every hand is a shuffle."""
        return self.phase == PICK

    def chance_size(self) -> int:
        """Seats to pick from, or the layout's cards."""
        return self.players if self.phase == PICK else self.ncards

    def chance_pick(self, index: int) -> None:
        """The first dealer."""
        self.dealer = index
        self.phase = DEAL

    def chance_shuffle(self, order: list[int]) -> None:
        """Deal ``order`` (card ints, top first) as ``core.table.deal`` does."""
        owner_of = [0] * N_CARDS
        owners = self.owners
        base = self.dealer * self.ncards
        for i in range(self.ncards):
            owner_of[order[i]] = owners[base + i]
        pack = self.pack
        self._deal([owner_of[c] for c in pack])

    def chance_cards(self) -> list[int]:
        """The layout's cards in the reference ``ShuffleSpec`` order (ascending card ints)."""
        return self.pack[:]

    def guard_ended(self) -> bool:
        """Once over: ``max_hands`` decided the game without a seat alone at the target
        (the ``mercy`` rule is a rules ending; ``cardkit.games.guards``)."""
        if self.phase != DONE or self.max_hands < 0 or self.hands_in_game < self.max_hands:
            return False
        score = self.score
        top = score[0]
        low = score[0]
        for x in score:
            if x > top:
                top = x
            if x < low:
                low = x
        if self.mercy >= 0 and low <= -self.mercy:
            return False
        leaders = 0
        for x in score:
            if x == top:
                leaders += 1
        return not (leaders == 1 and (self.overtime or top >= self.target))

    def chance_random(self, rng: KRng) -> None:
        """A uniform pick, or a uniformly shuffled deal."""
        if self.phase == PICK:
            self.chance_pick(rng.below(self.players))
            return
        # A uniform permutation dealt in order gives each card of the pack a uniformly
        # shuffled dealing position: shuffle the positions' seats over the pack instead
        # (Fisher-Yates). One xorshift32 step (KRng.next, inlined) serves two steps of
        # the shuffle: its 32 bits pick one of the (i + 1) * i pairs, with a bias below
        # 55 * 54 / 2**32 (KRng.below's own bias is of the same kind).
        m = self.ncards
        base = self.dealer * m
        seats = self.owners[base : base + m]
        i = m - 1
        x = rng.state
        while i > 0:
            x ^= (x << 13) & _MASK
            x ^= x >> 17
            x ^= (x << 5) & _MASK
            v = (x * ((i + 1) * i)) >> 32
            j = v % (i + 1)
            seats[i], seats[j] = seats[j], seats[i]
            if i > 1:
                j = v // (i + 1)
                seats[i - 1], seats[j] = seats[j], seats[i - 1]
            i -= 2
        rng.state = x
        self._deal(seats)

    def _deal(self, seats: list[int]) -> None:
        """The hands, ``seats[i]`` holding the ``i``-th card of the pack: walking the pack
        in order keeps each hand sorted, and each suit is one run of the pack."""
        n = self.players
        t = self.tricks
        hands = self.hands
        hlen = self.hlen
        sc = self.suit_count
        for s in range(n):
            hlen[s] = 0
            self.looked[s] = 0
            self.bid_kind[s] = -1
            self.bid_tricks[s] = 0
            self.tricks_won[s] = 0
        for q in range(4 * n):
            sc[q] = 0
        runs = self.suit_start
        a = self.play_base
        for suit in range(4):
            for i in range(runs[suit], runs[suit + 1]):
                s = seats[i]
                hands[s * t + hlen[s]] = a + i
                hlen[s] += 1
                sc[4 * s + suit] += 1
        self.deck.clear()
        self.jack_owner[1] = -1
        self.jack_owner[2] = -1
        self.jack_owner[3] = -1
        self.phase = BID
        self.turn = (self.dealer + 1) % n
        self.tlen = 0
        self.trick_count = 0
        self.broken = False
        self.trick_size = n - 1 if self.two_jokers else n
        self.skip = self.dealer if self.two_jokers else -1

    # ------------------------------------------------------------------ zones, snapshots

    def set_zone(self, zone: int, owner: int, cards: list[int]) -> None:
        """Replace the deck (as given) or a hand (sorted, as ``with_zones`` does)."""
        if zone == ZONE_DECK:
            self.deck = cards[:]
            return
        if zone != ZONE_HAND:
            raise ValueError(f"zone {zone} is public in Cutthroat Spades")
        self._set_hand(owner, cards)

    def _set_hand(self, seat: int, cards: list[int]) -> None:
        ids: list[int] = []
        for c in cards:
            ids.append(self.card_id[c])
        ids.sort()
        start = seat * self.tricks
        q = 4 * seat
        for s in range(4):
            self.suit_count[q + s] = 0
        for i in range(len(ids)):
            self.hands[start + i] = ids[i]
            self.suit_count[q + self.a_suit[ids[i]]] += 1
        self.hlen[seat] = len(ids)

    def snapshot(self) -> list[int]:
        """The state as ints (cards as card ints): phase, dealer, turn, trick length,
        trick count, broken, game number, hands in game, hands played, overtime; the deck
        (length first); each hand (length first); per seat looked, bid kind, bid tricks,
        tricks won, score, bags, tokens, blind sixes used; the trick's seats then cards;
        the owners of JD, JC, JH this hand; the winners (length first)."""
        n = self.players
        out = [
            self.phase, self.dealer, self.turn, self.tlen, self.trick_count, 1 if self.broken else 0,
            self.game_number, self.hands_in_game, self.hands_played, 1 if self.overtime else 0,
            len(self.deck),
        ]  # fmt: skip
        out.extend(self.deck)
        t = self.tricks
        a_card = self.a_card
        for s in range(n):
            out.append(self.hlen[s])
            for i in range(s * t, s * t + self.hlen[s]):
                out.append(a_card[self.hands[i]])
        out.extend(self.looked)
        out.extend(self.bid_kind)
        out.extend(self.bid_tricks)
        out.extend(self.tricks_won)
        out.extend(self.score)
        out.extend(self.bags)
        out.extend(self.tokens)
        out.extend(self.b6_used)
        for i in range(self.tlen):
            out.append(self.trick_seat[i])
        for i in range(self.tlen):
            out.append(a_card[self.trick_card[i]])
        out.append(self.jack_owner[1])
        out.append(self.jack_owner[2])
        out.append(self.jack_owner[3])
        out.append(len(self.won_by))
        out.extend(self.won_by)
        return out

    def restore(self, snap: list[int]) -> None:
        """Load a :meth:`snapshot` (the bridge builds one from a reference state)."""
        n = self.players
        self.phase = snap[0]
        self.dealer = snap[1]
        self.turn = snap[2]
        self.tlen = snap[3]
        self.trick_count = snap[4]
        self.broken = snap[5] != 0
        self.game_number = snap[6]
        self.hands_in_game = snap[7]
        self.hands_played = snap[8]
        self.overtime = snap[9] != 0
        p = 11
        self.deck = snap[p : p + snap[10]]
        p += snap[10]
        for s in range(n):
            m = snap[p]
            self._set_hand(s, snap[p + 1 : p + 1 + m])
            p += 1 + m
        self.looked = snap[p : p + n]
        self.bid_kind = snap[p + n : p + 2 * n]
        self.bid_tricks = snap[p + 2 * n : p + 3 * n]
        self.tricks_won = snap[p + 3 * n : p + 4 * n]
        self.score = snap[p + 4 * n : p + 5 * n]
        self.bags = snap[p + 5 * n : p + 6 * n]
        self.tokens = snap[p + 6 * n : p + 7 * n]
        self.b6_used = snap[p + 7 * n : p + 8 * n]
        p += 8 * n
        tlen = self.tlen
        # the trick's running winner, led suit and prize jacks, as _play keeps them
        first = self.trick_count == 0 and self.two_jokers
        self.trick_size = self.players - 1 if first else self.players
        self.skip = self.dealer if first else -1
        self.led = -1
        self.best_key = -1
        self.best_seat = -1
        for i in range(tlen):
            seat = snap[p + i]
            card = self.card_id[snap[p + tlen + i]]
            self.trick_seat[i] = seat
            self.trick_card[i] = card
            key = self.a_power[card]
            if i == 0:
                self.led = self.a_suit[card]
            elif self.a_suit[card] != 0 and self.a_suit[card] != self.led:
                key = -1
            if key > self.best_key:
                self.best_key = key
                self.best_seat = seat
        p += 2 * tlen
        self.jack_owner = [-1, snap[p], snap[p + 1], snap[p + 2]]
        p += 3
        self.won_by = snap[p + 1 : p + 1 + snap[p]]

    # ------------------------------------------------------------------ RuleBot

    def rule_action(self) -> int:
        """``RuleBot`` (bots/heuristics/cutthroat_spades.py ``decide``) for the seat to act:
        it reads only that seat's own hand (once looked), the bids, tricks won and trick."""
        seat = self.turn
        if self.phase == BID:
            if self.looked[seat] == 0:
                return 0  # look
            return self._rule_bid(seat)
        return self._rule_play(seat)

    def estimate_tricks(self, seat: int) -> float:
        """The heuristic's ``estimate_tricks`` of the seat's hand (the same float
        operations in the same order, so the same bids)."""
        hands = self.hands
        a_suit = self.a_suit
        a_rank = self.a_rank
        start = seat * self.tricks
        end = start + self.hlen[seat]
        total = 0.0
        spades = 0
        i = start
        while i < end and a_suit[hands[i]] == 0:
            rank = a_rank[hands[i]]
            total += 1.0 if rank >= 13 else 0.7 if rank == 12 else 0.45 if rank >= 10 else 0.0
            spades += 1
            i += 1
        total += max(0, spades - 4) * 0.7
        for suit in range(1, 4):
            count = 0
            ace = False
            king = False
            while i < end and a_suit[hands[i]] == suit:
                r = a_rank[hands[i]]
                if r == 14:
                    ace = True
                elif r == 13:
                    king = True
                count += 1
                i += 1
            if ace:
                total += 0.85 if count <= 5 else 0.6
            if king and count >= 2:
                total += 0.5 if count <= 4 else 0.3
            if count <= 1 and spades >= 3:
                total += 0.6 if count == 0 else 0.35
        return total

    def _nil_safe(self, seat: int) -> bool:
        hands = self.hands
        start = seat * self.tricks
        spades = 0
        for i in range(start, start + self.hlen[seat]):
            a = hands[i]
            r = self.a_rank[a]
            if self.a_suit[a] == 0:
                if r > 9:
                    return False
                spades += 1
            if r >= 13:
                return False
        return spades <= 3

    def _rule_bid(self, seat: int) -> int:
        want = self.estimate_tricks(seat)
        if want < 1.0 and self._nil_safe(seat):
            return 3 + self.tricks  # nil
        best = 1
        best_gap = abs(1 - want)
        for b in range(2, self.hlen[seat] + 1):
            gap = abs(b - want)
            if gap < best_gap:
                best_gap = gap
                best = b
        return 2 + best

    def _rule_play(self, seat: int) -> int:
        legal = self.legal()
        a_power = self.a_power
        need = self.bid_tricks[seat] - self.tricks_won[seat]
        tlen = self.tlen
        led = self.led
        top = self.best_key
        if need > 0:
            if tlen == 0:
                best = legal[0]
                best_p = -1
                for a in legal:
                    p = a_power[a]
                    if p > best_p:
                        best_p = p
                        best = a
                return best
            last = tlen == self.players - 1
            pick = -1
            pick_p = 0
            for a in legal:
                p = self._power(a, led)
                if p > top:
                    if pick < 0 or (p < pick_p if last else p > pick_p):
                        pick = a
                        pick_p = p
            if pick >= 0:
                return pick
            return self._lowest(legal, tlen > 0)
        if tlen > 0:
            high = -1
            high_p = 0
            high_r = 0
            for a in legal:
                p = self._power(a, led)
                if p <= top:
                    r = self.a_rank[a]
                    if high < 0 or p > high_p or (p == high_p and r > high_r):
                        high = a
                        high_p = p
                        high_r = r
            if high >= 0:
                return high
        return self._lowest(legal, tlen > 0)

    def _power(self, action: int, led: int) -> int:
        """``trick_power``: trumps 100 + rank, the led suit its rank, else -1."""
        s = self.a_suit[action]
        if s == 0 or s == led:
            return self.a_power[action]
        return -1

    def _lowest(self, legal: list[int], following: bool) -> int:
        """The first legal play with the least (power, rank)."""
        low = -1
        low_p = 0
        low_r = 0
        led = self.led
        for a in legal:
            r = self.a_rank[a]
            p = self._power(a, led) if following else self.a_power[a]
            if low < 0 or p < low_p or (p == low_p and r < low_r):
                low = a
                low_p = p
                low_r = r
        return low
