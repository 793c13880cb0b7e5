"""The agent clients' hook launchers: the two small files the hook commands name, so that a
reinstall of taskproto (`pip install -e .` after `pip install .`, an upgrade that moves the
package, the other way round) leaves the hooks working.

A hook command that named the package's own files (`<site-packages>/taskproto/hooks/agents/
hook.sh`) failed once pip took that copy away, and Claude Code then blocked every prompt and tool
call. `init --claude|--codex|--gemini` writes `<common git dir>/taskproto-hooks/agent.sh` (the
lifecycle events: `/bin/sh agent.sh PYTHON CLIENT EVENT`) and `agent.py` (the tool calls: `PYTHON
-I -S agent.py CLIENT EVENT`), each holding the package's hooks folder as it was at that moment.
agent.sh reads hook.sh from there (`.`: no process of its own, so the lifecycle events' answers in
`sh` start no Python, as before) and agent.py imports the hook's code from there, in its own
process (no second start; a module's compiled form is cached, where entry.py, a script, is compiled
on every start). Only when that folder is gone does agent.py turn site-packages on (the
interpreter finds the package where it is now: one Python start, as a tool call has anyway),
write both files again naming the new place (`moved`, called by a launcher of any version: its
name and argument stay), and answer. agent.sh hands such a call to agent.py.

The folder is in the common git dir: every worktree shares it, the agent's tool guard refuses
writing it (hooks/agents/protected.py), an agent's sandbox shows it read-only, and `init
--uninstall` of the last client removes it. Moving the repository moves it too: `taskproto init`
there names the new place (docs/doctor.md, "A moved repository"). Standard library only.
"""

from __future__ import annotations

import os

FOLDER = "taskproto-hooks"
SH, PY = "agent.sh", "agent.py"
MARKER = "taskproto agent-client hook launcher"
# the package's hooks folder, where hook.sh and entry.py are
HOOKS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hooks", "agents")

SH_TEXT = """#!/bin/sh
# {marker}: written by `taskproto init --claude|--codex|--gemini`
# (taskproto/clients/launcher.py), removed by `taskproto init --uninstall`. Run as
# `/bin/sh agent.sh PYTHON CLIENT EVENT`: reads taskproto's hook.sh from where the package is
# (below), without a process of its own; when a reinstall took it away, agent.py finds it again.
hook_sh={hook_sh}
[ -f "$hook_sh" ] && . "$hook_sh"
exec "$1" -I -S "${{0%.sh}}.py" "$2" "$3"
"""

PY_TEXT = """# {marker}: written by `taskproto init --claude|--codex|--gemini`
# (taskproto/clients/launcher.py), removed by `taskproto init --uninstall`. Run as
# `PYTHON -I -S agent.py CLIENT EVENT`: runs taskproto's hook from where the package is (HOOKS),
# as entry.py would; when a reinstall took it away, the interpreter finds the package again, and
# this file and agent.sh are written anew naming its place.
import os
import sys

HOOKS = {hooks!r}
if not os.path.isfile(os.path.join(HOOKS, "entry.py")):
    import site

    site.main()  # -S: taskproto is found where it is installed now
    try:
        from taskproto.clients.launcher import moved
    except ImportError:
        sys.stderr.write(
            "taskproto: the hook cannot run: taskproto is no longer installed for "
            + sys.executable
            + "; install it again, or take its hooks out with `taskproto init --uninstall "
            "--claude` (or --codex, --gemini) from the taskproto you use\\n"
        )
        raise SystemExit(2)
    HOOKS = moved(__file__)
# as entry.py does: the folder that holds the `taskproto` package first on the path
sys.path[0] = os.path.dirname(os.path.dirname(os.path.dirname(HOOKS)))
from taskproto.hooks.agents.hookmain import main  # noqa: E402

raise SystemExit(main(sys.argv[1:]))
"""


def folder_in(common_dir: str) -> str:
    return os.path.join(common_dir, FOLDER)


def texts(hooks: str = HOOKS) -> dict[str, bytes]:
    """The launchers' contents (name -> bytes), naming the hooks folder `hooks`."""
    import shlex

    return {
        SH: SH_TEXT.format(
            marker=MARKER, hook_sh=shlex.quote(os.path.join(hooks, "hook.sh"))
        ).encode(),
        PY: PY_TEXT.format(marker=MARKER, hooks=hooks).encode(),
    }


def is_ours(path: str) -> bool:
    try:
        if os.path.islink(path):
            return False
        with open(path, "rb") as fh:
            return MARKER.encode() in fh.read(512)
    except OSError:
        return False


def write(folder: str, hooks: str = HOOKS) -> tuple[list[str], list[str]]:
    """Both launchers in `folder`, naming `hooks`: (the files written, the files already so).
    A file there that is not ours is refused (TaskprotoError), before anything is written."""
    wanted = texts(hooks)
    written, same = [], []
    for name in wanted:
        path = os.path.join(folder, name)
        if os.path.lexists(path) and not is_ours(path):
            from taskproto.errors import TaskprotoError

            raise TaskprotoError(
                f"{path} is not taskproto's hook launcher; move it away, then run `taskproto "
                "init` again"
            )
    from taskproto.state.files import atomic_write

    os.makedirs(folder, exist_ok=True)
    for name, data in wanted.items():
        path = os.path.join(folder, name)
        try:
            with open(path, "rb") as fh:
                if fh.read() == data:
                    same.append(path)
                    continue
        except OSError:
            pass
        # whole, renamed into place: a hook running the old file reads it to its end, one
        # starting now reads the new one (no sync: a call that finds it missing writes it again)
        atomic_write(path, data, sync=False)
        written.append(path)
    return written, same


def remove(folder: str) -> list[str]:
    """Take both launchers out of `folder` (ours only), and the folder when that empties it."""
    removed = []
    for name in (SH, PY):
        path = os.path.join(folder, name)
        if is_ours(path):
            os.unlink(path)
            removed.append(path)
    try:
        os.rmdir(folder)
    except OSError:
        pass  # not there, or holds something else
    return removed


def recorded(path: str) -> str | None:
    """The hooks folder a launcher names (None: not a launcher of ours, or unreadable)."""
    if not is_ours(path):
        return None
    with open(path, encoding="utf-8", errors="replace") as fh:
        text = fh.read()
    import ast
    import shlex

    for line in text.splitlines():
        if line.startswith("hook_sh="):
            words = shlex.split(line[len("hook_sh=") :])
            return os.path.dirname(words[0]) if words else None
        if line.startswith("HOOKS = "):
            try:
                value = ast.literal_eval(line[len("HOOKS = ") :])
            except (ValueError, SyntaxError):
                return None
            return value if isinstance(value, str) else None
    return None


def moved(launcher: str) -> str:
    """Called by a launcher whose hooks folder is gone, from the package as it is installed now:
    both launchers beside it written again naming this package (a folder an agent's sandbox
    shows read-only is left as it is: this call is answered all the same); this package's hooks
    folder. (Launchers of every version call this: keep its name and argument.)"""
    try:
        write(os.path.dirname(os.path.abspath(launcher)))
    except Exception:  # noqa: BLE001 - not written: the next call finds the package again
        pass
    return HOOKS


def finds_package(python: str) -> bool:
    """Whether `python`, with site-packages on, imports taskproto from wherever it is installed
    now: what a launcher (and a git hook script) whose package folder is gone does. One process,
    asked only when that folder is gone (doctor)."""
    import subprocess

    probe = "import importlib.util, sys; sys.exit(importlib.util.find_spec('taskproto') is None)"
    try:
        done = subprocess.run(
            [python, "-I", "-c", probe],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0
