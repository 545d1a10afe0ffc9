"""Crazy Eights beliefs: what the other seats' draws, eights and plays say about their hands.

The rule strategy (:mod:`cardkit.bots.heuristics.crazy_eights`) is the model of the other
seats. Three kinds of its moves carry information, each checked as a necessary condition
on a determinization's hands (bit masks, so a check costs a few integer operations):

* :class:`Moment`: it draws only when it holds no playable card, and plays an eight only
  when it holds no other playable card. So at a chosen draw it held no eight, no card of
  the active suit and none of the top card's rank; at an eight, no such plain card. The
  cards it holds *now* that match such a moment must have come in later: at most as many
  as it has drawn since (the card drawn at that very moment was played at once or, passed
  on, did not match either).
* :class:`Named`: with an eight it names the suit it holds most of among the plain cards
  left; bounded by its hand now, the plain cards it played since and its draws since.
* :class:`Chose`: of its playable plain cards it plays the one of the suit it holds most
  of (ties: more points, then the first in display order). Checked only while it has
  drawn nothing since the play (its hand then is its hand now plus the cards it played
  since), and not for the play of a card just drawn (forced by the rules).

A determinization's weight is :data:`CE_EPSILON` to the power of the beliefs it breaks:
near a hard constraint against players who follow the strategy, while a player who plays
otherwise (drawing on purpose is allowed) only flattens the weights instead of ruling
deals out. :func:`kernel_pool` draws a pool of determinizations in kernel ints and weighs
them (the ``beliefs="policy"`` model on the kernel, for :class:`~cardkit.bots.ISMCTSBot`
and :class:`~cardkit.bots.pimc.PIMCBot`); :func:`crazy_eights_fit` is the same weight on a
reference state.

Only what the seat saw is read: its own events of the current hand (every draw, play and
pass there is public; the cards drawn by others are not needed) and the determinization.
"""

from __future__ import annotations

from typing import Any, Sequence

import attrs

from cardkit.cards import SUITS, Card
from cardkit.games.crazy_eights.events import CardPlayed, CardsDrawn, HandDealt

__all__ = [
    "Belief", "CE_EPSILON", "CE_POOL", "CE_TRIES", "Chose", "Moment", "Named", "card_bit", "card_int", "rule_play", "crazy_eights_fit",
    "kernel_pool", "moments", "weight",
]  # fmt: skip

CE_EPSILON = 0.05
"""The weight factor of each moment a determinization contradicts (see the module docs)."""

CE_POOL = 100
"""Determinizations that break no moment wanted in a pool (:func:`kernel_pool`)."""

CE_TRIES = 500
"""Most determinizations drawn for one pool."""

_EIGHTS = sum(1 << (s * 13 + 6) for s in range(4))


def card_int(card: Card) -> int:
    """The kernel's card int: ``suit * 13 + rank - 2``."""
    return SUITS.index(card.suit) * 13 + card.rank - 2


def card_bit(card: Card) -> int:
    """The card's bit in a hand mask: bit :func:`card_int`."""
    return 1 << card_int(card)


def _suit_bits(suit: Any) -> int:
    return 0x1FFF << (13 * SUITS.index(suit))


def _rank_bits(rank: int) -> int:
    return sum(1 << (s * 13 + rank - 2) for s in range(4))


@attrs.frozen
class Moment:
    """``seat`` held none of the cards in ``mask`` at some moment of the hand and has
    drawn ``later`` cards since: it holds at most ``later`` of them now."""

    seat: int
    mask: int
    later: int


@attrs.frozen
class Named:
    """``seat`` played an eight naming suit ``suit`` (index in ``SUITS``): the strategy
    names the suit it holds most of among the plain cards left. Since then it has played
    ``played[s]`` plain cards of suit ``s`` and drawn ``later`` cards, so now, for every
    other suit ``s``: held(suit) + played[suit] >= held(s) + played[s] - later."""

    seat: int
    suit: int
    played: tuple[int, int, int, int]
    later: int


@attrs.frozen
class Chose:
    """``seat`` played the plain card ``card`` (a kernel card int) by choice, with
    ``playable`` the mask of the plain cards it could have played then, and has drawn
    nothing since; ``since``: the mask of the cards it has played since, ``card``
    included. Its hand then was its hand now plus ``since``, and the strategy plays the
    playable plain card of the suit it holds most of (ties: more points, then the lowest)."""

    seat: int
    card: int
    playable: int
    since: int


Belief = Moment | Named | Chose
"""One thing the other seats' moves say about their hands."""


def _bot_points(card: int) -> int:
    # the rule strategy's shedding value of a kernel card int (8 = 50, 10 to ace = 10)
    r = card % 13
    return 50 if r == 6 else 10 if r >= 8 else r + 2


