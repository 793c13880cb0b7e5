"""The git hooks under any /bin/sh (issue #39): the installed scripts run with bash, dash and
busybox as the `sh` they start with (a link named `sh`, so bash runs in its POSIX mode as it does
as macOS's /bin/sh), and decide alike: a commit on a branch of no task starts no Python, a commit
in a state without commits is refused, and every move of a task branch is recorded."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hookutil import SESSION, sh

from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.hooks.git import install
from taskproto.hooks.git.handlers import GIT_HOOKS
from taskproto.state import tips

SHELLS = {"bash": ["bash"], "dash": ["dash"], "busybox": ["busybox"]}


def as_sh(shell: str, folder: Path) -> Path:
    """`folder/sh`, a link to `shell`: started by that name, bash is in POSIX mode and busybox
    runs its `sh`."""
    found = shutil.which(SHELLS[shell][0])
    if found is None:
        pytest.skip(f"{shell} is not installed (.ci/run installs it)")
    link = folder / "sh"
    link.symlink_to(found)
    return link


@pytest.fixture(params=sorted(SHELLS))
def hooks_under(
    request: pytest.FixtureRequest, engine: Engine, tmp_path: Path
) -> tuple[Engine, Path]:
    """Hooks installed, each starting with the shell under test; a recording interpreter."""
    folder = tmp_path / "shell"
    folder.mkdir()
    shell = as_sh(request.param, folder)
    log = tmp_path / "python-started"
    wrapper = folder / "python"
    wrapper.write_text(f'#!{shell}\necho "$*" >> {log}\nexec {sys.executable} "$@"\n')
    wrapper.chmod(0o755)
    install.install(Git(engine.config.repo), python=str(wrapper))
    hooks = engine.config.repo / ".git" / "hooks"
    for name in GIT_HOOKS:
        script = hooks / name
        if script.exists():
            text = script.read_text()
            assert text.startswith("#!")
            script.write_text(f"#!{shell}\n" + text.split("\n", 1)[1])
    engine.create_task("t1", agents=["a"])
    engine.claim("t1", SESSION)
    return engine, log


def test_the_hooks_decide_alike_under_each_shell(hooks_under: tuple[Engine, Path]) -> None:
    engine, log = hooks_under
    repo = engine.config.repo
    # a branch of no task: the shell answers every hook of the commit, Python never starts
    log.unlink(missing_ok=True)
    (repo / "free.txt").write_text("x\n")
    assert sh(repo, "add", "free.txt").returncode == 0
    done = sh(repo, "commit", "-q", "-m", "free")
    assert done.returncode == 0, done.stderr
    assert not log.exists(), log.read_text()
    # a task's branch in INIT, which allows no commits: refused by Python, one line
    worktree = engine.config.task_worktree("t1")
    (worktree / "w.txt").write_text("x\n")
    assert sh(worktree, "add", "w.txt").returncode == 0
    refused = sh(worktree, "commit", "-q", "-m", "too early")
    assert refused.returncode != 0
    assert "task t1 is in INIT, which does not allow commits" in refused.stderr
    assert log.exists()
    # every move of a task or agent branch is recorded (the committed phase)
    moved = sh(repo, "update-ref", "refs/heads/t1-a", "HEAD", env={"TASKPROTO_INTERNAL": "1"})
    assert moved.returncode == 0, moved.stderr
    head = sh(repo, "rev-parse", "HEAD").stdout.strip()
    assert tips.last(os.fspath(engine.config.task_dir("t1")), "t1-a") == head


def test_gc_prunes_in_the_shell_and_a_lookalike_moves_nothing(
    hooks_under: tuple[Engine, Path], tmp_path: Path
) -> None:
    """Under each shell, `git pack-refs --all --prune` starts Python once (its packed write's
    committed phase), and a git spelled as pack-refs still cannot move a task branch."""
    engine, log = hooks_under
    repo = engine.config.repo
    log.unlink(missing_ok=True)
    done = sh(repo, "pack-refs", "--all", "--prune")
    assert done.returncode == 0, done.stderr
    started = log.read_text().splitlines()
    assert len(started) == 1 and started[0].endswith("reference-transaction committed"), started
    assert not (repo / ".git" / "refs" / "heads" / "t1").exists()  # pruned
    before = sh(repo, "rev-parse", "t1").stdout.strip()
    new = sh(repo, "commit-tree", "-m", "x", "-p", "main", "main^{tree}").stdout.strip()
    lookalike = subprocess.run(
        ["bash", "-c", f"exec -a gitpack-refs git update-ref refs/heads/t1 {new}"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert lookalike.returncode != 0 and "does not allow commits" in lookalike.stderr
    lines = lookalike.stderr.splitlines()  # the refusal, and git's own line: no shell noise
    assert all(line.startswith(("taskproto: ", "fatal: ")) for line in lines), lines
    assert sh(repo, "rev-parse", "t1").stdout.strip() == before


def test_where_sh_is_bash_the_hooks_start_with_dash_or_busybox(tmp_path: Path) -> None:
    """bash as /bin/sh (macOS) takes about twice dash's time per hook run: the installer names a
    fast POSIX shell in the `#!` line where one is installed, and keeps a fast /bin/sh."""
    bash, dash, busybox = (shutil.which(s) for s in ("bash", "dash", "busybox"))
    if bash is None or (dash is None and busybox is None):
        pytest.skip("bash and dash or busybox are needed")
    link = tmp_path / "sh"
    link.symlink_to(bash)
    line = install.shell_line(str(link))
    assert line.endswith(("/dash", "/busybox sh")), line
    assert os.access(line[2:].split()[0], os.X_OK)
    fast = tmp_path / "fast" / "sh"
    fast.parent.mkdir()
    fast.symlink_to(dash or busybox)  # type: ignore[arg-type]
    assert install.shell_line(str(fast)) == f"#!{fast}"
    assert install.render("pre-commit").startswith(install.shell_line().encode() + b"\n")


def test_a_hook_shell_that_is_gone_is_found_and_reinstalled(engine: Engine, tmp_path: Path) -> None:
    """The `#!` shell the hooks were installed with was removed: doctor names it and its fix
    writes them again with a shell that is there."""
    from taskproto.config import load_config
    from taskproto.doctor import run
    from tests.conftest import run_taskproto

    assert run_taskproto("init", cwd=engine.config.repo).code == 0
    engine.create_task("t1", agents=["a"])
    hook = engine.config.repo / ".git" / "hooks" / "reference-transaction"
    text = hook.read_text()
    hook.write_text("#!/nowhere/dash\n" + text.split("\n", 1)[1])
    report = run(load_config(engine.config.repo), ())
    found = [f.message for f in report.findings if f.check == "git-hooks-interpreter-missing"]
    assert found and "shell /nowhere/dash" in found[0]
    from taskproto.hooks.git import repair  # noqa: F401  (registers the reinstall fix)

    fixed = run(load_config(engine.config.repo), (), fix=True)
    assert fixed.healthy, [(f.check, f.message) for f in fixed.findings]
    assert hook.read_text().startswith(install.shell_line() + "\n")
