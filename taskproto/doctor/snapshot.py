"""Everything doctor looks at, gathered once with a constant number of git processes.

One `git worktree list --porcelain`, one `git for-each-ref` (branches, replacements and journal
refs), and GitPython's one persistent `git cat-file --batch` (each journal head's
task.json and statuses), whatever the number of tasks. The rest is file reads.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from taskproto import plainjson as json
from taskproto.clients.settings import RECORD
from taskproto.config import Config
from taskproto.doctor import reads
from taskproto.engine.tasks import CREATING, read_intent
from taskproto.errors import CorruptState, TaskprotoError, UnsupportedSchema
from taskproto.git.repo import WorktreeInfo
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


def real(path: Path | str) -> str:
    return os.path.realpath(path)


def relative(config: Config, path: Path | str) -> str:
    """A path as a person reads it in a message: relative to the repository when inside it."""
    text, top = os.fspath(path), os.fspath(config.repo)
    return text[len(top) + 1 :] if text.startswith(top + os.sep) else text


class RealPaths:
    """`os.path.realpath`, remembering every folder it resolved: a path under a folder already
    resolved costs one `lstat` (is its last part a link?) instead of one per part, and none for a
    path that a folder listing of this run showed is no link (`plain`). Doctor's detection
    resolves each worktree path several times (7,000 calls at 300 tasks), and nothing changes on
    disk while it runs; repairs use `real`, which remembers nothing."""

    def __init__(self) -> None:
        self.known: dict[str, str] = {}
        self.plain: set[str] = set()  # absolute, normal paths listed as folders that are no links

    def listed(self, folder: str, entries: Sequence[os.DirEntry[str]]) -> None:
        """Remember which of `entries` (os.scandir of `folder`, absolute) are folders, not links.
        The listing knows it from the folder itself (d_type): no system call per entry."""
        for e in entries:
            try:
                if e.is_dir(follow_symlinks=False):
                    self.plain.add(os.path.join(folder, e.name))
            except OSError:
                pass

    def __call__(self, path: Path | str) -> str:
        text = os.fspath(path)
        found = self.known.get(text)
        if found is not None:
            return found
        if _normal(text):
            absolute = text  # what abspath would return
            parent, _, name = text.rpartition(os.sep)
            parent = parent or os.sep
        else:
            absolute = os.path.abspath(text)  # `.` and `//` go; so would `..`, lexically:
            parent, name = os.path.split(absolute)
            if not name or ".." in text.split(os.sep):
                found = os.path.realpath(text)  # `..` resolves after the links before it: git's
                self.known[text] = found
                return found
        if absolute in self.plain:
            link = False
        else:
            try:
                link = stat.S_ISLNK(os.lstat(absolute).st_mode)
            except OSError:
                link = False
        if link:
            found = os.path.realpath(absolute)
        else:
            up = self.known.get(parent)
            found = os.path.join(self(parent) if up is None else up, name)
        self.known[text] = found
        return found

    def exists(self, path: Path | str) -> bool:
        """`os.path.lexists`, answered from the listings when they showed it."""
        text = os.fspath(path)
        return text in self.plain or os.path.lexists(text)


def _normal(text: str) -> bool:
    """An absolute path with no `.`, `..` or empty part: os.path.abspath would return it as is."""
    sep = os.sep
    return (
        text[:1] == sep
        and text[-1:] != sep
        and sep + sep not in text
        and f"{sep}.{sep}" not in text
        and f"{sep}..{sep}" not in text
        and not text.endswith((f"{sep}.", f"{sep}.."))
    )


@dataclass
class AgentView:
    name: str
    status: AgentStatus | None = None
    problem: str | None = None  # "missing" or why status.json is corrupt


@dataclass
class TaskView:
    name: str
    dir: Path
    task: Task | None = None
    problem: str | None = None  # check id of the task.json problem (lock-missing, ...)
    detail: str = ""
    raw_workflow: str | None = None  # the workflow named in a corrupt file, when readable
    raw: bytes | None = None  # task.json's bytes, as read
    agents: dict[str, AgentView] = field(default_factory=dict)
    agent_dirs: list[str] = field(default_factory=list)  # folders under agents/
    tmp_files: list[Path] = field(default_factory=list)
    intent: dict[str, Any] | None = None  # a `task create` that did not finish (creating.json)


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
        if view is not None and view.task is not None and view.raw == data:
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


def _read_task(view: TaskView, path: Path) -> None:
    try:
        data = store.read_bytes(path)
    except FileNotFoundError:
        view.problem, view.detail = "lock-missing", "task.json is missing"
        return
    except TaskprotoError as exc:
        view.problem, view.detail = "lock-unreadable", str(exc)
        return
    view.raw = data
    try:
        view.task = store.parse(Task, path, data, move_aside=False)
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
    if view.task is None:
        return
    for agent in view.task.required_agents:
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
) -> tuple[dict[str, TaskView], list[str]]:
    """Every task folder asked for (all: `scope` None), and the names of all task folders."""
    names = _task_names(config, real)
    known = set(names)
    present = names if scope is None else [n for n in scope if n in known]
    tasks: dict[str, TaskView] = {}
    for i, name in enumerate(present):
        view = TaskView(name, config.task_dir(name))
        _read_folders(view, real)
        _read_task(view, view.dir / TASK)  # config.task_file, built from the folder
        _read_agents(config, view)
        tasks[name] = view
        if progress is not None:
            progress(i + 1, len(present))
    return tasks, names


def take(
    config: Config,
    scope: Sequence[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Snapshot:
    real = RealPaths()
    # git lists the worktrees and refs on the other core while the task folders are read here
    listing = reads.start_worktrees(config.repo)
    try:
        listed = reads.start_refs(
            config.repo, "refs/heads", journal.REF_PREFIX, journal.ARCHIVE_PREFIX, REPLACE
        )
        try:
            tasks, names = _read_tasks(config, scope, progress, real)
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
        known = set(names)
        wanted = (
            list(scope) if scope is not None else names + [j for j in journals if j not in known]
        )
        # One `git cat-file --batch` for every journal's task.json and agent statuses, however
        # many tasks; it runs while the worktree listing is parsed.
        specs: list[tuple[str, str | None]] = []
        for name in (n for n in wanted if n in journals):
            specs.append((name, None))
            found = tasks.get(name)
            if found is not None and found.task is not None:
                specs += [(name, agent) for agent in found.task.required_agents]
        asked = [
            f"{journals[n]}:{journal.TASK_FILE if a is None else journal.status_entry(a)}"
            for n, a in specs
        ]
        batch = reads.start_blobs(config.repo, asked)
        try:
            worktrees = reads.worktrees(listing)
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
            )
            snap.replacements = {
                r[len(REPLACE) :]: sha for r, sha in refs.items() if r.startswith(REPLACE)
            }
            blobs = reads.blobs(batch, asked, config.repo)
        finally:
            if batch is not None:
                batch.wait()
    finally:
        listing.wait()
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
