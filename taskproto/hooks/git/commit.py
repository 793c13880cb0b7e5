"""The commit hooks: pre-commit (state, worktree, prohibited files) and commit-msg (trailers)."""

from __future__ import annotations

import os

from taskproto.git.files import run_git
from taskproto.hooks.git import guard
from taskproto.hooks.git.run import MARKER, Hook, Refused, branch_label
from taskproto.layout import GIT_HOOKS_RECORD

# --- pre-commit ---------------------------------------------------------------


def pre_commit(hook: Hook, args: list[str]) -> int:
    """The staged files checked before git writes the commit (guard.py's rules). Installed by
    init only as pre-merge-commit: reference-transaction applies the same rules to every move of
    the branch, so a commit is checked there; the pre-commit framework and `taskproto hook
    pre-commit` still run this."""
    branch = hook.repo.head_branch()
    owner = hook.owner_of(branch)
    if owner is None:
        return 0
    assert branch is not None
    task, agent = owner
    refused = f"commit refused on {branch_label(task, agent, branch)}"
    guard.worktree(hook, task, agent, refused)
    guard.state(hook, task, hook.task_json(task), refused)
    if hook.setting("prohibited_patterns"):
        bad = guard.prohibited(hook, guard.staged(hook, refused))
        if bad is not None:
            files, which = bad
            raise Refused(
                f"{refused}: staged file(s) {files} match the prohibited pattern(s) {which} "
                f"(setting prohibited_patterns); unstage them with "
                f"`git restore --staged -- {files}`"
            )
    _commit_msg_as_set(hook, bool(hook.setting("commit_trailers")))
    return 0


def _commit_msg_as_set(hook: Hook, trailers: bool) -> None:
    """Before git writes a commit (pre-commit, pre-merge-commit): commit-msg as the setting wants
    it (`commit_msg_as_set`), so this very commit gets its trailers; a failure to add it refuses
    the commit, so no trailers are promised in vain."""
    try:
        commit_msg_as_set(hook, trailers)
    except OSError as exc:
        raise Refused(
            f"commit refused: commit_trailers is on, but the commit-msg hook that adds them "
            f"could not be installed ({exc}); run `taskproto init --git`"
        ) from None


def commit_msg_as_set(hook: Hook, trailers: bool) -> bool:
    """commit-msg runs while trailers are on, and only then (install.py installs it only while
    they are). Trailers on, and it is not in the folder init put the hooks in (left out, or
    deleted since): add it now. Trailers off since, and ours is there: take it out, so no commit
    starts it for nothing. True when it added it; OSError when it could not."""
    from taskproto import plainjson as json

    try:
        with open(os.path.join(hook.layout.root, GIT_HOOKS_RECORD), "rb") as fh:
            record = json.loads(fh.read())
    except (OSError, ValueError):
        return False  # no record: the hooks were not installed by init (doctor says so)
    if not isinstance(record, dict) or record.get("installed") is False:
        return False
    folder = str(record.get("hooks_dir") or "")
    try:
        with open(os.path.join(folder, "commit-msg"), "rb") as fh:
            ours = MARKER in fh.read(512)
    except OSError:
        ours = False
    if ours == trailers:
        return False
    from taskproto.hooks.git.install import set_commit_msg

    if not trailers:
        try:
            set_commit_msg(folder, hook.layout.root, False)
        except OSError:
            pass  # it only costs a commit a hook run: `taskproto init --git` takes it out
        return False
    try:
        return set_commit_msg(folder, hook.layout.root, True)
    except OSError:
        raise
    except Exception as exc:  # noqa: BLE001 - e.g. a foreign commit-msg beside a chained one
        raise OSError(str(exc)) from None


# --- commit-msg -----------------------------------------------------------------


def commit_msg(hook: Hook, args: list[str]) -> int:
    owner = hook.owner_of(hook.repo.head_branch())
    if owner is None or not hook.setting("commit_trailers"):
        return 0
    path = args[0] if args else os.environ.get("PRE_COMMIT_COMMIT_MSG_FILENAME", "")
    if not path:
        raise Refused("commit-msg: no commit message file was given")
    task, _ = owner
    state = hook.task_json(task).state
    path = os.path.abspath(path)
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as fh:
            text = fh.read()
        stripped = _without_our_trailers(text)
        if stripped != text:
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as fh:
                fh.write(stripped)
    except OSError as exc:
        raise Refused(
            f"commit refused: the commit message {path} cannot be updated ({exc})"
        ) from None
    done = run_git(
        hook.repo.top or hook.repo.git_dir,
        "interpret-trailers",
        "--in-place",
        "--trailer",
        f"Task: {task}",
        "--trailer",
        f"Task-State: {state}",
        path,
    )
    if done is None:
        raise Refused(
            f"commit refused: the Task trailers could not be added to {path} "
            "(`git interpret-trailers` failed); set commit_trailers = false to skip them"
        )
    return 0


def _without_our_trailers(text: str) -> str:
    """The message without Task/Task-State trailers, so adding them again (amend) keeps one of each.

    Done here because git matches trailer keys by prefix: `--if-exists replace`
    of `Task` would also remove `Task-State`.
    """
    import re

    ours = re.compile(r"(?i)Task(-State)?:")
    lines = text.split("\n")
    end = next(
        (i for i, line in enumerate(lines) if line.startswith("#")), len(lines)
    )  # comments, -v diff
    last = end
    while last > 0 and not lines[last - 1].strip():
        last -= 1
    first = last
    while first > 0 and lines[first - 1].strip():
        first -= 1
    if first == 0:
        return text  # a one-paragraph message has no trailer block
    block = [line for line in lines[first:last] if not ours.match(line)]
    return "\n".join(lines[:first] + block + lines[last:])
