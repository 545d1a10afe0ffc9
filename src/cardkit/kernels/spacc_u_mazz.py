"""The Spacc 'u Mazz kernel: the reference rules (``cardkit.games.spacc_u_mazz``) on ints.

Restricted typed Python, compiled by mypyc when it can be (see :mod:`cardkit.kernels._base`
for the contract). Every option of the game is covered: ``rank_order``, ``card_points``,
``fixed_points``, ``target_score`` (one hand or a match) and the ``max_turns`` guard.

Encoding (docs/kernels.md):

* a card is its index in the game's card order: 0 the red joker, 1 the black joker, then
  ``2 + 13 * suit + (rank - 2)`` with the suits S, H, D, C (so sorting ints sorts cards);
* a hand or a row of face-up cards is one base-3 code per seat and rank (15 slots per
  seat): digit ``suit`` counts the copies (0..2) of that card, which is also the key of
  the fixed action index (``action_space.py``) and makes "every play of this rank" a
  cached list;
* face-down cards are three slots per seat in position order; the pile, the stocks, the
  removed cards and the undealt packs are plain lists (the stocks with a read position).
"""

from __future__ import annotations

from typing import Final

from cardkit.kernels._base import CHANCE, OVER, Kernel, KRng, fewest_cards_values

__all__ = [
    "SpaccUMazzKernel",
    "card_int",
    "Z_HAND",
    "Z_KNOWN",
    "Z_FACE_UP",
    "Z_FACE_DOWN",
    "Z_PILE",
    "Z_MAIN",
    "Z_MAIN_BURIED",
    "Z_RESERVE",
    "Z_REMOVED",
    "Z_DECK",
    "Z_JOKERS",
    "Z_PACK_B",
    "PLAYS",
    "BLIND",
    "DRAW",
    "TAKE",
    "PASS",
    "DUMP",
    "KEEP",
    "REMOVE_UP",
    "REMOVE_DOWN",
    "DECLINE",
    "ACTIONS",
    "random_playout",
]

# ---------------------------------------------------------------- phases and choices

P_FIRST_DEALER: Final = 0
P_DEAL: Final = 1
P_DEAL_FACE_DOWN: Final = 2
P_DEAL_RESERVE: Final = 3
P_PLAY: Final = 4
P_NEXT_HAND: Final = 5
P_OVER: Final = 6

NO_CHOICE: Final = 0
CHOICE_DUMP: Final = 1
CHOICE_REMOVE: Final = 2

RED: Final = 0
BLACK: Final = 1
SLOTS: Final = 15  # per seat: one code per rank index 0..14 (2..14 used)
DOWN_SLOTS: Final = 3
HAND_SIZE: Final = 5
UP_SIZE: Final = 3
DOWN_SIZE: Final = 3

# ---------------------------------------------------------------- the action index

PER_RANK: Final = 81 * 31 - 1
"""Plays per rank in the action index: 81 hand multisets × 31 face-up multisets, minus none."""
PLAYS: Final = 13 * PER_RANK
"""Action ids below this are plays (rank 2..A, ``PER_RANK`` each)."""
BLIND: Final = PLAYS
"""``blind 1`` (``blind k`` is ``BLIND + k - 1``)."""
DRAW: Final = PLAYS + 3
"""``draw``."""
TAKE: Final = DRAW + 1
"""``take``."""
PASS: Final = DRAW + 2
"""``pass``."""
DUMP: Final = DRAW + 3
"""``dump``."""
KEEP: Final = DRAW + 4
"""``keep``."""
REMOVE_UP: Final = DRAW + 5
"""``remove up:C`` is ``REMOVE_UP + card - 2`` (the 52 card values)."""
REMOVE_DOWN: Final = REMOVE_UP + 52
"""``remove down:1`` (``remove down:k`` is ``REMOVE_DOWN + k - 1``)."""
DECLINE: Final = REMOVE_DOWN + 3
"""``decline``."""
ACTIONS: Final = DECLINE + 1
"""The size of the action index (32,694)."""

# ---------------------------------------------------------------- zones (Kernel.set_zone)

Z_HAND: Final = 0
"""A seat's private hand cards (its ``known`` cards are kept)."""
Z_KNOWN: Final = 1
"""A seat's known hand cards (public: never written)."""
Z_FACE_UP: Final = 2
"""A seat's face-up cards (public: never written)."""
Z_FACE_DOWN: Final = 3
"""A seat's face-down cards, in position order."""
Z_PILE: Final = 4
"""The pile (public: never written)."""
Z_MAIN: Final = 5
"""The concealed part of the main stock (top first); the buried starters stay."""
Z_MAIN_BURIED: Final = 6
"""The buried starters at the bottom of the main stock."""
Z_RESERVE: Final = 7
"""The reserve stock (top first)."""
Z_REMOVED: Final = 8
"""Cards out of the game (public: never written)."""
Z_DECK: Final = 9
"""Pack A before it is dealt."""
Z_JOKERS: Final = 10
"""The jokers before they are dealt (public: never written)."""
Z_PACK_B: Final = 11
"""Pack B before it is dealt."""

