"""Every game's action text: only ASCII digits of a sane length are numbers, and anything a
person can type is a NotationError or an IllegalActionError, the game unchanged."""

from __future__ import annotations

import os
import re
from collections import Counter
from typing import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardkit
from cardkit import Card, IllegalActionError, NotationError
from cardkit.errors import CardkitError
from cardkit.games.notation import MAX_DIGITS, parse_chance, parse_number, quoted
from cardkit.rng import Rng
from cardkit.testing import random_playout

GAMES = ("crazy-eights", "cutthroat-spades", "spacc-u-mazz", "wizard")
LONG = "9" * 5000
BAD_NUMBERS = ["²", "٣", "３", "+2", "-1", "1_0", "1e3", "0x1", LONG, "1" * (MAX_DIGITS + 1)]
# each game's verbs that take a number, plus the chance verb every game understands
NUMBER_VERBS = {
    "crazy-eights": ["pick {}"],
    "cutthroat-spades": ["pick {}", "bid {}"],
    "spacc-u-mazz": ["pick {}", "blind {}", "remove down:{}", "remove down: {}"],
    "wizard": ["pick {}", "bid {}"],
}


def _games(name: str) -> list[cardkit.Game]:
    """A game at its start, one stopped at a chance node, and one in mid-play."""
    return [
        cardkit.new_game(name, players=3, seed=1),
        cardkit.new_game(name, players=3, seed=1, auto_chance=False),
        random_playout(cardkit.new_game(name, players=3, seed=2), Rng(2), 25),
    ]


@pytest.mark.parametrize("name", GAMES)
def test_numbers_in_action_text_are_ascii_digits_of_sane_length(name: str) -> None:
    for game in _games(name):
        before = cardkit.dumps(game.log)
        for verb in NUMBER_VERBS[name]:
            for number in BAD_NUMBERS:
                text = verb.format(number)
                with pytest.raises(NotationError) as info:
                    game.play_text(text)
                assert len(str(info.value)) < 300, "the message quotes a shortened text"
                assert cardkit.dumps(game.log) == before


@pytest.mark.parametrize("name", GAMES)
def test_rules_parse_action_agrees(name: str) -> None:
    rules = cardkit.get_rules(name)
    for verb in NUMBER_VERBS[name]:
        assert str(rules.parse_action(verb.format("1"))).split()[-1].endswith("1")
        for number in BAD_NUMBERS:
            with pytest.raises(NotationError):
                rules.parse_action(verb.format(number))


def test_good_numbers_still_parse() -> None:
    assert str(cardkit.get_rules("wizard").parse_action("BID  007")) == "bid 7"
    assert str(cardkit.get_rules("cutthroat-spades").parse_action("bid 04")) == "bid 4"
    assert str(cardkit.get_rules("spacc-u-mazz").parse_action("remove DOWN : 2")) == "remove down:2"
    assert str(cardkit.get_rules("spacc-u-mazz").parse_action("blind 3")) == "blind 3"
    assert parse_chance("PICK 2") == cardkit.Pick(2)
    with pytest.raises(NotationError, match="card positions start at 1"):
        cardkit.get_rules("spacc-u-mazz").parse_action("blind 0")


def test_parse_number_and_quoted() -> None:
    assert parse_number("0", "bid 0", "a bid") == 0
    assert parse_number("9" * MAX_DIGITS, "x", "a bid") == int("9" * MAX_DIGITS)
    for bad in ["", " 1", "1 ", "²", "٣", "+1", "1.0"]:
        with pytest.raises(NotationError, match="digits 0-9"):
            parse_number(bad, "bid " + bad, "a bid")
    with pytest.raises(NotationError, match="at most 6 digits"):
        parse_number("1234567", "bid 1234567", "a bid")
    assert quoted("bid 2") == "'bid 2'"
    assert quoted(LONG).endswith("... (5000 characters)") and len(quoted(LONG)) < 80
    with pytest.raises(NotationError):
        parse_chance("pick")
    with pytest.raises(NotationError):
        parse_chance("pick 1 2")


@pytest.mark.parametrize("name", GAMES)
@given(text=st.text(max_size=40))
def test_any_text_gives_an_action_or_a_cardkit_error(name: str, text: str) -> None:
    game = _START[name]
    try:
        after = game.play_text(text)
    except (NotationError, IllegalActionError):
        return
    assert after.log.entries[: len(game.log.entries)] == game.log.entries


@pytest.mark.parametrize("name", GAMES)
@given(
    verb=st.sampled_from(["pick", "bid", "blind", "remove down:", "play", "trump", "shuffle", "up", "remove up:"]),
    arg=st.text(alphabet=st.characters(categories=["Nd", "No", "Nl", "Sm", "Pd"]), max_size=8),
)
def test_verbs_with_unicode_numbers_give_cardkit_errors(name: str, verb: str, arg: str) -> None:
    try:
        _START[name].play_text(f"{verb} {arg}")
    except CardkitError:
        pass


_START = {name: cardkit.new_game(name, players=3, seed=1) for name in GAMES}

# ------------------------------------------------------------- error messages and hidden cards

_CODE = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][SHDC]|RJ|BJ|XJ)(?![A-Za-z0-9])")


