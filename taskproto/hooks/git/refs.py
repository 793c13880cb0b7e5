"""The hooks that watch branches move: post-checkout/merge/rewrite and reference-transaction mark a
commit approval stale when the approved head moves; pre-push refuses an unapproved push."""

from __future__ import annotations

import os
import sys

from taskproto.git.files import INTERNAL, ZERO_OID
from taskproto.hooks.git import guard
from taskproto.hooks.git.detached import guard_head
from taskproto.hooks.git.run import Hook, Refused, branch_label
from taskproto.hooks.session_branches import agent_session
from taskproto.hooks.session_branches import refusal as branch_refusal

JOURNAL_PREFIX = "refs/taskproto/tasks/"
REPLACE_PREFIX = "refs/replace/"
# refs git writes in a worktree for its own work (per-worktree refs, the stash, tracking refs)
WORKTREE_REFS = ("refs/bisect/", "refs/rewritten/", "refs/worktree/", "refs/stash", "refs/remotes/")

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
    """Every ref update passes here, whatever git command made it (commit, merge, reset,
    cherry-pick, update-ref, push into this repository, ...).

    "prepared": refuse moving a task or agent branch in a state that forbids commits, another
    agent's branch from an agent's worktree, and taskproto's journals by anything but taskproto.
    "committed": record where each task and agent branch now points (state/tips.py: doctor
    re-creates a deleted branch there), and mark a commit approval stale when the approved head
    moved.
    """
    if args and args[0] == "prepared":
        return _guard_refs(hook)
    if not args or args[0] != "committed":
        return 0
    moves: dict[str, list[tuple[str, str, str]]] = {}
    stale: list[tuple[str, str]] = []
    updates = [line.split() for line in hook.stdin().decode("utf-8", "replace").splitlines()]
    if _pruned(hook, updates, "committed"):
        return 0  # a loose copy pruned: the branch still points where it did
    for parts in updates:
        if len(parts) != 3 or not parts[2].startswith("refs/heads/"):
            continue
        owner = hook.owner_of(parts[2][11:])
        if owner is None:
            continue
        moves.setdefault(owner[0], []).append((parts[0], parts[1], parts[2][11:]))
        if owner[1] is None and parts[1] != ZERO_OID:  # a deletion: nothing left to approve
            stale.append((owner[0], parts[1]))
    if moves:
        from taskproto.state import tips

        for task, rows in moves.items():
            tips.record(hook.layout.task_dir(task), rows)
        _trailers_hook(hook)
    for task, head in stale:
        reconcile(hook, task, head, "ref update")
    return 0


def _trailers_hook(hook: Hook) -> None:
    """commit-msg as commit_trailers wants it, after a task's or an agent's branch moved: git ran
    commit-msg (or found none) before this, so a hook added now serves the next commit."""
    from taskproto.hooks.git.commit import commit_msg_as_set

    try:
        added = commit_msg_as_set(hook, bool(hook.setting("commit_trailers")))
    except OSError as exc:
        print(
            f"taskproto: warning: commit_trailers is on, but the commit-msg hook that adds the "
            f"Task trailers could not be installed ({exc}); run `taskproto init --git`",
            file=sys.stderr,
        )
        return
    if added:
        print(
            "taskproto: commit_trailers is on: the commit-msg hook that adds the Task trailers "
            "was missing and is installed now; commits from now on carry them "
            "(`git commit --amend --no-edit` adds them to the last one)",
            file=sys.stderr,
        )


