"""A request-per-move host over a store: each request is one call that loads, plays, saves.

No web framework: ``handle(store, request)`` takes and returns JSON-like dicts, as a web
handler would. The store keeps one row per entry plus a snapshot every 64 entries, so the
cost of a move does not grow with the game (compare the first and last moves printed).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import cardkit
import cardkit.store
from cardkit.rng import Rng


def handle(store: cardkit.store.Store, request: dict[str, Any]) -> dict[str, Any]:
    """One request: ``{"new": game, "players": n, "seed": s}`` or
    ``{"match": id, "seat": s, "expected_seq": n, "action": "play 8H S"}``."""
    try:
        if "new" in request:
            game = cardkit.new_game(request["new"], players=request["players"], seed=request["seed"])
            match_id = store.create(game)
            return {"match": match_id, "seq": store.info(match_id).last_seq}
        game = store.play(
            request["match"], request["action"], seat=request["seat"],
            expected_seq=request["expected_seq"],
        )
        seat = request["seat"]
        return {
            "seq": game.last_entry.seq if game.last_entry else -1,
            "view": game.view(seat),
            "new_entries": len(store.entries_for(request["match"], seat, request["expected_seq"])),
        }
    except cardkit.store.ConcurrencyError as exc:
        return {"error": "stale", "message": str(exc)}
    except cardkit.CardkitError as exc:
        return {"error": type(exc).__name__, "message": str(exc)}


def main() -> None:
    """Play a whole two-player Spacc 'u Mazz game through requests, as a host would."""
    with tempfile.TemporaryDirectory() as tmp:
        # synchronous=normal: durable against a crash of this process (not a power cut),
        # which keeps the example quick; the default, full, survives both.
        url = f"sqlite:///{Path(tmp) / 'games.db'}?synchronous=normal"
        with cardkit.store.open(url) as store:
            reply = handle(store, {"new": "spacc-u-mazz", "players": 2, "seed": 2024})
            match_id, seq = reply["match"], reply["seq"]
            rng = Rng(7)
            timings: list[float] = []
            # A client knows the legal moves from its view; here a random client picks one.
            while True:
                game = store.load(match_id)
                if game.is_over or len(timings) >= 600:
                    break
                seat = game.to_act
                legal = game.legal_actions()
                request = {"match": match_id, "seat": seat, "expected_seq": seq,
                           "action": str(legal[rng.below(len(legal))])}
                start = time.perf_counter()
                reply = handle(store, request)
                timings.append(time.perf_counter() - start)
                assert "error" not in reply, reply
                seq = reply["seq"]
            stale = handle(store, {"match": match_id, "seat": 0, "expected_seq": 0, "action": "draw"})
            info = store.info(match_id)
        first = sorted(timings[:50])[25] * 1000
        last = sorted(timings[-50:])[25] * 1000
        print(f"{len(timings)} moves, {info.entries} entries stored, over: {info.is_over}")
        print(f"median request: first 50 moves {first:.2f} ms, last 50 moves {last:.2f} ms")
        print(f"a stale request is refused: {stale['error']}")


if __name__ == "__main__":
    main()
