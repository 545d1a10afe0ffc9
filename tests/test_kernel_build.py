"""The kernels' two builds: the loader's choice, the build record, and tests/kernels under both.

* The loader (cardkit.kernels) is tested on a temporary copy of the package whose
  "compiled modules" are files of garbage: the auto build must try to load them (the
  control: a compiled module shadows its source), while ``CARDKIT_KERNELS=pure`` and a
  stale source must never touch them. Nothing is compiled and nothing is written into
  the source tree.
* ``test_kernel_tests_under_the_other_build`` runs each tests/kernels file again in a
  subprocess under the build this process did *not* load (pure when compiled is loaded,
  compiled when pure is), so the default test run proves the kernels under both builds.
  Without a compiled build the compiled half skips, except under CI (env ``CI`` set), which
  must build it (``pip install -e .`` on a machine with a C compiler).
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cardkit.kernels as kernels
from cardkit._kernel_build import (
    GROUP,
    MANIFEST,
    KernelCompileError,
    build_in_place,
    compiled_names,
    make_manifest,
    read_manifest,
    source_hashes,
    write_manifest,
)

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "cardkit"
IN_CI = bool(os.environ.get("CI"))
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
KERNEL_TESTS = sorted((ROOT / "tests" / "kernels").rglob("test_*.py")) if (ROOT / "tests" / "kernels").is_dir() else []


def _copy_package(tmp_path: Path, only: tuple[str, ...] | None = None) -> Path:
    """A copy of cardkit's root module, build module and kernels' sources under tmp_path;
    returns its kernels directory. ``only`` limits the kernel modules copied."""
    pkg = tmp_path / "cardkit"
    kdir = pkg / "kernels"
    kdir.mkdir(parents=True)
    shutil.copyfile(SRC / "__init__.py", pkg / "__init__.py")
    shutil.copyfile(SRC / "_kernel_build.py", pkg / "_kernel_build.py")
    for path in (SRC / "kernels").glob("*.py"):
        if only is None or path.stem.startswith("__") or path.stem in only:
            shutil.copyfile(path, kdir / path.name)
    return kdir


def _fake_compiled(kdir: Path) -> None:
    """Garbage 'compiled modules' for every kernel and the shared library, and a build
    record that matches the sources: to the loader, a current compiled build."""
    for name in [*compiled_names(kdir), GROUP.rpartition(".")[2] + "__mypyc"]:
        (kdir / f"{name}{SUFFIX}").write_bytes(b"not a shared library")
    write_manifest(kdir, make_manifest("compiled", source_hashes(kdir), "faked by the test"))


PROBE = """
import cardkit.kernels as k
print("BUILD", k.BUILD)
import cardkit.kernels._base as b
print("FILE", b.__file__)
print("RNG", b.KRng(7).next())
"""


def _run(where: Path, code: str = PROBE, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {key: value for key, value in os.environ.items() if key != kernels.RUNTIME_ENV}
    environ.update(env)
    environ["PYTHONPATH"] = str(where)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environ, timeout=120, cwd=where
    )


def test_the_compiled_set_is_every_kernel_module_but_the_pure_ones() -> None:
    names = compiled_names(SRC / "kernels")
    assert "_base" in names
    assert not {"__init__", "__main__", "bridge"} & set(names)
    assert kernels.MODULES == tuple(names)


def test_one_mypy_release_builds_and_type_checks() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    build = [r for r in project["build-system"]["requires"] if r.startswith("mypy")]
    dev = [r for r in project["project"]["optional-dependencies"]["dev"] if r.startswith("mypy")]
    assert len(build) == 1 and build == dev and build[0].startswith("mypy==")
    assert "setuptools" in " ".join(project["build-system"]["requires"])
    assert project["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["path"] == "hatch_build.py"


def test_a_plain_pure_install_loads_the_sources_silently(tmp_path: Path) -> None:
    kdir = _copy_package(tmp_path)
    out = _run(tmp_path)
    assert out.returncode == 0, out.stderr
    assert "BUILD pure" in out.stdout and "_base.py" in out.stdout
    assert "Warning" not in out.stderr


def test_a_current_compiled_build_shadows_the_sources(tmp_path: Path) -> None:
    # The control for the tests below: with a current record the loader goes for the
    # compiled files (here garbage, so the import fails on them).
    kdir = _copy_package(tmp_path)
    _fake_compiled(kdir)
    out = _run(tmp_path)
    assert "BUILD compiled" in out.stdout
    assert out.returncode != 0 and "ImportError" in out.stderr and SUFFIX in out.stderr


def test_pure_forces_the_sources_past_compiled_modules(tmp_path: Path) -> None:
    kdir = _copy_package(tmp_path)
    _fake_compiled(kdir)
    out = _run(tmp_path, CARDKIT_KERNELS="pure")
    assert out.returncode == 0, out.stderr
    assert "BUILD pure" in out.stdout and f"{kdir / '_base.py'}" in out.stdout
    assert "Warning" not in out.stderr


@pytest.mark.parametrize("change", ["edit", "add"])
def test_a_stale_build_falls_back_to_pure_for_every_kernel(tmp_path: Path, change: str) -> None:
    kdir = _copy_package(tmp_path)
    _fake_compiled(kdir)
    if change == "edit":
        with open(kdir / "_base.py", "a", encoding="utf-8") as f:
            f.write("\n# a developer's edit\n")
        named = "_base.py"
    else:
        (kdir / "new_game.py").write_text("from cardkit.kernels._base import Kernel\n", encoding="utf-8")
        named = "new_game.py"
    out = _run(tmp_path)
    assert out.returncode == 0, out.stderr
    assert "BUILD pure" in out.stdout and "_base.py" in out.stdout
    assert "RuntimeWarning" in out.stderr and "stale" in out.stderr and named in out.stderr
    assert "python -m cardkit.kernels build" in out.stderr
    forced = _run(tmp_path, CARDKIT_KERNELS="compiled")
    assert forced.returncode != 0
    assert "KernelBuildError" in forced.stderr and "stale" in forced.stderr and named in forced.stderr


def test_compiled_files_without_a_record_are_not_trusted(tmp_path: Path) -> None:
    kdir = _copy_package(tmp_path)
    _fake_compiled(kdir)
    (kdir / MANIFEST).unlink()
    out = _run(tmp_path)
    assert out.returncode == 0, out.stderr
    assert "BUILD pure" in out.stdout and "RuntimeWarning" in out.stderr


def test_removed_compiled_files_leave_a_silent_pure_build(tmp_path: Path) -> None:
    # `find src -name '*.so' -delete` after a build: nothing shadows the sources any more
    kdir = _copy_package(tmp_path)
    _fake_compiled(kdir)
    for path in kdir.glob(f"*{SUFFIX}"):
        path.unlink()
    out = _run(tmp_path)
    assert out.returncode == 0, out.stderr
    assert "BUILD pure" in out.stdout and "Warning" not in out.stderr
    info = _run(tmp_path, "from cardkit.kernels.__main__ import main; main(['info'])")
    assert info.returncode == 0, info.stderr
    assert "kernels: pure" in info.stdout and "compiled files were removed" in info.stdout
    assert "compiled build available: no" in info.stdout


def test_compiled_without_a_compiled_build_is_a_clear_error(tmp_path: Path) -> None:
    _copy_package(tmp_path)
    out = _run(tmp_path, CARDKIT_KERNELS="compiled")
    assert out.returncode != 0
    assert "KernelBuildError: CARDKIT_KERNELS=compiled but no compiled build installed" in out.stderr
    bad = _run(tmp_path, CARDKIT_KERNELS="fast")
    assert bad.returncode != 0 and "expected auto, pure or compiled" in bad.stderr


def test_version_names_the_kernel_build(tmp_path: Path) -> None:
    code = "from cardkit.cli.main import main; main(['--version'])"
    env = {key: value for key, value in os.environ.items() if key != kernels.RUNTIME_ENV}
    env["PYTHONPATH"] = str(ROOT / "src")
    for wanted, expected in (("", kernels.BUILD if not os.environ.get(kernels.RUNTIME_ENV) else None), ("pure", "pure")):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
            env={**env, kernels.RUNTIME_ENV: wanted},
        )
        assert out.returncode == 0, out.stderr
        lines = out.stdout.splitlines()
        assert lines[0].startswith("cardkit ") and lines[1] in ("kernels: compiled", "kernels: pure")
        if expected is not None:
            assert lines[1] == f"kernels: {expected}"


def test_a_failed_compile_leaves_a_pure_build_and_says_why(tmp_path: Path) -> None:
    # mypyc's front end runs (on the base module alone, to stay fast), then the C compiler
    # "fails": auto leaves a pure build with the reason on record, compiled raises.
    kdir = _copy_package(tmp_path, only=("_base",))
    (kdir / f"_base{SUFFIX}").write_bytes(b"an old build")  # removed first: never left to shadow
    code = (
        "import sys; from pathlib import Path; from cardkit._kernel_build import build_in_place as b\n"
        "m = b(Path(sys.argv[1]), sys.argv[2], log=lambda s: None); print(m['build'], m['reason'])"
    )
    env = {**os.environ, "CC": "/bin/false", "PYTHONPATH": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", code, str(kdir), "auto"], capture_output=True, text=True, env=env, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("pure mypyc failed")
    assert not [p for p in kdir.iterdir() if p.suffix == ".so"]
    record = read_manifest(kdir)
    assert record is not None and record["build"] == "pure"
    loaded = _run(tmp_path)
    assert "BUILD pure" in loaded.stdout and "Warning" not in loaded.stderr
    with pytest.raises(KernelCompileError):
        build_in_place(kdir, "bogus")


def test_a_real_build_of_a_copy_loads_compiled_and_goes_stale(tmp_path: Path) -> None:
    # mypyc for real, on a copy holding the base module alone (a few seconds of CPU).
    kdir = _copy_package(tmp_path, only=("_base",))
    code = (
        "import sys; from pathlib import Path; from cardkit._kernel_build import build_in_place as b\n"
        "m = b(Path(sys.argv[1]), 'auto', log=lambda s: None); print(m['build'], m['reason'])"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    built = subprocess.run(
        [sys.executable, "-c", code, str(kdir)], capture_output=True, text=True, env=env, timeout=600
    )
    assert built.returncode == 0, built.stderr
    if not built.stdout.startswith("compiled"):
        if IN_CI:
            pytest.fail(f"CI cannot compile: {built.stdout}")
        pytest.skip(f"no compiled build on this machine: {built.stdout.strip()}")
    assert {p.name.split(".")[0] for p in kdir.glob(f"*{SUFFIX}")} == {"_base", "_kernels__mypyc"}
    compiled = _run(tmp_path)
    pure = _run(tmp_path, CARDKIT_KERNELS="pure")
    assert compiled.returncode == 0 and pure.returncode == 0, compiled.stderr + pure.stderr
    assert "BUILD compiled" in compiled.stdout and f"_base{SUFFIX}" in compiled.stdout
    assert "BUILD pure" in pure.stdout and f"{kdir / '_base.py'}" in pure.stdout
    rng = [[ln for ln in out.stdout.splitlines() if ln.startswith("RNG")] for out in (compiled, pure)]
    assert rng[0] == rng[1] and rng[0]
    with open(kdir / "_base.py", "a", encoding="utf-8") as f:
        f.write("\n# edited after the build\n")
    stale = _run(tmp_path)
    assert stale.returncode == 0, stale.stderr
    assert "BUILD pure" in stale.stdout and "_base.py" in stale.stdout and "stale" in stale.stderr


def _other_build() -> str | None:
    """The build this process did not load, or None when it is not available here."""
    if kernels.BUILD == "compiled":
        return "pure"
    return "compiled" if kernels.compiled_available() else None


def test_ci_has_the_compiled_build() -> None:
    if not IN_CI:
        pytest.skip("outside CI a pure install is allowed")
    assert kernels.compiled_available(), (
        f"CI must build the compiled kernels (pip install -e . with a C compiler): {kernels.BUILD_REASON}"
    )


def test_a_real_compiled_build_loads_and_pure_still_wins() -> None:
    if not kernels.compiled_available():
        if IN_CI:
            pytest.fail(f"no compiled kernels under CI: {kernels.BUILD_REASON}")
        pytest.skip(f"no compiled kernels here ({kernels.BUILD_REASON})")
    auto = _run(ROOT / "src")
    pure = _run(ROOT / "src", CARDKIT_KERNELS="pure")
    assert auto.returncode == 0 and pure.returncode == 0, auto.stderr + pure.stderr
    assert "BUILD compiled" in auto.stdout and f"_base{SUFFIX}" in auto.stdout
    assert "BUILD pure" in pure.stdout and "_base.py" in pure.stdout
    # the same numbers from both builds
    assert [ln for ln in auto.stdout.splitlines() if ln.startswith("RNG")] == [
        ln for ln in pure.stdout.splitlines() if ln.startswith("RNG")
    ]


@pytest.mark.parametrize(
    "test_file",
    [str(p.relative_to(ROOT)) for p in KERNEL_TESTS] or [pytest.param("", marks=pytest.mark.skip(reason="no tests/kernels yet"))],
)
def test_kernel_tests_under_the_other_build(test_file: str) -> None:
    other = _other_build()
    if other is None:
        if IN_CI:
            pytest.fail(f"no compiled kernels under CI: {kernels.BUILD_REASON}")
        pytest.skip(f"tests/kernels ran pure only: {kernels.BUILD_REASON}")
    # a plain pytest run, not an xdist worker (whose variables name its own database)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTEST_", "COV_"))}
    env[kernels.RUNTIME_ENV] = other
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test_file],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=1800,
    )
    assert out.returncode == 0, f"{test_file} under CARDKIT_KERNELS={other}:\n{out.stdout[-4000:]}\n{out.stderr[-2000:]}"


def test_info_into_a_closed_pipe_prints_no_traceback() -> None:
    # `python -m cardkit.kernels info | head -1`: the reader may leave before the output is
    # written; the command must end quietly (as every `cardkit` command does).
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardkit.kernels", "info"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) in (0, 141)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