def _guard_refs(hook: Hook) -> int:
    if os.environ.get(INTERNAL) == "1":
        return 0  # taskproto's own update (creating, merging, landing, removing, repairing)
    updates = [line.split() for line in hook.stdin().decode("utf-8", "replace").splitlines()]
    if _pruned(hook, updates, "prepared"):
        return 0  # `git pack-refs` (run by gc) moves where refs are stored, never what they hold
    here = hook.layout.where(hook.repo.top) if hook.repo.top else ("outside", None, None)
    guard_head(hook, here, updates)  # no commit on no branch in a task's worktree (detached.py)
    launched = _launched_agent()
    session = None if launched is not None else agent_session(os.environ)
    governed: tuple[str | None, str | None] | None = None  # read at the first branch it moves
    for old, new, ref in (u for u in updates if len(u) == 3):
        if ref.startswith(REPLACE_PREFIX) and new != ZERO_OID and not _stays(hook, old, new, ref):
            raise Refused(
                f"refused: {_move(old, new)} {ref}: a replacement changes what git shows for a "
                "commit, a journal's too, so taskproto refuses every new one under refs/replace/ "
                "(`taskproto doctor` reports any that exist; `git replace -d` deletes one)"
            )
        if ref.startswith(JOURNAL_PREFIX):
            if _stays(hook, old, new, ref):
                continue
            raise Refused(
                f"{ref} is a task's journal: only taskproto writes it (refused: "
                f"{_move(old, new)}); "
                "a lost or damaged journal is restored by `taskproto doctor --fix`"
            )
        owner = hook.owner_of(ref[11:]) if ref.startswith("refs/heads/") else None
        asked = session if ref.startswith("refs/heads/") else None  # the session's branch rule
        if owner is None and here[0] != "worktree" and launched is None and asked is None:
            continue
        if _stays(hook, old, new, ref):
            continue
        try:
            if asked is not None:
                governed = governed or _governed(hook, asked)
            if governed and (why := branch_refusal(hook.layout, *governed, ref)):
                raise Refused(
                    f"refused: {_move(old, new)} {ref}: this git runs in agent session {session} "
                    f"(TASKPROTO_AGENT=1, as its client's commands run), held to the tool guard's "
                    f"rule: {why}"
                )
            if owner is not None:
                _guard_branch(hook, ref[11:], owner, old, new, launched)
            if here[0] == "worktree":
                _guard_from_worktree(here[1] or "", here[2], ref, old, new)
            elif launched is not None:
                _guard_from_worktree(*launched, ref, old, new, launched=True)
        except Refused as exc:
            raise Refused(f"{exc}{_put_back(hook, updates, old, new, ref)}") from None
    return 0


def _guard_from_worktree(
    task: str, agent: str | None, ref: str, old: str, new: str, launched: bool = False
) -> None:
    """From a task's or an agent's worktree, only that worktree's own branch moves, and what git
    itself writes there: the worktree's HEAD and its pseudo-refs, its own refs (bisect, rebase's
    labels, refs/worktree/), the stash, tracking refs a fetch updates and tags it brings. The base
    branch, another branch, notes, taskproto's refs: `land` is how work reaches the base. A git
    that `agent start` started (`launched`) is held to its agent's worktree's rule wherever it
    runs (`git -C <main repository>`, GIT_DIR and GIT_WORK_TREE naming it, a link to it)."""
    own = task if agent is None else f"{task}-{agent}"
    if ref == f"refs/heads/{own}" or ref.startswith(WORKTREE_REFS) or "/" not in ref:
        return  # HEAD, ORIG_HEAD, AUTO_MERGE, ...: this worktree's own
    if ref.startswith("refs/tags/") and old == ZERO_OID and new != ZERO_OID:
        return  # a tag created (a fetch brings them); moving or deleting one is refused
    whose = f"agent {agent} of task {task}" if agent else f"task {task}"
    if launched:
        raise Refused(
            f"refused: {_move(old, new)} {ref}: this git runs for {whose}, started by `taskproto "
            f"agent start`, which moves only its own branch {own}, from any worktree; work "
            f"reaches the base branch through the user's `taskproto land {task}`"
        )
    raise Refused(
        f"refused: {_move(old, new)} {ref} from the worktree of {whose}: from there only its own "
        f"branch {own} moves; work reaches the base branch through the user's `taskproto land "
        f"{task}`"
    )


def _stays(hook: Hook, old: str, new: str, ref: str) -> bool:
    """Whether the update writes the ref with the value it holds: no move (`git reset --hard
    HEAD` gives old = new; `git rebase --abort` gives no old value, the zero id, and the ref
    already holds the new one). In the prepared phase the ref still holds its old value."""
    if new == ZERO_OID:
        return False  # a deletion (git gives no old value for `update-ref -d` either)
    return new == old or (old == ZERO_OID and hook.repo.ref_sha(ref) == new)


def _put_back(hook: Hook, updates: list[list[str]], old: str, new: str, ref: str) -> str:
    """What the refusal adds when git had changed the files already.

    A merge or a pull (a fast-forward, or a merge commit past pre-merge-commit) updates the
    index and the files before it moves the checked-out branch, and no hook runs before that:
    when the move is refused here, the change git made is undone by the reverse two-tree
    read-tree (new commit to old), which keeps the user's own staged and unstaged changes, as
    git's merge kept them. Other commands that update files first (`reset --hard X`) are left
    to the user: they may have meant to drop what the files held."""
    action = os.environ.get("GIT_REFLOG_ACTION", "").split(" ", 1)[0]
    top = hook.repo.top
    if action not in ("merge", "pull") or top is None or ZERO_OID in (old, new):
        return ""
    if ref != f"refs/heads/{hook.repo.head_branch()}" or [old, new, "HEAD"] not in updates:
        return ""  # not the branch of this worktree's HEAD: its files were not changed
    from taskproto.git.files import run_git

    if run_git(top, "read-tree", "-u", "-m", new, old) is not None:
        return "; the files are as they were before the merge (git had already changed them)"
    return (
        "; git had already changed the files for the merge: put them back as they were with "
        f"`git read-tree -u -m {new} {old}` (your own changes are kept)"
    )


