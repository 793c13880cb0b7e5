"""Approvals of the exact clean head, and `taskproto land` with each strategy, a bare remote, and
the user-only rule at every door. Real repositories with taskproto's hooks installed; after every
step, no commit that was on a task or agent branch is lost."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import anyio
import pytest

from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
from taskproto.git.command import Git
from taskproto.hooks.git import install
from taskproto.state import journal
from tests.conftest import commit_file, git, run_taskproto
from tests.hooks.agents.conftest import move_to
from tests.mcpserver.conftest import connect

SESSION = "s1"
AGENTS = ["dev", "qa"]


def tip(repo: Path, ref: str) -> str:
    return git(repo, "rev-parse", ref)


def state_of(engine: Engine) -> tuple[bytes, str | None, str]:
    return (
        engine.config.task_file("t").read_bytes(),
        journal.head(engine.git, "t"),
        tip(engine.config.repo, "refs/heads/main"),
    )


def task_commits(repo: Path) -> set[str]:
    branches = [
        b
        for b in ("t", "t-dev", "t-qa")
        if subprocess.run(
            ["git", "rev-parse", "--verify", "-q", f"refs/heads/{b}"], cwd=repo, capture_output=True
        ).returncode
        == 0
    ]
    return set(git(repo, "rev-list", *branches, "--not", "refs/heads/main").split()) | {
        tip(repo, b) for b in branches
    }


def assert_none_lost(repo: Path, commits: set[str]) -> None:
    """Every commit is still reachable from some branch."""
    for sha in commits:
        assert git(repo, "branch", "--contains", sha), f"{sha} is on no branch any more"


@pytest.fixture
def ready(engine: Engine, repo: Path) -> Engine:
    """Task t (agents dev, qa), both merged, in AWAITING_USER_APPROVAL; hooks installed."""
    install.install(Git(repo))
    engine.create_task("t", AGENTS, description="Add the greeting\n\nlonger text")
    engine.claim("t", SESSION)
    move_to(engine, "t", "IMPLEMENTATION")
    commit_file(engine.config.agent_worktree("t", "dev"), "greeting.py", "print('hi')\n")
    commit_file(engine.config.agent_worktree("t", "qa"), "test_greeting.py", "assert True\n")
    engine.merge("t", session=SESSION)
    move_to(engine, "t", "AWAITING_USER_APPROVAL")
    return engine


@pytest.fixture
def complete(ready: Engine) -> Engine:
    ready.approve("t", "commit", "user")
    ready.fire("t", target="COMPLETE", session=SESSION)
    return ready


# --- approvals -----------------------------------------------------------------------


def test_approve_records_the_head_and_the_diff_stat_it_approved(ready: Engine, cli) -> None:
    r = cli("approve", "t", "--commit", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    head = tip(ready.config.repo, "refs/heads/t")
    assert data["commit"] == head
    stat = data["diffstat"]
    assert stat["files"] == ["greeting.py", "test_greeting.py"]
    assert (stat["added"], stat["removed"], stat["head"]) == (2, 0, head)
    approval = ready.load("t").checkpoint.commit_approval
    assert approval is not None and approval.diffstat is not None
    assert approval.diffstat.model_dump(mode="json") == stat
    r = cli("approve", "t", "--commit", head)
    assert r.out == (
        f"t: commit {head[:12]} approved: 2 files changed, +2 -0 (greeting.py, test_greeting.py)\n"
    )
    show = cli("task", "show", "t")
    assert f"approved {head[:12]}: 2 files changed, +2 -0" in show.out


def test_the_approval_prompt_shows_the_diff_stat(ready: Engine) -> None:
    from taskproto.engine.resume import resume_instructions

    text = resume_instructions(ready, ready.load("t"))
    assert "Changes to approve: 2 files changed, +2 -0 (greeting.py, test_greeting.py)." in text
    assert "`taskproto diff t`" in text


def test_approve_refuses_a_commit_that_is_not_the_head(ready: Engine, cli) -> None:
    repo = ready.config.repo
    older = tip(repo, "refs/heads/t~1")
    before = state_of(ready)
    for sha in (older, older[:10], "main"):
        r = cli("approve", "t", "--commit", sha)
        assert r.code == 1
        assert len(r.err.strip().splitlines()) == 1
        assert "is not the head of branch t" in r.err and "taskproto diff t" in r.err
    r = cli("approve", "t", "--commit", "no-such-thing")
    assert r.code == 1 and "'no-such-thing' is not a commit" in r.err
    assert state_of(ready) == before
    assert ready.load("t").checkpoint.commit_approval is None


@pytest.mark.parametrize("change", ["modified", "untracked", "staged"])
def test_approve_refuses_uncommitted_changes_in_the_task_worktree(
    ready: Engine, cli, change: str
) -> None:
    worktree = ready.config.task_worktree("t")
    if change == "modified":
        (worktree / "greeting.py").write_text("print('changed')\n")
    elif change == "untracked":
        (worktree / "extra.py").write_text("x = 1\n")
    else:
        (worktree / "staged.py").write_text("y = 2\n")
        git(worktree, "add", "staged.py")
    name = {"modified": "greeting.py", "untracked": "extra.py", "staged": "staged.py"}[change]
    before = state_of(ready)
    head = tip(ready.config.repo, "refs/heads/t")
    for args in (("--commit",), ("--commit", head)):
        r = cli("approve", "t", *args)
        assert r.code == 1
        assert f"has uncommitted changes in {name}; commit or stash them first" in r.err
    assert state_of(ready) == before


# --- land ------------------------------------------------------------------------------


def test_land_merge_onto_a_base_that_moved(complete: Engine, cli) -> None:
    engine, repo = complete, complete.config.repo
    commit_file(repo, "NEWS.md", "news\n", "main moves on")
    main_before = tip(repo, "refs/heads/main")
    approved = tip(repo, "refs/heads/t")
    commits = task_commits(repo)
    r = cli("land", "t", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    main = tip(repo, "refs/heads/main")
    assert data["base_after"] == main and data["base_before"] == main_before
    assert git(repo, "rev-list", "--parents", "-n1", main).split()[1:] == [main_before, approved]
    assert git(repo, "log", "-1", "--format=%s", main) == "Merge task t into main: Add the greeting"
    # the main worktree (main is checked out there) has the files, and is clean
    assert (repo / "greeting.py").read_text() == "print('hi')\n"
    assert git(repo, "status", "--porcelain") == ""
    assert data["state"] == "CLEANUP" and data["removed"] is True
    assert not engine.config.task_dir("t").exists()
    assert not engine.config.task_worktree("t").exists()
    assert git(repo, "branch", "--list", "t*") == ""
    assert_none_lost(repo, commits)
    # the journal is archived, and records the landing
    ref = journal.latest_archive(engine.repo, "t")
    assert ref is not None
    archived = journal.task_json_at(engine.repo, ref)
    assert archived is not None
    assert archived["state"] == "CLEANUP" and archived["owner"] is None
    assert archived["landed"]["base_after"] == main and archived["landed"]["strategy"] == "merge"


def test_land_ff_and_its_refusal_when_the_base_moved(complete: Engine, cli) -> None:
    repo = complete.config.repo
    approved = tip(repo, "refs/heads/t")
    branch_off = git(repo, "rev-parse", "main")
    git(repo, "checkout", "-q", "-b", "elsewhere")  # main not checked out anywhere: a ref update
    commits = task_commits(repo)
    r = cli("land", "t", "--strategy", "ff")
    assert r.code == 0, r.err
    assert tip(repo, "refs/heads/main") == approved
    assert f"t: landed {approved[:12]} on main (ff): {branch_off[:12]} -> {approved[:12]}" in r.out
    assert_none_lost(repo, commits)


def test_land_ff_refused_when_main_moved(complete: Engine, cli) -> None:
    repo = complete.config.repo
    commit_file(repo, "NEWS.md", "news\n", "main moves on")
    before = state_of(complete)
    r = cli("land", "t", "--strategy", "ff")
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1
    assert "cannot fast-forward main" in r.err and "--strategy merge" in r.err
    assert state_of(complete) == before
    assert complete.load("t").state == "COMPLETE"


def test_land_squash_keeps_the_branches_whose_commits_are_not_on_main(
    complete: Engine, cli
) -> None:
    engine, repo = complete, complete.config.repo
    approved = tip(repo, "refs/heads/t")
    main_before = tip(repo, "refs/heads/main")
    commits = task_commits(repo)
    r = cli("land", "t", "--strategy", "squash")
    assert r.code == 0, r.err
    main = tip(repo, "refs/heads/main")
    assert git(repo, "rev-list", "--parents", "-n1", main).split()[1:] == [main_before]
    assert git(repo, "rev-parse", f"{main}^{{tree}}") == git(
        repo, "rev-parse", f"{approved}^{{tree}}"
    )
    assert "Approved: " + approved in git(repo, "log", "-1", "--format=%B", main)
    assert "commit(s) of the task's branches are not on main" in r.out
    assert "taskproto task remove t --force" in r.out
    assert engine.load("t").state == "CLEANUP"
    assert engine.config.task_worktree("t").is_dir()
    assert_none_lost(repo, commits)
    from taskproto import doctor

    assert doctor.run(engine.config, ["t"], fix=False).as_json()["findings"] == []


def test_land_refuses_a_conflicting_base_and_says_how_to_update(complete: Engine, cli) -> None:
    repo = complete.config.repo
    commit_file(repo, "greeting.py", "print('hello from main')\n", "main wrote it too")
    before = state_of(complete)
    objects = git(repo, "count-objects")
    r = cli("land", "t")
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1
    assert "main moved to" in r.err and "conflicts with task t in greeting.py" in r.err
    assert "`taskproto update t`" in r.err
    assert state_of(complete) == before
    assert git(repo, "status", "--porcelain") == ""
    del objects
    # doing what the message says lands it
    r = cli("rollback", "t", "--to", "IMPLEMENTATION")
    assert r.code == 0, r.err
    worktree = complete.config.task_worktree("t")
    subprocess.run(["git", "merge", "-q", "main"], cwd=worktree, capture_output=True, check=False)
    (worktree / "greeting.py").write_text("print('hello from both')\n")
    git(worktree, "commit", "-qam", "merge main into t")
    move_to(complete, "t", "AWAITING_USER_APPROVAL")
    complete.approve("t", "commit", "user")
    complete.fire("t", target="COMPLETE", session=SESSION)
    commits = task_commits(repo)
    r = cli("land", "t")
    assert r.code == 0, r.err
    assert (repo / "greeting.py").read_text() == "print('hello from both')\n"
    assert_none_lost(repo, commits)


def test_land_only_in_complete_with_a_current_approval(ready: Engine, cli) -> None:
    before = state_of(ready)
    r = cli("land", "t")
    assert r.code == 1 and "is in AWAITING_USER_APPROVAL; it lands from COMPLETE" in r.err
    assert state_of(ready) == before
    ready.approve("t", "commit", "user")
    ready.fire("t", target="COMPLETE", session=SESSION)
    # the branch moved behind taskproto's back (hooks bypassed): the approval no longer holds
    repo = ready.config.repo
    stray = git(repo, "commit-tree", "-p", "t", "-m", "sneaked in", f"{tip(repo, 't')}^{{tree}}")
    subprocess.run(
        ["git", "update-ref", "refs/heads/t", stray],
        cwd=repo,
        env={**os.environ, "TASKPROTO_INTERNAL": "1"},
        check=True,
    )
    before = state_of(ready)
    r = cli("land", "t")
    assert r.code == 1 and "the approval of task 't' is stale" in r.err
    assert state_of(ready) == before


def _complete_changing(engine: Engine, files: dict[str, str]) -> None:
    """Task t (agent dev) whose work writes `files`, approved and in COMPLETE."""
    install.install(Git(engine.config.repo))
    engine.create_task("t", ["dev"])
    engine.claim("t", SESSION)
    move_to(engine, "t", "IMPLEMENTATION")
    dev = engine.config.agent_worktree("t", "dev")
    for rel, text in files.items():
        (dev / rel).parent.mkdir(parents=True, exist_ok=True)
        (dev / rel).write_text(text)
    git(dev, "add", "-A")
    git(dev, "commit", "-qm", "dev's work")
    engine.merge("t", session=SESSION)
    move_to(engine, "t", "AWAITING_USER_APPROVAL")
    engine.approve("t", "commit", "user")
    engine.fire("t", target="COMPLETE", session=SESSION)


@pytest.mark.parametrize(
    "dirt", ["modified", "staged", "untracked", "ignored", "folder-for-file", "file-for-folder"]
)
def test_land_refuses_uncommitted_changes_the_landing_would_touch(
    engine: Engine, cli, dirt: str
) -> None:
    """The base's worktree holds a change at a path the landing writes: refused with one line,
    nothing moves, the change is kept."""
    repo = engine.config.repo
    _complete_changing(engine, {"README.md": "# theirs\n", "pkg/mod.py": "x = 1\n", "n.txt": "n"})
    if dirt in ("modified", "staged"):
        path, hint = repo / "README.md", "README.md"
        path.write_text("# mine\n")
        if dirt == "staged":
            git(repo, "add", "README.md")
    elif dirt in ("untracked", "ignored"):
        if dirt == "ignored":
            with (repo / ".git" / "info" / "exclude").open("a") as fh:
                fh.write("/pkg/\n")
        (repo / "pkg").mkdir()
        path, hint = repo / "pkg" / "mod.py", "pkg/"
        path.write_text("mine = 1\n")
    elif dirt == "folder-for-file":  # an untracked folder where the landing puts a file
        (repo / "n.txt").mkdir()
        path, hint = repo / "n.txt" / "notes.txt", "n.txt/"
        path.write_text("mine\n")
    else:  # an untracked file where the landing puts a folder
        path, hint = repo / "pkg", "pkg"
        path.write_text("mine\n")
    content = path.read_bytes()
    before = state_of(engine)
    r = cli("land", "t")
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1, r.err
    assert f"uncommitted changes in {hint}, which the landing changes" in r.err
    assert state_of(engine) == before
    assert path.read_bytes() == content


def test_land_leaves_changes_it_does_not_touch_in_the_base_worktree(complete: Engine, cli) -> None:
    """People edit files in main while a task waits (and `init --claude` wrote its settings there,
    out of git): the landing goes through and keeps them."""
    repo = complete.config.repo
    r = cli("init", "--claude")
    assert r.code == 0, r.err
    assert git(repo, "status", "--porcelain", "--untracked-files=normal") == ""
    (repo / "README.md").write_text("local edit\n")
    (repo / "scratch.txt").write_text("mine\n")
    r = cli("land", "t", "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["removed"] is True
    assert (repo / "greeting.py").read_text() == "print('hi')\n"
    assert (repo / "README.md").read_text() == "local edit\n"
    assert (repo / "scratch.txt").read_text() == "mine\n"
    assert (repo / ".claude" / "settings.local.json").is_file()
    status = git(repo, "status", "--porcelain", "--untracked-files=normal").splitlines()
    assert [line.split() for line in status] == [["M", "README.md"], ["??", "scratch.txt"]]


def test_land_cleans_up_after_a_renewed_heartbeat_and_keeps_doctors_copies(
    complete: Engine, cli
) -> None:
    """A heartbeat renewed by the hooks and the copies doctor and the store set aside are
    taskproto's own files: the clean-up finishes, and the copies are archived, not deleted."""
    from taskproto.state import beat
    from taskproto.state.models import utcnow

    engine, repo = complete, complete.config.repo
    task_dir = engine.config.task_dir("t")
    beat.write(str(task_dir), SESSION, None, utcnow().isoformat())
    kept = {
        "task.json.journal-ahead-20261101T101010.123456Z": b'{"ahead": 1}',
        "task.json.task-forged-20261101T101011.123456Z": b'{"forged": 1}',
        "task.json.corrupt-20261101T101012.123456Z": b"{not json",
        "agents/dev/status.json.task-stale-copy-20261101T101013.123456Z": b'{"s": 1}',
        "build-failure-20261101T101014Z.log": b"E   assert 1 == 2\n",
    }
    for rel, data in kept.items():
        (task_dir / rel).write_bytes(data)
    r = cli("land", "t", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["removed"] is True and data["kept"] is None
    assert not task_dir.exists()
    assert git(repo, "branch", "--list", "t*") == ""
    archived = list((engine.config.root / "archive" / "t").iterdir())
    assert len(archived) == 1
    stamp = archived[0]
    assert journal.latest_archive(engine.repo, "t") == f"refs/taskproto/archive/t/{stamp.name}"
    for rel, content in kept.items():
        assert (stamp / rel).read_bytes() == content


def test_land_still_keeps_a_task_with_a_file_nobody_told_taskproto_about(
    complete: Engine, cli
) -> None:
    engine = complete
    stray = engine.config.task_dir("t") / "notes-of-mine.txt"
    stray.write_text("keep me\n")
    r = cli("land", "t", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["removed"] is False and "1 unknown file(s)" in data["kept"]
    assert "notes-of-mine.txt" in data["kept"]
    assert stray.read_text() == "keep me\n"
    assert engine.load("t").state == "CLEANUP"


def test_land_pushes_to_a_bare_remote_and_refuses_when_it_moved(
    complete: Engine, cli, tmp_path: Path
) -> None:
    repo = complete.config.repo
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "--initial-branch=main", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "origin", "main")
    # someone else pushes to origin's main first
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(bare), str(other))
    commit_file(other, "theirs.txt", "theirs\n")
    git(other, "push", "-q", "origin", "main")
    before = state_of(complete)
    r = cli("land", "t", "--push")
    assert r.code == 1 and "origin refused main" in r.err and "git pull" in r.err
    assert state_of(complete) == before
    # after pulling, it lands and pushes
    git(repo, "pull", "-q", "--no-rebase", "origin", "main")
    r = cli("land", "t", "--push", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["pushed_to"] == "origin"
    assert git(bare, "rev-parse", "refs/heads/main") == tip(repo, "refs/heads/main")
    assert git(bare, "rev-parse", "refs/heads/main") == data["base_after"]


def test_land_is_the_users_alone_cli_under_an_agent_and_mcp(complete: Engine) -> None:
    repo = complete.config.repo
    before = state_of(complete)
    for env in ({"CLAUDECODE": "1"}, {"CODEX_SESSION_ID": SESSION}, {"GEMINI_CLI": "1"}):
        r = run_taskproto("land", "t", cwd=repo, env={"TASKPROTO_SESSION": SESSION, **env})
        assert r.code == 1
        assert "landing task 't' is the user's to do, and this runs for an agent" in r.err
    with pytest.raises(TaskprotoError, match="is the user's to do"):
        from taskproto.engine import Actor

        Engine(complete.config, Actor(agent=True, why="a test")).land("t")
    assert state_of(complete) == before

    async def main() -> None:
        async with connect(repo, SESSION) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"merge", "diff"} <= names
            assert not {"land", "approve"} & names
            result = await client.call_tool("land", {"task": "t"})
            assert result.is_error

    anyio.run(main)
    assert state_of(complete) == before


