"""What every agent-client hook needs, stdlib only: the payload, the repository, the tasks, the client pid.

This module is on the hot path (every tool call), so it imports nothing beyond
`json` and `os`, reads task.json with `json` (not pydantic) and finds the
repository from git's own files without starting git.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False  # not `from typing`: importing typing costs a hot hook a measurable share
if TYPE_CHECKING:
    from typing import Any

SHELLS = {"sh", "dash", "bash", "zsh", "ash", "ksh", "fish", "busybox"}
HOOK_CONTEXT_OPEN = "<hook_context>"
HOOK_CONTEXT_CLOSE = "</hook_context>"
DEFAULT_ROOT = ".taskproto"
MAX_TASK_FILE = 16 * 1024 * 1024


class Payload:
    """The fields of a client's hook JSON that taskproto reads; anything odd becomes a warning."""

    def __init__(self, raw: bytes) -> None:
        self.warnings: list[str] = []
        data: Any = None
        try:
            data = json.loads(raw.decode("utf-8", "replace")) if raw.strip() else None
        except ValueError as exc:
            self.warnings.append(f"hook input is not JSON ({exc})")
        if data is not None and not isinstance(data, dict):
            self.warnings.append("hook input is not a JSON object")
            data = None
        self.valid = isinstance(data, dict)
        self.data: dict[str, Any] = data if isinstance(data, dict) else {}
        self.session = self.text("session_id")
        self.cwd = self.text("cwd")
        self.source = self.text("source")
        self.tool_name = self.text("tool_name")
        tool_input = self.data.get("tool_input")
        self.tool_input: dict[str, Any] = tool_input if isinstance(tool_input, dict) else {}

    def text(self, key: str) -> str:
        value = self.data.get(key)
        return value if isinstance(value, str) else ""

    @property
    def prompt(self) -> str:
        return strip_hook_context(self.text("prompt"))


def strip_hook_context(prompt: str) -> str:
    """Gemini prepends SessionStart's context as `<hook_context>...</hook_context>`: not the user's words."""
    text = prompt.lstrip()
    while text.startswith(HOOK_CONTEXT_OPEN):
        end = text.find(HOOK_CONTEXT_CLOSE)
        if end < 0:
            break
        text = text[end + len(HOOK_CONTEXT_CLOSE) :].lstrip()
    return text


# --- the client process ------------------------------------------------------


def _stat(pid: int) -> tuple[str, int] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    head, _, tail = data.rpartition(b")")
    comm = head.partition(b"(")[2].decode("utf-8", "replace")
    try:
        return comm, int(tail.split()[1])
    except (IndexError, ValueError):
        return None


