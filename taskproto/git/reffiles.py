"""taskproto's own refs (`refs/taskproto/...`) moved in-process, as git's files backend does it.

A journal commit moves `refs/taskproto/tasks/<task>` once per state change; `git update-ref`
costs a process and runs the reference-transaction hook twice (two shells, four greps), 7-9 ms
in all, the largest single cost of a transition. Git's own protocol is small: create
`<ref>.lock` exclusively, compare the ref's value under that lock, write the new value, rename
the lock over the ref. Doing exactly that here interlocks with git (the same lock file) and
leaves what `git update-ref` would leave.

It is done only when it is the same as asking git: a files backend (no reftable), no reflog for
the ref (none exists and `core.logAllRefUpdates` is not `always`), no `core.fsync*` setting
(git's default does not fsync a ref, and neither does this), and no reference-transaction
hook that could see it: none, or taskproto's own with nothing chained (which lets taskproto's
updates of its own refs through, hooks/git/hook.sh). Any setting that could change that
(`core.hooksPath`, an include, `git -c`) sends the update to git. `update` returns False then,
and the caller runs `git update-ref`.
"""

from __future__ import annotations

import errno
import os
import time

from taskproto.errors import GitError
from taskproto.git.files import GitDirs, read_small

PREFIX = "refs/taskproto/"
HOOK = "reference-transaction"
HOOK_MARKER = b"# taskproto git hook: installed by `taskproto init`"
LOCK_WAIT = 0.1  # seconds: git's own core.filesRefLockTimeout default
# words in a config file that could change how git would write the ref (lower case, no spaces)
RISKY = (b"hookspath", b"include", b"logallrefupdates=always", b"refstorage", b"fsync")
ANY = "any"  # `update`'s old value when the ref may hold anything (a tracking ref)
# git holds a ref's lock for milliseconds (a user's `git pack-refs`/`git gc` too); one this old was
# left by a process killed while it held it
LOCK_GRACE_SECONDS = 60.0


def held_lock(lock: str, now: float) -> tuple[float, bool] | None:
    """A ref's `.lock` file: (its age in seconds, whether it is stale), None when there is none.

    The one rule doctor (`journal-ref-locked`) and the merge queue decide by: a lock is stale, so
    safe to delete, once LOCK_GRACE_SECONDS have passed since it was written; a younger one may be
    held by a live git right now and is never taken."""
    try:
        age = now - os.lstat(lock).st_mtime
    except FileNotFoundError:
        return None
    return age, age >= LOCK_GRACE_SECONDS


def _config_files(dirs: GitDirs) -> list[str]:
    env = os.environ
    home = env.get("HOME", "")
    xdg = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    files = [os.path.join(dirs.common_dir, "config"), os.path.join(dirs.git_dir, "config.worktree")]
    if "GIT_CONFIG_GLOBAL" in env:
        files.append(env["GIT_CONFIG_GLOBAL"])
    else:
        files += [os.path.join(xdg, "git", "config"), os.path.join(home, ".gitconfig")]
    if not env.get("GIT_CONFIG_NOSYSTEM"):
        files.append(env.get("GIT_CONFIG_SYSTEM", "/etc/gitconfig"))
    return files


def same_as_git(dirs: GitDirs, ref: str) -> bool:
    """Whether writing `ref` here leaves exactly what `git update-ref` would (see the module)."""
    env = os.environ
    if not ref.startswith(PREFIX) or "GIT_CONFIG_PARAMETERS" in env or "GIT_CONFIG_COUNT" in env:
        return False
    if "GIT_DIR" in env or "GIT_COMMON_DIR" in env or "GIT_OBJECT_DIRECTORY" in env:
        return False
    common = dirs.common_dir
    if os.path.exists(os.path.join(common, "reftable")):
        return False
    for path in _config_files(dirs):
        text = read_small(path, 1 << 20)
        if text and any(word in text.lower().replace(b" ", b"") for word in RISKY):
            return False
    if os.path.lexists(os.path.join(common, "logs", ref)):
        return False
    hook = os.path.join(common, "hooks", HOOK)
    if os.access(hook, os.X_OK):
        head = read_small(hook, 512) or b""
        if HOOK_MARKER not in head or os.access(hook + ".taskproto-chained", os.X_OK):
            return False
    return True


