"""The agent's own git dir: made before each run, its branch brought back after it.

git moves a branch by writing `<ref>.lock` beside it and renaming it over the ref, so moving one
branch needs the whole `refs/heads/` folder writable, and a commit writes objects into a folder
shared by every branch. Neither can be granted for one branch alone. So the agent commits into a
git dir of its own (`<agent dir>/sandbox/git`): its objects folder borrows the repository's
through `objects/info/alternates`, its refs are a copy of the repository's branches and tags, its
HEAD is its branch, its index a copy of its worktree's. Inside the sandbox the worktree's `.git`
names it. After the run taskproto fetches the agent's branch out of it (git's own pack checks,
the uploading side run in the same sandbox: its config and files are the agent's) and moves the
real branch from the agent's worktree, through the branch guard, as any commit there would.
"""

from __future__ import annotations

import os
import shlex
import shutil
from dataclasses import dataclass

from taskproto.errors import GitError
from taskproto.git.command import Git
from taskproto.git.files import INTERNAL, GitDirs, read_small
from taskproto.sandbox import SandboxError

HEX = frozenset("0123456789abcdef")


def sandbox_dir(agent_dir: str) -> str:
    return os.path.join(agent_dir, "sandbox")


@dataclass(frozen=True)
class Prepared:
    git_dir: str
    branch: str
    start: str  # the branch's commit when the run began


def linked_git_dir(worktree: str) -> str | None:
    """The git dir a worktree's `.git` file names (None when it is not a linked worktree)."""
    line = (read_small(os.path.join(worktree, ".git"), 4096) or b"").decode("utf-8", "replace")
    if not line.startswith("gitdir:"):
        return None
    return os.path.realpath(os.path.join(worktree, line[7:].strip()))


def prepare(
    *, task: str, agent: str, main: str, common_dir: str, worktree: str, box: str
) -> Prepared:
    """Make (or renew) the agent's git dir under `box` for a run; return where its branch is."""
    branch = f"{task}-{agent}"
    real = linked_git_dir(worktree)
    if real is None or not os.path.isdir(real):
        raise SandboxError(
            task, agent, f"{worktree} is not a git worktree; run `taskproto doctor --fix` first"
        )
    repo = Git(main)
    start = _dirs_of(main, common_dir).branch_sha(branch) or repo.ref_sha(f"refs/heads/{branch}")
    if start is None:
        raise SandboxError(
            task, agent, f"branch {branch} does not exist; run `taskproto doctor --fix` first"
        )
    git_dir = os.path.join(box, "git")
    objects = os.path.join(git_dir, "objects")
    for folder in (objects, os.path.join(objects, "info")):
        # the agent may have left a link here (inside, it can rename its objects folder): what is
        # written below must not follow it out
        if os.path.islink(folder) or (os.path.lexists(folder) and not os.path.isdir(folder)):
            os.unlink(folder)
    os.makedirs(os.path.join(objects, "info"), exist_ok=True)
    for name in os.listdir(git_dir):  # everything but the objects is renewed from the repository
        if name != "objects":
            path = os.path.join(git_dir, name)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.unlink(path)
    os.makedirs(os.path.join(git_dir, "refs", "heads"))
    os.makedirs(os.path.join(git_dir, "refs", "tags"))
    os.makedirs(os.path.join(git_dir, "hooks"))  # read-only inside: the one hook below only
    _write(os.path.join(git_dir, "hooks", "reference-transaction"), _own_branch_hook(branch))
    os.chmod(os.path.join(git_dir, "hooks", "reference-transaction"), 0o755)
    _write(
        os.path.join(git_dir, "objects", "info", "alternates"),
        os.path.join(common_dir, "objects") + "\n",
    )
    _write(os.path.join(git_dir, "config"), _config(common_dir, git_dir))
    _write(os.path.join(git_dir, "HEAD"), f"ref: refs/heads/{branch}\n")
    _write(os.path.join(git_dir, "refs", "heads", branch), start + "\n")
    refs = repo.run(
        "for-each-ref",
        "--format=%(objectname) %(refname)",
        "refs/heads",
        "refs/tags",
        "refs/remotes",
    ).splitlines()
    packed = "".join(line + "\n" for line in refs if not line.endswith(f" refs/heads/{branch}"))
    _write(os.path.join(git_dir, "packed-refs"), packed)
    # info/exclude too: what `init` keeps out of git (this machine's client settings) stays out
    # of the agent's `git status` and `git add -A`, as in its worktree outside
    os.makedirs(os.path.join(git_dir, "info"))
    for name in ("index", "shallow", os.path.join("info", "exclude")):
        source = os.path.join(real if name == "index" else common_dir, name)
        if os.path.isfile(source):
            with open(source, "rb") as fh:
                _write(os.path.join(git_dir, name), fh.read())
    _write(os.path.join(box, "dotgit"), f"gitdir: {git_dir}\n")
    os.makedirs(os.path.join(box, "empty"), exist_ok=True)  # put over absent client settings
    return Prepared(git_dir, branch, start)


def _dirs_of(main: str, common_dir: str) -> GitDirs:
    return GitDirs(main, common_dir, common_dir, False)


