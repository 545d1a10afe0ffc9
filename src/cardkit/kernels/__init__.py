"""Game kernels: int-coded, mutable copies of the built-in games' rules for fast playouts.

Each ``cardkit/kernels/<name>.py`` (the contract: :mod:`cardkit.kernels._base`) is
restricted typed Python that mypyc compiles when the package is installed on a machine
with a C compiler (docs/kernels.md, "Building"). This package chooses, once, on first
import and before any kernel module is imported, which build the process uses:

* :data:`BUILD` is ``"compiled"`` or ``"pure"``; :data:`BUILD_REASON` says why;
* the environment variable ``CARDKIT_KERNELS`` decides: ``auto`` (the default: the
  compiled build when it is installed and current, else pure), ``pure`` (the ``.py``
  sources even when compiled modules are present) or ``compiled`` (raise
  :class:`KernelBuildError` when there is no current compiled build);
* a compiled module shadows its source, so a build records the sha256 of every source it
  compiled; when a source has changed since (a developer editing a kernel), ``auto``
  loads *all* kernels from source, with a warning: compiled and interpreted kernels do
  not mix (a source class cannot subclass a compiled one). ``python -m cardkit.kernels
  build`` rebuilds in place; ``python -m cardkit.kernels info`` shows the state.

The compiled set is every module here except the dunder files and ``bridge``
(``cardkit._kernel_build.PURE_MODULES``).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Sequence

from cardkit._kernel_build import compiled_names, read_manifest, source_hashes

__all__ = ["BUILD", "BUILD_REASON", "MODULES", "RUNTIME_ENV", "KernelBuildError", "compiled_available"]

RUNTIME_ENV = "CARDKIT_KERNELS"
"""The run-time switch: ``auto`` (default), ``pure`` or ``compiled``."""

_DIR = Path(__file__).resolve().parent

MODULES: tuple[str, ...] = tuple(compiled_names(_DIR))
"""The kernel modules of the compiled set (``_base``, the games', the search's), sorted."""


class KernelBuildError(ImportError):
    """``CARDKIT_KERNELS=compiled`` asked for a compiled build that is absent or stale
    (or the variable has a value other than auto, pure, compiled)."""


def _compiled_files() -> list[str]:
    """The compiled modules present here for this interpreter (any extension suffix)."""
    present = []
    for name in MODULES:
        if any((_DIR / f"{name}{suffix}").exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES):
            present.append(name)
    return present


def _check_compiled() -> str | None:
    """``None`` when a current compiled build is here, else why not (one line)."""
    present = _compiled_files()
    if not present:
        manifest = read_manifest(_DIR)
        if manifest is not None and manifest.get("build") == "pure" and manifest.get("reason"):
            return f"no compiled build installed ({manifest['reason']})"
        return "no compiled build installed"
    manifest = read_manifest(_DIR)
    if manifest is None or manifest.get("build") != "compiled":
        return f"compiled modules without a build record ({_DIR / '_compiled.json'}): stale"
    if manifest.get("suffix") not in importlib.machinery.EXTENSION_SUFFIXES:
        return f"the compiled build is for another interpreter ({manifest.get('suffix')})"
    recorded = manifest.get("modules")
    if not isinstance(recorded, dict):
        return "the build record lists no modules: stale"
    current = source_hashes(_DIR, list(MODULES))
    changed = sorted(name for name in current if recorded.get(name) != current[name])
    if changed:
        files = ", ".join(f"{name}.py" for name in changed)
        return f"the compiled build is stale: {files} changed or added since it was built"
    missing = sorted(set(MODULES) - set(present))
    if missing:
        return f"the compiled build is incomplete: no compiled {', '.join(missing)}"
    return None


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Imports this package's kernel modules from their ``.py`` sources, ahead of the
    default finder (which prefers an extension module of the same name)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, _DIR / f"{name}.py")


def _choose() -> tuple[str, str]:
    wanted = os.environ.get(RUNTIME_ENV, "").strip().lower() or "auto"
    if wanted not in ("auto", "pure", "compiled"):
        raise KernelBuildError(f"{RUNTIME_ENV}={wanted!r}: expected auto, pure or compiled")
    problem = _check_compiled()
    if wanted == "compiled":
        if problem is not None:
            raise KernelBuildError(
                f"{RUNTIME_ENV}=compiled but {problem}; build it with `python -m cardkit.kernels "
                f"build` (a source checkout) or reinstall cardkit on a machine with a C compiler "
                f"and Python headers"
            )
        return "compiled", f"{RUNTIME_ENV}=compiled"
    if wanted == "pure":
        return "pure", f"{RUNTIME_ENV}=pure"
    if problem is None:
        return "compiled", "the compiled build is installed and current"
    manifest = read_manifest(_DIR)
    if _compiled_files() or (manifest is not None and manifest.get("build") == "compiled"):
        # a build was made here and no longer fits: say so (a plain pure install is silent)
        warnings.warn(
            f"cardkit.kernels: {problem}; loading every kernel from its Python source (slower). "
            f"Rebuild with `python -m cardkit.kernels build` or reinstall cardkit.",
            RuntimeWarning,
            stacklevel=2,
        )
    return "pure", problem


def compiled_available() -> bool:
    """Whether a current compiled build is present (whatever :data:`BUILD` is)."""
    return _check_compiled() is None


_CHOICE = _choose()

BUILD: str = _CHOICE[0]
"""``"compiled"`` or ``"pure"``: the build of the kernels this process loads (chosen once,
at the first import of :mod:`cardkit.kernels`; ``cardkit --version`` prints it)."""

BUILD_REASON: str = _CHOICE[1]
"""Why :data:`BUILD` is what it is, in one line (``python -m cardkit.kernels info``)."""

if BUILD == "pure" and _compiled_files():
    # Ahead of the path finder, which would load the compiled module of the same name.
    sys.meta_path.insert(0, _SourceFinder())
