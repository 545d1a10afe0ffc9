"""Every public name has a docstring and is in the API reference (docs/build_api.py).

The full HTML build runs in CI (``python docs/build_api.py``, failing on any pdoc warning);
here pdoc's model of every public module is checked, and the top-level page is rendered.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

pdoc = pytest.importorskip("pdoc", reason="the API reference needs pdoc (the dev extra)")

ROOT = Path(__file__).resolve().parent.parent


def _load_build_api() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_api", ROOT / "docs" / "build_api.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_api"] = module
    spec.loader.exec_module(module)
    return module


build_api = _load_build_api()
MODULES, IMPORT_PROBLEMS = build_api.public_modules()


def test_every_public_module_imports() -> None:
    # The web extra needs Python >= 3.11 (current Starlette): on 3.10 it is not installed.
    old_python = sys.version_info < (3, 11)
    assert [p for p in IMPORT_PROBLEMS if not (old_python and p.startswith("cardkit.web"))] == []
    assert {"cardkit", "cardkit.core.rules", "cardkit.games.wizard", "cardkit.testing"} <= set(MODULES)


def _compiled_here(module_name: str) -> bool:
    """Whether this process loaded ``module_name`` compiled (a game kernel under the
    compiled build: mypyc keeps no docstrings, so the reference documents the sources)."""
    module = sys.modules.get(module_name)
    return module is not None and not str(getattr(module, "__file__", "")).endswith(".py")


@pytest.mark.parametrize("module_name", MODULES)
def test_every_name_in_all_has_a_docstring_in_the_reference(module_name: str) -> None:
    if _compiled_here(module_name):
        code = (
            "import json, sys; sys.path.insert(0, 'docs'); import build_api; "
            "print(json.dumps(build_api.undocumented(sys.argv[1], json.loads(sys.argv[2]))))"
        )
        out = subprocess.run(
            [sys.executable, "-c", code, module_name, json.dumps(MODULES)],
            capture_output=True, text=True, cwd=ROOT, timeout=300,
            env={**os.environ, "CARDKIT_KERNELS": "pure"},
        )
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout.splitlines()[-1]) == []
        return
    assert build_api.undocumented(module_name, MODULES) == []


def test_the_top_level_page_has_every_public_name(tmp_path: Path) -> None:
    import cardkit

    build_api.render(["cardkit"], tmp_path)
    html = (tmp_path / "cardkit.html").read_text("utf-8")
    missing = [name for name in cardkit.__all__ if f'id="{name}"' not in html]
    assert missing == []
    assert build_api.missing_from_html("cardkit", tmp_path) == []
    assert (tmp_path / "index.html").is_file() and (tmp_path / "search.js").is_file()


def test_a_re_exported_constant_shows_the_docstring_of_its_module() -> None:
    (chance,) = [d for d in build_api.models(MODULES)["cardkit"].members.values() if d.name == "CHANCE"]
    assert "chance node" in chance.docstring


def test_a_missing_docstring_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "docless_example.py").write_text(
        '"""A module."""\n__all__ = ["documented", "bare", "LIMIT"]\n'
        'def documented() -> None:\n    """Has one."""\n'
        "def bare() -> None:\n    pass\n"
        "LIMIT = 3\n",
        "utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert build_api.undocumented("docless_example", ["docless_example"]) == [
        "docless_example.bare: no docstring",
        "docless_example.LIMIT: no docstring",
    ]


def test_a_module_page_without_a_name_is_reported(tmp_path: Path) -> None:
    (tmp_path / "cardkit.html").write_text('<section id="Game"></section>', "utf-8")
    problems = build_api.missing_from_html("cardkit", tmp_path)
    assert "cardkit.Game: not in" not in " ".join(problems)
    assert any(p.startswith("cardkit.new_game: not in") for p in problems)


def test_the_reference_mentions_no_file_outside_the_repository(tmp_path: Path) -> None:
    (tmp_path / "page.html").write_text("see shared/rules/wizard.md and docs/games/wizard.md", "utf-8")
    assert build_api.outside_references(tmp_path) == [
        "page.html: mentions 'shared/', which users do not have",
        "page.html: mentions 'rules/wizard.md', which users do not have",
    ]
