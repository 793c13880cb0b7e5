"""Install and uninstall taskproto's git hook scripts, keeping any hook that was already there.

The scripts go into the hooks folder of the common git dir (so every linked
worktree runs them), or into `core.hooksPath` when it is set. A hook already in
place is renamed to `<hook>.taskproto-chained` and run first by ours; rename
keeps its bytes, mode and timestamps, so uninstall renames it back and the
folder is as it was. Our scripts carry a marker: uninstall removes only those.
Installing twice writes nothing the second time.

`commit-msg` does one thing, add trailers, so it is installed only while `commit_trailers` is
on: git starts every hook it finds on every commit, about a millisecond each even for a hook with
nothing to do (about 3 ms under bash). A task's or agent's branch moving (reference-transaction's
committed phase) adds it when the setting has been turned on since, for the commits after, and
takes ours out once it has been turned off (`set_commit_msg`); so does pre-merge-commit, before
git looks for it.

`pre-commit` is not installed at all: reference-transaction's "prepared" phase makes every check
it made (hooks/git/guard.py), on every move of a task's or an agent's branch, so a commit runs
two of our hooks (prepared, committed), not three. An install of ours from before is taken out by
`install` (init, doctor's fix), the hook it chained put back in its place; `taskproto hook
pre-commit` and the pre-commit framework's `taskproto-guard` still run its checks.
"""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

from taskproto.errors import TaskprotoError
from taskproto.git.command import Git
from taskproto.git.hookfiles import script
from taskproto.hooks.git.handlers import GIT_HOOKS
from taskproto.hooks.git.run import MARKER
from taskproto.layout import GIT_HOOKS_RECORD

CHAINED_SUFFIX = ".taskproto-chained"
TEMPLATE = Path(__file__).resolve().with_name("hook.sh")
ENTRY = Path(__file__).resolve().with_name("entry.py")


@dataclass
class HooksReport:
    hooks_dir: Path
    hooks_path_setting: str | None  # core.hooksPath, when set
    installed: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    chained: list[str] = field(
        default_factory=list
    )  # hooks that were there and now run before ours
    removed: list[str] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    hooks: list[str] = field(default_factory=list)  # the ones installed now (see `wanted`)

    def as_dict(self) -> dict[str, object]:
        return {k: (str(v) if isinstance(v, Path) else v) for k, v in self.__dict__.items()}


def hooks_dir(git: Git) -> tuple[Path, str | None]:
    """Where git looks for hooks (core.hooksPath honoured), and the setting if any."""
    setting = git.run("config", "--get", "core.hooksPath", check=False).strip() or None
    path = git.run("rev-parse", "--path-format=absolute", "--git-path", "hooks").strip()
    return Path(path), setting


# POSIX shells that start and run the script fast; bash (macOS's /bin/sh) takes about twice as long
FAST_SHELLS = ("dash", "busybox", "ash")


def shell_line(system_sh: str = "/bin/sh") -> str:
    """The installed scripts' `#!` line: /bin/sh when it is a fast shell (dash, busybox); else
    (bash, as on macOS) dash or busybox's `sh` where one is installed, else /bin/sh. A shell
    removed later is doctor's `git-hooks-interpreter-missing`, whose fix installs them again."""
    if os.path.basename(os.path.realpath(system_sh)) in FAST_SHELLS:
        return f"#!{system_sh}"
    for folder in ("/bin", "/usr/bin"):
        if os.access(f"{folder}/dash", os.X_OK):
            return f"#!{folder}/dash"
    for folder in ("/bin", "/usr/bin"):
        if os.access(f"{folder}/busybox", os.X_OK):
            return f"#!{folder}/busybox sh"
    return f"#!{system_sh}"


def render(hook: str, python: str | None = None, entry: Path = ENTRY) -> bytes:
    """The script installed as `hook`: the template with its names filled in, started by the
    fastest POSIX shell here (`shell_line`), with only what `hook` runs: the lines between
    `#@only NAMES` and `#@end` only in those hooks' scripts, no comment line below the header and
    no indentation (git runs a hook on every commit; bash parses every line before its first
    decision, dash reads a comment at about 40 instructions a byte; the template,
    hooks/git-hook.sh, keeps them all)."""
    text = TEMPLATE.read_text(encoding="utf-8")
    first, _, rest = text.partition("\n")
    if first.startswith("#!"):
        text = shell_line() + "\n" + rest
    text = text.replace("@HOOK@", hook).replace("@PYTHON@", shlex.quote(python or sys.executable))
    text = text.replace("@ENTRY@", shlex.quote(str(entry)))
    lines = text.splitlines(keepends=True)
    head = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    return "".join(lines[:head] + script_lines(lines[head:], hook)).encode()


