"""Lock-step proof that a game kernel plays exactly like the game's reference reducer.

A kernel (:mod:`cardkit.kernels`) is an accelerator: it must agree with the reference
rules on every step. :func:`check_kernel` plays one game on both side by side, from a
seeded or a stacked start, and compares, at every step:

* the actor (seat, chance or over) and the scores;
* the legal actions, as action ids, in the reference order;
* the kernel rebuilt from the reference state (``bridge.kernel(state)``) against the
  kernel that got there step by step (their snapshots), every ``roundtrip_every`` steps;
* what :class:`~cardkit.bots.RuleBot` plays against ``kernel.rule_action()``, every
  ``rule_every`` seat steps (a seat state costs more than a step);
* the cards each seat still holds (``kernel.held``);
* every ``zones_every`` steps, for the seat to act: a determinization drawn by the
  generic resampler, built once from the sampled state and once by writing its
  concealed zones into the kernel with ``set_zone`` (:func:`check_set_zone`);

and at the end the scores and the winners. Chance outcomes come from the driver's own
``random.Random(seed)`` (or the ``stacked`` orders first) and are given to both sides.
Seat actions are chosen by that rng too: RuleBot's action with probability
``rule_share``, else a uniformly random legal one, so the games reach both sensible and
odd positions.

A failure raises :class:`KernelMismatch` naming the step and what differed.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from cardkit.bots.rule import RuleBot
from cardkit.core.game import Game
from cardkit.core.resample import resample
from cardkit.core.rules import CHANCE, Pick, PickSpec, Shuffle
from cardkit.kernels._base import OVER, Kernel
from cardkit.kernels.bridge import KernelBridge, bridge_for

__all__ = ["KernelMismatch", "check_kernel", "check_set_zone", "kernel_of"]


class KernelMismatch(AssertionError):
    """The kernel and the reference rules disagreed (the message says where)."""


def kernel_of(rules: Any, config: Any) -> KernelBridge:
    """The game's kernel bridge under ``config``; :class:`KernelMismatch` if it has none."""
    bridge = bridge_for(rules, config)
    if bridge is None:
        raise KernelMismatch(f"{rules.name} has no kernel for {config!r}")
    return bridge


def _fail(step: int, what: str, kernel_value: Any, reference_value: Any) -> KernelMismatch:
    return KernelMismatch(
        f"step {step}: {what} differs: kernel {kernel_value!r}, reference {reference_value!r}"
    )


