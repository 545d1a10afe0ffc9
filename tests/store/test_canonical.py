"""Item 9 of issue 24: ``cardkit.dumps`` of one log is one byte string, whatever built it
(a played game, a parsed file with its keys in another order, each store backend)."""

from __future__ import annotations

import json

import cardkit
import cardkit.store
from cardkit.rng import Rng

from .helpers import PLAYERS, random_moves


def _shuffled_keys(value: object, rng: Rng) -> object:
    """The same JSON data with the keys of every object in another order."""
    if isinstance(value, dict):
        keys = list(value)
        order = rng.shuffle(tuple(range(len(keys))))
        return {keys[i]: _shuffled_keys(value[keys[i]], rng) for i in order}
    if isinstance(value, list):
        return [_shuffled_keys(v, rng) for v in value]
    return value


def test_dumps_is_canonical_across_paths_and_backends(store: cardkit.store.Store) -> None:
    options = {"crazy-eights": {"mode": "points", "jack_skips": True}, "wizard": {"rounds": 2}}
    for name, players in sorted(PLAYERS.items()):
        game = cardkit.new_game(name, players=players, seed=31, **options.get(name, {}))
        game, _ = random_moves(game, Rng(4), 20)
        played = cardkit.dumps(game.log)
        assert list(json.loads(played)["config"]) == sorted(json.loads(played)["config"])
        # a file whose objects list their keys in any order
        data = json.loads(played)
        for i in range(3):
            text = json.dumps(_shuffled_keys(data, Rng(i)))
            assert cardkit.dumps(cardkit.loads(text)) == played
        assert cardkit.dumps(cardkit.loads(played)) == played
        assert cardkit.dumps(cardkit.replay(cardkit.loads(played)).log) == played
        # stored, then read back as a log, as a loaded game and after a move
        match_id = store.create(game)
        assert cardkit.dumps(store.log(match_id)) == played
        assert cardkit.dumps(cardkit.replay(store.log(match_id)).log) == played
        if not game.is_over:
            moved = game.play(game.legal_actions()[0])
            store.play(match_id, game.legal_actions()[0])
            assert cardkit.dumps(store.log(match_id)) == cardkit.dumps(moved.log)
        imported = store.import_log(cardkit.loads(json.dumps(_shuffled_keys(data, Rng(9)))))
        assert cardkit.dumps(store.log(imported)) == played