def _concealed_from(game: cardkit.Game, seat: int) -> set[Card]:
    """Cards every copy of which is concealed from ``seat``."""
    hidden: Counter[Card] = Counter()
    seen: set[Card] = set()
    for zone in game.zones():
        if seat in zone.visible_to:
            seen.update(zone.cards)
        else:
            hidden.update(zone.cards)
    return {card for card in hidden if card not in seen}


@pytest.mark.parametrize("name", GAMES)
def test_errors_a_seat_provokes_name_no_card_concealed_from_it(name: str) -> None:
    """Every card typed by every seat at every step of a few games: a refusal may repeat
    the card typed, but never names another card the typing seat cannot see."""
    _scan_error_messages(name, seeds=range(2), max_steps=60)


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("CARDKIT_LONG") != "1", reason="long run: CARDKIT_LONG=1")
@pytest.mark.parametrize("name", GAMES)
def test_errors_name_no_concealed_card_long(name: str) -> None:
    _scan_error_messages(name, seeds=range(2, 22), max_steps=400)


def _scan_error_messages(name: str, seeds: range, max_steps: int) -> None:
    deck = sorted({c for z in _START[name].zones() for c in z.cards}, key=lambda c: c.sort_key)
    texts = [f"play {c.code}" for c in deck] + ["draw", "pass", "take", "look", "bid 1", "blind 1", "remove down:1",
                                                "remove up:QS", "trump H", "play 8H S", "up 7C", "bid b6", "bid moon"]
    for seed in seeds:
        game = cardkit.new_game(name, players=3, seed=40 + seed)
        rng = Rng(seed)
        steps = 0
        while not game.is_over and steps < max_steps:
            for seat in range(game.players):
                concealed = _concealed_from(game, seat)
                for text in texts:
                    try:
                        game.play_text(text, seat=seat)
                    except NotationError:
                        pass  # parsing reads the text alone: its examples (QS, 10H) are fixed
                    except CardkitError as exc:
                        named = {Card.parse(code) for code in _CODE.findall(str(exc))}
                        typed = {Card.parse(code) for code in _CODE.findall(text.upper())}
                        leaked = (named - typed) & concealed
                        assert not leaked, f"{name} seat {seat} {text!r}: {exc} names {leaked}"
            legal = game.legal_actions()
            game = game.play(legal[rng.below(len(legal))])
            steps += 1


# ------------------------------------------------------------- hand-built actions


def _first_state_where(
    name: str, wanted: Callable[[object], bool], players: int = 3, seeds: int = 40
) -> tuple[cardkit.Game, object]:
    """A random game stopped where a legal action satisfies ``wanted``, and that action."""
    for seed in range(seeds):
        game = cardkit.new_game(name, players=players, seed=seed)
        rng = Rng(seed)
        while not game.is_over:
            legal = game.legal_actions()
            for action in legal:
                if wanted(action):
                    return game, action
            game = game.play(legal[rng.below(len(legal))])
    raise AssertionError(f"no wanted action in {seeds} random games of {name}")


def test_crazy_eights_refuses_a_suit_that_is_not_one() -> None:
    from cardkit.games.crazy_eights import Play

    game, eight = _first_state_where("crazy-eights", lambda a: isinstance(a, Play) and a.suit is not None)
    assert isinstance(eight, Play)
    for suit in ("x", "s", "SH", 3):
        bad = Play(eight.card, suit)  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError, match="is not a suit"):
            game.rules.decide(game.state, bad)
        with pytest.raises(IllegalActionError):
            game.play(bad)
    assert game.play(eight).log.entries[-1].action == eight


def test_spacc_u_mazz_refuses_a_bool_position() -> None:
    from cardkit.games.spacc_u_mazz.actions import Blind

    game, _ = _first_state_where("spacc-u-mazz", lambda a: isinstance(a, Blind), players=2)
    with pytest.raises(IllegalActionError, match="no face-down card True"):
        game.rules.decide(game.state, Blind(True))
    assert game.rules.decide(game.state, Blind(1))  # the same position as an int is fine


def test_spacc_u_mazz_play_takes_cards_only() -> None:
    from cardkit.games.spacc_u_mazz.actions import Play

    for bad in [("9S",), (None,), "9S", Card("9S")]:
        with pytest.raises(IllegalActionError, match="a Play takes"):
            Play(bad)  # type: ignore[arg-type]
    assert str(Play((Card("9H"), Card("9S")))) == "play 9S 9H"  # sorted: S before H


def test_hand_built_actions_with_wrong_fields_still_print() -> None:
    from cardkit.games.crazy_eights import Play as C8Play
    from cardkit.games.cutthroat_spades.actions import Play as CSPlay, SpecialBid
    from cardkit.games.spacc_u_mazz.actions import RemoveUp
    from cardkit.games.wizard.actions import Play as WPlay

    assert str(C8Play("QS")) == "play QS"  # type: ignore[arg-type]
    assert str(CSPlay(None)) == "play None"  # type: ignore[arg-type]
    assert str(WPlay("W")) == "play W"  # type: ignore[arg-type]
    assert str(SpecialBid("bogus")) == "bid 'bogus'"  # type: ignore[arg-type]
    assert str(RemoveUp("KD")) == "remove up:KD"  # type: ignore[arg-type]
    game, _ = _first_state_where("cutthroat-spades", lambda a: isinstance(a, SpecialBid))
    with pytest.raises(IllegalActionError):
        game.play(SpecialBid("bogus"))  # type: ignore[arg-type]
