"""The default suite leaves the heavy suites out, and CI's `-m heavy` runs every one of them
(tests/conftest.py, docs/testing.md): each case is a real pytest collecting real test files."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

# three pytest collections, tens of CPU seconds: heavy itself (CI runs it)
pytestmark = pytest.mark.heavy

ROOT = Path(__file__).resolve().parent.parent


def collected(*args: str, cwd: Path = ROOT) -> set[str]:
    """The test ids pytest collects from the repository's root (or `cwd`) with `args`."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return {line for line in done.stdout.splitlines() if "::" in line}


def files(ids: set[str]) -> set[str]:
    return {re.sub(r"::.*", "", test) for test in ids}


# The default run is the whole of `testpaths`: a `testpaths` of one folder stands for it here.
BOARD = ("-o", "testpaths=tests/board")


def test_the_default_run_leaves_the_heavy_suites_out_and_ci_runs_them() -> None:
    default = collected(*BOARD)
    heavy = collected(*BOARD, "-m", "heavy")
    # the browser tests (marked `browser`, heavy by that mark) are left out of the default run,
    # and `-m heavy` runs them and nothing the default run runs
    assert "tests/board/test_browser.py" in files(heavy)
    assert "tests/board/test_browser.py" not in files(default)
    assert "tests/board/test_cards.py" in files(default)
    assert default & heavy == set()


def test_a_file_named_runs_whole_heavy_or_not() -> None:
    """A file or folder named runs whole: a browser test, a file marked heavy at module level,
    the days."""
    named = collected(
        "tests/board/test_browser.py", "tests/remote/test_fresh_clone.py", "tests/day"
    )
    assert files(named) == {
        "tests/board/test_browser.py",
        "tests/remote/test_fresh_clone.py",
        "tests/day/test_agents_day.py",
        "tests/day/test_day.py",
        "tests/day/test_two_machines.py",
    }


def test_a_mark_of_the_heavy_suites_chooses_them() -> None:
    """`-m browser` (docs/board.md), `-m clients` (docs/agents.md): a heavy suite's own mark
    chooses it, as `-m heavy` does; it is not left out first."""
    browser = collected(*BOARD, "-m", "browser")
    assert "tests/board/test_browser.py" in files(browser)
    assert "tests/board/test_cards.py" not in files(browser)


def test_the_suite_runs_from_another_folder(tmp_path: Path) -> None:
    """From `tests/` or from anywhere with the folder named (`--rootdir`): the conftest's
    `from tests import ...` finds the repository's root (pyproject.toml's `pythonpath`)."""
    days = {
        "tests/day/test_agents_day.py",
        "tests/day/test_day.py",
        "tests/day/test_two_machines.py",
    }
    assert files(collected("day", cwd=ROOT / "tests")) == days
    elsewhere = collected("--rootdir", str(ROOT), str(ROOT / "tests" / "day"), cwd=tmp_path)
    assert {re.sub(r"^.*?(tests/day/)", r"\1", name) for name in files(elsewhere)} == days
