"""Where a deleted task or agent branch last pointed: reflogs, the journal, the shared remote.

A branch is re-created only at a commit one of these names; with none, and commits dangling on top
of the task's base that may be its work, doctor refuses and names them rather than re-creating the
branch somewhere else while the work dangles. A commit that is named but no longer exists is
reported as lost.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from taskproto.doctor.repair import head_log_sha
from taskproto.engine import Engine
from taskproto.errors import GitError, WorkAtRisk
from taskproto.state import journal
from taskproto.state.models import Task

ZERO = "0" * 40
MAX_DANGLING = 20


@dataclass
class Tip:
    sha: str | None = None
    source: str = ""
    lost: list[tuple[str, str]] = field(default_factory=list)  # (sha, source) named but missing


def _log_lines(path: Path) -> list[list[str]]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    rows = []
    for line in text.splitlines():
        head, _, message = line.partition("\t")
        parts = head.split(" ", 2)
        if len(parts) >= 2:
            rows.append([parts[0], parts[1], message])
    return rows


def _checkout_logs(common: Path) -> list[Path]:
    logs = [common / "logs" / "HEAD"]
    try:
        logs += [
            common / "worktrees" / d / "logs" / "HEAD" for d in os.listdir(common / "worktrees")
        ]
    except OSError:
        pass
    return logs


def candidates(
    engine: Engine, branch: str, worktree: Path | None, task: Task
) -> list[tuple[str, str]]:
    """(sha, where it was found), best first."""
    found: list[tuple[str, str]] = []
    common = engine.config.common_dir
    if worktree is not None:
        logged = head_log_sha(worktree)
        if logged:
            found.append((logged, "the last commit its worktree's HEAD log recorded"))
    for row in reversed(_log_lines(common / "logs" / "refs" / "heads" / branch)):
        if row[1] != ZERO:
            found.append((row[1], f"the branch's own reflog (logs/refs/heads/{branch})"))
            break
    moved: list[tuple[str, str]] = []
    for log in _checkout_logs(common):
        for old, _, message in _log_lines(log):
            if message.startswith(f"checkout: moving from {branch} to ") and old != ZERO:
                moved.append((old, f"a checkout away from {branch} in {log.parent}"))
    found += moved[-1:]
    try:
        remote = engine.repo.refs("refs/remotes")
    except GitError:
        remote = {}
    for ref, sha in sorted(remote.items()):
        if ref.endswith("/" + branch) and ref.count("/") == 3:
            found.append((sha, f"the shared remote's copy ({ref})"))
    if branch == task.name:
        try:
            history = engine.repo.history(journal.ref_for(task.name), limit=50)
        except GitError:
            history = []
        for commit in history:
            data = journal.read_file(engine.repo, commit.sha)
            if data is None:
                continue
            try:
                recorded = Task.model_validate_json(data)
            except ValueError:
                continue
            if recorded.checkpoint.commit_sha:
                found.append(
                    (
                        recorded.checkpoint.commit_sha,
                        f"the journal's checkpoint ({commit.sha[:12]})",
                    )
                )
                break
    return found


def dangling_on(engine: Engine, base: str) -> list[str]:
    """Tips of commits no ref reaches (reflogs not counted) that stand on `base`."""
    try:
        out = engine.repo.run("fsck", "--unreachable", "--no-reflogs", "--no-progress")
    except GitError:
        return []
    shas = [line.split()[2] for line in out.splitlines() if line.startswith("unreachable commit ")]
    shas = [s for s in shas[: MAX_DANGLING * 5] if engine.repo.is_ancestor(base, s)][:MAX_DANGLING]
    return [s for s in shas if not any(o != s and engine.repo.is_ancestor(s, o) for o in shas)]


def last_tip(engine: Engine, branch: str, worktree: Path | None, task: Task) -> Tip:
    """The commit to re-create `branch` at: the most advanced one the sources name that exists."""
    tip = Tip()
    for sha, source in candidates(engine, branch, worktree, task):
        if not engine.repo.object_exists(sha):
            tip.lost.append((sha, source))
            continue
        if tip.sha is None or (sha != tip.sha and engine.repo.is_ancestor(tip.sha, sha)):
            tip.sha, tip.source = sha, source
    return tip


def refuse_dangling(engine: Engine, branch: str, base: str | None) -> None:
    """Refuse re-creating `branch` at a fallback while commits that may be its work dangle."""
    if not base:
        return
    tips = dangling_on(engine, base)
    if tips:
        listed = ", ".join(t[:12] for t in tips[:5])
        raise WorkAtRisk(
            f"branch {branch} is gone and nothing records where it pointed, but {len(tips)} "
            f"unreferenced commit(s) stand on the task's base (tips: {listed}); look at them "
            f"(`git log --oneline {tips[0][:12]}`) and restore the right one with "
            f"`git branch {branch} <commit>`"
        )