def test_land_pushes_to_taskprotos_shared_remote_without_being_asked(
    repo: Path, tmp_path: Path
) -> None:
    from taskproto.config import load_config

    bare = tmp_path / "shared.git"
    git(tmp_path, "init", "-q", "--bare", "--initial-branch=main", str(bare))
    git(repo, "remote", "add", "origin", f"file://{bare}")
    (repo / ".taskproto.toml").write_text('remote = "origin"\n')
    git(repo, "add", ".taskproto.toml")
    git(repo, "commit", "-qm", "taskproto config")
    git(repo, "push", "-q", "origin", "main")
    engine = Engine(load_config(repo))
    install.install(Git(repo))
    engine.create_task("t", ["dev"])
    engine.claim("t", SESSION)
    move_to(engine, "t", "IMPLEMENTATION")
    commit_file(engine.config.agent_worktree("t", "dev"), "dev.txt")
    engine.merge("t", session=SESSION)
    move_to(engine, "t", "AWAITING_USER_APPROVAL")
    engine.approve("t", "commit", "user")
    engine.fire("t", target="COMPLETE", session=SESSION)
    report = engine.land("t", "merge", session="user")
    assert report.record.pushed_to == "origin" and report.removed
    assert git(bare, "rev-parse", "refs/heads/main") == tip(repo, "refs/heads/main")
    # the journal on the shared remote says CLEANUP, and the claim there is released
    assert git(bare, "for-each-ref", "refs/taskproto/claims/") == ""
    # the landed task's journal stays on the remote, archived here: doctor knows it (sync would
    # not bring it back), and finds nothing to do
    r = run_taskproto("doctor", cwd=repo)
    assert r.code == 0 and "remote-tasks-unknown" not in r.out, r.out


