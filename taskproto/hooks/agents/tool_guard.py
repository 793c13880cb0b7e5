"""What a tool call would write, and whether to let it: stdlib only, on every tool call.

`analyse` turns a client's tool call into the paths it writes (or "writes,
target unknown" for git commit/push) and any command an agent may never run
(`taskproto approve`, `taskproto claim --force`). A shell command is read
with shlex, segment by segment; the rules catch the commands that clearly
write (redirections, touch/rm/mv/cp/tee/sed -i, git commit/push, apply_patch
heredocs), not every way a program can write a file.
"""

from __future__ import annotations

import os
import shlex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.layout import Layout
    from taskproto.state.light import TaskView

# Claude Code, Gemini CLI (write_file/replace) and Codex's patch tool; the value is the path field.
WRITE_TOOLS = {
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
    "write_file": "file_path",
    "replace": "file_path",
    "edit": "file_path",
}
SHELL_TOOLS = {"Bash", "run_shell_command", "shell", "exec_command", "local_shell"}
PATCH_TOOLS = {"apply_patch"}

SEPARATORS = {";", "&&", "||", "|", "&", "(", ")", ";;", "|&"}
REDIRECTS = {">", ">>", ">|", "&>", "&>>"}
INPUTS = {"<", "<<", "<<<", "<&", "<<-"}
PREFIXES = {
    "sudo",
    "env",
    "command",
    "exec",
    "nohup",
    "time",
    "xargs",
    "nice",
    "timeout",
    "builtin",
}
ALL_ARGS = {"touch", "rm", "rmdir", "mkdir", "truncate", "shred", "unlink", "tee", "mv"}
FIRST_SKIPPED = {"chmod", "chown", "chgrp"}
LAST_ARG = {"cp", "install", "rsync", "ln", "scp"}
GIT_WRITES = {
    "commit",
    "push",
    "add",
    "rm",
    "mv",
    "reset",
    "checkout",
    "switch",
    "restore",
    "merge",
    "rebase",
    "cherry-pick",
    "revert",
    "am",
    "apply",
    "stash",
    "clean",
    "pull",
    "worktree",
    "tag",
    "update-ref",
}
TP_GLOBAL_WITH_VALUE = {"--root", "--session", "-C", "--repo"}
PATCH_HEADERS = ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: ")
UNKNOWN = "<unknown>"  # a write whose target the rules cannot name (git commit): the cwd's worktree


class Action:
    def __init__(self) -> None:
        self.targets: list[str] = []  # absolute paths written, or UNKNOWN
        self.forbidden: str | None = None  # a command only the user may run

    @property
    def writes(self) -> bool:
        return bool(self.targets)


def analyse(tool_name: str, tool_input: dict[str, Any], cwd: str) -> Action:
    action = Action()
    if tool_name in WRITE_TOOLS:
        path = (
            tool_input.get(WRITE_TOOLS[tool_name])
            or tool_input.get("path")
            or tool_input.get("file_path")
        )
        action.targets.append(_absolute(path, cwd) if isinstance(path, str) and path else UNKNOWN)
    elif tool_name in SHELL_TOOLS:
        command = tool_input.get("command", tool_input.get("cmd"))
        if isinstance(command, list):
            command = shlex.join(str(c) for c in command)
        if isinstance(command, str):
            workdir = (
                tool_input.get("workdir")
                or tool_input.get("dir_path")
                or tool_input.get("directory")
            )
            base = _absolute(workdir, cwd) if isinstance(workdir, str) and workdir else cwd
            _shell(command, base, action)
    elif tool_name in PATCH_TOOLS:
        text = next((v for v in tool_input.values() if isinstance(v, str) and "*** " in v), "")
        _patch(text, cwd, action)
    return action


def _absolute(path: str, base: str) -> str:
    path = os.path.expanduser(path)
    return os.path.normpath(path if os.path.isabs(path) else os.path.join(base or "/", path))


def _patch(text: str, base: str, action: Action) -> None:
    found = False
    for line in text.splitlines():
        line = line.strip()
        for header in PATCH_HEADERS:
            if line.startswith(header):
                action.targets.append(_absolute(line[len(header) :].strip(), base))
                found = True
    if not found and text:
        action.targets.append(UNKNOWN)


def _lines(command: str) -> list[str]:
    """Command lines, with heredoc bodies left out (an apply_patch body is read separately)."""
    out: list[str] = []
    delimiter: str | None = None
    for line in command.splitlines():
        if delimiter is not None:
            if line.strip() == delimiter:
                delimiter = None
            continue
        out.append(line)
        at = line.find("<<")
        if at >= 0:
            word = line[at + 2 :].lstrip("-~ ").split()
            if word:
                delimiter = word[0].strip("'\"")
    return out


def _tokens(line: str) -> list[str]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError:
        return line.split()


def _shell(command: str, base: str, action: Action) -> None:
    if "apply_patch" in command and "*** Begin Patch" in command:
        _patch(command, base, action)
    for line in _lines(command):
        tokens = _tokens(line) + [";"]
        segment: list[str] = []
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            if tok.isdigit() and (nxt in REDIRECTS or nxt in INPUTS or nxt == ">&"):
                i += 1  # the fd number of a redirection, not an argument
                continue
            if tok in REDIRECTS or (tok == ">&" and not nxt.isdigit() and nxt != "-"):
                if nxt and nxt not in SEPARATORS and nxt != "/dev/null":
                    action.targets.append(_absolute(nxt, base))
                i += 2
                continue
            if tok in INPUTS or tok == ">&":
                i += 2
                continue
            if tok in SEPARATORS:
                base = _segment(segment, base, action)
                segment = []
            else:
                segment.append(tok)
            i += 1


