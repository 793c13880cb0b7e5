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


def working_repository(git: RemoteGit, remote: str) -> str | None:
    """The main worktree's folder when `remote` (a remote's name, a path or a file:// URL) is a
    repository on this machine that is not bare: one where tasks are worked on, whose task.json
    files the journals a clone pushes into it would leave behind. None for anything else."""
    import os

    from taskproto.git.files import find_repo

    url = remote
    if "://" not in remote and not remote.startswith(("/", ".")):
        try:
            url = git.run("remote", "get-url", remote).strip()
        except GitError:
            return None
    if url.startswith("file://"):
        url = url[len("file://") :]
    elif "://" in url or (":" in url and not url.startswith(("/", "."))):
        return None  # another machine's: ssh, https, git
    path = os.path.join(os.fspath(git.cwd), url) if not os.path.isabs(url) else url
    dirs = find_repo(path, {}) if os.path.isdir(path) else None
    if dirs is None or dirs.bare or dirs.top is None:
        return None
    return dirs.main


def working_refusal(remote: str, folder: str) -> str:
    """Why tasks are not shared through a working repository, and what to share through."""
    return (
        f"{remote} is the working repository {folder}, not a shared one: journals pushed into "
        "it from a clone leave its task.json files behind (its commands then refuse those "
        "tasks); share through a bare repository that both push to instead (docs/remote.md, "
        '"A working repository is not a shared remote")'
    )
