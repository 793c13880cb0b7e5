"""`taskproto merge` and `taskproto diff`: agents' branches into the task branch on real
repositories, with taskproto's git hooks installed (the branch guard and the approval hooks run)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import anyio
import pytest

from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.hooks.git import install
from taskproto.state import journal
from tests.conftest import commit_file, git
from tests.hooks.agents.conftest import move_to

SESSION = "s1"
AGENTS = ["architect", "engineer", "tester"]


def wt(engine: Engine, agent: str | None = None) -> Path:
    if agent is None:
        return engine.config.task_worktree("t")
    return engine.config.agent_worktree("t", agent)


def head(engine: Engine, branch: str = "t") -> str:
    return git(engine.config.repo, "rev-parse", f"refs/heads/{branch}")


def snapshot(engine: Engine) -> tuple[bytes, str | None, str, str]:
    """task.json, the journal head, the task branch and the task worktree's status."""
    return (
        engine.config.task_file("t").read_bytes(),
        journal.head(engine.git, "t"),
        head(engine),
        git(wt(engine), "status", "--porcelain"),
    )


@pytest.fixture
def task(engine: Engine, repo: Path) -> Engine:
    """Hooks installed; task t (three agents) in IMPLEMENTATION, owned by SESSION, each agent with
    one commit of its own file."""
    install.install(Git(repo))
    engine.create_task("t", AGENTS, description="Add a greeting")
    engine.claim("t", SESSION)
    move_to(engine, "t", "IMPLEMENTATION")
    for agent in AGENTS:
        commit_file(wt(engine, agent), f"{agent}.txt", f"{agent}\n", f"{agent}: work")
    return engine


def test_merge_brings_every_agent_in_one_at_a_time_with_merge_commits(task: Engine, cli) -> None:
    engine = task
    start = head(engine)
    agent_heads = {a: head(engine, f"t-{a}") for a in AGENTS}
    r = cli("merge", "t", "--json", env={"TASKPROTO_SESSION": SESSION})
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert [x["agent"] for x in data["results"]] == AGENTS
    assert all(x["result"] == "merged" for x in data["results"])
    # one merge commit per agent (--no-ff), first-parent chain in the task's order of agents
    chain = git(wt(engine), "log", "--first-parent", "--format=%H %P", f"{start}..t").splitlines()
    assert len(chain) == 3
    for line, agent in zip(reversed(chain), AGENTS, strict=True):
        sha, first, second = line.split()
        assert second == agent_heads[agent]
    for agent in AGENTS:
        assert (wt(engine) / f"{agent}.txt").read_text() == f"{agent}\n"
    # recorded in task.json and in the journal
    merges = engine.load("t").merges
    assert [(m.agent, m.commit, m.result) for m in merges] == [
        (a, agent_heads[a], "merged") for a in AGENTS
    ]
    assert merges[-1].merge_commit == head(engine) == data["head"]
    log = git(engine.config.repo, "log", "--format=%s", "refs/taskproto/tasks/t")
    for agent in AGENTS:
        assert f"merge: {agent} merged" in log
    assert git(wt(engine), "status", "--porcelain") == ""


def test_merge_again_is_up_to_date_and_writes_nothing(task: Engine) -> None:
    engine = task
    engine.merge("t", session=SESSION)
    before = snapshot(engine)
    report = engine.merge("t", session=SESSION)
    assert [r.result for r in report.results] == ["up-to-date"] * 3
    assert snapshot(engine) == before


def test_named_agents_merge_in_the_tasks_order_and_others_wait(task: Engine) -> None:
    engine = task
    report = engine.merge("t", ["tester", "architect"], session=SESSION)
    assert [r.agent for r in report.results] == ["architect", "tester"]
    assert not (wt(engine) / "engineer.txt").exists()


