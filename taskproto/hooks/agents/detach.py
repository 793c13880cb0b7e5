"""A git command that leaves a worktree's HEAD on no branch, or on a branch not its own, for the
tool guard: read from its words and the worktree's git files (HEAD, its reflog, the refs, through
git/files.py, the one reader of loose and packed refs), refused in a task's or an agent's worktree
before it runs. The reference-transaction hook keeps the no-branch rule whoever runs git
(hooks/git/detached.py); git runs no hook before a checkout of another branch, a branch made
without a commit (`--orphan`), or `git rebase --quit`, which leaves HEAD where the rebase had
detached it.

Standard library only: this runs on every shell tool call.
"""

from __future__ import annotations

import os

from taskproto.git.files import GitDirs, find_repo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.layout import Layout

COMMITTERS = {"commit", "merge", "cherry-pick", "revert", "am", "pull"}
# the options of `checkout` and `switch` that name a branch to create, and put HEAD on it
NEW_SHORT = {"checkout": "bB", "switch": "cC"}
NEW_LONG = ("--orphan", "--create", "--force-create")
# their other options that take the next word as their value
VALUED = ("--conflict", "--pathspec-from-file")
BRANCH, DETACH = "branch", "detach"


def detaches(sub: str, rest: list[str], where: str) -> bool:
    """Whether the git command leaves HEAD of the worktree at `where` on no branch: `checkout` or
    `switch` with `--detach`; a checkout of what is a commit and no local branch (an id, `X~n`,
    `X^`, `@{...}`, a tag, a remote-tracking branch, a full ref name), or of the branch checked out
    before (`-`, `@{-N}`) when that was a commit; `update-ref --no-deref HEAD`; a commit on a HEAD
    detached already; `git rebase --quit` while a rebase runs there (HEAD stays detached)."""
    if sub in ("checkout", "switch") and ("--detach" in rest or (sub == "switch" and "-d" in rest)):
        return True
    if sub in ("checkout", "switch"):
        target = _target(sub, rest, where)
        return target is not None and target[0] == DETACH
    operands = [a for a in rest if not a.startswith("-")]
    if sub == "update-ref" and "--no-deref" in rest and operands[:1] == ["HEAD"]:
        return True
    if sub == "rebase" and "--quit" in rest:
        dirs = _repo(where)
        return dirs is not None and _rebasing(dirs)
    if sub in COMMITTERS:
        dirs = _repo(where)
        return dirs is not None and not _rebasing(dirs) and dirs.head_branch() is None
    return False


def switches_to(sub: str, rest: list[str], where: str) -> str | None:
    """The branch a git command puts HEAD of the worktree at `where` on: `git switch B`, `git
    checkout B` (a local branch: else it detaches or restores a file), a branch it creates
    (`-b`, `-B`, `-c`, `-C`, `--orphan`, `--track` of a remote-tracking branch, a checkout of a
    name only a remote has), the branch checked out before (`-`, `@{-N}`), `git symbolic-ref
    HEAD refs/heads/B`; else None."""
    if sub == "symbolic-ref":
        operands = [a for a in rest if not a.startswith("-")]
        if len(operands) == 2 and operands[0] == "HEAD" and operands[1].startswith("refs/heads/"):
            return operands[1][11:]
        return None
    if sub not in ("checkout", "switch"):
        return None
    target = _target(sub, rest, where)
    return target[1] if target is not None and target[0] == BRANCH else None


