"""The integrity rule: task.json is trusted only when its journal vouches for it.

Every journal commit's message ends with the task's revision and the SHA-256 of the task.json
bytes it recorded:

    transition classify: INIT -> CLASSIFIED

    revision: 4
    digest: sha256:9f86d0...

Before a step is decided by a task's state, task.json is checked against the journal's head:
the same revision, the same bytes (the digest), and a state that the task's own transition log
reached. A copy of an older task.json, a hand edit, or a state set without its transition is
refused, naming `taskproto doctor`. The check reads the journal ref and one commit object from
git's files (standard library only, no git process while the commit is a loose object), so the
hooks make it on their fast path too.

Journal commits written before digests existed carry only the revision; for them the revision
alone is compared.
"""

from __future__ import annotations

import fcntl
import os
import time

from taskproto import plainjson as json
from taskproto.git import objects
from taskproto.git.files import GitDirs, run_git

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

REF_PREFIX = "refs/taskproto/tasks/"
REVISION = "revision: "
DIGEST = "digest: sha256:"

# What is wrong, as doctor names it.
STALE = "task-stale-copy"
AHEAD = "journal-ahead"
BEHIND = "journal-behind"
FORGED = "task-forged"
LOG_STATE = "state-log-mismatch"
NO_JOURNAL = "journal-missing"
CORRUPT = "journal-corrupt"

LOCK_WAIT = 5.0  # seconds a lock-free reader waits for a save in flight before it gives up


_last_digest: tuple[bytes, str] = (b"", "")


def digest(data: bytes) -> str:
    """SHA-256 of `data`. The last answer is kept: a process that saves a task checks the same
    bytes when it loads it again, and comparing them costs a tenth of hashing them again."""
    global _last_digest
    known, hexed = _last_digest
    if hexed and len(known) == len(data) and known == data:
        return hexed
    hexed = objects.sha256_hex(data)
    _last_digest = (data, hexed)
    return hexed


def message(summary: str, revision: int, task_json: bytes) -> str:
    """The journal commit message for a change: a summary line, then the revision and digest."""
    return f"{summary}\n\n{REVISION}{revision}\n{DIGEST}{digest(task_json)}\n"


def parse(text: bytes) -> tuple[int | None, str | None]:
    """(revision, digest) recorded in a journal commit message (None where absent)."""
    revision: int | None = None
    found: str | None = None
    for raw in text.decode("utf-8", "replace").splitlines():
        line = raw.strip()
        if line.startswith(REVISION) and line[len(REVISION) :].isdigit():
            revision = int(line[len(REVISION) :])
        elif line.startswith(DIGEST):
            found = line[len(DIGEST) :].strip() or None
    return revision, found


class Head:
    """The journal's newest commit of one task: its id and what its message records; `readable`
    is False when git cannot read the commit (missing or corrupt: nothing to compare with)."""

    def __init__(
        self, sha: str, revision: int | None, digest: str | None, readable: bool = True
    ) -> None:
        self.sha, self.revision, self.digest, self.readable = sha, revision, digest, readable


# Journal heads a listing read at once (`prefetch`), each taken by the check that asks for it
# next: never kept longer, so a long-lived process (the MCP server, the board) checks against the
# repository as it is, a commit since deleted or spoilt included.
_PREFETCHED: dict[str, bytes] = {}


def commit_body(dirs: GitDirs, sha: str) -> bytes | None:
    """A commit's contents: from its loose object, else from `git cat-file` (packed)."""
    body = _PREFETCHED.pop(sha, None)
    if body is not None:
        return body
    found = objects.read(dirs.common_dir, sha)
    if found is not None:
        return found[1] if found[0] == "commit" else None
    return run_git(dirs.top or dirs.common_dir, "cat-file", "commit", sha)


def prefetch(dirs: GitDirs, tasks: list[str]) -> None:
    """Read the journal heads of many tasks at once, for the checks that follow: the packed ones
    through one `git cat-file --batch` (a process per task would cost the board and the listings
    one each); a loose one is read in-process anyway."""
    _PREFETCHED.clear()
    wanted = []
    for task in tasks:
        sha = dirs.ref_sha(REF_PREFIX + task)
        if sha is not None and not objects.is_loose(dirs.common_dir, sha):
            wanted.append(sha)
    if len(wanted) < 2:
        return
    from taskproto.git.files import cat_batch

    for sha, (kind, body) in cat_batch(dirs.top or dirs.common_dir, wanted).items():
        if kind == "commit":
            _PREFETCHED[sha] = body


def forget() -> None:
    """Drop the heads `prefetch` read that no check took (a reader of many tasks, when done)."""
    _PREFETCHED.clear()


