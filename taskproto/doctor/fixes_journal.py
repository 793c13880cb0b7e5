"""The fixes of the integrity findings: the journal is the authority, so each restores from it.

A task.json (or status file) the journal does not vouch for is moved aside, never deleted,
and the journal's record is written back with a repair entry on top of the journal's head:
the history is kept, and nothing the journal did not hold is ever journaled. A lost journal
ref gets its whole history back (from the shared remote or from git's dangling commits)
before doctor would ever start a new one.
"""

from __future__ import annotations

from pathlib import Path

from taskproto import plainjson as json
from taskproto.doctor.fixes import FixContext, fix, name_of
from taskproto.doctor.model import Finding
from taskproto.doctor.repair import repair_entry, set_aside, stamp
from taskproto.engine import Engine
from taskproto.errors import GitError, TaskprotoError
from taskproto.git import objects
from taskproto.git.repo import JournalCommit
from taskproto.state import integrity, journal, store
from taskproto.state.models import Task

RESTORES = ("task-stale-copy", "journal-ahead", "task-forged", "journal-behind")


def _restore(
    engine: Engine, name: str, check: str, source: JournalCommit, head_rev: int, why: str = ""
) -> str:
    """Write `source`'s task.json and status files back (lock held), keeping what they replace;
    `why` opens the repair entry's note."""
    path = engine.config.task_file(name)
    data = source.files.get(journal.TASK_FILE)
    if data is None:
        raise TaskprotoError(f"journal commit {source.sha[:12]} of {name} holds no task.json")
    task = Task.model_validate_json(data)
    gained = _approvals(data) - _approvals(path.read_bytes() if path.is_file() else b"")
    if gained:  # an approval task.json lacks comes back only when the user says so (#39)
        engine.require_user(
            f"restoring task {name} from journal commit {source.sha[:12]}, which brings back "
            f"its {' and '.join(sorted(gained))} approval that task.json lacks,"
        )
    kept: list[str] = []
    if path.exists() and path.read_bytes() != data:
        kept.append(set_aside(path, check).name)
    files: dict[Path, bytes] = {}
    for agent in task.required_agents:
        logged = source.files.get(journal.status_entry(agent))
        target = engine.config.status_file(name, agent)
        if logged is None:
            continue
        if target.exists() and target.read_bytes() != logged:
            kept.append(f"agents/{agent}/{set_aside(target, check).name}")
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            files[target] = logged
    revision = task.revision
    note = (
        why
        + f"restored task.json revision {revision} from journal commit {source.sha[:12]}"
        + (f"; kept the rejected file(s) as {', '.join(kept)}" if kept else "")
    )
    task.revision = head_rev  # the repair is the journal's next revision, on top of its head
    task.transition_log.append(repair_entry(task.state, check, note))
    engine.save(None, task, f"repair {check}: {note}", files=files)
    return note


def _approvals(data: bytes) -> set[str]:
    """The approvals ("plan", "commit") a task.json's bytes record; none when they do not parse."""
    try:
        checkpoint = json.loads(data).get("checkpoint") or {}
        return {k for k in ("plan", "commit") if checkpoint.get(f"{k}_approval")}
    except (ValueError, AttributeError):
        return set()


def _head(engine: Engine, name: str) -> JournalCommit:
    found = journal.history(engine.repo, journal.ref_for(name), limit=1)
    if not found:
        raise TaskprotoError(f"task {name} has no journal to restore from")
    return found[0]


def _revision(commit: JournalCommit) -> int:
    revision, _ = integrity.parse(commit.message.encode())
    if revision is not None:
        return revision
    return Task.model_validate_json(commit.files[journal.TASK_FILE]).revision


