"""The commit hooks: pre-commit (state, worktree, prohibited files) and commit-msg (trailers)."""

from __future__ import annotations

import os

from taskproto.git.files import run_git
from taskproto.hooks.git.run import MARKER, Hook, Refused, branch_label
from taskproto.layout import GIT_HOOKS_RECORD

# --- pre-commit ---------------------------------------------------------------


def pre_commit(hook: Hook, args: list[str]) -> int:
    branch = hook.repo.head_branch()
    owner = hook.owner_of(branch)
    if owner is None:
        return 0
    assert branch is not None
    task, agent = owner
    label = branch_label(task, agent, branch)
    view = hook.task_json(task)
    expected = hook.layout.worktree_of(task, agent)
    here = hook.repo.top or hook.repo.git_dir
    if os.path.realpath(expected) != here:
        if os.path.isdir(expected):
            fix = f"commit from there: `cd {expected}`"
        else:
            fix = (
                "that worktree is missing: recreate it with `taskproto doctor --fix`, then "
                "commit there"
            )
        raise Refused(
            f"commit refused on {label}: it is committed from its own worktree {expected}, "
            f"not from {here}; {fix}"
        )
    state = view.state
    flags = hook.flags(view)
    if not flags["allows_commits"]:
        states = flags["_all"]
        allowed = [name for name, f in states.items() if f.get("allows_commits")]
        nearest = [s for s in flags.get("next", []) if states.get(s, {}).get("allows_commits")]
        if nearest:
            fix = f"move the task there first: `taskproto transition {task} {nearest[0]}`"
        else:
            fix = f"the task must reach one of them first (see `taskproto task show {task}`)"
        where = ", ".join(allowed) or "no state"
        raise Refused(
            f"commit refused on {label}: task {task} is in {state}, which does not allow commits "
            f"(workflow {view.workflow} allows them in {where}); {fix}"
        )
    if view.paused is not None:
        raise Refused(
            f"commit refused on {label}: task {task} waits for the user (they interrupted with a "
            f"{view.paused}), and its work is paused until they say to go on (or run "
            f"`taskproto resume {task}`)"
        )
    patterns = hook.setting("prohibited_patterns")
    if patterns:
        out = run_git(here, "diff", "--cached", "--name-only", "-z", "--diff-filter=ACMR")
        if out is None:
            raise Refused(
                f"commit refused on {label}: `git diff --cached` failed, so the staged files "
                "could not be checked against the prohibited patterns"
            )
        from fnmatch import fnmatchcase

        bad = []
        for raw in out.split(b"\0"):
            if not raw:
                continue
            path = raw.decode("utf-8", "surrogateescape")
            base = path.rsplit("/", 1)[-1]
            hits = [p for p in patterns if fnmatchcase(base, p) or fnmatchcase(path, p)]
            if hits:
                bad.append((path, hits[0]))
        if bad:
            files = " ".join(p for p, _ in bad)
            which = ", ".join(dict.fromkeys(h for _, h in bad))
            raise Refused(
                f"commit refused on {label}: staged file(s) {files} match the prohibited "
                f"pattern(s) {which} (setting prohibited_patterns); unstage them with "
                f"`git restore --staged -- {files}`"
            )
    _commit_msg_as_set(hook, bool(hook.setting("commit_trailers")))
    return 0


def _commit_msg_as_set(hook: Hook, trailers: bool) -> None:
    """commit-msg runs while trailers are on, and only then (install.py installs it only while
    they are). Trailers on, and it is not in the folder init put the hooks in (left out, or
    deleted since): add it now; git looks for it after this hook ends, so this very commit gets
    its trailers. Trailers off since, and ours is there: take it out, so no commit starts it for
    nothing."""
    from taskproto import plainjson as json

    try:
        with open(os.path.join(hook.layout.root, GIT_HOOKS_RECORD), "rb") as fh:
            record = json.loads(fh.read())
    except (OSError, ValueError):
        return  # no record: the hooks were not installed by init (doctor says so)
    if not isinstance(record, dict) or record.get("installed") is False:
        return
    folder = str(record.get("hooks_dir") or "")
    try:
        with open(os.path.join(folder, "commit-msg"), "rb") as fh:
            ours = MARKER in fh.read(512)
    except OSError:
        ours = False
    if ours == trailers:
        return
    from taskproto.hooks.git.install import set_commit_msg

    if not trailers:
        try:
            set_commit_msg(folder, hook.layout.root, False)
        except OSError:
            pass  # it only costs a commit a hook run: `taskproto init --git` takes it out
        return
    try:
        set_commit_msg(folder, hook.layout.root, True)
    except Exception as exc:  # noqa: BLE001 - no trailers were promised in vain: say what to run
        raise Refused(
            f"commit refused: commit_trailers is on, but the commit-msg hook that adds them "
            f"could not be installed ({exc}); run `taskproto init --git`"
        ) from None


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