def worktree_branch(rest: list[str]) -> str | None:
    """The branch `git worktree add` (arguments `rest`, after `add`) makes or checks out in the new
    worktree when it names one: `-b`/`-B NAME`, or, with no commit and no `--detach`, the path's
    last part (git's convenience); else None."""
    created, operands = None, []
    words = iter(rest)
    for a in words:
        if a == "--reason":
            next(words, "")
        elif a == "--detach":
            return None
        elif a[:1] == "-" and a[1:2] != "-":  # `-b NAME`, `-bNAME`, bundled `-qb NAME`, `-d`
            for i, letter in enumerate(a[1:]):
                if letter in "bB":
                    created = a[i + 2 :] or next(words, "")
                    break
                if letter == "d":
                    return None
        elif not a.startswith("-"):
            operands.append(a)
    if created:
        return created
    if len(operands) == 1 and _plain(operands[0]):
        return os.path.basename(os.path.normpath(operands[0])) or None
    return None


def _target(sub: str, rest: list[str], where: str) -> tuple[str, str] | None:
    """Where `git checkout`/`git switch` with arguments `rest` puts HEAD: (BRANCH, name) or
    (DETACH, revision); None when it restores files or cannot be told from its words."""
    created, operands, track = None, [], False
    words = iter(rest[: rest.index("--")] if "--" in rest else rest)
    for a in words:
        if a == "-" or not a.startswith("-"):
            operands.append(a)
        elif a in NEW_LONG or a in VALUED:
            value = next(words, "")
            created = value if a in NEW_LONG else created
        elif a.startswith(tuple(f"{o}=" for o in NEW_LONG)):
            created = a.split("=", 1)[1]
        elif a in ("-t", "--track") or a.startswith("--track="):
            track = True
        elif a[:1] == "-" and a[1:2] != "-":
            letters = a[1:]
            for i, letter in enumerate(letters):
                if letter in NEW_SHORT[sub]:  # `-b NAME`, `-bNAME`, bundled `-qb NAME`
                    created = letters[i + 1 :] or next(words, "")
                    break
                track = track or letter == "t"
    patch = sub == "checkout" and any(a in ("-p", "--patch") for a in rest)
    if ("--" in rest or patch) and sub == "checkout" and created is None:
        return None  # `checkout [REV] -- FILE`, `checkout -p REV` write files; HEAD stays
    if created:  # a name the shell makes (`-b "$B"`) is no more its own than another
        return (BRANCH, created)
    if len(operands) != 1 or not _plain(operands[0]):
        return None  # `checkout REV FILE` writes FILE
    name = operands[0]
    dirs = _repo(where)
    if dirs is None:
        return None
    if name == "-" or (name.startswith("@{-") and name.endswith("}")):
        return _prior(dirs, name)
    if track:  # `checkout -t origin/x` makes and checks out x
        short = name.removeprefix("refs/").removeprefix("remotes/")
        return (BRANCH, short.split("/", 1)[1]) if "/" in short else None
    if sub == "switch" or _has(dirs, f"refs/heads/{name}"):
        return (BRANCH, name)
    hexid = 7 <= len(name) <= 64 and all(c in "0123456789abcdef" for c in name)
    if hexid or any(mark in name for mark in ("~", "^", "@{")) or name.startswith("refs/"):
        return (DETACH, name)
    if any(_has(dirs, f"refs/{kind}/{name}") for kind in ("tags", "remotes")):
        return (DETACH, name)  # a tag, `origin/main`
    if _remote_has(dirs, name):
        return (BRANCH, name)  # git makes branch `name` from the remote's (checkout's --guess)
    return None  # a file restored (git's own answer when it is neither)


def _plain(word: str) -> bool:
    """A word the shell leaves as it is: no substitution the guard could not read."""
    return bool(word) and "$" not in word and "__SUBST__" not in word


def _repo(where: str) -> GitDirs | None:
    """The worktree's git files (no GIT_DIR from this process's environment: git_command reads
    the command line's own)."""
    dirs = find_repo(where, {})
    return None if dirs is None or dirs.top is None else dirs


def _has(dirs: GitDirs, ref: str) -> bool:
    """Whether `ref` exists, loose or packed (git/files.py reads both)."""
    if ".." in ref.split("/") or "//" in ref or ref.endswith("/") or "\0" in ref:
        return False
    return dirs.ref_sha(ref) is not None


