"""``python -m cardkit.kernels build | clean | info``: rebuild the compiled kernels in place,
remove them, or show which build loads and why (docs/kernels.md, "Building")."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m cardkit.kernels", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="compile the kernels with mypyc next to their sources")
    build.add_argument(
        "--mode",
        choices=("auto", "compiled", "pure"),
        default="compiled",
        help="compiled (default): fail when mypyc cannot build; auto: warn and stay pure; "
        "pure: only remove the compiled files",
    )
    sub.add_parser("clean", help="remove the compiled kernels and the build record")
    sub.add_parser("info", help="which build this process loads, and why")
    args = parser.parse_args(argv)
    # Deciding the build of *this* process is kernels/__init__'s job; build and clean work
    # on the files, and work from an import of the package that loads no kernel module.
    import cardkit.kernels as kernels
    from cardkit._kernel_build import KernelCompileError, build_in_place, clean_in_place, read_manifest

    where = Path(kernels.__file__).resolve().parent
    if args.command == "build":
        try:
            manifest = build_in_place(where, args.mode, log=lambda line: print(line, file=sys.stderr))
        except KernelCompileError as exc:
            print(f"cardkit: the kernels could not be compiled: {exc}", file=sys.stderr)
            return 1
        print(f"kernels: {manifest['build']} ({manifest['reason']}) in {where}")
        return 0
    if args.command == "clean":
        removed = clean_in_place(where)
        print(f"removed {len(removed)} files from {where}")
        return 0
    record = read_manifest(where)
    print(f"kernels: {kernels.BUILD}")
    print(f"why: {kernels.BUILD_REASON}")
    print(f"{kernels.RUNTIME_ENV}={os.environ.get(kernels.RUNTIME_ENV, '')!r} (auto | pure | compiled)")
    print(f"directory: {where}")
    print(f"modules: {', '.join(kernels.MODULES)}")
    print(f"compiled build available: {'yes' if kernels.compiled_available() else 'no'}")
    if record is not None:
        details = ", ".join(f"{k} {record[k]}" for k in ("build", "mypy", "python", "seconds") if k in record)
        print(f"build record: {details}")
    return 0


def _run() -> int:
    try:
        status = main()
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
        return status
    except BrokenPipeError:
        # the reader left (`... info | head`): say nothing, and point standard output at
        # /dev/null so that the interpreter's final flush cannot fail again (as `cardkit` does)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 141


if __name__ == "__main__":
    sys.exit(_run())
