"""Build cardkit's API reference (HTML, with pdoc) from the docstrings, and fail on any problem.

Usage, from the repository root::

    python docs/build_api.py                 # writes build/api/ (open build/api/index.html)
    python docs/build_api.py --output DIR

It documents ``cardkit`` and every public submodule (no ``_`` in any part of its name) and
exits with status 1, printing every problem, when:

* a module cannot be imported (an optional extra missing: install it, the reference covers
  every module);
* pdoc emits any warning (an unresolvable annotation, a broken cross reference, ...);
* a name listed in a module's ``__all__`` has no docstring or is absent from the reference;
* a page mentions a file that is not part of the repository (the docs stand on their own).

The same checks run in the test suite (``tests/test_api_reference.py``). The game kernels
are documented from their sources (the pure build: compiled modules keep no docstrings).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import re
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

import pdoc
import pdoc.doc
import pdoc.doc_ast as doc_ast
import pdoc.render

PACKAGE = "cardkit"
DEFAULT_OUTPUT = Path("build/api")
# Paths of the project's private working files, which a user of the library does not have.
OUTSIDE = re.compile(r"\bshared/|\brules/[\w.-]*\.md|\bseeds?/|\bDESIGN\.md|\bthe spec(ification)? file", re.I)


def public_modules() -> tuple[list[str], list[str]]:
    """The importable public module names of cardkit (sorted), and the import failures."""
    root = importlib.import_module(PACKAGE)
    # `import cardkit` loads its public names lazily (PEP 562); pdoc reads module globals,
    # so load every name of __all__ first.
    for name in getattr(root, "__all__", ()):
        getattr(root, name)
    names = [PACKAGE]
    problems: list[str] = []
    for info in pkgutil.walk_packages(root.__path__, PACKAGE + ".", onerror=lambda name: None):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        try:
            importlib.import_module(info.name)
        except ImportError as exc:  # an optional extra that is not installed
            problems.append(f"{info.name}: cannot be imported ({exc})")
            continue
        names.append(info.name)
    return sorted(names), problems


def _source_docstring(name: str, obj: object, modules: Sequence[str]) -> str:
    """The docstring a re-exported variable has in the module that assigns it ("" if none).

    A value such as ``CHANCE = -1`` cannot carry its own docstring: pdoc reads variable
    docstrings from the source of the module that assigns them, so a re-export
    (``cardkit.CHANCE``) would show none. The reference shows the defining module's.
    """
    for other in modules:
        module = importlib.import_module(other)
        if module.__dict__.get(name, _MISSING) is obj:
            text = doc_ast.walk_tree(module).var_docstrings.get(name, "").strip()
            if text:
                return text
    return ""


_MISSING = object()
_MODELS: dict[tuple[str, ...], dict[str, pdoc.doc.Module]] = {}


def models(modules: Sequence[str]) -> dict[str, pdoc.doc.Module]:
    """pdoc's model of every module, re-exported variables given their source docstring."""
    key = tuple(modules)
    if key not in _MODELS:
        built = {name: pdoc.doc.Module.from_name(name) for name in modules}
        for doc in built.values():
            for name, member in doc.members.items():
                if isinstance(member, pdoc.doc.Variable) and not (member.docstring or "").strip():
                    member.docstring = _source_docstring(name, getattr(doc.obj, name, None), modules)
        _MODELS[key] = built
    return _MODELS[key]


def undocumented(module_name: str, modules: Sequence[str]) -> list[str]:
    """The names of the module's ``__all__`` without a docstring in the reference's model."""
    module = importlib.import_module(module_name)
    doc = models(modules)[module_name]
    problems = []
    if not (doc.docstring or "").strip():
        problems.append(f"{module_name}: the module has no docstring")
    for name in getattr(module, "__all__", ()):
        member = doc.get(name)
        if member is None:
            problems.append(f"{module_name}.{name}: listed in __all__ but not in the reference")
        elif not (member.docstring or "").strip():
            problems.append(f"{module_name}.{name}: no docstring")
    return problems


def render(modules: Sequence[str], output: Path) -> None:
    """Write one HTML page per module, the index and the search index (as ``pdoc.pdoc``)."""
    all_modules = models(modules)
    for name, doc in all_modules.items():
        page = output.joinpath(*name.split(".")).with_suffix(".html")
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(pdoc.render.html_module(doc, all_modules), "utf-8")
    index = pdoc.render.html_index(all_modules)
    if index:
        (output / "index.html").write_text(index, "utf-8")
    search = pdoc.render.search_index(all_modules)
    if search:
        (output / "search.js").write_text(search, "utf-8")


def missing_from_html(module_name: str, output: Path) -> list[str]:
    """Names of the module's ``__all__`` without an anchor in its rendered page."""
    module = importlib.import_module(module_name)
    page = output.joinpath(*module_name.split(".")).with_suffix(".html")
    if not page.is_file():
        return [f"{module_name}: no page {page}"]
    html = page.read_text("utf-8")
    return [
        f"{module_name}.{name}: not in {page}"
        for name in getattr(module, "__all__", ())
        if f'id="{name}"' not in html
    ]


def outside_references(output: Path) -> list[str]:
    """Mentions, in the rendered reference, of files that are not part of the repository."""
    return [
        f"{page.relative_to(output)}: mentions {match.group(0)!r}, which users do not have"
        for page in sorted(output.rglob("*.html"))
        for match in OUTSIDE.finditer(page.read_text("utf-8"))
    ]


def build(output: Path) -> list[str]:
    """Render the reference into ``output``; return every problem found (empty: success)."""
    modules, problems = public_modules()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pdoc.render.configure(docformat="restructuredtext", show_source=True, search=True)
        render(modules, output)
    problems += [f"pdoc warning: {w.message}" for w in caught]
    for name in modules:
        problems += undocumented(name, modules)
        problems += missing_from_html(name, output)
    return problems + outside_references(output)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="default: build/api")
    args = parser.parse_args(argv)
    # The reference documents the game kernels' sources: a mypyc-compiled module keeps no
    # docstrings (module, classes, constants), so this process loads the pure build.
    os.environ["CARDKIT_KERNELS"] = "pure"
    problems = build(args.output)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"API reference: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"API reference written to {args.output}/index.html")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
