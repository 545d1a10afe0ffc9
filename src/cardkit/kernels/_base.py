"""The shape every game kernel shares, and the kernels' own random numbers.

Compiled with mypyc when a C compiler is present (see :mod:`cardkit.kernels`), so this
module is *restricted* typed Python: ints, floats, bools, ``list[int]``, plain classes
with annotated attributes; no attrs, no dataclasses, no imports from the rest of
cardkit. A kernel is an accelerator, never the source of truth: the game's reference
reducer (``rules.decide``/``evolve``) decides what is legal, and each kernel is proved
equal to it step by step (tests/kernels).

The contract, for a kernel ``k`` of a game:

* ``k.actor()``: the seat to act, :data:`CHANCE` at a chance node, :data:`OVER` once the
  game is over (the reference ``to_act``, with ``None`` spelled :data:`OVER`);
* ``k.legal()``: the legal *action ids* of the seat to act, in the order of the reference
  ``rules.legal_actions(state)``; an action id is the action's index in the game's fixed
  action index ``rules.action_space(config)`` (the index ``cardkit.rl`` uses);
* ``k.apply(action_id)``: play a legal action of the seat to act, in place (unchecked:
  the caller only passes ids from ``legal()``);
* at a chance node: ``k.chance_is_pick()`` says whether the reference asks for a
  ``Pick`` (``k.chance_size()`` outcomes) or a ``Shuffle`` (of ``k.chance_size()``
  cards); ``k.chance_pick(index)`` / ``k.chance_shuffle(order)`` answer it exactly as the
  reference ``Pick(index)`` / ``Shuffle(order)`` would (``order`` as card ints, top of
  the stock first); ``k.chance_random(rng)`` answers it with the kernel's own rng;
  ``k.chance_cards()`` lists the cards of a pending shuffle as card ints in the order of
  the reference ``ShuffleSpec.cards``, so that a driver can draw exactly the outcome
  ``Game`` draws from a seed (``cardkit simulate`` and the arena play whole games this way);
* ``k.copy()``: an independent copy; ``k.snapshot()``: the whole state as a flat list
  of ints (two kernels are equal when their snapshots are);
* ``k.scores()``: the reference ``rules.scores(state)``; ``k.winners()``: the reference
  ``rules.result(state).winners`` once over, else ``[]``; ``k.guard_ended()``: once over,
  whether an end guard of the config stopped the game (``cardkit.games.guards``);
* ``k.rule_action()``: exactly what ``RuleBot`` plays for the seat to act (it may read
  only what that seat knows);
* ``k.set_zone(zone, owner, cards)``: replace the cards of one concealed zone, rebuilding
  whatever depends on them, as the game's ``with_zones`` hook does (the search's
  determinizations); the zone codes are the kernel's own, named by its bridge;
* ``k.solvable()``: the rest of the hand is card play alone (a trick-taking kernel
  answers True while tricks are played; the base answers False), which lets
  :mod:`cardkit.kernels.trick_solver` solve its last tricks exactly;
* payoffs for a search, each in [0, 1] per seat: ``final_values()`` once over,
  ``hand_values()`` after a scored hand of a game that goes on, ``cutoff_values()`` for
  a playout cut off by its step limit.
"""

from __future__ import annotations

from typing import Final

CHANCE: Final = -1
"""``actor()`` at a pending chance node (the reference ``CHANCE``)."""

OVER: Final = -2
"""``actor()`` once the game is over (the reference ``to_act`` is ``None``)."""

_MASK: Final = 0xFFFFFFFF


