"""Each git hook against real git: real commits, checkouts, rewrites and pushes, refused or
allowed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hookutil import BYPASS, advance, commit_file, head, make_repo, sh, taskproto

from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.hooks.git import install
from taskproto.hooks.git.handlers import GIT_HOOKS


def _commit(worktree: Path, name: str, *extra: str) -> tuple[int, str]:
    """The commit's exit status and our line: refused by reference-transaction, git exits 128
    and adds its own "fatal: ref updates aborted by hook"."""
    (worktree / name).write_text(f"{name}\n")
    sh(worktree, "add", name)
    proc = sh(worktree, "commit", "-m", f"add {name}", *extra)
    ours = [line for line in proc.stderr.splitlines() if not line.startswith("fatal: ")]
    if proc.returncode != 0:
        assert proc.stderr.splitlines()[-1] == "fatal: ref updates aborted by hook", proc.stderr
    return proc.returncode, "\n".join(ours)


# --- the commit checks (reference-transaction's prepared phase) ---------------------


def test_branch_of_no_task_commits_freely(hooked: Engine, repo: Path) -> None:
    before = head(repo)
    code, err = _commit(repo, "main-file")
    assert code == 0, err
    assert head(repo) != before
    assert "taskproto" not in err


def test_repo_without_tasks_is_a_no_op(tmp_path: Path) -> None:
    other = make_repo(tmp_path / "plain")
    install.install(Git(other))
    sh(other, "checkout", "-q", "-b", "t1")  # a branch named like a task, but no task folder
    assert _commit(other, "f") == (0, "")


def test_task_branch_refused_in_a_state_without_commits(hooked: Engine) -> None:
    code_dir = hooked.config.task_worktree("t1")
    before = head(code_dir)
    code, err = _commit(code_dir, "early")
    assert code == 128
    assert err.strip() == (
        "taskproto: refused: moving branch 't1' (task t1): task t1 is in INIT, which does not "
        "allow commits "
        "(workflow task-protocol allows them in IMPLEMENTATION, VALIDATION); the task must reach "
        "one of them "
        "first (see `taskproto task show t1`)"
    )
    assert head(code_dir) == before


def test_refusal_names_the_transition_that_allows_commits(hooked: Engine) -> None:
    advance(hooked, "t1", "SYNTHESIS")
    code, err = _commit(hooked.config.task_worktree("t1"), "plan-file")
    assert code == 128
    assert "`taskproto transition t1 IMPLEMENTATION`" in err


def test_task_and_agent_branches_commit_in_implementation(hooked: Engine) -> None:
    advance(hooked, "t1", "IMPLEMENTATION")
    for worktree in (hooked.config.task_worktree("t1"), hooked.config.agent_worktree("t1", "a")):
        before = head(worktree)
        assert _commit(worktree, "work") == (0, "")
        assert head(worktree) != before


def test_agent_branch_refused_in_init(hooked: Engine) -> None:
    code, err = _commit(hooked.config.agent_worktree("t1", "b"), "early")
    assert code == 128
    assert "refused: moving branch 't1-b' (agent b of task t1): task t1 is in INIT" in err


def test_commit_from_the_wrong_worktree_is_refused(hooked: Engine, repo: Path) -> None:
    advance(hooked, "t1", "IMPLEMENTATION")
    sh(repo, "checkout", "-q", "--ignore-other-worktrees", "t1")
    before = head(repo)
    code, err = _commit(repo, "here")
    assert code == 128
    expected = hooked.config.task_worktree("t1")
    assert err.strip() == (
        "taskproto: refused: moving branch 't1' (task t1): it is committed from its own "
        f"worktree {expected}, "
        f"not from {repo}; commit from there: `cd {expected}`"
    )
    assert head(repo) == before


def test_prohibited_files_are_refused(hooked: Engine) -> None:
    advance(hooked, "t1", "IMPLEMENTATION")
    code_dir = hooked.config.task_worktree("t1")
    (code_dir / "sub").mkdir()
    for name in ("sub/task.json", "prod.env"):
        (code_dir / name).write_text("{}\n")
    sh(code_dir, "add", "sub/task.json", "prod.env")
    proc = sh(code_dir, "commit", "-m", "oops")
    assert proc.returncode == 128
    assert proc.stderr.splitlines()[0] == (
        "taskproto: refused: moving branch 't1' (task t1): its new commit(s) add or change "
        "prod.env sub/task.json, which match the prohibited pattern(s) *.env, task.json (setting "
        "prohibited_patterns); leave them out of the commit (`git restore --staged -- prod.env "
        "sub/task.json`, then commit again)"
    )
    sh(code_dir, "restore", "--staged", "--", "prod.env", "sub/task.json")
    assert _commit(code_dir, "fine.txt") == (0, "")


def test_configured_prohibited_patterns(hooked: Engine, repo: Path) -> None:
    (repo / ".taskproto.toml").write_text('prohibited_patterns = ["*.secret"]\n')
    advance(hooked, "t1", "IMPLEMENTATION")
    code_dir = hooked.config.task_worktree("t1")
    code, err = _commit(code_dir, "key.secret")
    assert code == 128 and "pattern(s) *.secret" in err
    sh(code_dir, "reset", "-q")
    assert _commit(code_dir, "local.env") == (0, "")  # the setting replaces the defaults


def test_hooks_follow_a_configured_root(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    (repo / ".taskproto.toml").write_text('root = "../state"\n')
    install.install(Git(repo))
    made = taskproto("task", "create", "t9", cwd=repo)
    assert made.returncode == 0, made.stderr
    code, err = _commit(tmp_path / "state" / "tasks" / "t9" / "code", "f")
    assert code == 128 and "task t9 is in INIT" in err


# --- commit-msg ---------------------------------------------------------------------


def test_commit_trailers_when_enabled_and_idempotent(hooked: Engine, repo: Path) -> None:
    (repo / ".taskproto.toml").write_text("commit_trailers = true\n")
    advance(hooked, "t1", "IMPLEMENTATION")
    code_dir = hooked.config.task_worktree("t1")
    assert _commit(code_dir, "f") == (0, "")
    assert sh(code_dir, "commit", "--amend", "--no-edit").returncode == 0
    message = sh(code_dir, "log", "-1", "--format=%B").stdout
    assert message.count("Task: t1") == 1 and message.count("Task-State: IMPLEMENTATION") == 1
    assert _commit(repo, "on-main") == (0, "")
    assert "Task:" not in sh(repo, "log", "-1", "--format=%B").stdout


def test_no_trailers_by_default(hooked: Engine) -> None:
    advance(hooked, "t1", "IMPLEMENTATION")
    code_dir = hooked.config.task_worktree("t1")
    assert _commit(code_dir, "f") == (0, "")
    assert "Task:" not in sh(code_dir, "log", "-1", "--format=%B").stdout


# --- approvals go stale ------------------------------------------------------------------


def _approved(engine: Engine) -> Path:
    advance(engine, "t1", "IMPLEMENTATION")
    code_dir = engine.config.task_worktree("t1")
    commit_file(code_dir, "work.txt")
    advance(engine, "t1", "AWAITING_USER_APPROVAL")
    engine.approve("t1", "commit", "user")
    return code_dir


def _approval(engine: Engine) -> dict[str, object]:
    data = json.loads(engine.config.task_file("t1").read_text())
    return dict(data["checkpoint"]["commit_approval"])


def test_amend_marks_the_approval_stale_and_journals_it(hooked: Engine) -> None:
    code_dir = _approved(hooked)
    approved = head(code_dir)
    journal_before = head(code_dir, "refs/taskproto/tasks/t1")
    proc = sh(code_dir, "commit", "--amend", "--no-verify", "-m", "reworded", env=BYPASS)
    assert proc.returncode == 0, proc.stderr
    approval = _approval(hooked)
    assert approval["stale"] is True
    assert f"branch t1 moved from {approved[:12]} to {head(code_dir)[:12]}" in str(
        approval["stale_reason"]
    )
    assert "the commit approval of task t1 is now stale" in proc.stderr
    assert (
        "approval stale"
        in sh(code_dir, "log", "-1", "--format=%s", "refs/taskproto/tasks/t1").stdout
    )
    assert head(code_dir, "refs/taskproto/tasks/t1") != journal_before
    refused = hooked.config.task_file("t1")
    assert (
        taskproto(
            "transition", "t1", "COMPLETE", cwd=refused.parent, env={"TASKPROTO_SESSION": "s-hooks"}
        ).returncode
        == 1
    )


def test_reset_marks_the_approval_stale(hooked: Engine) -> None:
    code_dir = _approved(hooked)
    assert sh(code_dir, "reset", "-q", "--hard", "HEAD~1", env=BYPASS).returncode == 0
    assert _approval(hooked)["stale"] is True


def test_moving_an_agent_branch_or_back_to_the_approved_commit_changes_nothing(
    hooked: Engine,
) -> None:
    code_dir = _approved(hooked)
    before = hooked.config.task_file("t1").read_bytes()
    agent_dir = hooked.config.agent_worktree("t1", "a")
    assert sh(agent_dir, "reset", "-q", "--hard", head(code_dir), env=BYPASS).returncode == 0
    assert sh(code_dir, "checkout", "-q", "--detach", env=BYPASS).returncode == 0
    assert sh(code_dir, "checkout", "-q", "t1").returncode == 0
    assert hooked.config.task_file("t1").read_bytes() == before


def test_post_checkout_and_post_merge_without_reference_transaction(
    hooked: Engine, repo: Path
) -> None:
    folder = Git(repo)
    install.uninstall(folder)
    install.install(folder, hooks=tuple(h for h in GIT_HOOKS if h != "reference-transaction"))
    code_dir = _approved(hooked)
    approved = head(code_dir)
    assert sh(code_dir, "checkout", "-q", "-B", "t1", "HEAD~1").returncode == 0
    approval = _approval(hooked)
    assert approval["stale"] is True and "(checkout)" in str(approval["stale_reason"])
    hooked.fire(
        "t1", target="IMPLEMENTATION", session="s-hooks"
    )  # request_changes clears the approval
    advance(hooked, "t1", "AWAITING_USER_APPROVAL")
    hooked.approve("t1", "commit", "user")
    assert sh(code_dir, "merge", "-q", "--ff-only", approved).returncode == 0
    approval = _approval(hooked)
    assert approval["stale"] is True and "(merge)" in str(approval["stale_reason"])


# --- pre-push -----------------------------------------------------------------------------


def _remote(engine: Engine, tmp_path: Path) -> Path:
    bare = tmp_path / "remote.git"
    for cwd, args in (
        (tmp_path, ("init", "-q", "--bare", str(bare))),
        (engine.config.repo, ("remote", "add", "origin", str(bare))),
        (engine.config.repo, ("push", "-q", "origin", "main")),
    ):
        assert sh(cwd, *args).returncode == 0
    return bare


def test_push_of_an_unfinished_task_to_a_protected_branch_is_refused(
    hooked: Engine, tmp_path: Path
) -> None:
    bare = _remote(hooked, tmp_path)
    code_dir = _approved(hooked)
    remote_main = head(bare, "main")
    proc = sh(code_dir, "push", "origin", "t1:main")
    assert proc.returncode != 0
    assert (
        "taskproto: push refused: branch 't1' (task t1) to protected branch main of origin: task "
        "t1 is in "
        "AWAITING_USER_APPROVAL, not COMPLETE"
    ) in proc.stderr
    assert head(bare, "main") == remote_main
    assert sh(code_dir, "push", "-q", "origin", "t1").returncode == 0  # to its own branch: fine
    assert sh(hooked.config.repo, "push", "-q", "origin", "main").returncode == 0


def test_push_of_a_complete_task_is_allowed_only_with_the_approved_commit(
    hooked: Engine, tmp_path: Path
) -> None:
    bare = _remote(hooked, tmp_path)
    code_dir = _approved(hooked)
    hooked.fire("t1", target="COMPLETE", session="s-hooks")
    approved = head(code_dir)
    assert (
        sh(
            code_dir, "commit", "-q", "--no-verify", "--allow-empty", "-m", "late", env=BYPASS
        ).returncode
        == 0
    )
    proc = sh(code_dir, "push", "origin", "t1:main")
    assert proc.returncode != 0
    assert (
        f"but the user approved {approved[:12]}; push the approved commit: `git push origin "
        f"{approved}:refs/heads/main`" in proc.stderr
    )
    assert sh(code_dir, "push", "-q", "origin", f"{approved}:refs/heads/main").returncode == 0
    assert head(bare, "main") == approved


def test_the_guard_decision_loads_nothing_heavy(hooked: Engine) -> None:
    """The commit checks on a task branch (state flags, the files) run on the standard
    library: as installed (`python -I -S`), no click, pydantic, jinja2 or GitPython is imported."""
    import subprocess
    import sys

    advance(hooked, "t1", "IMPLEMENTATION")
    code_dir = hooked.config.task_worktree("t1")
    (code_dir / "work.txt").write_text("work\n")
    sh(code_dir, "add", "work.txt")
    package_parent = str(Path(install.ENTRY).parents[3])
    probe = (
        f"import sys; sys.path.insert(0, {package_parent!r}); "
        "from taskproto.hooks.git.handlers import main; code = main(['pre-commit']); "
        "heavy = sorted(m for m in ('click', 'pydantic', 'jinja2', 'git', 'filelock') "
        "if m in sys.modules); "
        "print(code, heavy)"
    )
    # The flag cache is written on the first decision (the slow path); the second one is measured.
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-I", "-S", "-c", probe],
            cwd=code_dir,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    assert out == "0 []"
    # the same checks where a commit meets them now: reference-transaction's prepared phase
    old = head(code_dir)
    tree = sh(code_dir, "write-tree").stdout.strip()
    new = sh(code_dir, "commit-tree", tree, "-p", old, "-m", "work").stdout.strip()
    probe = probe.replace("main(['pre-commit'])", "main(['reference-transaction', 'prepared'])")
    out = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe],
        cwd=code_dir,
        input=f"{old} {new} refs/heads/t1\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert out == "0 []"


def test_every_hook_command_explains_itself_and_help_runs_no_hook(hooked: Engine) -> None:
    """`taskproto hook NAME --help` (and `taskproto-git-hook NAME --help`, what the pre-commit
    framework runs) explain the hook; they never run it: here pre-commit would refuse the commit
    (the task is in INIT), and pre-push would read git's input from stdin."""
    code_dir = hooked.config.task_worktree("t1")
    (code_dir / "work.txt").write_text("work\n")
    sh(code_dir, "add", "work.txt")
    assert taskproto("hook", "pre-commit", cwd=code_dir).returncode == 1  # the hook itself
    script = Path(sys.executable).with_name("taskproto-git-hook")
    for name in GIT_HOOKS:
        for flag in ("--help", "-h"):
            proc = taskproto("hook", name, flag, cwd=code_dir)
            assert proc.returncode == 0, (name, proc.stderr)
            assert f"Usage: taskproto hook {name}" in proc.stdout, proc.stdout
            assert "Exit status:" in proc.stdout and proc.stderr == ""
        proc = subprocess.run(
            [str(script), name, "--help"], cwd=code_dir, capture_output=True, text=True
        )
        assert proc.returncode == 0 and f"usage: taskproto-git-hook {name}" in proc.stdout
        assert "Exit status:" in proc.stdout and proc.stderr == ""
    text = taskproto("hook", "pre-commit", "--help", cwd=code_dir).stdout
    assert "does not allow commits" in text.replace("\n  ", " ")
    text = taskproto("hook", "reference-transaction", "--help", cwd=code_dir).stdout
    assert "prepared|committed|aborted" in text
    for client in ("claude", "codex", "gemini"):
        proc = taskproto("hook", client, "--help", cwd=code_dir)
        assert proc.returncode == 0 and "EVENT" in proc.stdout
        assert "SessionStart" in proc.stdout
