"""Shared fixtures: real git repositories in tmp_path, the CLI in-process and as a subprocess."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from taskproto.cli import main as cli_main
from taskproto.clients.detect import AGENT_VARIABLES, IGNORE_ANCESTRY, agent_context
from taskproto.config import load_config
from taskproto.engine import Engine
from tests import forkrun
from tests.rewrite_share import rewrite_this_workers_share

_UNDER_AGENT = agent_context({}) is not None  # an agent client among this process's ancestors

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test User",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test User",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--slow",
        action="store_true",
        default=False,
        help="also run tests marked slow, and the heavy suites",
    )
    parser.addoption(
        "--heavy",
        action="store_true",
        default=False,
        help="also run the heavy suites (the days, the real clients, pre-commit and browser, the"
        " remote servers; `-m heavy` alone): CI runs them after the default suite",
    )


# The marks of the suites that start real outside programs end to end: they are heavy too.
HEAVY_MARKS = ("clients", "browser", "precommit_framework")


def pytest_itemcollected(item: pytest.Item) -> None:
    # Marked heavy as it is collected, before `-m` chooses: `-m heavy` chooses these too.
    if any(item.get_closest_marker(mark) is not None for mark in HEAVY_MARKS):
        item.add_marker(pytest.mark.heavy)


def heavy(item: pytest.Item) -> bool:
    return item.get_closest_marker("heavy") is not None


def named_files(config: pytest.Config) -> bool:
    """Whether the command named test files or folders other than the whole `tests` folder
    (`pytest tests/day`): what is named runs, heavy or not."""
    whole = {(config.rootpath / path).resolve() for path in config.getini("testpaths")}
    whole.add(config.rootpath)
    named = [arg.split("::")[0] for arg in config.option.file_or_dir or []]
    return any(Path(config.invocation_params.dir, arg).resolve() not in whole for arg in named)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker more than the cores. The tests wait on git, clients and servers
    they start a good part of the time, so a third worker on two cores keeps them busy: the
    default suite in 363 s with three workers against 425 s with two, one clean clone after the
    other on this 2-core machine (docs/testing.md)."""
    return (os.cpu_count() or 1) + 1


