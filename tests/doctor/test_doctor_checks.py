"""Every check: a real repository broken in exactly that way; doctor finds it by id; --fix repairs
it where a fix exists; a second run is clean (or, with no safe fix, the escalation explains it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from datetime import timedelta

import pytest
from doctor_helpers import Env, commit_file, dead_pid, ids

from taskproto.doctor import CHECKS, known
from taskproto.doctor.fixes import FIXES
from taskproto.hooks.git import install as git_install
from taskproto.hooks.git import repair  # noqa: F401  (registers the hooks' reinstall fix)
from taskproto.sessions import hostname
from taskproto.state import journal
from taskproto.state.models import AgentState, utcnow

BREAK: dict[str, Callable[[Env], None]] = {}


def breaks(check: str) -> Callable[[Callable[[Env], None]], Callable[[Env], None]]:
    def register(fn: Callable[[Env], None]) -> Callable[[Env], None]:
        BREAK[check] = fn
        return fn

    return register


@breaks("task-folder-missing")
def _(env: Env) -> None:
    shutil.rmtree(env.config.task_dir("t"))


@breaks("lock-missing")
def _(env: Env) -> None:
    env.task_file().unlink()


@breaks("lock-invalid-json")
def _(env: Env) -> None:
    env.task_file().write_text('{"name": "t", "state": ')


@breaks("lock-schema-invalid")
def _(env: Env) -> None:
    env.edit(lambda d: d.pop("state"), journaled=False)


@breaks("log-empty")
def _(env: Env) -> None:
    env.edit(lambda d: d.update(transition_log=[]))


@breaks("task-stale-copy")
def _(env: Env) -> None:
    old = env.task_file().read_bytes()
    env.engine.fire("t", "classify")
    env.engine.fire("t", "gather_requirements")
    env.task_file().write_bytes(old)


@breaks("journal-ahead")
def _(env: Env) -> None:
    old = env.task_file().read_bytes()
    env.engine.fire("t", "classify")
    env.task_file().write_bytes(old)


@breaks("agent-status-not-journaled")
def _(env: Env) -> None:
    path = env.config.status_file("t", "a")
    path.write_text(path.read_text().replace('"PENDING"', '"COMPLETE"'))


@breaks("journal-missing")
def _(env: Env) -> None:
    env.git("update-ref", "-d", journal.ref_for("t"))


@breaks("journal-behind")
def _(env: Env) -> None:
    env.edit(
        lambda d: d.update(description="a change no journal commit vouches for"), journaled=False
    )


@breaks("owner-gone")
def _(env: Env) -> None:
    env.engine.claim("t", "s1", pid=dead_pid())


@breaks("tmp-file-leftover")
def _(env: Env) -> None:
    tmp = env.config.task_dir("t") / f".tmp-task.json.{dead_pid()}.0badc0de"
    tmp.write_text('{"half": ')
    old = time.time() - 600
    os.utime(tmp, (old, old))


@breaks("task-worktree-missing")
def _(env: Env) -> None:
    shutil.rmtree(env.worktree())


@breaks("agent-worktree-missing")
def _(env: Env) -> None:
    shutil.rmtree(env.worktree("a"))


@breaks("worktree-prunable")
def _(env: Env) -> None:
    ghost = env.config.root / "stray" / "code"
    env.git("worktree", "add", "--quiet", "--detach", str(ghost))
    shutil.rmtree(ghost.parent)


@breaks("worktree-unregistered")
def _(env: Env) -> None:
    shutil.rmtree(env.admin_dir(env.worktree("b")))


@breaks("worktree-wrong-branch")
def _(env: Env) -> None:
    env.git("switch", "--quiet", "-c", "scratch", cwd=env.worktree("a"))


@breaks("agent-branch-missing")
def _(env: Env) -> None:
    env.git("worktree", "remove", str(env.worktree("b")))
    env.git("branch", "-D", "t-b")


@breaks("task-branch-missing")
def _(env: Env) -> None:
    commit_file(env.worktree(), "work.txt", "task work\n")
    env.git("update-ref", "-d", "refs/heads/t")


@breaks("orphan-branch")
def _(env: Env) -> None:
    env.engine.create_task("gone")
    env.engine.remove_task("gone")
    env.git("branch", "gone-old", "main")


@breaks("replace-ref")
def _(env: Env) -> None:
    other = env.git("commit-tree", "main^{tree}", "-m", "shown instead")
    env.git("-c", "core.hooksPath=/dev/null", "replace", "main", other)


@breaks("orphan-worktree")
def _(env: Env) -> None:
    env.git(
        "worktree", "add", "--quiet", "-b", "t-ghost", str(env.config.agent_worktree("t", "ghost"))
    )


@breaks("heartbeat-corrupt")
def _(env: Env) -> None:
    (env.config.task_dir("t") / "heartbeat.json").write_text('{"session": "s1", "a')


@breaks("agent-status-missing")
def _(env: Env) -> None:
    env.config.status_file("t", "a").unlink()


@breaks("agent-status-corrupt")
def _(env: Env) -> None:
    env.config.status_file("t", "b").write_text("[]")


@breaks("agent-timeout")
def _(env: Env) -> None:
    env.set_status("a", status=AgentState.WORKING, updated_at=utcnow() - timedelta(minutes=61))


@breaks("agent-error-retryable")
def _(env: Env) -> None:
    env.engine.set_agent_status("t", "a", AgentState.ERROR, "tests failed")


@breaks("approval-stale")
def _(env: Env) -> None:
    e = env.engine
    for trigger in ("classify", "gather_requirements", "synthesize"):
        e.fire("t", trigger)
    e.approve("t", "plan", "user")
    e.fire("t", "implement")
    for agent in ("a", "b"):
        e.set_agent_status("t", agent, AgentState.COMPLETE)
    for trigger in ("validate", "review", "request_approval"):
        e.fire("t", trigger)
    e.approve("t", "commit", "user")
    commit_file(env.worktree(), "late.txt", "after the approval\n")


# --- checks with no safe fix: doctor escalates and changes nothing ----------------------


@breaks("approval-no-terminal")
def _(env: Env) -> None:
    """The plan approved as the owner's session by a process with no terminal (issue #39)."""
    e = env.engine
    e.claim("t", "agent-s1")
    for trigger in ("classify", "gather_requirements", "synthesize"):
        e.fire("t", trigger, session="agent-s1")
    e.approve("t", "plan", "agent-s1")
    data = env.raw()
    data["checkpoint"]["plan_approval"]["seen"] = {
        "terminal": False,
        "processes": ["python3", "setsid"],
        "variables": [],
    }
    env.write_raw(data)


