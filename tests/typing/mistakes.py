"""Deliberate mistakes in host code: ``mypy --strict`` must report each one.

Every line marked ``# expect: CODE`` must get a mypy error with that code, and no other
line may get one: tests/typing/test_typing.py runs mypy on this file and compares the
reported ``(line, code)`` pairs with the marks. Never imported or run by pytest.
"""

from __future__ import annotations

import cardkit
from cardkit.cards import Card
from cardkit.games import crazy_eights, wizard

eights = cardkit.new_game("crazy-eights", players=3, seed=1)
wiz = cardkit.new_game("wizard", players=4, seed=1)

eights.play("draw")  # expect: arg-type
eights.play(wizard.Bid(2))  # expect: arg-type
eights.play(crazy_eights.Play(crad=Card("QS")))  # expect: call-arg
wiz.play(wizard.Bid(tricks="two"))  # expect: arg-type
view = eights.view(0)
view["top_crad"]  # expect: typeddict-item
view["hand_sizes"] + 1  # expect: operator
view["stock_size"].upper()  # expect: attr-defined
next_seat: int = eights.to_act + 1  # expect: operator
seat_to_act: int = wiz.view(0)["to_act"]  # expect: assignment
for action in eights.legal_actions():
    action.crad  # expect: union-attr
crazy_eights.new_game(players=3, mode="pointz")  # expect: arg-type
wizard.new_game(players=4, rounds="3")  # expect: arg-type
wizard.new_game(players=4, round=3)  # expect: call-arg
tricks: list[str] = wiz.view(1)["tricks_won"]  # expect: assignment
