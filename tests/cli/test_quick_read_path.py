"""The quick read path (cli/quick.py): `task list` and `task show` answered without click, pydantic
or the engine print exactly what the full command prints, and leave every unusual case to it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taskproto.hooks.tasks import AGENT_STATES, STATUS_KEYS
from taskproto.state import summary
from taskproto.state.models import SCHEMA_VERSION, AgentState, AgentStatus, Task
from taskproto.state.record import Record
from tests.conftest import commit_file, git, make_repo
from tests.pristine import Pristine, built_once

# each test starts Python and taskproto many times over: heavy (docs/testing.md), run by CI
pytestmark = pytest.mark.heavy

# Runs the real CLI entry and says on stderr whether the full command (click) was loaded.
PROBE = (
    "import sys\n"
    "from taskproto.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "sys.stderr.write('\\n[path: ' + ('full' if 'click' in sys.modules else 'quick') + ']')\n"
    "raise SystemExit(code)\n"
)


def run(repo: Path, *args: str, quick: bool = True, **env: str) -> tuple[int, str, str, str]:
    """(exit code, stdout, stderr, which path answered)."""
    full_env = {**os.environ, **env}
    if not quick:
        full_env["TASKPROTO_QUICK"] = "0"
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=repo,
        env=full_env,
        capture_output=True,
        text=True,
        check=False,
    )
    err, _, path = proc.stderr.rpartition("\n[path: ")
    return proc.returncode, proc.stdout, err, path.rstrip("]")


def same_as_full(repo: Path, *args: str, **env: str) -> str:
    """Run `args` both ways, assert identical results; which path answered the default run."""
    code, out, err, path = run(repo, *args, **env)
    full = run(repo, *args, quick=False, **env)
    assert full[3] == "full"
    assert (code, out, err) == full[:3], args
    return path


def tp(repo: Path, *args: str, **env: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "taskproto", *args],
        cwd=repo,
        env={**os.environ, "TASKPROTO_QUICK": "0", **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, (args, proc.stderr)
    return proc.stdout


VIEWS = [("task", "list"), ("task", "list", "--json")]


def show_views(name: str) -> list[tuple[str, ...]]:
    return [
        ("task", "show", name),
        ("task", "show", name, "--json"),
        ("task", "show", "--json", name),
    ]


@pytest.fixture(scope="module")
def _busy_built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pristine]:
    yield from built_once(tmp_path_factory, lambda place: make_busy(place / "busy"))


@pytest.fixture
def busy(_busy_built: Pristine) -> Path:
    """A repository with tasks in many shapes: owned, agents, waiting, approved, interrupted;
    built once for the module (two dozen processes), put back at its path for each test."""
    return _busy_built.restore() / "busy"


def make_busy(path: Path) -> Path:
    repo = make_repo(path)
    tp(repo, "init", "--git")
    tp(repo, "task", "create", "base", "-d", "the first one")
    tp(repo, "task", "create", "team", "--agents", "ann,bob", "--priority", "1")
    tp(repo, "task", "create", "after", "--after", "base,team", "--priority", "0")
    tp(repo, "task", "create", "solo", "-d", "approved and interrupted")
    tp(repo, "claim", "team", "--pid", str(os.getpid()), TASKPROTO_SESSION="s-team")
    tp(repo, "agent", "set", "team", "ann", "--status", "WORKING", TASKPROTO_SESSION="s-team")
    tp(repo, "agent", "set", "team", "bob", "--status", "COMPLETE", TASKPROTO_SESSION="s-team")
    tp(repo, "claim", "solo", TASKPROTO_SESSION="s-solo")
    for state in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
        tp(repo, "transition", "solo", state, TASKPROTO_SESSION="s-solo")
    tp(repo, "approve", "solo", "--plan")
    tp(repo, "transition", "solo", "IMPLEMENTATION", TASKPROTO_SESSION="s-solo")
    commit_file(repo / ".taskproto" / "tasks" / "solo" / "code", "feature.py", "print('hi')\n")
    tp(repo, "transition", "solo", "VALIDATION", TASKPROTO_SESSION="s-solo")
    for state in ("REVIEW", "AWAITING_USER_APPROVAL"):
        tp(repo, "transition", "solo", state, TASKPROTO_SESSION="s-solo")
    tp(repo, "approve", "solo", "--commit")  # a commit approval with its diff stat
    tp(repo, "interrupt", "record", "solo", "wait, why is that?", TASKPROTO_SESSION="s-solo")
    tp(repo, "interrupt", "record", "solo", "ok, go on", TASKPROTO_SESSION="s-solo")
    return repo


def test_every_view_of_every_task_is_the_full_commands_and_answered_quickly(busy: Path) -> None:
    tp(busy, "task", "list")  # the full command caches the state tables
    names = json.loads(tp(busy, "task", "list", "--json"))
    assert [n["name"] for n in names] == ["after", "base", "solo", "team"]
    assert names[0]["waits_for"] and names[3]["agents"] == {"ann": "WORKING", "bob": "COMPLETE"}
    for args in VIEWS + [v for n in names for v in show_views(n["name"])]:
        assert same_as_full(busy, *args) == "quick", args


def test_the_owner_renews_its_heartbeat_through_the_quick_path_too(busy: Path) -> None:
    tp(busy, "task", "list")
    beat = busy / ".taskproto" / "tasks" / "team" / "heartbeat.json"
    beat.unlink(missing_ok=True)
    assert run(busy, "task", "show", "team", TASKPROTO_SESSION="s-team")[3] == "quick"
    written = json.loads(beat.read_text())
    assert written["session"] == "s-team" and written["pid"] == os.getpid()
    beat.unlink()
    assert run(busy, "task", "show", "team", TASKPROTO_SESSION="someone-else")[3] == "quick"
    assert not beat.exists()  # only the owner's commands renew it


def test_built_in_tables_need_no_cache_and_a_users_workflow_is_cached(busy: Path) -> None:
    cache = busy / ".taskproto" / "cache" / "hook-flags.json"
    cache.unlink(missing_ok=True)
    assert same_as_full(busy, "task", "list") == "quick"  # built-ins: shipped with the package
    assert not cache.exists()
    # a workflow of the repository's own: the full command answers and caches its table
    flow = busy / ".taskproto" / "workflows" / "mine.toml"
    flow.parent.mkdir(parents=True, exist_ok=True)
    flow.write_text(
        'initial = "A"\n[[states]]\nname = "A"\n[[states]]\nname = "B"\nterminal = true\n'
        '[[transitions]]\ntrigger = "go"\nsource = "A"\ndest = "B"\n'
    )
    tp(busy, "task", "create", "mine1", "--workflow", "mine")
    cache.unlink(missing_ok=True)
    # the list reads each task's row from the index: its state table is asked only for the
    # summary --json prints
    assert same_as_full(busy, "task", "list") == "quick"
    cache.unlink(missing_ok=True)  # (the full command, run beside it, cached the table)
    assert same_as_full(busy, "task", "list", "--json") == "full"
    assert cache.exists()
    assert same_as_full(busy, "task", "list", "--json") == "quick"
    # an entry written by an older version (without the next steps) is not trusted
    data = json.loads(cache.read_text())
    for states in data.values():
        for flags in states["states"].values():
            del flags["triggers"]
    cache.write_text(json.dumps(data))
    assert same_as_full(busy, "task", "show", "mine1") == "full"
    assert same_as_full(busy, "task", "show", "mine1") == "quick"


def test_a_forged_task_json_is_refused_as_the_full_command_refuses_it(busy: Path) -> None:
    tp(busy, "task", "list")
    path = busy / ".taskproto" / "tasks" / "base" / "task.json"
    path.write_text(path.read_text().replace('"INIT"', '"COMPLETE"'))
    for args in [*VIEWS, *show_views("base")]:
        assert same_as_full(busy, *args) == "full"
    code, out, err, _ = run(busy, "task", "show", "base")
    assert code == 1 and "journal" in err and not out
    assert "BROKEN" in run(busy, "task", "list")[1]


def test_unusual_cases_go_to_the_full_command(busy: Path) -> None:
    tp(busy, "task", "list")
    root = busy / ".taskproto" / "tasks"
    # an agent status that is not one the models write (the protocol scripts' IN_PROGRESS)
    status = root / "team" / "agents" / "ann" / "status.json"
    data = json.loads(status.read_text())
    status.write_text(json.dumps({**data, "status": "IN_PROGRESS"}))
    assert same_as_full(busy, "task", "show", "team", "--json") == "full"
    assert json.loads(run(busy, "task", "show", "team", "--json")[1])["agents"]["ann"] == "WORKING"
    status.unlink()  # a missing status is plain: "missing"
    assert same_as_full(busy, "task", "show", "team", "--json") == "quick"
    # options it does not know, a task that does not exist, a bad name, no name
    for args in (
        ("task", "show", "nosuch"),
        ("task", "show", "../base"),
        ("task", "show"),
        ("task", "list", "--bogus"),
        ("task", "show", "base", "--help"),
        ("--root", ".taskproto", "task", "list"),
    ):
        assert same_as_full(busy, *args) == "full", args
    # a dependency that is no longer on this machine
    tp(busy, "task", "remove", "base", "--force")
    assert same_as_full(busy, "task", "show", "after") == "full"
    # switched off
    assert run(busy, "task", "list", TASKPROTO_QUICK="0")[3] == "full"


def test_a_task_folder_reached_through_a_link_goes_to_the_full_command(busy: Path) -> None:
    tp(busy, "task", "list")
    tasks = busy / ".taskproto" / "tasks"
    outside = busy.parent / "elsewhere"
    (tasks / "base").rename(outside)
    (tasks / "base").symlink_to(outside)
    assert same_as_full(busy, "task", "show", "base") == "full"
    assert run(busy, "task", "show", "base")[0] == 1


def test_a_plan_task_shows_its_plan_through_the_full_command(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "plans")
    tp(repo, "init", "--git")
    tp(repo, "task", "create", "p", "--workflow", "plan-task")
    tp(repo, "task", "list")
    assert same_as_full(repo, "task", "show", "p") == "full"
    assert same_as_full(repo, "task", "list") == "quick"


def test_settings_errors_are_the_full_commands_to_report(busy: Path) -> None:
    tp(busy, "task", "list")
    (busy / ".taskproto.toml").write_text("lock_timeout = 'soon'\n")
    assert same_as_full(busy, "task", "list") == "full"
    assert run(busy, "task", "list")[0] == 1
    (busy / ".taskproto.toml").write_text("lock_timeout = 5\n")
    # the built-in workflows' tables do not depend on the settings
    assert same_as_full(busy, "task", "list") == "quick"


def test_an_empty_repository_and_one_outside_git(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "empty")
    tp(repo, "init", "--git")
    assert same_as_full(repo, "task", "list") == "quick"
    assert run(repo, "task", "list")[1].startswith("no tasks")
    assert same_as_full(repo, "task", "list", "--json") == "quick"
    outside = tmp_path / "plain"
    outside.mkdir()
    assert same_as_full(outside, "task", "list") == "full"


# --- the tables the quick path trusts are the models' -----------------------------------------


def _shape(model: type[Record]) -> dict[str, Any]:
    return {f.key: _nested(f) for f in model._spec()}


def _nested(spec: Any) -> Any:
    from taskproto.state import models

    for klass in (
        models.Owner,
        models.LogEntry,
        models.Interruption,
        models.Approval,
        models.ApproverSeen,
        models.DiffStat,
        models.MergeRecord,
        models.LandRecord,
        models.Escalation,
        models.Checkpoint,
        models.Counters,
    ):
        if _holds(spec, klass):
            return _shape(klass)
    return None


def _holds(spec: Any, klass: type[Record]) -> bool:
    """Whether the field's check accepts an instance of `klass` as one of its values."""
    instance = klass.__new__(klass)
    errors: list[dict[str, Any]] = []
    got = spec.check(instance, (), errors)
    if got is instance and not errors:
        return True
    errors = []
    got = spec.check([instance], (), errors)
    return not errors and isinstance(got, list) and got and got[0] is instance