def test_a_conflict_stops_at_that_agent_and_leaves_nothing_half_merged(task: Engine, cli) -> None:
    engine = task
    # engineer and tester both change the same line of the same file
    commit_file(wt(engine, "engineer"), "shared.txt", "engineer's line\n")
    commit_file(wt(engine, "tester"), "shared.txt", "tester's line\n")
    tester_head = head(engine, "t-tester")
    r = cli("merge", "t", env={"TASKPROTO_SESSION": SESSION})
    assert r.code == 1
    lines = r.err.strip().splitlines()
    assert len(lines) == 1, r.err
    assert "merging agent tester into task t conflicts in shared.txt" in lines[0]
    assert "merged before it and kept: architect, engineer" in lines[0]
    # the worktree is exactly as it was after engineer's merge: no merge in progress, clean
    assert git(wt(engine), "status", "--porcelain") == ""
    assert (wt(engine) / "shared.txt").read_text() == "engineer's line\n"
    assert not (wt(engine) / "tester.txt").exists()
    gitdir = Path(git(wt(engine), "rev-parse", "--absolute-git-dir"))
    assert not (gitdir / "MERGE_HEAD").exists()
    # the agents before it stay merged; the conflict is recorded; tester's commit is not lost
    merges = engine.load("t").merges
    assert [(m.agent, m.result) for m in merges] == [
        ("architect", "merged"),
        ("engineer", "merged"),
        ("tester", "conflict"),
    ]
    assert merges[-1].files == ["shared.txt"] and merges[-1].commit == tester_head
    assert head(engine, "t-tester") == tester_head
    assert merges[1].merge_commit == head(engine)

    # --json: the same refusal as data, exit 1
    r = cli("merge", "t", "--json", env={"TASKPROTO_SESSION": SESSION})
    assert r.code == 1
    data = json.loads(r.out)
    assert data["conflict"] == {"agent": "tester", "files": ["shared.txt"]}

    # resolved on the agent's branch, the merge goes through
    tester = wt(engine, "tester")
    subprocess.run(["git", "merge", "-q", "t"], cwd=tester, capture_output=True, check=False)
    (tester / "shared.txt").write_text("both lines\n")
    git(tester, "commit", "-qam", "tester: resolve")
    report = engine.merge("t", session=SESSION)
    assert [r.result for r in report.results] == ["up-to-date", "up-to-date", "merged"]
    assert (wt(engine) / "shared.txt").read_text() == "both lines\n"
    # what merge wrote is what the journal vouches for: doctor finds nothing to say
    from taskproto import doctor

    assert doctor.run(engine.config, ["t"], fix=False).as_json()["findings"] == []


@pytest.mark.parametrize(
    ("state", "allowed"),
    [("SYNTHESIS", False), ("IMPLEMENTATION", True), ("VALIDATION", True), ("REVIEW", False)],
)
def test_merge_only_where_the_workflow_allows_it(
    engine: Engine, repo: Path, state: str, allowed: bool
) -> None:
    install.install(Git(repo))
    engine.create_task("t", ["dev"])
    engine.claim("t", SESSION)
    if state != "SYNTHESIS":
        move_to(engine, "t", "IMPLEMENTATION")
        commit_file(wt(engine, "dev"), "dev.txt")
    move_to(engine, "t", state)
    before = snapshot(engine)
    if allowed:
        assert engine.merge("t", session=SESSION).results[0].result == "merged"
        return
    from taskproto.errors import TaskprotoError

    with pytest.raises(TaskprotoError, match=f"is in {state}: merging agents is not allowed there"):
        engine.merge("t", session=SESSION)
    assert snapshot(engine) == before


