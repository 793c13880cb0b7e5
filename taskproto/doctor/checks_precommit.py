"""The pre-commit framework's config file not committed on the base branch (git/precommit.py):
pre-commit then refuses every commit and push in the task and agent worktrees. Reported, never
fixed: committing it is the user's change. A file stat and, only when the file exists and the
framework is set up here, one git process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from taskproto.doctor.model import CHECKS, Finding, Option, Severity, check
from taskproto.doctor.snapshot import Snapshot
from taskproto.git import precommit

check(
    "pre-commit-config-uncommitted",
    Severity.WARNING,
    "The pre-commit framework runs git's hooks here (its script is installed, or "
    "`.pre-commit-config.yaml` names taskproto's hooks), but `.pre-commit-config.yaml` is not "
    "committed on the branch the main worktree has checked out (untracked, ignored, or added "
    "and not committed). Task and agent worktrees are made from that branch without it, and "
    "pre-commit refuses to run without its config: every commit and push there fails.",
    None,
    options=(
        Option(
            "Commit .pre-commit-config.yaml on the base branch (`git add .pre-commit-config.yaml "
            "&& git commit`)",
            "task and agent worktrees made from then on have it, and pre-commit runs there",
            "a worktree made before keeps its branch's files until the base is brought into it "
            "(`taskproto update TASK`)",
        ),
        Option(
            "Stop using the framework here (`pre-commit uninstall`)",
            "commits and pushes in the task worktrees go through at once",
            "the framework's hooks no longer run anywhere in this repository",
        ),
    ),
)


def check_pre_commit_config(snap: Snapshot) -> Iterator[Finding]:
    """Repository-wide."""
    main = Path(snap.config.layout.main)
    dirs = snap.config.layout.dirs
    # pre-commit installs only where core.hooksPath is unset: the common git dir's hooks folder
    common = Path(dirs.common_dir) if dirs is not None else main / ".git"
    hooks = Path(snap.hooks_dir) if snap.hooks_dir else common / "hooks"
    line = precommit.problem(main, hooks)
    if line is not None:
        info = CHECKS["pre-commit-config-uncommitted"]
        yield Finding(info.id, info.severity, line, path=str(main / precommit.CONFIG))
