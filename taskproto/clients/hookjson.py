"""taskproto's entries in an agent client's hook settings: the command each event runs, which
entries are ours (by the paths and commands they name, whichever version of init wrote them), and a
settings object with ours merged in or taken out. Pure: the files are clients/settings.py's."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from taskproto.clients.launcher import FOLDER, PY, SH
from taskproto.clients.protocols import INSTALLED, kind

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ENTRY = Path(__file__).resolve().parent.parent / "hooks" / "agents" / "entry.py"
SCRIPT = ENTRY.with_name("hook.sh")  # the lifecycle events' fast path in `sh` (docs/agents.md)
SHELL = "/bin/sh"
TIMEOUT_S = 30
MARKS = (
    "hooks/agents/entry.py",
    "hooks/agents/hook.sh",
    "agent_hooks/entry.py",
    "taskproto hook claude",
    "taskproto hook codex",
    "taskproto hook gemini",
    f"/{FOLDER}/{SH}",
    f"/{FOLDER}/{PY}",
)


def hook_command(
    client: str, event: str, python: str | None = None, launchers: str | None = None
) -> str:
    """Absolute: the installing interpreter, without site-packages, on the launcher in the folder
    `launchers` (clients/launcher.py; None: on the package's own files, as an older init wrote
    them). Tool calls start it directly (agent.py, entry.py); the lifecycle events go through
    `sh` (agent.sh, hook.sh), which answers "nothing to do" (and a session start with the free
    tasks listed last time) without it."""
    python = python or sys.executable
    tool = kind(client, event) in ("tool", None)
    if launchers is None:
        script = str(ENTRY) if tool else str(SCRIPT)
    else:
        script = os.path.join(launchers, PY if tool else SH)
    if tool:
        return shlex.join([python, "-I", "-S", script, client, event])
    return shlex.join([SHELL, script, python, client, event])


def is_ours(hook: Any) -> bool:
    return isinstance(hook, dict) and any(m in str(hook.get("command", "")) for m in MARKS)


def our_groups(client: str, launchers: str | None = None) -> dict[str, dict[str, Any]]:
    groups: dict[str, dict[str, Any]] = {}
    for event, matcher in INSTALLED[client].items():
        command = hook_command(client, event, launchers=launchers)
        hook: dict[str, Any] = {"type": "command", "command": command}
        if client == "gemini":
            hook = {
                "name": f"taskproto-{event}",
                **hook,
                "timeout": TIMEOUT_S * 1000,
            }  # milliseconds
        else:
            hook["timeout"] = TIMEOUT_S
        groups[event] = {"matcher": matcher, "hooks": [hook]}
    return groups


def without_ours(data: dict[str, Any]) -> dict[str, Any]:
    """`data` with every hook of ours taken out (and groups or events left empty by that)."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return dict(data)
    cleaned: dict[str, Any] = {}
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            cleaned[event] = groups
            continue
        kept = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(inner, list) and any(is_ours(h) for h in inner):
                rest = [h for h in inner if not is_ours(h)]
                if rest:
                    kept.append({**group, "hooks": rest})
            else:
                kept.append(group)
        if kept:
            cleaned[event] = kept
    out = dict(data)
    if cleaned:
        out["hooks"] = cleaned
    else:
        out.pop("hooks")
    return out


def merged(data: dict[str, Any], client: str, launchers: str | None = None) -> dict[str, Any]:
    out = without_ours(data)
    hooks = dict(out.get("hooks") or {})
    for event, group in our_groups(client, launchers).items():
        hooks[event] = list(hooks.get(event) or []) + [group]
    out["hooks"] = hooks
    return out