def _exe_name(pid: int, comm: str) -> str:
    try:
        return os.path.basename(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return comm


def client_pid(env: dict[str, str], start: int | None = None) -> int | None:
    """The long-lived client process: walk up from our parent, skipping shells.

    Claude Code names itself in CLAUDE_PID; Codex and Gemini start hooks as
    children of the client process itself. Never our own pid: we live for
    milliseconds.
    """
    named = env.get("CLAUDE_PID", "")
    if named.isdigit() and int(named) > 1 and os.path.exists(f"/proc/{named}"):
        return int(named)
    pid = start if start is not None else os.getppid()
    for _ in range(16):
        if pid <= 1:
            return None
        info = _stat(pid)
        if info is None:
            return pid if pid > 1 else None  # no /proc: the parent is the best we know
        comm, parent = info
        if comm not in SHELLS and _exe_name(pid, comm) not in SHELLS:
            return pid
        pid = parent
    return None


# --- the repository and taskproto's root --------------------------------------


class Layout:
    """The main worktree and taskproto's root around a folder (absolute paths)."""

    def __init__(self, main: str, root: str) -> None:
        self.main = main
        self.root = root
        self.tasks = os.path.join(root, "tasks")

    def task_file(self, task: str) -> str:
        return os.path.join(self.tasks, task, "task.json")

    def task_worktree(self, task: str) -> str:
        return os.path.join(self.tasks, task, "code")

    def agent_worktree(self, task: str, agent: str) -> str:
        return os.path.join(self.tasks, task, "agents", agent, "code")

    def where(self, path: str) -> tuple[str, str | None, str | None]:
        """Classify an absolute path: ("worktree", task, agent|None), ("state", task|None, None)
        for taskproto's own files under the root, or ("outside", None, None)."""
        if not inside(path, self.root):
            return "outside", None, None
        rel = os.path.relpath(path, self.tasks)
        parts = rel.split(os.sep)
        if rel == "." or parts[0] == "..":
            return "state", None, None  # the root itself, its cache, locks, ...
        task = parts[0]
        if len(parts) >= 2 and parts[1] == "code":
            return "worktree", task, None
        if len(parts) >= 4 and parts[1] == "agents" and parts[3] == "code":
            return "worktree", task, parts[2]
        return "state", task, None

    def worktree_of(self, task: str, agent: str | None) -> str:
        return self.agent_worktree(task, agent) if agent else self.task_worktree(task)


def inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _read_small(path: str, limit: int = 65536) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read(limit)
    except OSError:
        return None


def _main_worktree(start: str) -> str | None:
    here = start
    while True:
        dot_git = os.path.join(here, ".git")
        if os.path.isdir(dot_git):
            return here
        if os.path.isfile(dot_git):
            data = _read_small(dot_git) or b""
            if not data.startswith(b"gitdir:"):
                return None
            git_dir = data[7:].strip().decode("utf-8", "replace")
            git_dir = os.path.normpath(os.path.join(here, git_dir))
            common = _read_small(os.path.join(git_dir, "commondir"))
            if common is None:
                return here  # a separate git dir, not a linked worktree
            common_dir = os.path.normpath(
                os.path.join(git_dir, common.strip().decode("utf-8", "replace"))
            )
            return os.path.dirname(common_dir)
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def _configured_root(main: str) -> str | None:
    """The `root` setting, read the way config.load_config reads it (tomllib only if a file names a root)."""
    from taskproto.git.files import SettingsError, read_settings

    try:
        root = read_settings(main, need=(b"root",)).get("root")
    except SettingsError:
        return None  # a broken settings file must not block the user's tool call
    return root if isinstance(root, str) else None


def find_layout(cwd: str, env: dict[str, str]) -> Layout | None:
    """The layout around `cwd`, or None when cwd is in no git repository."""
    if not cwd or not os.path.isabs(cwd):
        return None
    main = _main_worktree(os.path.normpath(cwd))
    if main is None:
        return None
    root = env.get("TASKPROTO_ROOT") or _configured_root(main) or DEFAULT_ROOT
    if not os.path.isabs(root):
        root = os.path.join(main, root)
    return Layout(main, os.path.normpath(root))


# --- tasks, read with json ----------------------------------------------------


class TaskView:
    """The few fields of a task.json the hooks decide on; `error` is set when it is unreadable."""

    def __init__(self, name: str, data: dict[str, Any] | None, error: str | None = None) -> None:
        self.name = name
        self.error = error
        data = data or {}
        self.state = data.get("state") if isinstance(data.get("state"), str) else None
        self.workflow = data.get("workflow") if isinstance(data.get("workflow"), str) else None
        owner = data.get("owner")
        self.owner: dict[str, Any] | None = owner if isinstance(owner, dict) else None
        if self.error is None and (self.state is None or self.workflow is None):
            self.error = "task.json has no state or workflow"

    @property
    def owner_session(self) -> str | None:
        value = self.owner.get("session") if self.owner else None
        return value if isinstance(value, str) else None


def read_task(layout: Layout, name: str) -> TaskView:
    path = layout.task_file(name)
    try:
        st = os.lstat(path)
        if not os.path.isfile(path) or os.path.islink(path) or st.st_size > MAX_TASK_FILE:
            return TaskView(name, None, f"{path} is not a regular file taskproto wrote")
        with open(path, "rb") as fh:
            data = json.loads(fh.read())
    except FileNotFoundError:
        return TaskView(name, None, f"{path} is missing")
    except (OSError, ValueError) as exc:
        return TaskView(name, None, f"{path} is not valid JSON ({exc})")
    if not isinstance(data, dict):
        return TaskView(name, None, f"{path} is not a JSON object")
    return TaskView(name, data)


def task_names(layout: Layout) -> list[str]:
    try:
        entries = sorted(os.listdir(layout.tasks))
    except OSError:
        return []
    return [
        e for e in entries if not e.startswith(".") and os.path.isdir(os.path.join(layout.tasks, e))
    ]


def owned_task(layout: Layout, session: str) -> TaskView | None:
    """The task this session owns. Only files that mention the session id are parsed."""
    if not session:
        return None
    needle = json.dumps(session).encode()
    for name in task_names(layout):
        path = layout.task_file(name)
        data = _read_small(path, MAX_TASK_FILE)
        if data is None or needle not in data:
            continue
        view = read_task(layout, name)
        if view.error is not None:
            return view  # it names this session but cannot be read: the caller says to run doctor
        if view.owner_session == session:
            return view
    return None


def governing(layout: Layout, session: str, cwd: str) -> tuple[TaskView | None, str | None]:
    """The task a hook acts for and the agent whose worktree cwd is in (None: the task worktree or elsewhere).

    The session's own task first; else the task whose worktree holds cwd.
    """
    kind, task, agent = layout.where(cwd) if cwd else ("outside", None, None)
    mine = owned_task(layout, session)
    if mine is not None:
        return mine, agent if (kind == "worktree" and task == mine.name) else None
    if kind == "worktree" and task:
        return read_task(layout, task), agent
    return None, None
