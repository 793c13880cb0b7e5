"""The journal is the authority: a task.json it does not vouch for never passes, through any door.

Each test breaks a real repository the way a person or an agent would (an older copy put back,
a hand edit, a state set without its transition, a deleted journal ref) and asserts the
refusal (CLI, engine, git hook, agent hook), the doctor finding, the repair, and that the
journal's history is intact.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.doctor import run as doctor
from taskproto.engine import Engine
from taskproto.errors import Untrusted
from taskproto.state import integrity, journal
from taskproto.state.models import utcnow
from tests.conftest import Result, git, run_taskproto
from tests.hooks.agents.conftest import Hook, payload

SESSION = "s1"
AS_OWNER = {"TASKPROTO_SESSION": SESSION}


def history(engine: Engine, name: str = "t1") -> list[str]:
    out = git(engine.config.repo, "rev-list", journal.ref_for(name))
    return out.split()


def findings(engine: Engine) -> set[str]:
    return {f.check for f in doctor(load_config(engine.config.repo), ()).findings}


def fix(engine: Engine) -> None:
    report = doctor(load_config(engine.config.repo), (), fix=True)
    assert all(x.error is None for x in report.fixes), report.fixes


def forge(engine: Engine, change: dict[str, object], bump: bool = False) -> None:
    """Edit task.json by hand the way an agent would: a new state with a matching log entry."""
    path = engine.config.task_file("t1")
    data = json.loads(path.read_text())
    old = data["state"]
    data.update(change)
    if "state" in change:
        data["transition_log"].append(
            {
                "from": old,
                "to": change["state"],
                "trigger": "implement",
                "time": utcnow().isoformat(),
                "kind": "transition",
            }
        )
    if bump:
        data["revision"] += 1
    path.write_text(json.dumps(data, indent=2))


def work_refused(dev: Path, hook: Hook, finding: str) -> None:
    """Neither a commit on the agent's branch (the git hooks) nor an edit in its worktree (the
    agent client's hook) gets past `finding`."""
    (dev / "work.txt").write_text("work\n")
    git(dev, "add", "work.txt")
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "work"], cwd=dev, capture_output=True, text=True
    )
    assert proc.returncode != 0 and finding in proc.stderr, proc.stderr
    data = payload(
        "claude",
        "PreToolUse",
        session_id=SESSION,
        cwd=str(dev),
        tool_input={"file_path": str(dev / "x.py"), "content": "x"},
    )
    code, _, err = hook("claude", "PreToolUse", data)
    assert code == 2 and finding in err, err


def refused(result: Result, finding: str) -> None:
    assert result.code == 1, result
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert "taskproto doctor" in lines[0] and f"[{finding}]" in lines[0], lines[0]


def test_every_journal_commit_records_the_revision_and_digest_of_its_task_json(t1: Engine) -> None:
    t1.fire("t1", "classify", session=SESSION)
    for sha in history(t1):
        message = git(t1.config.repo, "log", "-1", "--format=%B", sha).encode()
        revision, digest = integrity.parse(message)
        data = git(t1.config.repo, "show", f"{sha}:task.json").encode() + b"\n"
        stored = subprocess.run(
            ["git", "cat-file", "blob", f"{sha}:task.json"],
            cwd=t1.config.repo,
            capture_output=True,
            check=True,
        ).stdout
        assert digest == integrity.digest(stored) and revision == json.loads(data)["revision"]
    # the in-process objects are ordinary git objects
    subprocess.run(["git", "fsck", "--strict"], cwd=t1.config.repo, check=True, capture_output=True)
    assert t1.config.task_file("t1").read_bytes() == git_blob(t1, journal.ref_for("t1"))


def git_blob(engine: Engine, rev: str) -> bytes:
    return subprocess.run(
        ["git", "cat-file", "blob", f"{rev}:task.json"],
        cwd=engine.config.repo,
        capture_output=True,
        check=True,
    ).stdout


