"""`taskproto agent exec`: the agent's own commits on its branch come out and `merge` and `land`
see them; a commit the task's state forbids stays out; one run of an agent at a time; an agent
cannot run it."""

from __future__ import annotations

import fcntl
import os
import sys
import sysconfig
from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.conftest import commit_file, git, run_taskproto
from tests.hooks.agents.conftest import move_to
from tests.sandbox.conftest import SESSION, needs_bwrap

pytestmark = needs_bwrap
COMMIT = "echo hello > hello.txt && git add hello.txt && git commit -q -m 'dev: hello'"


def test_the_agents_commit_reaches_its_branch_and_merge_and_land_see_it(
    sandboxed: Engine, repo: Path, cli
) -> None:
    engine = sandboxed
    before = git(repo, "rev-parse", "t-dev")
    r = run_taskproto("agent", "exec", "t", "dev", "--", "sh", "-c", COMMIT, cwd=repo)
    assert r.code == 0, r.err
    head = git(repo, "rev-parse", "t-dev")
    assert head != before and git(repo, "log", "-1", "--format=%s", head) == "dev: hello"
    assert git(repo, "rev-parse", f"{head}~1") == before
    assert f"t-dev is now at {head[:12]}" in r.err
    # the worktree's index matches the new head: nothing staged, nothing changed
    dev = engine.config.agent_worktree("t", "dev")
    assert git(dev, "status", "--porcelain", "--ignored") == ""
    # the empty settings folders that covered the absent ones inside are gone again
    assert not any((dev / name).exists() for name in (".claude", ".codex", ".gemini"))
    r = cli("doctor")
    assert r.code == 0, r.out + r.err  # the agent's git dir is nothing doctor reports
    commit_file(engine.config.agent_worktree("t", "qa"), "qa.txt", "qa\n")
    r = cli("merge", "t", env={"TASKPROTO_SESSION": SESSION})
    assert r.code == 0, r.err
    assert git(repo, "merge-base", "--is-ancestor", head, "t") == ""
    move_to(engine, "t", "AWAITING_USER_APPROVAL")
    engine.approve("t", "commit", "user")
    engine.fire("t", target="COMPLETE", session=SESSION)
    r = cli("land", "t", env={"TASKPROTO_SESSION": SESSION})
    assert r.code == 0, r.err
    assert git(repo, "merge-base", "--is-ancestor", head, "main") == ""
    assert (repo / "hello.txt").read_text() == "hello\n"
    assert not engine.config.task_dir("t").exists()  # the agent's git dir went with the task


def test_a_commit_in_a_state_without_commits_stays_out(engine: Engine, repo: Path) -> None:
    from taskproto.git.command import Git
    from taskproto.hooks.git import install

    install.install(Git(repo))
    engine.create_task("t", ["dev"], description="no commits yet")
    before = git(repo, "rev-parse", "t-dev")
    journal = git(repo, "rev-parse", "refs/taskproto/tasks/t")
    r = run_taskproto("agent", "exec", "t", "dev", "--", "sh", "-c", COMMIT, cwd=repo)
    assert r.code == 1
    lines = r.err.strip().splitlines()
    assert len(lines) == 1, r.err
    assert lines[0].startswith("taskproto: the agent's commit ")
    assert "on t-dev was refused (refused: moving branch 't-dev'" in lines[0]
    assert "task t is in INIT, which does not allow commits" in lines[0]
    assert lines[0].endswith(
        f"t-dev stays at {before[:12]}, and the commit's files stay in the agent's worktree as "
        "uncommitted changes"
    )
    assert git(repo, "rev-parse", "t-dev") == before
    worktree = engine.config.agent_worktree("t", "dev")
    assert git(worktree, "status", "--porcelain") == "?? hello.txt"
    assert git(repo, "rev-parse", "refs/taskproto/tasks/t") == journal


def test_the_command_s_exit_status_is_agent_exec_s(sandboxed: Engine, repo: Path) -> None:
    r = run_taskproto("agent", "exec", "t", "dev", "--", "sh", "-c", "exit 7", cwd=repo)
    assert (r.code, r.err) == (7, "")


def test_one_run_of_an_agent_at_a_time(sandboxed: Engine, repo: Path) -> None:
    box = sandboxed.config.agent_dir("t", "dev") / "sandbox"
    box.mkdir(parents=True, exist_ok=True)
    with open(box / "lock", "a+b") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        r = run_taskproto("agent", "exec", "t", "dev", "--", "true", cwd=repo)
    assert r.code == 1
    assert r.err == (
        "taskproto: agent dev of task t is already running in its sandbox; "
        "wait for that run to end\n"
    )


