"""One root exception, a few structured subclasses, and the CLI's exit-code table."""

from __future__ import annotations

from datetime import UTC, datetime


class ExitCode:
    """The CLI's exit codes (plain ints: an enum costs every quick command and hook ~2 ms)."""

    OK = 0
    REFUSED = 1  # refused or failed, with a one-line reason on stderr
    USAGE = 2  # bad command line (click's own code)
    INTERNAL = 3  # unexpected error; traceback written to a log file


class TaskprotoError(Exception):
    """Root of every expected error. Its str() is the one line a user sees."""

    exit_code: int = ExitCode.REFUSED


def refusal_line(exc: TaskprotoError, as_json: bool) -> str:
    """The one line on stderr for a refused command; under --json, a JSON error object."""
    if as_json:
        from taskproto import plainjson as json

        error = {"error": str(exc), "kind": type(exc).__name__, "exit_code": int(exc.exit_code)}
        return json.dumps(error)
    return f"taskproto: {exc}"


class InvalidName(TaskprotoError):
    def __init__(self, kind: str, name: str, reason: str) -> None:
        self.kind, self.name, self.reason = kind, name, reason
        super().__init__(f"invalid {kind} name {name!r}: {reason}")


class ConfigError(TaskprotoError):
    pass


class GitError(TaskprotoError):
    """A git command failed. Carries the command, exit status and stderr."""

    def __init__(self, cmd: list[str], returncode: int, stdout: str, stderr: str) -> None:
        self.cmd, self.returncode, self.stdout, self.stderr = cmd, returncode, stdout, stderr
        detail = (stderr or stdout).strip().splitlines()
        last = detail[-1] if detail else "no output"
        super().__init__(f"git {' '.join(cmd[1:3])} failed (exit {returncode}): {last}")


class RepositoryGone(TaskprotoError):
    """The repository's git folder is gone (moved or deleted) under a running board."""

    def __init__(self, repo: str, git_dir: str) -> None:
        self.repo, self.git_dir = repo, git_dir
        super().__init__(
            f"{repo} is no git repository any more (its git folder {git_dir} is gone): put it "
            "back, or run `taskproto board` where the repository is now"
        )


class TaskNotFound(TaskprotoError):
    def __init__(self, task: str, message: str | None = None) -> None:
        self.task = task
        super().__init__(
            message
            or f"no task named {task!r} (see `taskproto task list`; create one with `taskproto "
            f"task create {task}`)"
        )


class TaskExists(TaskprotoError):
    def __init__(self, task: str) -> None:
        self.task = task
        super().__init__(f"task {task!r} already exists (see `taskproto task show {task}`)")


MISSING_TASK_FILE = "task.json is missing"  # CorruptState's problem when there is no file at all


class CorruptState(TaskprotoError):
    """A state file failed to parse or validate. It was moved aside, never replaced."""

    def __init__(self, path: str, problem: str, moved_to: str | None) -> None:
        self.path, self.problem, self.moved_to = path, problem, moved_to
        if problem == MISSING_TASK_FILE:  # not corrupt: gone, and doctor --fix rebuilds it
            super().__init__(f"{path} is missing; run `taskproto doctor --fix` to rebuild it")
            return
        where = f"; moved aside to {moved_to}" if moved_to else ""
        super().__init__(
            f"{path} is corrupt ({problem}){where}; run `taskproto doctor` to repair it"
        )


class WriteFailed(TaskprotoError):
    """A state file could not be written (disk full, read-only, file too large). The old file is
    intact."""

    def __init__(self, path: str, errno: int | None, reason: str) -> None:
        self.path, self.errno, self.reason = path, errno, reason
        super().__init__(f"could not write {path}: {reason}; the previous version is unchanged")


class UnsupportedSchema(TaskprotoError):
    def __init__(self, path: str, version: int, supported: int) -> None:
        self.path, self.version, self.supported = path, version, supported
        super().__init__(
            f"{path} has schema_version {version}, newer than this taskproto understands "
            f"({supported}); "
            "upgrade taskproto, nothing was changed"
        )


class LockHeld(TaskprotoError):
    """The task's file lock could not be taken in time."""

    def __init__(self, task: str, waited: float, holder: str = "another process") -> None:
        self.task, self.waited, self.holder = task, waited, holder
        super().__init__(
            f"task {task!r} is locked by {holder} (waited {waited:.1f}s); try again once it lets "
            "go of the lock"
        )


def when(moment: datetime) -> str:
    """A time in a message: always UTC, to the second, ISO 8601 with `Z` (one format everywhere)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class OwnershipError(TaskprotoError):
    """The task is owned by another live session."""

    def __init__(self, task: str, owner: str, since: str, host: str, action: str) -> None:
        self.task, self.owner, self.since, self.host = task, owner, since, host
        super().__init__(
            f"task {task!r} is owned by session {owner} on {host} since {since}; {action}"
        )


class SessionRequired(TaskprotoError):
    def __init__(self, what: str) -> None:
        super().__init__(
            f"{what} needs a session id: `taskproto --session ID {what} ...` (before the "
            "command) or set TASKPROTO_SESSION (in a terminal it is the terminal's; "
            "`taskproto whoami` says why there is none)"
        )


class TransitionRejected(TaskprotoError):
    """A transition the workflow does not allow, or whose guard failed."""

    def __init__(
        self, task: str, state: str, trigger: str, reason: str, guard: str | None = None
    ) -> None:
        self.task, self.state, self.trigger, self.guard, self.reason = (
            task,
            state,
            trigger,
            guard,
            reason,
        )
        by = f" (guard {guard})" if guard else ""
        super().__init__(f"task {task!r}: {trigger} refused in {state}{by}: {reason}")


class UserOnly(TaskprotoError):
    """An action that is the user's alone (approvals, --force, rollback, landing), asked for by
    an agent."""

    def __init__(self, action: str, why: str) -> None:
        self.action, self.why = action, why
        super().__init__(
            f"{action} is the user's to do, and this runs for an agent ({why}); "
            "ask the user to run it in their own terminal"
        )


class Untrusted(TaskprotoError):
    """task.json fails the integrity check against its journal (docs/on-disk-format.md)."""

    def __init__(self, task: str, check: str, line: str) -> None:
        super().__init__(line)
        self.task, self.check = task, check


class UnknownState(TaskprotoError):
    """A task names a workflow or a state that does not exist: manual intervention required."""


class WorkAtRisk(TaskprotoError):
    """Refused because the operation would lose commits or uncommitted changes."""


class ValidationFailed(TaskprotoError):
    """Input (an artifact, a workflow file, a config value) failed validation."""


class MergeConflict(TaskprotoError):
    """`taskproto merge` stopped at an agent whose branch conflicts; nothing of it was merged."""

    def __init__(self, task: str, agent: str, files: list[str], merged: list[str]) -> None:
        self.task, self.agent, self.files, self.merged = task, agent, files, merged
        before = f"; merged before it and kept: {', '.join(merged)}" if merged else ""
        super().__init__(
            f"merging agent {agent} into task {task} conflicts in {', '.join(files)}: nothing of "
            f"it was merged, the task worktree is as it was{before}; resolve it on the agent's "
            f"branch (merge {task} into {task}-{agent} in the agent's worktree) and run "
            f"`taskproto merge {task}` again"
        )
