"""No payload the host sends to a seat or a spectator names a card concealed from it.

Random games of every game are played through the WebSocket with every seat and a
spectator connected. Host side, the stored log is folded entry by entry to know the zones
after each seq; then every update each viewer received is checked: its view and legal
actions against the zones now, each entry against the zones just before and after it. The
page's extras are checked the same way: the table (status sentences and tables, in suit
symbols) against the zones now, each entry's sentences with the entry.
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterable

import pytest
from starlette.testclient import TestClient

from cardkit.core.rules import Zone
from cardkit.games import get_rules
from cardkit.render import symbols_to_codes
from cardkit.testing.invariants import cards_mentioned
from cardkit.testing.leaks import card_tokens
from cardkit.cards import Card
from tests.web.conftest import make_match, receive_until

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
