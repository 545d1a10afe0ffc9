"""Determinization is fair: no peek, sound samples, diverse samples, each inference."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import cardkit
from cardkit.bots import ISMCTSBot, RandomBot, RuleBot
from cardkit.core.resample import Constraint, conceal, resample
from cardkit.core.seat import SeatState
from cardkit.errors import ResampleError, SeatError

from bots_helpers import GAMES, arrangement, permuted, positions


def _indistinguishable(game: cardkit.Game, seat: int, rng: random.Random) -> SeatState:
    other = permuted(game.rules, game.state, seat, rng)
    return SeatState.of(game.rules, game.config, other, seat, game.events_for(seat))


@pytest.mark.parametrize("name", GAMES)
def test_no_peek_same_sample_and_same_decision(name: str) -> None:
    checked = 0
    for seed in range(3):
        for game in positions(name, seed, 6):
            seat = game.to_act
            assert seat is not None
            mine = game.seat_state(seat)
            twin = _indistinguishable(game, seat, random.Random(seed))
            assert twin.masked == mine.masked
            for k in range(2):
                assert mine.sample(random.Random(k)) == twin.sample(random.Random(k))
            bots = (RandomBot(), RuleBot(), ISMCTSBot(iterations=25), ISMCTSBot(iterations=25, beliefs="policy"))
            for bot in bots:
                assert bot.choose(mine, random.Random(9)) == bot.choose(twin, random.Random(9))
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("name", GAMES)
def test_no_peek_for_seats_not_to_act(name: str) -> None:
    for game in positions(name, 7, 5):
        for seat in range(game.players):
            a = game.seat_state(seat)
            b = _indistinguishable(game, seat, random.Random(seat))
            assert a.sample(random.Random(3)) == b.sample(random.Random(3))


@pytest.mark.parametrize("name", GAMES)
def test_samples_are_sound(name: str) -> None:
    for seed in range(2):
        for game in positions(name, 100 + seed, 5):
            seat = game.to_act
            assert seat is not None
            ss = game.seat_state(seat)
            rules = game.rules
            deck = Counter(c for z in game.zones() for c in z.cards)
            for k in range(4):
                sample = ss.sample(random.Random(k))
                assert rules.view(sample, seat) == game.view(seat)
                assert rules.legal_actions(sample) == game.legal_actions()
                assert Counter(c for z in rules.zones(sample) for c in z.cards) == deck
                for zs, zt in zip(rules.zones(sample), game.zones()):
                    assert (zs.name, zs.owner, len(zs.cards), zs.visible_to) == (
                        zt.name, zt.owner, len(zt.cards), zt.visible_to,
                    )
                    if seat in zt.visible_to:
                        assert zs.cards == zt.cards
                for c in ss.constraints:
                    zone = next(z for z in rules.zones(sample) if (z.name, z.owner) == (c.name, c.owner))
                    assert sum(1 for card in zone.cards if card not in c.forbidden) >= c.at_least
            # one sample plays out legally to the end (bounded for the long shedding games)
            state = ss.sample(random.Random(99))
            rng = random.Random(5)
            for _ in range(3000):
                to_act = rules.to_act(state)
                if to_act is None:
                    break
                if to_act == cardkit.CHANCE:
                    spec = rules.pending_chance(state)
                    if isinstance(spec, cardkit.PickSpec):
                        action = cardkit.Pick(rng.randrange(spec.n))
                    else:
                        order = list(spec.cards)
                        rng.shuffle(order)
                        action = cardkit.Shuffle(tuple(order))
                else:
                    action = rng.choice(rules.legal_actions(state))
                for event in rules.decide(state, action):
                    state = rules.evolve(state, event)


@pytest.mark.parametrize("name", GAMES)
def test_true_state_satisfies_every_inference(name: str) -> None:
    """The constraints are sound: the real deal always satisfies them."""
    found = 0
    for seed in range(6):
        for game in positions(name, 200 + seed, 10):
            for seat in range(game.players):
                ss = game.seat_state(seat)
                for c in ss.constraints:
                    found += 1
                    zone = next(z for z in game.zones() if (z.name, z.owner) == (c.name, c.owner))
                    assert sum(1 for card in zone.cards if card not in c.forbidden) >= c.at_least
    if name in ("wizard", "cutthroat-spades"):
        assert found > 0


@pytest.mark.parametrize("name", GAMES)
def test_samples_are_diverse(name: str) -> None:
    tested = 0
    for game in positions(name, 300, 8):
        seat = game.to_act
        assert seat is not None
        ss = game.seat_state(seat)
        hidden = sum(len(z.cards) for z in game.zones() if seat not in z.visible_to)
        if hidden < 2:
            continue
        truth = arrangement(game.rules, game.state, seat)
        rng = random.Random(1)
        same = sum(1 for _ in range(100) if arrangement(game.rules, ss.sample(rng), seat) == truth)
        assert same < 50
        tested += 1
    assert tested >= 3


def test_wizard_void_excludes_number_cards_only() -> None:
    """A Wizard seat that did not follow holds no number card of the led suit, but may
    still hold Wizards and Jesters."""
    from cardkit.games.wizard.events import CardPlayed, TrickWon
    from cardkit.games.wizard.state import JESTER, WIZARD
    from cardkit.games.wizard.tricks import suit_to_follow

    for seed in range(200):
        rng = random.Random(seed)
        game = cardkit.new_game("wizard", players=3, seed=seed, rounds=8)
        while not game.is_over:
            before = game.state
            game = game.play(rng.choice(game.legal_actions()))
            last = game.last_entry
            assert last is not None
            plays = [e for e in last.events if isinstance(e, CardPlayed)]
            if not plays or before.phase != "play" or not before.trick:
                continue
            led = suit_to_follow([c for _, c in before.trick])
            card = plays[0].card
            who = plays[0].seat
            if led is None or card.suit is None or card.suit == led or not game.state.hands[who]:
                continue
            if game.state.phase != "play" or any(isinstance(e, TrickWon) for e in last.events) and not game.state.hands[who]:
                continue
            observer = (who + 1) % 3
            ss = game.seat_state(observer)
            voids = [c for c in ss.constraints if c.owner == who and c.name == "hand"]
            assert voids, "the failure to follow is inferred"
            banned = frozenset().union(*(c.forbidden for c in voids))
            assert WIZARD not in banned and JESTER not in banned
            assert any(c.suit == led for c in banned)
            srng = random.Random(0)
            specials = 0
            for _ in range(60):
                hand = ss.sample(srng).hands[who]
                assert not any(c.suit == led for c in hand)
                specials += sum(1 for c in hand if c in (WIZARD, JESTER))
            pool_specials = sum(
                1 for z in game.zones() if observer not in z.visible_to for c in z.cards if c.suit is None
            )
            if pool_specials:
                assert specials > 0, "Wizards and Jesters may still be in the void hand"
            return
    pytest.fail("no failure to follow found in 200 random games")


def test_cutthroat_spade_lead_before_broken_means_only_spades() -> None:
    from cardkit.games.cutthroat_spades.events import CardPlayed

    for seed in range(300):
        rng = random.Random(seed)
        game = cardkit.new_game("cutthroat-spades", players=3, seed=seed, max_hands=1, wins_needed=1)
        while not game.is_over:
            before = game.state
            game = game.play(rng.choice(game.legal_actions()))
            last = game.last_entry
            assert last is not None
            played = [e for e in last.events if isinstance(e, CardPlayed)]
            if not played or before.trick or before.spades_broken or before.phase != "play":
                continue
            card = played[0].card
            who = played[0].seat
            if (card.suit not in ("S", None)) or len(game.state.hands[who]) < 2:
                continue
            observer = (who + 1) % 3
            ss = game.seat_state(observer)
            banned = frozenset().union(*(c.forbidden for c in ss.constraints if c.owner == who))
            assert {c.suit for c in banned} >= {"H", "D", "C"}
            srng = random.Random(0)
            for _ in range(30):
                assert all(c.suit in ("S", None) for c in ss.sample(srng).hands[who])
            return
    pytest.fail("no spade lead before spades were broken in 300 random hands")


def test_crazy_eights_pass_without_draw_proves_no_playable_card() -> None:
    from cardkit.games.crazy_eights.events import CardsDrawn, Passed

    for seed in range(400):
        rng = random.Random(seed)
        game = cardkit.new_game("crazy-eights", players=3, seed=seed, hand_size=7)
        drew: int | None = None
        while not game.is_over:
            before = game.state
            game = game.play(rng.choice(game.legal_actions()))
            last = game.last_entry
            assert last is not None
            if any(isinstance(e, CardsDrawn) and e.next_seat is None for e in last.events):
                drew = last.actor
                continue
            passes = [e for e in last.events if isinstance(e, Passed)]
            if not passes or drew == last.actor or before.drawn is not None or game.is_over:
                drew = None
                continue
            who = last.actor
            top = before.discard[-1]
            observer = (who + 1) % 3
            ss = game.seat_state(observer)
            mine = [c for c in ss.constraints if c.owner == who]
            assert mine, "a pass without a draw is inferred"
            assert all(
                card.rank == 8 or card.suit == before.active_suit or card.rank == top.rank
                for c in mine for card in c.forbidden
            )
            srng = random.Random(0)
            for _ in range(30):
                hand = ss.sample(srng).hands[who]
                assert not any(
                    c.rank == 8 or c.suit == before.active_suit or c.rank == top.rank for c in hand
                )
            return
    pytest.fail("no pass without a draw found")


def test_crazy_eights_draw_proves_nothing() -> None:
    """Drawing is allowed with a playable card in hand, so it constrains nothing."""
    for game in positions("crazy-eights", 11, 20):
        for seat in range(game.players):
            if not any(type(e).__name__ == "Passed" for e in game.events):
                assert game.seat_state(seat).constraints == ()


def test_spacc_failed_blind_card_is_known_to_everyone_and_kept() -> None:
    from cardkit.games.spacc_u_mazz.events import BlindFailed
    from tests.games.spacc_u_mazz.spacc_helpers import random_game_until

    game, failed = random_game_until(BlindFailed, seeds=range(60))
    who = failed.seat
    card = failed.card
    observer = (who + 1) % 3
    view = game.view(observer)
    assert card.code in view["known"][who]
    assert any(isinstance(e, BlindFailed) and e.card == card for e in game.events_for(observer))
    known = game.state.known[who]
    ss = game.seat_state(observer)
    srng = random.Random(0)
    for _ in range(20):
        hand = Counter(ss.sample(srng).hands[who])
        assert not Counter(known) - hand, "known cards stay in the hand"


def test_resample_errors_and_edges() -> None:
    game = cardkit.new_game("wizard", players=3, seed=1, rounds=2)

    class NoHook:
        name = "nohook"

        def zones(self, state: object) -> tuple[cardkit.Zone, ...]:
            return game.rules.zones(state)

    with pytest.raises(ResampleError, match="with_zones"):
        resample(NoHook(), game.state, 0, random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(SeatError):
        game.seat_state(3)
    with pytest.raises(SeatError):
        game.seat_state(None)  # type: ignore[arg-type]
    # contradictory constraints: a sample is still returned, with the seat's exact view
    seat = game.to_act
    assert seat is not None
    everything = frozenset(cardkit.Card.all())
    impossible = (Constraint("hand", (seat + 1) % 3, everything, 1),)
    sample = resample(game.rules, game.state, seat, random.Random(0), constraints=impossible)
    assert game.rules.view(sample, seat) == game.view(seat)
    assert conceal(game.rules, game.state, seat) == conceal(game.rules, sample, seat)


@pytest.mark.parametrize("name", GAMES)
def test_seat_state_is_what_the_seat_knows(name: str) -> None:
    for game in positions(name, 400, 4):
        for seat in range(game.players):
            ss = game.seat_state(seat)
            assert ss.seat == seat and ss.rules is game.rules and ss.config == game.config
            assert ss.view == game.view(seat)
            assert ss.events == game.events_for(seat)
            assert ss.legal_actions == (game.legal_actions() if seat == game.to_act else ())
            assert ss.is_my_turn == (seat == game.to_act)
            # the masked state differs from the true one only where the seat cannot see
            assert game.rules.view(ss.masked, seat) == game.view(seat)
            assert "seat=" in repr(ss)


def test_seat_state_never_holds_the_true_arrangement() -> None:
    game = next(positions("wizard", 3, 1))
    seat = game.to_act
    assert seat is not None
    ss = game.seat_state(seat)
    twin = _indistinguishable(game, seat, random.Random(4))
    assert all(
        getattr(ss, slot, None) is not game.state for slot in type(ss).__slots__
    )
    assert ss.masked == twin.masked


def test_seat_state_entries_are_the_seat_entries() -> None:
    for game in positions("crazy-eights", 12, 3):
        for seat in range(game.players):
            ss = game.seat_state(seat)
            assert ss.entries == game.entries_for(seat)
            assert tuple(e for entry in ss.entries for e in entry.events) == ss.events