@fix(*RESTORES, "agent-status-not-journaled")
def restore_head(ctx: FixContext, f: Finding) -> str:
    engine, name = ctx.engine, name_of(f)
    with engine.lock(name) as path:
        head = _head(engine, name)
        current = path.read_bytes() if path.is_file() else None
        if current == head.files.get(journal.TASK_FILE) and not _status_differs(engine, head):
            return "task.json and the status files agree with the journal now; nothing to do"
        return _restore(engine, name, f.check, head, _revision(head))


def _status_differs(engine: Engine, head: JournalCommit) -> bool:
    task = Task.model_validate_json(head.files[journal.TASK_FILE])
    for agent in task.required_agents:
        logged = head.files.get(journal.status_entry(agent))
        target = engine.config.status_file(task.name, agent)
        if logged is not None and (not target.is_file() or target.read_bytes() != logged):
            return True
    return False


@fix("state-log-mismatch")
def restore_consistent(ctx: FixContext, f: Finding) -> str:
    """Back to the newest journal commit whose state its own log reached."""
    engine, name = ctx.engine, name_of(f)
    with engine.lock(name) as path:
        current = path.read_bytes() if path.is_file() else b""
        try:
            if integrity.log_state_problem(json.loads(current)) is None:
                return "the state agrees with the log now; nothing to do"
        except (ValueError, AttributeError):
            pass
        commits = journal.history(engine.repo, journal.ref_for(name))
        for commit in commits:
            data = commit.files.get(journal.TASK_FILE)
            try:
                parsed = json.loads(data) if data is not None else None
            except ValueError:
                continue
            if isinstance(parsed, dict) and integrity.log_state_problem(parsed) is None:
                return _restore(engine, name, f.check, commit, _revision(commits[0]))
    raise TaskprotoError(
        f"no journal commit of {name} holds a state its own log reached; restore a task.json by "
        f"hand from `git log -p {journal.ref_for(name)}`"
    )


@fix("journal-missing")
def restore_journal(ctx: FixContext, f: Finding) -> str:
    """The lost journal's history from the remote or from dangling commits; a new one only when
    none exists anywhere (then the task needs review)."""
    engine, name = ctx.engine, name_of(f)
    with engine.lock(name) as path:
        if engine.journal_head(name) is not None:
            return "the journal is back; nothing to do"
        return _rejournal(engine, name, path, f.check)


@fix("journal-corrupt")
def restore_corrupt(ctx: FixContext, f: Finding) -> str:
    """A journal ref naming a commit git cannot read: its history from the remote or from its
    readable dangling commits (the unreadable head's parent is one), as for a lost ref."""
    engine, name = ctx.engine, name_of(f)
    with engine.lock(name) as path:
        sha = engine.journal_head(name)
        if sha is None:
            return "the journal ref is gone; journal-missing repairs that"
        if _readable(engine, sha):
            return "git reads the journal's newest commit again; nothing to do"
        kept = [_keep_object(engine, name, o, f.check) for o in _spoilt(engine, sha)]
        # the ref names an object that cannot be read: moving it loses no commit (none is there)
        engine.git.delete_ref(journal.ref_for(name), sha)
        why = f"its newest commit {sha} was unreadable" + (
            f" (corrupt object file(s) kept as {', '.join(kept)})" if kept else ""
        )
        return _rejournal(engine, name, path, f.check, why + "; ")


def _spoilt(engine: Engine, sha: str) -> list[str]:
    """Which of the journal head's commit, tree and task.json are loose object files git cannot
    read (a crash's empty file): left there, they stop `git gc` (its prune fails on them)."""
    ids = [sha]
    for spec in (f"{sha}^{{tree}}", f"{sha}:{journal.TASK_FILE}"):
        try:
            ids.append(engine.git.run("rev-parse", "--verify", "--quiet", spec).strip())
        except GitError:
            break  # this one cannot be read: nothing below it can be named
    return [o for o in ids if _loose(engine, o).is_file() and not _reads(engine, "-t", o)]


