"""The task's journal in git: one commit per state change under refs/taskproto/tasks/<task>.

Each commit's tree holds task.json and one `status-<agent>.json` per agent; its
parent is the previous change. The ref moves with an expected old value, so two
writers can never fork the history. `git log refs/taskproto/tasks/<task>` is the
audit trail, and doctor rebuilds a lost task.json from the newest commit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taskproto.errors import TaskprotoError
from taskproto.git.command import Git
from taskproto.git.files import find_repo
from taskproto.git.objects import write_commit
from taskproto.git.repo import JournalCommit, Repo

REF_PREFIX = "refs/taskproto/tasks/"
ARCHIVE_PREFIX = "refs/taskproto/archive/"
TASK_FILE = "task.json"


def ref_for(task: str) -> str:
    return REF_PREFIX + task


def status_entry(agent: str) -> str:
    return f"status-{agent}.json"


def append(git: Git, task: str, files: dict[str, Path], message: str) -> str:
    """Record the given files (tree entry name -> path on disk) as the next journal commit.

    The objects are written in-process (git/objects.py) and the ref moved by one `git
    update-ref` with the expected old value; git's plumbing writes them when the repository
    needs it (SHA-256, an object directory elsewhere)."""
    ref = ref_for(task)
    names = sorted(files)
    dirs = find_repo(str(git.cwd))
    old = dirs.ref_sha(ref) if dirs is not None else git.ref_sha(ref)
    commit = None
    if dirs is not None:
        commit = write_commit(dirs, [(n, files[n].read_bytes()) for n in names], old, message)
    if commit is None:
        blobs = git.write_blobs([files[n] for n in names])
        tree = git.mktree(("100644", sha, name) for name, sha in zip(names, blobs, strict=True))
        commit = git.commit_tree(tree, old, message)
    git.update_ref(ref, commit, old, message=f"taskproto: {message.splitlines()[0]}")
    return commit


def head(git: Git, task: str) -> str | None:
    return git.ref_sha(ref_for(task))


def archive(git: Git, task: str, stamp: str) -> str | None:
    """Move a removed task's journal aside (kept, never deleted) and return the new ref."""
    ref = ref_for(task)
    sha = git.ref_sha(ref)
    if sha is None:
        return None
    target = f"{ARCHIVE_PREFIX}{task}/{stamp}"
    git.update_ref(target, sha, None, message="taskproto: archive")
    git.delete_ref(ref, sha)
    return target


# --- reading (GitPython: one persistent cat-file process for many objects) ------------------


def read_file(repo: Repo, rev: str, name: str = TASK_FILE) -> bytes | None:
    return repo.blob(f"{rev}:{name}")


def history(repo: Repo, ref: str, limit: int | None = None) -> list[JournalCommit]:
    """The journal's commits, newest first, each with its files."""
    return repo.history(ref, limit)


def latest_archive(repo: Repo, task: str) -> str | None:
    refs = repo.refs(f"{ARCHIVE_PREFIX}{task}/")
    return max(refs) if refs else None


def task_json_at(repo: Repo, rev: str) -> dict[str, object] | None:
    data = read_file(repo, rev)
    if data is None:
        return None
    try:
        loaded = json.loads(data)
    except ValueError:
        return None
    return loaded if isinstance(loaded, dict) else None


def transition_log(repo: Repo, task: str) -> tuple[str, list[dict[str, Any]]]:
    """The task's transition log from its journal (or its newest archive, for a removed task): (ref,
    entries)."""
    ref = ref_for(task)
    if not repo.refs(ref):
        ref = latest_archive(repo, task) or ref
    data = task_json_at(repo, ref)
    if data is None:
        raise TaskprotoError(
            f"task {task!r} has no journal ({ref_for(task)}); run `taskproto doctor`"
        )
    raw = data.get("transition_log")
    return ref, [e for e in raw if isinstance(e, dict)] if isinstance(raw, list) else []
