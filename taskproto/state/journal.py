"""The task's journal in git: one commit per state change under refs/taskproto/tasks/<task>.

Each commit's tree holds task.json and one `status-<agent>.json` per agent; its
parent is the previous change. The ref moves with an expected old value, so two
writers can never fork the history. `git log refs/taskproto/tasks/<task>` is the
audit trail, and doctor rebuilds a lost task.json from the newest commit.
"""

from __future__ import annotations

import os

from taskproto import plainjson as json
from taskproto.errors import TaskprotoError
from taskproto.git import objects, reffiles
from taskproto.git.command import Git
from taskproto.git.files import GitDirs
from taskproto.state import integrity

TYPE_CHECKING = False
if TYPE_CHECKING:  # GitPython's side, for the readers below; a journal write never needs it
    from collections.abc import Callable, Mapping
    from pathlib import Path
    from typing import Any

    from taskproto.git.repo import JournalCommit, Repo
    from taskproto.git.signing import Setup
    from taskproto.layout import Layout

REF_PREFIX = "refs/taskproto/tasks/"
ARCHIVE_PREFIX = "refs/taskproto/archive/"
TASK_FILE = "task.json"


def ref_for(task: str) -> str:
    return REF_PREFIX + task


def lock_file(repo: str, task: str) -> str:
    """Where git keeps the lock of refs/taskproto/tasks/<task> (`repo`: the main worktree), found
    without starting git."""
    common = os.path.join(repo, ".git")
    if os.path.isfile(common):  # a separate git dir: `gitdir: <path>`
        with open(common, encoding="utf-8", errors="replace") as f:
            text = f.read().strip()
        if text.startswith("gitdir:"):
            common = os.path.realpath(os.path.join(repo, text[len("gitdir:") :].strip()))
    return os.path.join(common, ref_for(task)) + ".lock"


def status_entry(agent: str) -> str:
    return f"status-{agent}.json"


def keep_good_statuses(
    files: dict[str, bytes], where: Callable[[], tuple[Repo, str | None]]
) -> None:
    """A status file that does not read as a JSON object (a write cut short, a hand edit) is not
    copied into the journal: its entry stays as the journal's head holds it, which doctor
    restores from, or is left out. `where` gives the repository and the journal's head, asked
    only when a file is bad (the one write path imports no more for a good one)."""
    for entry, data in list(files.items()):
        if entry == TASK_FILE:
            continue
        try:
            if isinstance(json.loads(data), dict):
                continue
        except ValueError:
            pass
        repo, head = where()
        kept = read_file(repo, head, entry) if head else None
        if kept is not None:
            files[entry] = kept
        else:
            del files[entry]


def append(
    git: Git,
    dirs: GitDirs | None,
    task: str,
    files: Mapping[str, bytes],
    summary: str,
    revision: int,
    sign: Setup | None = None,
) -> str:
    """Record `files` (tree entry name -> contents; task.json among them) as the task's next journal
    commit, its message carrying the revision and task.json's digest; returns the commit.

    With `sign` (the user's action, engine/signing.py), git makes the commit signed; when git
    cannot sign it, the commit is made unsigned (`sign.failed` says why) unless `sign.required`.

    The objects are written in-process as loose objects (git's own format) and the ref moves
    expecting its old value (in-process under git's ref lock, or `git update-ref`), so two
    writers never fork the history.
    Repositories whose objects are not SHA-1 get git's plumbing instead.
    """
    ref = ref_for(task)
    text = integrity.message(summary, revision, files[TASK_FILE])
    old = dirs.ref_sha(ref) if dirs is not None else git.ref_sha(ref)
    if dirs is not None and objects.sha1_repo(dirs.common_dir):
        entries = [(n, objects.write(dirs.common_dir, "blob", files[n])) for n in files]
        tree = objects.write(dirs.common_dir, "tree", objects.tree(entries))
        commit = _signed(git, sign, tree, old, text) or objects.write(
            dirs.common_dir, "commit", objects.commit(tree, old, text)
        )
    else:
        names = sorted(files)
        blobs = [git.write_blob_bytes(files[n]) for n in names]
        tree = git.mktree(("100644", sha, n) for n, sha in zip(names, blobs, strict=True))
        commit = _signed(git, sign, tree, old, text) or git.commit_tree(tree, old, text)
    move(git, dirs, ref, commit, old, f"taskproto: {summary}")
    return commit