def _loose(engine: Engine, oid: str) -> Path:
    dirs = engine.config.layout.dirs
    common = (
        dirs.common_dir if dirs is not None else engine.git.run("rev-parse", "--git-common-dir")
    )
    return (engine.config.repo / objects.loose_path(common.strip(), oid)).resolve()


def _keep_object(engine: Engine, name: str, oid: str, check: str) -> str:
    """Move a corrupt object file out of git's objects into the task's folder (kept, never
    deleted); returns its new name there."""
    import shutil

    target = engine.config.task_dir(name) / f"journal-object-{oid}.{check}-{stamp()}"
    shutil.move(_loose(engine, oid), target)
    return target.name


def _readable(engine: Engine, rev: str) -> bool:
    """Whether git reads `rev`'s task.json (its commit, tree and blob)."""
    return _reads(engine, "blob", f"{rev}:{journal.TASK_FILE}")


def _reads(engine: Engine, *args: str) -> bool:
    """Whether `git cat-file ARGS` reads what it names, in a process of its own: an object git
    finds corrupt ends the process that reads it (`-e` would only look for its file)."""
    try:
        engine.git.run("cat-file", *args)
    except GitError:
        return False
    return True


def _rejournal(engine: Engine, name: str, path: Path, check: str, why: str = "") -> str:
    """Give the task (lock held, no journal ref) its journal's history back, from the remote or
    git's dangling commits, and restore its newest task.json; else start a new journal from the
    current task.json, which then needs review. `why` opens the notes."""
    ref = journal.ref_for(name)
    found = _from_remote(engine, name) or _dangling(engine, name)
    if found is not None:
        sha, where = found
        engine.git.update_ref(ref, sha, None, message=f"taskproto: doctor restored ({where})")
        tip = journal.history(engine.repo, ref, limit=1)[0]
        count = len(journal.history(engine.repo, ref))
        note = f"restored the journal's {count} commits from {where} (head {sha[:12]})"
        return note + "; " + _restore(engine, name, check, tip, _revision(tip), why)
    task = store.load_task(path)
    task.needs_review = True
    note = why + (
        "no history of this journal exists here or on a remote; recorded the current task.json "
        "as its first journal commit, needs review (it was not vouched for)"
    )
    task.transition_log.append(repair_entry(task.state, check, note))
    engine.save(None, task, f"repair {check}: {note}")
    return note


def _from_remote(engine: Engine, name: str) -> tuple[str, str] | None:
    remote = engine.config.remote
    if not remote:
        return None
    try:
        engine.git.run("fetch", "--quiet", "--no-tags", remote, journal.ref_for(name))
    except GitError:
        return None
    sha = engine.git.rev_parse("FETCH_HEAD")
    return (sha, f"remote {remote!r}") if sha else None


def _dangling(engine: Engine, name: str) -> tuple[str, str] | None:
    """The newest readable dangling journal commit of `name` (a deleted ref leaves its commits
    dangling, and so does a commit git cannot read for its parent). One `git cat-file --batch`
    reads them all, past any object git finds corrupt (doctor/reads.py)."""
    from taskproto.doctor import reads

    out = engine.git.run("fsck", "--no-reflogs", "--no-progress", "--dangling", check=False)
    shas = [
        parts[2]
        for parts in (line.split() for line in out.splitlines())
        if len(parts) == 3 and parts[:2] == ["dangling", "commit"]
    ]
    specs = [f"{sha}:{journal.TASK_FILE}" for sha in shas]
    repo = engine.config.repo
    best: tuple[int, str] | None = None
    for sha, data in zip(
        shas, reads.blobs(reads.start_blobs(repo, specs), specs, repo), strict=True
    ):
        try:
            parsed = json.loads(data) if data is not None else None
        except ValueError:
            continue
        if not isinstance(parsed, dict) or parsed.get("name") != name:
            continue
        revision = parsed.get("revision")
        if isinstance(revision, int) and (best is None or revision > best[0]):
            best = (revision, sha)
    return (best[1], "its dangling commits (git fsck)") if best is not None else None
