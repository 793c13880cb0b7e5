"""What no agent deletes, moves or points elsewhere, whatever its task: the folders that hold
taskproto's root or git's repository, git's objects, index and worktree links, and the branches of
a task its session does not own; and git's working tree moved onto taskproto's state
(`--work-tree`, `GIT_WORK_TREE`, `core.worktree`) or fed an index of the agent's own
(`GIT_INDEX_FILE`, `checkout-index`). Tried from a session that owns no task, in the main
checkout, through the real hook entry point and the other clients' doors. The first test shows
one of them for real: a working tree moved onto a task's folder writes over its task.json."""

from __future__ import annotations

import pytest

from taskproto.engine import Engine
from tests.conftest import git
from tests.hooks.agents.conftest import Hook

from .test_tool_guard_escapes import SESSION, bash, dev, t1  # noqa: F401 (a fixture)
from .test_tool_guard_sweeps import _client, _evil_branch, allowed, denied

GIT_OWN = "is git's own"
STATE = "taskproto's own state"
HOLDS = "which holds"


def test_a_working_tree_moved_onto_the_state_is_denied(t1: Engine, hook: Hook) -> None:  # noqa: F811
    repo = t1.config.repo
    _evil_branch(repo, "task.json")  # a branch with a task.json at its top
    task_dir = t1.config.task_dir("t1").relative_to(repo)
    for command in (
        f"git --work-tree={task_dir} checkout evil -- task.json",
        f"git --work-tree {task_dir} checkout evil -- task.json",
        f"git --git-dir=.git --work-tree={task_dir} reset --hard evil",
        f"GIT_WORK_TREE={task_dir} git checkout evil -- task.json",
        f"env GIT_WORK_TREE={task_dir} git checkout evil -- task.json",
        f"export GIT_WORK_TREE={task_dir}; git checkout evil -- task.json",
        f"git -c core.worktree={task_dir} checkout evil -- task.json",
        f"bash -c 'GIT_WORK_TREE={task_dir} git checkout evil -- task.json'",
    ):
        assert STATE in denied(hook, command, repo), command
        for client in ("codex", "gemini"):
            code, err = _client(hook, client, command, repo)
            assert code == 2 and STATE in err, (client, command, err)
    allowed(hook, "git --work-tree=../elsewhere checkout main -- .", repo)
    # and run as is, it writes the branch's task.json over the task's
    task = t1.config.task_file("t1")
    git(repo, f"--work-tree={task_dir}", "checkout", "evil", "--", "task.json")
    assert task.read_bytes() == b"{}"


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("rm -rf .", HOLDS),
        ("rm -rf ../repo", HOLDS),
        ("cd .. && rm -rf repo", HOLDS),
        ("mv .git ../kept-git", HOLDS),
        ("mv . ../moved", HOLDS),
        ("rm -rf .git", GIT_OWN),
        ("rm -rf .git/objects", GIT_OWN),
        ("find .git/objects -type f | xargs rm -f", "writes where the guard cannot tell"),
        ("echo > .git/index", GIT_OWN),
        ("cp /dev/null .git/index", GIT_OWN),
        ("rm -rf .git/worktrees", GIT_OWN),
        ("echo 'gitdir: /tmp/elsewhere' > {dev}/.git", GIT_OWN),
        ("git worktree remove --force {dev}", "/tasks/t1/"),
        ("find .taskproto/ -name task.json | xargs rm -f", "writes where the guard cannot tell"),
        ("git update-ref refs/heads/t1-dev main", "is a branch of task t1"),
        ("git branch -D t1-qa", "is a branch of task t1"),
        ("git branch -f t1 main", "is a branch of task t1"),
        ("git push . main:t1-dev", "is a branch of task t1"),
        ("GIT_INDEX_FILE=/tmp/agent-index git checkout -- .", "may write anywhere"),
        ("git checkout-index -a -f", "may write anywhere"),
    ],
)
def test_what_holds_the_state_and_the_commits_is_never_deleted(
    t1: Engine,  # noqa: F811
    hook: Hook,
    command: str,
    why: str,
) -> None:
    repo = t1.config.repo
    text = command.format(dev=dev(t1))
    assert why in denied(hook, text, repo), text
    assert _client(hook, "codex", text, repo)[0] == 2


def test_the_ordinary_commands_next_to_them_pass(t1: Engine, hook: Hook) -> None:  # noqa: F811
    repo = t1.config.repo
    (repo / "src").mkdir()
    for command in (
        "rm -rf src",
        "mv src lib",
        "rm -rf *",  # the glob leaves the dot folders: the state and the repository stay
        "git branch feature && git branch -D feature",
        "git worktree add ../elsewhere main",
        "git checkout-index --prefix=../export/ -a",
        "cat .git/index > /dev/null",
    ):
        allowed(hook, command, repo)
    # the session that owns t1 moves its own task's branch, from the task's worktree
    allowed(hook, "git branch -f t1 HEAD", t1.config.task_worktree("t1"), session=SESSION)


def test_the_write_tools_are_held_to_the_same_files(t1: Engine, hook: Hook) -> None:  # noqa: F811
    from .test_tool_guard_escapes import write

    repo = t1.config.repo
    for target in (
        repo / ".git" / "index",
        repo / ".git" / "objects" / "ab" / "cd",
        dev(t1) / ".git",
    ):
        code, err = write(hook, str(target), str(repo), session="nobody-7")
        assert code == 2 and GIT_OWN in err, (target, err)
        code, err = write(hook, str(target), str(dev(t1)), session=SESSION)  # the owner too
        assert code == 2 and GIT_OWN in err, (target, err)
