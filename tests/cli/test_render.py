"""cardkit.render and every game's ``rules.describe``: a sentence for every event type."""

from __future__ import annotations

import importlib
import random
import re

from typing import Any

import attrs
import pytest

import cardkit
from cardkit import Card
from cardkit.render import (
    action_text,
    card_text,
    count_text,
    describe,
    generic_describe,
    hand_text,
    symbols_to_codes,
    use_color,
    view_summary,
)

MODULES = {
    "crazy-eights": "cardkit.games.crazy_eights",
    "wizard": "cardkit.games.wizard",
    "cutthroat-spades": "cardkit.games.cutthroat_spades",
    "spacc-u-mazz": "cardkit.games.spacc_u_mazz",
}
CONFIGS: dict[str, tuple[int, dict[str, Any]]] = {
    "crazy-eights": (3, {"mode": "points", "target": 60}),
    "wizard": (3, {"rounds": 3}),
    "cutthroat-spades": (3, {"max_hands": 2}),
    "spacc-u-mazz": (3, {}),
}


def test_cards_use_suit_symbols_and_10_for_ten() -> None:
    assert card_text(Card("TH")) == "10♥"
    assert card_text(Card("QS")) == "Q♠"
    assert card_text(Card("2C")) == "2♣" and card_text(Card("AD")) == "A♦"
    assert card_text(Card("W")) == "Wizard" and card_text(Card("RJ")) == "red joker"
    assert card_text(Card("QH"), color=True) == "\x1b[31mQ♥\x1b[0m"
    assert card_text(Card("QS"), color=True) == "Q♠", "black suits stay plain"
    assert hand_text(["QS", Card("TD")]) == "Q♠ 10♦"
    assert hand_text([]) == "(none)"


def test_action_text_and_symbols_round_trip_to_notation() -> None:
    assert action_text("play 8H S") == "play 8♥ S"
    assert action_text("bid 3") == "bid 3"
    rules = cardkit.get_rules("crazy-eights")
    assert rules.parse_action(symbols_to_codes("play 10♥")) == rules.parse_action("play TH")


def test_count_text() -> None:
    assert count_text(1, "card") == "one card"
    assert count_text(5, "card") == "five cards"
    assert count_text(12, "card") == "12 cards"


def test_use_color_only_on_a_terminal_and_never_with_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty:
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(Tty())  # type: ignore[arg-type]
    assert not use_color(object())  # type: ignore[arg-type]
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(Tty())  # type: ignore[arg-type]


def test_generic_describe_names_the_event_and_its_fields() -> None:
    @attrs.frozen
    class CardPassed:
        seat: int
        card: Card | None

    assert generic_describe(CardPassed(2, Card("QS")), None) == "Card passed: seat 2, card Q♠."
    assert generic_describe(CardPassed(2, None), 2) == "Card passed: seat 2 (you), card hidden."

    class NoDescribe:
        pass

    assert describe(NoDescribe(), CardPassed(1, None), 0) == "Card passed: seat 1, card hidden."


@pytest.mark.parametrize("game", sorted(MODULES))
def test_every_event_type_has_a_sentence(game: str) -> None:
    rules = cardkit.get_rules(game)
    module = importlib.import_module(MODULES[game] + ".describe")
    assert set(module.DESCRIBERS) == set(rules.event_types), "one sentence maker per event type"


@pytest.mark.parametrize("game", sorted(MODULES))
def test_sentences_for_real_games_from_every_viewpoint(game: str) -> None:
    players, options = CONFIGS[game]
    seen: set[type] = set()
    for seed in range(4):
        g = cardkit.new_game(game, players=players, seed=seed, **options)
        rng = random.Random(seed)
        while not g.is_over and g.seat_actions < 3000:
            g = g.play(rng.choice(g.legal_actions()))
        for viewer in (None, *range(players)):
            for entry in g.entries_for(viewer):
                for event in entry.events:
                    seen.add(type(event))
                    text = describe(g.rules, event, viewer)
                    assert text and not text[0].islower() and text.endswith("."), text
                    assert "None" not in text and "hidden" not in text, text
                    if viewer is not None and re.search(rf"\bSeat {viewer}\b(?! \(you\))", text):
                        pytest.fail(f"the viewer's own seat is not marked (you): {text}")
    assert len(seen) >= len(rules_types(game)) // 2, "random games reach most event types"


def rules_types(game: str) -> tuple[type, ...]:
    return tuple(cardkit.get_rules(game).event_types)


def test_redacted_events_never_name_hidden_cards() -> None:
    g = cardkit.new_game("crazy-eights", players=3, seed=2)
    dealt = g.entries_for(1)[1].events[0]
    text = describe(g.rules, dealt, 1)
    own = g.view(1)["hand"]
    assert hand_text(own) in text
    other = g.view(2)["hand"]
    assert hand_text(other) not in text


def test_view_summary_shows_the_hand_with_symbols() -> None:
    g = cardkit.new_game("wizard", players=3, seed=1, rounds=2)
    view = g.view(0)
    text = view_summary(view)
    assert text.splitlines()[0] == "Your hand: " + hand_text(view["hand"])
    assert "legal actions" not in text
    assert "trump: ♠" in text
