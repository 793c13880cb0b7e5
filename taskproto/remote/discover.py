"""Which of a clone's remotes hold taskproto's tasks, for a clone that shares none yet.

A fresh clone has `origin` but not taskproto's refs (`git clone` fetches branches and tags only),
and its `remote` setting may be missing (a `.taskproto.toml` that was never committed). `sync`
asks here before it refuses, so the refusal names the command that turns sharing on.
"""

from __future__ import annotations

from taskproto.errors import GitError
from taskproto.git.command import RemoteGit
from taskproto.state import journal


def remotes_with_tasks(git: RemoteGit) -> dict[str, int]:
    """{remote name: how many task journals it holds}, for each remote of this clone that holds
    any (one `git ls-remote` each; a remote that cannot be reached is left out)."""
    found: dict[str, int] = {}
    for name in git.run("remote").split():
        try:
            refs = git.ls_remote(name, [f"{journal.REF_PREFIX}*"])
        except GitError:
            continue
        if refs:
            found[name] = len(refs)
    return found
