"""The attestation `land` writes: a signed statement of what landed, as a git note.

The statement (one line of JSON: the task, the approved commit, the commit the base moved to, who
approved and when, the journal commits of the approval and of the landing, the guards that
passed) is signed with the user's key (`ssh-keygen -Y sign -n taskproto`, or a detached GPG
signature) and kept, followed by its armored signature, as the note of the landed commit under
`refs/notes/taskproto`. `ssh-keygen -Y verify` checks it alone (docs/verify.md).
"""

from __future__ import annotations

from taskproto import plainjson as json
from taskproto.errors import TaskprotoError
from taskproto.git import signing
from taskproto.git.command import Git
from taskproto.state.approvals import recorded_by

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.engine.core import Core
    from taskproto.machine.workflow import Workflow
    from taskproto.state.models import LandRecord, Task

NOTES_REF = "refs/notes/taskproto"
KIND = "taskproto-attestation/v1"
LAND_CHECKS = ("land:in-COMPLETE", "land:approval-is-branch-head", "land:base-merges-cleanly")


def guards(workflow: Workflow, state: str, signed_policy: bool) -> list[str]:
    """The guards a landed task passed: those of the workflow's transitions into the state it
    lands from, then land's own checks."""
    found = [g for t in workflow.transitions if t.dest == state for g in t.guards]
    extra = ["land:approval-signed"] if signed_policy else []
    return [*dict.fromkeys(found), *LAND_CHECKS, *extra]


def statement(task: Task, record: LandRecord, journal: str | None, passed: list[str]) -> bytes:
    approval = task.checkpoint.commit_approval
    data = {
        "type": KIND,
        "task": task.name,
        "approved": record.approved,
        "landed": record.base_after,
        "base": record.base_branch,
        "strategy": record.strategy,
        "approver": approval.by if approval else None,
        "approved_at": approval.at.isoformat() if approval else None,
        "approval_journal_commit": journal,
        "guards": passed,
        "at": record.at.isoformat(),
    }
    return json.dumps(data, sort_keys=True).encode() + b"\n"


def write(core: Core, task: Task, record: LandRecord, passed: list[str]) -> str | None:
    """Sign and keep the attestation of a landing (None: the user's git has no signing key).
    A signature that fails is a warning: the landing itself is done."""
    git = Git(core.layout.main)
    dirs = core.layout.dirs
    setup = signing.setup(git, dirs.common_dir if dirs is not None else None)
    if setup is None:
        return None
    journal = recorded_by(dirs, task.name) if dirs is not None else None
    text = statement(task, record, journal, passed)
    try:
        sig = signing.ssh_sign(setup, text) if setup.fmt == "ssh" else signing.gpg_sign(setup, text)
        signing.add_note(git, NOTES_REF, record.base_after, text + sig)
    except (TaskprotoError, OSError) as exc:  # a landing is never undone for its note
        core.warnings.append(
            f"task {task.name} landed, but its attestation could not be written ({exc}); "
            "check `git config user.signingkey`"
        )
        return None
    return record.base_after
