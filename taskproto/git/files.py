"""What a git hook needs to know, read from git's own files: no git process, stdlib only.

Hooks fire on every commit, checkout and push, so the path that decides "this
branch is no task's" must cost little more than the interpreter's start-up.
Starting git costs milliseconds and `taskproto.git.command` pulls in dataclasses (and
through it inspect), so this module reads `.git`, `HEAD`, `commondir` and the
refs directly, and runs git (`run_git`, a bare posix_spawn) only where a
decision really needs it (the staged file list, trailers). It is the one
exception to "only git.py runs git", kept for speed, and runs nothing on the
no-op path.
"""

from __future__ import annotations

import os

ZERO_OID = "0" * 40
SETTINGS_KEYS = (
    b"root",
    b"prohibited_patterns",
    b"protected_branches",
    b"commit_trailers",
    b"lock_timeout",
)


class Repo:
    """A worktree found from a folder inside it: its git dir, the common dir, the main worktree."""

    def __init__(self, top: str, git_dir: str, common_dir: str) -> None:
        self.top = top  # this worktree's top folder
        self.git_dir = git_dir
        self.common_dir = common_dir

    @property
    def main_worktree(self) -> str:
        # Same answer as Git.main_worktree() for a non-bare repository.
        return os.path.dirname(self.common_dir)

    def head_branch(self) -> str | None:
        """The short name of the checked-out branch, or None when detached."""
        try:
            with open(os.path.join(self.git_dir, "HEAD"), "rb") as fh:
                head = fh.read(4096).strip()
        except OSError:
            return None
        if head.startswith(b"ref: refs/heads/"):
            return head[16:].decode("utf-8", "replace")
        return None

    def branch_sha(self, branch: str) -> str | None:
        """The commit `refs/heads/<branch>` points to (loose ref, then packed-refs)."""
        ref = "refs/heads/" + branch
        try:
            with open(os.path.join(self.common_dir, ref), "rb") as fh:
                sha = fh.read(128).strip().decode()
            if len(sha) == 40:
                return sha
        except OSError:
            pass
        try:
            with open(os.path.join(self.common_dir, "packed-refs"), "rb") as fh:
                wanted = b" " + ref.encode() + b"\n"
                for line in fh:
                    if line.endswith(wanted):
                        return line[:40].decode()
        except OSError:
            pass
        out = run_git(
            self.top, "rev-parse", "--verify", "--quiet", ref
        )  # reftable or an odd layout
        return out.strip().decode() if out else None


def find_repo(start: str) -> Repo | None:
    """The worktree around `start` (hooks run at the top of the worktree; GIT_DIR wins if set)."""
    env_dir = os.environ.get("GIT_DIR")
    if env_dir:
        git_dir = os.path.abspath(env_dir)
        top = os.path.abspath(os.environ.get("GIT_WORK_TREE") or start)
        return Repo(top, git_dir, _common_dir(git_dir))
    here = os.path.abspath(start)
    while True:
        dot_git = os.path.join(here, ".git")
        if os.path.isdir(dot_git):
            return Repo(here, dot_git, _common_dir(dot_git))
        if os.path.isfile(dot_git):
            try:
                with open(dot_git, "rb") as fh:
                    line = fh.read(4096).strip().decode("utf-8", "replace")
            except OSError:
                return None
            if not line.startswith("gitdir: "):
                return None
            git_dir = os.path.normpath(os.path.join(here, line[8:]))
            return Repo(here, git_dir, _common_dir(git_dir))
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def _common_dir(git_dir: str) -> str:
    try:
        with open(os.path.join(git_dir, "commondir"), "rb") as fh:
            rel = fh.read(4096).strip().decode("utf-8", "replace")
    except OSError:
        return git_dir
    return os.path.normpath(os.path.join(git_dir, rel))


class SettingsError(Exception):
    pass


def read_settings(repo_top: str, need: tuple[bytes, ...] = SETTINGS_KEYS) -> dict[str, object]:
    """The `[tool.taskproto]` / `.taskproto.toml` table, as config.load_config finds it.

    tomllib is imported only when the file mentions one of the `need`ed keys, so
    a repository without taskproto settings never pays for it.
    """
    for name, section in ((".taskproto.toml", False), ("pyproject.toml", True)):
        path = os.path.join(repo_top, name)
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            continue
        if section and b"taskproto" not in data:
            continue  # load_config moves on to the next file too
        if not any(key in data for key in need):
            return {}
        import tomllib

        try:
            table = tomllib.loads(data.decode("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise SettingsError(f"{path}: not valid TOML ({exc}); fix the file") from None
        if section:
            table = table.get("tool", {}).get("taskproto")
            if table is None:
                continue
        if not isinstance(table, dict):
            raise SettingsError(f"{path}: the taskproto settings must be a table")
        return table
    return {}


def resolve_root(repo_top: str, settings: dict[str, object], root: str | None = None) -> str:
    """--root, else TASKPROTO_ROOT, else the `root` setting, else `.taskproto` (as load_config)."""
    value = root or os.environ.get("TASKPROTO_ROOT") or settings.get("root") or ".taskproto"
    if not isinstance(value, str):
        raise SettingsError("the `root` setting must be a string")
    return os.path.abspath(os.path.join(repo_top, value))


def run_git(cwd: str, *args: str) -> bytes | None:
    """Run git in `cwd`; its stdout, or None when it fails. A bare spawn: `subprocess` costs more to import."""
    out_r, out_w = os.pipe()
    actions = [(os.POSIX_SPAWN_DUP2, out_w, 1), (os.POSIX_SPAWN_CLOSE, out_r)]
    old = os.getcwd()
    os.chdir(cwd)  # posix_spawn takes no working folder before Python 3.13
    try:
        pid = os.posix_spawnp("git", ["git", *args], os.environ, file_actions=actions)
    finally:
        os.chdir(old)
        os.close(out_w)
    chunks = []
    with os.fdopen(out_r, "rb") as out:
        while chunk := out.read(65536):
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    return b"".join(chunks) if os.waitstatus_to_exitcode(status) == 0 else None
