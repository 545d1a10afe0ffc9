"""Building the game kernels with mypyc, and the record that tells a build from a stale one.

Used by three callers: the wheel build hook (``hatch_build.py``, which loads this file by
path because the package cannot be imported inside an isolated build environment),
``python -m cardkit.kernels build`` (a developer's in-place rebuild) and the kernel loader
(:mod:`cardkit.kernels`, which reads the manifest at import). So it imports only the
standard library at module level; mypyc and setuptools are imported by :func:`compile_kernels`.

The compiled set is every ``cardkit/kernels/*.py`` except the dunder files
(``__init__.py``, ``__main__.py``) and ``bridge.py`` (see :data:`PURE_MODULES`): a new
kernel module is compiled by being there, and a module that must stay pure is named here.

A build writes ``cardkit/kernels/_compiled.json`` (the *manifest*): the build kind, the
extension suffix it was built for, the mypy release, and the sha256 of every compiled
source. A compiled module shadows its ``.py``; the loader trusts the compiled modules only
while every source still hashes to what the manifest says.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Mapping

__all__ = [
    "PURE_MODULES",
    "MANIFEST",
    "GROUP",
    "BUILD_ENV",
    "KernelCompileError",
    "compiled_names",
    "source_hashes",
    "read_manifest",
    "make_manifest",
    "write_manifest",
    "artifacts",
    "compile_kernels",
    "build_in_place",
    "clean_in_place",
]

PURE_MODULES = frozenset({"bridge"})
"""Modules of ``cardkit/kernels`` that are never compiled besides the dunder files: the
bridge is ordinary Python (attrs, the games' objects) on the reference side."""

MANIFEST = "_compiled.json"
"""The build record, next to the kernels (generated; never committed)."""

GROUP = "cardkit.kernels._kernels"
"""mypyc's group name: the compiled modules share one library,
``cardkit/kernels/_kernels__mypyc.<suffix>``, kept inside the package so that an
editable checkout and an installed wheel hold every artifact in ``cardkit/kernels``."""

BUILD_ENV = "CARDKIT_BUILD_KERNELS"
"""The install-time switch: ``auto`` (default: compile, else warn and install pure),
``pure`` (skip the compiler) or ``compiled`` (fail the install if mypyc cannot build)."""

FORMAT = 1


class KernelCompileError(RuntimeError):
    """mypyc could not build the kernels (no C compiler, no Python headers, a type error)."""


def compiled_names(kernels_dir: Path) -> list[str]:
    """The module names (``_base``, ``crazy_eights`` …) of the compiled set, sorted."""
    return sorted(
        path.stem
        for path in kernels_dir.glob("*.py")
        if not path.stem.startswith("__") and path.stem not in PURE_MODULES
    )


def source_hashes(kernels_dir: Path, names: list[str] | None = None) -> dict[str, str]:
    """sha256 of each compiled source, by module name."""
    if names is None:
        names = compiled_names(kernels_dir)
    return {name: hashlib.sha256((kernels_dir / f"{name}.py").read_bytes()).hexdigest() for name in names}


def read_manifest(kernels_dir: Path) -> dict[str, Any] | None:
    """The manifest of the last build in ``kernels_dir``, or ``None`` (absent or unreadable)."""
    try:
        data = json.loads((kernels_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_manifest(directory: Path, manifest: Mapping[str, Any]) -> None:
    """Write ``manifest`` as ``directory/_compiled.json``."""
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def artifacts(kernels_dir: Path) -> list[Path]:
    """Every compiled file in ``kernels_dir`` (for any interpreter) and the manifest."""
    found = [p for p in kernels_dir.iterdir() if p.suffix in (".so", ".pyd")]
    manifest = kernels_dir / MANIFEST
    if manifest.exists():
        found.append(manifest)
    return sorted(found)


def make_manifest(kind: str, hashes: Mapping[str, str], reason: str, seconds: float | None = None) -> dict[str, Any]:
    """A build record: ``kind`` is ``"compiled"`` or ``"pure"`` (with the reason no compiled
    build was made); ``hashes`` the compiled sources' sha256 by module name."""
    import importlib.machinery

    data: dict[str, Any] = {
        "format": FORMAT,
        "build": kind,
        "reason": reason,
        "python": f"{sys.implementation.name}-{sys.version_info[0]}.{sys.version_info[1]}",
        "suffix": importlib.machinery.EXTENSION_SUFFIXES[0],
        "modules": dict(sorted(hashes.items())),
    }
    if kind == "compiled":
        from mypy.version import __version__ as mypy_version

        data["mypy"] = mypy_version
        data["seconds"] = None if seconds is None else round(seconds, 1)
    return data


def compile_kernels(kernels_dir: Path, out_dir: Path, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Compile the kernels of ``kernels_dir`` with mypyc into ``out_dir``.

    ``out_dir`` receives the compiled modules, the shared library and the manifest, flat
    (their names as they go into ``cardkit/kernels``). Returns the manifest. Raises
    :class:`KernelCompileError` when anything fails (the caller decides whether that is fatal).
    """
    names = compiled_names(kernels_dir)
    if not names:
        raise KernelCompileError(f"no kernel modules in {kernels_dir}")
    hashes = source_hashes(kernels_dir, names)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cardkit-mypyc-") as tmp:
        work = Path(tmp)
        try:
            _run_mypyc(kernels_dir, names, work, log)
        except KernelCompileError:
            raise
        except (Exception, SystemExit) as exc:  # mypyc exits on type errors; build_ext raises on no compiler
            raise KernelCompileError(_describe(exc)) from exc
        seconds = time.perf_counter() - start
        out_dir.mkdir(parents=True, exist_ok=True)
        built = sorted((work / "lib" / "cardkit" / "kernels").iterdir())
        expected = {f"{name}" for name in names} | {GROUP.rpartition(".")[2] + "__mypyc"}
        stems = {p.name.split(".")[0] for p in built}
        if not expected <= stems:
            raise KernelCompileError(f"mypyc built {sorted(stems)}, expected {sorted(expected)}")
        for path in built:
            shutil.copyfile(path, out_dir / path.name)
    manifest = make_manifest("compiled", hashes, f"compiled by mypyc in {seconds:.1f} s", seconds)
    write_manifest(out_dir, manifest)
    return manifest


def _describe(exc: BaseException) -> str:
    """One short line for a failed build (setuptools puts the whole compiler command in its
    message: keep the program and its exit status)."""
    text = str(exc)
    command = re.search(r"Command '\['([^']+)'.*(exit status \d+)", text, re.S)
    if command is not None:
        return f"the C compiler failed ({command.group(1)}: {command.group(2)})"
    if isinstance(exc, SystemExit):
        return f"mypyc stopped (exit code {exc.code}; a type error in a kernel?)"
    text = " ".join(text.split())
    return f"{type(exc).__name__}: {text[:300]}{'…' if len(text) > 300 else ''}"


def _run_mypyc(kernels_dir: Path, names: list[str], work: Path, log: Callable[[str], None]) -> None:
    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped, unused-ignore]

    empty_config = work / "mypy.ini"
    empty_config.write_text("[mypy]\n", encoding="utf-8")
    mypy_args = [
        # The project's type check is `mypy --strict src/cardkit`; the kernels compile under
        # the same strictness, with no dependence on where the build runs from.
        f"--config-file={empty_config}",
        "--strict",
        f"--cache-dir={work / 'mypy_cache'}",
        # Kernels import nothing of cardkit but each other (tests/test_layers.py): skipping
        # the rest spares type-checking the whole library (and its deps) in the build env.
        "--follow-imports=skip",
    ]
    files = [str(kernels_dir / f"{name}.py") for name in names]
    log(f"cardkit: compiling {len(files)} kernel modules with mypyc: {', '.join(names)}")
    extensions = mypycify(mypy_args + files, target_dir=str(work / "c"), group_name=GROUP)
    dist = Distribution({"name": "cardkit-kernels", "ext_modules": extensions})
    cmd: Any = dist.get_command_obj("build_ext")
    cmd.build_lib = str(work / "lib")
    cmd.build_temp = str(work / "obj")
    cmd.inplace = False
    cmd.ensure_finalized()
    cmd.run()


def _replace(src: Path, dest: Path) -> None:
    # A running process may have the old library mapped: write a new file and rename it
    # over the old one (a new inode) instead of rewriting the old file in place.
    tmp = dest.with_name(dest.name + ".tmp")
    shutil.copyfile(src, tmp)
    os.replace(tmp, dest)


def clean_in_place(kernels_dir: Path) -> list[Path]:
    """Delete every compiled artifact and the manifest from ``kernels_dir``; returns them."""
    removed = artifacts(kernels_dir)
    for path in removed:
        path.unlink()
    return removed


def build_in_place(
    kernels_dir: Path, mode: str = "auto", log: Callable[[str], None] = print
) -> dict[str, Any]:
    """Build the kernels next to their sources (an editable install, a developer's rebuild).

    ``mode`` is :data:`BUILD_ENV`'s value: ``auto`` warns and leaves a pure build when
    mypyc fails, ``compiled`` raises :class:`KernelCompileError`, ``pure`` only removes old
    compiled files. The old artifacts go first either way, so that a failed rebuild never
    leaves stale compiled modules shadowing newer sources. Returns the manifest written.
    """
    if mode not in ("auto", "pure", "compiled"):
        raise KernelCompileError(f"{BUILD_ENV}={mode!r}: expected auto, pure or compiled")
    clean_in_place(kernels_dir)
    if mode == "pure":
        manifest = make_manifest("pure", {}, f"{BUILD_ENV}=pure", None)
    else:
        with tempfile.TemporaryDirectory(prefix="cardkit-kernels-") as tmp:
            try:
                manifest = compile_kernels(kernels_dir, Path(tmp), log)
            except KernelCompileError as exc:
                if mode == "compiled":
                    raise
                log(f"cardkit: WARNING: the kernels stay pure Python (slower): {exc}")
                manifest = make_manifest("pure", {}, f"mypyc failed: {exc}", None)
            else:
                for path in sorted(Path(tmp).iterdir()):
                    if path.name != MANIFEST:
                        _replace(path, kernels_dir / path.name)
    write_manifest(kernels_dir, manifest)
    return manifest
