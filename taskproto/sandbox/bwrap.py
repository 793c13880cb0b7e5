"""bubblewrap's argv for an agent's sandbox (Linux): pure, from `Rules`."""

from __future__ import annotations

from taskproto.sandbox.channel import INSIDE
from taskproto.sandbox.rules import Rules


def bwrap_argv(rules: Rules, bwrap: str = "bwrap") -> list[str]:
    """The argv up to and including `--`: the command follows it.

    Own user, pid, ipc, uts and cgroup namespaces, no capabilities, no further user namespaces
    (a nested one could remount); a new session (no TIOCSTI into the user's terminal); `/proc`
    of the sandbox's own processes only; the process dies with its parent.
    """
    argv = [
        bwrap,
        "--unshare-user",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--disable-userns",
        "--cap-drop",
        "ALL",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
    ]
    if not rules.network:
        argv.append("--unshare-net")
    argv += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for folder in rules.hidden:
        argv += ["--tmpfs", folder]
    if rules.home_copy is not None:
        argv += ["--bind", rules.home_copy, rules.home]
    for folder in rules.kept:
        argv += ["--ro-bind", folder, folder]
    for folder in rules.read_only:
        argv += ["--ro-bind", folder, folder]
    argv += ["--tmpfs", rules.state]
    for folder in rules.writable:
        argv += ["--bind", folder, folder]
    for source, target in rules.protected:
        argv += ["--ro-bind", source, target]
    if rules.channel is not None:
        argv += ["--ro-bind", rules.channel, INSIDE]
    argv += ["--remount-ro", rules.state]  # the mounts above it made, nothing else can be
    for key, value in sorted(rules.env.items()):
        argv += ["--setenv", key, value]
    argv += ["--chdir", rules.worktree, "--"]
    return argv
