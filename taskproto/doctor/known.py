"""What earlier doctor runs judged of task.json contents, by content: `<root>/doctor-known.json`.

Most of a doctor run at many tasks went into reading each task.json as a Task (parse, validate,
depth) and judging its content alone (the log against the workflow, the approvals' context, the
review flag), though nearly every file is the one the last run judged. So a whole run keeps, for
each task.json whose content was valid and drew none of those findings, the SHA-256 of its bytes
and the task's `TaskHead`: the few fields the other checks read (the owner, the agents, the
approvals, ...). The next run reads every task.json's bytes as before (the key is their hash:
never a file's time or size, which a hand edit can keep), and for bytes it knows takes the head
instead of building the Task; the checks of everything else (the journal against the bytes,
branches, worktrees, owners' leases, agents' files, the repository) run in full every time.

A key holds only under the code that judged it (`CODE`: the sources that validate a task and
judge its content, hashed); a task of a user workflow (a TOML file) is never kept, since its
definition can change without the code. The file is written atomically and only when what it
holds changes; one that cannot be read or is not of this shape is ignored as a whole, and an
entry that is not a valid head is ignored alone. `doctor --full` ignores it for one run.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from taskproto import plainjson as json
from taskproto.config import Config
from taskproto.errors import TaskprotoError
from taskproto.layout import DOCTOR_KNOWN
from taskproto.machine.registry import BUILTINS
from taskproto.state.files import atomic_write
from taskproto.state.models import Approval, Owner, Task
from taskproto.state.record import Record, RecordError, field

FILE = DOCTOR_KNOWN
VERSION = 1
MOST = 200_000  # entries kept at most (a run over named tasks adds to them)
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# what decides whether bytes are a valid task and what their content alone is judged to be
_SOURCES = (
    "state",
    "machine",
    "machine/builtin",
    "doctor/checks.py",
    "doctor/known.py",
    "clients/approver.py",  # check_approver's rule (`no_terminal`)
)


class TaskHead(Record):
    """What the checks of a task's surroundings read of its task.json."""

    name: str
    workflow: str
    state: str
    revision: int
    base: str | None = None
    base_branch: str | None = None
    owner: Owner | None = None
    required_agents: list[str] = field(factory=list)
    plan_approval: Approval | None = None
    commit_approval: Approval | None = None
    landed: bool = False
    at_claim: bool = False  # its worktrees are made when it is claimed (an imported task)


def head_of(task: Task) -> TaskHead:
    head = TaskHead.__new__(TaskHead)
    head.__dict__.update(
        name=task.name,
        workflow=task.workflow,
        state=task.state,
        revision=task.revision,
        base=task.base,
        base_branch=task.base_branch,
        owner=task.owner,
        required_agents=list(task.required_agents),
        plan_approval=task.checkpoint.plan_approval,
        commit_approval=task.checkpoint.commit_approval,
        landed=task.landed is not None,
        at_claim=task.context.get("worktrees") == "at claim",
    )
    return head


_PLAIN = ("name", "workflow", "state", "revision", "base", "base_branch")


def head_json(raw: dict[str, Any]) -> dict[str, Any]:
    """The head's JSON, picked from the task.json document that validated as the Task (no dump of
    the record: the same values, read as a head, give the same head); what is the default is left
    out."""
    out = {k: raw[k] for k in _PLAIN if raw.get(k) is not None}
    if raw.get("owner") is not None:
        out["owner"] = raw["owner"]
    if raw.get("required_agents"):
        out["required_agents"] = raw["required_agents"]
    checkpoint = raw.get("checkpoint") or {}
    for kind in ("plan_approval", "commit_approval"):
        if checkpoint.get(kind) is not None:
            out[kind] = checkpoint[kind]
    if raw.get("landed") is not None:
        out["landed"] = True
    if (raw.get("context") or {}).get("worktrees") == "at claim":
        out["at_claim"] = True
    return out


def key(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _code() -> str:
    digest = hashlib.sha256()
    for part in _SOURCES:
        path = os.path.join(_PACKAGE, part)
        names = (
            sorted(n for n in os.listdir(path) if n.endswith(".py"))
            if os.path.isdir(path)
            else [""]
        )
        for name in names:
            with open(os.path.join(path, name) if name else path, "rb") as fh:
                digest.update(f"{part}/{name}\0".encode() + fh.read() + b"\0")
    return digest.hexdigest()


_CODE: list[str] = []


def code() -> str:
    """The hash of the sources that judge a task.json's content (once per process)."""
    if not _CODE:
        _CODE.append(_code())
    return _CODE[0]


class Known:
    """The kept entries, read once per snapshot."""

    def __init__(self, entries: dict[str, Any]) -> None:
        self.entries = entries  # key -> a head's JSON, as read
        self.valid: set[str] = set()  # the keys whose JSON was read as a head

    @classmethod
    def read(cls, config: Config) -> Known:
        try:
            with open(os.path.join(config.root, FILE), "rb") as fh:
                data = json.loads(fh.read())
        except (OSError, ValueError, RecursionError):
            return cls({})
        if (
            not isinstance(data, dict)
            or data.get("version") != VERSION
            or data.get("code") != code()
            or not isinstance(data.get("heads"), dict)
        ):
            return cls({})
        return cls(data["heads"])

    def head(self, digest: str) -> TaskHead | None:
        """The head kept for bytes of this hash, or None (unknown, or not a valid head)."""
        raw = self.entries.get(digest)
        if raw is None:
            return None
        try:
            head = TaskHead.model_validate(raw)
        except (RecordError, RecursionError):
            return None
        self.valid.add(digest)
        return head


def write(config: Config, known: Known, judged: dict[str, Any], whole: bool) -> bool:
    """Keep what this run found valid and without a finding of their own: the entries it read
    (`known.valid` of them) and `judged` (key -> head JSON, `head_json`), in place of everything
    kept after a `whole` run, else beside it. Written only when that changes what is kept; False
    when it could not be written (it is only a shortcut)."""
    was = known.entries
    entries = {} if whole else dict(was)
    for digest in known.valid:
        entries[digest] = was[digest]  # the same bytes: the same head
    new = {d: h for d, h in judged.items() if h.get("workflow") in BUILTINS}
    entries.update(new)
    if not new and entries.keys() == was.keys():
        return True
    if len(entries) > MOST:
        entries = dict(list(entries.items())[-MOST:])
    data = {"version": VERSION, "code": code(), "heads": entries}
    try:
        atomic_write(os.path.join(config.root, FILE), json.dumps(data).encode("utf-8"), sync=False)
    except (OSError, TaskprotoError):
        return False
    return True
