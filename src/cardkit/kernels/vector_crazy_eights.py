"""Many Crazy Eights kernels stepped together, with an incremental observation encoder.

Restricted typed Python like every kernel module (see :mod:`cardkit.kernels._base`), so
that with the compiled build a whole batch step (the actions, chance, the end of an
episode, the encoding of the next seat's observation and its action mask) runs in compiled
code, one Python call per batch. It backs ``cardkit.rl.vector.VectorEnv`` for Crazy Eights;
the layout of the observation is the AEC environment's (``cardkit.rl.encoding``), given
here as offsets by the Python side, and the tests hold the two encodings equal at every
step.

**Buffers.** The caller owns three ``array.array`` buffers that numpy views without a copy:
``obs`` (float32, ``envs × players × size``: the last observation encoded for each seat of
each sub-environment), ``mask`` (int8, ``envs × actions``: the legal actions of the seat to
act) and ``out`` (float32 rewards ``envs × players``). ``agent`` and ``flags`` (int32) hold
the seat to act and the termination (1) / truncation (2) of the last step.

**Incremental encoding.** An observation is rewritten only where it changed since that
seat's last observation: ``vals`` shadows every value of every buffer (as ints: every value
of this layout is an integer), and a value is stored into the buffer only when it differs.
What is looked at is narrowed by what can have changed: a hand's card plane is checked only
at the card values its last written plane had or its hand now has (the 52-bit masks of the
kernel), the discard pile's plane only at the cards pushed since (unless the pile was
rebuilt or dealt afresh: every chance node bumps the sub-environment's ``epoch``, and a new
epoch rewrites the plane), one-hot blocks clear their old position and set the new one.

**Chance and episodes** are the Python side's, through two callbacks: ``chance(i)`` answers
the pending chance node of kernel ``i`` (the same outcome :class:`~cardkit.Game` draws from
the episode's seed), ``restart(i)`` returns the kernel of a new episode of sub-environment
``i``, dealt and with a seat to act.
"""

from __future__ import annotations

from typing import Callable, Final, MutableSequence

from cardkit.kernels._base import CHANCE, OVER
from cardkit.kernels.crazy_eights import CrazyEightsKernel

__all__ = ["CrazyEightsVector", "LAYOUT_KEYS"]

# The buffers are array.array objects ("f", "b", "i"), typed by the protocol they meet:
# array[float] cannot be evaluated before Python 3.12 (the API reference evaluates it).
_Floats = MutableSequence[float]
_Ints = MutableSequence[int]

LAYOUT_KEYS: Final = (
    "size",
    "to_act",
    "stock",
    "discard",
    "hand",
    "dealer",
    "top_card",
    "active_suit",
    "pending_draw",
    "direction",
    "drawn",
    "hand_number",
    "scores",
    "hand_points",
    "target",
)
"""The order of the ``layout`` offsets: the vector's size, then the start of each block
(``hand`` is the start of the slot of relative seat 0; the next slots follow every 54)."""

_BIG: Final = 16777216  # cardkit.rl.encoding.BIG: the bound of scores
_WIDTH: Final = 54  # a zone slot: 52 card counts, the size, the visible flag
_HOTS: Final = 5  # one-hot blocks per view: to_act, dealer, top_card, active_suit, drawn


def _clip(v: int) -> int:
    if v > _BIG:
        return _BIG
    if v < -_BIG:
        return -_BIG
    return v