def script_lines(lines: list[str], hook: str) -> list[str]:
    """The template's code lines below its header that `hook`'s script keeps (see `render`)."""
    body, keep = [], True
    for line in lines:
        if line.startswith("#@only "):
            keep = hook in line.split()[1:]
        elif line.startswith("#@end"):
            keep = True
        elif keep and not line.lstrip().startswith("#"):
            body.append(_code(line.lstrip(" ")))
    return body


def _code(line: str) -> str:
    """`line` without a comment after its code (two spaces, `#`, a space), unless quoted."""
    code, sep, _ = line.partition("  # ")
    if not sep or code.count("'") % 2 or code.count('"') % 2:
        return line
    return code.rstrip() + "\n"


def is_ours(path: Path) -> bool:
    if path.is_symlink() or not path.is_file():
        return False
    with path.open("rb") as fh:
        return MARKER in fh.read(512)


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()  # a dangling symlink is still someone's hook


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.taskproto-tmp-{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o755)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o755)  # whatever the umask: git runs only executable hooks
        os.replace(tmp, path)  # git never sees a half-written hook
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


# run by handlers.py, not installed: reference-transaction checks what pre-commit checked
NOT_INSTALLED = ("pre-commit",)


def wanted(trailers: bool) -> tuple[str, ...]:
    """The hooks a repository needs: all but `pre-commit`, and `commit-msg` only while
    `commit_trailers` is on."""
    left_out = NOT_INSTALLED if trailers else (*NOT_INSTALLED, "commit-msg")
    return tuple(h for h in GIT_HOOKS if h not in left_out)


def install(
    git: Git, python: str | None = None, hooks: tuple[str, ...] = GIT_HOOKS, trailers: bool = True
) -> HooksReport:
    """Install `hooks` as far as they are `wanted` (commit-msg only with `trailers`, never
    pre-commit); one of ours that is not wanted goes, the hook it chained back in its place."""
    folder, setting = hooks_dir(git)
    report = HooksReport(folder, setting)
    if setting and not Path(setting).expanduser().is_absolute():
        report.warnings.append(
            f"core.hooksPath is relative ({setting}): each worktree resolves it in its own "
            "checkout, "
            f"so linked worktrees see these hooks only if {setting} is committed"
        )
    wanted_hooks = tuple(h for h in hooks if h in wanted(trailers))
    # Check every hook before changing any, so a refusal leaves the folder untouched.
    for hook in wanted_hooks:
        _chainable(folder, hook)
    folder.mkdir(parents=True, exist_ok=True)
    for hook in wanted_hooks:
        _put(folder, hook, python, report)
    for hook in hooks:
        if hook not in wanted_hooks:
            _take_out(folder, hook, report)
    report.hooks = list(wanted_hooks)
    return report


def _same(path: Path, chained: Path) -> bool:
    """Whether `path` is a copy of the hook ours chains (bytes and mode): what `pre-commit
    install -f` leaves when it writes its script over ours chaining that same script. Replacing
    it loses nothing."""
    if path.is_symlink() or chained.is_symlink() or not (path.is_file() and chained.is_file()):
        return False
    same_mode = path.stat().st_mode == chained.stat().st_mode
    return same_mode and path.read_bytes() == chained.read_bytes()


def _chainable(folder: Path, hook: str) -> None:
    path, chained = script(folder, hook, MARKER), folder / (hook + CHAINED_SUFFIX)
    if _exists(path) and not is_ours(path) and _exists(chained) and not _same(path, chained):
        raise TaskprotoError(
            f"{path} is not taskproto's and {chained} already exists, so the existing hook "
            "cannot be "
            "chained; move one of them away, then run `taskproto init` again"
        )


def _put(folder: Path, hook: str, python: str | None, report: HooksReport) -> None:
    # ours where it runs: in the hook's place, or behind pre-commit's script (git/hookfiles.py)
    path, chained = script(folder, hook, MARKER), folder / (hook + CHAINED_SUFFIX)
    content = render(hook, python)
    if is_ours(path):
        if path.read_bytes() == content and os.access(path, os.X_OK):
            report.unchanged.append(hook)
        else:
            _write(path, content)
            report.updated.append(hook)
        return
    if _exists(path):
        if not _same(path, chained):  # a copy of the chained hook is only overwritten
            os.rename(path, chained)
        report.chained.append(hook)
    _write(path, content)
    report.installed.append(hook)