@breaks("approval-unsigned")
def _(env: Env) -> None:
    """The plan approved unsigned, then signing set up: approvals are to be signed (#42)."""
    e = env.engine
    e.claim("t", "s1")
    for trigger in ("classify", "gather_requirements", "synthesize"):
        e.fire("t", trigger, session="s1")
    e.approve("t", "plan", "user")
    env.git("config", "user.signingkey", str(env.repo.parent / "signing-key.pub"))


@breaks("approval-agent-signed")
def _(env: Env) -> None:
    """The plan approved from a process whose context shows an agent client (#42)."""
    e = env.engine
    e.claim("t", "s1")
    for trigger in ("classify", "gather_requirements", "synthesize"):
        e.fire("t", trigger, session="s1")
    seen = {"terminal": True, "processes": ["python3", "claude"], "variables": ["CLAUDECODE"]}
    e.approve("t", "plan", "user", seen=seen)


@breaks("signing-key-exposed")
def _(env: Env) -> None:
    """git signs with a key kept inside the repository, which agents read (#42)."""
    key = env.repo / ".git" / "signing-key"
    key.write_text("not a real key\n")
    key.with_name("signing-key.pub").write_text("ssh-ed25519 AAAA test\n")
    env.git("config", "gpg.format", "ssh")
    env.git("config", "user.signingkey", f"{key}.pub")


@breaks("state-unknown")
def _(env: Env) -> None:
    def change(d: dict) -> None:  # type: ignore[type-arg]
        d["transition_log"].append(
            {"from": "INIT", "to": "LIMBO", "trigger": "old", "time": utcnow().isoformat()}
        )
        d["state"] = "LIMBO"  # a state of an older version of the workflow, journaled by it

    env.edit(change)


@breaks("workflow-unknown")
def _(env: Env) -> None:
    env.edit(lambda d: d.update(workflow="removed-flow"))


@breaks("lock-schema-too-new")
def _(env: Env) -> None:
    env.edit(lambda d: d.update(schema_version=99), bump=False)


@breaks("lock-unreadable")
def _(env: Env) -> None:
    path = env.task_file()
    os.replace(path, path.with_name("elsewhere.json"))
    path.symlink_to("elsewhere.json")


@breaks("state-log-mismatch")
def _(env: Env) -> None:
    env.edit(lambda d: d.update(state="REVIEW"))


@breaks("log-illegal-transition")
def _(env: Env) -> None:
    def change(d: dict) -> None:  # type: ignore[type-arg]
        d["transition_log"].append(
            {
                "from": "INIT",
                "to": "COMPLETE",
                "trigger": "complete",
                "time": utcnow().isoformat(),
                "kind": "transition",
            }
        )
        d["state"] = "COMPLETE"

    env.edit(change)


