"""No payload the host sends to a seat or a spectator names a card concealed from it.

Random games of every game are played through the WebSocket with every seat and a
spectator connected. Host side, the stored log is folded entry by entry to know the zones
after each seq; then every update each viewer received is checked: its view and legal
actions against the zones now, each entry against the zones just before and after it. The
page's extras are checked the same way: the table (status sentences and tables, in suit
symbols) against the zones now, each entry's sentences with the entry. Replays
(``cardkit.web.replay``) are scanned the same way, step by step, their text included.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any, Iterable

import pytest
from starlette.testclient import TestClient

from cardkit.core.rules import Zone
from cardkit.errors import ConcurrencyError
from cardkit.games import get_rules
from cardkit.render import symbols_to_codes
from cardkit.testing.invariants import cards_mentioned
from cardkit.testing.leaks import card_tokens
from cardkit.cards import Card
from tests.web.conftest import host_move, make_match, receive_until

SETUPS = [
    ("crazy-eights", 2, {}),
    ("crazy-eights", 4, {"mode": "points", "target": 50, "stock_empty": "reshuffle"}),
    ("wizard", 3, {"rounds": 3}),
    ("wizard", 5, {"rounds": 2}),
    ("cutthroat-spades", 3, {"max_hands": 1}),
    ("cutthroat-spades", 4, {"max_hands": 1}),
    ("spacc-u-mazz", 2, {}),
    ("spacc-u-mazz", 3, {}),
]

MAX_MOVES = 80


def visible(zones: Iterable[Zone], viewer: int | None, players: int) -> set[Card]:
    everyone = tuple(range(players))
    out: set[Card] = set()
    for zone in zones:
        if (viewer is None and tuple(zone.visible_to) == everyone) or (viewer is not None and viewer in zone.visible_to):
            out.update(zone.cards)
    return out


def zones_by_seq(game: str, players: int, options: dict[str, Any], log: Any) -> list[tuple[Zone, ...]]:
    """``out[seq + 1]`` = the zones after entry ``seq``; ``out[0]`` before anything."""
    rules = get_rules(game)
    state = rules.initial_state(rules.config(players, **options))
    out = [rules.zones(state)]
    for entry in log.entries:
        for event in entry.events:
            state = rules.evolve(state, event)
        out.append(rules.zones(state))
    return out


@pytest.mark.parametrize("game,players,options", SETUPS, ids=[f"{g}-{p}" for g, p, _ in SETUPS])
@pytest.mark.parametrize("seed", [1, 2])
def test_no_payload_names_a_concealed_card(client: TestClient, game: str, players: int, options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    match_id, tokens = make_match(client, game=game, players=players, options=options, seed=seed)
    path = f"/api/matches/{match_id}/ws"
    viewers: list[int | None] = [*range(players), None]
    sockets = {v: client.websocket_connect(path) for v in viewers}
    received: dict[int | None, list[dict[str, Any]]] = {v: [] for v in viewers}
    try:
        for v, ws in sockets.items():
            ws.__enter__()
            ws.send_json({"type": "join", "spectator": True} if v is None else {"type": "join", "seat": v, "token": tokens[str(v)]})
            received[v].append(ws.receive_json())
        for _ in range(MAX_MOVES):
            latest = received[0][-1]
            if latest["is_over"]:
                break
            mover = latest["to_act"]
            update = received[mover][-1]
            assert update["legal"], update
            for v in viewers:
                if v != mover:
                    assert received[v][-1]["legal"] == []
            seq = update["seq"]
            sockets[mover].send_json({"type": "move", "expected_seq": seq, "action": rng.choice(update["legal"])})
            for v, ws in sockets.items():
                received[v] += receive_until(ws, seq + 1)
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
    log = client.app.state.host.store.log(match_id)  # type: ignore[attr-defined]
    zones = zones_by_seq(game, players, options, log)
    deck = {card for zs in zones for zone in zs for card in zone.cards}

    def worded(data: Any) -> set[Card]:
        # the cards named in the page's text (sentences and tables write them as symbols: "10♥")
        return set(card_tokens(symbols_to_codes(json.dumps(data, ensure_ascii=False)), deck))

    checked = 0
    for v, messages in received.items():
        for message in messages:
            assert message["type"] == "update", message
            now = visible(zones[message["seq"] + 1], v, players)
            shown = cards_mentioned(message["view"]) | cards_mentioned(message["legal"])
            assert shown <= now, (v, message["seq"], shown - now)
            told = worded(message["table"])  # the status sentences and tables, bot levels, notes
            assert told <= now, (v, message["seq"], told - now, message["table"])
            for entry in message["entries"]:
                around = visible(zones[entry["seq"]], v, players) | visible(zones[entry["seq"] + 1], v, players)
                leaked = (cards_mentioned(entry) | worded(entry["sentences"])) - around
                assert not leaked, (v, entry, leaked)
                checked += 1
    assert checked > players * 10


# ---------------------------------------------------------------------------- replays

_SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_SUIT_WORD = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
_RANK_WORD = {"10": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}
_CARD_TEXT = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([♠♥♦♣])")
_CARD_WORDS = re.compile(r"\b(10|[2-9]|jack|queen|king|ace) of (spades|hearts|diamonds|clubs)\b", re.IGNORECASE)


def cards_in_text(data: Any) -> set[Card]:
    """Every suited card a replay's text names, as ``Q♠``/``10♥`` or as ``queen of spades``,
    and every exact card code (a hand's ``code``)."""
    found = set(cards_mentioned(data))
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            for rank, suit in _CARD_TEXT.findall(item):
                found.add(Card(("T" if rank == "10" else rank) + _SYMBOL[suit]))
            for rank, suit in _CARD_WORDS.findall(item):
                found.add(Card(_RANK_WORD.get(rank.lower(), rank) + _SUIT_WORD[suit.lower()]))
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def _play_out(client: TestClient, match_id: str, rng: random.Random) -> None:
    host = client.app.state.host  # type: ignore[attr-defined]
    for _ in range(MAX_MOVES * 4):
        game = host.store.load(match_id)
        if game.is_over:
            return
        try:
            host_move(
                client, match_id, game.to_act, game.last_entry.seq, str(rng.choice(game.legal_actions()))
            )
        except ConcurrencyError:
            pass  # a bot the host drives moved first


def _check_steps(replay: dict[str, Any], zones: list[tuple[Zone, ...]], viewer: int | None, players: int) -> int:
    """Each step against the zones: the table after entry k only what the viewer sees then;
    the entry's action and sentences only what it sees just before or after."""
    assert replay["viewer"] == viewer
    checked = 0
    for k, step in enumerate(replay["steps"]):
        now = visible(zones[k], viewer, players)
        table = cards_in_text({"status": step["status"], "hand": step["hand"]})
        assert table <= now, (viewer, k, table - now)
        around = now | (visible(zones[k - 1], viewer, players) if k else set())
        told = cards_in_text({"action": step["action"], "sentences": step["sentences"]})
        assert told <= around, (viewer, k, step, told - around)
        checked += 1
    return checked


@pytest.mark.parametrize("game,players,options", SETUPS, ids=[f"{g}-{p}" for g, p, _ in SETUPS])
def test_no_replay_names_a_concealed_card(client: TestClient, game: str, players: int, options: dict[str, Any]) -> None:
    """Replays of a stored match (every seat with its token, the spectator) and of every
    seat's uploaded seat log name no card hidden from their viewer at that step."""
    from cardkit.serde import dumps

    match_id, tokens = make_match(client, game=game, players=players, options=options, seed=3)
    _play_out(client, match_id, random.Random(3))
    host = client.app.state.host  # type: ignore[attr-defined]
    stored = host.store.load(match_id)
    zones = zones_by_seq(game, players, options, stored.log)
    assert cards_in_text(["queen of spades", "10♥ and A♣"]) == {Card("QS"), Card("TH"), Card("AC")}  # the scan reads text
    checked = 0
    for viewer in [*range(players), None]:
        body = {"seat": viewer, "token": None if viewer is None else tokens[str(viewer)]}
        response = client.post(f"/api/matches/{match_id}/replay", json=body)
        assert response.status_code == 200, response.text
        checked += _check_steps(response.json(), zones, viewer, players)
        upload = client.post("/api/replays", content=dumps(stored.log_for(viewer)).encode(),
                             headers={"content-type": "application/json"})
        assert upload.status_code == 200, upload.text
        checked += _check_steps(upload.json(), zones, viewer, players)
    assert checked >= 2 * (players + 1) * stored.entry_count