def _take_out(folder: Path, hook: str, report: HooksReport) -> None:
    """Remove our `hook`, putting back the one it chained (uninstall's step for one hook); ours
    behind pre-commit's script (git/hookfiles.py) goes with its chained hook put back there."""
    path, chained = script(folder, hook, MARKER), folder / (hook + CHAINED_SUFFIX)
    if not is_ours(path):
        if _exists(chained):
            report.warnings.append(
                f"{chained} was left in place: {path} is not taskproto's script, so restoring "
                "it would "
                "overwrite someone's hook"
            )
        return
    if _exists(chained):
        os.replace(chained, path)  # same bytes, mode and times as before init
        report.restored.append(hook)
    else:
        path.unlink()
    report.removed.append(hook)


def set_commit_msg(folder: str, root: str, trailers: bool) -> bool:
    """From a hook run by our script in `folder`: with `commit_trailers` on, install commit-msg
    there if it is missing (with the interpreter running now); off, take ours out (the hook it
    chained back in its place), as `init` would; and the record's list follows. Only beside our
    own reference-transaction or pre-merge-commit script (never in a folder named by anyone
    else). True when it changed anything."""
    here = Path(folder)
    if not (is_ours(here / "reference-transaction") or is_ours(here / "pre-merge-commit")):
        return False
    if is_ours(here / "commit-msg") == trailers:
        return False
    report = HooksReport(here, None)
    if trailers:
        _chainable(here, "commit-msg")
        _put(here, "commit-msg", sys.executable, report)
    else:
        _take_out(here, "commit-msg", report)
    _note(Path(root), "commit-msg", trailers)
    return True


def moved(folder: str, python: str) -> str:
    """Called by an installed script whose entry script is gone (a reinstall moved the package),
    through its interpreter with site-packages on, from the package as it is installed now: each
    script of ours in `folder` written again as `init` would write it, naming this package and
    `python`; this package's entry script. (Scripts of every version call this: keep its name and
    arguments.)"""
    here = Path(folder)
    for hook in GIT_HOOKS:
        path = script(here, hook, MARKER)
        if is_ours(path):
            content = render(hook, python)
            if path.read_bytes() != content:
                _write(path, content)
    return str(ENTRY)


def record(root: Path, report: HooksReport, installed: bool, python: str | None = None) -> None:
    """Remember where and with what interpreter the hooks were installed (or that they were taken
    out), so doctor can tell when git no longer runs them."""
    from taskproto import plainjson as json
    from taskproto.state.files import atomic_write
    from taskproto.state.models import utcnow

    if not root.is_dir():
        return
    data = {
        "installed": installed,
        "hooks": report.hooks if installed else list(GIT_HOOKS),
        "hooks_dir": str(report.hooks_dir),
        "hooks_path": report.hooks_path_setting,
        "python": python or sys.executable,
        "entry": str(ENTRY),
        "marker": MARKER.decode(),
        "time": utcnow().isoformat(),
    }
    atomic_write(root / GIT_HOOKS_RECORD, json.dumps(data, indent=2).encode() + b"\n")


def _note(root: Path, hook: str, add: bool = True) -> None:
    """Add `hook` to the record's list, or drop it (doctor checks the hooks it lists)."""
    from taskproto import plainjson as json
    from taskproto.state.files import atomic_write

    path = root / GIT_HOOKS_RECORD
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return  # no record (or one doctor reports): nothing to add to
    if not isinstance(data, dict) or not isinstance(data.get("hooks"), list):
        return
    listed = set(data["hooks"])
    if (hook in listed) != add:
        listed = listed | {hook} if add else listed - {hook}
        data["hooks"] = [h for h in GIT_HOOKS if h in listed]
        atomic_write(path, json.dumps(data, indent=2).encode() + b"\n")


def uninstall(git: Git, hooks: tuple[str, ...] = GIT_HOOKS) -> HooksReport:
    folder, setting = hooks_dir(git)
    report = HooksReport(folder, setting)
    for hook in hooks:
        _take_out(folder, hook, report)
    return report
