"""Where taskproto keeps its files, and the settings read from the repository.

Settings come from `[tool.taskproto]` in the main worktree's pyproject.toml or
from `.taskproto.toml` (which wins), then TASKPROTO_ROOT, then --root.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from taskproto.errors import ConfigError, WriteFailed
from taskproto.git.command import Git

DEFAULT_ROOT = ".taskproto"


@dataclass(frozen=True)
class Config:
    repo: Path  # top of the main worktree (absolute)
    root: Path  # taskproto's folder (absolute)
    lease_minutes: float = 30.0
    agent_timeout_minutes: float = 60.0
    max_retries: int = 3
    lock_timeout: float = 30.0
    protected_branches: tuple[str, ...] = ("main", "master")
    prohibited_patterns: tuple[str, ...] = ("task.json", "status.json", "*.env", ".env")
    remote: str | None = None
    commit_trailers: bool = False
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def tasks_dir(self) -> Path:
        return self.root / "tasks"

    def task_dir(self, task: str) -> Path:
        return self.tasks_dir / task

    def task_file(self, task: str) -> Path:
        return self.task_dir(task) / "task.json"

    def task_worktree(self, task: str) -> Path:
        return self.task_dir(task) / "code"

    def agent_dir(self, task: str, agent: str) -> Path:
        return self.task_dir(task) / "agents" / agent

    def agent_worktree(self, task: str, agent: str) -> Path:
        return self.agent_dir(task, agent) / "code"

    def status_file(self, task: str, agent: str) -> Path:
        return self.agent_dir(task, agent) / "status.json"


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


def _read_settings(repo: Path) -> tuple[dict[str, Any], Path | None]:
    for path, section in (
        (repo / ".taskproto.toml", None),
        (repo / "pyproject.toml", "tool.taskproto"),
    ):
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: not valid TOML ({exc}); fix the file") from None
        if section:
            data = data.get("tool", {}).get("taskproto")
            if data is None:
                continue
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: [{section}] must be a table")
        return data, path
    return {}, None


def load_config(start: Path | None = None, root: str | None = None) -> Config:
    """Find the repository around `start` (default: cwd) and read its settings."""
    start = (start or Path.cwd()).absolute()
    repo = Git(start).main_worktree()
    settings, source = _read_settings(repo)
    values: dict[str, Any] = {}
    for key, value in settings.items():
        expected = _KEYS.get(key)
        if expected is None:
            continue  # sections of other issues (workflows, interrupt, ...) are read where used
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise ConfigError(f"{source}: {key} has the wrong type ({type(value).__name__})")
        values[key] = tuple(value) if isinstance(value, list) else value
    root_setting = (
        root or os.environ.get("TASKPROTO_ROOT") or values.pop("root", None) or DEFAULT_ROOT
    )
    values.pop("root", None)
    root_path = Path(root_setting)
    if not root_path.is_absolute():
        root_path = repo / root_path
    if root_path.exists() and not root_path.is_dir():
        raise ConfigError(
            f"taskproto's root {root_path} is not a folder; set `root` (.taskproto.toml, "
            "TASKPROTO_ROOT or --root) to a folder"
        )
    return replace(Config(repo=repo, root=root_path.absolute(), raw=settings), **values)


def ensure_root(config: Config) -> None:
    """Create the root folder and keep it out of git (info/exclude), once."""
    config.tasks_dir.mkdir(parents=True, exist_ok=True)
    try:
        rel = config.root.relative_to(config.repo)
    except ValueError:
        return  # outside the repository: nothing to exclude
    git = Git(config.repo)
    exclude = git.common_dir() / "info" / "exclude"
    line = f"/{rel.as_posix()}/"
    try:
        existing = exclude.read_text(encoding="utf-8") if exclude.exists() else ""
        if line not in existing.splitlines():
            exclude.parent.mkdir(parents=True, exist_ok=True)
            with exclude.open("a", encoding="utf-8") as fh:
                if existing and not existing.endswith("\n"):
                    fh.write("\n")
                fh.write(line + "\n")
    except OSError as exc:  # a full disk or a read-only .git: say which file
        raise WriteFailed(str(exclude), exc.errno, exc.strerror or str(exc)) from None