def test_an_older_copy_put_back_is_refused_everywhere_and_doctor_restores_the_journals(
    t1: Engine, hook: Hook
) -> None:
    old = t1.config.task_file("t1").read_bytes()
    t1.fire("t1", "classify", session=SESSION)
    t1.fire("t1", "gather_requirements", session=SESSION)
    commits = history(t1)
    t1.config.task_file("t1").write_bytes(old)  # revision 2 (claimed, INIT) over revision 4

    refused(
        run_taskproto("transition", "t1", "CLASSIFIED", cwd=t1.config.repo, env=AS_OWNER),
        "task-stale-copy",
    )
    refused(run_taskproto("task", "show", "t1", cwd=t1.config.repo), "task-stale-copy")
    with pytest.raises(Untrusted):
        Engine(load_config(t1.config.repo)).fire("t1", "classify", session=SESSION)
    assert t1.config.task_file("t1").read_bytes() == old  # refusals wrote nothing
    assert history(t1) == commits
    assert "task-stale-copy" in findings(t1)

    fix(t1)
    assert t1.load("t1").revision == 5  # the journal's revision 4, then the repair
    assert history(t1)[1:] == commits  # one repair commit on top; nothing rewritten
    kept = [p for p in t1.config.task_dir("t1").iterdir() if ".task-stale-copy-" in p.name]
    assert len(kept) == 1 and kept[0].read_bytes() == old
    assert findings(t1) == set()


@pytest.mark.parametrize(
    ("behind", "finding"), [(1, integrity.AHEAD), (2, integrity.STALE), (3, integrity.STALE)]
)
def test_a_refusal_and_doctor_give_an_older_copy_the_same_name(
    t1: Engine, behind: int, finding: str
) -> None:
    """One name for one finding: what a command refuses with is the check doctor reports (and
    docs/doctor.md lists), so the user can look it up."""
    old = t1.config.task_file("t1").read_bytes()
    for trigger in ("classify", "gather_requirements", "synthesize")[:behind]:
        t1.fire("t1", trigger, session=SESSION)
    t1.config.task_file("t1").write_bytes(old)
    refused(run_taskproto("task", "show", "t1", cwd=t1.config.repo), finding)
    with pytest.raises(Untrusted, match=finding):
        Engine(load_config(t1.config.repo)).load("t1")
    assert findings(t1) == {finding}


def test_a_hand_edited_state_unlocks_neither_commits_nor_edits_nor_transitions(
    t1: Engine, hook: Hook
) -> None:
    commits = history(t1)
    forge(t1, {"state": "IMPLEMENTATION"})  # INIT allows no commits; IMPLEMENTATION would
    dev = t1.config.agent_worktree("t1", "dev")

    work_refused(dev, hook, "task-forged")
    # the CLI and MCP's engine
    refused(
        run_taskproto("transition", "t1", "VALIDATION", cwd=t1.config.repo, env=AS_OWNER),
        "task-forged",
    )
    assert "task-forged" in findings(t1)

    fix(t1)
    assert t1.load("t1").state == "INIT"
    assert history(t1)[1:] == commits
    for sha in history(t1):  # the forged state was never journaled
        assert json.loads(git_blob(t1, sha))["state"] == "INIT"


def test_a_change_with_a_bumped_revision_is_never_journaled(t1: Engine) -> None:
    forge(t1, {"state": "IMPLEMENTATION"}, bump=True)
    refused(run_taskproto("task", "show", "t1", cwd=t1.config.repo), "journal-behind")
    assert "journal-behind" in findings(t1)
    fix(t1)
    assert t1.load("t1").state == "INIT"
    assert all(json.loads(git_blob(t1, sha))["state"] == "INIT" for sha in history(t1))


def test_a_state_its_own_log_never_reached_is_refused_and_restored_from_the_journal(
    t1: Engine,
) -> None:
    path = t1.config.task_file("t1")
    data = json.loads(path.read_text())
    data["state"] = "COMPLETE"  # no log entry: a state no guarded step reached
    path.write_text(json.dumps(data, indent=2))
    refused(run_taskproto("task", "show", "t1", cwd=t1.config.repo), "state-log-mismatch")
    assert {"state-log-mismatch", "task-forged"} <= findings(t1)
    fix(t1)
    assert t1.load("t1").state == "INIT" and findings(t1) == set()


