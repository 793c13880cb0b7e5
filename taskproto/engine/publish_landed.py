"""Journals of tasks landed here that the shared remote lacks, published on it (docs/remote.md,
"Turning it on").

`land` archives a task's journal (`refs/taskproto/archive/<task>/<time>`) and leaves the remote's
journal as it was: with the remote on, that journal already reached it, so the other machines see
the task "landed elsewhere". A task landed before `init --remote` (or while the remote was off)
never reached it, and a task on another machine waiting for it waited forever. So `init --remote`
and every `sync` push such an archive's head to `refs/taskproto/tasks/<task>`, by compare-and-swap:
expecting the ref absent, or at the older head of the same journal the remote holds. A remote
holding another journal of that name, or a removal of another, is a conflict: reported, nothing
overwritten. Only landed archives: a task removed here before the remote was on was never on the
other machines, so it stays removed there (a removal made with the remote on is published by
`task remove` itself, engine/removed.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taskproto.engine.core import Core
from taskproto.remote import Remote, RemoteError
from taskproto.remote.removal import REMOVED_PREFIX
from taskproto.state import journal


@dataclass
class LandedPublished:
    published: list[str] = field(default_factory=list)
    conflicts: dict[str, str] = field(default_factory=dict)  # task -> why it was not published
    unreachable: str | None = None  # why the remote could not be asked (init: the next sync does)

    def as_dict(self) -> dict[str, Any]:
        return {
            "published": self.published,
            "conflicts": self.conflicts,
            "unreachable": self.unreachable,
        }


def newest_archive_refs(refs: dict[str, str]) -> dict[str, str]:
    """{task: its newest archive ref} of the archive refs among `refs`
    (refs/taskproto/archive/<task>/<UTC stamp>: the newest sorts last)."""
    from taskproto.engine.journals import task_of

    newest: dict[str, str] = {}
    for ref in refs:
        if ref.startswith(journal.ARCHIVE_PREFIX):
            task = task_of(ref)
            newest[task] = max(newest.get(task, ref), ref)
    return newest


def newest_archives(refs: dict[str, str]) -> dict[str, str]:
    """{task: head of its newest archive} of the archive refs among `refs` ({ref: sha})."""
    return {task: refs[ref] for task, ref in newest_archive_refs(refs).items()}


def publish_all(core: Core) -> LandedPublished:
    """`init --remote`: ask the remote for its journals and removals (one `ls-remote`), then
    publish every landed archive here that it lacks."""
    assert core.remote is not None
    refs = core.repo.refs(journal.REF_PREFIX, journal.ARCHIVE_PREFIX)
    archives = newest_archives(refs)
    live = {r[len(journal.REF_PREFIX) :] for r in refs if r.startswith(journal.REF_PREFIX)}
    if not set(archives) - live:
        return LandedPublished()
    try:
        with core.remote.network("listing its journals"):
            there = core.remote.git.ls_remote(
                core.remote.name, [journal.REF_PREFIX + "*", REMOVED_PREFIX + "*"]
            )
    except RemoteError as exc:
        return LandedPublished(unreachable=exc.detail)
    theirs = {
        r[len(journal.REF_PREFIX) :]: s
        for r, s in there.items()
        if r.startswith(journal.REF_PREFIX)
    }
    # a marker's parent is the journal head it removed: an archive it covers is its ancestor
    removals = {
        r[len(REMOVED_PREFIX) :]: s for r, s in there.items() if r.startswith(REMOVED_PREFIX)
    }
    return publish(core, archives, live, theirs, removals)


def publish(
    core: Core,
    archives: dict[str, str],
    live: set[str],
    theirs: dict[str, str],
    removals: dict[str, str],
) -> LandedPublished:
    """Push each landed archive's head the remote lacks (`theirs`: its journal heads; `removals`:
    the journal head each of its removal markers covers, or the marker). A task with a journal
    here (`live`) is sync's; one the remote already holds (or a later head of) is done."""
    remote, repo = core.remote, core.repo
    assert remote is not None
    done = LandedPublished()
    wanted: dict[str, str | None] = {}  # task -> the head expected there (None: no journal)
    for name, sha in sorted(archives.items()):
        other = theirs.get(name)
        if name in live or other == sha:
            continue
        if other is not None and repo.is_ancestor(sha, other):
            continue  # the remote has it, and more
        gone = removals.get(name)
        if gone is not None and (gone == sha or repo.is_ancestor(sha, gone)):
            continue  # removed there after it reached it
        if not _landed(core, sha):
            continue  # removed here: stays removed here only (docs/remote.md, removed tasks)
        if gone is not None:
            done.conflicts[name] = _conflict(remote.name, "a removal of another task", gone)
        elif other is not None and not repo.is_ancestor(other, sha):
            done.conflicts[name] = _conflict(remote.name, "another journal", other)
        else:
            wanted[name] = other
    if not wanted:
        return done
    heads = {name: archives[name] for name in wanted}
    for name, why in push_journals(remote, heads, wanted, "publishing landed tasks' journals"):
        if why is None:
            done.published.append(name)
        else:
            done.conflicts[name] = (
                f"its journal here was not published on remote {remote.name!r} ({why}): it "
                "changed there meanwhile; run `taskproto sync` to look again; nothing was "
                "overwritten"
            )
    return done


def push_journals(
    remote: Remote, heads: dict[str, str], expected: dict[str, str | None], doing: str
) -> list[tuple[str, str | None]]:
    """Push each task's journal head (`heads`) to its ref on `remote`, each expecting the head
    `expected` there (None: no journal), and track each one pushed; for each task, None when
    pushed, else why not. Not atomic: each journal is its own history, and one rejected should
    not hold back the rest (sync's push and the landed tasks' publishing)."""
    if not heads:
        return []
    refs = {journal.ref_for(n): n for n in heads}
    with remote.network(doing):
        statuses = remote.git.push(
            remote.name,
            [f"{heads[n]}:{r}" for r, n in refs.items()],
            {r: expected[n] for r, n in refs.items()},
        )
    result: list[tuple[str, str | None]] = []
    for ref, name in refs.items():
        status = statuses.get(ref)
        if status is not None and status.ok:
            remote.track_task(name, heads[name])
            result.append((name, None))
        else:
            result.append((name, status.summary if status else "not pushed"))
    return result


def _conflict(remote: str, what: str, sha: str) -> str:
    return (
        f"landed here, but remote {remote!r} holds {what} of that name ({sha[:12]}), so its "
        "journal here was not published (a task waiting for it on another machine waits); "
        "nothing was overwritten"
    )


def _landed(core: Core, sha: str) -> bool:
    data = journal.task_json_at(core.repo, sha)
    return bool(data and data.get("landed"))