class KRng:
    """A small, fast, seedable generator (xorshift32) for the kernels' own random choices.

    Not ``random.Random``: a kernel makes millions of draws per second and a call into the
    interpreter per draw would cost more than the rules. Seed it from the bot's rng
    (``KRng(rng.getrandbits(32))``) so that a search stays deterministic for a given rng.
    Its values stay below 2**32, so mypyc keeps them as machine integers.
    """

    state: int

    def __init__(self, seed: int) -> None:
        # Scramble the seed (murmur3's finalizer): nearby seeds would otherwise start alike.
        h = (seed ^ (seed >> 32)) & _MASK
        h ^= h >> 16
        h = (h * 0x85EBCA6B) & _MASK
        h ^= h >> 13
        h = (h * 0xC2B2AE35) & _MASK
        h ^= h >> 16
        self.state = h if h != 0 else 0x9E3779B9

    def next(self) -> int:
        """The next 32-bit value."""
        x = self.state
        x ^= (x << 13) & _MASK
        x ^= x >> 17
        x ^= (x << 5) & _MASK
        self.state = x
        return x

    def below(self, n: int) -> int:
        """A value in ``0..n-1`` (``n`` ≥ 1; the bias is below n / 2**32)."""
        return (self.next() * n) >> 32

    def random(self) -> float:
        """A float in [0, 1)."""
        return self.next() / 4294967296.0

    def shuffle(self, items: list[int]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates)."""
        i = len(items) - 1
        while i > 0:
            j = self.below(i + 1)
            t = items[i]
            items[i] = items[j]
            items[j] = t
            i -= 1


class Kernel:
    """Base class of the game kernels (see the module docs for the contract).

    Subclasses override every method that raises here. The payoff methods have generic
    defaults that a game may override (Crazy Eights and Spacc 'u Mazz judge a cut-off
    playout by the cards still held; Wizard judges a finished round by the lead).
    """

    players: int

    def __init__(self, players: int) -> None:
        self.players = players

    def actor(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`OVER`."""
        raise NotImplementedError

    def legal(self) -> list[int]:
        """The legal action ids, in the reference order."""
        raise NotImplementedError

    def apply(self, action: int) -> None:
        """Play the legal action id ``action`` for the seat to act."""
        raise NotImplementedError

    def chance_is_pick(self) -> bool:
        """At a chance node: True for a pick, False for a shuffle."""
        raise NotImplementedError

    def chance_size(self) -> int:
        """At a chance node: the outcomes of a pick, or the cards of a shuffle."""
        raise NotImplementedError

    def chance_pick(self, index: int) -> None:
        """Answer a pending pick with ``index``."""
        raise NotImplementedError

    def chance_shuffle(self, order: list[int]) -> None:
        """Answer a pending shuffle with ``order`` (card ints, top first)."""
        raise NotImplementedError

    def chance_cards(self) -> list[int]:
        """At a pending shuffle: its cards as card ints, in the reference spec's order."""
        raise NotImplementedError

    def chance_random(self, rng: KRng) -> None:
        """Answer the pending chance node with ``rng``."""
        raise NotImplementedError

    def copy(self) -> Kernel:
        """An independent copy."""
        raise NotImplementedError

    def snapshot(self) -> list[int]:
        """The whole state as a flat list of ints (equal kernels, equal snapshots)."""
        raise NotImplementedError

    def scores(self) -> list[int]:
        """The reference ``rules.scores(state)``."""
        raise NotImplementedError

    def winners(self) -> list[int]:
        """The winners once the game is over (ascending), else ``[]``."""
        raise NotImplementedError

    def guard_ended(self) -> bool:
        """Once over: whether an end guard of the config (``max_turns``, ``max_hands`` …)
        stopped the game rather than its rules (``cardkit.games.guards.ended_by_guard``)."""
        raise NotImplementedError

    def rule_action(self) -> int:
        """What ``RuleBot`` plays for the seat to act (an action id)."""
        raise NotImplementedError

    def set_zone(self, zone: int, owner: int, cards: list[int]) -> None:
        """Replace the cards of one concealed zone (see the module docs)."""
        raise NotImplementedError

    def solvable(self) -> bool:
        """Whether the rest of the current hand is card play alone (no chance, no bid, no
        choice of trump), so that :func:`cardkit.kernels.trick_solver.solve` can play it
        out exactly on a determinization. The base says False (never solved)."""
        return False

    def held(self, seat: int) -> int:
        """Cards ``seat`` still has to get rid of (hand and any face-up/down cards)."""
        raise NotImplementedError

    def policy_action(self, rng: KRng, epsilon: float) -> int:
        """The playout policy: the only legal action, else with probability ``epsilon``
        a uniformly random legal one, else :meth:`rule_action` (the reference
        ``cardkit.bots.playout.rule_policy``)."""
        legal = self.legal()
        n = len(legal)
        if n == 1:
            return legal[0]
        if rng.random() < epsilon:
            return legal[rng.below(n)]
        return self.rule_action()

    def final_values(self) -> list[float]:
        """Payoffs once over: 1 shared among the winners."""
        out = [0.0] * self.players
        won = self.winners()
        if len(won) > 0:
            share = 1.0 / len(won)
            for seat in won:
                out[seat] = share
        return out

    def score_values(self) -> list[float]:
        """Half the seat's rank share and half its place between the lowest and the
        highest score (the reference ``cardkit.bots.ismcts.payoffs`` before the end)."""
        return rank_and_spread([float(s) for s in self.scores()])

    def hand_values(self) -> list[float]:
        """Payoffs after a scored hand of a game that goes on (default: :meth:`score_values`)."""
        return self.score_values()

    def cutoff_values(self) -> list[float]:
        """Payoffs of a playout cut off by its step limit (default: :meth:`score_values`)."""
        return self.score_values()


def rank_share(values: list[float]) -> list[float]:
    """Each value's rank among ``values`` in [0, 1], ties sharing (higher is better)."""
    n = len(values)
    out: list[float] = []
    for v in values:
        below = 0
        ties = 0
        for w in values:
            if w < v:
                below += 1
            elif w == v:
                ties += 1
        out.append((below + (ties - 1) / 2.0) / (n - 1) if n > 1 else 1.0)
    return out


def rank_and_spread(values: list[float]) -> list[float]:
    """Half :func:`rank_share` and half the place between the lowest and highest value."""
    ranks = rank_share(values)
    low = min(values)
    high = max(values)
    span = high - low
    out: list[float] = []
    for i in range(len(values)):
        spread = (values[i] - low) / span if span != 0 else 0.5
        out.append(0.5 * ranks[i] + 0.5 * spread)
    return out


def fewest_cards_values(kernel: Kernel) -> list[float]:
    """Rank shares by cards still held, fewer is better (the reference
    ``cardkit.bots.playout.fewest_cards``)."""
    return rank_share([-float(kernel.held(seat)) for seat in range(kernel.players)])
