"""A repository moved and not re-linked yet (`taskproto init` not run again), through the doors
other than `task remove` (tests/test_remove_moved.py): `land` lands but keeps the worktrees, the
MCP server (which has no tool that removes or lands) refuses a merge there and warns on a claim,
and `claim` / `next` warn once, naming `taskproto init`; uncommitted work survives each."""

from __future__ import annotations

import os
from pathlib import Path

import anyio

from taskproto.engine import Engine
from tests.conftest import Result, commit_file, git, run_taskproto
from tests.hooks.agents.conftest import move_to
from tests.landing.conftest import approved_task
from tests.mcpserver.conftest import connect, ok, refused

MOVED = "the repository was moved and not re-linked"


def _tp(cwd: Path, *args: str) -> Result:
    return run_taskproto(*args, cwd=cwd, env={"TASKPROTO_SESSION": "s1"}, timeout=120)


def _move(repo: Path, tmp_path: Path) -> tuple[Path, list[str]]:
    moved = tmp_path / "moved"
    os.rename(repo, moved)
    return moved, sorted(os.listdir(moved / ".git" / "worktrees"))


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if MOVED in line]


def test_land_in_a_moved_repository_lands_and_keeps_the_worktree_and_its_work(
    engine: Engine, repo: Path, tmp_path: Path
) -> None:
    assert _tp(repo, "init").code == 0
    approved = approved_task(engine, "t1", {"a.txt": "a\n"})
    moved, admins = _move(repo, tmp_path)
    precious = moved / ".taskproto" / "tasks" / "t1" / "code" / "uncommitted.txt"
    precious.write_text("precious\n")

    landed = _tp(moved, "land", "t1")
    assert landed.code == 0, landed.err
    assert "not registered in git at this place" in landed.out
    assert "taskproto init" in landed.out
    assert git(moved, "rev-parse", "main^2") == approved  # landed: main merged the approved head
    assert precious.read_text() == "precious\n"
    assert sorted(os.listdir(moved / ".git" / "worktrees")) == admins
    assert git(moved, "rev-parse", "refs/heads/t1") == approved  # the branch is kept too

    # re-linked, the worktree is judged in place: its uncommitted work refuses the removal
    assert _tp(moved, "init").code == 0
    removal = _tp(moved, "task", "remove", "t1")
    assert removal.code == 1
    assert "uncommitted changes" in removal.err
    assert precious.exists()


def test_mcp_in_a_moved_repository_warns_on_a_claim_and_refuses_a_merge(
    engine: Engine, repo: Path, tmp_path: Path
) -> None:
    assert _tp(repo, "init").code == 0
    engine.create_task("t1", ["dev"])
    engine.claim("t1", "s1")
    move_to(engine, "t1", "IMPLEMENTATION")
    commit_file(engine.config.agent_worktree("t1", "dev"), "d.txt", "d\n")
    moved, admins = _move(repo, tmp_path)
    precious = moved / ".taskproto" / "tasks" / "t1" / "code" / "uncommitted.txt"
    precious.write_text("precious\n")
    head = git(moved, "rev-parse", "refs/heads/t1")

    async def main() -> None:
        async with connect(moved, "s1") as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            assert not {t for t in tools if "remove" in t or "land" in t}  # the user's alone
            claimed = await ok(client, "claim", task="t1")
            assert len(_warnings("\n".join(claimed["warnings"]))) == 1
            assert "taskproto init" in claimed["warnings"][0]
            line = await refused(client, "merge", task="t1")
            assert line.startswith("taskproto: refusing to merge into task 't1': " + MOVED)
            assert "taskproto init" in line
            assert len(line.splitlines()) == 1

    anyio.run(main)
    assert precious.read_text() == "precious\n"
    assert sorted(os.listdir(moved / ".git" / "worktrees")) == admins
    assert git(moved, "rev-parse", "refs/heads/t1") == head  # nothing merged


def test_claim_next_and_task_list_in_a_moved_repository_say_so_once_until_init(
    engine: Engine, repo: Path, tmp_path: Path
) -> None:
    assert _tp(repo, "init").code == 0
    engine.create_task("t1")
    engine.create_task("t2")
    moved, _ = _move(repo, tmp_path)

    for args in (("claim", "t1"), ("next", "t1"), ("claim",)):
        done = _tp(moved, *args)
        assert done.code == 0, done.err
        assert len(_warnings(done.err)) == 1, done.err
        assert done.err.startswith("taskproto: warning: " + MOVED)
        assert "run `taskproto init` here" in done.err
    # `task list` (the quick front, and the click command) looks at its first task's worktree
    for env in ({}, {"TASKPROTO_QUICK": "0"}):
        for args in (("task", "list"), ("task", "list", "--json")):
            listed = run_taskproto(*args, cwd=moved, env=env)
            assert listed.code == 0, listed.err
            assert "t1" in listed.out and "t2" in listed.out
            assert len(_warnings(listed.err)) == 1, (env, args, listed.err)
            assert listed.err.startswith("taskproto: warning: " + MOVED)

    assert _tp(moved, "init").code == 0
    again = _tp(moved, "claim", "t2")
    assert again.code == 0, again.err
    assert again.err == ""
    assert _tp(moved, "task", "list").err == ""


def test_approving_a_commit_in_a_moved_repository_is_refused_naming_init(
    engine: Engine, repo: Path, tmp_path: Path
) -> None:
    assert _tp(repo, "init").code == 0
    engine.create_task("t1")
    engine.claim("t1", "s1")
    move_to(engine, "t1", "IMPLEMENTATION")
    commit_file(engine.config.task_worktree("t1"), "a.txt", "a\n")
    move_to(engine, "t1", "AWAITING_USER_APPROVAL")
    moved, _ = _move(repo, tmp_path)

    refused_ = _tp(moved, "approve", "t1", "--commit")
    assert refused_.code == 1, refused_.out + refused_.err
    assert refused_.err.startswith("taskproto: refusing to approve a commit: " + MOVED)
    assert "taskproto init" in refused_.err
    assert len(refused_.err.strip().splitlines()) == 1
    assert _tp(moved, "init").code == 0
    approved = _tp(moved, "approve", "t1", "--commit")
    assert approved.code == 0, approved.err
