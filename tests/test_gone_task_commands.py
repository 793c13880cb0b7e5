"""Every command naming a task that landed (or was removed) here says so and points to its
history, as `task show` does, instead of offering to create it again; with a shared remote,
`claim` too, instead of offering a `sync` that cannot bring it back. A task that never was is told
as before. Found by a new user's walk: `land t` twice said "create one with `taskproto task create
t`". Real repositories, the CLI as a subprocess."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from tests.conftest import git, make_repo
from tests.landing.conftest import SESSION, approved_task
from tests.pristine import Pristine, built_once
from tests.remote.remote_servers import ok, tp

COMMANDS = [
    ("land", "{t}"),
    ("release", "{t}"),
    ("heartbeat", "{t}"),
    ("next", "{t}"),
    ("approve", "{t}", "--plan"),
    ("resume", "{t}"),
    ("diff", "{t}"),
    ("task", "remove", "{t}"),
    ("claim", "{t}"),
    # the quick front's changes (cli/quick.py), which do not go through click's error handler
    ("transition", "{t}", "REVIEW"),
    ("fire", "{t}", "approve"),
    ("agent", "set", "{t}", "dev", "--status", "COMPLETE"),
    ("round", "decide", "{t}", "--rubric", "acceptance=pass,risks=pass,validation=pass"),
    ("handoff", "{t}", "--to", "EXECUTE", "--decision", "yes"),
    ("subtask", "done", "{t}", "1"),
]


def _journal_refs(repo: Path) -> str:
    return git(repo, "for-each-ref", "--format=%(refname) %(objectname)", "refs/taskproto/")


def _make_gone(path: Path) -> None:
    repo = make_repo(path)
    engine = Engine(load_config(repo))
    approved_task(engine, "t", {"t.py": "t = 1\n"})
    ok(repo, "land", "t", session=SESSION)
    ok(repo, "task", "create", "gone")
    ok(repo, "task", "remove", "gone")


@pytest.fixture(scope="module")
def _gone_built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pristine]:
    yield from built_once(tmp_path_factory, lambda place: _make_gone(place / "a"))


@pytest.fixture
def gone(_gone_built: Pristine) -> Path:
    """A repository where task `t` landed and task `gone` was removed: built once for the module
    (a land and a removal), put back at its path for each test."""
    return _gone_built.restore() / "a"


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c[:2]) for c in COMMANDS])
def test_a_command_on_a_landed_or_removed_task_says_so(
    gone: Path, command: tuple[str, ...]
) -> None:
    repo = gone
    before = _journal_refs(repo)
    for name, what in (("t", "landed"), ("gone", "was removed")):
        r = tp(repo, *(a.format(t=name) for a in command), session=SESSION)
        assert r.returncode == 1, r
        assert r.stderr == (
            f"taskproto: task {name!r} {what}: it is no task here any more, its journal is kept "
            f"(`taskproto log {name}` shows its history)\n"
        ), r.stderr
    never = tp(repo, *(a.format(t="never") for a in command), session=SESSION)
    assert never.returncode == 1 and "no task named 'never'" in never.stderr, never
    assert "create never" in never.stderr, never.stderr
    json_run = tp(repo, *(a.format(t="t") for a in command), "--json", session=SESSION)
    assert "task 't' landed" in json_run.stdout + json_run.stderr, json_run
    assert _journal_refs(repo) == before  # nothing written


def test_claim_with_a_shared_remote_of_a_task_landed_here_says_so(
    gone: Path, tmp_path: Path
) -> None:
    repo = gone
    bare = tmp_path / "shared.git"
    git(tmp_path, "init", "-q", "--bare", "--initial-branch=main", str(bare))
    git(repo, "remote", "add", "shared", bare.as_uri())
    git(repo, "push", "-q", "shared", "main")
    ok(repo, "init", "--remote", "shared")
    r = tp(repo, "claim", "t", session=SESSION)
    assert (r.returncode, r.stderr) == (
        1,
        "taskproto: task 't' landed: it is no task here any more, its journal is kept "
        "(`taskproto log t` shows its history)\n",
    ), r
    r = tp(repo, "claim", "never", session=SESSION)
    assert r.returncode == 1 and "run `taskproto sync` to fetch the tasks" in r.stderr, r