def test_an_agent_cannot_run_it(sandboxed: Engine, repo: Path) -> None:
    r = run_taskproto(
        "agent", "exec", "t", "qa", "--", "touch", "x", cwd=repo, env={"TASKPROTO_AGENT": "1"}
    )
    assert r.code == 1
    assert "the user's to do, and this runs for an agent" in r.err
    assert not (sandboxed.config.agent_worktree("t", "qa") / "x").exists()


def test_an_unknown_task_or_agent_is_refused_in_one_line(sandboxed: Engine, repo: Path) -> None:
    r = run_taskproto("agent", "exec", "nope", "dev", "--", "true", cwd=repo)
    assert r.code != 0 and len(r.err.strip().splitlines()) == 1
    r = run_taskproto("agent", "exec", "t", "ghost", "--", "true", cwd=repo)
    assert r.code == 1 and "agent ghost of task t has no worktree" in r.err


def test_the_secrets_of_the_environment_stay_out_unless_passed(
    sandboxed: Engine, repo: Path
) -> None:
    env = {"GITHUB_TOKEN": "secret-1", "MY_SETTING": "on"}
    probe = [
        sys.executable,
        "-c",
        "import os; print(os.environ.get('GITHUB_TOKEN'), os.environ.get('MY_SETTING'))",
    ]
    r = run_taskproto("agent", "exec", "t", "dev", "--", *probe, cwd=repo, env=env)
    assert r.out == "None None\n"
    r = run_taskproto(
        "agent", "exec", "t", "dev", "--pass-env", "MY_SETTING", "--", *probe, cwd=repo, env=env
    )
    assert r.out == "None on\n"
    assert os.environ.get("GITHUB_TOKEN") is None


def test_a_link_the_agent_leaves_in_its_git_dir_is_not_followed_by_the_next_run(
    sandboxed: Engine, repo: Path
) -> None:
    qa = sandboxed.config.agent_worktree("t", "qa")
    plant = f'cd "$(git rev-parse --absolute-git-dir)" && mv objects o2 && ln -s "{qa}" objects'
    r = run_taskproto("agent", "exec", "t", "dev", "--", "sh", "-c", plant, cwd=repo)
    assert r.code == 0, r.err
    r = run_taskproto("agent", "exec", "t", "dev", "--", "sh", "-c", COMMIT, cwd=repo)
    assert r.code == 0, r.err
    assert not (qa / "info").exists()
    assert git(qa, "status", "--porcelain") == ""
    assert git(repo, "log", "-1", "--format=%s", "t-dev") == "dev: hello"


def test_a_repository_under_the_home_folder_stays_visible_and_the_rest_of_home_does_not(
    sandboxed: Engine, repo: Path, tmp_path: Path
) -> None:
    # the usual place: ~/code/repo, with the user's keys beside it
    (tmp_path / ".ssh").mkdir()
    (tmp_path / ".ssh" / "id_ed25519").write_text("PRIVATE KEY")
    look = f"ls {tmp_path} && cat {repo}/README.md && {COMMIT}"
    r = run_taskproto(
        "agent", "exec", "t", "dev", "--", "sh", "-c", look, cwd=repo, env={"HOME": str(tmp_path)}
    )
    assert r.code == 0, r.err
    assert r.out.split() == ["repo", "#", "test", "repo"]  # no .ssh: only the repository shows
    assert git(repo, "log", "-1", "--format=%s", "t-dev") == "dev: hello"


def test_no_network_cuts_even_the_loopback(sandboxed: Engine, repo: Path) -> None:
    import socket

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        port = server.getsockname()[1]
        dial = f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=5)"
        r = run_taskproto("agent", "exec", "t", "dev", "--", sys.executable, "-c", dial, cwd=repo)
        assert r.code == 0, r.err
        r = run_taskproto(
            "agent", "exec", "t", "dev", "--no-network", "--", sys.executable, "-c", dial, cwd=repo
        )
        assert r.code == 1 and "ConnectionRefusedError" in r.err


def test_the_agents_network_setting_is_the_default(sandboxed: Engine, repo: Path) -> None:
    import socket

    (repo / ".taskproto.toml").write_text("[agents]\nnetwork = false\n")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        port = server.getsockname()[1]
        dial = f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=5)"
        r = run_taskproto("agent", "exec", "t", "dev", "--", sys.executable, "-c", dial, cwd=repo)
        assert r.code == 1 and "ConnectionRefusedError" in r.err
        r = run_taskproto(
            "agent", "exec", "t", "dev", "--network", "--", sys.executable, "-c", dial, cwd=repo
        )
        assert r.code == 0, r.err
    (repo / ".taskproto.toml").write_text('[agents]\nnetwork = "no"\n')
    r = run_taskproto("agent", "exec", "t", "dev", "--", "true", cwd=repo)
    assert r.code != 0
    assert r.err.strip().endswith("[agents] network must be true or false, not 'no'")
    assert len(r.err.strip().splitlines()) == 1


