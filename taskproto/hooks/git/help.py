"""What each git hook does, for `taskproto hook NAME --help` (cli/hook.py) and `taskproto-git-hook
NAME --help` (handlers.py, which imports this only when help is asked: git never passes `-h` or
`--help` to a hook, so the hook's own runs never read it)."""

from __future__ import annotations

HELP_ARGS = ("-h", "--help")

# hook -> (git's arguments, what it does); docs/hooks.md tells the same at length
HELP: dict[str, tuple[str, str]] = {
    "pre-commit": (
        "",
        "Before a commit on a task or agent branch: refuses it while the task's state does not "
        "allow commits, while the task waits for the user, when it is made from another "
        "worktree than the branch's own, and when a staged file matches a `prohibited_patterns` "
        "setting (task.json, status.json, .env, *.env by default). `taskproto init` does not "
        "install it (reference-transaction makes the same checks on every move of the branch); "
        "for the pre-commit framework. Git passes no arguments.",
    ),
    "pre-merge-commit": (
        "",
        "Before the commit a `git merge` makes on a task or agent branch: the same checks as "
        "pre-commit. Git passes no arguments.",
    ),
    "commit-msg": (
        "MESSAGE_FILE",
        "With the `commit_trailers` setting on, adds `Task: <task>` and `Task-State: <state>` "
        "trailers to the message of a commit on a task or agent branch (once, also on an "
        "amend). MESSAGE_FILE is the file git wrote the message into.",
    ),
    "post-checkout": (
        "OLD_HEAD NEW_HEAD BRANCH_FLAG",
        "After a checkout: when the task branch no longer points at the commit the user "
        "approved, marks that approval stale (journaled), so the task needs a new approval. "
        "Never refuses.",
    ),
    "post-merge": (
        "SQUASH_FLAG",
        "After a merge into a task branch: marks a commit approval stale when the branch moved "
        "away from the approved commit, as post-checkout does. Never refuses.",
    ),
    "post-rewrite": (
        "amend|rebase",
        "After an amend or a rebase (the rewritten commits on stdin): marks a commit approval "
        "stale when the task branch moved away from the approved commit. Never refuses.",
    ),
    "reference-transaction": (
        "prepared|committed|aborted",
        "Every ref update, whatever git command makes it (git writes `<old> <new> <ref>` lines on "
        "stdin). `prepared`: refuses moving, creating or deleting a task or agent branch while "
        "the task's state does not allow commits or the task waits for the user, moving the "
        "branch checked out here from another worktree than its own, new commits that add a "
        "file `prohibited_patterns` names, another agent's branch (or the task branch) from an "
        "agent's worktree, and any update of a journal refs/taskproto/tasks/*; a ref rewritten "
        "with the value it holds is no move. A refused merge or pull has the files git already "
        "changed put back. `committed`: records where each task and agent branch now points, "
        "and marks a commit approval stale when the approved task branch moved.",
    ),
    "pre-push": (
        "REMOTE URL",
        "Before a push (git writes `<local ref> <local sha> <remote ref> <remote sha>` lines on "
        "stdin): refuses pushing a task or agent branch to a protected branch "
        "(`protected_branches`, main and master by default) unless the task is COMPLETE and the "
        "commit pushed is the one the user approved.",
    ),
}

EXIT = (
    "Exit status: 0 when the hook lets git go on (always on a branch of no task), 1 with one line "
    "on stderr saying what was refused, why, and the command that would allow it."
)


def text(name: str, prog: str) -> str:
    """The help of hook `name` as `prog NAME --help` prints it."""
    from textwrap import fill

    args, what = HELP[name]
    usage = f"usage: {prog} {name}" + (f" {args}" if args else "")
    return f"{usage}\n\n{fill(what, 79)}\n\n{fill(EXIT, 79)}\n"
