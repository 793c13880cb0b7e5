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

from taskproto.git.files import ZERO_OID, GitDirs, find_repo, run_git
from taskproto.layout import Layout, SettingsError, layout_for, read_settings

TYPE_CHECKING = False  # not `from typing`: importing typing costs a no-op hook ~10% of its time
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from taskproto.state.light import TaskView

SETTINGS_KEYS = (b"prohibited_patterns", b"protected_branches", b"commit_trailers")

GIT_HOOKS = (
    "pre-commit",
    "commit-msg",
    "post-checkout",
    "post-merge",
    "post-rewrite",
    "reference-transaction",
    "pre-push",
)
BLOCKING = {"pre-commit", "commit-msg", "pre-push"}  # the ones whose exit status stops git
DEFAULTS: dict[str, Any] = {
    "prohibited_patterns": ["task.json", "status.json", "*.env", ".env"],
    "protected_branches": ["main", "master"],
    "commit_trailers": False,
}


class Refused(Exception):
    """A hook says no; str() is the one line the user sees."""


class Hook:
    """What one hook run knows: the worktree's git files, taskproto's layout, lazily the
    settings."""

    def __init__(self, name: str, repo: GitDirs, layout: Layout) -> None:
        self.name = name
        self.repo = repo
        self.layout = layout
        self._settings: dict[str, Any] | None = None
        self._stdin: bytes | None = None

    def stdin(self) -> bytes:
        if self._stdin is None:
            self._stdin = sys.stdin.buffer.read() if sys.stdin is not None else b""
        return self._stdin

    def setting(self, key: str) -> Any:
        if self._settings is None:
            self._settings = read_settings(self.layout.main, SETTINGS_KEYS)[0]
        value = self._settings.get(key, DEFAULTS[key])
        if not isinstance(value, type(DEFAULTS[key])):
            raise SettingsError(f"the `{key}` setting has the wrong type ({type(value).__name__})")
        return value

    def owner_of(self, branch: str | None) -> tuple[str, str | None] | None:
        return self.layout.branch_owner(branch)

    def task_json(self, task: str) -> TaskView:
        from taskproto.state.light import read_task

        view = read_task(self.layout, task)
        if view.error is not None:
            raise Refused(
                f"{self.name} refused: task {task}'s task.json cannot be read ({view.error}); "
                "run `taskproto doctor`"
            )
        return view

    def flags(self, view: TaskView) -> dict[str, Any]:
        from taskproto.hooks.flags import state_flags

        workflow, state = str(view.workflow), str(view.state)
        try:
            states = state_flags(self.layout, workflow)
        except Exception as exc:  # noqa: BLE001 - an unknown or broken workflow must not pass silently
            raise Refused(
                f"{self.name} refused: workflow {workflow!r} of task {view.name} cannot be loaded "
                f"({exc}); "
                "run `taskproto doctor`"
            ) from None
        found = states.get(state)
        if found is None:
            raise Refused(
                f"{self.name} refused: task {view.name} is in {state}, which workflow {workflow} "
                "does not "
                "define; run `taskproto doctor`"
            )
        return {**found, "_all": states}


def _branch_label(task: str, agent: str | None, branch: str) -> str:
    return (
        f"branch {branch!r} (task {task})"
        if agent is None
        else f"branch {branch!r} (agent {agent} of task {task})"
    )


# --- pre-commit ---------------------------------------------------------------


def pre_commit(hook: Hook, args: list[str]) -> int:
    branch = hook.repo.head_branch()
    owner = hook.owner_of(branch)
    if owner is None:
        return 0
    assert branch is not None
    task, agent = owner
    label = _branch_label(task, agent, branch)
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
    return 0


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


# --- approvals go stale when the task branch moves --------------------------------


def reconcile(hook: Hook, task: str, head: str | None, detail: str) -> int:
    """Mark task's commit approval stale if `head` is not the approved commit (slow path only
    then)."""
    try:
        approval = hook.task_json(task).approval("commit")
    except Refused as exc:
        print(f"taskproto: warning: {exc}", file=sys.stderr)
        return 0
    if approval is None or not approval.get("sha") or approval.get("stale"):
        return 0
    if head == approval["sha"]:
        return 0
    reason = (
        f"branch {task} moved from {approval['sha'][:12]} to {(head or 'nowhere')[:12]} ({detail})"
    )
    warning = _mark_stale(hook, task, reason)
    if warning:
        print(f"taskproto: warning: {warning}", file=sys.stderr)
    else:
        print(
            f"taskproto: the commit approval of task {task} is now stale: {reason}; "
            f"the user approves the new head with `taskproto approve {task} --commit`",
            file=sys.stderr,
        )
    return 0


def _mark_stale(hook: Hook, task: str, reason: str) -> str | None:
    """Through the engine (the task's lock, the journal); a warning line when that fails,
    since a post-* hook cannot refuse (the COMPLETE guard still compares the commits)."""
    from taskproto.hooks.slowpath import engine_for

    engine = engine_for(hook.layout)
    from taskproto.errors import TaskprotoError

    try:
        engine.mark_approval_stale(task, reason, os.environ.get("TASKPROTO_SESSION"))
    except TaskprotoError as exc:
        return (
            f"the commit approval of task {task!r} could not be marked stale ({exc}); "
            "the COMPLETE guard still compares the approved commit with the branch head"
        )
    return engine.warnings[0] if engine.warnings else None


