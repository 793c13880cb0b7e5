"""`taskproto demo`: one task, two agents, the whole task-protocol workflow, in a throwaway repo."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import click

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
from taskproto.git.command import Git
from taskproto.state.models import AgentState

SESSION = "demo-session-1"


def _step(n: int, title: str) -> None:
    click.echo()
    click.secho(f"[{n:>2}] {title}", bold=True)


def _say(text: str) -> None:
    click.echo(f"     {text}")


def _git_init(repo: Path) -> Git:
    git = Git(repo)
    git.run("init", "--quiet", "--initial-branch=main")
    for key, value in (
        ("user.name", "Demo User"),
        ("user.email", "demo@example.invalid"),
        ("commit.gpgsign", "false"),
    ):
        git.run("config", key, value)
    (repo / "README.md").write_text("# demo\n", encoding="utf-8")
    git.run("add", "README.md")
    git.run("commit", "--quiet", "-m", "Initial commit")
    return git


def _commit(worktree: Path, filename: str, content: str, message: str) -> str:
    git = Git(worktree)
    (worktree / filename).write_text(content, encoding="utf-8")
    git.run("add", filename)
    git.run("commit", "--quiet", "-m", message)
    return git.run("rev-parse", "--short", "HEAD").strip()


def run(directory: str | None, keep: bool) -> None:
    temp = directory is None
    repo = (
        Path(directory).absolute()
        if directory
        else Path(tempfile.mkdtemp(prefix="taskproto-demo-"))
    )
    repo.mkdir(parents=True, exist_ok=True)
    if any(repo.iterdir()):
        raise TaskprotoError(f"{repo} is not empty; pass an empty or new folder to --dir")
    try:
        _walk(repo)
    finally:
        if temp and not keep:
            shutil.rmtree(repo, ignore_errors=True)
            click.echo(f"\n(removed the demo repository {repo}; pass --keep to look around)")
        else:
            click.echo(f"\nThe demo repository is at {repo}")


def _walk(repo: Path) -> None:
    git = _git_init(repo)
    click.secho("taskproto demo: one task, two agents, the task-protocol workflow", bold=True)
    _say(f"repository: {repo} (branch main, one commit)")
    engine = Engine(load_config(repo))
    name, agents = "add-greeting", ["architect", "engineer"]
    n = 0

    def step(title: str) -> int:
        nonlocal n
        n += 1
        _step(n, title)
        return n

    def move(target: str) -> None:
        before = engine.load(name).state
        task = engine.fire(name, target=target, session=SESSION)
        _say(f"{before} -> {task.state}")

    step("Create the task")
    task = engine.create_task(name, agents, description="Add a greeting module", session=SESSION)
    _say(f"taskproto task create {name} --agents {','.join(agents)}")
    _say(f"branch {name}, worktree {engine.config.task_worktree(name).relative_to(repo)}")
    for a in agents:
        _say(
            f"branch {name}-{a}, worktree {engine.config.agent_worktree(name, a).relative_to(repo)}"
        )
    _say(f"state {task.state}, journal refs/taskproto/tasks/{name}")

    step("Claim it for this session")
    result = engine.claim(name, SESSION)
    _say(f"taskproto claim {name}   (session {SESSION}): {result.outcome}")
    try:
        engine.claim(name, "another-session")
    except TaskprotoError as exc:
        _say(f"a second session tries too and is refused:\n       {exc}")

    step("Classify, gather requirements, synthesise a plan")
    for target in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
        move(target)

    step("Try to start implementing before the plan is approved")
    before = (engine.config.task_file(name)).read_bytes()
    try:
        engine.fire(name, target="IMPLEMENTATION", session=SESSION)
    except TaskprotoError as exc:
        _say(f"refused: {exc}")
    unchanged = engine.config.task_file(name).read_bytes() == before
    _say(f"task.json unchanged: {unchanged}")

    step("The user approves the plan")
    engine.approve(name, "plan", "user")
    _say(f"taskproto approve {name} --plan")
    move("IMPLEMENTATION")

    step("Agents work on their own branches")
    for a, (fname, text) in zip(
        agents,
        [
            ("DESIGN.md", "# Greeting design\n"),
            ("greeting.py", "def hello():\n    return 'hello'\n"),
        ],
        strict=True,
    ):
        engine.set_agent_status(name, a, AgentState.WORKING, session=SESSION)
        sha = _commit(engine.config.agent_worktree(name, a), fname, text, f"{a}: add {fname}")
        engine.set_agent_status(name, a, AgentState.COMPLETE, session=SESSION)
        _say(f"{a}: committed {fname} ({sha}) on {name}-{a}, status COMPLETE")
    task_git = Git(engine.config.task_worktree(name))
    for a in agents:
        task_git.run("merge", "--quiet", "--no-edit", f"{name}-{a}")
    _say(f"merged both agent branches into {name}")

    step("Validate and review")
    move("VALIDATION")
    move("REVIEW")
    move("AWAITING_USER_APPROVAL")

    step("The user approves the exact head commit")
    head = engine.branch_head(name)
    engine.approve(name, "commit", "user")
    _say(f"taskproto approve {name} --commit   (approved {head[:12] if head else '?'})")
    move("COMPLETE")

    step("Merge and clean up")
    git.run("merge", "--quiet", "--no-edit", name)
    _say(f"merged {name} into main")
    move("CLEANUP")
    engine.release(name, SESSION)
    plan = engine.remove_task(name)
    _say(
        f"taskproto task remove {name}: removed {len(plan.worktrees)} worktrees and branches "
        f"{', '.join(plan.branches)}"
    )
    _say(
        "nothing was lost: every commit is on main; the journal is archived under "
        "refs/taskproto/archive/"
    )

    step("The transition log, read back from the journal in git")
    from taskproto.state import journal

    ref = journal.latest_archive(engine.repo, name)
    data: dict[str, Any] = journal.task_json_at(engine.repo, ref) if ref else {}  # type: ignore[assignment]
    for e in data.get("transition_log", []):
        frm = e.get("from") or "-"
        click.echo(
            f"     {e['time'][11:19]}  {e['kind']:<10} {frm:>22} -> {e['to']:<22} {e['trigger']}"
        )
