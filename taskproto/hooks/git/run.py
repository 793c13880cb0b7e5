"""What one git hook run knows: the worktree's git files, taskproto's layout, the settings, stdin.

Standard library only: every hook starts here, on every commit, checkout and push.
"""

from __future__ import annotations

import sys

from taskproto.git.files import GitDirs
from taskproto.layout import Layout, SettingsError, read_settings

TYPE_CHECKING = False  # not `from typing`: importing typing costs a no-op hook ~10% of its time
if TYPE_CHECKING:
    from typing import Any

    from taskproto.state.light import TaskView

MARKER = b"# taskproto git hook: installed by `taskproto init`"  # in each installed script
SETTINGS_KEYS = (
    b"prohibited_patterns",
    b"protected_branches",
    b"commit_trailers",
    b"require_signed_approvals",
)

DEFAULTS: dict[str, Any] = {
    "prohibited_patterns": ["task.json", "status.json", "*.env", ".env"],
    "protected_branches": ["main", "master"],
    "commit_trailers": False,
}


class Refused(Exception):
    """A hook says no; str() is the one line the user sees."""


class Hook:
    """What one hook run knows: the worktree's git files, taskproto's layout, lazily the
    settings."""

    def __init__(self, name: str, repo: GitDirs, layout: Layout) -> None:
        self.name = name
        self.repo = repo
        self.layout = layout
        self._settings: dict[str, Any] | None = None
        self._stdin: bytes | None = None

    def stdin(self) -> bytes:
        if self._stdin is None:
            self._stdin = sys.stdin.buffer.read() if sys.stdin is not None else b""
        return self._stdin

    def setting(self, key: str) -> Any:
        if self._settings is None:
            self._settings = read_settings(self.layout.main, SETTINGS_KEYS)[0]
        value = self._settings.get(key, DEFAULTS[key])
        if not isinstance(value, type(DEFAULTS[key])):
            raise SettingsError(f"the `{key}` setting has the wrong type ({type(value).__name__})")
        return value

    def table(self) -> dict[str, Any]:
        """The whole settings table (the `[verify]` section is read from it)."""
        self.setting("protected_branches")
        assert self._settings is not None
        return self._settings

    def owner_of(self, branch: str | None) -> tuple[str, str | None] | None:
        return self.layout.branch_owner(branch)

    def task_json(self, task: str) -> TaskView:
        from taskproto.state.light import read_task

        view = read_task(self.layout, task)
        if view.error is not None:
            raise Refused(
                f"{self.name} refused: task {task}'s task.json cannot be read ({view.error}); "
                "run `taskproto doctor`"
            )
        return view

    def flags(self, view: TaskView) -> dict[str, Any]:
        from taskproto.hooks.flags import state_flags

        workflow, state = str(view.workflow), str(view.state)
        try:
            states = state_flags(self.layout, workflow)
        except Exception as exc:  # noqa: BLE001 - an unknown or broken workflow must not pass silently
            raise Refused(
                f"{self.name} refused: workflow {workflow!r} of task {view.name} cannot be loaded "
                f"({exc}); "
                "run `taskproto doctor`"
            ) from None
        found = states.get(state)
        if found is None:
            raise Refused(
                f"{self.name} refused: task {view.name} is in {state}, which workflow {workflow} "
                "does not "
                "define; run `taskproto doctor`"
            )
        return {**found, "_all": states}


def branch_label(task: str, agent: str | None, branch: str) -> str:
    return (
        f"branch {branch!r} (task {task})"
        if agent is None
        else f"branch {branch!r} (agent {agent} of task {task})"
    )