def _segment(words: list[str], base: str, action: Action) -> str:
    """Read one simple command; returns the folder later segments run in (after a `cd`)."""
    while words and ("=" in words[0].split("/")[0] and not words[0].startswith("=")):
        words = words[1:]  # VAR=value
    while words and os.path.basename(words[0]) in PREFIXES:
        words = words[1:]
        while words and words[0].startswith("-"):
            words = words[1:]
    if not words:
        return base
    name = os.path.basename(words[0])
    args = words[1:]
    if name.startswith("python") and len(args) >= 2 and args[0] == "-m":
        name, args = args[1], args[2:]
    if name == "cd":
        return _absolute(args[0], base) if args and args[0] != "-" else base
    operands = [a for a in args if not a.startswith("-")]
    if name in ALL_ARGS:
        action.targets += [_absolute(a, base) for a in operands] or [UNKNOWN]
    elif name in FIRST_SKIPPED:
        action.targets += [_absolute(a, base) for a in operands[1:]] or [UNKNOWN]
    elif name in LAST_ARG:
        action.targets.append(_absolute(operands[-1], base) if operands else UNKNOWN)
    elif name == "dd":
        action.targets += [_absolute(a[3:], base) for a in args if a.startswith("of=")]
    elif name in ("sed", "perl") and any(
        a == "-i" or a.startswith(("-i", "--in-place", "-pi")) for a in args
    ):
        action.targets += [_absolute(a, base) for a in operands[1:]] or [UNKNOWN]
    elif name in ("patch", "apply_patch") and not action.targets:
        action.targets.append(UNKNOWN)
    elif name == "git":
        _git(args, base, action)
    elif name == "taskproto" or name.endswith("/taskproto"):
        _taskproto(args, action)
    return base


def _git(args: list[str], base: str, action: Action) -> None:
    i = 0
    where = base
    while i < len(args) and args[i].startswith("-"):
        if args[i] in ("-C", "-c", "--git-dir", "--work-tree") and i + 1 < len(args):
            if args[i] == "-C":
                where = _absolute(args[i + 1], where)
            i += 2
        else:
            i += 1
    if i < len(args) and args[i] in GIT_WRITES:
        action.targets.append(where if where else UNKNOWN)


def _taskproto(args: list[str], action: Action) -> None:
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in TP_GLOBAL_WITH_VALUE else 1
    sub = args[i] if i < len(args) else ""
    rest = args[i + 1 :]
    if sub == "approve":
        action.forbidden = (
            "`taskproto approve` records the user's approval: the user runs it in their own "
            "terminal; an agent never does. Present the plan or the commit and wait."
        )
    elif sub == "claim" and "--force" in rest:
        action.forbidden = (
            "`taskproto claim --force` takes a task from a live session: only the user does "
            "that, in their own terminal. Pick a free task or wait for it to be released."
        )
    elif sub == "board":
        action.forbidden = (
            "`taskproto board` serves the user's approvals (its token is the user's): the user "
            "starts it in their own terminal; an agent never does."
        )
    elif sub == "hook":
        action.forbidden = (
            "`taskproto hook` is run by the agent client itself, not by an agent's command."
        )


# --- the decision -----------------------------------------------------------


def _own_areas(layout: Layout, task: TaskView, agent: str | None, cwd_in_task: bool) -> list[str]:
    if cwd_in_task:
        return [layout.worktree_of(task.name, agent)]
    areas = [layout.task_worktree(task.name)]
    agents_dir = os.path.join(layout.tasks, task.name, "agents")
    try:
        areas += [layout.agent_worktree(task.name, a) for a in sorted(os.listdir(agents_dir))]
    except OSError:
        pass
    return areas


def _temp_dirs(env: dict[str, str]) -> list[str]:
    dirs = {"/tmp", "/var/tmp"}
    if env.get("TMPDIR"):
        dirs.add(os.path.normpath(env["TMPDIR"]))
    return sorted(dirs)


def decide(
    action: Action,
    layout: Layout,
    cwd: str,
    task: TaskView | None,
    agent: str | None,
    allows_edits: bool | None,
    env: dict[str, str],
) -> str | None:
    """The reason to deny the call, or None to allow it. `allows_edits` is the task's state flag."""
    from taskproto.layout import inside

    if action.forbidden:
        return action.forbidden
    for target in action.targets:
        if target != UNKNOWN and layout.where(target)[0] == "state":
            return (
                f"{target} is taskproto's own state (task.json, status files, locks): only "
                "taskproto "
                "writes it. Use the taskproto commands (claim, transition, agent) instead."
            )
    if task is None or not action.writes:
        return None
    if task.error is not None:
        return (
            f"the state of task {task.name} cannot be read ({task.error}), so edits are blocked: "
            "run `taskproto doctor` (and `taskproto doctor --fix`) first."
        )
    if not allows_edits:
        return (
            f"task {task.name} is in state {task.state}, which does not allow edits. Finish this "
            "state's "
            f"step and move on with `taskproto transition {task.name} <STATE>` first (see "
            f"`taskproto task show {task.name}`)."
        )
    kind, cwd_task, _ = layout.where(cwd) if cwd else ("outside", None, None)
    areas = _own_areas(layout, task, agent, kind == "worktree" and cwd_task == task.name)
    for target in action.targets:
        path = cwd if target == UNKNOWN else target
        if not path or any(inside(path, area) for area in areas):
            continue
        in_repo = inside(path, layout.main) or inside(path, layout.root)
        if not in_repo and any(inside(path, t) for t in _temp_dirs(env)):
            continue
        return (
            f"{path} is outside this agent's worktree of task {task.name} "
            f"({' or '.join(areas)}); edit files only there."
        )
    return None
