"""What ordinary commands write: the tables behind shell.py (git's commands: gitcmd.py).

Standard library only.
"""

from __future__ import annotations

import os

UNKNOWN = "<unknown>"  # a write whose target cannot be named: the guard decides by the state
ALL_ARGS = {
    "touch",
    "rm",
    "rmdir",
    "mkdir",
    "truncate",
    "shred",
    "unlink",
    "tee",
    "mkfifo",
    "mknod",
}
REMOVERS = {"rm", "rmdir", "shred", "unlink"}
FIRST_SKIPPED = {"chmod", "chown", "chgrp", "setfacl", "chattr"}
LAST_ARG = {"cp", "mv", "install", "rsync", "ln", "scp"}


class ShellAction:
    def __init__(self) -> None:
        self.targets: list[str] = []  # absolute paths written, or UNKNOWN
        self.refs: list[str] = []  # git refs moved by name (refs/heads/x, refs/taskproto/...)
        self.taskproto: list[list[str]] = []  # the arguments of each taskproto command it runs
        self.bypass: str | None = None  # a way around the git hooks it asks for
        # a setting of the user's it changes or overrides (core.hooksPath, [tool.taskproto]):
        # refused to every agent session, one that owns no task too
        self.setting: str | None = None
        self.code: list[str] = []  # code or scripts handed to an interpreter, to scan
        self.env_taskproto: list[str] = []  # TASKPROTO_* variables it sets for a command
        self.text = ""  # the whole command, for what it names where a target is unknown
        # folders a command may write anywhere in, ignored files too (`git clean -x`, `git stash
        # -a`, a patch or stash whose paths are not known): taskproto's root must not be inside
        self.sweeps: list[str] = []
        self.patched: list[tuple[str, str]] = []  # (folder, path as a patch names it)
        # (working tree, commits) a git command writes tracked files from: none may track a path
        # in taskproto's root (git overwrites ignored files with tracked ones)
        self.trees: list[tuple[str, list[str]]] = []
        self.incoming = False  # it fetches commits from another repository (fetch, pull)
        self.removes: list[str] = []  # paths deleted or moved away (rm, rmdir, mv's sources)
        # what it runs that is known only when it runs (a command's name in a variable, git's
        # subcommand from xargs, a shell's commands from a pipe): tool_guard.py denies it
        self.unreadable: list[str] = []
        # worktrees whose HEAD it leaves on no branch (`checkout --detach`, a commit on a
        # detached HEAD): refused in a task's worktree (hooks/git/detached.py)
        self.detaches: list[str] = []
        # (worktree, branch) whose HEAD it puts on that branch (`checkout B`, `switch B`)
        self.switches: list[tuple[str, str]] = []


def absolute(path: str, base: str | None, env: dict[str, str]) -> str:
    """`path` made absolute from `base`; UNKNOWN when it depends on what cannot be known here."""
    if path.startswith("~"):
        path = os.path.expanduser(path) if env.get("HOME") is None else env["HOME"] + path[1:]
    if "$HOME" in path and env.get("HOME"):
        path = path.replace("${HOME}", env["HOME"]).replace("$HOME", env["HOME"])
    if "$" in path or "`" in path or "\0" in path or "__SUBST__" in path:
        return UNKNOWN
    if os.path.isabs(path):
        return os.path.normpath(path)
    return UNKNOWN if base is None else os.path.normpath(os.path.join(base, path))


def top_of(folder: str) -> str:
    """The top of the working tree `folder` is in (the nearest folder holding `.git`)."""
    here = os.path.realpath(folder)
    while not os.path.lexists(os.path.join(here, ".git")):
        up = os.path.dirname(here)
        if up == here:
            return folder
        here = up
    return here


