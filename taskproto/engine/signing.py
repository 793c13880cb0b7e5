"""Which journal commits are signed: the user's actions, when the user's git signs (docs/verify.md).

A save is the user's action when its process acts for the user (not an agent) and what it
appends to the log is one of the user's steps: an approval, a land, a rollback, an
acknowledgement, a resumption, a revision asked for, a forced step. Those journal commits are
signed through git (`commit-tree -S`) when `user.signingkey` is set; an approval that cannot be
signed is refused when `[verify] require_signed_approvals = true`. Every other save costs one
comparison here and starts no process.
"""

from __future__ import annotations

from taskproto.errors import TaskprotoError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.config import Config
    from taskproto.git.command import Git
    from taskproto.git.signing import Setup
    from taskproto.state.models import Task

USER_KINDS = frozenset({"approval", "land", "rollback"})
USER_TRIGGERS = frozenset({"ack", "resolve", "request_revision", "resume", "approve"})


def required(config: Config) -> bool:
    """`[verify] require_signed_approvals` of the repository's settings."""
    section = config.raw.get("verify")
    return isinstance(section, dict) and section.get("require_signed_approvals") is True


def new_approval(old: Task | None, new: Task) -> str | None:
    """The kind of approval (`plan`, `commit`) `new` records that `old` did not."""
    for kind in ("plan", "commit"):
        now = getattr(new.checkpoint, f"{kind}_approval")
        before = getattr(old.checkpoint, f"{kind}_approval") if old is not None else None
        if now is not None and (before is None or before.at != now.at):
            return kind
    return None


def users_step(old: Task | None, new: Task) -> bool:
    """Whether what `new` appends to the log is one of the user's steps."""
    resumed = new.interruption_counts.get("RESUMPTION", 0)
    if resumed > (old.interruption_counts.get("RESUMPTION", 0) if old is not None else 0):
        return True  # `taskproto resume`: the user says the work goes on
    appended = new.log_count - (old.log_count if old is not None else 0)
    if appended <= 0:
        return False
    for entry in new.transition_log[-appended:]:
        if entry.kind in USER_KINDS or entry.trigger in USER_TRIGGERS or entry.forced:
            return True
    return False


def wanted(agent: bool, git: Git, config: Config, old: Task | None, new: Task) -> Setup | None:
    """How to sign the journal commit of `new` (None: unsigned; `agent`: an agent asks). Refuses,
    before anything is written, an approval that cannot be signed under the policy."""
    if agent or new is old:
        return None
    approval = new_approval(old, new)
    if approval is None and not users_step(old, new):
        return None
    from taskproto.git import signing

    dirs = config.layout.dirs
    setup = signing.setup(git, dirs.common_dir if dirs is not None else None)
    must = approval is not None and required(config)
    if setup is None:
        if must:
            raise TaskprotoError(
                f"refused: the {approval} approval of task {new.name} cannot be signed "
                f"([verify] require_signed_approvals = true) and git has no user.signingkey; "
                f"{signing.SETUP_HINT}"
            )
        return None
    setup.required = must
    return setup


def note_failure(warnings: list[str], setup: Setup | None, task: str) -> None:
    """Tell the user a journal commit went unsigned because git could not sign it."""
    if setup is not None and setup.failed:
        warnings.append(
            f"the journal commit of task {task} is not signed: git could not sign it "
            f"({setup.failed}); check `git config user.signingkey`"
        )