def check_kernel(
    rules: Any,
    config: Any,
    seed: int,
    *,
    stacked: Sequence[Sequence[Any]] = (),
    rule_share: float = 0.5,
    rule_every: int = 1,
    roundtrip_every: int = 1,
    zones_every: int = 7,
    max_steps: int = 200_000,
) -> int:
    """Play one game of ``rules`` under ``config`` on the kernel and the reference reducer
    in lock-step (see the module docs); returns the number of steps played.

    ``stacked`` gives the orders of the first shuffles (as card tuples, top first; each
    must be a permutation of the pending shuffle's cards); later shuffles and every pick
    come from ``random.Random(seed)``. ``rule_every=0`` skips the RuleBot comparison and
    ``roundtrip_every=0`` the rebuilt-kernel comparison, ``zones_every=0`` the
    determinization check.
    """
    bridge = kernel_of(rules, config)
    rng = random.Random(seed)
    bot = RuleBot()
    game = Game.start(rules, config, seed, auto_chance=False)
    kernel: Kernel = bridge.kernel(game.state)
    stacks = list(stacked)
    players = int(config.players)
    seat_steps = 0
    for step in range(max_steps):
        state = game.state
        to_act = rules.to_act(state)
        actor = kernel.actor()
        expected = OVER if to_act is None else to_act
        if actor != expected:
            raise _fail(step, "the actor", actor, expected)
        if roundtrip_every and step % roundtrip_every == 0:
            rebuilt = bridge.kernel(state).snapshot()
            stepped = kernel.snapshot()
            if rebuilt != stepped:
                raise _fail(step, "the snapshot (rebuilt from the state vs stepped)", stepped, rebuilt)
        scores = list(rules.scores(state))
        if kernel.scores() != scores:
            raise _fail(step, "the scores", kernel.scores(), scores)
        held = [_held(rules, state, seat) for seat in range(players)]
        kernel_held = [kernel.held(seat) for seat in range(players)]
        if kernel_held != held:
            raise _fail(step, "the cards held", kernel_held, held)
        if to_act is None:
            result = rules.result(state)
            winners = list(result.winners) if result is not None else []
            if kernel.winners() != winners:
                raise _fail(step, "the winners", kernel.winners(), winners)
            return step
        if kernel.winners() != []:
            raise _fail(step, "the winners before the end", kernel.winners(), [])
        if to_act == CHANCE:
            spec = rules.pending_chance(state)
            if isinstance(spec, PickSpec):
                if not kernel.chance_is_pick() or kernel.chance_size() != spec.n:
                    raise _fail(step, "the pending pick", (kernel.chance_is_pick(), kernel.chance_size()), spec)
                outcome: Any = Pick(rng.randrange(spec.n))
            else:
                if kernel.chance_is_pick() or kernel.chance_size() != len(spec.cards):
                    raise _fail(
                        step, "the pending shuffle", (kernel.chance_is_pick(), kernel.chance_size()), len(spec.cards)
                    )
                if stacks:
                    outcome = Shuffle(tuple(stacks.pop(0)))
                else:
                    order = list(spec.cards)
                    rng.shuffle(order)
                    outcome = Shuffle(tuple(order))
            game = game.play(outcome)
            bridge.apply_chance(kernel, outcome)
            continue
        if zones_every and step % zones_every == 0:
            check_set_zone(rules, config, state, to_act, rng, step=step)
        legal = game.legal_actions()
        ids = [bridge.action_id(a) for a in legal]
        kernel_legal = kernel.legal()
        if kernel_legal != ids:
            raise _fail(step, "the legal action ids", kernel_legal, ids)
        use_rule = rng.random() < rule_share
        check_rule = rule_every > 0 and seat_steps % rule_every == 0
        seat_steps += 1
        if use_rule or check_rule:
            choice = bot.choose(game.seat_state(to_act), rng)
            if check_rule and kernel.rule_action() != bridge.action_id(choice):
                raise _fail(
                    step, f"RuleBot's action for seat {to_act}", bridge.actions[kernel.rule_action()], choice
                )
        action = choice if use_rule else legal[rng.randrange(len(legal))]
        game = game.play(action)
        kernel.apply(bridge.action_id(action))
    raise KernelMismatch(f"no end after {max_steps} steps")


def check_set_zone(
    rules: Any, config: Any, state: Any, seat: int, rng: random.Random, draws: int = 2, step: int = -1
) -> None:
    """Draw ``draws`` determinizations of ``state`` for ``seat`` with the generic resampler
    and check that writing each one's concealed zones into ``bridge.kernel(state)`` with
    ``set_zone`` gives the kernel of the sampled state (equal snapshots)."""
    bridge = kernel_of(rules, config)
    for _ in range(draws):
        sample = resample(rules, state, seat, rng)
        kernel = bridge.kernel(state)
        for zone in rules.zones(sample):
            if seat not in zone.visible_to and zone.cards:
                code, owner = bridge.zone_code(zone.name, zone.owner)
                kernel.set_zone(code, owner, bridge.card_ints(zone.cards))
        expected = bridge.kernel(sample).snapshot()
        if kernel.snapshot() != expected:
            raise _fail(step, f"a determinization for seat {seat} (set_zone vs rebuilt)", kernel.snapshot(), expected)


def _held(rules: Any, state: Any, seat: int) -> int:
    """Cards ``seat`` still has to get rid of: its hand and any face-up or face-down cards
    (the measure :func:`cardkit.bots.playout.fewest_cards` uses)."""
    count = len(state.hands[seat])
    for extra in ("face_up", "face_down"):
        more = getattr(state, extra, None)
        if more is not None:
            count += len(more[seat])
    return count
