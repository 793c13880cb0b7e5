"""Which journal commit recorded a task's approval, and whether it carries a signature.

The hooks that guard a push and `land` ask this under `[verify] require_signed_approvals`: the
journal is walked back from its head, in-process (loose objects) or through one `cat-file
--batch` per packed object, to the commit whose task.json first holds the approval in force.
Standard library only: pre-push reads it. Whether the signature is good and an allowed
signer's is `taskproto verify`'s to say (engine/verify.py).
"""

from __future__ import annotations

from taskproto import plainjson as json
from taskproto.git import objects
from taskproto.git.files import GitDirs, cat_batch

REF_PREFIX = "refs/taskproto/tasks/"
TASK_FILE = b"task.json"
LIMIT = 100_000  # journal commits walked at most


def read_object(dirs: GitDirs, sha: str) -> tuple[str, bytes] | None:
    found = objects.read(dirs.common_dir, sha)
    if found is None:
        found = cat_batch(dirs.common_dir, [sha]).get(sha)
    return found


def commit_fields(body: bytes) -> tuple[str | None, list[str]]:
    """(tree, parents) of a commit object's contents."""
    tree: str | None = None
    parents: list[str] = []
    for line in body.partition(b"\n\n")[0].split(b"\n"):
        if line.startswith(b"tree "):
            tree = line[5:].decode("ascii", "replace")
        elif line.startswith(b"parent "):
            parents.append(line[7:].decode("ascii", "replace"))
    return tree, parents


def tree_entries(body: bytes, size: int = 20) -> dict[bytes, str]:
    """{name: object id} of a tree object's contents (`size`: 20 for SHA-1 ids, 32 for SHA-256)."""
    entries: dict[bytes, str] = {}
    at = 0
    while at < len(body):
        end = body.index(b"\0", at)
        name = body[at:end].partition(b" ")[2]
        entries[name] = body[end + 1 : end + 1 + size].hex()
        at = end + 1 + size
    return entries


def approval_at(dirs: GitDirs, commit: str, kind: str) -> tuple[str | None, list[str]] | None:
    """(when the `kind` approval of the task.json in `commit` was recorded, the commit's
    parents); None when the commit cannot be read."""
    found = read_object(dirs, commit)
    if found is None or found[0] != "commit":
        return None
    tree, parents = commit_fields(found[1])
    listing = read_object(dirs, tree) if tree else None
    size = 20 if objects.sha1_repo(dirs.common_dir) else 32
    blob_id = tree_entries(listing[1], size).get(TASK_FILE) if listing else None
    blob = read_object(dirs, blob_id) if blob_id else None
    if blob is None:
        return None
    try:
        data = json.loads(blob[1])
    except ValueError:
        return None
    checkpoint = data.get("checkpoint") if isinstance(data, dict) else None
    approval = checkpoint.get(f"{kind}_approval") if isinstance(checkpoint, dict) else None
    at = approval.get("at") if isinstance(approval, dict) else None
    return (at if isinstance(at, str) else None), parents


def recorded_by(dirs: GitDirs, task: str, kind: str = "commit") -> str | None:
    """The journal commit that recorded the `kind` approval in force at the journal's head (None:
    there is none, or the journal cannot be read)."""
    commit = dirs.ref_sha(REF_PREFIX + task)
    if commit is None:
        return None
    now = approval_at(dirs, commit, kind)
    if now is None or now[0] is None:
        return None
    for _ in range(LIMIT):
        parents = now[1]
        if not parents:
            return commit
        before = approval_at(dirs, parents[0], kind)
        if before is None or before[0] != now[0]:
            return commit
        commit, now = parents[0], before
    return None


def is_signed(dirs: GitDirs, commit: str) -> bool:
    """Whether the commit carries a signature (a `gpgsig` header)."""
    found = read_object(dirs, commit)
    return found is not None and b"\ngpgsig " in found[1].partition(b"\n\n")[0]


def policy_on(settings: dict[str, object]) -> bool:
    """`[verify] require_signed_approvals = true` in a settings table (layout.read_settings)."""
    section = settings.get("verify")
    return isinstance(section, dict) and section.get("require_signed_approvals") is True


def unsigned_refusal(dirs: GitDirs, task: str, what: str) -> str | None:
    """The one line refusing `what` (a push, a land) of `task` when its commit approval is not
    in a signed journal commit; None when it is."""
    commit = recorded_by(dirs, task)
    if commit is not None and is_signed(dirs, commit):
        return None
    where = f" (journal commit {commit[:12]})" if commit else ""
    return (
        f"{what} refused: the commit approval of task {task}{where} is not signed and "
        "[verify] require_signed_approvals = true; set up signing (docs/verify.md), then "
        f"`taskproto rollback {task} --to AWAITING_USER_APPROVAL` and "
        f"`taskproto approve {task} --commit` again"
    )