@breaks("task-forged")
def _(env: Env) -> None:
    env.edit(lambda d: d.update(state="CLASSIFIED"), bump=False, journaled=False)


@breaks("journal-unreadable")
def _(env: Env) -> None:
    good = env.task_file().read_bytes()
    env.write_raw({"not": "a task"}, bump=False, journaled=True)
    env.task_file().write_bytes(good)


@breaks("journal-corrupt")
def _(env: Env) -> None:
    env.engine.fire("t", "classify")
    sha = env.engine.journal_head("t")
    assert sha is not None
    (env.repo / ".git" / "objects" / sha[:2] / sha[2:]).unlink()  # its newest commit is gone


@breaks("agent-worktree-shared")
def _(env: Env) -> None:
    env.engine.create_task("t-q", ["z"])
    env.edit(
        lambda d: d["required_agents"].append("q-z")
    )  # t needs t-q-z: the branch of t-q's agent z


@breaks("agent-retries-exhausted")
def _(env: Env) -> None:
    env.set_status("b", status=AgentState.ERROR, retry_count=3, error_message="crashed again")


@breaks("journal-ref-locked")
def _(env: Env) -> None:
    import os
    import time

    lock = env.engine.git.common_dir() / "refs" / "taskproto" / "tasks" / "t.lock"
    lock.write_text("")  # left by a git update-ref that was killed a while ago
    old = time.time() - 120
    os.utime(lock, (old, old))


@breaks("worktree-moved")
def _(env: Env) -> None:
    # The agent's folder moved by hand and back under a new name: git's record names the old place.
    wt = env.worktree("b")
    os.rename(wt, wt.with_name("elsewhere"))
    admin = env.admin_dir(wt.with_name("elsewhere"))
    (admin / "gitdir").write_text(str(env.config.root) + "-old/tasks/t/agents/b/code/.git\n")
    os.rename(wt.with_name("elsewhere"), wt)


@breaks("worktree-set-aside")
def _(env: Env) -> None:
    # An earlier doctor moved a worktree of a moved repository aside and could not re-add it.
    wt = env.worktree("b")
    admin = env.admin_dir(wt)
    (admin / "gitdir").write_text(str(env.config.root) + "-old/tasks/t/agents/b/code/.git\n")
    os.rename(wt, wt.with_name("code.unregistered-20260101T000000.000000Z"))


@breaks("git-operation-in-progress")
def _(env: Env) -> None:
    # A real conflicted merge in agent a's worktree.
    commit_file(env.worktree("a"), "same.txt", "agent side\n")
    commit_file(env.worktree(), "same.txt", "task side\n")
    proc = subprocess.run(
        ["git", "merge", "--quiet", "t"], cwd=env.worktree("a"), capture_output=True, text=True
    )
    assert proc.returncode != 0 and (env.admin_dir(env.worktree("a")) / "MERGE_HEAD").exists()


def _installed(env: Env, python: str | None = None) -> None:
    report = git_install.install(env.engine.git, python=python)
    git_install.record(env.config.root, report, installed=True)


@breaks("git-hooks-missing")
def _(env: Env) -> None:
    _installed(env)
    env.git("config", "core.hooksPath", str(env.repo.parent / "other-hooks"))


@breaks("git-hooks-interpreter-missing")
def _(env: Env) -> None:
    _installed(env, python=str(env.repo.parent / "gone-venv" / "bin" / "python"))


@breaks("git-hooks-path-relative")
def _(env: Env) -> None:
    _installed(env)
    env.git("config", "core.hooksPath", ".githooks")


@breaks("hook-records-moved")
def _(env: Env) -> None:
    # init's record of the client hooks, as it reads after the repository was moved from old/
    from taskproto.clients import settings

    settings.run(env.config, ["claude"], uninstall=False)
    record = env.config.root / settings.RECORD
    here = str(env.repo)
    record.write_text(record.read_text().replace(here, here + "-old"))


@breaks("client-hooks-interpreter-missing")
def _(env: Env) -> None:
    # the virtualenv the clients' hooks start is gone
    import sys

    from taskproto.clients import settings

    settings.run(env.config, ["codex"], uninstall=False)
    for path in (env.repo / ".codex" / "hooks.json", env.worktree("a") / ".codex" / "hooks.json"):
        path.write_text(path.read_text().replace(sys.executable, "/gone-venv/bin/python"))


