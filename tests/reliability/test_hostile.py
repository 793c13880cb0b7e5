"""Hostile names, links, FIFOs, huge and unreadable files, odd roots: refused clearly, nothing
written outside.

Every refusal is checked the way a user sees it: a real `taskproto` process, exit 1,
one line on stderr, no traceback, no hang (a timeout), and the files outside the
root byte for byte as they were.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine

PACKAGE = Path(__file__).resolve().parents[2] / "taskproto"


def tp(
    repo: Path,
    *args: str,
    timeout: float = 30,
    env: dict[str, str] | None = None,
    user: str | None = None,
) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "taskproto", *args]
    if user:
        cmd = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *cmd]
    return subprocess.run(
        cmd,
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={**os.environ, **(env or {})},
    )


def refused(proc: Any, *words: str) -> None:
    """Exit 1 and one line on stderr (a real process, or the in-process `cli` fixture's Result)."""
    code = proc.returncode if hasattr(proc, "returncode") else proc.code
    err = proc.stderr if hasattr(proc, "stderr") else proc.err
    assert code == 1, (code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("taskproto: "), err
    assert "internal error" not in err and "Traceback" not in err
    for word in words:
        assert word in err, err


def snapshot_tree(path: Path) -> dict[str, bytes | str]:
    """Every file and link under `path` (to prove nothing outside the root was touched)."""
    found: dict[str, bytes | str] = {}
    for p in sorted(path.rglob("*")):
        if p.is_symlink():
            found[str(p)] = "-> " + os.readlink(p)
        elif p.is_file():
            found[str(p)] = p.read_bytes()
    return found


@pytest.fixture
def outside(tmp_path: Path) -> Iterator[Path]:
    """A folder outside the repository, with a file a link could aim at."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "victim").write_text("precious\n")
    (folder / "task.json").write_text("{}\n")
    yield folder


HOSTILE_NAMES = [
    "..",
    ".",
    "../escape",
    "a/../../b",
    "/etc/passwd",
    "a/b",
    "a\\b",
    "-rf",
    "x.lock",
    "HEAD",
    "a\x00b",
    "a\nb",
    "~root",
    "$(touch pwned)",
    "`id`",
    "a b",
    "é",
    "x" * 200,
    "",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=range(len(HOSTILE_NAMES)))
def test_hostile_task_agent_and_workflow_names(
    engine: Engine, repo: Path, outside: Path, name: str
) -> None:
    before = snapshot_tree(repo.parent)
    from taskproto.errors import TaskprotoError

    for call in (
        lambda: engine.create_task(name),
        lambda: engine.create_task("ok1", agents=[name]),
        lambda: engine.create_task("ok2", workflow=name),
        lambda: engine.load(name),
        lambda: engine.claim(name, "s"),
    ):
        with pytest.raises(TaskprotoError):
            call()
    assert snapshot_tree(repo.parent) == before
    assert (
        not (repo / ".taskproto" / "tasks").exists()
        or os.listdir(repo / ".taskproto" / "tasks") == []
    )


def test_hostile_names_through_the_cli(cli: Any, repo: Path, outside: Path) -> None:
    before = snapshot_tree(outside)
    for args in (
        ["task", "create", "../../outside/x"],
        ["task", "create", str(outside / "x")],
        ["task", "create", "t1", "--agents", "../x"],
        ["task", "create", "t2", "--workflow", "../x"],
    ):
        refused(cli(*args))
    assert snapshot_tree(outside) == before


def _plant(repo: Path, engine: Engine, outside: Path, what: str) -> Path:
    engine.create_task("t1", agents=["a1"])
    task_dir = engine.config.task_dir("t1")
    if what == "task-folder":
        shutil.rmtree(outside / "t2", ignore_errors=True)
        (outside / "t2").mkdir()
        (outside / "t2" / "task.json").write_bytes(
            engine.config.task_file("t1").read_bytes().replace(b'"t1"', b'"t2"')
        )
        (task_dir.parent / "t2").symlink_to(outside / "t2")
        return outside / "t2"
    if what == "task.json":
        (outside / "task.json").write_bytes(engine.config.task_file("t1").read_bytes())
        engine.config.task_file("t1").unlink()
        engine.config.task_file("t1").symlink_to(outside / "task.json")
    elif what == "status.json":
        status = engine.config.status_file("t1", "a1")
        (outside / "status.json").write_bytes(status.read_bytes())
        status.unlink()
        status.symlink_to(outside / "status.json")
    elif what == "agent-folder":
        agent_dir = engine.config.agent_dir("t1", "a1")
        shutil.copytree(
            agent_dir, outside / "a1", symlinks=True, ignore=shutil.ignore_patterns("code")
        )
        shutil.rmtree(agent_dir / "code", ignore_errors=True)
        shutil.rmtree(agent_dir)
        agent_dir.symlink_to(outside / "a1")
    elif what == "lock":
        (task_dir / "task.json.lock").unlink(missing_ok=True)
        (task_dir / "task.json.lock").symlink_to(outside / "victim")
    return outside


@pytest.mark.parametrize(
    "what", ["task-folder", "task.json", "status.json", "agent-folder", "lock"]
)
def test_links_planted_in_the_tasks_folder_are_never_followed(
    cli: Any, engine: Engine, repo: Path, outside: Path, what: str
) -> None:
    _plant(repo, engine, outside, what)
    before = snapshot_tree(outside)
    name = "t2" if what == "task-folder" else "t1"
    attempts = [
        ("--session", "s", "claim", name),
        ("--session", "s", "interrupt", "record", name, "status?"),
        ("--session", "s", "agent", "set", name, "a1", "--status", "working"),
        ("--session", "s", "fire", name, "classify"),
    ]
    if what in (
        "task-folder",
        "task.json",
    ):  # reads take no lock: a planted lock link does not matter to them
        attempts.append(("task", "show", name))
    for args in attempts:
        proc = cli(*args)
        if what in ("status.json", "agent-folder") and "agent" not in args:
            # task.json itself is fine; what matters is that the link was not written through
            continue
        refused(proc, "link" if what != "lock" else "lock")
    assert snapshot_tree(outside) == before


def test_a_fifo_in_place_of_task_json_does_not_hang(engine: Engine, repo: Path) -> None:
    engine.create_task("t1")
    path = engine.config.task_file("t1")
    path.unlink()
    os.mkfifo(path)  # nobody writes to it: a plain open() would block forever
    for args in (("task", "show", "t1"), ("--session", "s", "claim", "t1")):
        refused(tp(repo, *args, timeout=20), "not a regular file")
    assert path.exists() and not path.is_file()  # left for the user to look at, not replaced


def test_a_100_mb_task_json_is_refused_quickly_without_reading_it(
    engine: Engine, repo: Path
) -> None:
    engine.create_task("t0")
    engine.create_task("t1")
    path = engine.config.task_file("t1")
    with open(path, "r+b") as fh:
        fh.truncate(100 * 1024 * 1024)  # sparse: costs no disk, but a read would allocate 100 MB
    probe = (
        "import resource, sys\nfrom taskproto.cli import main\ncode = main(sys.argv[1:])\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, file=sys.stderr)\n"
        "sys.exit(code)"
    )

    def run(task: str) -> tuple[subprocess.CompletedProcess[str], int, float]:
        start = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-c", probe, "--session", "s", "claim", task],
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        return proc, int(proc.stderr.strip().splitlines()[-1]), time.monotonic() - start

    normal, baseline_mb, baseline_s = run("t0")  # the same command on a normal task: the yardstick
    assert normal.returncode == 0, normal.stderr
    proc, rss_mb, elapsed = run("t1")
    assert proc.returncode == 1 and "larger than any state file" in proc.stderr, proc.stderr
    assert rss_mb < baseline_mb + 50, (
        f"{rss_mb} MB resident against {baseline_mb} MB: the file was read"
    )
    assert elapsed < baseline_s * 3 + 5
    assert path.stat().st_size == 100 * 1024 * 1024  # not replaced


def test_a_root_that_is_a_file_is_refused(cli: Any, repo: Path) -> None:
    (repo / "afile").write_text("not a folder\n")
    (repo / ".taskproto.toml").write_text('root = "afile"\n')
    refused(cli("task", "create", "t1"), "not a folder")
    refused(cli("--root", str(repo / "afile"), "task", "list"), "not a folder")
    assert (repo / "afile").read_text() == "not a folder\n"


def test_a_root_outside_the_repository_receives_every_write(repo: Path, tmp_path: Path) -> None:
    """An outside root is a supported layout (`/workspace`); taskproto writes below it and nowhere
    else."""
    elsewhere = tmp_path / "elsewhere"
    (repo / ".taskproto.toml").write_text('root = "../elsewhere"\n')
    watched = tmp_path / "watched"
    watched.mkdir()
    (watched / "f").write_text("x")
    before = snapshot_tree(watched)
    proc = tp(repo, "task", "create", "t1")
    assert proc.returncode == 0, proc.stderr
    assert (elsewhere / "tasks" / "t1" / "task.json").is_file()
    assert not (repo / ".taskproto").exists()
    assert snapshot_tree(watched) == before


def test_no_shell_anywhere_in_the_package() -> None:
    """No shell keyword argument set to true, os.system or os.popen: arguments always go to a
    program as a list."""
    pattern = re.compile(
        r"shell\s*=\s*True|os\.system\s*\(|os\.popen\s*\(|create_subprocess_shell|"
        r"subprocess\.getoutput|subprocess\.getstatusoutput"
    )
    root = PACKAGE.parent
    proc = subprocess.run(
        ["git", "grep", "-n", "-E", pattern.pattern, "--", "taskproto"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode in (0, 1):  # a git checkout: git grep answered (1 = nothing found)
        assert proc.stdout == "", proc.stdout
    hits = [
        f"{p}:{i}"
        for p in PACKAGE.rglob("*.py")
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert hits == [], hits


# --- as a user who is not root (chmod means nothing to root) ---------------------------

NOBODY = "65534"


def _nobody_runs(env: dict[str, str]) -> str | None:
    """Why `nobody` cannot run this interpreter with taskproto and its packages, or None."""
    proc = subprocess.run(
        ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", sys.executable]
        + ["-c", "import click, pydantic, filelock, taskproto"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env={**os.environ, **env},
    )
    return None if proc.returncode == 0 else (proc.stderr.strip().splitlines() or ["?"])[-1]


def _requirements(name: str) -> list[importlib.metadata.Distribution]:
    """The installed distributions `name` requires, and theirs, and so on (not `name` itself)."""
    from packaging.requirements import Requirement

    found: dict[str, importlib.metadata.Distribution] = {}
    todo = [name]
    while todo:
        dist = importlib.metadata.distribution(todo.pop())
        key = dist.metadata["Name"].lower().replace("_", "-")
        if key in found:
            continue
        found[key] = dist
        for line in dist.requires or []:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return [dist for key, dist in found.items() if key != name]


@pytest.fixture(scope="session")
def nobody_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """What `nobody` needs to run taskproto here. Tests run as root (root ignores chmod), and the
    checkout and the interpreter's packages may be in a folder only root can reach (CI's, under
    /root): then `nobody` runs a copy of taskproto and of the distributions it requires, in a
    folder it can read, on PYTHONPATH."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run a command as another user")
    if _nobody_runs({}) is None:
        yield {}
        return
    base = Path(tempfile.mkdtemp(prefix="taskproto-nobody-pkg-"))
    try:
        shutil.copytree(PACKAGE, base / "taskproto", ignore=shutil.ignore_patterns("__pycache__"))
        for dist in _requirements("taskproto"):
            for file in dist.files or []:
                if file.parts[0] != ".." and "__pycache__" not in file.parts:
                    (base / file).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(Path(str(dist.locate_file(file))), base / file)
        for p in [base, *base.rglob("*")]:
            os.chmod(p, 0o755 if p.is_dir() else 0o644)
        env = {"PYTHONPATH": str(base)}
        problem = _nobody_runs(env)
        if problem is not None:
            pytest.skip(f"user nobody cannot run {sys.executable} with its packages: {problem}")
        yield env
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def nobody_repo(nobody_env: dict[str, str]) -> Iterator[Path]:
    """A repository owned by `nobody` in a folder `nobody` can reach (pytest's tmp is root-only)."""
    from ops import make_repo

    base = Path(tempfile.mkdtemp(prefix="taskproto-nobody-"))
    try:
        os.chmod(base, 0o755)
        repo = make_repo(base / "repo")
        (base / "home").mkdir()
        for p in [base, *base.rglob("*")]:
            os.lchown(p, int(NOBODY), int(NOBODY))
        yield repo
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _as_nobody(repo: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    home = {
        "HOME": str(repo.parent / "home"),
        "XDG_STATE_HOME": str(repo.parent / "home" / ".state"),
    }
    return tp(repo, *args, env={**env, **home}, user=NOBODY)


def test_an_unreadable_task_json_is_refused_clearly(
    nobody_repo: Path, nobody_env: dict[str, str]
) -> None:
    proc = _as_nobody(nobody_repo, nobody_env, "task", "create", "t1")
    assert proc.returncode == 0, proc.stderr
    path = nobody_repo / ".taskproto" / "tasks" / "t1" / "task.json"
    os.chown(path, 0, 0)
    os.chmod(path, 0o600)
    refused(_as_nobody(nobody_repo, nobody_env, "task", "show", "t1"), "permission denied")
    refused(
        _as_nobody(nobody_repo, nobody_env, "--session", "s", "claim", "t1"), "permission denied"
    )


def test_a_read_only_task_folder_refuses_the_write_and_keeps_the_old_state(
    nobody_repo: Path, nobody_env: dict[str, str]
) -> None:
    for args in (
        ("task", "create", "t1"),
        ("--session", "s", "claim", "t1"),
    ):  # the lock file now exists
        proc = _as_nobody(nobody_repo, nobody_env, *args)
        assert proc.returncode == 0, proc.stderr
    task_dir = nobody_repo / ".taskproto" / "tasks" / "t1"
    old = (task_dir / "task.json").read_bytes()
    os.chown(task_dir, 0, 0)
    os.chmod(task_dir, 0o755)  # nobody may read it, not create the temporary file
    refused(
        _as_nobody(nobody_repo, nobody_env, "interrupt", "record", "t1", "status?"),
        "could not write",
        "Permission denied",
    )
    assert (task_dir / "task.json").read_bytes() == old
    assert [p.name for p in task_dir.iterdir() if p.name.startswith(".tmp-")] == []
