"""Checks of what happens around tasks: a git operation left half done in a worktree, taskproto's
git hooks no longer run by git (or their interpreter gone).

They read the Snapshot and small files (a worktree's admin folder, the hooks record, the hook
scripts); no git runs here.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from taskproto import plainjson as json
from taskproto.clients import launcher
from taskproto.doctor.checks import _f, workflow_of
from taskproto.doctor.checks_git import expected
from taskproto.doctor.model import CHECKS, Finding, Option, Severity, check
from taskproto.doctor.moved import admin_named
from taskproto.doctor.snapshot import Snapshot, TaskView, relative
from taskproto.engine.tasks import creator_alive
from taskproto.git.hookfiles import script
from taskproto.layout import GIT_HOOKS_RECORD

check(
    "git-operation-in-progress",
    Severity.ERROR,
    "A merge, rebase, cherry-pick, revert or `git am` was left half done (conflicts, or a killed "
    "process) in a task or agent worktree; the task's guards and merges cannot go on until it is "
    "finished or aborted.",
    None,
)
check(
    "merge-in-progress",
    Severity.INFO,
    "A merge taskproto asked for is being made in a state that allows commits: the base branch "
    "into the task branch in its worktree (what `land` says when the base moved and conflicts), or "
    "the task branch into an agent's branch in the agent's worktree (what `merge` says after a "
    "conflict). Work in progress, not damage: the finding names the commands that finish it.",
    None,
)
check(
    "git-hooks-missing",
    Severity.ERROR,
    "taskproto's git hooks are not where git runs them: core.hooksPath changed since "
    "`taskproto init`, another tool replaced them, or `init --uninstall` took them out while "
    "tasks exist.",
    "reinstall them where git runs them now (`taskproto init --git`; a hook found there is kept "
    "and chained)",
)
check(
    "git-hooks-interpreter-missing",
    Severity.ERROR,
    "The Python interpreter that the installed git hooks start is gone (a removed virtualenv), or "
    "taskproto's entry script is and that interpreter finds taskproto nowhere else (a reinstall "
    "moved it: the scripts find it again themselves); commits on task branches are refused until "
    "they are reinstalled. Or the shell of their `#!` line is gone: git cannot run them at all.",
    "reinstall the hooks with this taskproto's interpreter (`taskproto init --git`)",
)
check(
    "git-hooks-outdated",
    Severity.WARNING,
    "taskproto's pre-commit git hook from an earlier install is still there: reference-transaction "
    "now makes every check it made, so it only costs each commit a hook run.",
    "take it out (a hook it had chained as pre-commit.taskproto-chained goes back in its place, "
    "byte for byte), as `taskproto init --git` does",
)
check(
    "git-hooks-path-relative",
    Severity.WARNING,
    "core.hooksPath is a relative path: git resolves it in each worktree's own checkout, so task "
    "and agent worktrees run no taskproto hook unless that folder is committed.",
    None,
)

check(
    "task-create-interrupted",
    Severity.ERROR,
    "A `taskproto task create` was killed half-way: the task's folder holds the intent it wrote "
    "before its first branch (creating.json), and its process is gone.",
    "finish the create with every agent it was asked for (missing branches at the base, their "
    "worktrees, statuses, task.json, journal); or undo it whole with `taskproto task abort TASK`",
)
check(
    "task-being-created",
    Severity.INFO,
    "A `taskproto task create` is running for this task right now (its process is alive).",
    None,
)

# git's marker files for each operation, in the worktree's admin folder, and its name.
OPERATIONS: tuple[tuple[str, str], ...] = (
    ("rebase-merge", "rebase"),
    ("rebase-apply/applying", "am"),
    ("rebase-apply", "rebase"),
    ("MERGE_HEAD", "merge"),
    ("CHERRY_PICK_HEAD", "cherry-pick"),
    ("REVERT_HEAD", "revert"),
)


# the names in the admin folder that can start a marker's path
MARKER_NAMES = frozenset(marker.partition("/")[0] for marker, _ in OPERATIONS)


def operation_in(admin: Path | str, names: frozenset[str] | None = None) -> str | None:
    """The operation git's markers in `admin` say is half done, or None. One listing of the folder
    (`names`, when the worktrees' reading listed it already); a marker found in it is then checked
    as `os.path.exists` would (a dangling link is none)."""
    admin = os.fspath(admin) or "."  # as Path("") is
    try:
        if MARKER_NAMES.isdisjoint(os.listdir(admin) if names is None else names):
            return None
    except OSError:
        if not os.path.exists(admin):
            return None  # no folder: no marker
        # a folder that cannot be listed: look for each marker
    for marker, name in OPERATIONS:
        if os.path.exists(os.path.join(admin, marker)):
            return name
    return None


def operation_options(path: str, op: str, shown: str | None = None) -> tuple[Option, ...]:
    """Finish or abort; `shown`: the worktree as the message names it (relative to the
    repository), `path` the one the runnable option uses."""
    where = shlex.quote(shown or path)
    return (
        Option(
            f"Finish the {op}: resolve the conflicts, `git add` them, then "
            f"`git -C {where} {op} --continue`",
            "keeps both sides' work and the resolution done so far",
            "needs a person to resolve the conflicts",
        ),
        Option(
            f"Abort the {op}: `git -C {where} {op} --abort`",
            "the branch is back where it was before the " + op,
            "conflict resolutions made so far are discarded",
            command=("git", "-C", path, op, "--abort"),
        ),
    )


def _asked_merge(snap: Snapshot, view: TaskView, agent: str | None, admin: str) -> str | None:
    """The branch being merged when the merge in progress is one taskproto asked for (see
    `merge-in-progress`), else None. Only file reads: MERGE_HEAD, against the snapshot's refs."""
    task = view.task
    assert task is not None
    wf = workflow_of(task, snap.config)
    if wf is None or not wf.has_state(task.state) or not wf.state(task.state).allows_commits:
        return None  # the merge commit would be refused: not a way forward
    try:
        with open(os.path.join(admin, "MERGE_HEAD"), "rb") as fh:
            heads = fh.read().decode("ascii", "replace").split()
    except OSError:
        return None
    source = task.name if agent is not None else task.base_branch
    if source and len(heads) == 1 and heads[0] == snap.branches.get(source):
        return source
    return None


def check_half_made(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    intent = view.intent or {}
    agents = list((intent.get("task") or {}).get("required_agents") or [])
    if creator_alive(intent):
        yield _f(
            "task-being-created",
            view,
            f"`task create` is running (pid {intent.get('pid')}); doctor leaves it alone",
        )
        return
    yield _f(
        "task-create-interrupted",
        view,
        f"`task create {view.name}` was killed half-way (pid {intent.get('pid')} on "
        f"{intent.get('host')}); it was asked for agents {', '.join(agents) or 'none'}: "
        f"`taskproto doctor --fix` finishes it, `taskproto task abort {view.name}` undoes it",
        agents=agents,
    )


def check_git_operations(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    for agent, path, branch in expected(snap, view):
        reg = snap.wt_by_path.get(snap.real(path))
        if reg is None or reg.prunable:
            continue
        # the admin folder git's registry names for this path, listed when it was read (its
        # gitdir file points here; a `.git` file that points elsewhere is another check's)
        admin = reg.admin if reg.admin is not None else admin_named(path)
        names = reg.admin_names if reg.admin is not None else None
        op = operation_in(admin, names) if admin is not None else None
        if op is None or admin is None:
            continue
        who = f"agent {agent}'s" if agent else "the task's"
        shown = relative(snap.config, path)
        where = shlex.quote(shown)
        source = _asked_merge(snap, view, agent, admin) if op == "merge" else None
        if source is not None:
            into = branch if agent else view.name
            yield _f(
                "merge-in-progress",
                view,
                f"a merge of {source} into {into} is in progress in {who} worktree {shown}: "
                f"resolve the conflicts there, `git add` them and run "
                f"`git -C {where} merge --continue` (or `git -C {where} merge --abort`)",
                agent,
                str(path),
                source=source,
            )
            continue
        finding = _f(
            "git-operation-in-progress",
            view,
            f"a {op} is half done in {who} worktree {shown}",
            agent,
            str(path),
            operation=op,
            impact=f"the {op} and the conflict resolutions made so far in that worktree, on "
            + (f"branch {reg.branch}" if reg.branch else "a detached HEAD")
            + " (doctor never deletes them)",
        )
        finding.data["options"] = operation_options(str(path), op, shown)
        yield finding


def hooks_record(snap: Snapshot) -> dict[str, Any] | None:
    """`<root>/git-hooks.json`, what `init` recorded of the git hooks (None: not installed)."""
    try:
        data = json.loads((snap.config.root / GIT_HOOKS_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


# what an installed script holds that finds a moved package itself (hooks/git/hook.sh `ours`; an
# older script does not)
RELOCATES = "from taskproto.hooks.git.install import moved"


def _script_value(text: str, name: str) -> str | None:
    """A `name=<shell-quoted value>` line of an installed hook script."""
    for line in text.splitlines():
        if line.startswith(name + "="):
            try:
                parts = shlex.split(line[len(name) + 1 :])
            except ValueError:
                return None
            return parts[0] if parts else None
    return None


def _finding(id: str, message: str, **data: object) -> Finding:
    return Finding(id, CHECKS[id].severity, message, data=dict(data))


def check_hooks(snap: Snapshot) -> Iterator[Finding]:
    """Repository-wide: only once `taskproto init` has installed the hooks here (its record)."""
    rec = hooks_record(snap)
    if rec is None or snap.hooks_dir is None:
        return
    setting = snap.hooks_path
    if setting and not os.path.isabs(os.path.expanduser(setting)):
        finding = _finding(
            "git-hooks-path-relative",
            f"core.hooksPath is relative ({setting}): task and agent worktrees resolve it in "
            "their own checkout and run no taskproto hook",
            setting=setting,
        )
        absolute = str(Path(snap.config.repo) / setting)
        finding.data["options"] = (
            Option(
                f"Make it absolute: `git config core.hooksPath {shlex.quote(absolute)}`, then "
                "`taskproto init --git`",
                "every worktree runs the same hooks",
                "changes a setting another tool may have made",
            ),
            Option(
                f"Commit {setting} with taskproto's hooks in it on the base branch",
                "the setting stays as it is",
                "each task branch carries the hook scripts",
            ),
        )
        yield finding
    if not rec.get("installed", True):
        if snap.tasks:
            yield _finding(
                "git-hooks-missing",
                f"taskproto's git hooks were taken out (`taskproto init --uninstall`, "
                f"{rec.get('time', '?')}) while {len(snap.tasks)} task(s) exist: their guards do "
                "not run",
            )
        return
    folder = Path(snap.hooks_dir)
    marker = str(rec.get("marker") or "# taskproto git hook")
    # pre-commit: not installed since reference-transaction makes its checks (an older record
    # lists it); ours still there is git-hooks-outdated
    hooks = [str(h) for h in rec.get("hooks") or [] if h != "pre-commit"]
    if snap.config.commit_trailers and "commit-msg" not in hooks:
        hooks.append("commit-msg")  # installed only while trailers are on (hooks/git/install.py)
    missing, foreign, scripts = [], [], []
    for hook in hooks:
        path = script(folder, hook, marker.encode())  # behind pre-commit's script, it runs too
        try:
            text = path.read_text(encoding="utf-8", errors="replace")  # (RELOCATES is near its end)
        except OSError:
            missing.append(hook)
            continue
        if marker not in text or path.is_symlink():
            foreign.append(hook)
        elif not os.access(path, os.X_OK):
            missing.append(hook)
        else:
            scripts.append(text)
    if missing or foreign:
        why = []
        if snap.real(folder) != snap.real(str(rec.get("hooks_dir") or folder)):
            why.append(
                f"git now runs hooks from {folder} (core.hooksPath {setting or 'unset'}), not "
                f"{rec.get('hooks_dir')} where init put them"
            )
        if foreign:
            why.append(f"{', '.join(foreign)} in {folder} are not taskproto's (replaced)")
        if missing:
            why.append(f"{', '.join(missing)} missing or not executable in {folder}")
        yield _finding("git-hooks-missing", "; ".join(why))
    try:
        old_hook = (folder / "pre-commit").read_text(encoding="utf-8", errors="replace")[:4096]
    except OSError:
        old_hook = ""
    if marker in old_hook and not (folder / "pre-commit").is_symlink():
        yield _finding(
            "git-hooks-outdated",
            f"taskproto's pre-commit hook in {folder} is no longer needed "
            "(reference-transaction checks every commit): each commit starts it for nothing",
        )
    gone = set()
    asked: dict[str, bool] = {}  # interpreter -> finds taskproto where it is installed now
    for text in scripts:
        shell = text.partition("\n")[0][2:].split()[:1] if text.startswith("#!") else []
        if shell and not os.access(shell[0], os.X_OK):  # the `#!` shell (install.shell_line)
            gone.add(f"shell {shell[0]}")
        python = _script_value(text, "python") or ""
        for name in ("python", "entry"):
            value = _script_value(text, name)
            usable = os.path.isfile(value or "") and (
                name == "entry" or os.access(value or "", os.X_OK)
            )
            finds = RELOCATES in text and os.access(python, os.X_OK)
            if value and not usable and name == "entry" and finds:
                # a reinstall moved the package: the script finds it through its interpreter
                if python not in asked:
                    asked[python] = launcher.finds_package(python)
                usable = asked[python]
            if value and not usable:
                gone.add(f"{'interpreter' if name == 'python' else 'entry script'} {value}")
    if gone:
        yield _finding(
            "git-hooks-interpreter-missing",
            f"the installed hooks start {', '.join(sorted(gone))}, which is gone: commits on task "
            "branches are refused",
        )
