"""A task branch (or an agent branch) against the task's base: the diff stat and the diff, parsed
into files, hunks and numbered lines (so the user can comment on a line on the board).

The one diff of taskproto: `taskproto diff`, the MCP `diff` tool, the board, and the diff stat an
approval records all come from `branch_diff`. Two git processes (numstat, patch) through
`core.repo`; large diffs are cut (`truncated`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from taskproto.engine.core import Core
from taskproto.errors import GitError, TaskprotoError
from taskproto.names import agent_branch, agent_name
from taskproto.state import summary
from taskproto.state.models import DiffStat, Task

MAX_PATCH_CHARS = 2_000_000
MAX_LINES = 6000  # lines of the diff rendered on the page, all files together
HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$")


@dataclass
class Line:
    kind: str  # " ", "+", "-", "\\"
    old: int | None
    new: int | None
    text: str


@dataclass
class Hunk:
    header: str
    lines: list[Line] = field(default_factory=list)


@dataclass
class FileDiff:
    path: str
    old_path: str | None = None  # a rename's source
    added: int = 0
    removed: int = 0
    binary: bool = False
    status: str = "M"  # A, M, D, R
    hunks: list[Hunk] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "old_path": self.old_path,
            "status": self.status,
            "added": self.added,
            "removed": self.removed,
            "binary": self.binary,
        }


@dataclass
class Diff:
    base: str
    head: str
    files: list[FileDiff]
    truncated: bool = False
    text: str = ""  # the unified diff as git printed it (cut at MAX_PATCH_CHARS)

    @property
    def added(self) -> int:
        return sum(f.added for f in self.files)

    @property
    def removed(self) -> int:
        return sum(f.removed for f in self.files)

    def summary(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "head": self.head,
            "files": [f.as_json() for f in self.files],
            "added": self.added,
            "removed": self.removed,
            "truncated": self.truncated,
        }

    def stat(self) -> DiffStat:
        return DiffStat(
            base=self.base,
            head=self.head,
            files=[f.path for f in self.files],
            added=self.added,
            removed=self.removed,
        )


def stat_text(stat: DiffStat) -> str:
    """One line for people: `3 files changed, +12 -4 (a.py, b.py, c.py)`."""
    return summary.stat_text(stat.model_dump())


def _text(out: str) -> str:
    """GitPython keeps undecodable bytes as surrogates; JSON and HTML need real text."""
    return out.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def base_of(core: Core, task: Task, head: str) -> str | None:
    """The commit the task branch started from (task.base), else its merge base with HEAD; once
    the base branch was brought into the task (`taskproto update`, an agent's `git merge main`),
    the newest such commit, so what the base brought is not shown as the task's change."""
    if task.base:
        tip = core.git.ref_sha(f"refs/heads/{task.base_branch}") if task.base_branch else None
        if tip is None or tip == task.base or core.repo.is_ancestor(tip, task.base):
            return task.base  # the base did not move: nothing of it can be in the task
        try:
            newer = core.repo.run("merge-base", tip, head).strip()
        except GitError:
            return task.base
        if newer and newer not in (head, task.base) and core.repo.is_ancestor(task.base, newer):
            return newer
        return task.base
    try:
        return core.repo.run("merge-base", "HEAD", head).strip() or None
    except GitError:
        return None


def task_diff(core: Core, task: Task) -> Diff | None:
    """The task branch's changes since its base; None when the branch or the base is missing."""
    try:
        return branch_diff(core, task)
    except TaskprotoError:
        return None


def branch_diff(core: Core, task: Task, agent: str | None = None, head: str | None = None) -> Diff:
    """The changes of the task branch (or of `agent`'s branch, or of commit `head`) since the task's
    base; refused with the reason when the branch or the base is missing."""
    branch = agent_branch(task.name, agent_name(agent)) if agent else task.name
    if agent is not None and agent not in task.required_agents:
        agents = ", ".join(task.required_agents) or "none"
        raise TaskprotoError(f"{agent!r} is not an agent of task {task.name!r} (agents: {agents})")
    head = head or core.branch_head(branch)
    if head is None:
        raise TaskprotoError(f"branch {branch!r} does not exist; run `taskproto doctor`")
    base = base_of(core, task, head)
    if base is None:
        raise TaskprotoError(f"the base of task {task.name!r} is unknown; run `taskproto doctor`")
    git = ("-c", "core.quotepath=off", "-c", "diff.noprefix=false")
    numstat = core.repo.run(*git, "diff", "--numstat", "-z", "-M", base, head)
    patch = core.repo.run(
        *git, "diff", "--no-color", "--no-ext-diff", "-M", "--unified=3", base, head
    )
    files = parse_numstat(_text(numstat))
    truncated = len(patch) > MAX_PATCH_CHARS
    attach_hunks(files, _text(patch[:MAX_PATCH_CHARS]))
    shown = 0
    for f in files:
        for h in f.hunks:
            if shown >= MAX_LINES:
                h.lines = []
                truncated = True
            elif shown + len(h.lines) > MAX_LINES:
                h.lines = h.lines[: MAX_LINES - shown]
                truncated = True
            shown += len(h.lines)
        f.hunks = [h for h in f.hunks if h.lines]
    return Diff(base, head, files, truncated, _text(patch[:MAX_PATCH_CHARS]))


def parse_numstat(out: str) -> list[FileDiff]:
    """`git diff --numstat -z`: `added\\tremoved\\tpath\\0`, or for a rename
    `added\\tremoved\\t\\0old\\0new\\0`; binary files count `-`."""
    parts = out.split("\0")
    files: list[FileDiff] = []
    i = 0
    while i < len(parts):
        record = parts[i]
        i += 1
        if not record.strip():
            continue
        added, _, rest = record.partition("\t")
        removed, _, path = rest.partition("\t")
        old = None
        if not path and i + 1 < len(parts):
            old, path = parts[i], parts[i + 1]
            i += 2
        binary = added == "-"
        files.append(
            FileDiff(
                path=path,
                old_path=old,
                added=0 if binary else int(added or 0),
                removed=0 if binary else int(removed or 0),
                binary=binary,
                status="R" if old else "M",
            )
        )
    return files


def _path(line: str, prefix: str) -> str | None:
    value = line[len(prefix) :].rstrip("\t")
    if value == "/dev/null":
        return None
    return value[2:] if value[:2] in ("a/", "b/") else value


def attach_hunks(files: list[FileDiff], patch: str) -> None:
    """Parse the unified diff and hang each file's hunks (with line numbers) on its FileDiff."""
    by_path = {f.path: f for f in files}
    current: FileDiff | None = None
    hunk: Hunk | None = None
    old_no = new_no = 0
    minus: str | None = None
    for line in patch.split("\n"):
        if line.startswith("diff --git "):
            current, hunk, minus = None, None, None
            continue
        if hunk is None and line.startswith("--- "):
            minus = _path(line, "--- ")
            continue
        if hunk is None and line.startswith("+++ "):
            plus = _path(line, "+++ ")
            current = by_path.get(plus or minus or "")
            if current is not None:
                current.status = "A" if minus is None else "D" if plus is None else current.status
            continue
        match = HUNK.match(line)
        if match and current is not None:
            old_no, new_no = int(match.group(1)), int(match.group(2))
            hunk = Hunk(line)
            current.hunks.append(hunk)
            continue
        if hunk is None or current is None or not line:
            if line.startswith("diff --git "):
                hunk = None
            continue
        kind = line[0]
        if kind == " ":
            hunk.lines.append(Line(" ", old_no, new_no, line[1:]))
            old_no += 1
            new_no += 1
        elif kind == "+":
            hunk.lines.append(Line("+", None, new_no, line[1:]))
            new_no += 1
        elif kind == "-":
            hunk.lines.append(Line("-", old_no, None, line[1:]))
            old_no += 1
        elif kind == "\\":
            hunk.lines.append(Line("\\", None, None, line[1:].strip()))
        else:
            hunk = None  # the next file's header lines (mode, index, rename, ...)
