"""commit-msg is installed only while `commit_trailers` is on (git starts every hook it finds on
every commit): `taskproto init` leaves it out by default, a move of a task's branch adds it when
the setting is turned on later (reference-transaction runs after git looked for commit-msg, so the
commits after it get their trailers, and it says so), doctor reports it missing, and `init`, or
the next commit on a task branch, takes it out again when the setting goes off.
Real git, the real CLI, real hooks."""

from __future__ import annotations

import json
import os
from pathlib import Path

from hookutil import SESSION, advance, commit_file, make_repo, sh, taskproto

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.hooks.git import install


def _setup(tmp_path: Path) -> tuple[Engine, Path]:
    repo = make_repo(tmp_path / "repo")
    done = taskproto("init", "--git", cwd=repo)
    assert done.returncode == 0, done.stderr
    engine = Engine(load_config(repo))
    engine.create_task("t1")
    engine.claim("t1", SESSION)
    advance(engine, "t1", "IMPLEMENTATION")
    return engine, repo


def _recorded(repo: Path) -> list[str]:
    return list(json.loads((repo / ".taskproto" / "git-hooks.json").read_text())["hooks"])


def _message(worktree: Path) -> str:
    return sh(worktree, "log", "-1", "--format=%B").stdout


def _doctor(repo: Path, *args: str) -> dict[str, object]:
    done = taskproto("doctor", "--json", *args, cwd=repo)
    return dict(json.loads(done.stdout))


def test_init_leaves_commit_msg_out_while_trailers_are_off(tmp_path: Path) -> None:
    engine, repo = _setup(tmp_path)
    hooks = repo / ".git" / "hooks"
    assert not (hooks / "commit-msg").exists()
    assert "commit-msg" not in _recorded(repo)
    code = engine.config.task_worktree("t1")
    commit_file(code, "a.txt")
    assert "Task:" not in _message(code)
    assert not (hooks / "commit-msg").exists()  # not added: trailers are off
    assert _doctor(repo)["findings"] == []


def _commit_saying(worktree: Path, name: str) -> str:
    """Commit `name`; git's stderr (what the hooks said)."""
    (worktree / name).write_text(f"{name}\n")
    assert sh(worktree, "add", name).returncode == 0
    proc = sh(worktree, "commit", "-q", "-m", f"add {name}")
    assert proc.returncode == 0, proc.stderr
    return proc.stderr


ADDED = (
    "taskproto: commit_trailers is on: the commit-msg hook that adds the Task trailers was "
    "missing and is installed now; commits from now on carry them (`git commit --amend "
    "--no-edit` adds them to the last one)\n"
)


def test_turning_trailers_on_adds_commit_msg_for_the_commits_after(tmp_path: Path) -> None:
    """The commit that finds the setting turned on was past commit-msg already (no pre-commit
    runs before it): it says so, and the commits after it carry the trailers."""
    engine, repo = _setup(tmp_path)
    (repo / ".taskproto.toml").write_text("commit_trailers = true\n")
    code = engine.config.task_worktree("t1")
    assert _commit_saying(code, "a.txt") == ADDED
    assert "Task:" not in _message(code)
    assert install.is_ours(repo / ".git" / "hooks" / "commit-msg")
    assert "commit-msg" in _recorded(repo)
    assert _doctor(repo)["findings"] == []
    assert _commit_saying(code, "b.txt") == ""  # from now on commit-msg is there from the start
    message = _message(code)
    assert "Task: t1" in message and "Task-State: IMPLEMENTATION" in message
    assert sh(code, "commit", "-q", "--amend", "--no-edit").returncode == 0
    assert _message(code).count("Task: t1") == 1


def test_turning_trailers_off_takes_commit_msg_out_at_the_next_task_commit(tmp_path: Path) -> None:
    """No `init` needed: the task branch's pre-commit takes ours out (theirs back in its place),
    so no later commit starts it for nothing; on a branch of no task, nothing is changed."""
    engine, repo = _setup(tmp_path)
    hooks = repo / ".git" / "hooks"
    theirs = b'#!/bin/sh\necho "Signed-off-by: theirs" >> "$1"\n'
    (hooks / "commit-msg").write_bytes(theirs)
    os.chmod(hooks / "commit-msg", 0o755)
    (repo / ".taskproto.toml").write_text("commit_trailers = true\n")
    code = engine.config.task_worktree("t1")
    assert _commit_saying(code, "a.txt") == ADDED
    assert install.is_ours(hooks / "commit-msg") and "commit-msg" in _recorded(repo)
    (repo / ".taskproto.toml").write_text("commit_trailers = false\n")
    commit_file(repo, "main.txt")  # a branch of no task: decided in sh, nothing changed
    assert install.is_ours(hooks / "commit-msg")
    commit_file(code, "b.txt")
    message = _message(code)
    assert "Task:" not in message and "Signed-off-by: theirs" in message
    assert (hooks / "commit-msg").read_bytes() == theirs
    assert not (hooks / "commit-msg.taskproto-chained").exists()
    assert "commit-msg" not in _recorded(repo)
    assert _doctor(repo)["findings"] == []
    # on again: added back, theirs chained again
    (repo / ".taskproto.toml").write_text("commit_trailers = true\n")
    assert _commit_saying(code, "c.txt") == ADDED
    commit_file(code, "d.txt")
    assert "Task: t1" in _message(code) and "Signed-off-by: theirs" in _message(code)