def test_a_deleted_journal_ref_is_refused_by_the_hook_and_restored_whole_by_doctor(
    t1: Engine,
) -> None:
    t1.fire("t1", "classify", session=SESSION)
    commits = history(t1)
    ref = journal.ref_for("t1")
    # the reference-transaction hook refuses deleting and rewinding a journal
    for args in (["update-ref", "-d", ref], ["update-ref", ref, commits[-1]]):
        proc = subprocess.run(["git", *args], cwd=t1.config.repo, capture_output=True, text=True)
        assert proc.returncode != 0 and "only taskproto writes it" in proc.stderr
    assert history(t1) == commits
    # with the hooks bypassed, the ref goes anyway
    subprocess.run(
        ["git", "-c", "core.hooksPath=/dev/null", "update-ref", "-d", ref],
        cwd=t1.config.repo,
        check=True,
    )
    refused(
        run_taskproto("transition", "t1", "REQUIREMENTS_GATHERING", cwd=t1.config.repo),
        "journal-missing",
    )
    assert "journal-missing" in findings(t1)
    fix(t1)
    assert history(t1)[1:] == commits  # the whole history, plus the repair commit
    assert findings(t1) == set()
    t1.fire("t1", "gather_requirements", session=SESSION)


def test_a_deleted_journal_ref_comes_back_from_the_shared_remote(
    t1: Engine, tmp_path: Path
) -> None:
    bare = tmp_path / "shared.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    repo = t1.config.repo
    git(repo, "remote", "add", "origin", str(bare))
    t1.fire("t1", "classify", session=SESSION)
    commits = history(t1)
    git(repo, "push", "-q", "origin", f"{journal.ref_for('t1')}:{journal.ref_for('t1')}")
    subprocess.run(
        ["git", "-c", "core.hooksPath=/dev/null", "update-ref", "-d", journal.ref_for("t1")],
        cwd=repo,
        check=True,
    )
    git(repo, "gc", "-q", "--prune=now")  # no dangling commits left to find here
    assert "journal-missing" in findings(t1)
    (repo / ".taskproto.toml").write_text('remote = "origin"\n')
    fix(Engine(load_config(repo)))
    assert history(t1)[1:] == commits


def test_lock_free_readers_never_see_a_save_in_flight_as_a_forgery(t1: Engine) -> None:
    """A hook reads task.json without the lock while another process saves: the journal commit
    and the rename are two steps, so a reader may see them apart; it waits for the lock and checks
    again instead of refusing."""
    from taskproto.state.light import read_task

    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys\n"
            "from taskproto.config import load_config\n"
            "from taskproto.engine import Engine\n"
            "from taskproto.ops.interrupts import record\n"
            "from pathlib import Path\n"
            "e = Engine(load_config(Path(sys.argv[1])))\n"
            "for i in range(40):\n"
            "    record(e, 't1', f'what about step {i}?', 's1')\n",
            str(t1.config.repo),
        ]
    )
    errors = []
    while writer.poll() is None:
        view = read_task(t1.config.layout, "t1")
        if view.error is not None:
            errors.append(view.error)
    assert writer.wait() == 0
    assert errors == []
    assert t1.load("t1").interruption_count == 40
    assert findings(t1) == set()


def test_normal_use_leaves_doctor_healthy(t1: Engine, hook: Hook) -> None:
    from taskproto.ops.interrupts import record
    from taskproto.state.models import AgentState

    t1.claim("t1", SESSION, pid=os.getpid())  # the same session from another process
    t1.heartbeat("t1", SESSION)
    record(t1, "t1", "what does the retry do?", SESSION)
    t1.set_agent_status("t1", "dev", AgentState.WORKING, session=SESSION)
    stop = payload("claude", "Stop", session_id=SESSION, cwd=str(t1.config.repo))
    assert hook("claude", "Stop", stop)[0] == 0
    assert findings(t1) == set()
    assert t1.load("t1").owner.pid == os.getpid()  # type: ignore[union-attr]


def test_nothing_ever_journals_a_state_its_log_did_not_reach(t1: Engine) -> None:
    from taskproto.errors import TaskprotoError

    before = history(t1)
    with t1.locked("t1") as task:
        bad = task.model_copy(deep=True)
        bad.state = "COMPLETE"
        with pytest.raises(TaskprotoError, match="its transition log ends at INIT"):
            t1.save(task, bad, "forged")
    assert history(t1) == before and t1.load("t1").state == "INIT"