def journal_head(dirs: GitDirs, task: str) -> Head | None:
    """The journal's head of `task`, or None when it has no journal."""
    sha = dirs.ref_sha(REF_PREFIX + task)
    if sha is None:
        return None
    body = commit_body(dirs, sha)
    if body is None:
        return Head(sha, None, None, readable=False)
    revision, found = parse(objects.commit_message(body))
    return Head(sha, revision, found)


def log_state_problem(data: dict[str, object]) -> str | None:
    """Why the state is not the one the task's own transition log reached, or None."""
    state = data.get("state")
    log = data.get("transition_log")
    if not isinstance(log, list):
        return None
    # repair entries that do not start from nothing are written in whatever state the task is in:
    # they do not vouch for a state. The last entry that vouches decides (found from the end).
    for e in reversed(log):
        if isinstance(e, dict) and (e.get("kind") != "repair" or e.get("from") is None):
            last = e.get("to")
            if last != state:
                return f"its state is {state} but its transition log ends at {last}"
            return None
    return None


def check(
    dirs: GitDirs | None, task: str, data: bytes, parsed: dict[str, object] | None = None
) -> tuple[str, str] | None:
    """(finding, what is wrong in words) when task.json `data` may not be trusted, else None."""
    if parsed is None:
        try:
            loaded = json.loads(data)
        except ValueError:
            return None  # unreadable files are refused by the readers themselves
        if not isinstance(loaded, dict):
            return None
        parsed = loaded
    problem = log_state_problem(parsed)
    if problem is not None:
        return LOG_STATE, problem
    if dirs is None:
        return None
    head = journal_head(dirs, task)
    if head is None:
        return NO_JOURNAL, f"it has no journal ({REF_PREFIX}{task})"
    if not head.readable:  # a journal nobody can read vouches for nothing: refused, not passed
        return (
            CORRUPT,
            f"its journal's newest commit {head.sha[:12]} cannot be read from git (missing or "
            "corrupt)",
        )
    revision = parsed.get("revision")
    if head.revision is None or not isinstance(revision, int):
        return None  # a journal commit from before revisions were recorded: nothing to compare
    apart = revision_problem(revision, head.revision)
    if apart is not None:
        return apart
    if head.digest is not None and head.digest != digest(data):
        return FORGED, f"task.json differs from its journal at revision {revision} (edited?)"
    return None


def revision_problem(revision: int, journal_revision: int) -> tuple[str, str] | None:
    """(finding, what is wrong in words) when task.json's revision is not its journal's. The one
    place these findings are named: the refusals and doctor use it alike."""
    if revision == journal_revision - 1:
        return (
            AHEAD,
            f"task.json is at revision {revision}, its journal at {journal_revision} (a save "
            "stopped between its journal commit and task.json, or a copy of the revision before)",
        )
    if revision < journal_revision:
        return (
            STALE,
            f"task.json is at revision {revision} but its journal at {journal_revision}: an "
            "older copy",
        )
    if revision > journal_revision:
        return (
            BEHIND,
            f"task.json is at revision {revision} but its journal stops at {journal_revision}: "
            "a change no journal commit vouches for",
        )
    return None


def refusal(task: str, found: tuple[str, str]) -> str:
    """The one line a command or hook prints when a task fails the check."""
    return (
        f"task {task} cannot be trusted: {found[1]} [{found[0]}]; run `taskproto doctor` to see "
        "and repair it"
    )


def settled(
    dirs: GitDirs | None, task: str, lock_file: str, read: Callable[[], bytes | None]
) -> tuple[bytes | None, tuple[str, str] | None]:
    """Read task.json with `read` and check it; when the check fails, wait for the task's lock
    (a save may be between its journal commit and its rename right now) and check once more.

    For readers that do not hold the lock (hooks, listings). Returns (bytes, problem or None).
    """
    data = read()
    if data is None:
        return None, None
    found = check(dirs, task, data)
    if found is None:
        return data, None
    try:
        fd = os.open(lock_file, os.O_RDWR | os.O_NOFOLLOW)
    except OSError:
        return data, found
    try:
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                # a writer holds it (and may take it again at once): a pair read between its
                # saves is as good as one read under the lock
                time.sleep(0.002)
                data = read()
                found = check(dirs, task, data) if data is not None else None
                if found is None or time.monotonic() > deadline:
                    return data, found
                continue
            data = read()
            found = check(dirs, task, data) if data is not None else None  # no save can run
            fcntl.flock(fd, fcntl.LOCK_UN)
            break
    finally:
        os.close(fd)
    return data, found
