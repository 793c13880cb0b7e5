"""The git hooks: pre-commit, commit-msg, post-checkout/merge/rewrite, reference-transaction,
pre-push.

`main(["pre-commit"])` is what an installed hook script, the pre-commit
framework and `taskproto hook pre-commit` all run. Decisions use the standard
library only: the branch comes from `.git/HEAD`, the task from the existence of
`<root>/tasks/<branch>/task.json`, its state from task.json read with `json`, and
the state's flags from a small cache (see flags.py). A branch that is no task's
returns before anything else is imported or read. Only marking an approval
stale goes through the engine (pydantic, the task lock, the journal).

Every refusal is one line: what was refused, why, and the command that would
make it allowed.
"""

from __future__ import annotations

import os
import sys

from taskproto.git.files import find_repo
from taskproto.hooks.git.run import Hook, Refused
from taskproto.layout import SettingsError, layout_for

GIT_HOOKS = (
    "pre-commit",
    "pre-merge-commit",
    "commit-msg",
    "post-checkout",
    "post-merge",
    "post-rewrite",
    "reference-transaction",
    "pre-push",
)
BLOCKING = {
    "pre-commit",
    "pre-merge-commit",
    "commit-msg",
    "pre-push",
    "reference-transaction",
}  # the ones whose exit status stops git
# hook -> (module under taskproto.hooks.git, function): imported only when a task is there
HANDLERS: dict[str, tuple[str, str]] = {
    "pre-commit": ("commit", "pre_commit"),
    "pre-merge-commit": ("commit", "pre_commit"),
    "commit-msg": ("commit", "commit_msg"),
    "post-checkout": ("refs", "post_checkout"),
    "post-merge": ("refs", "post_merge"),
    "post-rewrite": ("refs", "post_rewrite"),
    "reference-transaction": ("refs", "reference_transaction"),
    "pre-push": ("refs", "pre_push"),
}


def main(argv: list[str] | None = None, root: str | None = None, cwd: str | None = None) -> int:
    """Run one git hook: argv = [hook name, git's arguments...]. Returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in HANDLERS:
        print(f"usage: taskproto hook {{{','.join(GIT_HOOKS)}}} [git's arguments]", file=sys.stderr)
        return 2
    name = args[0]
    if args[1:] in (["-h"], ["--help"]):  # never git's arguments to a hook
        from taskproto.hooks.git.help import text

        print(text(name, "taskproto-git-hook"), end="")
        return 0
    where = cwd or os.getcwd()
    repo = find_repo(where)
    if repo is None:
        return 0
    env = os.environ
    place = None  # the folder git works in, when the git dir's own worktree is not it
    if repo.top is not None and env.get("GIT_DIR"):
        # GIT_DIR (`--git-dir`) names a git dir: git works in GIT_WORK_TREE (`--work-tree`),
        # else in the folder it was started in, where it runs the hook; not in the worktree the
        # git dir belongs to. `git --git-dir=../../qa/code/.git commit` (or the main repository's
        # `.git`) in dev's worktree commits there. taskproto's files are still found from the
        # repository: the main worktree is where its root hangs. In the git dir itself (a push
        # to `.`: receive-pack) there is no work tree.
        real = os.path.realpath(where)
        if real != repo.git_dir:
            place = real
            if repo.git_dir == repo.common_dir and os.path.basename(repo.git_dir) == ".git":
                repo.top = os.path.dirname(repo.git_dir)  # the main worktree
    try:
        layout = layout_for(repo, root)
        if place is not None:
            repo.top = place
        if not os.path.isdir(layout.tasks):
            return 0  # no task at all: the commonest no-op
        module, function = HANDLERS[name]
        handler = getattr(
            __import__(f"taskproto.hooks.git.{module}", fromlist=[function]), function
        )
        code: int = handler(Hook(name, repo, layout), args[1:])
        return code
    except Refused as exc:
        print(f"taskproto: {exc}", file=sys.stderr)
        return 1
    except SettingsError as exc:
        print(
            f"taskproto: {name} {'refused' if name in BLOCKING else 'skipped'}: {exc}",
            file=sys.stderr,
        )
        return 1 if name in BLOCKING else 0


def console_main() -> int:
    """`taskproto-git-hook HOOK [args]` (bin/taskproto-git-hook): what the pre-commit framework
    runs."""
    return main(sys.argv[1:])
