"""`taskproto inbox`: what waits for the user, in this repository or in every one this machine
registered (`taskproto init` registers it in `$XDG_CONFIG_HOME/taskproto/repositories`).

The items are engine/attention.py's, read from each task's task.json as it is now (a shared
remote's tasks as the last `sync` brought them): the same reasons, keys and commands the
notifications carry.
"""

from __future__ import annotations

import fcntl
import os
from typing import Any

from taskproto import plainjson as json
from taskproto.engine import attention
from taskproto.layout import Layout, SettingsError, find_layout


def registry_file() -> str:
    home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(home, "taskproto", "repositories")


def registered() -> list[str]:
    """The main worktrees registered on this machine, each once, in the order they came."""
    try:
        with open(registry_file(), encoding="utf-8") as fh:
            lines = [line.rstrip("\n") for line in fh]
    except FileNotFoundError:
        return []
    return list(dict.fromkeys(line for line in lines if line))


def register(main: str) -> bool:
    """Add repository `main` (its main worktree) to the machine's list; False if it was there."""
    path = registry_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if main in registered():
            return False
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(main + "\n")
    return True


def items(layout: Layout) -> list[dict[str, Any]]:
    """Every item of every task of this repository, by task name."""
    out: list[dict[str, Any]] = []
    for name in sorted(layout.task_names()):
        try:
            with open(layout.task_file(name), "rb") as fh:
                data = json.loads(fh.read())
        except (OSError, ValueError):
            continue  # a task that cannot be read is doctor's, not the inbox's
        if isinstance(data, dict):
            out.extend(attention.items(layout, data))
    for item in out:
        item["repository"] = layout.main
    return out


def everywhere(here: Layout | None) -> tuple[list[dict[str, Any]], list[str]]:
    """The items of every registered repository (and `here`), and the repositories that could not
    be read, each with why."""
    found: list[dict[str, Any]] = []
    problems: list[str] = []
    mains = registered()
    if here is not None and here.main not in mains:
        mains.insert(0, here.main)
    for main in mains:
        if not os.path.isdir(main):
            problems.append(
                f"{main}: gone; remove its line from {registry_file()} to stop this warning"
            )
            continue
        try:
            layout = find_layout(main)
        except SettingsError as exc:
            problems.append(str(exc))
            continue
        if layout is None:
            problems.append(f"{main}: not a git repository")
            continue
        elsewhere = here is None or layout.main != here.main
        for item in items(layout):
            if elsewhere:  # run here as printed, it would act on this repository's task
                item["command"] = in_repository(layout.main, item["command"])
            found.append(item)
    return found, problems


def in_repository(main: str, command: str) -> str:
    """`taskproto ARGS` as `taskproto -C MAIN ARGS`: the same command, run from anywhere."""
    import shlex

    prefix = "taskproto "
    if not command.startswith(prefix):
        return command
    return f"{prefix}-C {shlex.quote(main)} {command[len(prefix) :]}"