def test_a_commit_on_a_branch_of_no_task_adds_nothing(tmp_path: Path) -> None:
    _, repo = _setup(tmp_path)
    (repo / ".taskproto.toml").write_text("commit_trailers = true\n")
    commit_file(repo, "main.txt")
    assert not (repo / ".git" / "hooks" / "commit-msg").exists()
    assert "Task:" not in _message(repo)


def test_their_commit_msg_hook_is_chained_when_ours_is_added(tmp_path: Path) -> None:
    engine, repo = _setup(tmp_path)
    hooks = repo / ".git" / "hooks"
    theirs = b'#!/bin/sh\necho "Signed-off-by: theirs" >> "$1"\n'
    (hooks / "commit-msg").write_bytes(theirs)
    os.chmod(hooks / "commit-msg", 0o755)
    code = engine.config.task_worktree("t1")
    commit_file(code, "a.txt")  # trailers off: theirs runs alone, as before init
    assert "Signed-off-by: theirs" in _message(code) and "Task:" not in _message(code)
    (repo / ".taskproto.toml").write_text("commit_trailers = true\n")
    assert _commit_saying(code, "b.txt") == ADDED
    commit_file(code, "c.txt")
    message = _message(code)
    assert "Signed-off-by: theirs" in message and "Task: t1" in message
    assert (hooks / "commit-msg.taskproto-chained").read_bytes() == theirs
    # trailers off again: init takes ours out and puts theirs back, byte for byte
    (repo / ".taskproto.toml").write_text("commit_trailers = false\n")
    done = taskproto("init", "--git", "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)["git_hooks"]
    assert report["removed"] == ["commit-msg"] and report["restored"] == ["commit-msg"]
    assert (hooks / "commit-msg").read_bytes() == theirs
    assert not (hooks / "commit-msg.taskproto-chained").exists()
    assert "commit-msg" not in _recorded(repo)


def test_doctor_reports_and_reinstalls_a_missing_commit_msg_when_trailers_are_on(
    tmp_path: Path,
) -> None:
    engine, repo = _setup(tmp_path)
    (repo / ".taskproto.toml").write_text("commit_trailers = true\n")
    commit_file(engine.config.task_worktree("t1"), "a.txt")
    (repo / ".git" / "hooks" / "commit-msg").unlink()
    findings = _doctor(repo)["findings"]
    assert isinstance(findings, list)
    assert [(f["check"], f["message"]) for f in findings] == [
        (
            "git-hooks-missing",
            f"commit-msg missing or not executable in {repo / '.git' / 'hooks'}",
        )
    ]
    fixed = _doctor(repo, "--fix")
    assert fixed["healthy"] is True
    assert install.is_ours(repo / ".git" / "hooks" / "commit-msg")


def test_the_hook_adds_commit_msg_only_beside_our_own_hooks(tmp_path: Path) -> None:
    """The record names the folder: one that holds no reference-transaction of ours (a record
    pointed elsewhere) gets nothing, and the commit goes on without trailers, as doctor then
    reports."""
    engine, repo = _setup(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    record = repo / ".taskproto" / "git-hooks.json"
    data = json.loads(record.read_text())
    data["hooks_dir"] = str(elsewhere)
    record.write_text(json.dumps(data))
    (repo / ".taskproto.toml").write_text("commit_trailers = true\n")
    commit_file(engine.config.task_worktree("t1"), "a.txt")
    assert os.listdir(elsewhere) == []
    assert not (repo / ".git" / "hooks" / "commit-msg").exists()
    assert not install.set_commit_msg(str(elsewhere), str(repo / ".taskproto"), True)
    assert os.listdir(elsewhere) == []


def test_the_hook_takes_commit_msg_out_only_beside_our_own_hooks(tmp_path: Path) -> None:
    """Trailers off, and the record pointed at a folder with a commit-msg of ours but no
    reference-transaction of ours (someone's folder): nothing there is taken out."""
    engine, repo = _setup(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    ours = install.render("commit-msg")
    (elsewhere / "commit-msg").write_bytes(ours)
    (elsewhere / "reference-transaction").write_text("#!/bin/sh\nexit 0\n")
    record = repo / ".taskproto" / "git-hooks.json"
    data = json.loads(record.read_text())
    data["hooks_dir"] = str(elsewhere)
    record.write_text(json.dumps(data))
    commit_file(engine.config.task_worktree("t1"), "a.txt")
    assert (elsewhere / "commit-msg").read_bytes() == ours
    assert not install.set_commit_msg(str(elsewhere), str(repo / ".taskproto"), False)
    assert (elsewhere / "commit-msg").read_bytes() == ours


def test_a_refused_commit_adds_nothing(tmp_path: Path) -> None:
    engine, repo = _setup(tmp_path)
    (repo / ".taskproto.toml").write_text("commit_trailers = true\n")
    code = engine.config.task_worktree("t1")
    (code / "x.env").write_text("SECRET=1\n")  # a prohibited pattern: refused
    sh(code, "add", "x.env")
    done = sh(code, "commit", "-m", "refused")
    assert done.returncode == 128 and "prohibited" in done.stderr
    assert not (repo / ".git" / "hooks" / "commit-msg").exists()


def test_a_deleted_commit_msg_comes_back_with_the_next_commit(tmp_path: Path) -> None:
    """Trailers on, and commit-msg deleted behind taskproto's back (a shell no guard sees): the
    next commit on a task's branch puts it back and says so; the commits after it get their
    trailers."""
    engine, repo = _setup(tmp_path)
    (repo / ".taskproto.toml").write_text("commit_trailers = true\n")
    code = engine.config.task_worktree("t1")
    commit_file(code, "a.txt")
    (repo / ".git" / "hooks" / "commit-msg").unlink()
    assert _commit_saying(code, "b.txt") == ADDED
    assert install.is_ours(repo / ".git" / "hooks" / "commit-msg")
    commit_file(code, "c.txt")
    assert "Task: t1" in _message(code)


def test_an_agents_worktree_and_a_linked_checkout_put_it_back_too(tmp_path: Path) -> None:
    """Another cwd: a commit in an agent's worktree, and one in the task's worktree reached
    through a symbolic link, add the missing commit-msg the same way."""
    repo = make_repo(tmp_path / "repo")
    assert taskproto("init", "--git", cwd=repo).returncode == 0
    (repo / ".taskproto.toml").write_text("commit_trailers = true\n")
    engine = Engine(load_config(repo))
    engine.create_task("t1", ["a"])
    engine.claim("t1", SESSION)
    advance(engine, "t1", "IMPLEMENTATION")
    hook = repo / ".git" / "hooks" / "commit-msg"
    agent = engine.config.agent_worktree("t1", "a")
    commit_file(agent, "a.txt")
    assert install.is_ours(hook)
    commit_file(agent, "a2.txt")
    assert "Task: t1" in _message(agent)
    hook.unlink()
    link = tmp_path / "link"
    link.symlink_to(engine.config.task_worktree("t1"))
    assert _commit_saying(link, "b.txt") == ADDED
    assert install.is_ours(hook)
    commit_file(link, "b2.txt")
    assert "Task: t1" in _message(link)


def test_an_agents_worktree_and_a_linked_checkout_take_it_out_too(tmp_path: Path) -> None:
    """Another cwd, trailers turned off: a commit in an agent's worktree takes ours out, and after
    it is put back by hand, one in the task's worktree reached through a symbolic link does too."""
    repo = make_repo(tmp_path / "repo")
    (repo / ".taskproto.toml").write_text("commit_trailers = true\n")
    assert taskproto("init", "--git", cwd=repo).returncode == 0
    engine = Engine(load_config(repo))
    engine.create_task("t1", ["a"])
    engine.claim("t1", SESSION)
    advance(engine, "t1", "IMPLEMENTATION")
    hook = repo / ".git" / "hooks" / "commit-msg"
    ours = hook.read_bytes()
    (repo / ".taskproto.toml").write_text("commit_trailers = false\n")
    agent = engine.config.agent_worktree("t1", "a")
    commit_file(agent, "a.txt")
    assert not hook.exists() and "Task:" not in _message(agent)
    hook.write_bytes(ours)
    os.chmod(hook, 0o755)
    link = tmp_path / "link"
    link.symlink_to(engine.config.task_worktree("t1"))
    commit_file(link, "b.txt")
    assert not hook.exists() and "Task:" not in _message(link)
    assert "commit-msg" not in _recorded(repo)
