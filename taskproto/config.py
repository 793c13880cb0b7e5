"""The settings read from the repository, and the paths of its tasks as `Path`s.

Settings come from `.taskproto.toml`, else `[tool.taskproto]` in the main worktree's
pyproject.toml; the root is `--root`, else TASKPROTO_ROOT, else the `root` setting (see
layout.py, the one definition of where things are, shared with the hooks).
"""

from __future__ import annotations

import os

from taskproto.errors import ConfigError, TaskprotoError, WriteFailed
from taskproto.git.files import broken_link, find_repo
from taskproto.layout import DEFAULT_ROOT, Layout, SettingsError, layout_for, read_settings

TYPE_CHECKING = False  # hooks and the quick read path load this module: no `typing` at run time
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

__all__ = ["DEFAULT_ROOT", "Config", "ensure_root", "load_config"]


class Config:
    """The repository's settings. Immutable: `replace` makes a changed copy. (A plain class, not a
    dataclass: the hooks and the quick read path load it, and `dataclasses` would cost them more
    than everything else they import.)"""

    __slots__ = (
        "layout",
        "lease_minutes",
        "agent_timeout_minutes",
        "max_retries",
        "lock_timeout",
        "protected_branches",
        "prohibited_patterns",
        "remote",
        "commit_trailers",
        "raw",
        "source",
    )
    layout: Layout
    lease_minutes: float
    agent_timeout_minutes: float
    max_retries: int
    lock_timeout: float
    protected_branches: tuple[str, ...]
    prohibited_patterns: tuple[str, ...]
    remote: str | None
    commit_trailers: bool
    raw: dict[str, Any]
    source: str | None  # the settings file, when there is one

    def __init__(
        self,
        layout: Layout,
        lease_minutes: float = 30.0,
        agent_timeout_minutes: float = 60.0,
        max_retries: int = 3,
        lock_timeout: float = 30.0,
        protected_branches: tuple[str, ...] = ("main", "master"),
        prohibited_patterns: tuple[str, ...] = ("task.json", "status.json", "*.env", ".env"),
        remote: str | None = None,
        commit_trailers: bool = False,
        raw: dict[str, Any] | None = None,
        source: str | None = None,
    ) -> None:
        values = dict(locals())
        del values["self"]
        values["raw"] = {} if raw is None else raw
        for name in self.__slots__:
            object.__setattr__(self, name, values[name])

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Config is immutable: use replace({name}=...)")

    def replace(self, **changes: Any) -> Config:
        values = {name: getattr(self, name) for name in self.__slots__}
        values.update(changes)
        return Config(**values)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Config):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__slots__)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in self.__slots__ if n != "raw"))

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"Config({inner})"

    @property
    def repo(self) -> Path:
        """The top of the main worktree (a bare repository's own folder)."""
        return _path(self.layout.main)

    @property
    def root(self) -> Path:
        return _path(self.layout.root)

    @property
    def tasks_dir(self) -> Path:
        return _path(self.layout.tasks)

    def task_dir(self, task: str) -> Path:
        return _path(self.layout.task_dir(task))

    def task_file(self, task: str) -> Path:
        return _path(self.layout.task_file(task))

    def task_worktree(self, task: str) -> Path:
        return _path(self.layout.task_worktree(task))

    def agent_dir(self, task: str, agent: str) -> Path:
        return _path(self.layout.agent_dir(task, agent))

    def agent_worktree(self, task: str, agent: str) -> Path:
        return _path(self.layout.agent_worktree(task, agent))

    def status_file(self, task: str, agent: str) -> Path:
        return _path(self.layout.status_file(task, agent))

    @property
    def common_dir(self) -> Path:
        assert self.layout.dirs is not None
        return _path(self.layout.dirs.common_dir)


def _path(value: str) -> Path:
    from pathlib import Path  # not at import: the hooks and the quick read path need no Path

    return Path(value)


_KEYS: dict[str, type | tuple[type, ...]] = {
    "root": str,
    "lease_minutes": (int, float),
    "agent_timeout_minutes": (int, float),
    "max_retries": int,
    "lock_timeout": (int, float),
    "protected_branches": list,
    "prohibited_patterns": list,
    "remote": str,
    "commit_trailers": bool,
}


def load_config(start: str | os.PathLike[str] | None = None, root: str | None = None) -> Config:
    """Find the repository around `start` (default: the working folder) and read its settings."""
    try:
        folder = os.path.abspath(start if start is not None else os.getcwd())
    except FileNotFoundError:
        raise TaskprotoError(
            "the working folder no longer exists; cd into a repository and retry"
        ) from None
    if not os.path.isdir(folder):
        raise TaskprotoError(
            f"{folder} is not a folder; pass -C with a folder inside a git repository"
        )
    dirs = find_repo(str(folder))
    broken = broken_link(str(folder)) if dirs is None else None
    if broken is not None:
        raise TaskprotoError(
            f"{broken[0]} is a git worktree whose repository is no longer at {broken[1]} (moved?); "
            "run `taskproto doctor --fix` in the repository's main folder, which re-links it"
        )
    if dirs is None:
        raise TaskprotoError(
            f"{folder} is not inside a git repository; run taskproto in one (or `git init` first)"
        )
    try:
        settings, source = read_settings(dirs.main)
        layout = layout_for(dirs, root, settings=settings)
    except SettingsError as exc:
        raise ConfigError(str(exc)) from None
    values: dict[str, Any] = {}
    for key, value in settings.items():
        expected = _KEYS.get(key)
        if expected is None or key == "root":
            continue  # sections of other features (workflows, interrupt, ...) are read where used
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise ConfigError(f"{source}: {key} has the wrong type ({type(value).__name__})")
        values[key] = tuple(value) if isinstance(value, list) else value
    if layout.root_links_out():
        raise ConfigError(
            f"taskproto's root {layout.root_given} is a symbolic link out of the repository (to "
            f"{layout.root}); "
            "an agent could redirect taskproto's state through it: make it a folder (or set `root` "
            "to the real place)"
        )
    if os.path.exists(layout.root) and not os.path.isdir(layout.root):
        raise ConfigError(
            f"taskproto's root {layout.root} is not a folder; set `root` (.taskproto.toml, "
            "TASKPROTO_ROOT or --root) to a folder"
        )
    return Config(layout=layout, raw=settings, source=source).replace(**values)


def ensure_root(config: Config) -> None:
    """Create the root folder and keep it out of git (info/exclude), once. On strings: a
    `task create` imports no pathlib before its git starts (docs/performance.md)."""
    layout = config.layout
    os.makedirs(layout.tasks, exist_ok=True)
    rel = os.path.relpath(layout.root_given, layout.main)  # both absolute and normalized
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return  # outside the repository: nothing to exclude
    assert layout.dirs is not None
    exclude = os.path.join(layout.dirs.common_dir, "info", "exclude")
    line = "/" + rel.replace(os.sep, "/") + "/"
    try:
        try:
            with open(exclude, encoding="utf-8") as fh:
                existing = fh.read()
        except FileNotFoundError:
            existing = ""
        if line not in existing.splitlines():
            os.makedirs(os.path.dirname(exclude), exist_ok=True)
            with open(exclude, "a", encoding="utf-8") as fh:
                if existing and not existing.endswith("\n"):
                    fh.write("\n")
                fh.write(line + "\n")
    except OSError as exc:  # a full disk or a read-only .git: say which file
        raise WriteFailed(exclude, exc.errno, exc.strerror or str(exc)) from None