def _current(dirs: GitDirs, ref: str) -> str | None:
    data = read_small(os.path.join(dirs.common_dir, ref), 128)
    if data is not None:
        value = data.strip()
        return value.decode() if len(value) == 40 and value.isalnum() else "?"
    return dirs.ref_sha(ref)  # packed-refs (a loose ref is read above)


def update(dirs: GitDirs, ref: str, new: str, old: str | None) -> bool:
    """Set `ref` to `new` only if it is `old` now (None: must not exist; ANY: whatever it is), as
    one compare-and-swap under git's ref lock. False when this must be left to `git update-ref`
    (nothing was done); GitError when the ref is not `old` (as git reports it)."""
    if not same_as_git(dirs, ref):
        return False
    path = os.path.join(dirs.common_dir, ref)
    lock = path + ".lock"
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            if time.monotonic() > deadline:
                return False  # git waits once more and names the holder in its own words
            time.sleep(0.001)
        except OSError:
            return False  # a file where a folder should be, permissions: git says what it is
    try:
        try:
            current = _current(dirs, ref)
            if current == "?":  # a symbolic ref, or something git must judge
                os.unlink(lock)
                return False
            if old != ANY and current != old:
                expected = old or "nothing"
                raise GitError(
                    ["git", "update-ref", ref, new, old or "0" * 40],
                    1,
                    "",
                    f"fatal: cannot lock ref '{ref}': is at {current or 'nothing'} but expected "
                    f"{expected}\n",
                )
            data = (new + "\n").encode()
            if os.write(fd, data) != len(data):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), lock)
            # not fsynced, as git does not by default (core.fsync leaves refs out; a setting of
            # it sends the update to git): the fsync of task.json, written next, commits this
            # rename with it on ext4's ordered journal
        finally:
            os.close(fd)
        os.rename(lock, path)
    except BaseException:
        try:
            os.unlink(lock)
        except OSError:
            pass
        raise
    return True


# --- keeping refs packed (a user's `git gc` prunes each loose ref in a transaction of its own) ---

# Loose refs under refs/taskproto/ and refs/heads/ past which a journal write packs them: `git gc`
# (`git pack-refs --all --prune`) runs the reference-transaction hook twice for every loose ref it
# prunes, a process each time; packed here, gc finds at most this many (plus what others wrote).
PACK_BOUND = 64
PACK_FOLDERS = ("refs/taskproto", "refs/heads")


def loose_refs(common_dir: str, bound: int = PACK_BOUND) -> int:
    """The loose refs under PACK_FOLDERS, counted up to just past `bound` (the folders hold about
    that many at most, since they are packed once they pass it)."""
    count = 0
    for top in PACK_FOLDERS:
        for _folder, _subs, files in os.walk(os.path.join(common_dir, top)):
            count += sum(1 for name in files if not name.endswith(".lock"))
            if count > bound:
                return count
    return count


def keep_packed(dirs: GitDirs, bound: int = PACK_BOUND) -> bool:
    """Pack every ref (`git pack-refs --all --prune`) once more than `bound` are loose; True when
    it packed. Packing moves where refs are stored, never what they hold: git writes every loose
    ref's value into packed-refs under packed-refs' lock, then deletes each loose copy under its
    own ref lock only if it still holds that value. So it runs without hooks (`core.hooksPath`
    an empty path), sparing the two hook runs per ref that are gc's cost; it takes no ref or
    value from anyone. Best effort: a pack already running (packed-refs locked) or any failure
    leaves the refs loose, as they were, for the next write or git's own gc."""
    if os.path.exists(os.path.join(dirs.common_dir, "reftable")):
        return False
    if loose_refs(dirs.common_dir, bound) <= bound:
        return False
    from taskproto.git.files import run_git

    out = run_git(
        dirs.top or dirs.common_dir,
        "-c",
        "core.hooksPath=/dev/null",
        "-c",
        "core.packedRefsTimeout=0",
        "pack-refs",
        "--all",
        "--prune",
    )
    return out is not None
