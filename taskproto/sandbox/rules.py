"""What an agent's sandbox allows, as data: pure, from the paths of the repository and the user.

Writable: the agent's worktree and its own git dir (gitdir.py), nothing else of the user's;
read-only: the repository (main worktree, common git dir), and inside the writable places the
files that must not change (the worktree's `.git` link, the git dir's config, hooks and
alternates, the clients' settings); hidden (an empty tmpfs): the user's home, the temporary
folders and the runtime folder, where secrets and sockets live, and taskproto's root but for the
agent's own places.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

# The user's secrets under the home folder, named for the docs and the macOS profile. On Linux
# the whole home is hidden, so these are hidden with the rest.
SECRETS = (
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".config/gcloud",
    ".config/gh",
    ".kube",
    ".docker",
    ".git-credentials",
    ".config/git/credentials",
    ".netrc",
    ".npmrc",
    ".pypirc",
)
# The clients' settings in a worktree: their hooks decide what the agent may do, and a client you
# start there later runs what they say. The folders are read-only inside whether or not they exist
# (an empty one is put where there is none); `.mcp.json` only where it exists (a file put in its
# place would show in `git status`).
CLIENT_SETTINGS = (".claude", ".codex", ".gemini", ".mcp.json")
CLIENT_FOLDERS = (".claude", ".codex", ".gemini")
# Variables the sandbox passes through from the user's environment; every other one stays out
# (tokens, SSH_AUTH_SOCK, cloud credentials).
PASSED = (
    "PATH",
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "LC_MESSAGES",
    "TERM",
    "COLORTERM",
    "TZ",
)
GIT_IDENTITY = ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL")


def agent_session(task: str, agent: str) -> str:
    """The session an agent acts as inside its sandbox: fixed by taskproto, whatever it sets."""
    return f"agent-{task}-{agent}"


@dataclass(frozen=True)
class Rules:
    """One agent's sandbox. Paths are real and absolute; order matters where they nest (a
    read-only folder may hold a writable one, which may hold read-only files)."""

    task: str
    agent: str
    worktree: str  # the agent's worktree: writable, and the working folder
    git_dir: str  # the agent's own git dir: writable
    dot_git: str  # the file the worktree's `.git` shows inside (it names git_dir)
    read_only: tuple[str, ...]  # the repository's folders, visible and not writable
    # taskproto's root: an empty, read-only folder inside but for the agent's own places. Its files
    # are never the agent's to read: a lock file it could read, it could flock(2), and hold every
    # write of a task up for as long as it runs
    state: str
    writable: tuple[str, ...]  # worktree and git dir
    protected: tuple[tuple[str, str], ...]  # (source, target): read-only inside the writable
    hidden: tuple[str, ...]  # replaced by an empty folder
    kept: tuple[str, ...]  # under a hidden folder, still needed read-only (the interpreter)
    env: Mapping[str, str] = field(default_factory=dict)
    network: bool = True
    home: str = "/"
    channel: str | None = None  # the agent's channel outside (serve.py), bound at channel.INSIDE
    # the agent's own home (a named client's: sandbox/clients.py), bound writable over the user's
    home_copy: str | None = None


def rules_for(
    *,
    task: str,
    agent: str,
    main: str,
    common_dir: str,
    root: str,
    worktree: str,
    sandbox_dir: str,
    environ: Mapping[str, str],
    identity: Mapping[str, str],
    kept: Sequence[str] = (),
    pass_env: Sequence[str] = (),
    network: bool = True,
    existing: Sequence[str] = (),
    channel: str | None = None,
    session: str | None = None,
    home_copy: str | None = None,
) -> Rules:
    """The rules of agent `agent` of task `task`. `existing` names the paths that exist (a client's
    settings folder that does not is covered by the empty `<sandbox_dir>/empty`). `identity` is the
    git author to commit as (the user's name and email). `channel`: the agent's channel outside,
    bound inside at channel.INSIDE; `session` the one it acts as (`agent_session` when None);
    `home_copy` the agent's own home, shown where the user's is (a named client's)."""
    git_dir = os.path.join(sandbox_dir, "git")
    home = environ.get("HOME") or "/"
    hidden = ["/tmp", "/var/tmp", "/dev/shm"]
    if home not in ("/", "") and not home.startswith(("/usr/", "/etc/")):
        hidden.insert(0, home)
    for var in ("XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"):
        value = environ.get(var)
        if value and os.path.isabs(value) and not any(_inside(value, h) for h in hidden):
            hidden.append(value)
    uid_run = f"/run/user/{os.getuid()}"
    if uid_run in existing and not any(_inside(uid_run, h) for h in hidden):
        hidden.append(uid_run)
    repo = [main]
    repo += [p for p in (common_dir,) if not any(_inside(p, r) for r in repo)]
    protected = [
        (os.path.join(sandbox_dir, "dotgit"), os.path.join(worktree, ".git")),
        *(
            (p, p)
            for p in (
                os.path.join(git_dir, "config"),
                os.path.join(git_dir, "hooks"),
                os.path.join(git_dir, "objects", "info", "alternates"),
            )
        ),
        *(
            (p, p)
            for p in (os.path.join(worktree, name) for name in CLIENT_SETTINGS)
            if p in existing
        ),
        *(
            (os.path.join(sandbox_dir, "empty"), p)
            for p in (os.path.join(worktree, name) for name in CLIENT_FOLDERS)
            if p not in existing
        ),
    ]
    env = {k: environ[k] for k in PASSED if k in environ}
    env.update({k: environ[k] for k in pass_env if k in environ})
    env.update(identity)
    env.update(
        {
            "HOME": home,
            "TMPDIR": "/tmp",
            "TASKPROTO_SESSION": session or agent_session(task, agent),
            "TASKPROTO_AGENT": "1",
            "TASKPROTO_ROOT": root,
            "TASKPROTO_SANDBOX": "1",
        }
    )
    if channel is not None:
        from taskproto.sandbox.channel import ENV, INSIDE

        env[ENV] = INSIDE
    return Rules(
        task=task,
        agent=agent,
        worktree=worktree,
        git_dir=git_dir,
        dot_git=os.path.join(sandbox_dir, "dotgit"),
        read_only=tuple(repo),
        state=root,
        writable=(worktree, git_dir),
        protected=tuple(protected),
        hidden=tuple(hidden),
        kept=tuple(k for k in kept if any(_inside(k, h) for h in hidden)),
        env=env,
        network=network,
        home=home,
        channel=channel,
        home_copy=home_copy if home in hidden else None,
    )


def hidden_by(rules: Rules, path: str) -> str | None:
    """The folder that hides `path` inside the sandbox (None: the sandbox shows it)."""
    shown = (*rules.read_only, *rules.writable, *rules.kept)
    if any(_inside(path, folder) for folder in shown):
        return None
    return next((h for h in (*rules.hidden, rules.state) if _inside(path, h)), None)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")