def pytest_sessionstart(session: pytest.Session) -> None:
    # On a fresh clone the workers would each rewrite every test module's asserts (a third of
    # a worker's collection): each rewrites its share into pytest's cache first.
    rewrite_this_workers_share(session.config)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The long tests first, in their order: with `--dist worksteal` (pyproject.toml) the first
    # worker starts them and the others take the short tests from the end of its queue, so that no
    # worker is left running a long test alone at the end (docs/testing.md).
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
    chosen = config.getoption("-m") or ""
    if not (
        config.getoption("--slow")
        or config.getoption("--heavy")
        or any(mark in chosen for mark in ("heavy", *HEAVY_MARKS))  # `-m browser` chooses them
        or named_files(config)
    ):
        # The heavy suites are left out of the default suite (docs/testing.md), not skipped:
        # the summary counts them as deselected. Files or folders named run whole.
        left_out = [item for item in items if heavy(item)]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if not heavy(item)]
    if config.getoption("--slow") or "slow" in chosen:
        return
    skip = pytest.mark.skip(reason="slow suite: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _isolated_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    isolate(monkeypatch, tmp_path_factory.mktemp("home"))


def isolate(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    """Every test's environment (also a module fixture's, made before the test's): `home` as
    HOME, git's identity, no session, no agent client, no terminal session."""
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    for key in (
        "TASKPROTO_SESSION",
        "TASKPROTO_ROOT",
        "TASKPROTO_SESSION_PID",
        "CLAUDE_ENV_FILE",
        "PRE_COMMIT_FROM_REF",
        "PRE_COMMIT_TO_REF",
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        *AGENT_VARIABLES,  # the suite may itself run inside an agent client
    ):
        monkeypatch.delenv(key, raising=False)
    if _UNDER_AGENT:
        # Its processes descend from that client; the ancestry check has tests of its own.
        monkeypatch.setenv(IGNORE_ANCESTRY, "1")
    # A suite run from a terminal must not give its commands that terminal's session; the tests of
    # terminal sessions (tests/clients/test_terminal_sessions.py) turn it back on in their shells.
    monkeypatch.setenv("TASKPROTO_TERMINAL_SESSION", "0")


def git(cwd: Path, *args: str, env: dict[str, str] | None = None, input: str | None = None) -> str:
    """git's stdout (stripped); an AssertionError with its stderr when it fails."""
    proc = subprocess.run(
        ["git", *args], cwd=cwd, env=env, input=input, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr}")
    return proc.stdout.strip()


def _init_repo(path: Path, env: dict[str, str] | None = None) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "--quiet", "--initial-branch=main", env=env)
    git(path, "config", "commit.gpgsign", "false", env=env)
    (path / "README.md").write_text("# test repo\n")
    git(path, "add", "README.md", env=env)
    git(path, "commit", "--quiet", "-m", "initial", env=env)
    return path


_TEMPLATE: list[Path] = []  # this worker's repository made by `_init_repo`, once


def _template_repo() -> Path:
    """The repository `_init_repo` makes, made once per worker process with git's identity
    (GIT_ENV) and no global or system configuration, in a folder removed at exit."""
    if not _TEMPLATE:
        folder = Path(tempfile.mkdtemp(prefix="taskproto-test-repo-"))
        atexit.register(shutil.rmtree, folder, True)
        env = {k: v for k, v in os.environ.items() if not _shapes_a_repo(k)}
        env.update(GIT_ENV, HOME=str(folder), XDG_CONFIG_HOME=str(folder / ".config"))
        _TEMPLATE.append(_init_repo(folder / "repo", env))
    return _TEMPLATE[0]


_REPO_VARIABLES = {
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_TEMPLATE_DIR",
    "GIT_DEFAULT_HASH",
    "GIT_NAMESPACE",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
}


def _shapes_a_repo(variable: str) -> bool:
    """An environment variable that can change what `git init` and `git commit` make."""
    return variable in _REPO_VARIABLES or variable.startswith(
        ("GIT_AUTHOR_", "GIT_COMMITTER_", "GIT_CONFIG")
    )


def _plain_git_environment() -> bool:
    """True when git here would make the template's repository: the identity is GIT_ENV's, no
    other variable that shapes a repository is set, and there is no global git configuration (a
    test may set any)."""
    git_vars = {k: v for k, v in os.environ.items() if _shapes_a_repo(k)}
    if git_vars != GIT_ENV:
        return False
    home = Path(os.environ.get("HOME", "/nonexistent"))
    config_home = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    return not (home / ".gitconfig").exists() and not (config_home / "git" / "config").exists()


def make_repo(path: Path) -> Path:
    """A repository on `main` with one commit (README.md). A copy of the worker's template where
    nothing in the environment could make `git init` and `git commit` differ (half the cost of
    the four git processes over a suite of thousands of repositories); made with git otherwise."""
    if (path.exists() and any(path.iterdir())) or not _plain_git_environment():
        return _init_repo(path)
    shutil.copytree(_template_repo(), path, symlinks=True, dirs_exist_ok=True)
    return path


def commit_file(worktree: Path, name: str, content: str = "x\n", message: str | None = None) -> str:
    (worktree / name).write_text(content)
    git(worktree, "add", name)
    git(worktree, "commit", "--quiet", "-m", message or f"add {name}")
    return git(worktree, "rev-parse", "HEAD")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo")


@pytest.fixture
def engine(repo: Path) -> Engine:
    return Engine(load_config(repo))


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[object]:
    """Run the CLI in-process in `repo` (or cwd=...) and return exit code, stdout, stderr."""

    def run(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> Result:
        capsys.readouterr()
        with monkeypatch.context() as m:
            m.chdir(cwd or repo)
            for k, v in (env or {}).items():
                m.setenv(k, v)
            code = cli_main(list(args))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    yield run


def git_recorder(folder: Path, log: Path) -> dict[str, str]:
    """A `git` first on PATH (in `folder`) that appends each call's arguments to `log`, then runs
    the real git; returns the environment's PATH to use it."""
    folder.mkdir(parents=True, exist_ok=True)
    shim = folder / "git"
    shim.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{shutil.which("git")}" "$@"\n')
    shim.chmod(0o755)
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


def run_taskproto(
    *args: str,
    cwd: Path,
    env: dict[str, str] | None = None,
    input: str | None = None,
    timeout: float = 60,
) -> Result:
    """Run the CLI as a process of its own (the way hooks and racing sessions run it), forked from
    an interpreter that has imported taskproto (tests/forkrun.py): the process is real, only
    Python's start and the imports are spared. A test of the start itself (the imports, the quick
    path's) starts a new interpreter, as tests/cli/test_quick_read_path.py does."""
    full_env = {**os.environ, **(env or {})}
    done = forkrun.run(list(args), cwd, full_env, input=input, timeout=timeout)
    return Result(done.returncode, done.stdout, done.stderr)
