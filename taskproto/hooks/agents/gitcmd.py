"""What a git command writes and moves, for the tool guard: the paths it names, what it may write
where it names none (ignored files, a patch, a stash), the commits it writes tracked files from, and
the refs it moves. Standard library only (a git process only for `git stash pop/apply/branch`)."""

from __future__ import annotations

import os

from taskproto.git.files import git_environ, git_missing
from taskproto.hooks.agents.commands import (
    UNKNOWN,
    ShellAction,
    absolute,
    config_env_bypass,
    config_read,
    config_write,
    followed,
    hooks_off,
    hooks_setting,
    patch_paths,
    read_patch,
    top_of,
)
from taskproto.hooks.agents.detach import detaches, switches_to, worktree_branch
from taskproto.layout import inside

GIT_READS = {
    "status",
    "log",
    "diff",
    "show",
    "blame",
    "grep",
    "ls-files",
    "ls-tree",
    "rev-parse",
    "rev-list",
    "describe",
    "cat-file",
    "merge-base",
    "shortlog",
    "whatchanged",
    "help",
    "version",
    "var",
    "check-ignore",
    "count-objects",
    "name-rev",
    "show-ref",
    "for-each-ref",
    "annotate",
    "show-branch",
    "cherry",
    "diff-tree",
    "diff-files",
    "diff-index",
    "range-diff",
    "verify-commit",
    "check-attr",
}
GIT_NO_VERIFY = {"commit", "merge", "push", "am", "cherry-pick", "rebase", "revert", "pull"}