def test_the_task_shape_is_the_models() -> None:
    assert _shape(Task) == summary.TASK_SHAPE
    assert summary.SCHEMA_VERSION == SCHEMA_VERSION
    assert set(STATUS_KEYS) == {f.key for f in AgentStatus._spec()}
    assert set(AGENT_STATES) == set(AgentState._value2member_map_)


def test_conforms_refuses_another_shape(busy: Path) -> None:
    data = json.loads((busy / ".taskproto" / "tasks" / "solo" / "task.json").read_text())
    assert summary.conforms(data)
    older = {k: v for k, v in data.items() if k != "landed"}
    assert not summary.conforms(older)
    nested = json.loads(json.dumps(data))
    del nested["checkpoint"]["plan_approval"]["diffstat"]
    assert not summary.conforms(nested)
    listed = json.loads(json.dumps(data))
    listed["interruptions"][0]["extra"] = 1
    assert not summary.conforms(listed)
    assert git(busy, "status", "--porcelain") == ""


def test_an_approval_written_before_seen_is_read_quickly_as_the_models_read_it(
    busy: Path,
) -> None:
    """An approval an older version wrote has no `seen` (the approver's context): the quick reads
    take it (it was sent to the models on every read, a session's start at 1,000 tasks too),
    and answer as the full command."""
    path = busy / ".taskproto" / "tasks" / "solo" / "task.json"
    data = json.loads(path.read_text())
    approval = data["checkpoint"]["plan_approval"]
    assert approval is not None and "seen" in approval
    older = json.loads(json.dumps(data))
    del older["checkpoint"]["plan_approval"]["seen"]
    assert summary.conforms(older)
    assert summary.fill_later(json.loads(json.dumps(older))) == {
        **older,
        "checkpoint": {
            **older["checkpoint"],
            "plan_approval": {**older["checkpoint"]["plan_approval"], "seen": None},
        },
    }
    missing_other = json.loads(json.dumps(data))
    del missing_other["checkpoint"]["plan_approval"]["kind"]
    assert not summary.conforms(missing_other)  # only the later keys may be missing


def test_from_another_cwd_the_answer_is_the_same(busy: Path) -> None:
    tp(busy, "task", "list")
    sub = busy / "docs" / "deep"
    sub.mkdir(parents=True)
    worktree = busy / ".taskproto" / "tasks" / "team" / "agents" / "ann" / "code"
    expected = run(busy, "task", "show", "team", "--json")
    for cwd in (sub, worktree, worktree / ".."):
        assert same_as_full(cwd, "task", "show", "team", "--json") == "quick", cwd
        assert run(cwd, "task", "show", "team", "--json")[:3] == expected[:3]


def test_an_agent_status_reached_through_a_link_goes_to_the_full_command(busy: Path) -> None:
    tp(busy, "task", "list")
    status = busy / ".taskproto" / "tasks" / "team" / "agents" / "bob" / "status.json"
    elsewhere = busy.parent / "forged-status.json"
    elsewhere.write_text(status.read_text().replace("COMPLETE", "ERROR"))
    status.unlink()
    status.symlink_to(elsewhere)
    assert same_as_full(busy, "task", "show", "team", "--json") == "full"
    agents = json.loads(run(busy, "task", "show", "team", "--json")[1])["agents"]
    assert agents["bob"] != "ERROR"  # the link is not followed