def followed(path: str) -> str:
    """The git dir `path` names: itself, or what a worktree's `.git` file (`gitdir: <its git
    dir>`) names; UNKNOWN when that file cannot be read as one."""
    if path == UNKNOWN or not os.path.isfile(path):
        return path
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as fh:
            line = fh.read(4096).strip()
    except OSError:
        return UNKNOWN
    if not line.startswith("gitdir:"):
        return UNKNOWN
    return os.path.join(os.path.dirname(path), line[7:].strip())


def read_patch(path: str) -> str | None:
    if path == UNKNOWN:
        return None
    try:
        with open(path, "rb") as fh:
            return fh.read(8 << 20).decode("utf-8", "replace")
    except OSError:
        return None


PATCH_PATHS = ("diff --git ", "--- ", "+++ ", "rename to ", "copy to ", "rename from ")


def patch_paths(text: str) -> list[str]:
    """Every path a git or unified patch (or a mailbox of them) names, as written there."""
    found: list[str] = []
    for line in text.splitlines():
        for head in PATCH_PATHS:
            if line.startswith(head):
                words = line[len(head) :].split("\t")[0].split()
                found += [w.strip('"') for w in words if w != "/dev/null"]
    return found


def writes(
    act: ShellAction, name: str, args: list[str], base: str | None, env: dict[str, str]
) -> None:
    operands = [a for a in args if not a.startswith("-")]
    target_dir = next(
        (a.split("=", 1)[1] for a in args if a.startswith("--target-directory=")), None
    )
    if "-t" in args and args.index("-t") + 1 < len(args):
        target_dir = args[args.index("-t") + 1]
    if name in ALL_ARGS:
        act.targets += [absolute(a, base, env) for a in operands] or [UNKNOWN]
        if name in REMOVERS:
            act.removes += [absolute(a, base, env) for a in operands]
    elif name in FIRST_SKIPPED:
        act.targets += [absolute(a, base, env) for a in operands[1:]] or [UNKNOWN]
    elif name in LAST_ARG:
        dest = target_dir or (operands[-1] if operands else None)
        act.targets.append(absolute(dest, base, env) if dest else UNKNOWN)
        if dest:
            _into(act, name, operands if target_dir else operands[:-1], absolute(dest, base, env))
        if name == "mv":
            act.removes += [absolute(a, base, env) for a in operands[: None if target_dir else -1]]
        if name == "ln" or (name == "cp" and _links(args)):
            # a link is a way to write what it names: that counts as written too
            folder = target_dir or (os.path.dirname(dest) if dest else None)
            for source in operands if target_dir else operands[:-1]:
                act.targets.append(absolute(source, base, env))
                if folder and not os.path.isabs(source):  # a symbolic link reads from its folder
                    act.targets.append(absolute(os.path.join(folder, source), base, env))
    elif name == "dd":
        act.targets += [absolute(a[3:], base, env) for a in args if a.startswith("of=")]
    elif name in ("sed", "perl") and any(
        a == "-i" or a.startswith(("-i", "--in-place", "-pi")) for a in args
    ):
        act.targets += [absolute(a, base, env) for a in operands[1:]] or [UNKNOWN]
    elif name == "tar" and _extracts(args):
        where = next(
            (args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-C", "--directory")), None
        )
        where = where or next(
            (a.split("=", 1)[1] for a in args if a.startswith("--directory=")), None
        )
        folder = absolute(where, base, env) if where else (base or UNKNOWN)
        act.targets.append(folder)
        _members(act, _tar_file(args), folder, base, env)
    elif name == "unzip":
        where = (
            args[args.index("-d") + 1]
            if "-d" in args and args.index("-d") + 1 < len(args)
            else None
        )
        folder = absolute(where, base, env) if where else (base or UNKNOWN)
        act.targets.append(folder)
        skip = {args.index("-d") + 1} if "-d" in args else set()
        archive = next((a for i, a in enumerate(args) if i not in skip and a[:1] != "-"), None)
        _members(act, archive, folder, base, env)
    elif name in ("curl", "wget"):
        for flag in ("-o", "--output", "-O", "--output-document"):
            if (
                flag in args
                and args.index(flag) + 1 < len(args)
                and not (name == "curl" and flag == "-O")
            ):
                act.targets.append(absolute(args[args.index(flag) + 1], base, env))
    elif name == "patch":
        if not act.targets:
            act.targets.append(base or UNKNOWN)
        given = next((a[8:] for a in args if a.startswith("--input=")), None)
        if "-i" in args and args.index("-i") + 1 < len(args):
            given = args[args.index("-i") + 1]
        text = read_patch(absolute(given, base, env)) if given else None
        if text is None:  # standard input (or unreadable): its paths are not known here
            act.sweeps.append(base or UNKNOWN)
        else:
            act.patched += [(base or UNKNOWN, path) for path in patch_paths(text)]


def _into(act: ShellAction, name: str, sources: list[str], dest: str) -> None:
    """What a copy, move or link into the existing folder `dest` writes there: each source under
    its own name, or a source's contents (`src/.`, rsync's `src/`) anywhere in it."""
    if dest == UNKNOWN or not os.path.isdir(dest):
        return
    for source in sources:
        if (
            source in (".", "./")
            or source.endswith("/.")
            or (name == "rsync" and source[-1:] == "/")
        ):
            act.sweeps.append(dest)
        elif leaf := os.path.basename(source.rstrip("/")):
            act.targets.append(os.path.join(dest, leaf))


ARCHIVE_MOST = 64 << 20  # bytes: a larger archive is not listed in a hook (its paths are unknown)


def _tar_file(args: list[str]) -> str | None:
    """The archive a `tar` command names (`-f F`, `-xfF`, `--file=F`, `xf F`); None: stdin."""
    for i, a in enumerate(args):
        if a.startswith("--file="):
            return a[7:]
        bundled = a[1:] if a.startswith("-") and not a.startswith("--") else (a if i == 0 else "")
        if a == "--file" or "f" in bundled:
            rest = "" if a == "--file" else bundled[bundled.index("f") + 1 :]
            return rest or (args[i + 1] if i + 1 < len(args) else None)
    return None


def _members(
    act: ShellAction, archive: str | None, folder: str, base: str | None, env: dict[str, str]
) -> None:
    """The paths an archive extracts into `folder`, read from the archive (tar, zip); when it
    cannot be read here (standard input, too large, not there yet), it may write anywhere in it."""
    path = absolute(archive, base, env) if archive and archive != "-" else UNKNOWN
    names: list[str] | None = None
    try:
        if path != UNKNOWN and os.path.getsize(path) <= ARCHIVE_MOST:
            if _archive_kind(path) == "zip":
                import zipfile

                with zipfile.ZipFile(path) as z:
                    names = z.namelist()
            else:
                import tarfile

                with tarfile.open(path) as t:
                    names = t.getnames()
    except Exception:  # noqa: BLE001 - unreadable: its paths are unknown
        names = None
    if names is None or folder == UNKNOWN:
        act.sweeps.append(folder)
        return
    act.targets += [os.path.normpath(os.path.join(folder, n.lstrip("/"))) for n in names]


def _archive_kind(path: str) -> str:
    with open(path, "rb") as fh:
        return "zip" if fh.read(4) == b"PK\x03\x04" else "tar"


def _links(args: list[str]) -> bool:
    """`cp` making links instead of copies (`-l`, `-s`, `--link`, `--symbolic-link`)."""
    return any(
        a in ("--link", "--symbolic-link")
        or (a.startswith("-") and not a.startswith("--") and ("l" in a or "s" in a))
        for a in args
    )


def _extracts(args: list[str]) -> bool:
    """`tar` extracting (`-x`, `--extract`, or the old bundled form `tar xf ...`)."""
    if args and not args[0].startswith("-") and "x" in args[0]:
        return True
    return any(
        a in ("--extract", "--get") or (a.startswith("-") and not a.startswith("--") and "x" in a)
        for a in args
    )


CONFIG_READS = {"--get", "--list", "-l", "--get-all", "--get-regexp"}
CONFIG_WRITES = {"--unset", "--unset-all", "--add", "--replace-all", "--edit", "-e"}


# `git config` options that drop or hide core.hooksPath without naming it: its section removed or
# renamed, or the file handed to an editor (GIT_EDITOR may be any program)
CONFIG_SECTIONS = {"--remove-section", "--rename-section"}


def hooks_setting(key: str) -> bool:
    """Whether a config key (`key` or `key=value`) sets where git runs hooks: core.hooksPath, or an
    include, whose file may set it."""
    key = key.lower()
    # an alias whose command sets it (`alias.ci=!git config core.hooksPath /x`)
    return key.startswith(("core.hookspath", "include.path", "includeif.")) or (
        key.startswith("alias.") and "hookspath" in key
    )


def hooks_off(what: str) -> str:
    return f"{what} runs git without taskproto's hooks"


def config_hides_hooks(rest: list[str]) -> str | None:
    """The option of `git config REST` that may drop core.hooksPath without naming it, if any."""
    for a, nxt in zip(rest, [*rest[1:], ""], strict=True):
        if a in ("--edit", "-e"):
            return a
        if a in CONFIG_SECTIONS and nxt.lower().split(".")[0] in ("core", "include", "includeif"):
            return f"{a} {nxt}"
    return None


def config_write(rest: list[str]) -> tuple[str, bool]:
    """Why `git config REST` (a write) is not an agent's, and whether it moves git's hooks."""
    alias = [a for a in rest if a.lower().startswith("alias.")]
    if alias and "hookspath" in " ".join(rest).lower():  # `git config alias.ci '!git config ...'`
        return f"`git config {alias[0]}` points git away from taskproto's hooks", True
    if named := next((a for a in rest if hooks_setting(a)), None) or config_hides_hooks(rest):
        return f"`git config {named}` points git away from taskproto's hooks", True
    key = next((a for a in rest if not a.startswith("-")), "")
    return f"`git config {key}` writes git's settings, the user's (its hooks' among them)", False


def config_env_bypass(own: dict[str, str], shells: dict[str, str]) -> str | None:
    """Why the variables a git command is given (`own`: set on its command line or exported before
    it; `shells`: the shell's) may turn taskproto's hooks off: GIT_CONFIG_* setting core.hooksPath
    or an include, or a settings file of their own (`/dev/null`, no settings, passes); a HOME or
    XDG_CONFIG_HOME of their own, since git reads the user's settings from `$HOME/.gitconfig` and
    `$XDG_CONFIG_HOME/git/config` (the shell's own pass, and any where GIT_CONFIG_GLOBAL names the
    settings file instead)."""
    env = {**shells, **own}
    config = " ".join(v for k, v in env.items() if k.startswith("GIT_CONFIG")).lower()
    if "hookspath" in config or "include" in config:
        return hooks_off("GIT_CONFIG_* setting core.hooksPath")
    for name in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"):
        if env.get(name) not in (None, "/dev/null", os.environ.get(name)):
            return f"{name} reads git's settings (core.hooksPath among them) from a file of its own"
    for name in ("HOME", "XDG_CONFIG_HOME"):
        moved = name in own and own[name].rstrip("/") != shells.get(name, "").rstrip("/")
        if moved and "GIT_CONFIG_GLOBAL" not in env:
            return (
                f"{name} reads git's settings (core.hooksPath among them) from a folder of its own"
            )
    return None


def config_read(rest: list[str]) -> bool:
    """Whether `git config REST` only reads: a read option, or a setting named and no value."""
    if not rest or any(a in CONFIG_READS for a in rest):
        return True
    if not any(hooks_setting(a) for a in rest):
        return False  # another setting written
    named = [a for a in rest if not a.startswith("-")]
    return len(named) == 1 and not any(a in CONFIG_WRITES for a in rest)