def git_command(
    act: ShellAction, args: list[str], base: str | None, shells: dict[str, str], own: dict[str, str]
) -> None:
    """`own`: the variables set for it or exported (GIT_*, HOME, ...); `shells`: the shell's."""
    env = {**shells, **own}
    where = base
    work: str | None = env.get("GIT_WORK_TREE")  # the working tree it writes, wherever it is
    git_dir: str | None = env.get("GIT_DIR")  # the git dir whose HEAD's branch moves
    if why := config_env_bypass(own, shells):
        act.bypass = act.setting = why
    i = 0
    while i < len(args) and args[i].startswith("-"):
        opt, value = args[i], args[i + 1] if i + 1 < len(args) else ""
        if opt.startswith("--config-env="):
            opt, value = "--config-env", opt.split("=", 1)[1]
            args = [*args[:i], opt, value, *args[i + 1 :]]
        if opt in ("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env") and value:
            if opt == "-C":
                where = absolute(value, where, env)
            elif opt in ("-c", "--config-env") and hooks_setting(value):
                act.bypass = act.setting = hooks_off(f"`git {opt} {value.split('=', 1)[0]}=...`")
            elif opt == "-c" and value.lower().startswith("alias."):
                act.unreadable.append(f"a git alias set on its command line, {value}")
            elif opt == "-c" and value.lower().startswith("core.worktree="):
                work = value.split("=", 1)[1]
            elif opt == "--git-dir":
                git_dir = value
            elif opt == "--work-tree":
                work = value
            i += 2
        else:
            if opt.startswith("--git-dir="):
                git_dir = opt.split("=", 1)[1]
            elif opt.startswith("--work-tree="):
                work = opt.split("=", 1)[1]
            i += 1
    start = base if where == UNKNOWN else where  # where git starts: after any -C
    # a git dir named: the branch that moves is its worktree's, wherever git writes files
    moves_in = None if git_dir is None else worktree_of_git_dir(absolute(git_dir, start, env))
    if git_dir is not None:
        where = UNKNOWN
    if work is not None:  # relative to where git starts
        where = absolute(work, start, env)
    sub = args[i] if i < len(args) else ""
    rest = args[i + 1 :]
    if sub == "submodule" and "hookspath" in " ".join(rest).lower():  # foreach's command
        act.bypass = act.setting = hooks_off("`git submodule foreach` setting core.hooksPath")
    if "$" in sub or "__SUBST__" in sub or (not sub and any("__SUBST__" in a for a in args)):
        act.unreadable.append(f"git's subcommand, {sub or '(from its input)'}")
        return
    home = None if where == UNKNOWN else where
    act.targets += written(sub, rest, home, env)  # `git diff --output=F` too
    if not sub or sub in GIT_READS:
        return
    if (
        sub == "branch"
        and not any(a in rest for a in ("-f", "--force", "-D", "-d", "-m", "-M", "-c", "-C"))
        and (
            not rest
            or any(a.startswith(("--list", "-l", "-a", "-r", "-v", "--show")) for a in rest)
        )
    ):
        return
    if sub == "config" and config_read(rest):
        return
    if sub == "config":
        act.bypass, hooks = config_write(rest)
        act.setting = act.bypass if hooks else act.setting
    if sub in ("stash", "worktree", "remote", "tag", "notes", "reflog", "submodule") and rest[
        :1
    ] in (["list"], ["show"], ["-l"], ["--list"], ["-v"]):
        return
    if (
        sub in GIT_NO_VERIFY
        and any(a in ("--no-verify", "-n") for a in rest)
        and sub != "push"
        or (sub == "push" and "--no-verify" in rest)
    ):
        act.bypass = f"`git {sub} --no-verify` skips taskproto's hooks"
    git_refs(act, sub, rest)
    head = where if git_dir is None else moves_in  # the worktree whose HEAD it moves
    if head and head != UNKNOWN and detaches(sub, rest, head):
        act.detaches.append(head)
    if head and head != UNKNOWN and (branch := switches_to(sub, rest, head)):
        act.switches.append((head, branch))
    act.targets.append(where if where else UNKNOWN)
    if moves_in is not None and moves_in != UNKNOWN:
        act.targets.append(moves_in)  # its HEAD's branch moves: the main worktree's, another's
    git_paths(act, sub, rest, home, env)
    if "GIT_INDEX_FILE" in env:  # an index of its own: what it may write is not known here
        act.sweeps.append(where or UNKNOWN)
    if sub == "checkout-index" and not any(a.startswith("--prefix=") for a in rest):
        # it writes whatever the index holds, here
        act.sweeps.append(where or UNKNOWN)
    if sub in ("pull", "fetch", "remote") and _remote(sub, rest) != ".":
        act.incoming = True  # commits nobody can look at before this line runs
    if sub in ("checkout", "restore"):  # the paths it writes over, wherever they are
        if "--" in rest:
            paths = rest[rest.index("--") + 1 :]
        else:
            paths = [a for a in rest if not a.startswith("-")][1 if sub == "checkout" else 0 :]
        act.targets += [absolute(path, home, env) for path in paths]


def worktree_of_git_dir(path: str) -> str:
    """The worktree a git dir (`path`, absolute; a `.git` file followed) belongs to: the one its
    `gitdir` file names (a linked worktree's), the folder that holds it (a main `.git`), else
    UNKNOWN (a bare repository, a separate git dir, a path not known here)."""
    path = followed(path)
    if path == UNKNOWN:
        return UNKNOWN
    real = os.path.realpath(path)
    try:
        with open(os.path.join(real, "gitdir"), encoding="utf-8", errors="surrogateescape") as fh:
            return os.path.dirname(os.path.realpath(fh.read(4096).strip()))
    except OSError:
        pass
    if os.path.basename(real) == ".git" and os.path.isfile(os.path.join(real, "HEAD")):
        return os.path.dirname(real)
    return UNKNOWN


def _short(rest: list[str], letter: str, *long: str) -> bool:
    """Whether `-<letter>` is given (alone or among bundled short options), or one of `long`."""
    return any(
        a in long or (a.startswith("-") and not a.startswith("--") and letter in a[1:])
        for a in rest
    )