def test_land_keeps_a_task_worktree_with_uncommitted_changes(complete: Engine, cli) -> None:
    engine, repo = complete, complete.config.repo
    notes = engine.config.task_worktree("t") / "notes.txt"
    notes.write_text("written after the approval\n")
    r = cli("land", "t")
    assert r.code == 0, r.err
    assert "its worktrees and branches were kept" in r.out and "uncommitted changes" in r.out
    # which command removes them later, and its --force (land has none): said on the same line
    assert r.out.rstrip().endswith(
        "or pass --force to discard them; then `taskproto task remove t` (with that --force, if "
        "you chose it) removes them"
    ), r.out
    assert notes.read_text() == "written after the approval\n"
    assert engine.load("t").state == "CLEANUP"
    assert git(repo, "merge-base", "--is-ancestor", "t", "main") == ""
    notes.unlink()
    assert cli("task", "remove", "t").code == 0  # as the line says


def test_land_keeps_every_worktree_when_one_is_locked(complete: Engine, cli) -> None:
    engine, repo = complete, complete.config.repo
    task_wt = engine.config.task_worktree("t")
    git(repo, "worktree", "lock", str(task_wt))
    r = cli("land", "t")
    assert r.code == 0, r.err
    assert "its worktrees and branches were kept" in r.out and "is locked" in r.out
    assert task_wt.is_dir()
    assert all(engine.config.agent_worktree("t", a).is_dir() for a in AGENTS)  # none half-removed
    assert engine.load("t").state == "CLEANUP"