def _config(common_dir: str, git_dir: str) -> str:
    """The repository's config included first (its filters, diff drivers, user), then what the
    sandbox needs to hold whatever it says: not bare, no hooks, no automatic gc (the agent's
    objects stay loose for the fetch), reflogs."""
    path = os.path.join(common_dir, "config")
    fmt = ""
    if b"objectformat" in (read_small(path, 1 << 20) or b"").lower():  # else SHA-1: no git
        fmt = Git(common_dir).run(
            "config", "--file", path, "--get", "extensions.objectformat", check=False
        )
        fmt = fmt.strip()
    extensions = f"[extensions]\n\tobjectformat = {fmt}\n" if fmt else ""
    return (
        f"[core]\n\trepositoryformatversion = {1 if fmt else 0}\n"
        f"{extensions}"
        f"[include]\n\tpath = {path}\n"
        "[core]\n\tbare = false\n\tlogAllRefUpdates = true\n"
        f"\thooksPath = {os.path.join(git_dir, 'hooks')}\n"
        "[gc]\n\tauto = 0\n"
    )


def _own_branch_hook(branch: str) -> str:
    """git's reference-transaction hook inside: a branch other than the agent's own moved there
    (the agent's copy of `main`, another agent's or task's branch) would never come out, so git
    refuses it saying so, rather than the move succeeding to no effect. Not a boundary (the
    agent can skip hooks): the boundary is that only its own branch is brought out."""
    return (
        "#!/bin/sh\n"
        '[ "$1" = prepared ] || exit 0\n'
        "while read -r old new ref; do\n"
        '  case "$ref" in\n'
        f"    refs/heads/{branch}) ;;\n"
        "    refs/heads/*)\n"
        '      echo "taskproto: refused: moving branch ${ref#refs/heads/} in this sandbox: only '
        f"its own branch {branch} comes out of its sandbox (the others move through the user's "
        '\\`taskproto merge\\` and \\`taskproto land\\`)" >&2\n'
        "      exit 1 ;;\n"
        "  esac\n"
        "done\n"
        "exit 0\n"
    )


def _write(path: str, data: str | bytes) -> None:
    """A new file at `path`, never through a link the agent left there."""
    if os.path.lexists(path):
        os.unlink(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data.encode() if isinstance(data, str) else data)


def branch_head(git_dir: str, branch: str) -> str | None:
    """The agent's branch in its git dir, read as data (the file is the agent's: only an object
    id is taken from it)."""
    loose = _read_own(os.path.join(git_dir, "refs", "heads", branch), 128)
    candidates = [loose.strip()] if loose else []
    packed = _read_own(os.path.join(git_dir, "packed-refs"), 1 << 26) or b""
    candidates += [
        line.split(b" ", 1)[0]
        for line in packed.splitlines()
        if line.endswith(b" refs/heads/" + branch.encode())
    ]
    for raw in candidates:
        sha = raw.decode("ascii", "replace")
        if len(sha) in (40, 64) and set(sha) <= HEX:
            return sha
    return None


def _read_own(path: str, limit: int) -> bytes | None:
    """A file of the agent's git dir, not through a link (which could name a file of the
    user's)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        return fh.read(limit)


def bring_back(
    *,
    task: str,
    agent: str,
    main: str,
    worktree: str,
    prepared: Prepared,
    upload_pack: list[str],
) -> str | None:
    """Move the real branch to the agent's commit, if it moved inside: the new head, else None.

    `upload_pack` is the sandboxed argv that serves the agent's git dir to the fetch. The move is
    made from the agent's worktree and not as taskproto's own (`TASKPROTO_INTERNAL` off), so the
    branch guard judges it as it judges a commit there: a state without commits refuses it.
    """
    branch = prepared.branch
    new = branch_head(prepared.git_dir, branch)
    if new is None or new == prepared.start:
        return None
    repo = Git(main)
    try:
        repo.run(
            "fetch",
            "--quiet",
            "--no-tags",
            "--no-write-fetch-head",
            "--upload-pack",
            shlex.join(upload_pack),
            prepared.git_dir,
            f"refs/heads/{branch}",
            env={"GIT_NO_REPLACE_OBJECTS": "1", "GIT_TERMINAL_PROMPT": "0"},
        )
    except GitError as exc:
        raise SandboxError(task, agent, _refused(branch, new, prepared, exc)) from None
    if not repo.ok("cat-file", "-e", f"{new}^{{commit}}"):
        raise SandboxError(
            task, agent, f"the agent's branch {branch} names {new}, which its git dir did not send"
        )
    try:
        Git(worktree).run(
            "update-ref",
            "-m",
            "taskproto: the agent's commits, from its sandbox",
            f"refs/heads/{branch}",
            new,
            prepared.start,
            env={INTERNAL: "0"},
        )
    except GitError as exc:
        raise SandboxError(task, agent, _refused(branch, new, prepared, exc)) from None
    # the worktree's index still describes the old head: match it to the new one (the files stay)
    Git(worktree).run("reset", "--quiet")
    return new


def _refused(branch: str, new: str, prepared: Prepared, exc: GitError) -> str:
    lines = [line.strip() for line in exc.stderr.splitlines() if line.strip()]
    ours = [line.removeprefix("taskproto: ") for line in lines if line.startswith("taskproto: ")]
    reason = " ".join(ours or lines) or str(exc)
    return (
        f"the agent's commit {new} on {branch} was refused ({reason}); {branch} stays at "
        f"{prepared.start[:12]}, and the commit's files stay in the agent's worktree as "
        "uncommitted changes"
    )