def _remote_has(dirs: GitDirs, name: str) -> bool:
    """Whether some remote has a tracking branch `name` (refs/remotes/<remote>/<name>)."""
    try:
        remotes = os.listdir(os.path.join(dirs.common_dir, "refs", "remotes"))
    except OSError:
        remotes = []
    if any(_has(dirs, f"refs/remotes/{r}/{name}") for r in remotes):
        return True
    tail = f"/{name}".encode()
    return any(
        ref.startswith(b"refs/remotes/")
        and ref.endswith(tail)
        and ref.count(b"/") == 3 + name.count("/")
        for ref in dirs.packed_refs()
    )


def _prior(dirs: GitDirs, name: str) -> tuple[str, str] | None:
    """What `-` or `@{-N}` names: the Nth branch or commit checked out before, as git finds it in
    the worktree's HEAD reflog ("checkout: moving from X to Y"); None when git finds none (it
    refuses the command itself)."""
    nth = "1" if name == "-" else name[3:-1]
    if not nth.isdigit() or int(nth) == 0:
        return None
    count = int(nth)
    try:  # the newest entries: the log's last MB
        with open(os.path.join(dirs.git_dir, "logs", "HEAD"), "rb") as fh:
            fh.seek(max(0, fh.seek(0, os.SEEK_END) - (1 << 20)))
            data = fh.read()
    except OSError:
        return None
    for line in reversed(data.decode("utf-8", "surrogateescape").splitlines()):
        message = line.partition("\t")[2]
        if not message.startswith("checkout: moving from "):
            continue
        count -= 1
        if count == 0:
            before = message[22:].partition(" to ")[0]
            if _has(dirs, f"refs/heads/{before}"):
                return (BRANCH, before)
            return (DETACH, before)
    return None


def _rebasing(dirs: GitDirs) -> bool:
    """Whether a rebase runs in the worktree (git keeps its state in its own git dir)."""
    return any(
        os.path.isdir(os.path.join(dirs.git_dir, f)) for f in ("rebase-merge", "rebase-apply")
    )


def switch_refusal(layout: Layout, folder: str, branch: str) -> str | None:
    """Why a command that puts HEAD of the worktree at `folder` on `branch` is refused: it is a
    task's or an agent's and `branch` is not its own; else None."""
    kind, task, agent = layout.where(os.path.realpath(folder))
    own = task if agent is None else f"{task}-{agent}"
    if kind != "worktree" or not task or branch in (own, f"refs/heads/{own}"):
        return None
    whose = f"agent {agent} of task {task}" if agent else f"task {task}"
    return (
        f"this command puts the worktree of {whose} on branch {branch}, not its own: its work "
        f"is on {own}, and reaches the base branch through the user's `taskproto land`; stay on "
        f"its branch: `git switch {own}`."
    )


def detach_refusal(layout: Layout, folder: str) -> str | None:
    """Why a command that leaves HEAD of the worktree at `folder` on no branch is refused: it is a
    task's or an agent's; else None."""
    kind, task, agent = layout.where(os.path.realpath(folder))
    if kind != "worktree" or not task:
        return None
    own = task if agent is None else f"{task}-{agent}"
    whose = f"agent {agent} of task {task}" if agent else f"task {task}"
    dirs = _repo(folder)
    if dirs is not None and _rebasing(dirs):  # `git rebase --quit`: the rebase's way back
        return (
            f"this command leaves HEAD of the worktree of {whose} on no branch (detached), where "
            f"the rebase running there put it: a commit there is outside task {task} and lost to "
            f"git's gc; end the rebase with `git rebase --continue` or `git rebase --abort`, "
            f"which put HEAD back on {own}."
        )
    return (
        f"this command leaves HEAD of the worktree of {whose} on no branch (detached): a commit "
        f"there is outside task {task} and lost to git's gc; work on its branch: "
        f"`git switch {own}`."
    )
