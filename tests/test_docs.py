"""Every Python example in README.md and docs/**/*.md runs, so an example can never rot.

How a page is run:

* Its fenced blocks tagged ``python`` (or ``py``, ``python3``, ``pycon``) run **in order, in
  one namespace per page**, so a page can build on its earlier blocks. A block whose first
  line starts with ``>>>`` is a doctest: its outputs are compared.
* After a block runs, every new top-level ``test_*`` function it defined is called with no
  arguments (hypothesis ``@given`` tests included), as pytest would call it.
* Each page runs in its own empty temporary directory (files it writes go there), with
  ``examples/`` importable (pages refer to ``examples/custom_game.py``).
* Hypothesis runs with its library's default 200 ms deadline, as a reader's own test run
  would, not with this suite's relaxed profile (but 25 examples and no shrinking, for speed).
* A block is skipped only when its fence says ``python no-run`` or it follows an HTML comment
  ``<!-- no-run: reason -->``; the reason is shown in the skip message. Use it sparingly.

New pages are picked up automatically: nothing here lists file names except
``KNOWN_FAILURES``, which must stay empty or name a real, reported problem.
"""

from __future__ import annotations

import doctest
import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import Phase, settings
from hypothesis.errors import DeadlineExceeded, FlakyFailure


ROOT = Path(__file__).resolve().parent.parent
PYTHON_TAGS = frozenset({"python", "py", "python3", "pycon"})
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`]*?)[ \t]*$")
_NO_RUN_COMMENT = re.compile(r"^\s*<!--\s*no-run\b\s*:?\s*(?P<reason>.*?)\s*-->\s*$")

# Blocks expected to fail for a reported reason, found by (page, text the block contains).
# ``still_expected`` says whether the fault is still there: once the fix lands it returns
# False and the block is an ordinary test again; ``strict`` makes an unexpected pass an error.
@dataclass(frozen=True)
class KnownFailure:
    """A doc block that fails for a reported reason, and how to tell it is fixed."""

    reason: str
    raises: tuple[type[BaseException], ...]
    still_expected: Callable[[], bool] = lambda: True
    strict: bool = True


KNOWN_FAILURES: dict[tuple[str, str], KnownFailure] = {}

# A reader's settings: hypothesis's default deadline; fewer examples than its default 100 only
# to keep this suite fast (the deadline, not the volume, is what a reader trips over).
# No shrinking either: a failing example is reported as found (shrinking a slow failure can
# take minutes), and no example database is written.
settings.register_profile(
    "docs-reader",
    deadline=timedelta(milliseconds=200),
    derandomize=True,
    max_examples=25,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    database=None,
)


@dataclass(frozen=True)
class Block:
    """One fenced code block of a Markdown page."""

    path: Path
    line: int  # 1-based line of the opening fence
    lang: str
    code: str
    skip_reason: str | None

    @property
    def is_doctest(self) -> bool:
        first = next((ln for ln in self.code.splitlines() if ln.strip()), "")
        return first.lstrip().startswith(">>>")

    @property
    def runs(self) -> bool:
        return self.lang in PYTHON_TAGS or (self.lang == "" and self.is_doctest)


def parse_blocks(path: Path, text: str) -> list[Block]:
    """The fenced blocks of a Markdown text, in order (indented fences in lists included)."""
    blocks: list[Block] = []
    lines = text.splitlines()
    i = 0
    pending_no_run: str | None = None
    while i < len(lines):
        comment = _NO_RUN_COMMENT.match(lines[i])
        if comment:
            pending_no_run = comment.group("reason") or "marked <!-- no-run -->"
            i += 1
            continue
        opening = _FENCE.match(lines[i])
        if not opening:
            if lines[i].strip():
                pending_no_run = None  # the comment applies to the block right after it
            i += 1
            continue
        fence, indent = opening.group("fence"), opening.group("indent")
        info = opening.group("info").split()
        lang = info[0].lower() if info else ""
        skip = pending_no_run
        if "no-run" in (word.lower() for word in info[1:]):
            skip = "tagged no-run"
        pending_no_run = None
        body: list[str] = []
        j = i + 1
        while j < len(lines):
            closing = lines[j].strip()
            if closing.startswith(fence[0] * len(fence)) and not closing.strip(fence[0]):
                break
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j].lstrip())
            j += 1
        else:
            raise ValueError(f"{path}:{i + 1}: code fence {fence!r} is never closed")
        blocks.append(Block(path, i + 1, lang, textwrap.dedent("\n".join(body)) + "\n", skip))
        i = j + 1
    return blocks


def doc_pages() -> list[Path]:
    """README.md and every Markdown page under docs/, sorted."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def runnable_blocks() -> list[Block]:
    return [b for page in doc_pages() for b in parse_blocks(page, page.read_text("utf-8")) if b.runs]


@dataclass
class _Page:
    """A page's shared namespace and how far it has run."""

    directory: Path
    namespace: dict[str, Any] = field(default_factory=dict)
    done: set[int] = field(default_factory=set)
    failed_at: int | None = None


_PAGES: dict[Path, _Page] = {}


def _run_block(block: Block, page: _Page) -> None:
    """Run one block in the page's namespace; raise AssertionError naming the page and line."""
    where = f"{_relative(block.path)}:{block.line}"
    if block.is_doctest:
        parser = doctest.DocTestParser()
        test = parser.get_doctest(block.code, page.namespace, where, str(block.path), block.line)
        report: list[str] = []
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        runner.run(test, out=report.append, clear_globs=False)
        if runner.failures:
            raise AssertionError(f"doctest block at {where} failed:\n" + "".join(report))
        return
    before = set(page.namespace)
    code = compile(block.code, where, "exec")
    exec(code, page.namespace)  # noqa: S102 - running the documentation is the point
    # Call the tests a block defines, in definition order, as pytest would.
    for name, value in list(page.namespace.items()):
        if name.startswith("test_") and name not in before and callable(value):
            value()


def _page_for(block: Block, tmp_path_factory: pytest.TempPathFactory) -> _Page:
    page = _PAGES.get(block.path)
    if page is None:
        page = _PAGES[block.path] = _Page(tmp_path_factory.mktemp(block.path.stem))
        page.namespace["__name__"] = "__main__"  # as when a reader runs the snippet as a script
    return page


@pytest.fixture
def reader_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.syspath_prepend(str(ROOT / "examples"))
    previous = settings.get_current_profile_name()
    settings.load_profile("docs-reader")
    try:
        yield
    finally:
        settings.load_profile(previous)


BLOCKS = runnable_blocks()


def _known_failure(block: Block) -> list[pytest.MarkDecorator]:
    for (page, text), known in KNOWN_FAILURES.items():
        if _relative(block.path) == page and text in block.code and known.still_expected():
            return [pytest.mark.xfail(reason=known.reason, raises=known.raises, strict=known.strict)]
    return []


def _run_in_page(block: Block, page: _Page) -> None:
    """Run a block and record it; a failure stops the page, unless the failure is known
    (a known-failing block must then be self-contained, so later blocks still run)."""
    try:
        _run_block(block, page)
    except BaseException:
        if not _known_failure(block):
            page.failed_at = block.line
            raise
        page.done.add(block.line)
        raise
    page.done.add(block.line)


@pytest.mark.parametrize(
    "block",
    [pytest.param(b, marks=_known_failure(b), id=f"{_relative(b.path)}:{b.line}") for b in BLOCKS],
)
def test_doc_block_runs(
    block: Block,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    reader_environment: None,
) -> None:
    """The block runs after the blocks before it on its page."""
    if block.skip_reason is not None:
        pytest.skip(f"{_relative(block.path)}:{block.line}: {block.skip_reason}")
    page = _page_for(block, tmp_path_factory)
    monkeypatch.chdir(page.directory)
    # Run the earlier blocks of the page first when this one was selected alone.
    for earlier in BLOCKS:
        if earlier.path != block.path or earlier.line >= block.line:
            continue
        if earlier.line in page.done or earlier.skip_reason is not None:
            continue
        if page.failed_at is not None:
            break
        try:
            _run_in_page(earlier, page)
        except BaseException:
            if page.failed_at is not None:
                raise
    if page.failed_at is not None and page.failed_at < block.line:
        pytest.fail(f"an earlier block of {_relative(block.path)} (line {page.failed_at}) failed")
    if block.line not in page.done:
        _run_in_page(block, page)


# The collector itself: these fail if it would silently skip or misread a page.


def test_parse_blocks_reads_tags_order_comments_and_indented_fences() -> None:
    text = textwrap.dedent(
        """\
        # Page
        ```python
        x = 1
        ```
        <!-- no-run: needs a server -->
        ```python
        connect()
        ```
        ```python no-run
        also_not_run()
        ```
        ```sh
        pip install cardkit
        ```
        * a list item:

          ```python
          y = x + 1
          ```
        ````
        >>> 1 + 1
        2
        ````
        """
    )
    blocks = parse_blocks(Path("page.md"), text)
    assert [(b.line, b.lang, b.runs, b.skip_reason) for b in blocks] == [
        (2, "python", True, None),
        (6, "python", True, "needs a server"),
        (9, "python", True, "tagged no-run"),
        (12, "sh", False, None),
        (17, "python", True, None),
        (20, "", True, None),
    ]
    assert blocks[4].code == "y = x + 1\n"
    assert blocks[5].is_doctest


def test_a_no_run_comment_applies_only_to_the_next_block() -> None:
    text = "<!-- no-run: reason -->\n\nSome prose.\n\n```python\nx = 1\n```\n"
    (block,) = parse_blocks(Path("p.md"), text)
    assert block.skip_reason is None


def test_an_unclosed_fence_is_an_error() -> None:
    with pytest.raises(ValueError, match="never closed"):
        parse_blocks(Path("p.md"), "```python\nx = 1\n")


