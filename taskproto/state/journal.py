"""The task's journal in git: one commit per state change under refs/taskproto/tasks/<task>.

Each commit's tree holds task.json and one `status-<agent>.json` per agent; its
parent is the previous change. The ref moves with an expected old value, so two
writers can never fork the history. `git log refs/taskproto/tasks/<task>` is the
audit trail, and doctor rebuilds a lost task.json from the newest commit.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taskproto.git.command import Git

REF_PREFIX = "refs/taskproto/tasks/"
ARCHIVE_PREFIX = "refs/taskproto/archive/"
TASK_FILE = "task.json"


def ref_for(task: str) -> str:
    return REF_PREFIX + task


def status_entry(agent: str) -> str:
    return f"status-{agent}.json"


@dataclass(frozen=True)
class JournalCommit:
    sha: str
    message: str
    task_json: bytes | None


def append(git: Git, task: str, files: dict[str, Path], message: str) -> str:
    """Record the given files (tree entry name -> path on disk) as the next journal commit."""
    ref = ref_for(task)
    names = sorted(files)
    blobs = git.write_blobs([files[n] for n in names])
    tree = git.mktree(("100644", sha, name) for name, sha in zip(names, blobs, strict=True))
    old = git.ref_sha(ref)
    commit = git.commit_tree(tree, old, message)
    git.update_ref(ref, commit, old, message=f"taskproto: {message.splitlines()[0]}")
    return commit


def head(git: Git, task: str) -> str | None:
    return git.ref_sha(ref_for(task))


def read_file(git: Git, rev: str, name: str = TASK_FILE) -> bytes | None:
    return git.show_file(rev, name)


def read_all_heads(git: Git) -> dict[str, str]:
    """Every task's journal head in one git call: {task: sha}."""
    heads: dict[str, str] = {}
    for line in git.for_each_ref(REF_PREFIX):
        ref, _, sha = line.partition(" ")
        heads[ref[len(REF_PREFIX) :]] = sha
    return heads


def history(repo: Path, ref: str, limit: int | None = None) -> list[JournalCommit]:
    """The journal's commits, newest first, with each one's task.json (GitPython)."""
    import git as gitpython  # heavy import, only where the whole history is read

    r = gitpython.Repo(repo)
    result: list[JournalCommit] = []
    for commit in r.iter_commits(ref, max_count=limit):
        try:
            data: bytes | None = (commit.tree / TASK_FILE).data_stream.read()
        except KeyError:
            data = None
        message = commit.message if isinstance(commit.message, str) else commit.message.decode()
        result.append(JournalCommit(commit.hexsha, message.strip(), data))
    return result


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


def latest_archive(git: Git, task: str) -> str | None:
    refs = [line.split(" ")[0] for line in git.for_each_ref(f"{ARCHIVE_PREFIX}{task}/")]
    return max(refs) if refs else None


def task_json_at(git: Git, rev: str) -> dict[str, object] | None:
    data = read_file(git, rev)
    if data is None:
        return None
    try:
        loaded = json.loads(data)
    except ValueError:
        return None
    return loaded if isinstance(loaded, dict) else None


def transition_log(git: Git, task: str) -> tuple[str, list[dict[str, Any]]]:
    """The task's transition log from its journal (or its newest archive, for a removed task): (ref, entries)."""
    from taskproto.errors import TaskprotoError

    ref = ref_for(task)
    if git.ref_sha(ref) is None:
        ref = latest_archive(git, task) or ref
    data = task_json_at(git, ref)
    if data is None:
        raise TaskprotoError(
            f"task {task!r} has no journal ({ref_for(task)}); run `taskproto doctor`"
        )
    raw = data.get("transition_log")
    return ref, [e for e in raw if isinstance(e, dict)] if isinstance(raw, list) else []