def git_paths(
    act: ShellAction, sub: str, rest: list[str], where: str | None, env: dict[str, str]
) -> None:
    """What a git command writes beyond its working tree's tracked files: the paths it names
    (`mv`, `rm`, `clean`), ignored files (`clean -x/-X/-e`, `stash -a`), a patch's paths (`apply`,
    `am`), a stash's untracked files (`stash pop/apply/branch`)."""
    area = where or UNKNOWN
    operands = [a for a in rest if not a.startswith("-")]
    if sub in (
        "mv",
        "rm",
        "clean",
        "add",
        "update-index",
    ):  # the paths it names (--cacheinfo's too)
        named = [absolute(a.rpartition(",")[2], where, env) for a in operands]
        act.targets += named
        if sub == "add" and _short(rest, "f", "--force"):
            act.sweeps += named  # ignored files added: taskproto's root among them
    if where is not None and (revs := _tree_sources(sub, rest, operands)) is not None:
        if sub not in REF_SETTERS:  # it writes the working tree: from HEAD too (`reset --hard`)
            revs.append("HEAD")
        if revs:
            act.trees.append((where, revs))
    excludes = _short(rest, "e", "--exclude") or any(a.startswith("--exclude=") for a in rest)
    ignored = _short(rest, "x") or _short(rest, "X") or excludes  # `-e` may un-ignore any file
    if sub == "clean" and ignored and not _short(rest, "n", "--dry-run"):
        # the ignored files are swept too: in each pathspec, or all here (an -e pattern's value
        # reads like a pathspec)
        pathspecs = [] if excludes else [absolute(a, where, env) for a in operands]
        act.sweeps += pathspecs or [area]
    whole = top_of(where) if where else UNKNOWN  # what a patch or a stash may reach
    if sub == "stash":
        verb = operands[0] if operands else "push"
        if verb in ("push", "save") and _short(rest, "a", "--all"):
            act.sweeps.append(area)
        elif verb in ("pop", "apply", "branch"):
            named = operands[2:3] if verb == "branch" else operands[1:2]
            if where is None or _stash_untracked(where, (named or ["stash@{0}"])[0]):
                act.sweeps.append(whole)  # it puts back untracked (or ignored) files anywhere
    if sub in ("apply", "am"):
        files = [a for a in operands if a != "-"]
        if not files or "-" in operands:
            act.sweeps.append(whole)  # read from standard input: not known here
        # `--directory=D` puts D before every path
        folders = [area] + [
            absolute(a.split("=", 1)[1], where, env) for a in rest if a.startswith("--directory=")
        ]
        for name in files:
            text = read_patch(absolute(name, where, env))
            if text is None:
                act.sweeps.append(whole)
                continue
            act.patched += [(f, path) for f in folders for path in patch_paths(text)]


REF_SETTERS = ("update-ref", "symbolic-ref", "branch", "push", "fetch")  # the working tree stays
TREE_MOVES = ("checkout", "switch", "merge", "cherry-pick", "revert", "rebase", "read-tree")


# merge's and rebase's options whose value is no commit
_TEXT = {"-m", "--message", "-F", "--file", "-s", "--strategy", "-X", "--strategy-option",
         "--into-name", "-x", "--exec", "-C"}  # fmt: skip


def _text(args: list[str], i: int) -> bool:
    return i > 0 and args[i - 1] in _TEXT


