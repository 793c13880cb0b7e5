"""Checks of what `taskproto init` installed and recorded, after the repository (or taskproto's
root) was moved or a virtualenv went away: records that name the old place, agent-client hook
commands whose interpreter is gone; and hooks an older init left in Claude Code's shared settings.

They read the Snapshot (the records, read with it) and the main worktree's settings files (at most
four files, whatever the number of tasks); no git runs here.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from taskproto import plainjson as json
from taskproto.clients import launcher
from taskproto.clients.hookjson import SHELL, is_ours
from taskproto.clients.moved import relocated
from taskproto.clients.settings import FILES, OLDER_MAIN_FILES, RECORD, SHARED
from taskproto.doctor.checks_events import hooks_record
from taskproto.doctor.model import CHECKS, Finding, Severity, check
from taskproto.doctor.snapshot import Snapshot, relative
from taskproto.layout import GIT_HOOKS_RECORD

check(
    "hook-records-moved",
    Severity.WARNING,
    "taskproto's records of what `init` installed (`<root>/agent-hooks.json`, "
    "`<root>/git-hooks.json`) name the place the repository (or taskproto's root) had before it "
    "was moved: `init --claude|--codex|--gemini --uninstall` would look for its files there.",
    "name the records' paths for the new place (what `taskproto init` also does)",
)
check(
    "client-hooks-interpreter-missing",
    Severity.ERROR,
    "The agent clients' hook commands (in `.claude/settings.local.json`, `.codex/hooks.json`, "
    "`.gemini/settings.json` and their worktree copies) start a Python interpreter or a taskproto "
    "script that is gone (a virtualenv inside the moved repository, or removed; the launcher "
    "`init` writes in the git dir, after the repository moved), or taskproto is no longer "
    "installed for that interpreter (a reinstall alone is no finding: the launcher finds the "
    "package again): each hook fails.",
    "install the clients' hooks again with this taskproto's interpreter, in the main worktree and "
    "every task worktree (what `taskproto init --claude|--codex|--gemini` does)",
)
check(
    "client-hooks-other-package",
    Severity.WARNING,
    "The agent clients' hook launchers (`<git dir>/taskproto-hooks/`) run taskproto from a folder "
    "that is still there but is not this taskproto's, while their interpreter is this one: a "
    "reinstall that left the old folder behind (`pip install .` after `pip install -e .` leaves "
    "the clone), so the hooks run other code than the `taskproto` you run.",
    "point the launchers at this taskproto (what `taskproto init` also does)",
)
check(
    "client-hooks-in-shared-settings",
    Severity.WARNING,
    "Claude Code's shared project settings, `.claude/settings.json` (the file a project commits), "
    "hold taskproto's hooks, as an older `init --claude` wrote them. They name this machine's "
    "interpreter and scripts: committed, they break everyone else's hooks; left uncommitted, they "
    "keep `git status` dirty. `init --claude` now writes them to `.claude/settings.local.json`, "
    "Claude Code's settings of one machine, kept out of git.",
    "move them: take taskproto's hooks out of `.claude/settings.json` (your own entries stay) and "
    "install them in `.claude/settings.local.json` (what `taskproto init --claude` does)",
)


def _finding(id: str, message: str, path: str | None = None, **data: object) -> Finding:
    return Finding(id, CHECKS[id].severity, message, path=path, data=dict(data))


def check_records(snap: Snapshot) -> Iterator[Finding]:
    """Repository-wide: the records name the old place."""
    cfg = snap.config
    rec = snap.agent_hooks
    if rec is not None:
        _, moved = relocated(rec, cfg, OLDER_MAIN_FILES)
        if moved:
            yield _finding(
                "hook-records-moved",
                f"{relative(cfg, cfg.root / RECORD)} names the old place ({'; '.join(moved)}): "
                "`taskproto init --uninstall` of the clients cannot find the files it installed",
                str(cfg.root / RECORD),
                record="agent-hooks",
            )
    git_rec = hooks_record(snap)
    recorded = git_rec.get("hooks_dir") if git_rec is not None else None
    if (
        git_rec is not None
        and git_rec.get("installed", True)
        and isinstance(recorded, str)
        and snap.hooks_dir is not None
        and not os.path.isdir(recorded)
        and snap.real(recorded) != snap.real(snap.hooks_dir)
    ):
        yield _finding(
            "hook-records-moved",
            f"{relative(cfg, cfg.root / GIT_HOOKS_RECORD)} says the git hooks are in {recorded}, "
            f"which is gone; git runs them from {relative(cfg, snap.hooks_dir)}",
            str(cfg.root / GIT_HOOKS_RECORD),
            record="git-hooks",
            hooks_dir=snap.hooks_dir,
        )


def _gone(command: str, found: dict[str, bool]) -> list[str]:
    """The interpreter and scripts an installed hook command starts that no longer exist (and a
    launcher's package, when its interpreter finds it nowhere: `found` keeps what each
    interpreter answered)."""
    started = _launch(command)
    if started is None:
        return []  # `taskproto hook ...` from PATH: nothing recorded to look for
    script, python = started
    # in the order they start: sh's script then the interpreter; the interpreter then its script
    paths = [("script", script), ("interpreter", python)]
    if not command.lstrip().startswith(SHELL):
        paths.reverse()
    gone = [
        f"{what} {path}"
        for what, path in paths
        if not (os.path.isfile(path) and (what != "interpreter" or os.access(path, os.X_OK)))
    ]
    hooks = None if gone else launcher.recorded(script)
    there = hooks is not None and os.path.isfile(os.path.join(hooks, "entry.py"))
    if hooks is not None and not there and not _finds(python, found):
        # the launcher's package is gone, and its interpreter does not find another
        gone.append(f"taskproto for {python} (no longer installed; was in {hooks})")
    return gone


def _launch(command: str) -> tuple[str, str] | None:
    """(the launcher or script, the interpreter) an installed hook command starts."""
    try:
        argv = shlex.split(command)
    except ValueError:
        return None
    if len(argv) >= 3 and argv[0] == SHELL:  # sh agent.sh PYTHON CLIENT EVENT
        return argv[1], argv[2]
    if len(argv) >= 4 and argv[1:3] == ["-I", "-S"]:  # PYTHON -I -S agent.py CLIENT EVENT
        return argv[3], argv[0]
    return None


def check_launchers_elsewhere(snap: Snapshot) -> Iterator[Finding]:
    """Repository-wide: the launchers the recorded clients' commands start, when they name a
    hooks folder still there that is not this package's and their interpreter is this one (the
    same virtualenv's `bin`): reported once, with the launchers' folder."""
    rec = snap.agent_hooks
    clients = rec.get("clients") if rec is not None else None
    here = os.path.realpath(launcher.HOOKS)
    mine = os.path.dirname(os.path.abspath(sys.executable))
    for client in clients if isinstance(clients, list) else ():
        if str(client) not in FILES:
            continue
        for command in _commands(_json(snap.config.repo / FILES[str(client)])):
            started = _launch(command)
            if started is None or os.path.dirname(os.path.abspath(started[1])) != mine:
                continue
            hooks = launcher.recorded(started[0])
            if hooks is None or not os.path.isfile(os.path.join(hooks, "entry.py")):
                continue  # not a launcher, or its folder gone: the launcher finds the package
            if os.path.realpath(hooks) != here:
                yield _finding(
                    "client-hooks-other-package",
                    f"the agent clients' hooks run taskproto from {hooks}, this taskproto is "
                    f"in {launcher.HOOKS}: run `taskproto init` to point them here",
                    path=os.path.dirname(started[0]),
                    hooks=hooks,
                )
                return


def _finds(python: str, found: dict[str, bool]) -> bool:
    """launcher.finds_package, asked once a run for each interpreter."""
    if python not in found:
        found[python] = launcher.finds_package(python)
    return found[python]


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None  # missing, or not ours to judge: init says what is wrong with it


def _commands(data: Any) -> Iterator[str]:
    hooks = data.get("hooks") if isinstance(data, dict) else None
    for groups in hooks.values() if isinstance(hooks, dict) else ():
        for group in groups if isinstance(groups, list) else ():
            inner = group.get("hooks") if isinstance(group, dict) else None
            for hook in inner if isinstance(inner, list) else ():
                if is_ours(hook):
                    yield str(hook.get("command", ""))


def check_client_hooks(snap: Snapshot) -> Iterator[Finding]:
    """Repository-wide: the hooks of each recorded client, as its main worktree's file has them
    (init writes them everywhere at once)."""
    rec = snap.agent_hooks
    clients = rec.get("clients") if rec is not None else None
    gone: set[str] = set()
    broken: list[str] = []
    blocks = False  # a Claude Code hook whose script is gone: sh or python exits 2, its block
    asked: dict[str, bool] = {}  # interpreter -> finds taskproto (launcher.finds_package)
    for client in clients if isinstance(clients, list) else ():
        if str(client) not in FILES:
            continue
        names = [FILES[str(client)]] + ([SHARED[str(client)]] if str(client) in SHARED else [])
        missing = [
            _gone(c, asked) for name in names for c in _commands(_json(snap.config.repo / name))
        ]
        found = {g for each in missing for g in each}
        if found:
            gone |= found
            broken.append(str(client))
            # the first missing in the order they start: a script (exit 2) or the interpreter (127)
            blocks |= client == "claude" and any(
                m[0].startswith(("script", "taskproto for")) for m in missing if m
            )
    if broken:
        effect = (
            "every hook fails with exit status 2, so Claude Code blocks every prompt and tool call"
            if blocks
            else "every hook fails and the agents run unguarded"
        )
        yield _finding(
            "client-hooks-interpreter-missing",
            f"the {', '.join(broken)} hooks start {', '.join(sorted(gone))}, which is gone: "
            + effect,
            clients=broken,
        )


def check_shared_settings(snap: Snapshot) -> Iterator[Finding]:
    """Repository-wide: taskproto's hooks in a client's shared project settings (an older init's
    `.claude/settings.json`), whether or not the record lists the client: a clone may carry them
    committed."""
    for client, name in SHARED.items():
        path = snap.config.repo / name
        if next(_commands(_json(path)), None) is None:
            continue
        yield _finding(
            "client-hooks-in-shared-settings",
            f"{name} holds taskproto's hooks, with this machine's paths: run "
            f"`taskproto init --{client}` to move them to {FILES[client]}, kept out of git",
            str(path),
            client=client,
        )
