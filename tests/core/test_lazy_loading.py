"""Start-up: `import cardkit` and `cardkit games` load only what they use, and every
public name still resolves (to the same object as its defining module's)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import cardkit
from cardkit.games import _BUILTIN_GAMES, builtin_player_range, get_rules

ROOT = Path(__file__).resolve().parents[2]


def _modules_after(code: str) -> set[str]:
    script = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_import_cardkit_loads_no_engine_games_or_cattrs() -> None:
    loaded = _modules_after("import cardkit")
    heavy = {m for m in loaded if m.startswith(("cardkit.games", "cardkit.core", "cardkit.serde", "cattrs"))}
    assert heavy == set()


def test_cardkit_games_imports_no_game_module() -> None:
    loaded = _modules_after(
        textwrap.dedent(
            """
            import contextlib, io
            from cardkit.cli.main import main
            with contextlib.redirect_stdout(io.StringIO()) as out:
                assert main(["games"]) == 0
            assert "crazy-eights  (2-7 players)" in out.getvalue(), out.getvalue()
            """
        )
    )
    games = {m for m in loaded if m.startswith("cardkit.games.") and m != "cardkit.games.notation"}
    assert games == set()
    assert not any(m.startswith(("cattrs", "cardkit.testing", "cardkit.serde")) for m in loaded)


def test_a_game_lookup_imports_only_that_game() -> None:
    loaded = _modules_after("import cardkit\ncardkit.new_game('wizard', players=3, seed=1)")
    assert "cardkit.games.wizard.rules" in loaded
    others = ("crazy_eights", "cutthroat_spades", "spacc_u_mazz")
    assert not any(m.startswith(f"cardkit.games.{g}") for m in loaded for g in others)


@pytest.mark.parametrize("name", sorted(cardkit.__all__))
def test_every_public_name_resolves_to_its_module_object(name: str) -> None:
    value = getattr(cardkit, name)
    if name == "__version__":
        assert isinstance(value, str)
        return
    module = importlib.import_module(cardkit._LAZY[name])
    assert value is getattr(module, name)
    assert name in dir(cardkit)


def test_an_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        cardkit.no_such_name  # noqa: B018
    assert not hasattr(cardkit, "no_such_name")


@pytest.mark.parametrize("name", sorted(_BUILTIN_GAMES))
def test_the_builtin_table_matches_each_games_rules(name: str) -> None:
    rules = get_rules(name)
    assert rules.name == name
    assert builtin_player_range(name) == (rules.min_players, rules.max_players)
    assert importlib.import_module(_BUILTIN_GAMES[name][0]).RULES is rules


def test_available_games_lists_builtins_whether_loaded_or_not() -> None:
    assert set(_BUILTIN_GAMES) <= set(cardkit.available_games())
    assert builtin_player_range("no-such-game") is None