def rule_play(hand: int, playable: int) -> int:
    """The rule strategy's plain card out of the mask ``hand`` when the plain cards of
    ``playable`` may be played (-1: none)."""
    plain = hand & playable & ~_EIGHTS
    best = -1
    best_key = (-1, -1)
    while plain:
        low = plain & -plain
        plain ^= low
        c = low.bit_length() - 1
        key = ((hand & (0x1FFF << (13 * (c // 13)))).bit_count(), _bot_points(c))
        if key > best_key:
            best, best_key = c, key
    return best


def moments(events: Sequence[Any], me: int) -> list[Belief]:
    """The :class:`Moment` of every chosen draw and every eight of another seat in the
    current hand, and the :class:`Named` of every suit named with an eight
    (``events``: the seat's events; the last :class:`HandDealt` on)."""
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if type(events[i]) is HandDealt:
            start = i
            break
    open_: list[tuple[int, int, int]] = []  # (seat, mask, draws of that seat so far)
    chose: list[tuple[int, int, int, int, int]] = []  # (seat, card, playable, since, draws so far)
    last_drew = -1  # the seat whose chosen draw came last (its next play is the drawn card)
    named: list[tuple[int, int, list[int], int]] = []  # (seat, suit, plain plays since, draws so far)
    drawn: dict[int, int] = {}
    suit: Any = None
    rank = 0
    for event in events[start:]:
        kind = type(event)
        if kind is HandDealt:
            suit, rank = event.starter.suit, event.starter.rank
        elif kind is CardPlayed:
            seat = event.seat
            eight = event.card.rank == 8
            if seat != me and eight and suit is not None:
                # an eight only when no plain card was playable
                plain = (_suit_bits(suit) | _rank_bits(rank)) & ~_EIGHTS
                open_.append((seat, plain, drawn.get(seat, 0)))
            if seat != me and not eight and last_drew != seat and suit is not None:
                chose.append((seat, card_int(event.card), _suit_bits(suit) | _rank_bits(rank), 0, drawn.get(seat, 0)))
            for i, pick in enumerate(chose):
                if pick[0] == seat:
                    chose[i] = (pick[0], pick[1], pick[2], pick[3] | card_bit(event.card), pick[4])
            last_drew = -1
            if not eight:
                for naming in named:
                    if naming[0] == seat:
                        naming[2][SUITS.index(event.card.suit)] += 1
            elif seat != me and event.suit is not None:
                named.append((seat, SUITS.index(event.suit), [0, 0, 0, 0], drawn.get(seat, 0)))
            suit = event.suit if eight and event.suit is not None else event.card.suit
            rank = event.card.rank
        elif kind is CardsDrawn:
            if event.seat != me and event.reason == "draw" and suit is not None:
                mask = _suit_bits(suit) | _rank_bits(rank) | _EIGHTS
                # counted from after this draw: the card drawn now was played or did not match
                open_.append((event.seat, mask, drawn.get(event.seat, 0) + event.count))
            drawn[event.seat] = drawn.get(event.seat, 0) + event.count
            last_drew = event.seat if event.reason == "draw" else -1
        else:
            last_drew = -1
    out: list[Belief] = [Moment(seat, mask, drawn.get(seat, 0) - before) for seat, mask, before in open_]
    for seat, named_suit, played, before in named:
        p = (played[0], played[1], played[2], played[3])
        out.append(Named(seat, named_suit, p, drawn.get(seat, 0) - before))
    for seat, card, playable, since, before in chose:
        if drawn.get(seat, 0) == before:  # with a draw since, its hand then is not known
            out.append(Chose(seat, card, playable, since))
    return out


_PLAIN_SUITS = tuple((0x1FFF << (13 * s)) & ~_EIGHTS for s in range(4))


def weight(hands: Sequence[int], found: Sequence[Belief], epsilon: float = CE_EPSILON) -> float:
    """``epsilon`` to the power of the moments and named suits that the hand masks
    ``hands`` (one per seat) break."""
    w = 1.0
    for m in found:
        if type(m) is Moment:
            if (hands[m.seat] & m.mask).bit_count() > m.later:
                w *= epsilon
        elif type(m) is Chose:
            if rule_play(hands[m.seat] | m.since, m.playable) != m.card:
                w *= epsilon
        else:
            assert isinstance(m, Named)
            hand = hands[m.seat]
            top = (hand & _PLAIN_SUITS[m.suit]).bit_count() + m.played[m.suit] + m.later
            for s in range(4):
                if s != m.suit and (hand & _PLAIN_SUITS[s]).bit_count() + m.played[s] > top:
                    w *= epsilon
                    break
    return w


def crazy_eights_fit(rules: Any, state: Any, events: Sequence[Any], seat: int, epsilon: float) -> float:
    """The weight of the reference state ``state`` (a :data:`cardkit.bots.beliefs.Fit`;
    ``epsilon`` is the beliefs' random share, unused: the factor is :data:`CE_EPSILON`)."""
    hands = []
    for hand in state.hands:
        mask = 0
        for card in hand:
            mask |= card_bit(card)
        hands.append(mask)
    return weight(hands, moments(events, seat))


def kernel_pool(seat_state: Any, sampler: Any, krng: Any) -> tuple[list[Any], list[float]] | None:
    """Determinizations drawn by the kernel deal ``sampler`` with ``krng`` until
    :data:`CE_POOL` of them break no moment (at most :data:`CE_TRIES`), and the running
    sums of their weights; ``None`` when no other seat has drawn or played an eight yet
    (every deal would weigh the same)."""
    found = moments(seat_state.events, seat_state.seat)
    if not found:
        return None
    kernels: list[Any] = []
    cumulative: list[float] = []
    total = 0.0
    clean = 0
    for _ in range(CE_TRIES):
        kernel = sampler.draw(krng)
        w = weight(kernel.mask, found)
        if w == 1.0:
            clean += 1
        kernels.append(kernel)
        total += w
        cumulative.append(total)
        if clean >= CE_POOL:
            break
    return kernels, cumulative
