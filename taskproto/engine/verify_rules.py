"""What `taskproto verify` checks of each journal commit against the one before it (pure).

Each rule returns why the commit fails, or None. engine/verify.py runs them from a journal's first
commit, with the signatures checked beside them (docs/verify.md).
"""

from __future__ import annotations

from taskproto.engine.journals import Entry
from taskproto.state import integrity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from taskproto.machine.workflow import Workflow

    Workflows = Callable[[str], "Workflow | None"]

KINDS = ("plan", "commit")
NOT_THE_APPROVAL = ("stale", "stale_reason")  # a hook marks an approval stale: not the user's
AGENT_PROGRAMS = ("claude", "codex", "gemini")


def _get(data: dict[str, object], *path: str) -> object:
    here: object = data
    for key in path:
        here = here.get(key) if isinstance(here, dict) else None
    return here


def approval(data: dict[str, object], kind: str) -> dict[str, object] | None:
    found = _get(data, "checkpoint", f"{kind}_approval")
    return found if isinstance(found, dict) else None


def _identity(found: dict[str, object] | None) -> dict[str, object] | None:
    if found is None:
        return None
    return {k: v for k, v in found.items() if k not in NOT_THE_APPROVAL}


def introduced(prev: Entry | None, cur: Entry) -> list[str]:
    """The kinds of approval `cur` records that `prev` did not (the user's, to be signed)."""
    kinds = []
    for kind in KINDS:
        now = _identity(approval(cur.data, kind))
        if now is not None and now != _identity(approval(prev.data, kind) if prev else None):
            kinds.append(kind)
    return kinds


def landed(prev: Entry | None, cur: Entry) -> dict[str, object] | None:
    """The landing `cur` records that `prev` did not."""
    now = cur.data.get("landed")
    if isinstance(now, dict) and (prev is None or prev.data.get("landed") != now):
        return now
    return None


def from_an_agent(found: dict[str, object]) -> str | None:
    """What in an approval's recorded context (clients/approver.py) says an agent's process made
    it: an agent client's variable set, or an agent client among its processes."""
    seen = found.get("seen")
    if not isinstance(seen, dict):
        return None
    from taskproto.clients.detect import AGENT_VARIABLES

    variables = [v for v in seen.get("variables") or [] if v in AGENT_VARIABLES]
    programs = [p for p in seen.get("processes") or [] if p in AGENT_PROGRAMS]
    if variables or programs:
        return ", ".join([*variables, *programs])
    return None


def chain(prev: Entry | None, cur: Entry, replaced: set[str]) -> str | None:
    """The commit as an object, and as the next link of its journal."""
    for sha, what in ((cur.sha, "it"), (cur.tree, "its tree")):
        if sha in replaced:
            return (
                f"refs/replace/{sha} replaces {what}: git would show content that is not the record"
            )
    blob = cur.files.get(b"task.json")
    if blob in replaced:
        return f"refs/replace/{blob} replaces its task.json: git would show another task.json"
    if cur.problem is not None:
        return cur.problem
    if len(cur.parents) > 1:
        return f"it has {len(cur.parents)} parents: a journal is one line of commits"
    if cur.revision is None:
        return "its message records no revision"
    if cur.data.get("revision") != cur.revision:
        return (
            f"its task.json is revision {cur.data.get('revision')}, its message says {cur.revision}"
        )
    if cur.digest is not None and cur.digest != integrity.digest(cur.task_json or b""):
        return "its task.json does not match the digest its message records"
    if prev is not None and prev.revision is not None:
        same = cur.revision == prev.revision and cur.task_json == prev.task_json
        if cur.revision != prev.revision + 1 and not same:
            return (
                f"revision {cur.revision} follows revision {prev.revision}: the history was "
                "rewritten or a commit dropped"
            )
    return None


def _log(data: dict[str, object]) -> tuple[int, list[dict[str, object]]]:
    raw = data.get("transition_log")
    log = [e for e in raw if isinstance(e, dict)] if isinstance(raw, list) else []
    count = data.get("log_count")
    return (count if isinstance(count, int) and count >= len(log) else len(log)), log


def steps(prev: Entry | None, cur: Entry, workflows: Workflows) -> str | None:
    """Each step `cur` appends to the log: a transition its workflow (as defined here) has, from
    the state the task was in."""
    before, _ = _log(prev.data) if prev is not None else (0, [])
    count, log = _log(cur.data)
    if count < before:
        return f"its log has {count} entries, the commit before it {before}"
    appended = log[len(log) - min(count - before, len(log)) :] if count > before else []
    state = prev.data.get("state") if prev is not None else None
    name = str(cur.data.get("workflow"))
    for entry in appended:
        source, dest, trigger = entry.get("from"), entry.get("to"), entry.get("trigger")
        if source is not None and state is not None and source != state:
            return f"its log's step `{trigger}` starts from {source}, but the task was in {state}"
        if entry.get("kind") == "transition":
            wf = workflows(name)
            if wf is None:
                return f"workflow {name!r} is not known here (a user workflow: verify where it is)"
            if not any(
                t.trigger == trigger and source in t.source and t.dest == dest
                for t in wf.transitions
            ):
                return f"`{trigger}`: {source} -> {dest} is not a transition of workflow {name}"
        state = dest if isinstance(dest, str) else state
    if state is not None and cur.data.get("state") != state:
        return f"it is in {cur.data.get('state')}, but its log leaves the task in {state}"
    return None


def approvals(prev: Entry | None, cur: Entry) -> str | None:
    """An approval it records names the commit it approves."""
    found = approval(cur.data, "commit")
    if "commit" in introduced(prev, cur) and found is not None:
        sha, stat = found.get("sha"), found.get("diffstat")
        if not isinstance(sha, str) or len(sha) not in (40, 64):
            return "its commit approval names no commit"
        head = stat.get("head") if isinstance(stat, dict) else None
        if head is not None and head != sha:
            return f"its approval names {sha[:12]}, but the diff approved ends at {str(head)[:12]}"
    return None


def landing(prev: Entry | None, cur: Entry) -> str | None:
    """A landing puts on the base the commit approved."""
    record = landed(prev, cur)
    if record is None:
        return None
    found = approval(prev.data, "commit") if prev is not None else None
    sha = found.get("sha") if found is not None else None
    if not sha:
        return f"it lands {str(record.get('approved'))[:12]}, but no commit was approved"
    if record.get("approved") != sha:
        what = str(record.get("approved"))[:12]
        return f"it lands {what}, but the approved commit is {str(sha)[:12]}"
    if found is not None and found.get("stale"):
        return f"it lands {str(sha)[:12]}, whose approval had gone stale"
    return None


def landed_commit(
    record: dict[str, object], found: tuple[str | None, list[str], bytes] | None
) -> str | None:
    """The base's new commit of a landing is what its strategy makes of the approved commit
    (`found`: that commit's tree, parents and message, when this repository has it)."""
    approved, before, after = (
        record.get("approved"),
        record.get("base_before"),
        record.get("base_after"),
    )
    if after == before or found is None:
        return None
    strategy = record.get("strategy")
    _, parents, message = found
    trailer = f"Approved: {approved}".encode()
    if strategy == "ff" and after != approved:
        return f"the base moved to {str(after)[:12]}, not to the approved {str(approved)[:12]}"
    if strategy == "merge" and parents != [before, approved]:
        return (
            f"the base's merge {str(after)[:12]} does not merge the approved {str(approved)[:12]}"
        )
    if strategy == "squash" and (parents != [before] or trailer not in message):
        return (
            f"the base's {str(after)[:12]} is not the squash of the approved {str(approved)[:12]}"
        )
    return None
