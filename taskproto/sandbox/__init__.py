"""The sandbox an agent runs in (docs/sandbox.md): only its worktree and its own git dir are
writable, the user's secrets and processes are out of sight.

`rules.py` says what the sandbox allows, from the repository's layout (pure); `bwrap.py` turns
that into bubblewrap's argv (Linux), `seatbelt.py` into a `sandbox-exec` profile (macOS, text);
`gitdir.py` makes the agent's own git dir before a run and brings its branch back after it;
`run.py` runs a command inside, one run of an agent at a time.
"""

from __future__ import annotations

from taskproto.errors import TaskprotoError


class SandboxError(TaskprotoError):
    """The sandbox cannot run here, or what the agent did inside cannot be taken out."""

    def __init__(self, task: str, agent: str, reason: str) -> None:
        self.task, self.agent, self.reason = task, agent, reason
        super().__init__(reason)