def _pruned(hook: Hook, updates: list[list[str]], phase: str) -> bool:
    """Whether every update of this transaction is `git pack-refs --prune` (run by gc) deleting
    the loose copy of a ref that packed-refs holds with the same value: nothing moves.

    Decided on what git leaves on disk, not on the process's name (which anyone can spell). A
    real deletion holds packed-refs.lock from its "prepared" phase to its end (git's files
    backend, so that no pack re-creates the ref it deletes), and leaves packed-refs without the
    ref; a prune holds neither. A prune seen while another git holds that lock is taken for a
    deletion and refused: git keeps the loose copy, which holds the same value."""
    lines = [u for u in updates if u]
    if not lines or any(len(u) != 3 or u[1] != ZERO_OID or u[0] == ZERO_OID for u in lines):
        return False
    common = hook.repo.common_dir
    if phase == "prepared" and os.path.lexists(os.path.join(common, "packed-refs.lock")):
        return False
    packed = hook.repo.packed_refs()
    return all(packed.get(ref.encode()) == old.encode() for old, _, ref in lines)


def _move(old: str, new: str) -> str:
    return "deleting" if new == ZERO_OID else "moving"


def _guard_branch(
    hook: Hook,
    branch: str,
    owner: tuple[str, str | None],
    old: str,
    new: str,
    launched: tuple[str, str] | None,
) -> None:
    """guard.py's rules on a move of a task's or an agent's branch: from its own worktree when it
    is the branch checked out here (a commit, a merge, a reset), never from another agent's, in a
    state that allows commits, not paused, bringing no prohibited file."""
    task, agent = owner
    label = branch_label(task, agent, branch)
    refused = f"refused: {_move(old, new)} {label}"
    here = hook.layout.where(hook.repo.top) if hook.repo.top else ("outside", None, None)
    if launched is not None and launched != (task, agent):
        raise Refused(
            f"{refused}: this git runs for agent {launched[1]} of task {launched[0]}, started by "
            f"`taskproto agent start`, which moves only its own branch "
            f"{launched[0]}-{launched[1]}, from any worktree; its work reaches the task branch "
            f"through the user's `taskproto merge {launched[0]}`"
        )
    if here[0] == "worktree" and here[2] is not None and (here[1], here[2]) != (task, agent):
        raise Refused(
            f"{refused} from the worktree of agent {here[2]} of task {here[1]}; "
            "an agent moves only its own branch (merging agents into the task branch is "
            f"`taskproto merge {task}`)"
        )
    if hook.repo.head_branch() == branch:
        guard.worktree(hook, task, agent, refused)
    guard.state(hook, task, hook.task_json(task), refused)
    if new != ZERO_OID and hook.setting("prohibited_patterns"):
        bad = guard.prohibited(hook, guard.brought(hook, old, new, refused))
        if bad is not None:
            files, which = bad
            raise Refused(
                f"{refused}: its new commit(s) add or change {files}, which match the prohibited "
                f"pattern(s) {which} (setting prohibited_patterns); leave them out of the commit "
                f"(`git restore --staged -- {files}`, then commit again)"
            )


def _governed(hook: Hook, session: str) -> tuple[str | None, str | None]:
    """The task an agent session's git acts for and the agent whose worktree it works in, as the
    tool guard finds them (hooks/agents/common.governing), from where git works."""
    from taskproto.hooks.agents.common import governing

    task, agent = governing(hook.layout, session, hook.repo.top or os.getcwd())
    return (task.name if task is not None else None), agent


def _launched_agent() -> tuple[str, str] | None:
    """The task and agent this git runs for when `taskproto agent start` started its process
    (ops/agent_launch.py's variables, which its commands inherit): such a process moves only its
    own branch, wherever it runs git (`git -C` into another worktree or the main one), sandbox or
    not. The user's own git has none of them. A same-user process can unset them: the documented
    limit."""
    env = os.environ
    task, agent = env.get("TASKPROTO_TASK"), env.get("TASKPROTO_AGENT_NAME")
    if env.get("TASKPROTO_AGENT") != "1" or not task or not agent:
        return None
    return task, agent


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
        label = branch_label(task, agent, branch)
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
        from taskproto.state.approvals import policy_on, unsigned_refusal

        if policy_on(hook.table()):  # docs/verify.md: the approval must be in a signed commit
            refusal = unsigned_refusal(hook.repo, task, f"push of {label} to {target}")
            if refusal is not None:
                raise Refused(refusal)
    return 0