class CrazyEightsVector:
    """``envs`` Crazy Eights kernels of ``players`` seats, their buffers and shadows."""

    envs: int
    players: int
    actions: int
    size: int
    layout: list[int]
    score_mode: bool
    single: bool
    decks: int
    kernels: list[CrazyEightsKernel]
    obs: _Floats
    mask: _Ints
    out: _Floats
    agent: _Ints
    flags: _Ints
    vals: list[int]
    masks: list[int]
    epochs: list[int]
    seen_epoch: list[int]
    seen_dlen: list[int]
    hots: list[int]
    legal: list[list[int]]
    chance: Callable[[int], None]
    restart: Callable[[int], CrazyEightsKernel]

    def __init__(
        self,
        envs: int,
        players: int,
        actions: int,
        layout: list[int],
        score_mode: bool,
        single: bool,
        decks: int,
        obs: _Floats,
        mask: _Ints,
        out: _Floats,
        agent: _Ints,
        flags: _Ints,
        chance: Callable[[int], None],
        restart: Callable[[int], CrazyEightsKernel],
    ) -> None:
        self.envs = envs
        self.players = players
        self.actions = actions
        self.size = layout[0]
        self.layout = layout
        self.score_mode = score_mode
        self.single = single
        self.decks = decks
        self.kernels = []
        self.obs = obs
        self.mask = mask
        self.out = out
        self.agent = agent
        self.flags = flags
        views = envs * players
        self.vals = [0] * (views * layout[0])
        self.masks = [0] * (views * players)  # per view, per relative hand: plane's mask
        self.epochs = [0] * envs
        self.seen_epoch = [-1] * views
        self.seen_dlen = [0] * views
        self.hots = [-1] * (views * _HOTS)
        self.legal = [[] for _ in range(envs)]
        self.chance = chance
        self.restart = restart

    # ------------------------------------------------------------------ episodes

    def begin(self, i: int) -> None:
        """Start a new episode in sub-environment ``i`` and encode its first observation."""
        k = self.restart(i)
        self.epochs[i] += 1
        if i < len(self.kernels):
            self.kernels[i] = k
        else:
            self.kernels.append(k)
        self._settle(i, k)

    def _settle(self, i: int, k: CrazyEightsKernel) -> None:
        """Record the seat to act, encode its observation and write its action mask."""
        seat = k.to_act
        self.agent[i] = seat
        self.encode(i, seat)
        mask = self.mask
        base = i * self.actions
        for a in self.legal[i]:
            mask[base + a] = 0
        legal = k.legal()
        for a in legal:
            mask[base + a] = 1
        self.legal[i] = legal

    def first_illegal(self, actions: list[int]) -> int:
        """The first sub-environment whose action is not legal now, or -1."""
        i = 0
        while i < self.envs:
            a = actions[i]
            if a < 0 or a >= self.actions or self.mask[i * self.actions + a] == 0:
                return i
            i += 1
        return -1

    def step(self, actions: list[int]) -> int:
        """Play ``actions[i]`` (legal: see :meth:`first_illegal`) in every sub-environment,
        answer chance, end and restart finished episodes (their rewards into ``out`` and
        ``flags``), encode each next seat's observation; returns the episodes ended."""
        ended = 0
        n = self.players
        out = self.out
        flags = self.flags
        mask = self.mask
        i = 0
        while i < self.envs:
            k = self.kernels[i]
            k.apply(actions[i])
            while k.to_act == CHANCE:
                self.chance(i)
                self.epochs[i] += 1
            if k.to_act == OVER:
                ended += 1
                flags[i] = 2 if k.guard_ended() else 1
                base = i * n
                if self.score_mode:
                    scores = k.scores()
                    for s in range(n):
                        out[base + s] = float(scores[s])
                else:
                    won = k.winners()
                    if len(won) > 0 and len(won) < n:
                        for s in range(n):
                            out[base + s] = -1.0
                        for s in won:
                            out[base + s] = 1.0
                k = self.restart(i)
                self.epochs[i] += 1
                self.kernels[i] = k
            # _settle, inlined
            seat = k.to_act
            self.agent[i] = seat
            self.encode(i, seat)
            row = i * self.actions
            for a in self.legal[i]:
                mask[row + a] = 0
            legal = k.legal()
            for a in legal:
                mask[row + a] = 1
            self.legal[i] = legal
            i += 1
        return ended

    # ------------------------------------------------------------------ encoding

    def _put(self, at: int, v: int) -> None:
        if self.vals[at] != v:
            self.vals[at] = v
            self.obs[at] = float(v)

    def _hot(self, which: int, start: int, at: int) -> None:
        """A one-hot block: a 1 at ``start + at`` (none for ``at`` < 0), zeros elsewhere;
        ``hots[which]`` remembers where the 1 is (-1: nowhere), so only two values move."""
        old = self.hots[which]
        if old == at:
            return
        if old >= 0:
            self.vals[start + old] = 0
            self.obs[start + old] = 0.0
        if at >= 0:
            self.vals[start + at] = 1
            self.obs[start + at] = 1.0
        self.hots[which] = at

    def encode(self, i: int, seat: int) -> None:
        """Bring the observation of ``seat`` in sub-environment ``i`` up to date (in ``obs``
        at ``(i * players + seat) * size``).

        What changes only between hands (the dealer, the hand number, the scores, the
        target, whose hands are shown) is looked at only when the sub-environment's epoch
        moved since this view's last encoding: a hand ends in a chance node (the next deal)
        or in the end of the episode (a new one), and both move the epoch."""
        k = self.kernels[i]
        n = self.players
        lay = self.layout
        view = i * n + seat
        base = view * self.size
        vals = self.vals
        obs = self.obs
        to_act = k.to_act
        hot = view * _HOTS
        where = (to_act - seat) % n if to_act >= 0 else -1
        if self.hots[hot] != where:
            self._hot(hot, base + lay[1], where)
        # the stock: hidden from everyone, its size only
        at = base + lay[2] + 52
        v = k.slen
        if vals[at] != v:
            vals[at] = v
            obs[at] = float(v)
        epoch = self.epochs[i]
        fresh = self.seen_epoch[view] != epoch
        self.seen_epoch[view] = epoch
        # the discard pile: public; a new epoch (a deal, a rebuilt stock) rewrites its plane
        disc = base + lay[3]
        dlen = k.dlen
        start = self.seen_dlen[view]
        if fresh or start > dlen:
            counts = [0] * 52
            j = 0
            while j < dlen:
                counts[k.disc[j]] += 1
                j += 1
            c = 0
            while c < 52:
                v = counts[c]
                if vals[disc + c] != v:
                    vals[disc + c] = v
                    obs[disc + c] = float(v)
                c += 1
            self._put(disc + 53, 1)
        else:
            j = start
            while j < dlen:
                at = disc + k.disc[j]
                v = vals[at] + 1
                vals[at] = v
                obs[at] = float(v)
                j += 1
        self.seen_dlen[view] = dlen
        at = disc + 52
        if vals[at] != dlen:
            vals[at] = dlen
            obs[at] = float(dlen)
        # the hands, relative seats: the size always, the cards when visible (its own hand;
        # every hand once a scored hand is revealed)
        revealed = k.revealed
        single = self.decks == 1
        hand = base + lay[4]
        masks = self.masks
        counts = k.count
        hlen = k.hlen
        r = 0
        while r < n:
            owner = (seat + r) % n
            slot = hand + r * _WIDTH
            at = slot + 52
            v = hlen[owner]
            if vals[at] != v:
                vals[at] = v
                obs[at] = float(v)
            if r == 0 or fresh or revealed:
                shown = r == 0 or revealed
                if fresh or revealed:
                    self._put(slot + 53, 1 if shown else 0)
                m = view * n + r
                old = masks[m]
                if shown:
                    now = k.mask[owner]
                    # one pack: a value's count is its mask bit, so only the flipped bits
                    bits = old ^ now if single else old | now
                    row = owner * 52
                    while bits != 0:
                        low = bits & -bits
                        bits ^= low
                        c = low.bit_length() - 1
                        at = slot + c
                        v = counts[row + c]
                        if vals[at] != v:
                            vals[at] = v
                            obs[at] = float(v)
                    masks[m] = now
                elif old != 0:
                    bits = old
                    while bits != 0:
                        low = bits & -bits
                        bits ^= low
                        self._put(slot + low.bit_length() - 1, 0)
                    masks[m] = 0
            r += 1
        # the view fields (the one-hots of every step inlined: they are most of the calls)
        hots = self.hots
        top = k.disc[dlen - 1] if dlen > 0 else -1
        if hots[hot + 2] != top:
            self._hot(hot + 2, base + lay[6], top)
        if hots[hot + 3] != k.active:
            self._hot(hot + 3, base + lay[7], k.active)
        at = base + lay[8]
        v = k.pending
        if vals[at] != v:
            vals[at] = v
            obs[at] = float(v)
        at = base + lay[9]
        v = k.direction
        if vals[at] != v:
            vals[at] = v
            obs[at] = float(v)
        drawn = k.drawn if seat == to_act else -1
        if hots[hot + 4] != drawn:
            self._hot(hot + 4, base + lay[10], drawn)
        if fresh:
            dealer = k.dealer
            self._hot(hot + 1, base + lay[5], (dealer - seat) % n if dealer >= 0 else -1)
            self._put(base + lay[11], k.hand_number)
            scores = k.hand_points if self.single else k.score
            points = k.hand_points
            at = base + lay[12]
            pts = base + lay[13]
            r = 0
            while r < n:
                owner = (seat + r) % n
                self._put(at + r, _clip(scores[owner]))
                self._put(pts + r, _clip(points[owner]))
                r += 1
            self._put(base + lay[14], k.target)
