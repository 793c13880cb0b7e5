"""The macOS `sandbox-exec` profile of an agent's sandbox: pure, from the same `Rules`.

Seatbelt cannot hide a folder behind an empty one, nor give the agent a pid namespace: reads of
the hidden folders are denied (the kept ones allowed), writes are denied outside the writable
places and the system's temporary folders, and signals and process inspection are limited to the
sandbox's own processes. With no bind mounts, a runner on macOS (not built yet) sets
TASKPROTO_CHANNEL to the channel's socket itself and HOME to the agent's home copy, which the
profile lets it reach.
"""

from __future__ import annotations

from taskproto.sandbox.rules import Rules


def _q(path: str) -> str:
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


def seatbelt_profile(rules: Rules) -> str:
    lines = [
        "(version 1)",
        f";; taskproto: agent {rules.agent} of task {rules.task}",
        "(allow default)",
        ";; not readable: the user's home, runtime and temporary folders (secrets, sockets)",
        "(deny file-read* file-write*",
        *(
            f"  (subpath {_q(p)})"
            for p in rules.hidden
            if p not in ("/tmp", "/var/tmp", "/dev/shm")
        ),
        ")",
        ";; launchd's ssh agent socket",
        '(deny file-read* network-outbound (regex #"^/private/tmp/com\\.apple\\.launchd\\."))',
    ]
    if rules.kept:
        lines += ["(allow file-read*", *(f"  (subpath {_q(p)})" for p in rules.kept), ")"]
    lines += [
        ";; the repository is readable",
        "(allow file-read*",
        *(f"  (subpath {_q(p)})" for p in rules.read_only),
        ")",
        ";; taskproto's root is not readable, but for the agent's own places",
        f"(deny file-read* (subpath {_q(rules.state)}))",
        "(allow file-read*",
        *(f"  (subpath {_q(p)})" for p in rules.writable),
        ")",
        ";; writable: nothing but the agent's worktree, its git dir and temporary files",
        "(deny file-write*)",
        "(allow file-write*",
        *(f"  (subpath {_q(p)})" for p in rules.writable),
        '  (subpath "/private/tmp")',
        '  (subpath "/private/var/folders")',
        '  (literal "/dev/null")',
        '  (literal "/dev/tty")',
        ")",
    ]
    if rules.home_copy is not None:  # Seatbelt binds nothing: HOME names the copy itself
        lines += [
            ";; the agent's own home (a named client's copies of its login and settings)",
            f"(allow file-read* file-write* (subpath {_q(rules.home_copy)}))",
        ]
    lines += [
        ";; and inside them, what must not change",
        "(deny file-write*",
        *(f"  (subpath {_q(target)})" for _, target in rules.protected),
        ")",
        ";; the user's processes: no signals, no inspection",
        "(deny signal (target others))",
        "(deny process-info* (target others))",
        "(deny mach-priv-task-port (target others))",
    ]
    if not rules.network:
        lines.append("(deny network*)")
    if rules.channel is not None:  # TASKPROTO_CHANNEL names the socket itself, as HOME the copy
        lines += [
            ";; the agent's channel (sandbox/serve.py): its way to the protocol, as itself",
            f"(allow file-read* network-outbound (literal {_q(rules.channel)}))",
        ]
    return "\n".join(lines) + "\n"