def _reconcile_current(hook: Hook, detail: str) -> int:
    owner = hook.owner_of(hook.repo.head_branch())
    if owner is None or owner[1] is not None:
        return 0  # approvals are of the task branch; agent branches do not carry one
    task = owner[0]
    return reconcile(hook, task, hook.repo.branch_sha(task), detail)


def post_checkout(hook: Hook, args: list[str]) -> int:
    return _reconcile_current(hook, "checkout")


def post_merge(hook: Hook, args: list[str]) -> int:
    squash = args[0] if args else os.environ.get("PRE_COMMIT_IS_SQUASH_MERGE", "0")
    return _reconcile_current(hook, "squash merge" if squash == "1" else "merge")


def post_rewrite(hook: Hook, args: list[str]) -> int:
    command = args[0] if args else os.environ.get("PRE_COMMIT_REWRITE_COMMAND", "rewrite")
    return _reconcile_current(hook, command)


def reference_transaction(hook: Hook, args: list[str]) -> int:
    """Catches every move of a task branch, including `git reset`, which runs no other hook."""
    if not args or args[0] != "committed":
        return 0
    for line in hook.stdin().decode("utf-8", "replace").splitlines():
        parts = line.split()
        if len(parts) != 3 or not parts[2].startswith("refs/heads/") or parts[1] == ZERO_OID:
            continue  # deletions: the task is being removed, nothing left to approve
        owner = hook.owner_of(parts[2][11:])
        if owner is not None and owner[1] is None:
            reconcile(hook, owner[0], parts[1], "ref update")
    return 0


# --- pre-push ----------------------------------------------------------------------


def _push_lines(hook: Hook) -> list[list[str]]:
    local, remote = (
        os.environ.get("PRE_COMMIT_LOCAL_BRANCH"),
        os.environ.get("PRE_COMMIT_REMOTE_BRANCH"),
    )
    if local and remote:  # the pre-commit framework passes one ref, in its environment
        return [
            [
                local,
                os.environ.get("PRE_COMMIT_TO_REF", ""),
                remote,
                os.environ.get("PRE_COMMIT_FROM_REF", ZERO_OID),
            ]
        ]
    lines = [line.split() for line in hook.stdin().decode("utf-8", "replace").splitlines()]
    return [parts for parts in lines if len(parts) == 4]


def pre_push(hook: Hook, args: list[str]) -> int:
    remote = args[0] if args else os.environ.get("PRE_COMMIT_REMOTE_NAME", "the remote")
    lines = _push_lines(hook)
    if not lines:
        return 0
    from fnmatch import fnmatchcase

    protected = hook.setting("protected_branches")
    for local_ref, local_sha, remote_ref, _ in lines:
        if local_sha == ZERO_OID or not remote_ref.startswith("refs/heads/"):
            continue
        target = remote_ref[11:]
        if not any(fnmatchcase(target, p) for p in protected):
            continue
        if local_ref.startswith("refs/heads/"):
            branch: str | None = local_ref[11:]
        else:
            branch = hook.repo.head_branch() if local_ref == "HEAD" else None
        owner = hook.owner_of(branch)
        if owner is None:
            continue
        assert branch is not None
        task, agent = owner
        view = hook.task_json(task)
        state = view.state
        label = _branch_label(task, agent, branch)
        if not hook.flags(view)["push_ok"]:
            raise Refused(
                f"push refused: {label} to protected branch {target} of {remote}: task {task} is "
                "in "
                f"{state}, not COMPLETE; it reaches {target} once the user approved its head "
                f"(`taskproto approve {task} --commit`) and `taskproto transition {task} COMPLETE` "
                "passed"
            )
        approval = view.approval("commit")
        approved = approval.get("sha") if approval is not None else None
        local_sha = local_sha or hook.repo.branch_sha(branch) or ""
        if approved and local_sha != approved:
            raise Refused(
                f"push refused: {label} to protected branch {target} of {remote} pushes "
                f"{local_sha[:12]}, but the user approved {approved[:12]}; push the approved "
                "commit: "
                f"`git push {remote} {approved}:{remote_ref}`"
            )
    return 0


HANDLERS: dict[str, Callable[[Hook, list[str]], int]] = {
    "pre-commit": pre_commit,
    "commit-msg": commit_msg,
    "post-checkout": post_checkout,
    "post-merge": post_merge,
    "post-rewrite": post_rewrite,
    "reference-transaction": reference_transaction,
    "pre-push": pre_push,
}


def main(argv: list[str] | None = None, root: str | None = None, cwd: str | None = None) -> int:
    """Run one git hook: argv = [hook name, git's arguments...]. Returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in HANDLERS:
        print(f"usage: taskproto hook {{{','.join(GIT_HOOKS)}}} [git's arguments]", file=sys.stderr)
        return 2
    name = args[0]
    repo = find_repo(cwd or os.getcwd())
    if repo is None:
        return 0
    try:
        layout = layout_for(repo, root)
        if not os.path.isdir(layout.tasks):
            return 0  # no task at all: the commonest no-op
        return HANDLERS[name](Hook(name, repo, layout), args[1:])
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
    """`taskproto-git-hook HOOK [args]`: the console script the pre-commit framework runs."""
    return main(sys.argv[1:])