def _tree_sources(sub: str, rest: list[str], operands: list[str]) -> list[str] | None:
    """The commits a git command may write tracked files from (what may name one: a name that is
    not a commit is skipped when checked), or None when it writes none."""
    before = rest[: rest.index("--")] if "--" in rest else rest
    named = [a for a in before if not a.startswith("-")]
    if sub in TREE_MOVES or sub == "reset":  # a soft reset moves HEAD for the next hard one
        if sub in ("merge", "rebase"):  # option values that name no commit left out
            named = [a for i, a in enumerate(before) if a in named and not _text(before, i)]
        if "-" in before:  # the branch checked out before this one
            named.append("@{-1}")
        if sub in ("merge", "rebase") and not named:  # no commit named: the upstream
            named.append("@{upstream}")
        return named
    if sub == "pull":  # `git pull . <branch>` merges a branch of this repository
        specs = named[1:] if named[:1] in (["."], ["./"]) else []
        return [spec.lstrip("+").partition(":")[0] for spec in specs] + ["@{upstream}"]
    if sub == "replace":  # the object `git replace A B` shows in A's place from now on
        return named[1:2]
    if sub == "config":  # a branch's upstream, which a bare merge or rebase then takes
        keys = [i for i, a in enumerate(rest[:-1]) if a.lower().startswith("branch.")]
        ups = [rest[i + 1] for i in keys if rest[i].lower().endswith(".merge")]
        return ups or None
    if sub == "branch":  # the commit a branch is set to, the upstream a merge will take
        ups = [a.split("=", 1)[1] for a in rest if a.startswith("--set-upstream-to=")]
        ups += [rest[i + 1] for i, a in enumerate(rest[:-1]) if a in ("-u", "--set-upstream-to")]
        return named[1:2] + ups
    if sub in ("update-ref", "symbolic-ref"):  # the commit a ref is set to
        return named[1:2]
    if sub in ("push", "fetch") and named[:1] in (["."], ["./"]):
        return [spec.lstrip("+").partition(":")[0] for spec in named[1:]]
    if sub == "restore":
        sources = [a.split("=", 1)[1] for a in rest if a.startswith("--source=")]
        return sources + [rest[i + 1] for i, a in enumerate(rest[:-1]) if a in ("-s", "--source")]
    if sub == "stash" and operands[:1] in (["pop"], ["apply"], ["branch"]):
        return (operands[2:3] if operands[0] == "branch" else operands[1:2]) or ["stash@{0}"]
    return None


def _remote(sub: str, rest: list[str]) -> str | None:
    """The repository a fetch or pull reads from (None: its default remote; "." this one)."""
    if sub == "remote":
        return None if rest[:1] == ["update"] else "."
    operands = [a for a in rest if not a.startswith("-")]
    if any(a in ("--all", "--multiple") for a in rest):
        return None
    return operands[0] if operands else None


# options whose value is the next argument, of the commands `written` reads the operands of
_VALUED = {
    "-b", "--branch", "-o", "--origin", "-u", "--upload-pack", "--depth", "--reference",
    "--reference-if-able", "-c", "--config", "--template", "--separate-git-dir", "-j", "--jobs",
    "--filter", "--shallow-since", "--shallow-exclude", "--bundle-uri", "--server-option", "-B",
    "--name", "--object-format", "--ref-format", "--initial-branch", "--reason", "-L",
}  # fmt: skip


def written(sub: str, rest: list[str], where: str | None, env: dict[str, str]) -> list[str]:
    """Paths a git command creates or writes besides its working tree's tracked files: a clone's
    or a worktree's folder, a new repository, a bundle, patches, `--output`, `merge-file`'s file,
    `checkout-index --prefix`."""
    found: list[str] = []
    operands: list[str] = []
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg in ("--output", "--output-directory", "--separate-git-dir") or (
            arg == "-o" and sub in ("format-patch", "archive")
        ):
            found += rest[i + 1 : i + 2]
            i += 2
            continue
        name, _, value = arg.partition("=")
        if name in ("--output", "--output-directory", "--separate-git-dir") and value:
            found.append(value)
        elif name == "--prefix" and sub == "checkout-index" and value:  # a prefix, not a folder
            found.append(value + "x" if value.endswith("/") else value)
        elif arg in _VALUED:
            i += 1
        elif not arg.startswith("-"):
            operands.append(arg)
        i += 1
    if sub == "clone" and operands:
        found.append(operands[1] if len(operands) > 1 else _repo_name(operands[0]))
    elif sub == "init":
        found += operands[:1]
    elif sub == "worktree" and operands[:1] in (["add"], ["move"], ["remove"]):
        found += operands[1:3] if operands[0] == "move" else operands[1:2]
    elif sub == "submodule" and operands[:1] == ["add"] and len(operands) > 1:
        found.append(operands[2] if len(operands) > 2 else _repo_name(operands[1]))
    elif sub == "bundle" and operands[:1] == ["create"]:
        found += operands[1:2]
    elif sub == "merge-file":
        found += operands[:1]
    return [absolute(path, where, env) for path in found]