def test_a_failing_block_and_a_wrong_doctest_are_reported_with_their_line(tmp_path: Path) -> None:
    page = _Page(tmp_path)
    good, bad = parse_blocks(Path(ROOT / "x.md"), "```python\nn = 2\n```\n\n```python\n>>> n * 2\n5\n```\n")
    _run_block(good, page)
    with pytest.raises(AssertionError, match=r"x\.md:5"):
        _run_block(bad, page)
    (raising,) = parse_blocks(Path(ROOT / "x.md"), "```python\nraise KeyError('k')\n```\n")
    with pytest.raises(KeyError):
        _run_block(raising, page)


def test_tests_defined_by_a_block_are_called(tmp_path: Path) -> None:
    page = _Page(tmp_path)
    (block,) = parse_blocks(Path(ROOT / "x.md"), "```python\ndef test_x():\n    assert False, 'ran'\n```\n")
    with pytest.raises(AssertionError, match="ran"):
        _run_block(block, page)


def test_every_page_is_collected() -> None:
    pages = {_relative(p) for p in doc_pages()}
    assert "README.md" in pages and "docs/games/crazy-eights.md" in pages
    assert all(p == "README.md" or p.startswith("docs/") for p in pages)
    for path, text in KNOWN_FAILURES:
        assert any(_relative(b.path) == path and text in b.code for b in BLOCKS), (path, text)


def test_a_known_failure_turns_back_into_a_test_once_fixed(monkeypatch: pytest.MonkeyPatch) -> None:
    (block,) = parse_blocks(ROOT / "docs" / "x.md", "```python\nbroken()\n```\n")
    fixed = KnownFailure("was broken", (NameError,), still_expected=lambda: False)
    monkeypatch.setitem(KNOWN_FAILURES, ("docs/x.md", "broken()"), fixed)
    assert _known_failure(block) == []
    monkeypatch.setitem(KNOWN_FAILURES, ("docs/x.md", "broken()"), KnownFailure("broken", (NameError,)))
    (mark,) = _known_failure(block)
    assert mark.kwargs == {"reason": "broken", "raises": (NameError,), "strict": True}
