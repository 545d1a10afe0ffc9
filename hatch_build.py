"""The wheel build hook: compile the game kernels with mypyc (docs/kernels.md, "Building").

hatchling runs this for every wheel, editable or not. ``CARDKIT_BUILD_KERNELS`` chooses:
``auto`` (default) compiles and, when that fails (no C compiler, no Python headers), warns
and builds a pure-Python wheel; ``compiled`` fails the build instead; ``pure`` skips mypyc.

* a regular wheel (``pip install .``, ``pip wheel .``, ``python -m build``) compiles in a
  temporary directory and carries the compiled modules, mypyc's shared library and the build
  record into ``cardkit/kernels`` (the wheel is then tagged for this interpreter/platform);
* an editable install (``pip install -e .``) compiles next to the sources, in
  ``src/cardkit/kernels`` (git-ignored), which the editable install puts on ``sys.path``.

The build code itself is ``src/cardkit/_kernel_build.py``, loaded by path: the package cannot
be imported here (its dependencies are not in the isolated build environment).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).resolve().parent
KERNELS = ROOT / "src" / "cardkit" / "kernels"


def _load_builder() -> Any:
    spec = importlib.util.spec_from_file_location("_cardkit_kernel_build", ROOT / "src" / "cardkit" / "_kernel_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class KernelBuildHook(BuildHookInterface):  # type: ignore[misc]
    """Compiles ``src/cardkit/kernels`` with mypyc for the wheel target."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        builder = _load_builder()
        mode = os.environ.get(builder.BUILD_ENV, "").strip().lower() or "auto"
        if mode not in ("auto", "pure", "compiled"):
            raise ValueError(f"{builder.BUILD_ENV}={mode!r}: expected auto, pure or compiled")
        if version == "editable":
            manifest = builder.build_in_place(KERNELS, mode, log=self._log)
            self._log(f"cardkit: kernels: {manifest['build']} ({manifest['reason']})")
            return
        self._tmp = tempfile.mkdtemp(prefix="cardkit-wheel-kernels-")
        out = Path(self._tmp)
        if mode == "pure":
            manifest = builder.make_manifest("pure", {}, f"{builder.BUILD_ENV}=pure")
            builder.write_manifest(out, manifest)
        else:
            try:
                manifest = builder.compile_kernels(KERNELS, out, log=self._log)
            except builder.KernelCompileError as exc:
                if mode == "compiled":
                    raise
                self.app.display_warning(f"cardkit: WARNING: the kernels stay pure Python (slower): {exc}")
                manifest = builder.make_manifest("pure", {}, f"mypyc failed: {exc}")
                for path in out.iterdir():
                    path.unlink()
                builder.write_manifest(out, manifest)
            else:
                # compiled modules: a wheel for this interpreter and platform only
                build_data["pure_python"] = False
                build_data["infer_tag"] = True
        for path in sorted(out.iterdir()):
            build_data["force_include"][str(path)] = f"cardkit/kernels/{path.name}"
        self._log(f"cardkit: kernels: {manifest['build']} ({manifest['reason']})")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        tmp = getattr(self, "_tmp", None)
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)

    def _log(self, line: str) -> None:
        if "WARNING" in line:
            self.app.display_warning(line)
        else:
            self.app.display_info(line)
