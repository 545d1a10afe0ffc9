"""Replays on the web host: who may replay what, what a replay holds, and what is refused.

A stored match is replayed only as the asker could see it live (a seat with its token, or the
spectator view, private matches with their spectator token); an uploaded full log from any
seat, a seat log from its own seat only; every upload is read within the host's limits.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardkit.api import new_game
from cardkit.errors import ConcurrencyError
from cardkit.serde import dumps
from cardkit.web import create_app
from cardkit.web.replay import MAX_REQUEST, MAX_UPLOAD, build_replay, card_name
from tests.web.conftest import host_move, make_match

JSON = {"content-type": "application/json"}


def play_out(client: TestClient, match_id: str, rng: random.Random, limit: int = 10_000) -> Any:
    """Random legal moves through the host, bot seats too, until the match ends (or ``limit``
    moves); the game."""
    host = client.app.state.host  # type: ignore[attr-defined]
    for _ in range(limit):
        game = host.store.load(match_id)
        if game.is_over:
            return game
        action = rng.choice(game.legal_actions())
        try:
            host_move(client, match_id, game.to_act, game.last_entry.seq, str(action))
        except ConcurrencyError:
            pass  # a bot the host drives moved first (bots move only when the host is told to)
    return host.store.load(match_id)


def ask(client: TestClient, match_id: str, seat: int | None, token: str | None) -> Any:
    return client.post(f"/api/matches/{match_id}/replay", json={"seat": seat, "token": token})


@pytest.fixture
def finished(client: TestClient) -> tuple[str, dict[str, str], Any]:
    match_id, tokens = make_match(client, game="crazy-eights", players=3, seed=5, bots={"2": "rule"})
    game = play_out(client, match_id, random.Random(5))
    assert game.is_over
    return match_id, tokens, game


def test_a_seat_replays_its_own_view_of_a_finished_match(client: TestClient, finished: Any) -> None:
    match_id, tokens, game = finished
    response = ask(client, match_id, 0, tokens["0"])
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "no-store"
    data = response.json()
    assert data["viewer"] == 0 and data["viewers"] == [0] and data["tables"] is True
    assert data["result"] == {"scores": list(game.result.scores), "winners": list(game.result.winners)}
    assert data["in_progress"] is False and data["names"] == {"2": "rule bot"}
    steps = data["steps"]
    assert len(steps) == game.entry_count + 1 and steps[0]["seq"] == -1
    assert [s["seq"] for s in steps[1:]] == list(range(game.entry_count))
    # each step's hand is seat 0's hand after that entry, its sentences those of seat 0's entry
    from cardkit.render import describe
    state = game.rules.initial_state(game.config)
    for step, entry, seen in zip(steps[1:], game.log.entries, game.entries_for(0)):
        for event in entry.events:
            state = game.rules.evolve(state, event)
        assert [c["code"] for c in step["hand"]] == game.rules.view(state, 0)["hand"]
        assert step["sentences"] == [describe(game.rules, e, 0) for e in seen.events]
        assert step["to_act"] == game.rules.to_act(state)
    assert steps[-1]["to_act"] is None
    assert "Seat 0 (you)" in steps[-1]["status"]["tables"][0]["rows"][0][0]
    assert any(s["action"] for s in steps if s["actor"] == 0)


def test_who_may_not_replay(client: TestClient, finished: Any) -> None:
    match_id, tokens, _ = finished
    assert ask(client, match_id, 1, tokens["0"]).status_code == 403  # another seat's token
    assert ask(client, match_id, 0, None).status_code == 403
    assert ask(client, match_id, 0, "x" * 43).status_code == 403
    refused = ask(client, match_id, 2, "anything")  # a bot seat: the same refusal as a wrong token
    assert refused.status_code == 403 and refused.json()["error"] == "wrong token for that seat"
    assert ask(client, "no-such-match", 0, "t").status_code == 404
    assert ask(client, "../" * 30, None, None).status_code == 404
    for body in ([], {"seat": 0, "token": "t", "more": 1}, {"seat": "0"}, {"seat": True}, {"seat": 3},
                 {"seat": -1}, {"seat": 0, "token": 5}):
        response = client.post(f"/api/matches/{match_id}/replay", json=body)
        assert response.status_code == 400, (body, response.text)
    assert client.post(f"/api/matches/{match_id}/replay", content=b"{", headers=JSON).status_code == 400
    big = client.post(f"/api/matches/{match_id}/replay", content=b" " * (MAX_REQUEST + 1), headers=JSON)
    assert big.status_code == 413
    assert client.post(f"/api/matches/{match_id}/replay", content=b"seat=0",
                       headers={"content-type": "text/plain"}).status_code == 415


def test_spectators_of_public_and_private_matches(client: TestClient, finished: Any) -> None:
    match_id, _, game = finished
    data = ask(client, match_id, None, None).json()
    assert data["viewer"] is None and all(s["hand"] is None for s in data["steps"])
    assert len(data["steps"]) == game.entry_count + 1
    created = client.post("/api/matches", json={"game": "crazy-eights", "players": 2, "seed": 1, "private": True,
                                                "bots": {"1": "rule"}}).json()
    private = created["match_id"]
    play_out(client, private, random.Random(1))
    assert ask(client, private, None, None).status_code == 403
    assert ask(client, private, None, created["tokens"]["0"]).status_code == 403  # a seat token is not it
    assert ask(client, private, None, created["spectator_token"]).status_code == 200
    assert ask(client, private, 0, created["tokens"]["0"]).status_code == 200


def test_a_match_in_progress_replays_up_to_now_as_seen_live(client: TestClient) -> None:
    match_id, tokens = make_match(client, game="wizard", players=3, seed=2, options={"rounds": 2})
    game = play_out(client, match_id, random.Random(2), limit=7)
    assert not game.is_over
    data = ask(client, match_id, 1, tokens["1"]).json()
    assert data["in_progress"] is True and data["result"] is None
    assert len(data["steps"]) == game.entry_count + 1
    assert data["steps"][-1]["to_act"] == game.to_act
    assert [c["code"] for c in data["steps"][-1]["hand"]] == game.view(1)["hand"]


def test_an_uploaded_full_log_is_shown_from_any_seat(client: TestClient, finished: Any) -> None:
    _, _, game = finished
    text = dumps(game.log)
    for seat, query in ((0, ""), (1, "?seat=1"), (2, "?seat=2"), (None, "?seat=spectator")):
        response = client.post("/api/replays" + query, content=text.encode(), headers=JSON)
        assert response.status_code == 200, response.text
        data = response.json()
        assert data["viewer"] == seat and data["source"] == "log" and data["viewers"] == [0, 1, 2, None]
        assert len(data["steps"]) == game.entry_count + 1
        if seat is not None:
            assert [c["code"] for c in data["steps"][-1]["hand"]] == game.view(seat)["hand"]
    for query in ("?seat=3", "?seat=-1", "?seat=x", "?seat=99999"):
        assert client.post("/api/replays" + query, content=text.encode(), headers=JSON).status_code == 400, query


def test_an_uploaded_seat_log_is_shown_from_its_seat_only(client: TestClient, finished: Any) -> None:
    _, _, game = finished
    text = dumps(game.log_for(1))
    data = client.post("/api/replays", content=text.encode(), headers=JSON).json()
    assert data["viewer"] == 1 and data["source"] == "seat-log"
    assert data["viewers"] == [1] and len(data["steps"]) == game.entry_count + 1
    if data["tables"]:  # a rebuilt table is the seat's own table at every step (see below)
        assert data["steps"] == build_replay(game, 1)["steps"]
    else:  # none fitted within the bound (this match's moves depend on the bot's timing)
        assert data["note"].startswith("No table") and all(s["hand"] is None for s in data["steps"])
    from cardkit.render import describe
    assert data["steps"][2]["sentences"] == [describe(game.rules, e, 1) for e in game.entries_for(1)[1].events]
    assert client.post("/api/replays?seat=1", content=text.encode(), headers=JSON).status_code == 200
    for query in ("?seat=0", "?seat=spectator"):
        refused = client.post("/api/replays" + query, content=text.encode(), headers=JSON)
        assert refused.status_code == 403 and "seat 1's log" in refused.json()["error"]


def test_malformed_and_oversized_uploads_are_refused(client: TestClient, finished: Any) -> None:
    _, _, game = finished
    full = json.loads(dumps(game.log))
    changed = json.loads(dumps(game.log))
    changed["seed"] = (changed["seed"] + 1) % 2**64  # every deal is now another one
    seat_log = json.loads(dumps(game.log_for(0)))
    bad_entry = json.loads(dumps(game.log_for(0)))
    bad_entry["entries"][3]["events"] = [{"type": "no_such_event"}]
    cases: list[bytes] = [
        b"", b"{", b"null", b"[]", b"\xff\xfe{}", b"[" * 100_000 + b"]" * 100_000,
        json.dumps({**full, "game": "no-such-game"}).encode(),
        json.dumps({**full, "entries": full["entries"][1:]}).encode(),
        json.dumps(changed).encode(),
        json.dumps({**seat_log, "entries": "x"}).encode(),
        json.dumps(bad_entry).encode(),
    ]
    for body in cases:
        response = client.post("/api/replays", content=body, headers=JSON)
        assert response.status_code == 400, (body[:60], response.text)
        assert "Traceback" not in response.text
    big = client.post("/api/replays", content=b" " * (MAX_UPLOAD + 1), headers=JSON)
    assert big.status_code == 413 and big.headers["connection"] == "close"

    def chunks() -> Any:  # no Content-Length: refused at the first chunk past the limit
        for _ in range(MAX_UPLOAD // 65536 + 2):
            yield b" " * 65536

    assert client.post("/api/replays", content=chunks(), headers=JSON).status_code == 413
    assert client.post("/api/replays", content=dumps(game.log).encode(),
                       headers={"content-type": "text/plain"}).status_code == 415


def test_a_log_past_the_entry_limit_is_refused(client: TestClient, monkeypatch: pytest.MonkeyPatch, finished: Any) -> None:
    import cardkit.web.replay as replay
    match_id, tokens, game = finished
    monkeypatch.setattr(replay, "MAX_REPLAY_ENTRIES", game.entry_count - 1)
    assert client.post("/api/replays", content=dumps(game.log).encode(), headers=JSON).status_code == 413
    assert client.post("/api/replays", content=dumps(game.log_for(0)).encode(), headers=JSON).status_code == 413
    assert ask(client, match_id, 0, tokens["0"]).status_code == 413


def test_the_page_is_served_under_the_host_headers(client: TestClient) -> None:
    page = client.get("/replay")
    assert page.status_code == 200 and "<script src=\"/static/replay.js\"></script>" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "<style" not in page.text and " style=" not in page.text and "onclick" not in page.text
    assert client.get("/static/replay.js").status_code == 200
    assert client.get("/static/replay.css").status_code == 200


def test_card_names_for_screen_readers() -> None:
    assert card_name("QS") == "queen of spades" and card_name("TH") == "10 of hearts"
    assert card_name("W") == "Wizard" and card_name("N") == "Jester" and card_name("RJ") == "red joker"


def test_a_store_failure_is_a_500_without_details(client: TestClient, finished: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    match_id, tokens, _ = finished
    host = client.app.state.host  # type: ignore[attr-defined]

    def broken(match_id: str) -> Any:
        raise RuntimeError("deck order 7S 8S 9S")

    monkeypatch.setattr(host.store, "load", broken)
    response = ask(client, match_id, 0, tokens["0"])
    assert response.status_code == 500 and "7S" not in response.text


def test_a_host_without_client_seeds_still_replays(finished: Any) -> None:
    # Uploads need no seed from the host: replaying a log never deals anything new.
    game = new_game("crazy-eights", players=2, seed=9)
    with TestClient(create_app("memory:")) as plain:
        response = plain.post("/api/replays?seat=1", content=dumps(game.log).encode(), headers=JSON)
        assert response.status_code == 200 and len(response.json()["steps"]) == game.entry_count + 1


def test_replays_past_the_build_limit_are_503(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardkit.web.replay as replay
    game = new_game("crazy-eights", players=2, seed=9)
    monkeypatch.setattr(replay, "MAX_BUILDS", 0)  # every build is one too many
    with TestClient(create_app("memory:")) as busy:
        response = busy.post("/api/replays", content=dumps(game.log).encode(), headers=JSON)
        assert response.status_code == 503 and response.headers["retry-after"] == "2"


@pytest.mark.parametrize("game_name,options,seed,seat", [
    ("crazy-eights", {}, 0, 0), ("crazy-eights", {}, 2, 1), ("cutthroat-spades", {"max_hands": 1, "wins_needed": 1}, 1, 2),
    ("wizard", {"rounds": 4}, 1, 1),
])
def test_a_seat_log_table_is_exactly_what_the_seat_saw(client: TestClient, game_name: str, options: Any,
                                                       seed: int, seat: int) -> None:
    """Stepping forwards and back through an uploaded seat log shows, at every step, the very
    table the seat had (its view and status as the live game gave them), nothing more."""
    game = new_game(game_name, players=3, seed=seed, **options)
    rng = random.Random(seed)
    while not game.is_over and game.entry_count < 300:
        game = game.play(rng.choice(game.legal_actions()), game.to_act)
    response = client.post(f"/api/replays?seat={seat}", content=dumps(game.log_for(seat)).encode(), headers=JSON)
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["tables"] is True and data["note"] is None and data["viewers"] == [seat]
    own = build_replay(game, seat)
    assert data["steps"] == own["steps"]
    assert data["result"] == own["result"] and data["in_progress"] == own["in_progress"]
    # (the same steps as the seat's own replay of the real game: its view, its status and its
    # sentences, which the leak tests check; no invented hidden card can be in them)


def test_a_seat_log_claiming_hidden_cards_is_refused_without_naming_them(client: TestClient) -> None:
    game = new_game("crazy-eights", players=3, seed=5)
    forged = json.loads(dumps(game.log_for(0)))
    full = json.loads(dumps(game.log))
    deal = next(i for i, e in enumerate(full["entries"]) if any("hands" in ev for ev in e["events"]))
    other = full["entries"][deal]["events"][0]["hands"][1]
    forged["entries"][deal]["events"][0]["hands"][1] = other  # seat 1's hand in seat 0's log
    response = client.post("/api/replays", content=json.dumps(forged).encode(), headers=JSON)
    assert response.status_code == 400
    error = response.json()["error"]
    assert "hide" in error and f"entry {deal}" in error
    assert not any(code in error for code in other)
    relabelled = json.loads(dumps(game.log_for(1)))  # seat 1's log, claiming to be seat 0's
    relabelled["seat"] = 0
    response = client.post("/api/replays?seat=0", content=json.dumps(relabelled).encode(), headers=JSON)
    assert response.status_code == 400 and "hide" in response.json()["error"]


def test_a_seat_log_that_fits_no_game_gets_its_sentences_and_a_note(client: TestClient) -> None:
    game = new_game("crazy-eights", players=3, seed=5)
    while not (game.to_act == 1 and any(str(a).startswith("play") for a in game.legal_actions())):
        game = game.play(game.legal_actions()[0], game.to_act)
    game = game.play(next(a for a in game.legal_actions() if str(a).startswith("play")), 1)
    log = json.loads(dumps(game.log_for(0)))
    mine = log["entries"][1]["events"][0]["hands"][0]
    last = log["entries"][-1]
    assert last["actor"] == 1 and last["action"]["type"] == "play", last
    last["action"]["card"] = mine[0]  # seat 1 "plays" a card seat 0 holds
    last["events"][0]["card"] = mine[0]
    response = client.post("/api/replays", content=json.dumps(log).encode(), headers=JSON)
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["tables"] is False and data["note"].startswith("No table could be rebuilt")
    assert all(s["hand"] is None and s["status"] is None for s in data["steps"])