def test_task_show_of_a_landed_or_removed_task_says_so(complete: Engine, cli) -> None:
    """`task show` of a task that landed (or was removed) names what happened and where its
    history is, instead of offering to create it; a task that never was is told as before."""
    assert cli("land", "t").code == 0
    r = cli("task", "show", "t")
    assert r.code == 1
    assert r.err.strip().endswith(
        "task 't' landed: it is no task here any more, its journal is kept "
        "(`taskproto log t` shows its history)"
    ), r.err
    assert cli("log", "t").code == 0
    complete.create_task("gone", AGENTS)
    assert cli("task", "remove", "gone").code == 0
    r = cli("task", "show", "gone")
    assert r.code == 1 and "task 'gone' was removed: it is no task here any more" in r.err, r.err
    r = cli("task", "show", "never")
    assert r.code == 1 and "no task named 'never'" in r.err and "create never" in r.err, r.err
    r = cli("task", "show", "t", "--json")
    assert r.code == 1 and "task 't' landed" in r.err + r.out


def test_land_before_complete_names_only_the_steps_still_to_take(ready: Engine, cli) -> None:
    """Found by a new user's walk: with the head approved, `land` still said to approve it. The
    task is owned by the agent's session, so `land` (the user's) says that session moves it to
    COMPLETE: a second walk found the user's own `transition` refused as land had said to run it."""
    step = f"its owner, session {SESSION}, runs `taskproto transition t COMPLETE` (or you, with "
    step += "--force, logged)"
    r = cli("land", "t")
    assert (r.code, r.err) == (
        1,
        "taskproto: task 't' is in AWAITING_USER_APPROVAL; it lands from COMPLETE, after the user "
        f"approved its head (`taskproto approve t --commit`, then {step})\n",
    )
    ready.approve("t", "commit", "user")
    before = state_of(ready)
    r = cli("land", "t")
    assert (r.code, r.err) == (
        1,
        "taskproto: task 't' is in AWAITING_USER_APPROVAL; it lands from COMPLETE: its head is "
        f"approved, so {step}, then `taskproto land t`\n",
    )
    assert state_of(ready) == before
    # as the line says: the user's plain transition is refused, with --force it goes
    assert cli("transition", "t", "COMPLETE").code == 1
    assert state_of(ready) == before
    assert cli("transition", "t", "COMPLETE", "--force").code == 0
    assert cli("land", "t").code == 0


def test_land_of_a_task_the_user_owns_names_the_plain_transition(ready: Engine, cli) -> None:
    ready.release("t", SESSION)
    ready.claim("t", "user")
    ready.approve("t", "commit", "user")
    r = cli("land", "t", env={"TASKPROTO_SESSION": "user"})
    assert r.err == (
        "taskproto: task 't' is in AWAITING_USER_APPROVAL; it lands from COMPLETE: its head is "
        "approved, so `taskproto transition t COMPLETE`, then `taskproto land t`\n"
    )
