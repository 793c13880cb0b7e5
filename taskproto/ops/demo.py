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
    _git_init(repo)
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
    report = engine.merge(name, session=SESSION)
    _say(f"taskproto merge {name}")
    for m in report.results:
        _say(f"  {m.agent}: {m.result} ({m.commit[:12]} -> {(m.merge_commit or '?')[:12]})")

    step("Validate and review")
    move("VALIDATION")
    move("REVIEW")
    move("AWAITING_USER_APPROVAL")

    step("The user reviews the diff and approves the exact head commit")
    diff = engine.diff(name)
    _say(f"taskproto diff {name} --stat")
    for f in diff.files:
        _say(f"  {f.status} {f.path}  +{f.added} -{f.removed}")
    task = engine.approve(name, "commit", "user")
    approval = task.checkpoint.commit_approval
    sha = approval.sha if approval and approval.sha else "?"
    _say(f"taskproto approve {name} --commit   (approved {sha[:12]})")
    move("COMPLETE")

    step("Land it on main and clean up")
    landed = engine.land(name, "merge", session="user")
    r = landed.record
    _say(f"taskproto land {name}")
    _say(
        f"main {r.base_before[:12]} -> {r.base_after[:12]} (a merge commit of the approved "
        f"{r.approved[:12]}); state {landed.state}"
    )
    _say(
        "worktrees and branches removed: every commit is on main; the journal is archived "
        "under refs/taskproto/archive/"
        if landed.removed
        else f"kept: {landed.kept}"
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
