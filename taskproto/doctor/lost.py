"""Where a deleted task or agent branch last pointed: first its last move as the
reference-transaction hook recorded it (state/tips.py: exact, no guess); else what taskproto
records (the task's merge records, the journal's checkpoint), the worktree's HEAD log, reflogs, the
shared remote.

A branch is re-created only at a commit one of these names; with none, and commits dangling on top
of the task's base that may be its work, doctor refuses and names them rather than re-creating the
branch somewhere else while the work dangles, and offers each as an option `taskproto recover TASK
--option N` carries out (git's own `git branch` is refused by taskproto's hook in a state without
commits). A stash is never taken for a branch's work. A commit that is named but no longer exists is
reported as lost.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from taskproto.doctor.model import Option
from taskproto.doctor.repair import head_log_sha
from taskproto.engine import Engine
from taskproto.errors import GitError, WorkAtRisk
from taskproto.names import agent_branch
from taskproto.state import journal, tips
from taskproto.state.models import Task

ZERO = "0" * 40
TIPS = "the branch's last move, recorded by the reference-transaction hook"
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
    found: list[tuple[str, str]] = list(_recorded(task, branch))
    moved_to = tips.last(str(engine.config.task_dir(task.name)), branch)
    if moved_to:
        found.insert(0, (moved_to, f"{TIPS} ({tips.NAME})"))
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


def _recorded(task: Task, branch: str) -> list[tuple[str, str]]:
    """What the task's own record says the branch held: an agent's head when `taskproto merge`
    merged it, the task branch after the merge, the commit it landed."""
    found: list[tuple[str, str]] = []
    for m in reversed(task.merges):
        if agent_branch(task.name, m.agent) == branch:
            found.append(
                (m.commit, f"the task's merge record of {m.agent} ({m.at:%Y-%m-%d %H:%M})")
            )
            break
    if branch == task.name:
        merged = [m for m in task.merges if m.merge_commit]
        if merged:
            found.append(
                (
                    str(merged[-1].merge_commit),
                    f"the task's merge record of {merged[-1].agent} (the task branch after it)",
                )
            )
        if task.landed is not None:
            found.append((task.landed.approved, "the task's land record (the approved commit)"))
    return found


def _stashes(engine: Engine, shas: list[str]) -> set[str]:
    """The commits among `shas` that `git stash` made: an entry of the stash's reflog, or a merge
    whose second parent is its `index on ...` commit (a dropped stash); with their index and
    untracked-files parents. They are never a branch's work."""
    found = {row[1] for row in _log_lines(engine.config.common_dir / "logs" / "refs" / "stash")}
    if not shas:
        return found
    try:
        out = engine.repo.run("log", "--no-walk=unsorted", "--format=%H %P%x09%s", *shas)
    except GitError:
        return found
    rows: dict[str, tuple[list[str], str]] = {}
    for line in out.splitlines():
        head, _, subject = line.partition("\t")
        ids = head.split()
        if ids:
            rows[ids[0]] = (ids[1:], subject)
    for sha, (parents, _) in rows.items():
        second = rows.get(parents[1]) if len(parents) >= 2 else None
        if sha in found or (second is not None and second[1].startswith("index on ")):
            found.add(sha)
            found.update(parents[1:])
    return found


def dangling_on(engine: Engine, base: str) -> list[str]:
    """Tips of commits no ref reaches (reflogs not counted) that stand on `base`, stashes left
    out."""
    try:
        out = engine.repo.run("fsck", "--unreachable", "--no-reflogs", "--no-progress")
    except GitError:
        return []
    shas = [line.split()[2] for line in out.splitlines() if line.startswith("unreachable commit ")]
    shas = shas[: MAX_DANGLING * 5]
    stashes = _stashes(engine, shas)
    shas = [s for s in shas if s not in stashes and engine.repo.is_ancestor(base, s)]
    shas = shas[:MAX_DANGLING]
    return [s for s in shas if not any(o != s and engine.repo.is_ancestor(s, o) for o in shas)]


def last_tip(engine: Engine, branch: str, worktree: Path | None, task: Task) -> Tip:
    """The commit to re-create `branch` at: the most advanced one the sources name that exists."""
    tip = Tip()
    for sha, source in candidates(engine, branch, worktree, task):
        if not engine.repo.object_exists(sha):
            tip.lost.append((sha, source))
            continue
        if source.startswith(TIPS):  # the last move itself: exact, whatever the others say
            tip.sha, tip.source = sha, source
            return tip
        if tip.sha is None or (sha != tip.sha and engine.repo.is_ancestor(tip.sha, sha)):
            tip.sha, tip.source = sha, source
    return tip


MAX_OFFERED = 3  # options in an escalation: one per dangling tip


def _subjects(engine: Engine, shas: list[str]) -> dict[str, str]:
    try:
        out = engine.repo.run("log", "--no-walk=unsorted", "--format=%H %s", *shas)
    except GitError:
        return {}
    return {line[:40]: line[41:] for line in out.splitlines() if len(line) > 40}


def restore_options(engine: Engine, branch: str, base: str | None) -> tuple[Option, ...]:
    """One option per commit dangling on the task's base that may be the branch's work: re-create
    the branch there (`taskproto recover TASK --option N` runs it through taskproto's git layer,
    which the reference-transaction hook lets through in any state)."""
    if not base:
        return ()
    tips = dangling_on(engine, base)[:MAX_OFFERED]
    subjects = _subjects(engine, tips)
    return tuple(
        Option(
            f"Re-create {branch} at {tip[:12]} ({subjects.get(tip, 'a commit on the task base')})"
            f", after a look at it (`git log --oneline -5 {tip[:12]}`)",
            "the branch gets back the work that stands on its base",
            "only right if that commit is the branch's work",
            command=("git", "branch", branch, tip),
        )
        for tip in tips
    )


def refuse_dangling(engine: Engine, task: str, branch: str, base: str | None) -> None:
    """Refuse re-creating `branch` at a fallback while commits that may be its work dangle."""
    offered = restore_options(engine, branch, base)
    if offered:
        tips = ", ".join(str(o.command[-1])[:12] for o in offered if o.command)
        raise WorkAtRisk(
            f"branch {branch} is gone and nothing taskproto keeps (merge records, journal, "
            f"worktree, reflogs) names its last commit, but {len(offered)} unreferenced "
            f"commit(s) stand on the task's base ({tips}); look at them and re-create it at the "
            f"right one with `taskproto recover {task} --option N` (the options below)"
        )
