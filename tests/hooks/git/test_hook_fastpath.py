"""The installed hook script decides "nothing to do" in `sh`, without starting Python.

pre-merge-commit stands for the hooks that look at the checked-out branch (pre-commit is no
longer installed: reference-transaction makes its checks).

The shell must never let through what Python would refuse: every case runs the installed script
twice on the same real repository, input and environment, once as installed and once with
TASKPROTO_HOOK_FASTPATH=0 (Python decides every run), and the two must answer alike. A
recording interpreter shows whether Python started, so a fast path that stopped firing fails too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hookutil import SESSION, advance, head, sh

from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.hooks.git import install

ZERO = "0" * 40


@pytest.fixture
def fast(engine: Engine, tmp_path: Path) -> tuple[Engine, Path, Path]:
    """Hooks installed with a recording interpreter; tasks t1 (agents a, b) and x-y (agent z)."""
    log = tmp_path / "python-started"
    wrapper = tmp_path / "bin" / "python"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> {log}\nexec {sys.executable} "$@"\n')
    wrapper.chmod(0o755)
    install.install(Git(engine.config.repo), python=str(wrapper))
    engine.create_task("t1", agents=["a", "b"])
    engine.claim("t1", SESSION)
    engine.create_task("x-y", agents=["z"])
    return engine, log, engine.config.repo / ".git" / "hooks"


def run_hook(
    hooks: Path,
    log: Path,
    hook: str,
    cwd: Path,
    args: tuple[str, ...] = (),
    stdin: str = "",
    env: dict[str, str] | None = None,
) -> tuple[int, str, bool]:
    """(exit status, stderr, whether Python started) of one run of the installed script."""
    log.unlink(missing_ok=True)
    proc = subprocess.run(
        [str(hooks / hook), *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=False,
    )
    return proc.returncode, proc.stderr, log.exists()


def both(
    hooks: Path, log: Path, hook: str, cwd: Path, *args: str, stdin: str = "", **env: str
) -> tuple[int, str, bool]:
    """Run the script as installed and with Python deciding; they must agree. Returns the first."""
    fast = run_hook(hooks, log, hook, cwd, args, stdin, env)
    slow = run_hook(hooks, log, hook, cwd, args, stdin, {**env, "TASKPROTO_HOOK_FASTPATH": "0"})
    assert slow[2], "with the fast path off, Python decides"
    assert fast[:2] == slow[:2], f"sh and Python disagree on {hook} in {cwd}: {fast} vs {slow}"
    return fast


def test_commit_hooks_on_a_branch_of_no_task_start_no_python(fast) -> None:  # type: ignore[no-untyped-def]
    engine, log, hooks = fast
    repo = engine.config.repo
    for hook in ("pre-merge-commit", "post-checkout", "post-merge"):
        assert both(hooks, log, hook, repo) == (0, "", False)
    msg = repo / "msg"
    msg.write_text("m\n")
    assert both(hooks, log, "commit-msg", repo, str(msg)) == (0, "", False)
    assert both(hooks, log, "post-rewrite", repo, "amend", stdin=f"{ZERO} {ZERO}\n") == (
        0,
        "",
        False,
    )
    # detached HEAD, a branch that only looks like an agent's, a branch with a slash
    sh(repo, "checkout", "-q", "--detach")
    assert both(hooks, log, "pre-merge-commit", repo) == (0, "", False)
    for branch in ("t1-zz", "t1-", "-t1", "x-y-q", "feature/t1", "t1-a-b"):
        sh(repo, "checkout", "-q", "-B", branch)
        assert both(hooks, log, "pre-merge-commit", repo) == (0, "", False), branch


def test_a_config_that_may_set_core_bare_goes_to_python(fast) -> None:  # type: ignore[no-untyped-def]
    """core.bare in any spelling git reads (`bare` alone is true), or a config that includes
    another file: the shell does not decide; Python does, and they answer alike."""
    engine, log, hooks = fast
    repo = engine.config.repo
    config = repo / ".git" / "config"
    good = config.read_text()
    (repo / ".git" / "extra.config").write_text("[user]\n\tname = x\n")
    try:
        for extra in (
            "[core]\n\tBare = TRUE\n",
            "[core]\n\tbare\n",
            "[include]\n\tpath = extra.config\n",
            '[includeIf "gitdir:/"]\n\tpath = extra.config\n',
        ):
            config.write_text(good + extra)
            # from the main checkout and from a linked worktree (its config is the common dir's)
            for cwd in (repo, engine.config.task_worktree("t1"), repo / "sub"):
                cwd.mkdir(exist_ok=True)
                fast_run = run_hook(hooks, log, "pre-merge-commit", cwd)
                assert fast_run[2], f"the shell decided with {extra!r} in the config, in {cwd}"
        config.write_text(good + "[core]\n\tbare = false\n")
        assert both(hooks, log, "pre-merge-commit", repo) == (0, "", False)
    finally:
        config.write_text(good)


def test_a_real_commit_and_a_transition_start_no_hook_python(fast) -> None:  # type: ignore[no-untyped-def]
    engine, log, _ = fast
    repo = engine.config.repo
    log.unlink(missing_ok=True)
    (repo / "f.txt").write_text("f\n")
    assert sh(repo, "add", "f.txt").returncode == 0
    proc = sh(repo, "commit", "-q", "-m", "f")
    assert proc.returncode == 0, proc.stderr
    assert not log.exists(), "a commit on a branch of no task started Python"
    engine.fire("t1", target="CLASSIFIED", session=SESSION)  # a journal commit: refs/taskproto
    assert not log.exists(), "a transition's journal update started a hook Python"


def test_task_and_agent_branches_go_to_python(fast) -> None:  # type: ignore[no-untyped-def]
    engine, log, hooks = fast
    code = engine.config.task_worktree("t1")
    agent = engine.config.agent_worktree("t1", "a")
    other = engine.config.agent_worktree("x-y", "z")
    for cwd in (code, agent, other):
        status, err, started = both(hooks, log, "pre-merge-commit", cwd)
        assert started and status == 1 and "commit refused" in err, (cwd, err)
        # as git runs it in a linked worktree: GIT_DIR set
        gd = sh(cwd, "rev-parse", "--absolute-git-dir").stdout.strip()
        assert both(hooks, log, "pre-merge-commit", cwd, GIT_DIR=gd)[2]
    # reached through a symbolic link to the repository
    link = engine.config.repo.parent / "link"
    link.symlink_to(engine.config.repo)
    linked = link / code.relative_to(engine.config.repo)
    assert both(hooks, log, "pre-merge-commit", linked)[:2] == (
        1,
        both(hooks, log, "pre-merge-commit", code)[1],
    )
    assert both(hooks, log, "pre-merge-commit", link) == (0, "", False)


def test_commit_msg_trailers(fast) -> None:  # type: ignore[no-untyped-def]
    engine, log, hooks = fast
    code = engine.config.task_worktree("t1")
    msg = code / "msg"
    msg.write_text("m\n")
    assert both(hooks, log, "commit-msg", code, str(msg)) == (0, "", False)  # trailers off
    (engine.config.repo / ".taskproto.toml").write_text("commit_trailers = true\n")
    assert both(hooks, log, "commit-msg", code, str(msg))[2]
    (engine.config.repo / ".taskproto.toml").write_text("commit_trailers = [broken\n")
    status, err, started = both(hooks, log, "commit-msg", code, str(msg))
    assert started and status == 1 and "not valid TOML" in err


def test_settings_that_name_a_root_go_to_python(fast) -> None:  # type: ignore[no-untyped-def]
    engine, log, hooks = fast
    repo = engine.config.repo
    (repo / ".taskproto.toml").write_text('root = ".taskproto"\n')
    assert both(hooks, log, "pre-merge-commit", repo) == (0, "", True)
    # read by the shell itself: the last line without its newline, a line among many others
    (repo / ".taskproto.toml").write_text('lock_timeout = 5\nroot = ".taskproto"')
    assert both(hooks, log, "pre-merge-commit", repo) == (0, "", True)
    (repo / ".taskproto.toml").write_text("# x\n" * 300 + 'root = ".taskproto"\n' + "# y\n" * 9)
    assert both(hooks, log, "pre-merge-commit", repo) == (0, "", True)
    (repo / ".taskproto.toml").write_text("lock_timeout = 5")  # no root: the shell decides
    assert both(hooks, log, "pre-merge-commit", repo) == (0, "", False)
    (repo / ".taskproto.toml").write_text("root = [\n")  # broken: Python refuses
    status, err, started = both(hooks, log, "pre-merge-commit", repo)
    assert started and status == 1 and "not valid TOML" in err
    (repo / ".taskproto.toml").unlink()
    (repo / "pyproject.toml").write_text('[tool.taskproto]\nroot = "elsewhere"\n')
    assert both(hooks, log, "pre-merge-commit", repo)[2]
    (repo / "pyproject.toml").write_text('[project]\nname = "x"\n')  # no taskproto table
    assert both(hooks, log, "pre-merge-commit", repo) == (0, "", False)
    # TASKPROTO_ROOT: the shell follows it (here: to a folder with no tasks, and to the real one)
    assert both(hooks, log, "pre-merge-commit", repo, TASKPROTO_ROOT="nowhere") == (0, "", False)
    code = engine.config.task_worktree("t1")
    assert both(hooks, log, "pre-merge-commit", code, TASKPROTO_ROOT="nowhere") == (0, "", False)
    status, _, started = both(
        hooks, log, "pre-merge-commit", code, TASKPROTO_ROOT=str(engine.config.root)
    )
    assert started and status == 1


def test_reference_transaction(fast) -> None:  # type: ignore[no-untyped-def]
    engine, log, hooks = fast
    repo = engine.config.repo
    sha = head(repo)
    main = f"{sha} {head(repo, 'HEAD~0')} refs/heads/main\n"
    assert both(hooks, log, "reference-transaction", repo, "prepared", stdin=main) == (0, "", False)
    assert both(hooks, log, "reference-transaction", repo, "committed", stdin=main)[2] is False
    # a commit no branch holds: writing a branch to the value it holds is no move (refs.py)
    other = Git(repo).run("commit-tree", "-p", sha, "-m", "elsewhere", f"{sha}^{{tree}}").strip()
    for ref in ("refs/heads/t1", "refs/heads/t1-a", "refs/heads/x-y-z", "refs/taskproto/tasks/t1"):
        line = f"{ZERO} {other} {ref}\n"
        status, err, started = both(
            hooks, log, "reference-transaction", repo, "prepared", stdin=line
        )
        assert started and status == 1, (ref, err)
        # taskproto's own updates pass in sh
        assert both(
            hooks,
            log,
            "reference-transaction",
            repo,
            "prepared",
            stdin=line,
            TASKPROTO_INTERNAL="1",
        ) == (0, "", False)
    claim = f"{ZERO} {sha} refs/taskproto/claims/t1\n"
    assert both(hooks, log, "reference-transaction", repo, "prepared", stdin=claim) == (
        0,
        "",
        False,
    )
    journal = f"{ZERO} {sha} refs/taskproto/tasks/t1\n"
    assert both(hooks, log, "reference-transaction", repo, "committed", stdin=journal) == (
        0,
        "",
        False,
    )
    # a task ref after lines that are not: the later line still counts
    many = main + f"{ZERO} {other} refs/heads/t1\n"
    assert both(hooks, log, "reference-transaction", repo, "prepared", stdin=many)[:1] == (1,)


def test_a_linked_worktree_of_no_task_is_decided_in_sh_too(fast, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The main worktree is decided before the script's later functions are read; a user's own
    linked worktree (GIT_DIR set by git, a .git file) after them: both in sh, alike Python."""
    engine, log, hooks = fast
    repo = engine.config.repo
    mine = tmp_path / "mine"
    assert sh(repo, "worktree", "add", "-q", "-b", "feature", str(mine)).returncode == 0
    sha = head(mine)
    gd = sh(mine, "rev-parse", "--absolute-git-dir").stdout.strip()
    line = f"{sha} {sha} refs/heads/feature\n"
    other = Git(repo).run("commit-tree", "-p", sha, "-m", "elsewhere", f"{sha}^{{tree}}").strip()
    for env in ({"GIT_DIR": gd}, {}):
        for phase in ("prepared", "committed"):
            assert both(hooks, log, "reference-transaction", mine, phase, stdin=line, **env) == (
                0,
                "",
                False,
            ), (phase, env)
        assert both(hooks, log, "post-checkout", mine, **env) == (0, "", False)
        task = f"{ZERO} {other} refs/heads/t1-b\n"  # a task's branch from there: Python decides
        status, _, started = both(
            hooks, log, "reference-transaction", mine, "prepared", stdin=task, **env
        )
        assert started and status == 1
    log.unlink(missing_ok=True)
    (mine / "f.txt").write_text("f\n")
    assert sh(mine, "add", "f.txt").returncode == 0
    assert sh(mine, "commit", "-q", "-m", "f").returncode == 0
    assert not log.exists()


