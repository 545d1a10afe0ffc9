"""A kernel-shaped adapter around the reference ``Game``, for testing kernel drivers.

:class:`ReferenceKernel` follows the kernel contract (:mod:`cardkit.kernels._base`) for
any game with an action space, by asking a ``Game`` (``auto_chance=False``) everything:
its legal ids are the reference's by construction, ``rule_action`` is RuleBot's. It is
as slow as the reducer: it exists so that the drivers of whole kernel games
(:mod:`cardkit.bots.kernel_play`) are proved on every game, whichever game kernels exist.
"""

from __future__ import annotations

from typing import Any, Sequence

from cardkit.bots.rule import RuleBot
from cardkit.core.game import Game
from cardkit.core.rules import Pick, PickSpec, Shuffle
from cardkit.games.guards import ended_by_guard
from cardkit.kernels._base import OVER


class _Adapter:
    """The contract's methods on a wrapped reference ``Game`` (see the module docs), but
    ``chance_cards`` and ``guard_ended``. Not a subclass of ``Kernel``: an interpreted class
    cannot subclass the compiled one, and the drivers only call methods."""

    def __init__(self, bridge: ReferenceBridge, game: Game[Any, Any]) -> None:
        self.players = game.config.players
        self.bridge = bridge
        self.game = game

    def actor(self) -> int:
        to_act = self.game.to_act
        return OVER if to_act is None else to_act

    def legal(self) -> list[int]:
        return [self.bridge.action_id(a) for a in self.game.legal_actions()]

    def apply(self, action: int) -> None:
        self.game = self.game.play(self.bridge.actions[action])

    def chance_is_pick(self) -> bool:
        return isinstance(self.game.pending_chance(), PickSpec)

    def chance_size(self) -> int:
        spec = self.game.pending_chance()
        return spec.n if isinstance(spec, PickSpec) else len(spec.cards)

    def chance_pick(self, index: int) -> None:
        self.game = self.game.play(Pick(index))

    def chance_shuffle(self, order: list[int]) -> None:
        self.game = self.game.play(Shuffle(tuple(self.bridge.cards[i] for i in order)))

    def scores(self) -> list[int]:
        return list(self.game.scores)

    def winners(self) -> list[int]:
        result = self.game.result
        return [] if result is None else list(result.winners)

    def rule_action(self) -> int:
        seat = self.game.to_act
        assert seat is not None and seat >= 0
        return self.bridge.action_id(RuleBot().choose(self.game.seat_state(seat), None))  # type: ignore[arg-type]


class WithoutGuard(_Adapter):
    """A kernel that cannot tell a guard ending (the driver must ask the reference)."""

    def chance_cards(self) -> list[int]:
        spec = self.game.pending_chance()
        assert not isinstance(spec, PickSpec)
        return self.bridge.card_ints(spec.cards)


class ReferenceKernel(WithoutGuard):
    """The whole contract on a wrapped reference ``Game``."""

    def guard_ended(self) -> bool:
        return ended_by_guard(self.game)


class WithoutChanceCards(_Adapter):
    """A kernel that cannot list a shuffle's cards (the driver must stay on the reducer)."""

    def guard_ended(self) -> bool:
        return ended_by_guard(self.game)


class ReferenceBridge:
    """The bridge of :class:`ReferenceKernel` (``kind`` picks one of its variants)."""

    def __init__(self, rules: Any, config: Any, kind: type[_Adapter] = ReferenceKernel) -> None:
        self.rules = rules
        self.config = config
        self.kind = kind
        self.actions = tuple(rules.action_space(config))
        self._ids = {a: i for i, a in enumerate(self.actions)}
        self.cards: list[Any] = []
        self._card_ids: dict[Any, int] = {}

    def kernel(self, state: Any) -> Any:
        assert state == self.rules.initial_state(self.config), "the adapter starts games only"
        return self.kind(self, Game.start(self.rules, self.config, 0, auto_chance=False))

    def action_id(self, action: Any) -> int:
        return self._ids[action]

    def apply_chance(self, kernel: Any, outcome: Any) -> None:
        assert isinstance(kernel, _Adapter)
        kernel.game = kernel.game.play(outcome)

    def card_ints(self, cards: Sequence[Any]) -> list[int]:
        out = []
        for card in cards:
            if card not in self._card_ids:
                self._card_ids[card] = len(self.cards)
                self.cards.append(card)
            out.append(self._card_ids[card])
        return out

    def zone_code(self, name: str, owner: int | None) -> tuple[int, int]:
        raise NotImplementedError
