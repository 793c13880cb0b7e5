"""Shared setup for doctor tests: a real repository with task `t` (agents a, b) and ways to break
it."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from taskproto.config import Config, load_config
from taskproto.doctor import Report, run
from taskproto.engine import Engine
from taskproto.state import journal, store


@dataclass
class Env:
    repo: Path
    engine: Engine

    @property
    def config(self) -> Config:
        return self.engine.config

    def doctor(self, *tasks: str, **kw: Any) -> Report:
        return run(load_config(self.repo), tasks, **kw)

    def task_file(self, name: str = "t") -> Path:
        return self.config.task_file(name)

    def raw(self, name: str = "t") -> dict[str, Any]:
        return json.loads(self.task_file(name).read_text())

    def write_raw(
        self, data: dict[str, Any], name: str = "t", bump: bool = True, journaled: bool = True
    ) -> None:
        """Edit task.json behind taskproto's back. With `journaled`, the edit is journaled too (a
        record an earlier version or another tool wrote: the journal vouches for it, so only the
        check under test fires); without, it is a hand edit the journal does not vouch for."""
        if bump:
            data["revision"] = int(data["revision"]) + 1
        self.task_file(name).write_text(json.dumps(data, indent=2))
        if journaled:
            self.journal_files(name)

    def journal_files(self, name: str = "t") -> None:
        """Append a journal commit holding task.json and the status files as they are on disk."""
        files = {journal.TASK_FILE: self.task_file(name).read_bytes()}
        agents = self.config.task_dir(name) / "agents"
        for agent in sorted(os.listdir(agents)) if agents.is_dir() else []:
            status = self.config.status_file(name, agent)
            if status.is_file():
                files[journal.status_entry(agent)] = status.read_bytes()
        revision = json.loads(files[journal.TASK_FILE]).get("revision", 0)
        journal.append(
            self.engine.git, self.config.layout.dirs, name, files, "test: journaled edit", revision
        )

    def edit(
        self,
        change: Callable[[dict[str, Any]], None],
        name: str = "t",
        bump: bool = True,
        journaled: bool = True,
    ) -> None:
        data = self.raw(name)
        change(data)
        self.write_raw(data, name, bump, journaled)

    def git(self, *args: str, cwd: Path | None = None) -> str:
        proc = subprocess.run(
            ["git", *args], cwd=cwd or self.repo, capture_output=True, text=True, check=False
        )
        assert proc.returncode == 0, f"git {' '.join(args)}: {proc.stderr}"
        return proc.stdout.strip()

    def git_status(self, *args: str, cwd: Path | None = None) -> int:
        """git's exit status (a refusal by a hook is a status, not a test failure)."""
        return subprocess.run(
            ["git", *args], cwd=cwd or self.repo, capture_output=True, check=False
        ).returncode

    def worktree(self, agent: str | None = None, name: str = "t") -> Path:
        return self.config.agent_worktree(name, agent) if agent else self.config.task_worktree(name)

    def admin_dir(self, worktree: Path) -> Path:
        return Path((worktree / ".git").read_text().split(":", 1)[1].strip())

    def set_status(self, agent: str, **fields: Any) -> None:
        path = self.config.status_file("t", agent)
        status = store.load_status(path).model_copy(update=fields)
        store.save_status(path, status)
        self.journal_files()


def ids(report: Report) -> set[str]:
    return {f.check for f in report.findings}


@pytest.fixture
def env(repo: Path, engine: Engine) -> Env:
    engine.create_task("t", ["a", "b"])
    return Env(repo, engine)


def dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def commit_file(worktree: Path, name: str, content: str = "x\n", message: str | None = None) -> str:
    (worktree / name).write_text(content)
    subprocess.run(["git", "add", name], cwd=worktree, check=True, capture_output=True)
    subprocess.run(
        ["git", "commit", "--quiet", "-m", message or f"add {name}"],
        cwd=worktree,
        check=True,
        capture_output=True,
    )
    return subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=worktree, check=True, capture_output=True, text=True
    ).stdout.strip()


def make_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    for args in (
        ["init", "--quiet", "--initial-branch=main"],
        ["config", "commit.gpgsign", "false"],
    ):
        subprocess.run(["git", *args], cwd=path, check=True, capture_output=True)
    commit_file(path, "README.md", "# test repo\n", "initial")
    return path
