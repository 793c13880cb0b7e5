"""A task that waits for others starts once they have landed, and from their code: its branches
are brought to the base's head at its claim (or its first move), unless that would lose work."""

from __future__ import annotations

import json
import os

from taskproto.engine import Engine
from taskproto.engine.deps import Blocked
from taskproto.git.command import Git
from taskproto.hooks.git import install
from tests.conftest import commit_file, git
from tests.hooks.agents.conftest import move_to

S1, S2 = "s1", "s2"


def _approved(engine: Engine, name: str, file: str) -> None:
    """Task `name` (agent dev) whose work adds `file`, approved and in COMPLETE."""
    engine.claim(name, S1)
    move_to(engine, name, "IMPLEMENTATION")
    commit_file(engine.config.agent_worktree(name, "dev"), file, f"{name}\n")
    engine.merge(name, session=S1)
    move_to(engine, name, "AWAITING_USER_APPROVAL")
    engine.approve(name, "commit", "user")
    engine.fire(name, target="COMPLETE", session=S1)


def _setup(engine: Engine) -> None:
    install.install(Git(engine.config.repo))
    engine.create_task("api", ["dev"])
    engine.create_task("ui", ["dev"], after=["api"])


def test_a_dependency_in_complete_has_not_landed_so_the_dependent_waits(
    engine: Engine, cli
) -> None:
    _setup(engine)
    _approved(engine, "api", "api.py")
    r = cli("ready", "--json")
    assert r.code == 0, r.err
    assert [row["name"] for row in json.loads(r.out)["ready"]] == []
    r = cli("claim", "ui", env={"TASKPROTO_SESSION": S2})
    assert r.code == 1 and "waits for api (in COMPLETE)" in r.err
    try:
        engine.claim("ui", S2)
    except Blocked:
        pass
    else:
        raise AssertionError("claimed a task whose dependency has not landed")


def test_the_dependent_starts_from_the_code_it_waited_for(engine: Engine, cli) -> None:
    repo = engine.config.repo
    _setup(engine)
    old_base = engine.load("ui").base
    _approved(engine, "api", "api.py")
    r = cli("land", "api")
    assert r.code == 0, r.err
    main = git(repo, "rev-parse", "main")
    r = cli("ready", "--json")
    assert [row["name"] for row in json.loads(r.out)["ready"]] == ["ui"]
    r = cli("claim", "ui", env={"TASKPROTO_SESSION": S2})
    assert r.code == 0, r.err
    task = engine.load("ui")
    assert task.base == main != old_base
    for branch, worktree in (
        ("ui", engine.config.task_worktree("ui")),
        ("ui-dev", engine.config.agent_worktree("ui", "dev")),
    ):
        assert git(repo, "rev-parse", branch) == main
        assert (worktree / "api.py").read_text() == "api\n"
        assert git(worktree, "status", "--porcelain") == ""
    notes = [e.note or "" for e in task.transition_log if e.trigger == "start_point"]
    assert len(notes) == 1 and f"starts from main at {main[:12]}" in notes[0]
    # and the rest of its day works from there: it lands on top of api's work
    move_to(engine, "ui", "IMPLEMENTATION")
    commit_file(engine.config.agent_worktree("ui", "dev"), "ui.py", "ui\n")
    engine.merge("ui", session=S2)
    move_to(engine, "ui", "AWAITING_USER_APPROVAL")
    engine.approve("ui", "commit", "user")
    engine.fire("ui", target="COMPLETE", session=S2)
    r = cli("land", "ui", "--strategy", "ff")
    assert r.code == 0, r.err
    assert (repo / "api.py").is_file() and (repo / "ui.py").is_file()


def test_a_dependent_with_work_of_its_own_keeps_its_start_point(engine: Engine, cli) -> None:
    repo = engine.config.repo
    _setup(engine)
    # work done on ui-dev while it waited
    dev = engine.config.agent_worktree("ui", "dev")
    (dev / "early.py").write_text("early\n")
    git(dev, "add", "early.py")
    bypass = {**os.environ, "TASKPROTO_INTERNAL": "1"}  # past the hooks, as a same-user process
    git(dev, "commit", "-q", "--no-verify", "-m", "early", env=bypass)
    mine = git(dev, "rev-parse", "HEAD")
    before = engine.load("ui").base
    _approved(engine, "api", "api.py")
    assert cli("land", "api").code == 0
    r = cli("claim", "ui", env={"TASKPROTO_SESSION": S2})
    assert r.code == 0, r.err
    assert "keeps its start point" in r.err and "hold commits main lacks" in r.err
    assert "`taskproto update ui` brings main in" in r.err
    assert engine.load("ui").base == before
    assert git(repo, "rev-parse", "ui-dev") == mine
    assert not (engine.config.task_worktree("ui") / "api.py").exists()
    # what the warning says brings what it waited for in, its own work kept
    r = cli("update", "ui", "--agents")
    assert r.code == 0, r.err
    assert (engine.config.task_worktree("ui") / "api.py").is_file()
    assert (dev / "api.py").is_file() and (dev / "early.py").is_file()
    assert git(repo, "merge-base", "--is-ancestor", mine, "ui-dev") == ""


def test_a_dirty_worktree_keeps_the_start_point_and_its_change(engine: Engine, cli) -> None:
    _setup(engine)
    scratch = engine.config.task_worktree("ui") / "scratch.txt"
    scratch.write_text("not committed\n")
    _approved(engine, "api", "api.py")
    assert cli("land", "api").code == 0
    r = cli("claim", "ui", env={"TASKPROTO_SESSION": S2})
    assert r.code == 0, r.err
    assert "uncommitted changes in the worktree of ui" in r.err
    assert scratch.read_text() == "not committed\n"
    assert not (engine.config.task_worktree("ui") / "api.py").exists()