POW3: Final[list[int]] = [1, 3, 9, 27]


def card_int(rank: int, suit: int) -> int:
    """The int of the card of ``rank`` (2..14) and ``suit`` (0..3: S, H, D, C)."""
    return 2 + 13 * suit + rank - 2


def _digit(code: int, suit: int) -> int:
    return (code // POW3[suit]) % 3


def _code_total(code: int) -> int:
    return code % 3 + (code // 3) % 3 + (code // 9) % 3 + code // 27


def _list_key(code: int, width: int) -> int:
    """The multiset ``code`` as its suits listed in order (each copy once), as one int
    comparing like the reference's list of sort keys (a prefix is smaller)."""
    key = 0
    used = 0
    for suit in range(4):
        for _ in range(_digit(code, suit)):
            key = key * 5 + suit + 1
            used += 1
    while used < width:
        key *= 5
        used += 1
    return key


def _ordered_codes(most: int) -> list[int]:
    """The multisets of one rank with at most ``most`` cards in the action index's order:
    fewer cards first, then by their cards (``action_space._multisets``)."""
    keyed: list[int] = []
    for code in range(81):
        total = _code_total(code)
        if total <= most:
            keyed.append((total * 390625 + _list_key(code, 8)) * 81 + code)
    keyed.sort()
    return [k % 81 for k in keyed]


HAND_CODES: Final[list[int]] = _ordered_codes(8)
"""Hand multiset codes by their position in a rank's block of the action index."""
UP_CODES: Final[list[int]] = _ordered_codes(3)
"""Face-up multiset codes by their position."""
HAND_POS: Final[list[int]] = [0] * 81
UP_POS: Final[list[int]] = [-1] * 81
for _i in range(len(HAND_CODES)):
    HAND_POS[HAND_CODES[_i]] = _i
for _i in range(len(UP_CODES)):
    UP_POS[UP_CODES[_i]] = _i
TOTAL: Final[list[int]] = [_code_total(_c) for _c in range(81)]
RANK_OF: Final[list[int]] = [0, 0] + [(_c - 2) % 13 + 2 for _c in range(2, 54)]
"""Per card int: its rank (0 for the jokers)."""
STEP_OF: Final[list[int]] = [0, 0] + [POW3[(_c - 2) // 13] for _c in range(2, 54)]
"""Per card int: what it adds to its rank's code."""

# Per code: its suits, one entry per copy, in card order (the cards of a play).
CODE_SUITS: Final[list[list[int]]] = [
    [suit for suit in range(4) for _ in range(_digit(_c, suit))] for _c in range(81)
]
# Per (known code, played code): the known code left, a played copy of a known card
# leaving the known part first (digit by digit, never below 0).
KNOWN_LEFT: Final[list[int]] = [
    sum(max(0, _digit(_k, s) - _digit(_h, s)) * POW3[s] for s in range(4))
    for _k in range(81)
    for _h in range(81)
]

# Every play of one rank for (rank, hand code, up code, main stock empty), as action ids
# in the reference order; filled on first use (the empty list means "not yet").
_NOT_YET: Final[list[int]] = []
_COMBOS: Final[list[list[int]]] = [_NOT_YET] * (15 * 81 * 81 * 2)


def _sub_codes(code: int) -> list[int]:
    out = [0]
    for suit in range(4):
        step = POW3[suit]
        more: list[int] = []
        for k in range(1, _digit(code, suit) + 1):
            for base in out:
                more.append(base + k * step)
        out.extend(more)
    return out


def _combos(rank: int, hc: int, uc: int, main_empty: bool) -> list[int]:
    """The plays of one rank (``_rank_plays``) as action ids: hand part non-empty unless
    the main stock is gone, at least one card; fewer cards first, then hand cards, then
    face-up cards in card order. The caller must not change the list (it is shared)."""
    slot = ((rank * 81 + hc) * 81 + uc) * 2 + (1 if main_empty else 0)
    found = _COMBOS[slot]
    if len(found) > 0:
        return found
    keyed: list[int] = []
    ups = _sub_codes(uc)
    for h in _sub_codes(hc):
        if h == 0 and not main_empty:
            continue
        for u in ups:
            if h == 0 and u == 0:
                continue
            key = (TOTAL[h] + TOTAL[u]) * 48828125 + _list_key(h, 8) * 125 + _list_key(u, 3)
            keyed.append(key * 4096 + HAND_POS[h] * 31 + UP_POS[u] - 1)
    keyed.sort()
    first = (rank - 2) * PER_RANK
    out = [first + k % 4096 for k in keyed]
    _COMBOS[slot] = out
    return out


class SpaccUMazzKernel(Kernel):
    """One Spacc 'u Mazz game under one config, mutable, on ints (see the module docs)."""

    # config
    order: list[int]
    play_ranks: list[int]
    start: list[int]
    card_points: list[int]
    fixed: list[int]
    target: int
    max_turns: int
    # state (the reference SpaccState, field by field)
    phase: int
    hand_number: int
    dealer: int
    to_act: int
    pending: int
    turns: int
    deck: list[int]
    jokers: list[int]
    pack_b: list[int]
    hand: list[int]
    hand_n: list[int]
    known: list[int]
    up: list[int]
    up_n: list[int]
    down: list[int]
    down_n: list[int]
    pile: list[int]
    reference: int
    main: list[int]
    main_pos: int
    main_known: int
    reserve: list[int]
    reserve_pos: int
    removed: list[int]
    places: list[int]
    revealed: bool
    totals: list[int]
    hand_points: list[int]
    won: list[int]
    # search only (never part of the game): seats whose playout policy is the eager shedder
    eager_seats: int

    def __init__(
        self,
        players: int,
        as_printed: bool,
        card_points: list[int],
        fixed: list[int],
        target: int,
        max_turns: int,
        fresh: bool = True,
    ) -> None:
        """A game before the first dealer is chosen; ``card_points`` by ``rank - 2``,
        ``fixed`` the points by place for ``players``, ``target`` 0 for one hand
        (``fresh=False``: the state is left unset, for :meth:`copy` to fill)."""
        super().__init__(players)
        order = [99] * 15  # 2 and 10 stand above every reference (always playable)
        for rank in (3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14):
            order[rank] = rank
        if as_printed:
            order[12] = 13
            order[13] = 12
        self.order = order
        ordinary = [3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14]
        if as_printed:
            ordinary = [3, 4, 5, 6, 7, 8, 9, 11, 13, 12, 14]
        self.play_ranks = ordinary + [2, 10]
        # per reference rank: where its playable ranks begin in play_ranks
        self.start = [0] * 15
        for i in range(len(ordinary)):
            self.start[ordinary[i]] = i
        self.card_points = card_points[:]
        self.fixed = fixed[:]
        self.target = target
        self.max_turns = max_turns
        self.eager_seats = 0
        if fresh:
            self._fresh()

    def _fresh(self) -> None:
        players = self.players
        self.phase = P_FIRST_DEALER
        self.hand_number = 0
        self.dealer = -1
        self.to_act = -1
        self.pending = NO_CHOICE
        self.turns = 0
        self.deck = [c for c in range(2, 54)]
        self.jokers = [RED, BLACK]
        self.pack_b = [c for c in range(2, 54)]
        self.hand = [0] * (players * SLOTS)
        self.hand_n = [0] * players
        self.known = [0] * (players * SLOTS)
        self.up = [0] * (players * SLOTS)
        self.up_n = [0] * players
        self.down = [0] * (players * DOWN_SLOTS)
        self.down_n = [0] * players
        self.pile = []
        self.reference = 0
        self.main = []
        self.main_pos = 0
        self.main_known = 0
        self.reserve = []
        self.reserve_pos = 0
        self.removed = []
        self.places = []
        self.revealed = False
        self.totals = [0] * players
        self.hand_points = [0] * players
        self.won = []

    # ------------------------------------------------------------ the contract

    def actor(self) -> int:
        """The seat to act, CHANCE while dealing, OVER once over."""
        phase = self.phase
        if phase == P_PLAY:
            return self.to_act
        if phase == P_OVER:
            return OVER
        return CHANCE

    def legal(self) -> list[int]:
        """The legal action ids in the reference order."""
        seat = self.to_act
        out: list[int] = []
        pending = self.pending
        if pending == CHOICE_DUMP:
            out.append(DUMP)
            out.append(KEEP)
            return out
        base = seat * SLOTS
        if pending == CHOICE_REMOVE:
            if self.up_n[seat] > 0:
                for card in range(2, 54):
                    r = (card - 2) % 13 + 2
                    if _digit(self.up[base + r], (card - 2) // 13) > 0:
                        out.append(REMOVE_UP + card - 2)
            for i in range(self.down_n[seat]):
                out.append(REMOVE_DOWN + i)
            out.append(DECLINE)
            return out
        main_empty = self.main_pos == len(self.main)
        hand = self.hand
        up = self.up
        ranks = self.play_ranks
        empty_bit = 1 if main_empty else 0
        combos = _COMBOS
        for i in range(self.start[self.reference], 13):
            rank = ranks[i]
            hc = hand[base + rank]
            if hc == 0 and not main_empty:
                continue
            uc = up[base + rank]
            if hc == 0 and uc == 0:
                continue
            found = combos[rank * 13122 + hc * 162 + uc * 2 + empty_bit]
            if len(found) == 0:
                found = _combos(rank, hc, uc, main_empty)
            out.extend(found)
        hand_n = self.hand_n[seat]
        down_n = self.down_n[seat]
        if hand_n == 0:
            for i in range(down_n):
                out.append(BLIND + i)
            if down_n == 0 and not main_empty:
                out.append(DRAW)
        elif not main_empty or self.reserve_pos < len(self.reserve):
            out.append(DRAW)
        if len(self.pile) > 0:
            out.append(TAKE)
        if len(out) == 0:
            out.append(PASS)
        return out

    def apply(self, action: int) -> None:
        """Play the legal action id ``action`` for the seat to act."""
        seat = self.to_act
        if self.pending != NO_CHOICE:
            self._choice(seat, action)
        elif action < PLAYS:
            self._play(seat, action)
        elif action < DRAW:
            self._blind(seat, action - BLIND)
        elif action == DRAW:
            self._draw(seat)
        elif action == TAKE:
            self._take(seat)
            self._finish(seat, True)
        else:  # PASS
            self._finish(seat, True)

    def chance_is_pick(self) -> bool:
        """Only the first dealer is a pick."""
        return self.phase == P_FIRST_DEALER

    def chance_size(self) -> int:
        """Seats for the pick; the cards of the pending shuffle."""
        phase = self.phase
        if phase == P_FIRST_DEALER:
            return self.players
        if phase == P_DEAL or phase == P_NEXT_HAND:
            return 52
        if phase == P_DEAL_FACE_DOWN:
            return len(self.deck) + len(self.jokers)
        return len(self.pack_b)

    def chance_pick(self, index: int) -> None:
        """The first dealer."""
        self.dealer = index
        self.phase = P_DEAL

    def guard_ended(self) -> bool:
        """Once over: the hand that ended the game was stopped by the ``max_turns`` guard
        (``cardkit.games.guards``). A hand ends by its rules only when at most one seat
        still holds cards (two players: when one is out), so a finished game with two or
        more seats still holding cards ended at the guard."""
        if self.phase != P_OVER:
            return False
        holding = 0
        for seat in range(self.players):
            if self.held(seat) > 0:
                holding += 1
        return holding >= 2

    def chance_cards(self) -> list[int]:
        """The cards of the pending shuffle, in the reference ``ShuffleSpec`` order."""
        phase = self.phase
        if phase == P_DEAL or phase == P_NEXT_HAND:
            return [c for c in range(2, 54)]
        if phase == P_DEAL_FACE_DOWN:
            cards = self.jokers + self.deck
            cards.sort()
            return cards
        return self.pack_b[:]

    def chance_shuffle(self, order: list[int]) -> None:
        """Answer the pending shuffle (card ints, top first)."""
        phase = self.phase
        if phase == P_DEAL or phase == P_NEXT_HAND:
            self._deal_hands(order)
        elif phase == P_DEAL_FACE_DOWN:
            self._deal_face_down(order)
        else:
            self.reserve = order[:]
            self.reserve_pos = 0
            self.pack_b = []
            self.phase = P_PLAY
            self.to_act = (self.dealer + 1) % self.players

    def chance_random(self, rng: KRng) -> None:
        """A uniform pick, or a uniform order of the pending cards."""
        if self.phase == P_FIRST_DEALER:
            self.chance_pick(rng.below(self.players))
            return
        cards = self.chance_cards()
        rng.shuffle(cards)
        self.chance_shuffle(cards)

    def copy(self) -> SpaccUMazzKernel:
        """An independent copy."""
        k = SpaccUMazzKernel(
            self.players, self.order[12] == 13, self.card_points, self.fixed, self.target,
            self.max_turns, False,
        )
        k.phase = self.phase
        k.hand_number = self.hand_number
        k.dealer = self.dealer
        k.to_act = self.to_act
        k.pending = self.pending
        k.turns = self.turns
        k.deck = self.deck[:]
        k.jokers = self.jokers[:]
        k.pack_b = self.pack_b[:]
        k.hand = self.hand[:]
        k.hand_n = self.hand_n[:]
        k.known = self.known[:]
        k.up = self.up[:]
        k.up_n = self.up_n[:]
        k.down = self.down[:]
        k.down_n = self.down_n[:]
        k.pile = self.pile[:]
        k.reference = self.reference
        k.main = self.main[:]
        k.main_pos = self.main_pos
        k.main_known = self.main_known
        k.reserve = self.reserve[:]
        k.reserve_pos = self.reserve_pos
        k.removed = self.removed[:]
        k.places = self.places[:]
        k.revealed = self.revealed
        k.totals = self.totals[:]
        k.hand_points = self.hand_points[:]
        k.won = self.won[:]
        k.eager_seats = self.eager_seats
        return k

    def snapshot(self) -> list[int]:
        """Every field as ints (lists prefixed by their length; stocks from their top)."""
        out = [
            self.phase, self.hand_number, self.dealer, self.to_act, self.pending, self.turns,
            self.reference, self.main_known, 1 if self.revealed else 0,
        ]  # fmt: skip
        n = self.players
        for seat in range(n):
            out.append(self.hand_n[seat])
            out.append(self.up_n[seat])
            out.append(self.down_n[seat])
            for i in range(self.down_n[seat]):
                out.append(self.down[seat * DOWN_SLOTS + i])
        out.extend(self.hand)
        out.extend(self.known)
        out.extend(self.up)
        for part in (self.deck, self.jokers, self.pack_b, self.pile, self.removed, self.places, self.won):
            out.append(len(part))
            out.extend(part)
        out.append(len(self.main) - self.main_pos)
        out.extend(self.main[self.main_pos :])
        out.append(len(self.reserve) - self.reserve_pos)
        out.extend(self.reserve[self.reserve_pos :])
        out.extend(self.totals)
        out.extend(self.hand_points)
        return out

    def scores(self) -> list[int]:
        """The match totals."""
        return self.totals[:]

    def winners(self) -> list[int]:
        """The winners once over, else ``[]``."""
        return self.won[:]

    def held(self, seat: int) -> int:
        """Cards in hand, face up and face down."""
        return self.hand_n[seat] + self.up_n[seat] + self.down_n[seat]

    def cutoff_values(self) -> list[float]:
        """Rank shares by cards still held (the reference ``fewest_cards``)."""
        return fewest_cards_values(self)

    def rule_action(self) -> int:
        """``RuleBot``: dump a hand to a red joker, remove the first face-down card (else the
        lowest face-up one); else all cards of the lowest playable ordinary rank; else draw
        rather than spend a 2 or 10; else a single 2 before a 10; else draw, blind 1, take,
        pass."""
        return self._strategy(False)

    def eager_action(self) -> int:
        """``EagerShedderBot`` (``cardkit.bots.search_spacc_u_mazz``): :meth:`rule_action`,
        but a single 2 (before a 10) is played where the rule strategy would draw to keep it."""
        return self._strategy(True)

    def policy_action(self, rng: KRng, epsilon: float) -> int:
        """The base playout policy, with the seats of the bit mask :attr:`eager_seats`
        playing :meth:`eager_action` in place of :meth:`rule_action` (the same rng draws)."""
        legal = self.legal()
        n = len(legal)
        if n == 1:
            return legal[0]
        if rng.random() < epsilon:
            return legal[rng.below(n)]
        return self._strategy((self.eager_seats >> self.to_act) & 1 == 1)

    def _strategy(self, eager: bool) -> int:
        seat = self.to_act
        base = seat * SLOTS
        pending = self.pending
        if pending == CHOICE_DUMP:
            return DUMP
        if pending == CHOICE_REMOVE:
            if self.down_n[seat] > 0:
                return REMOVE_DOWN
            best = -1
            best_key = 100
            if self.up_n[seat] > 0:
                for card in range(2, 54):
                    r = (card - 2) % 13 + 2
                    if _digit(self.up[base + r], (card - 2) // 13) > 0:
                        key = self.order[r]
                        if key < best_key:
                            best = card
                            best_key = key
            if best >= 0:
                return REMOVE_UP + best - 2
            return DECLINE
        main_empty = self.main_pos == len(self.main)
        hand = self.hand
        up = self.up
        ranks = self.play_ranks
        for i in range(self.start[self.reference], 11):
            rank = ranks[i]
            hc = hand[base + rank]
            uc = up[base + rank]
            if hc == 0 and (uc == 0 or not main_empty):
                continue
            return (rank - 2) * PER_RANK + HAND_POS[hc] * 31 + UP_POS[uc] - 1
        hand_n = self.hand_n[seat]
        down_n = self.down_n[seat]
        can_draw = (hand_n > 0 and (not main_empty or self.reserve_pos < len(self.reserve))) or (
            hand_n == 0 and down_n == 0 and not main_empty
        )
        for rank in (2, 10):
            hc = hand[base + rank]
            uc = up[base + rank]
            if hc == 0 and (uc == 0 or not main_empty):
                continue
            if can_draw and not eager:
                return DRAW
            first = (rank - 2) * PER_RANK
            if main_empty and uc != 0:  # a face-up card alone sorts first
                for suit in range(4):
                    if _digit(uc, suit) > 0:
                        return first + UP_POS[POW3[suit]] - 1
            for suit in range(4):
                if _digit(hc, suit) > 0:
                    return first + HAND_POS[POW3[suit]] * 31 - 1
        if can_draw:
            return DRAW
        if hand_n == 0 and down_n > 0:
            return BLIND
        if len(self.pile) > 0:
            return TAKE
        return PASS

    def set_zone(self, zone: int, owner: int, cards: list[int]) -> None:
        """Replace a concealed zone as ``with_zones`` does: a hand's private part (its
        known part stays), face-down cards, the main stock's concealed part, the reserve,
        the undealt packs."""
        if zone == Z_HAND:
            base = owner * SLOTS
            count = 0
            for r in range(2, 15):
                k = self.known[base + r]
                self.hand[base + r] = k
                count += TOTAL[k]
            for card in cards:
                self.hand[base + (card - 2) % 13 + 2] += POW3[(card - 2) // 13]
            self.hand_n[owner] = count + len(cards)
        elif zone == Z_FACE_DOWN:
            for i in range(len(cards)):
                self.down[owner * DOWN_SLOTS + i] = cards[i]
            self.down_n[owner] = len(cards)
        elif zone == Z_MAIN or zone == Z_MAIN_BURIED:
            rest = self.main[self.main_pos :]
            buried = self.main_known if self.main_known < len(rest) else len(rest)
            split = len(rest) - buried
            if zone == Z_MAIN:
                self.main = cards + rest[split:]
            else:
                self.main = rest[:split] + cards
            self.main_pos = 0
        elif zone == Z_RESERVE:
            self.reserve = cards[:]
            self.reserve_pos = 0
        elif zone == Z_DECK:
            self.deck = cards[:]
        elif zone == Z_PACK_B:
            self.pack_b = cards[:]
        else:
            raise ValueError(f"zone {zone} is public: set_zone does not write it")

    # ------------------------------------------------------------ dealing

    def _deal_hands(self, order: list[int]) -> None:
        """Rule 3 (HandStarted, HandDealt, FaceUpDealt): a fresh hand."""
        n = self.players
        if self.phase == P_NEXT_HAND:
            self.dealer = (self.dealer + 1) % n
        dealer = self.dealer
        self.hand_number += 1
        self.phase = P_DEAL_FACE_DOWN
        self.to_act = -1
        self.pending = NO_CHOICE
        self.turns = 0
        self.jokers = [RED, BLACK]
        self.pack_b = [c for c in range(2, 54)]
        for i in range(n * SLOTS):
            self.hand[i] = 0
            self.known[i] = 0
            self.up[i] = 0
        for seat in range(n):
            self.hand_n[seat] = HAND_SIZE
            self.up_n[seat] = UP_SIZE
            self.down_n[seat] = 0
        dealt = [False] * 54
        for i in range(n * HAND_SIZE):
            card = order[i]
            seat = (dealer + 1 + i) % n
            self.hand[seat * SLOTS + (card - 2) % 13 + 2] += POW3[(card - 2) // 13]
            dealt[card] = True
        first_up = n * HAND_SIZE
        for i in range(n * UP_SIZE):
            card = order[first_up + i]
            seat = (dealer + 1 + i) % n
            self.up[seat * SLOTS + (card - 2) % 13 + 2] += POW3[(card - 2) // 13]
            dealt[card] = True
        self.deck = [c for c in range(2, 54) if not dealt[c]]
        self.pile = []
        self.reference = 0
        self.main = []
        self.main_pos = 0
        self.main_known = 0
        self.reserve = []
        self.reserve_pos = 0
        self.removed = []
        self.places = []
        self.revealed = False
        self.won = []

    def _deal_face_down(self, order: list[int]) -> None:
        """Rules 4-5: face-down cards, buried starters, the starting card, the main stock."""
        n = self.players
        dealer = self.dealer
        for i in range(n * DOWN_SIZE):
            seat = (dealer + 1 + i) % n
            self.down[seat * DOWN_SLOTS + self.down_n[seat]] = order[i]
            self.down_n[seat] += 1
        head = n * DOWN_SIZE
        buried: list[int] = []
        while order[head] < 2 or (order[head] - 2) % 13 == 8:  # a joker or a 10
            buried.append(order[head])
            head += 1
        starter = order[head]
        rank = (starter - 2) % 13 + 2
        self.pile = [starter]
        self.reference = 0 if rank == 2 else rank
        self.main = order[head + 1 :] + buried
        self.main_pos = 0
        self.main_known = len(buried)
        self.deck = []
        self.jokers = []
        self.phase = P_DEAL_RESERVE

    # ------------------------------------------------------------ turns

    def _add_hand(self, seat: int, card: int, known: bool) -> None:
        slot = seat * SLOTS + RANK_OF[card]
        step = STEP_OF[card]
        self.hand[slot] += step
        self.hand_n[seat] += 1
        if known:
            self.known[slot] += step

    def _playable(self, rank: int) -> bool:
        ref = self.reference
        return ref == 0 or self.order[rank] >= self.order[ref]

    def _burn(self) -> None:
        """A 10 (rule 21): the pile leaves the game."""
        self.removed.extend(self.pile)
        self.pile = []
        self.reference = 0

    def _play(self, seat: int, action: int) -> None:
        """Rules 10-11, 21 (CardsPlayed, PileBurned)."""
        rank = action // PER_RANK + 2
        off = action % PER_RANK + 1
        hc = HAND_CODES[off // 31]
        uc = UP_CODES[off % 31]
        slot = seat * SLOTS + rank
        pile = self.pile
        if hc != 0:
            self.hand[slot] -= hc
            self.hand_n[seat] -= TOTAL[hc]
            kc = self.known[slot]
            if kc != 0:  # played copies of known cards leave the known part first
                self.known[slot] = KNOWN_LEFT[kc * 81 + hc]
            for suit in CODE_SUITS[hc]:
                pile.append(rank + 13 * suit)
        if uc != 0:
            self.up[slot] -= uc
            self.up_n[seat] -= TOTAL[uc]
            for suit in CODE_SUITS[uc]:
                pile.append(rank + 13 * suit)
        if rank == 10:
            self._burn()
        else:
            self.reference = 0 if rank == 2 else rank
        self._finish(seat, self.hand_n[seat] + self.up_n[seat] + self.down_n[seat] > 0)

    def _take(self, seat: int) -> None:
        """PileTaken: the pile goes into the hand, seen by everyone."""
        hand = self.hand
        known = self.known
        base = seat * SLOTS
        for card in self.pile:
            slot = base + RANK_OF[card]
            step = STEP_OF[card]
            hand[slot] += step
            known[slot] += step
        self.hand_n[seat] += len(self.pile)
        self.pile = []
        self.reference = 0

    def _draw(self, seat: int) -> None:
        """Rule 13 and the penalty draw of rules 19-20; a joker acts at once."""
        card = -1
        if self.main_pos < len(self.main):
            card = self.main[self.main_pos]
            left = len(self.main) - self.main_pos
            buried = left <= self.main_known
            self.main_pos += 1
            if self.main_known > left - 1:
                self.main_known = left - 1
            if card >= 2:
                self._add_hand(seat, card, buried)  # a buried starter was seen by all
        elif self.reserve_pos < len(self.reserve):
            card = self.reserve[self.reserve_pos]
            self.reserve_pos += 1
            if card >= 2:
                self._add_hand(seat, card, False)
        else:  # a penalty draw with both stocks empty is waived
            self._finish(seat, self.held(seat) > 0)
            return
        if card >= 2:
            self._finish(seat, True)
            return
        self.removed.append(card)
        if card == RED:
            if self.hand_n[seat] > 0:
                self.pending = CHOICE_DUMP
            elif self.up_n[seat] > 0 or self.down_n[seat] > 0:
                self.pending = CHOICE_REMOVE
            else:
                self._finish(seat, False)
            return
        self._black_joker(seat)

    def _black_joker(self, seat: int) -> None:
        """Rules 19-20: take the pile, or draw a penalty card from an empty pile."""
        if len(self.pile) > 0:
            self._take(seat)
            self._finish(seat, True)
        else:
            self._draw(seat)

    def _blind(self, seat: int, index: int) -> None:
        """Rule 12 (BlindPlayed / BlindFailed / JokerRevealed); ``index`` from 0."""
        base = seat * DOWN_SLOTS
        card = self.down[base + index]
        n_down = self.down_n[seat] - 1
        for i in range(index, n_down):
            self.down[base + i] = self.down[base + i + 1]
        self.down[base + n_down] = 0
        self.down_n[seat] = n_down
        if card < 2:
            self.removed.append(card)
            if card == BLACK:
                self._black_joker(seat)
            elif n_down > 0 or self.up_n[seat] > 0:
                self.pending = CHOICE_REMOVE
            else:
                self._finish(seat, False)
            return
        rank = (card - 2) % 13 + 2
        if self._playable(rank):
            self.pile.append(card)
            if rank == 10:
                self._burn()
            else:
                self.reference = 0 if rank == 2 else rank
            self._finish(seat, n_down > 0 or self.up_n[seat] > 0)
            return
        self._add_hand(seat, card, True)
        self._take(seat)
        self._finish(seat, True)

    def _choice(self, seat: int, action: int) -> None:
        """The red joker's decision (rules 19-20)."""
        if action == DUMP:
            base = seat * SLOTS
            low = 0
            for suit in range(4):
                for rank in range(2, 15):
                    for _ in range(_digit(self.hand[base + rank], suit)):
                        self.pile.append(2 + 13 * suit + rank - 2)
            for rank in self.play_ranks:
                if rank != 2 and rank != 10 and self.hand[base + rank] != 0:
                    low = rank
                    break
            for rank in range(2, 15):
                self.hand[base + rank] = 0
                self.known[base + rank] = 0
            self.hand_n[seat] = 0
            self.reference = low
            self._finish(seat, self.up_n[seat] + self.down_n[seat] > 0)
        elif action == KEEP or action == DECLINE:
            self._finish(seat, True)
        elif action < REMOVE_DOWN:
            card = action - REMOVE_UP + 2
            self.up[seat * SLOTS + (card - 2) % 13 + 2] -= POW3[(card - 2) // 13]
            self.up_n[seat] -= 1
            self.removed.append(card)
            self._finish(seat, self.held(seat) > 0)
        else:
            index = action - REMOVE_DOWN
            base = seat * DOWN_SLOTS
            card = self.down[base + index]
            n_down = self.down_n[seat] - 1
            for i in range(index, n_down):
                self.down[base + i] = self.down[base + i + 1]
            self.down[base + n_down] = 0
            self.down_n[seat] = n_down
            self.removed.append(card)
            self._finish(seat, self.held(seat) > 0)

    def _finish(self, seat: int, has_cards: bool) -> None:
        """Rules 16, 22-23: out, the end of the hand, the guard, or the next seat."""
        n = self.players
        places = self.places
        if not has_cards:
            places.append(seat)
        out = len(places)
        if (n == 2 and out > 0) or n - out <= 1:
            self._end_hand(False)
            return
        if self.turns + 1 >= self.max_turns:
            self._end_hand(True)
            return
        nxt = (seat + 1) % n
        if out > 0:
            while nxt in places:
                nxt = (nxt + 1) % n
        self.to_act = nxt
        self.pending = NO_CHOICE
        self.turns += 1

    def _holding_points(self, seat: int) -> int:
        """Rule 25: the variable points of the seat's hand, face-up and face-down cards."""
        counts = [0] * 15
        base = seat * SLOTS
        for rank in range(2, 15):
            counts[rank] = TOTAL[self.hand[base + rank]] + TOTAL[self.up[base + rank]]
        for i in range(self.down_n[seat]):
            card = self.down[seat * DOWN_SLOTS + i]
            if card >= 2:
                counts[(card - 2) % 13 + 2] += 1
        total = 0
        for rank in range(2, 15):
            c = counts[rank]
            if c > 0:
                points = self.card_points[rank - 2]
                total += points * 2 if c >= 4 else points
        return total

    def _end_hand(self, guard: bool) -> None:
        """Rules 22-28 (HandEnded, HandScored, GameEnded)."""
        n = self.players
        places = self.places
        keyed: list[int] = []
        first = (self.dealer + 1) % n
        for seat in range(n):
            if seat in places:
                continue
            if guard:  # placed by points held, then cards held, then from the first seat
                rel = (seat - first) % n
                keyed.append(((self._holding_points(seat) * 1000 + self.held(seat)) * 10 + rel) * 10 + seat)
            else:
                keyed.append(seat)
        if guard:
            keyed.sort()
            for key in keyed:
                places.append(key % 10)
        else:
            places.extend(keyed)
        self.revealed = True
        self.pending = NO_CHOICE
        self.turns += 1
        points = [0] * n
        for i in range(n):
            points[places[i]] = self.fixed[i]
        points[places[0]] += self._holding_points(places[n - 1])
        best = 0
        for seat in range(n):
            self.totals[seat] += points[seat]
            if self.totals[seat] > best:
                best = self.totals[seat]
        self.hand_points = points
        self.phase = P_NEXT_HAND
        if self.target == 0:
            self.won = [places[0]]
            self.phase = P_OVER
        elif best >= self.target:
            self.won = [s for s in range(n) if self.totals[s] == best]
            self.phase = P_OVER



def random_playout(kernel: SpaccUMazzKernel, rng: KRng) -> int:
    """Play ``kernel`` to the end with uniformly random legal actions and ``rng`` for
    chance (the benchmark's whole-game playout, its loop compiled with the kernel);
    returns the player actions played."""
    actions = 0
    while True:
        actor = kernel.actor()
        if actor == OVER:
            return actions
        if actor == CHANCE:
            kernel.chance_random(rng)
        else:
            legal = kernel.legal()
            kernel.apply(legal[rng.below(len(legal))])
            actions += 1