@breaks("client-hooks-in-shared-settings")
def _(env: Env) -> None:
    # what an older `init --claude` wrote: the hooks in the project's shared settings
    from tests.hooks.agents.older_init import older_claude_init

    older_claude_init(env.config)


@breaks("pre-commit-config-uncommitted")
def _(env: Env) -> None:
    # the framework set up with taskproto's hooks, its config never committed (the real pre-commit
    # refusing a task worktree's push: tests/hooks/git/test_precommit_config.py)
    (env.config.repo / ".pre-commit-config.yaml").write_text(
        "repos:\n- repo: https://example.invalid/taskproto\n  rev: v1\n"
        "  hooks:\n  - id: taskproto-guard\n"
    )


@breaks("task-create-interrupted")
def _(env: Env) -> None:
    # What a `task create u --agents x,y` killed after its first branch leaves (the kill itself at
    # several instants: test_doctor_create_killed.py). Checked on task u; t stays healthy.
    env.engine.create_task("u", ["x", "y"])
    intent = {
        "task": env.engine.load("u").model_dump(mode="json"),
        "pid": dead_pid(),
        "host": hostname(),
    }
    env.git("worktree", "remove", "--force", str(env.config.agent_worktree("u", "y")))
    env.git("branch", "-D", "u-y")
    (env.config.task_dir("u") / "creating.json").write_text(json.dumps(intent))


# These need a real shared remote: tests/remote/test_remote.py breaks a repository for each of them.
REMOTE_CHECKS = {
    "remote-unreachable",
    "remote-claim-unknown",
    "remote-claim-dead-session",
    "remote-tasks-unknown",  # tests/remote/test_remote_clone.py
    "remote-claim-pending",  # tests/remote/test_claims_before_remote.py
    "remote-removal-pending",  # tests/remote/test_claims_before_remote.py
}
# These need agents and their supervisor running (and killed at the end): tests/agents/ breaks them.
AGENT_CHECKS = {"agent-unsupervised"}  # tests/agents/test_supervision.py


def test_every_check_has_a_breaking_test() -> None:
    # task-being-created: a create running right now (test_doctor_create_killed.py);
    # merge-in-progress: the merges land and merge ask for (test_doctor_events.py);
    # agent-outside-sandbox: a live process in a worktree (tests/sandbox/test_doctor_sandbox.py);
    # git-hooks-outdated: an older taskproto's install (tests/hooks/git/test_commit_guard.py);
    # client-hooks-other-package: a second install of the package, the doctor run by its
    # interpreter (tests/clients/test_hook_launcher.py)
    infos = {
        "client-hooks-other-package",
        "needs-review",
        "task-being-created",
        "merge-in-progress",
        "agent-outside-sandbox",
        "git-hooks-outdated",
    }
    assert set(CHECKS) - infos - REMOTE_CHECKS - AGENT_CHECKS == set(BREAK)


@pytest.mark.parametrize("check", sorted(BREAK))
def test_check(env: Env, check: str) -> None:
    assert env.doctor().healthy
    # that run kept what it judged (doctor/known.py): each break is found by a run that has it
    assert (env.config.root / known.FILE).is_file()
    BREAK[check](env)
    broken = env.task_file().read_bytes() if env.task_file().is_file() else None
    found = env.doctor()
    assert check in ids(found), [f.check for f in found.findings]
    assert not found.healthy
    assert not found.fixes
    if check in FIXES:
        fixed = env.doctor(fix=True, retry_agents=True)
        assert fixed.healthy, [(f.check, f.message) for f in fixed.findings] + [
            (x.finding.check, x.error) for x in fixed.fixes if x.error
        ]
        assert any(x.finding.check == check and x.status == "applied" for x in fixed.fixes)
        again = env.doctor()
        assert again.healthy and not again.findings, [(f.check, f.message) for f in again.findings]
        if any(f.task == "t" for f in found.findings if f.check == check):
            log = env.engine.load("t").transition_log  # every task fix is logged as a repair entry
            assert any(e.kind == "repair" and e.trigger == check for e in log)
    else:
        fixed = env.doctor(fix=True)
        assert check in ids(fixed)
        text = fixed.escalations[next(f.key() for f in fixed.findings if f.check == check)]
        assert "encountered a recovery scenario requiring user guidance" in text
        assert "**Options**" in text and "1. " in text
        escalated = next(f for f in fixed.findings if f.check == check)
        assert ("Abandon the task" in text) == (escalated.task is not None)
        if check in (
            "lock-schema-too-new",
            "lock-unreadable",
        ):  # refused to touch: byte for byte as it was
            assert env.task_file().read_bytes() == broken
            assert not any(".corrupt-" in p.name for p in env.task_file().parent.iterdir())