def test_the_agents_git_add_all_leaves_out_what_init_keeps_out_of_git(
    sandboxed: Engine, repo: Path
) -> None:
    """Found walking a new user's day: inside the sandbox, the agent's own git dir had no
    `info/exclude`, so `.claude/settings.local.json` (this machine's hooks, which `init --claude`
    keeps out of git) showed as untracked and `git add -A` committed it to the agent's branch,
    on its way to the base branch through merge and land."""
    assert run_taskproto("init", "--claude", cwd=repo).code == 0
    dev = sandboxed.config.agent_worktree("t", "dev")
    assert (dev / ".claude" / "settings.local.json").is_file()
    work = "git status --porcelain; echo w > work.txt && git add -A && git commit -qm work"
    r = run_taskproto("agent", "exec", "t", "dev", "--", "sh", "-c", work, cwd=repo)
    assert r.code == 0, r.err
    assert ".claude" not in r.out, r.out  # not even shown as untracked
    assert git(repo, "show", "--name-only", "--format=", "t-dev") == "work.txt"
    assert git(dev, "status", "--porcelain") == ""


def test_moving_another_branch_inside_the_sandbox_is_refused_saying_only_its_own_comes_out(
    sandboxed: Engine, repo: Path
) -> None:
    """Found walking a new user's day: inside its sandbox the agent's `git update-ref
    refs/heads/<another task's branch> HEAD` and `git push . HEAD:<another agent's branch>`
    exited 0 (its own git dir's copies moved), so nothing told it that they would never come
    out. Now they are refused, in one line that says why, and its own branch still moves."""
    before = {b: git(repo, "rev-parse", b) for b in ("main", "t", "t-qa")}
    tries = (
        "git update-ref refs/heads/t HEAD",
        "git push -q . HEAD:t-qa",
        "git branch scratch",
        "git update-ref refs/heads/main HEAD",
    )
    script = "echo w > w.txt && git add w.txt && git commit -qm own; "  # HEAD moves on first
    script += "; ".join(f"{t} 2>>err.txt; echo $? >> codes.txt" for t in tries)
    script += "; cat err.txt codes.txt; rm err.txt codes.txt"
    r = run_taskproto("agent", "exec", "t", "dev", "--", "sh", "-c", script, cwd=repo)
    assert r.code == 0, r.err
    errors = [line for line in r.out.splitlines() if line.startswith("taskproto:")]
    codes = [line for line in r.out.splitlines() if line.isdigit()]
    assert codes and all(code != "0" for code in codes) and len(codes) == len(tries), r.out
    assert len(errors) == len(tries), r.out
    for line in errors:
        assert "only its own branch t-dev comes out of its sandbox" in line, line
    assert {b: git(repo, "rev-parse", b) for b in before} == before
    assert git(repo, "log", "-1", "--format=%s", "t-dev") == "own"


def test_the_agents_taskproto_is_the_install_that_runs_it_whatever_the_users_path(
    sandboxed: Engine, repo: Path
) -> None:
    """taskproto started by its path from a virtualenv that is not activated: inside, `taskproto`
    is that install (its command folder first on PATH), not another one the PATH finds first, and
    not missing. Before, the agent ran whatever the user's PATH held."""
    scripts = sysconfig.get_path("scripts")
    if not os.path.isfile(os.path.join(scripts, "taskproto")):
        pytest.skip(f"this interpreter has no taskproto command in {scripts} (run from a checkout)")
    decoy = repo / "decoy-bin"  # in the main checkout: the sandbox shows it, read-only
    decoy.mkdir()
    (decoy / "taskproto").write_text("#!/bin/sh\necho decoy\n")
    (decoy / "taskproto").chmod(0o755)
    probe = ["sh", "-c", 'command -v taskproto; echo "$PATH"']
    env = {"PATH": f"{decoy}:/usr/bin:/bin"}
    r = run_taskproto("agent", "exec", "t", "dev", "--", *probe, cwd=repo, env=env)
    assert r.code == 0, r.err
    found, path = r.out.splitlines()
    assert found == os.path.join(scripts, "taskproto")
    assert path.split(":") == [scripts, str(decoy), "/usr/bin", "/bin"]
    # and it runs, by its name alone, as the agent runs it
    version = ["taskproto", "--version"]
    r = run_taskproto("agent", "exec", "t", "dev", "--", *version, cwd=repo, env=env)
    assert r.code == 0 and "decoy" not in r.out, (r.out, r.err)
