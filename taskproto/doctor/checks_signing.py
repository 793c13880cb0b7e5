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
check(
    "signing-key-exposed",
    W,
    "git's user.signingkey names a key file (or its private half) an agent's sandbox does not "
    "hide: inside the repository (which agents read) or outside your home and the temporary "
    "folders. An agent that reads it can sign approvals as you.",
    None,
    options=(
        Option(
            "Move the key under ~/.ssh and point git at it: `git config user.signingkey "
            "~/.ssh/KEY.pub` (docs/verify.md)",
            "the sandbox hides your home: agents never see the key",
            "approvals signed before stay signed by the same key; nothing else changes",
        ),
        Option(
            "Keep it: the key is protected otherwise (a hardware key, a passphrase only you type)",
            "nothing changes",
            "doctor keeps reporting it",
        ),
    ),
)


def _setup(snap: Snapshot) -> object:
    """The user's signing setup (git/signing.py `Setup`, or None), asked once per doctor run."""
    if "_signing_setup" not in snap.__dict__:
        from taskproto.git import signing
        from taskproto.git.command import Git

        dirs = snap.config.layout.dirs
        snap.__dict__["_signing_setup"] = signing.setup(
            Git(snap.config.layout.main), dirs.common_dir if dirs is not None else None
        )
    return snap.__dict__["_signing_setup"]


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def check_signing_key(snap: Snapshot) -> Iterator[Finding]:
    """The key file git signs with, where an agent's sandbox would show it (sandbox/rules.py
    hides the home, the temporary folders and the XDG folders; the repository stays readable)."""
    import os

    from taskproto.git.signing import Setup

    setup = _setup(snap)
    if (
        not isinstance(setup, Setup)
        or setup.fmt != "ssh"
        or setup.key.startswith(("key::", "ssh-"))
    ):
        return
    public = os.path.realpath(os.path.expanduser(setup.key))
    files = [p for p in (public, public.removesuffix(".pub")) if os.path.isfile(p)]
    hidden = [
        os.path.realpath(p)
        for p in (
            os.environ.get("HOME", ""),
            "/tmp",
            "/var/tmp",
            "/dev/shm",
            *(os.environ.get(v, "") for v in ("XDG_RUNTIME_DIR", "XDG_CONFIG_HOME")),
        )
        if p and p != "/"
    ]
    dirs = snap.config.layout.dirs
    seen = [os.path.realpath(snap.config.layout.main)]
    seen += [os.path.realpath(dirs.common_dir)] if dirs is not None else []
    for path in files:
        if any(_inside(path, s) for s in seen) or not any(_inside(path, h) for h in hidden):
            yield Finding(
                "signing-key-exposed",
                W,
                f"git signs with {path}, which an agent's sandbox does not hide; move it under "
                "~/.ssh (docs/verify.md)",
                None,
                data={"path": path},
            )
            return


def _expected(snap: Snapshot) -> bool:
    """Whether approvals are to be signed here (asked once per doctor run)."""
    known = snap.__dict__.get("_signing_expected")
    if known is None:
        from taskproto.engine.signing import required

        known = required(snap.config) or _setup(snap) is not None
        snap.__dict__["_signing_expected"] = known
    return bool(known)


def check_signed_approvals(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    task = view.head
    dirs = snap.config.layout.dirs
    if task is None or dirs is None:
        return
    from taskproto.engine.verify_rules import from_an_agent

    for kind in ("plan", "commit"):
        approval = getattr(task, f"{kind}_approval")
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