def _signed(git: Git, sign: Setup | None, tree: str, parent: str | None, text: str) -> str | None:
    """The commit made and signed by git, or None (no signing asked, or git failed to sign and
    the signature is not required)."""
    if sign is None:
        return None
    from taskproto.errors import GitError
    from taskproto.git import signing

    try:
        return signing.commit_tree_signed(git, tree, parent, text)
    except GitError as exc:
        if sign.required:
            raise TaskprotoError(
                f"refused: git could not sign the approval ({exc.stderr.strip() or exc}); "
                f"{signing.SETUP_HINT}"
            ) from None
        sign.failed = (exc.stderr.strip().splitlines() or [str(exc)])[-1]
        return None


def first_commit(
    dirs: GitDirs,
    files: Mapping[str, bytes],
    summary: str,
    revision: int,
    parent: str | None = None,
    sync: bool = False,
) -> list[str] | None:
    """The objects of a new task's journal commit (the commit last; `parent`: an import's whole
    history before the task.json it keeps), no ref moved: the caller moves it (`move`) once the
    rest of the task is made. Without `sync`, written without their fsyncs: the caller makes many
    durable together (engine/imported.py); `task create` syncs them while git makes the worktree.
    None where objects are git's to write (not SHA-1)."""
    if not objects.sha1_repo(dirs.common_dir):
        return None
    text = integrity.message(summary, revision, files[TASK_FILE])
    common = dirs.common_dir
    written = [objects.write(common, "blob", files[n], sync=sync) for n in files]
    tree = objects.write(
        common, "tree", objects.tree(list(zip(files, written, strict=True))), sync=sync
    )
    commit = objects.write(common, "commit", objects.commit(tree, parent, text), sync=sync)
    return [*written, tree, commit]


def agent_files(
    layout: Layout,
    task: str,
    agents: list[str],
    writes: Mapping[str, bytes] | Mapping[Path, bytes] | None = None,
) -> dict[str, bytes]:
    """The agents' status files a journal commit of `task` holds: each as `writes` (path -> new
    bytes) will make it, else as it is on disk. A status file reached through a link, or an agent
    name that is not one, is left out: what a link points at is never copied into the journal."""
    if not agents:  # a task without agents: no status file
        return {}
    from taskproto.names import agent_name
    from taskproto.state.files import no_links_between

    new_bytes = {os.fspath(path): data for path, data in (writes or {}).items()}
    files: dict[str, bytes] = {}
    for agent in agents:
        try:
            status = layout.status_file(task, agent_name(agent))
            no_links_between(layout.tasks, status)
        except TaskprotoError:
            continue
        new = new_bytes.get(status)
        if new is not None:
            files[status_entry(agent)] = new
        elif os.path.isfile(status) and not os.path.islink(status):
            with open(status, "rb") as fh:
                files[status_entry(agent)] = fh.read()
    return files


def take_back(git: Git, dirs: GitDirs | None, task: str, old: str | None, new: str | None) -> None:
    """Put the journal of `task` back from `new` to `old` (None: it had none) after a save that
    failed once its commit was written."""
    if new is None or new == old:
        return
    if old is None:
        git.delete_ref(ref_for(task), new)
    else:
        move(git, dirs, ref_for(task), old, new, "taskproto: undo (the save failed)")


def move(git: Git, dirs: GitDirs | None, ref: str, new: str, old: str | None, message: str) -> None:
    """Compare-and-swap one of taskproto's refs: in-process when that is the same as asking git
    (git/reffiles.py), else `git update-ref`. Past a bound of loose refs, packs them (amortised:
    a user's `git gc` then has few loose refs to prune, each a hook run; reffiles.keep_packed)."""
    if dirs is None or not reffiles.update(dirs, ref, new, old):
        git.update_ref(ref, new, old, message=message)
    if dirs is not None:
        reffiles.keep_packed(dirs)


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


def keep_archive(git: Git, task: str, sha: str, stamp: str) -> str:
    """Keep a journal that was never this clone's task (landed elsewhere) as an archive."""
    target = f"{ARCHIVE_PREFIX}{task}/{stamp}"
    git.update_ref(target, sha, None, message="taskproto: archive")
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
