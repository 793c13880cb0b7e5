"""What a git command writes and moves, for the tool guard: the paths it names, what it may write
where it names none (ignored files, a patch, a stash), the commits it writes tracked files from, and
the refs it moves. Standard library only (a git process only for `git stash pop/apply/branch`)."""

from __future__ import annotations

import os

from taskproto.hooks.agents.commands import (
    UNKNOWN,
    ShellAction,
    absolute,
    patch_paths,
    read_patch,
    top_of,
)

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


def git_command(act: ShellAction, args: list[str], base: str | None, env: dict[str, str]) -> None:
    where = base
    i = 0
    while i < len(args) and args[i].startswith("-"):
        opt = args[i]
        if opt in ("-C", "-c", "--git-dir", "--work-tree", "--namespace") and i + 1 < len(args):
            if opt == "-C":
                where = absolute(args[i + 1], where, env)
            elif opt == "-c" and args[i + 1].lower().startswith("core.hookspath"):
                act.bypass = "`git -c core.hooksPath=...` runs git without taskproto's hooks"
            elif opt in ("--git-dir", "--work-tree"):
                where = UNKNOWN
            i += 2
        else:
            if opt.startswith(("--git-dir=", "--work-tree=")):
                where = UNKNOWN
            i += 1
    sub = args[i] if i < len(args) else ""
    rest = args[i + 1 :]
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
    if sub == "config" and not any(a.lower().startswith("core.hookspath") for a in rest):
        if not rest or any(
            a in ("--get", "--list", "-l", "--get-all", "--get-regexp") for a in rest
        ):
            return
    if sub == "config":
        act.bypass = "`git config core.hooksPath` points git away from taskproto's hooks"
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
    act.targets.append(where if where else UNKNOWN)
    home = None if where == UNKNOWN else where
    git_paths(act, sub, rest, home, env)
    if sub in ("checkout", "restore"):  # the paths it writes over, wherever they are
        if "--" in rest:
            paths = rest[rest.index("--") + 1 :]
        else:
            paths = [a for a in rest if not a.startswith("-")][1 if sub == "checkout" else 0 :]
        act.targets += [absolute(path, home, env) for path in paths]


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


def _tree_sources(sub: str, rest: list[str], operands: list[str]) -> list[str] | None:
    """The commits a git command may write tracked files from (what may name one: a name that is
    not a commit is skipped when checked), or None when it writes none."""
    before = rest[: rest.index("--")] if "--" in rest else rest
    named = [a for a in before if not a.startswith("-")]
    if sub in TREE_MOVES or sub == "reset":  # a soft reset moves HEAD for the next hard one
        return named
    if sub in ("update-ref", "symbolic-ref", "branch"):  # the commit a branch is set to
        return named[1:2]
    if sub in ("push", "fetch") and named[:1] in (["."], ["./"]):
        return [spec.lstrip("+").partition(":")[0] for spec in named[1:]]
    if sub == "restore":
        sources = [a.split("=", 1)[1] for a in rest if a.startswith("--source=")]
        return sources + [rest[i + 1] for i, a in enumerate(rest[:-1]) if a in ("-s", "--source")]
    if sub == "stash" and operands[:1] in (["pop"], ["apply"], ["branch"]):
        return (operands[2:3] if operands[0] == "branch" else operands[1:2]) or ["stash@{0}"]
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
        )
    except (OSError, subprocess.SubprocessError):
        return True
    return found.returncode == 0 or found.returncode not in (0, 1)


def git_refs(act: ShellAction, sub: str, rest: list[str]) -> None:
    """The refs a git command names to move (update-ref, branch -f, push ., fetch . a:b)."""
    refs = act.refs
    operands = [a for a in rest if not a.startswith("-")]
    if sub in ("update-ref", "symbolic-ref") and operands:
        refs.append(operands[0] if operands[0].startswith("refs/") else f"refs/heads/{operands[0]}")
    elif sub == "branch" and operands:
        refs += [f"refs/heads/{o}" for o in operands[:2] if "/" not in o or o.startswith("refs/")]
    elif sub in ("push", "fetch") and operands and operands[0] in (".", "./", os.curdir):
        for spec in operands[1:]:
            dest = spec.lstrip("+").rpartition(":")[2]
            if dest:
                refs.append(dest if dest.startswith("refs/") else f"refs/heads/{dest}")
