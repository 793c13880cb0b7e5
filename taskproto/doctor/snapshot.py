"""Everything doctor looks at, gathered once with a constant number of git processes.

One `git for-each-ref` (branches, replacements and journal refs) and one `git cat-file --batch`
(each journal head's task.json and statuses), whatever the number of tasks. The rest is file
reads, the worktrees' registrations too (git/worktrees.py, as `git worktree list` lists them).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from taskproto import plainjson as json
from taskproto.clients.settings import RECORD
from taskproto.config import Config
from taskproto.doctor import known, reads
from taskproto.doctor.realpaths import RealPaths as RealPaths
from taskproto.doctor.realpaths import real as real
from taskproto.engine.tasks import CREATING, read_intent
from taskproto.errors import CorruptState, TaskprotoError, UnsupportedSchema
from taskproto.git.worktrees import WorktreeInfo
from taskproto.layout import GIT_HOOKS_RECORD
from taskproto.names import check_name
from taskproto.state import journal, store
from taskproto.state.models import AgentStatus, Task, utcnow
from taskproto.state.record import RecordError

HEADS = "refs/heads/"
REPLACE = "refs/replace/"
# the names layout.py gives a task's files and worktree folders, for building them under a task
# folder already made (a Path from a whole path costs twice as much; tests check they agree)
TASK, STATUS, CODE = "task.json", "status.json", "code"
TMP_RE = re.compile(r"\.tmp-.+\.(\d+)\.[0-9a-f]+\Z")


def relative(config: Config, path: Path | str) -> str:
    """A path as a person reads it in a message: relative to the repository when inside it."""
    text, top = os.fspath(path), os.fspath(config.repo)
    return text[len(top) + 1 :] if text.startswith(top + os.sep) else text


@dataclass
class AgentView:
    name: str
    status: AgentStatus | None = None
    problem: str | None = None  # "missing" or why status.json is corrupt


@dataclass
class TaskView:
    name: str
    dir: Path
    parsed: Task | None = None  # the Task, once built (`task`)
    problem: str | None = None  # check id of the task.json problem (lock-missing, ...)
    detail: str = ""
    raw_workflow: str | None = None  # the workflow named in a corrupt file, when readable
    raw: bytes | None = None  # task.json's bytes, as read
    agents: dict[str, AgentView] = field(default_factory=dict)
    agent_dirs: list[str] = field(default_factory=list)  # folders under agents/
    tmp_files: list[Path] = field(default_factory=list)
    intent: dict[str, Any] | None = None  # a `task create` that did not finish (creating.json)
    # what the checks of the task's surroundings read of task.json (None: it is not a valid task)
    head: known.TaskHead | None = None
    digest: str | None = None  # the SHA-256 of `raw`
    head_json: dict[str, Any] | None = None  # the head as it is kept, when judged by this run
    kept: bool = False  # an earlier run judged these very bytes (doctor/known.py): not again
    judged: bool = False  # this run judged its content and found nothing (what a run keeps)

    @property
    def task(self) -> Task | None:
        """The whole Task: built when first asked for, from bytes that an earlier run found valid
        (`kept`); None when task.json is not a valid task."""
        if self.parsed is None and self.head is not None and self.raw is not None:
            try:
                self.parsed = store.parse(Task, self.dir / TASK, self.raw, move_aside=False)
            except (CorruptState, UnsupportedSchema):
                return None  # kept wrongly (a hand in the kept file): the checks that need it pass
        return self.parsed


@dataclass
class Snapshot:
    config: Config
    now: datetime
    tasks: dict[str, TaskView]
    worktrees: list[WorktreeInfo]
    branches: dict[str, str]  # short name -> sha
    journals: dict[str, str]  # task -> journal head sha
    archived: set[str]  # tasks with an archived journal (removed)
    journal_tasks: dict[str, bytes | None]  # task -> the journal head's task.json
    scope: list[str] | None  # the tasks asked for, None: all (and repository-wide checks)
    journal_statuses: dict[str, dict[str, bytes | None]] = field(
        default_factory=dict
    )  # task -> agent -> blob
    hooks_dir: str | None = None  # where git runs hooks now (only read once init recorded hooks)
    hooks_path: str | None = None  # core.hooksPath as set
    # for the checks (the disk does not change while they run); take() fills it as it lists
    real: RealPaths = field(default_factory=RealPaths)
    agent_hooks: dict[str, Any] | None = None  # <root>/agent-hooks.json (init's client hooks)
    replacements: dict[str, str] = field(default_factory=dict)  # refs/replace/<sha> -> its object
    kept: known.Known = field(default_factory=lambda: known.Known({}))  # what earlier runs judged
    archive_heads: dict[str, str] = field(default_factory=dict)  # task -> its last archive's sha

    def __post_init__(self) -> None:
        # task -> (agent or None, worktree path, branch) of each worktree it should have, filled
        # by checks_git.expected on first use (several checks walk them)
        self.rows: dict[str, list[tuple[str | None, Path, str]]] = {}
        # the journal refs' lock folder and its names, listed once (checks.check_journal_lock)
        self.ref_locks: tuple[Path, set[str] | None] | None = None
        self.wt_by_path: dict[str, WorktreeInfo] = {self.real(w.path): w for w in self.worktrees}
        self.wt_by_branch: dict[str, WorktreeInfo] = {
            w.branch: w for w in self.worktrees if w.branch
        }

    def journal_status(self, name: str, agent: str) -> AgentStatus | None:
        data = self.journal_statuses.get(name, {}).get(agent)
        if data is None:
            return None
        try:
            return AgentStatus.model_validate_json(data)
        except RecordError:
            return None

    def journal_task(self, name: str) -> Task | None:
        data = self.journal_tasks.get(name)
        if data is None:
            return None
        view = self.tasks.get(name)
        if view is not None and view.head is not None and view.raw == data:
            return view.task  # the journal holds the very bytes of task.json: read once
        try:
            return Task.model_validate_json(data)
        except RecordError:
            return None


def _task_names(config: Config, real: RealPaths) -> list[str]:
    folder = os.fspath(config.tasks_dir)
    entries = _entries(folder)
    if entries is None:
        return []
    real.listed(folder, entries)
    names = []
    for entry in sorted(entries, key=lambda e: e.name):
        try:
            check_name("task", entry.name)
        except TaskprotoError:
            continue
        if _is_dir(entry):
            names.append(entry.name)
    return names


def _read_task(view: TaskView, path: Path, kept: known.Known) -> None:
    try:
        data = store.read_bytes(path)
    except FileNotFoundError:
        view.problem, view.detail = "lock-missing", "task.json is missing"
        return
    except TaskprotoError as exc:
        view.problem, view.detail = "lock-unreadable", str(exc)
        return
    view.raw, view.digest = data, known.key(data)
    head = kept.head(view.digest)
    if head is not None:  # these bytes were judged by an earlier run: their head is enough
        view.head, view.kept = head, True
        return
    try:
        view.parsed, raw = store.parse_raw(Task, path, data, move_aside=False)
        view.head, view.head_json = known.head_of(view.parsed), known.head_json(raw)
    except UnsupportedSchema as exc:
        view.problem, view.detail = "lock-schema-too-new", str(exc)
    except CorruptState as exc:
        view.problem = (
            "lock-invalid-json"
            if exc.problem.startswith("not valid JSON")
            else "lock-schema-invalid"
        )
        view.detail = exc.problem
        try:
            raw = json.loads(data)
            if isinstance(raw, dict) and isinstance(raw.get("workflow"), str):
                view.raw_workflow = raw["workflow"]
        except ValueError:
            pass


def _entries(folder: str) -> list[os.DirEntry[str]] | None:
    """The entries of `folder`, or None when it is not a folder (gone, or a file)."""
    try:
        with os.scandir(folder) as it:
            return list(it)
    except (FileNotFoundError, NotADirectoryError):
        return None


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()  # follows a link, as Path.is_dir does
    except OSError:
        return False


def _tmp(folder: str, entries: list[os.DirEntry[str]] | None) -> list[Path]:
    if entries is None:
        return []
    return [Path(folder, e.name) for e in entries if e.name.startswith(store.TMP_PREFIX)]


def _read_folders(view: TaskView, real: RealPaths) -> None:
    """One listing of the task folder and of each folder under agents/: the create intent (only
    read when its file is there), the agents' folders, the leftover temp files; what is a folder
    and no link in them spares RealPaths its lstat."""
    folder = os.fspath(view.dir)
    entries = _entries(folder)
    if entries is None or any(e.name == CREATING for e in entries):
        view.intent = read_intent(view.dir)
    if entries is None:
        return
    real.listed(folder, entries)
    view.tmp_files = _tmp(folder, entries)
    if not any(e.name == "agents" for e in entries):
        return  # no agents folder: not listed again to be told so
    agents = os.path.join(folder, "agents")
    listed = _entries(agents)
    if listed is None:
        return
    real.listed(agents, listed)
    view.agent_dirs = sorted(e.name for e in listed if _is_dir(e))
    for agent in view.agent_dirs:
        path = os.path.join(agents, agent)
        inside = _entries(path)
        if inside is not None:
            real.listed(path, inside)
            view.tmp_files += _tmp(path, inside)


def _read_agents(config: Config, view: TaskView) -> None:
    if view.head is None:
        return
    for agent in view.head.required_agents:
        av = AgentView(agent)
        path = view.dir.joinpath(
            "agents", agent, STATUS
        )  # config.status_file, built from the folder
        try:
            av.status = store.load_status(path)
        except FileNotFoundError:
            av.problem = "missing"
        except UnsupportedSchema as exc:
            av.problem = str(exc)
        except (CorruptState, TaskprotoError) as exc:
            av.problem = getattr(exc, "problem", str(exc))
        view.agents[agent] = av


def _read_tasks(
    config: Config,
    scope: Sequence[str] | None,
    progress: Callable[[int, int], None] | None,
    real: RealPaths,
    kept: known.Known,
) -> tuple[dict[str, TaskView], list[str]]:
    """Every task folder asked for (all: `scope` None), and the names of all task folders."""
    names = _task_names(config, real)
    folders = set(names)
    present = names if scope is None else [n for n in scope if n in folders]
    tasks: dict[str, TaskView] = {}
    folder = config.tasks_dir  # a child of it per task: one Path parsed, not one per task
    for i, name in enumerate(present):
        view = TaskView(name, folder / name)  # config.task_dir(name)
        _read_folders(view, real)
        _read_task(view, view.dir / TASK, kept)  # config.task_file, built from the folder
        _read_agents(config, view)
        tasks[name] = view
        if progress is not None:
            progress(i + 1, len(present))
    return tasks, names


def take(
    config: Config,
    scope: Sequence[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    full: bool = False,
) -> Snapshot:
    """What doctor looks at; `full`: every task.json judged again, nothing taken from earlier
    runs (doctor/known.py)."""
    real = RealPaths()
    kept = known.Known({}) if full else known.Known.read(config)
    # git lists the refs on the other core while the task folders are read here
    listed = reads.start_refs(
        config.repo, "refs/heads", journal.REF_PREFIX, journal.ARCHIVE_PREFIX, REPLACE
    )
    try:
        tasks, names = _read_tasks(config, scope, progress, real, kept)
        refs = reads.refs(listed)
    finally:
        listed.wait()
    branches = {r[len(HEADS) :]: sha for r, sha in refs.items() if r.startswith(HEADS)}
    journals = {
        r[len(journal.REF_PREFIX) :]: sha
        for r, sha in refs.items()
        if r.startswith(journal.REF_PREFIX)
    }
    archive_heads = {  # archive refs are named by time: the last one wins
        r[len(journal.ARCHIVE_PREFIX) :].split("/")[0]: refs[r]
        for r in sorted(refs)
        if r.startswith(journal.ARCHIVE_PREFIX)
    }
    archived = set(archive_heads)
    folders = set(names)
    wanted = list(scope) if scope is not None else names + [j for j in journals if j not in folders]
    # One `git cat-file --batch` for every journal's task.json and agent statuses, however
    # many tasks; it runs while the worktrees are read from their files.
    specs: list[tuple[str, str | None]] = []
    for name in (n for n in wanted if n in journals):
        specs.append((name, None))
        found = tasks.get(name)
        if found is not None and found.head is not None:
            specs += [(name, agent) for agent in found.head.required_agents]
    asked = [
        f"{journals[n]}:{journal.TASK_FILE if a is None else journal.status_entry(a)}"
        for n, a in specs
    ]
    batch = reads.start_blobs(config.repo, asked)
    try:
        worktrees = reads.worktrees(config.repo, refs)
        hooks_dir, hooks_path = _hooks(config) if scope is None else (None, None)
        snap = Snapshot(
            config,
            utcnow(),
            tasks,
            worktrees,
            branches,
            journals,
            archived,
            {},
            list(scope) if scope is not None else None,
            {},
            hooks_dir,
            hooks_path,
            real,
            archive_heads=archive_heads,
            kept=kept,
        )
        snap.replacements = {
            r[len(REPLACE) :]: sha for r, sha in refs.items() if r.startswith(REPLACE)
        }
        blobs = reads.blobs(batch, asked, config.repo)
    finally:
        if batch is not None:
            batch.wait()
    if scope is None:
        snap.agent_hooks = _json_file(config.root / RECORD)
    for (name, agent), blob in zip(specs, blobs, strict=True):
        if agent is None:
            snap.journal_tasks[name] = blob
        else:
            snap.journal_statuses.setdefault(name, {})[agent] = blob
    return snap


def _json_file(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _hooks(config: Config) -> tuple[str | None, str | None]:
    """Where git runs hooks now, and core.hooksPath: two git processes, only once `taskproto init`
    recorded an installation (`<root>/git-hooks.json`)."""
    if not (config.root / GIT_HOOKS_RECORD).is_file():
        return None, None
    from taskproto.errors import GitError

    try:
        folder = reads.text(
            config.repo, "rev-parse", "--path-format=absolute", "--git-path", "hooks"
        ).strip()
    except GitError:
        return None, None
    try:
        setting = reads.text(config.repo, "config", "--get", "core.hooksPath").strip() or None
    except GitError:
        setting = None
    return folder, setting