def loosen(repo: Path) -> dict[str, str]:
    """Every branch and journal as a loose ref again (as taskproto and git write them before a gc
    packs them); returns each ref's value."""
    listed = Git(repo).run("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/")
    listed += Git(repo).run(
        "for-each-ref", "--format=%(refname) %(objectname)", "refs/taskproto/tasks/"
    )
    refs = dict(line.split(" ") for line in listed.splitlines())
    for ref, sha in refs.items():
        path = repo / ".git" / ref
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(sha + "\n")
    return refs


def test_pack_refs_and_gc_start_python_once(fast) -> None:  # type: ignore[no-untyped-def]
    """`git pack-refs` (which a user's `git gc` runs) writes every ref into packed-refs in one
    transaction, then deletes each loose copy, one transaction per ref: the packed write's
    "prepared" phase and each deletion are decided in sh (no ref changes its value), where Python
    used to start twice per ref. Python starts once, for the packed write's "committed" phase (a
    write of a ref's own value cannot be told there from a move back to it). A real deletion of
    a task branch still goes to Python, and is refused."""
    engine, log, hooks = fast
    repo = engine.config.repo
    for n in range(8):
        engine.create_task(f"many{n}", agents=["dev"])
    for command in (["pack-refs", "--all"], ["gc", "--quiet"]):
        refs = loosen(repo)
        log.unlink(missing_ok=True)
        subprocess.run(["git", *command], cwd=repo, check=True, capture_output=True)
        started = log.read_text().splitlines() if log.exists() else []
        assert len(started) == 1, started
        assert started[0].endswith("reference-transaction committed"), started
        assert not any((repo / ".git" / "refs" / "heads").iterdir())  # all packed
        packed = (repo / ".git" / "packed-refs").read_text()
        assert all(f"{sha} {ref}" in packed for ref, sha in refs.items())
    deleted = subprocess.run(
        ["git", "update-ref", "-d", "refs/taskproto/tasks/many0"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert log.exists() and deleted.returncode != 0, deleted.stderr
    journal = "refs/taskproto/tasks/many0"
    assert Git(repo).run("rev-parse", "--verify", journal).strip() == refs[journal]


def test_pre_push(fast) -> None:  # type: ignore[no-untyped-def]
    engine, log, hooks = fast
    repo = engine.config.repo
    advance(engine, "t1", "IMPLEMENTATION")
    sha = head(repo, "t1")
    mine = f"refs/heads/main {head(repo)} refs/heads/main {ZERO}\n"
    assert both(hooks, log, "pre-push", repo, "origin", "url", stdin=mine) == (0, "", False)
    task = f"refs/heads/t1 {sha} refs/heads/main {ZERO}\n"
    status, err, started = both(hooks, log, "pre-push", repo, "origin", "url", stdin=mine + task)
    assert started and status == 1 and "push refused" in err
    code = engine.config.task_worktree("t1")
    via_head = f"HEAD {sha} refs/heads/main {ZERO}\n"
    status, _, started = both(hooks, log, "pre-push", code, "origin", "url", stdin=via_head)
    assert started and status == 1
    deleting = f"refs/heads/t1 {ZERO} refs/heads/main {sha}\n"
    assert both(hooks, log, "pre-push", repo, "origin", "url", stdin=deleting) == (0, "", False)


def test_a_bare_repository_named_dot_git_goes_to_python(tmp_path: Path) -> None:
    """`git clone --bare URL proj/.git` with worktrees beside it: the root is in the bare folder,
    not in `proj/`, so the shell must not look for tasks in `proj/.taskproto`."""
    seed = tmp_path / "seed"
    seed.mkdir()
    sh(seed, "init", "-q", "--initial-branch=main")
    sh(seed, "commit", "-q", "--allow-empty", "-m", "initial")
    project = tmp_path / "proj"
    project.mkdir()
    sh(project, "clone", "-q", "--bare", str(seed), ".git")
    main_wt = project / "main"
    sh(project / ".git", "worktree", "add", "-q", str(main_wt), "main")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    for args in (("init",), ("task", "create", "t1")):
        done = subprocess.run(
            [sys.executable, "-m", "taskproto", *args], cwd=main_wt, env=env, capture_output=True
        )
        assert done.returncode == 0, done.stderr
    assert (project / ".git" / ".taskproto" / "tasks" / "t1").is_dir()
    code = project / ".git" / ".taskproto" / "tasks" / "t1" / "code"
    hooks = project / ".git" / "hooks"
    log = tmp_path / "no-log"  # installed by `init` with the real interpreter: nothing records
    git_dir = sh(code, "rev-parse", "--absolute-git-dir").stdout.strip()
    for env_extra in ({"GIT_DIR": git_dir}, {}):
        fast = run_hook(hooks, log, "pre-merge-commit", code, (), "", env_extra)
        slow = run_hook(
            hooks,
            log,
            "pre-merge-commit",
            code,
            (),
            "",
            {**env_extra, "TASKPROTO_HOOK_FASTPATH": "0"},
        )
        assert fast[:2] == slow[:2]
        assert fast[0] == 1 and "commit refused" in fast[1]