def _repo_name(url: str) -> str:
    """The folder `git clone URL` makes: the URL's last part without `.git`."""
    name = url.rstrip("/").rpartition("/")[2].rpartition(":")[2]
    return name[:-4] if name.endswith(".git") else name or "."


def tracks_root(where: str, revs: list[str], root: str, incoming: bool) -> str | None:
    """Why writing the commits `revs` into the working tree at `where` would write over
    taskproto's state, when that tree holds the root (git overwrites ignored files with tracked
    ones): a commit that tracks a path in the root (those git knows; one git process each), a
    commit the command line fetches first, or one only the shell knows."""
    import subprocess

    top = top_of(where)
    if not inside(root, top) or root == top:
        return None
    rel = os.path.relpath(root, top)
    if incoming:
        return (
            f"this command fetches commits and writes them into {top}, where taskproto's own state "
            f"is ({rel}/), before taskproto can look at them: fetch in one command, then merge or "
            "check out what it fetched in the next (taskproto checks that commit first)."
        )
    for rev in dict.fromkeys(revs):
        if any(mark in rev for mark in ("$", "`", "__SUBST__")):
            what = "a command's output" if "__SUBST__" in rev or "`" in rev else rev
            return (
                f"{what} names a commit only the shell knows, to be written into {top}, where "
                f"taskproto's own state is ({rel}/): name the commit, so taskproto can check it."
            )
        # git that cannot be started (none on PATH) or does not answer: this cannot be told, so
        # it raises, and the call is denied saying why (runner.run_agent_hook)
        found = subprocess.run(
            ["git", "-C", top, "ls-tree", "-r", "--name-only", rev, "--", rel],
            capture_output=True,
            timeout=10,
            check=False,
            env=git_environ(),
        )
        if found.returncode == 0 and found.stdout.strip():
            return (
                f"{rev} tracks files in taskproto's root ({rel}/): this git command would write "
                "them over taskproto's own state. Only the user can take them out of that commit."
            )
    return None


def _stash_untracked(where: str, stash: str) -> bool:
    """Whether the stash holds untracked files (a third parent), or git cannot say."""
    import subprocess

    try:
        found = subprocess.run(
            ["git", "-C", where, "rev-parse", "-q", "--verify", f"{stash}^3"],
            capture_output=True,
            timeout=10,
            check=False,
            env=git_environ(),
        )
    except (OSError, subprocess.SubprocessError) as exc:
        if git_missing(exc):  # say why it cannot tell, not what the stash may hold
            raise
        return True
    return found.returncode == 0 or found.returncode not in (0, 1)


def git_refs(act: ShellAction, sub: str, rest: list[str]) -> None:
    """The refs a git command names to move (update-ref, branch -f, push ., fetch . a:b)."""
    refs = act.refs
    operands = [a for a in rest if not a.startswith("-")]
    if sub in ("update-ref", "symbolic-ref") and operands:
        refs.append(operands[0] if operands[0].startswith("refs/") else f"refs/heads/{operands[0]}")
    elif sub == "worktree" and rest[:1] == ["add"] and (made := worktree_branch(rest[1:])):
        refs.append(f"refs/heads/{made}")  # made from here, or checked out in the new one
    elif sub == "replace" and not {"-d", "--delete", "-l", "--list"} & set(rest):
        refs.append("refs/replace/" + (operands[0] if operands else ""))  # --edit, --graft too
    elif sub == "branch" and operands:
        # a rename or copy names two branches, a deletion any number; otherwise the second
        # operand is where the branch starts (`branch -f t1 HEAD`), which does not move
        if {"-m", "-M", "--move", "-c", "-C", "--copy"} & set(rest):
            named = operands[:2]
        elif {"-d", "-D", "--delete"} & set(rest):
            named = operands
        else:
            named = operands[:1]
        refs += [f"refs/heads/{o}" for o in named if "/" not in o or o.startswith("refs/")]
    elif sub in ("push", "fetch") and operands and operands[0] in (".", "./", os.curdir):
        for spec in operands[1:]:
            dest = spec.lstrip("+").rpartition(":")[2]
            if dest:
                refs.append(dest if dest.startswith("refs/") else f"refs/heads/{dest}")