def test_merge_refuses_a_dirty_task_worktree_unknown_agents_and_other_owners(
    task: Engine, cli
) -> None:
    engine = task
    (wt(engine) / "notes.txt").write_text("uncommitted\n")
    before = snapshot(engine)
    r = cli("merge", "t", env={"TASKPROTO_SESSION": SESSION})
    assert r.code == 1 and "uncommitted changes in notes.txt" in r.err
    assert snapshot(engine) == before
    (wt(engine) / "notes.txt").unlink()
    r = cli("merge", "t", "--agent", "nobody", env={"TASKPROTO_SESSION": SESSION})
    assert r.code == 1 and "'nobody' is not an agent of task 't'" in r.err
    r = cli("merge", "t", env={"TASKPROTO_SESSION": "someone-else"})
    assert r.code == 1 and "only its owner can merge its agents" in r.err
    assert snapshot(engine)[:3] == before[:3]


def test_an_agents_raw_git_merge_is_still_refused_by_the_branch_guard(task: Engine) -> None:
    """From an agent's worktree, moving the task branch stays refused whatever the command."""
    engine = task
    before = head(engine)
    proc = subprocess.run(
        ["git", "update-ref", "refs/heads/t", "t-engineer"],
        cwd=wt(engine, "engineer"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode != 0
    assert "an agent moves only its own branch" in proc.stderr
    assert "taskproto merge t" in proc.stderr
    assert head(engine) == before


def test_diff_of_the_task_and_of_an_agent(task: Engine, cli) -> None:
    engine = task
    engine.merge("t", ["architect", "engineer"], session=SESSION)
    r = cli("diff", "t", "--stat")
    assert r.code == 0, r.err
    base = engine.load("t").base or ""
    assert r.out == (
        " A architect.txt  +1 -0\n"
        " A engineer.txt   +1 -0\n"
        f"{base[:12]}..{head(engine)[:12]}: 2 files changed, +2 -0 (architect.txt, engineer.txt)\n"
    )
    r = cli("diff", "t")
    assert "+++ b/engineer.txt" in r.out and "+engineer" in r.out
    assert r.out == git(engine.config.repo, "diff", base, "t") + "\n"
    r = cli("diff", "t", "--agent", "tester", "--json")
    data = json.loads(r.out)
    assert [f["path"] for f in data["files"]] == ["tester.txt"]
    assert data["head"] == head(engine, "t-tester") and "+tester" in data["patch"]
    r = cli("diff", "t", "--stat", "--json")
    assert "patch" not in json.loads(r.out)
    r = cli("diff", "t", "--agent", "nobody")
    assert r.code == 1 and "'nobody' is not an agent of task 't'" in r.err


def test_an_agent_merges_and_diffs_through_mcp_and_the_cli(task: Engine, repo: Path) -> None:
    """merge and diff are an agent's to do: the CLI under an agent client and the MCP tools."""
    from tests.conftest import run_taskproto
    from tests.mcpserver.conftest import connect, ok, refused

    engine = task
    commit_file(wt(engine, "engineer"), "shared.txt", "engineer's line\n")
    commit_file(wt(engine, "tester"), "shared.txt", "tester's line\n")
    agent_env = {"TASKPROTO_SESSION": SESSION, "CLAUDECODE": "1"}
    r = run_taskproto("merge", "t", "--agent", "architect", cwd=repo, env=agent_env)
    assert r.code == 0, r.err

    async def main() -> None:
        async with connect(repo, SESSION) as client:
            result = await ok(client, "merge", task="t", agents=["engineer"])
            assert [x["result"] for x in result["results"]] == ["merged"]
            line = await refused(client, "merge", task="t")
            assert "merging agent tester into task t conflicts in shared.txt" in line
            shown = await ok(client, "diff", task="t", stat=True)
            assert [f["path"] for f in shown["files"]] == [
                "architect.txt",
                "engineer.txt",
                "shared.txt",
            ]
            assert shown["patch"] is None

    anyio.run(main)
    assert git(wt(engine), "status", "--porcelain") == ""
    # architect and engineer were recorded as merged already: "up-to-date" adds nothing new
    assert [(m.agent, m.result) for m in engine.load("t").merges] == [
        ("architect", "merged"),
        ("engineer", "merged"),
        ("tester", "conflict"),
    ]
