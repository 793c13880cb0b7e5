"""doctor's checks of the approvals' signatures (docs/verify.md): registered here, beside their
detection. An approval in force recorded by an unsigned journal commit, where approvals are to be
signed (git has a signing key, or `[verify] require_signed_approvals`); an approval whose recorded
context is an agent's process. `taskproto verify` checks the signatures themselves."""

from __future__ import annotations

from collections.abc import Iterator

from taskproto.doctor.model import ABANDON, Finding, Option, Severity, check
from taskproto.doctor.snapshot import Snapshot, TaskView

W = Severity.WARNING
ROLL_BACK = Option(
    "Approve it again, signed: set up signing (docs/verify.md), roll the task back past the "
    "approval (`taskproto rollback TASK`) and approve it from your own terminal",
    "the approval is one your key vouches for, and `taskproto verify` proves it",
    "the task goes back to the state before the approval",
)
check(
    "approval-unsigned",
    W,
    "The approval in force was recorded by a journal commit without a signature, where approvals "
    "are to be signed (git has user.signingkey, or [verify] require_signed_approvals): anyone "
    "running as you could have written it, and land and push refuse it under the policy.",
    None,
    options=(
        ROLL_BACK,
        Option(
            "Keep it: you approved it before signing was set up",
            "nothing changes",
            "`taskproto verify` keeps flagging it (and fails on it under the policy)",
        ),
        ABANDON,
    ),
)
check(
    "approval-agent-signed",
    W,
    "The approval in force was recorded from an agent's process (an agent client's variable or "
    "program in the approver's context), under the user's key if signed: the agent reached the "
    "key (docs/sandbox.md keeps it out).",
    None,
    options=(ROLL_BACK, ABANDON),
)


def _expected(snap: Snapshot) -> bool:
    """Whether approvals are to be signed here (asked once per doctor run)."""
    known = snap.__dict__.get("_signing_expected")
    if known is None:
        from taskproto.engine.signing import required
        from taskproto.git import signing
        from taskproto.git.command import Git

        known = required(snap.config) or signing.setup(Git(snap.config.layout.main)) is not None
        snap.__dict__["_signing_expected"] = known
    return bool(known)


def check_signed_approvals(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    task = view.task
    dirs = snap.config.layout.dirs
    if task is None or dirs is None:
        return
    from taskproto.engine.verify_rules import from_an_agent

    for kind in ("plan", "commit"):
        approval = getattr(task.checkpoint, f"{kind}_approval")
        if approval is None:
            continue
        agent = from_an_agent(approval.model_dump(mode="json"))
        if agent:
            yield Finding(
                "approval-agent-signed",
                W,
                f"the {kind} approval ({approval.at:%Y-%m-%d %H:%M}) was recorded from an agent's "
                f"process ({agent}); if you did not approve it, roll it back with "
                f"`taskproto rollback {task.name}`",
                view.name,
            )
            continue
        if not _expected(snap):
            continue
        from taskproto.state.approvals import is_signed, recorded_by

        commit = recorded_by(dirs, task.name, kind)
        if commit is not None and not is_signed(dirs, commit):
            yield Finding(
                "approval-unsigned",
                W,
                f"the {kind} approval ({approval.at:%Y-%m-%d %H:%M}) is in the unsigned journal "
                f"commit {commit[:12]}; `taskproto verify {task.name}` flags it",
                view.name,
            )
