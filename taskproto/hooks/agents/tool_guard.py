"""What a tool call would do, and whether to let it: on every tool call, standard library only.

`analyse` turns a client's tool call into an Action (paths written, refs moved, taskproto
commands, hook bypasses, code handed to interpreters; shell commands through shell.py).
`decide` judges it for the session's task:

- never: writing taskproto's own files (the root, the session registry), the agent clients'
  hook settings, git's hooks or config; moving taskproto's refs; skipping the git hooks;
  the user's commands (approvals, --force, the user's triggers, acting as another session);
- by the task's state: no write at all where the state forbids edits, or while the user's
  interruption waits for an answer; a write whose target cannot be named counts as one;
- by place: only inside the agent's own worktree (or a temporary folder outside the
  repository); a branch only as hooks/session_branches.py says, the rule the git hook asks too.

Every path is made real (links resolved, the parent of a file that does not exist yet)
before it is judged, so a link cannot carry a write somewhere else.
"""

from __future__ import annotations

import os

from taskproto.hooks.agents.commands import top_of
from taskproto.hooks.agents.detach import detach_refusal, switch_refusal
from taskproto.hooks.agents.gitcmd import tracks_root
from taskproto.hooks.agents.protected import as_named, protected, removal
from taskproto.hooks.agents.shell import UNKNOWN, ShellAction, read_command
from taskproto.hooks.session_branches import refusal as branch_refusal
from taskproto.layout import inside

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
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
PATCH_HEADERS = ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: ")
TOUCHY = (
    ".taskproto",
    "task.json",
    "status.json",
    "refs/taskproto",
    "refs/replace",
    ".git/hooks",
    "taskproto-hooks",  # the clients' hook launchers (clients/launcher.py)
    "core.hooksPath",
    "hooks.json",
    ".claude/settings",
    ".gemini/settings",
    "TASKPROTO_",
)
TP_GLOBAL_WITH_VALUE = {"--root", "--session", "-C", "--repo"}
USER_COMMANDS = {
    "approve": "`taskproto approve` records the user's approval: the user runs it in their own "
    "terminal; an agent never does. Present the plan or the commit and wait.",
    "land": "`taskproto land` puts the approved work on the base branch: the user runs it in their "
    "own terminal.",
    "update": "`taskproto update` moves a task branch and revokes its approval: the user runs it "
    "in their own terminal.",
    "queue": "`taskproto queue` lands approved work: the user runs it in their own terminal.",
    "rollback": "`taskproto rollback` takes a task back in its log: the user runs it in their own "
    "terminal.",
    "ack": "`taskproto ack` is the user's review of a rebuilt task: the user runs it in their own "
    "terminal.",
    "resume": "`taskproto resume` is the user saying to go on: the user runs it in their own "
    "terminal (or says so in the chat).",
    "hook": "`taskproto hook` is run by the agent client itself, not by an agent's command.",
    "board": "`taskproto board` serves the user's approvals (its token is the user's): the user "
    "starts it in their own terminal; an agent never does.",
}


class Action(ShellAction):
    @property
    def writes(self) -> bool:
        return bool(self.targets or self.refs)

    @property
    def inspect(self) -> bool:
        """Whether the guard has anything to judge (otherwise the call is let through at once)."""
        return bool(
            self.targets
            or self.refs
            or self.taskproto
            or self.bypass
            or self.code
            or self.env_taskproto
            or self.sweeps
            or self.patched
            or self.unreadable
        )


def analyse(
    tool_name: str, tool_input: dict[str, Any], cwd: str, env: dict[str, str] | None = None
) -> Action:
    action = Action()
    env = env or {}
    if tool_name in WRITE_TOOLS:
        path = (
            tool_input.get(WRITE_TOOLS[tool_name])
            or tool_input.get("path")
            or tool_input.get("file_path")
        )
        action.targets.append(_join(path, cwd) if isinstance(path, str) and path else UNKNOWN)
        text = " ".join(str(tool_input.get(k, "")) for k in ("content", "new_string", "new_source"))
        if (
            isinstance(path, str)
            and os.path.basename(path) == "pyproject.toml"
            and "taskproto" in text
        ):
            action.bypass = "pyproject.toml's [tool.taskproto] settings are the user's to change"
            action.setting = action.bypass
    elif tool_name in SHELL_TOOLS:
        command = tool_input.get("command", tool_input.get("cmd"))
        if isinstance(command, list):
            import shlex

            command = shlex.join(str(c) for c in command)
        if isinstance(command, str):
            workdir = (
                tool_input.get("workdir")
                or tool_input.get("dir_path")
                or tool_input.get("directory")
            )
            base = _join(workdir, cwd) if isinstance(workdir, str) and workdir else cwd
            shell = read_command(command, base, env)
            action.__dict__.update(shell.__dict__)
            if "apply_patch" in command:  # the patch names its files (none named: unknown)
                _patch(command if "*** Begin Patch" in command else "*** ?", base, action)
    elif tool_name in PATCH_TOOLS:
        text = next((v for v in tool_input.values() if isinstance(v, str) and "*** " in v), "")
        _patch(text, cwd, action)
    return action


def _join(path: str, base: str) -> str:
    path = os.path.expanduser(path)
    if os.path.isabs(path):
        return os.path.normpath(path)
    return os.path.normpath(os.path.join(base, path)) if base else UNKNOWN


def _patch(text: str, base: str, action: Action) -> None:
    found = False
    for line in text.splitlines():
        line = line.strip()
        for header in PATCH_HEADERS:
            if line.startswith(header):
                action.targets.append(_join(line[len(header) :].strip(), base))
                found = True
    if not found and text:
        action.targets.append(UNKNOWN)


# --- the decision ---------------------------------------------------------------------


class Guard:
    """What the decision needs to know: the layout, the session, its task and that task's flags."""

    def __init__(
        self,
        layout: Layout,
        session: str,
        cwd: str,
        env: dict[str, str],
        task: TaskView | None,
        agent: str | None,
        flags_of: Callable[[TaskView], dict[str, dict[str, Any]] | None],
        read_task: Callable[[str], TaskView],
    ) -> None:
        self.layout, self.session, self.cwd, self.env = layout, session, cwd, env
        self.task, self.agent = task, agent
        self.flags_of, self.read_task = flags_of, read_task

    def state_flags(self, task: TaskView) -> dict[str, Any] | None:
        states = self.flags_of(task)
        return None if states is None or task.state is None else states.get(task.state)

    def protected(self, path: str) -> str | None:
        """Why `path` (real) is never an agent's to write, or None (protected.py)."""
        return protected(self.layout, self.env, path)


def decide(action: Action, guard: Guard) -> str | None:
    """The reason to deny the call, or None to allow it."""
    for args in action.taskproto:
        reason = _taskproto_command(args, guard)
        if reason:
            return reason
    if action.env_taskproto:
        return (
            f"setting {', '.join(sorted(set(action.env_taskproto)))} for a command changes "
            "what "
            "taskproto believes about this session: only the user does that."
        )
    # a link written over (the interpreter the hooks name), by the path typed; then what it names
    for target in action.targets:
        if target != UNKNOWN and (why := guard.protected(as_named(target))):
            return why
    targets = [t if t == UNKNOWN else os.path.realpath(t) for t in action.targets]
    for target in targets:
        if target != UNKNOWN and (why := guard.protected(target)):
            return why
    for removed in action.removes:
        if removed != UNKNOWN and (why := removal(guard.layout, guard.env, removed)):
            return why
    if UNKNOWN in targets and (named := _names_own(action.text, guard)):
        return (
            f"this command writes where the guard cannot tell, and it names {named}: only "
            "taskproto and git's own commands write there. Name the paths it writes."
        )
    for folder in action.detaches:  # before refs: `update-ref --no-deref HEAD` names HEAD
        if why := detach_refusal(guard.layout, folder):
            return why
    for folder, branch in action.switches:
        if why := switch_refusal(guard.layout, folder, branch):
            return why
    for ref in action.refs:
        if ref.startswith("refs/taskproto/"):
            return f"{ref} is taskproto's journal or claim: only taskproto moves it."
        if ref.startswith("refs/replace/"):
            return (
                f"{ref}: a replacement changes what git shows for a commit, a journal's too; "
                "taskproto refuses every one (`taskproto doctor` reports them)."
            )
        # the one rule the reference-transaction hook asks too (hooks/git/refs.py)
        task_name = guard.task.name if guard.task is not None else None
        if why := branch_refusal(guard.layout, task_name, guard.agent, ref):
            return why
    why = _swept(action, guard)
    if why:
        return why
    for code in action.code:
        if any(mark in code for mark in (*TOUCHY, guard.layout.root)):
            return (
                "this runs code that names taskproto's own files, refs or settings: only "
                "taskproto "
                "writes those. Use the taskproto commands instead."
            )
    task = guard.task
    if task is None:  # the hooks guard every task, whoever runs git: their settings are the user's
        return action.setting and f"{action.setting}: the user's to change, in their own terminal"
    if action.unreadable:
        return (
            f"the guard cannot read what this command runs ({action.unreadable[0]}), and this "
            f"session works on task {task.name}: write the command out, its name and git's "
            "subcommand as plain words (a script as a file run by `sh FILE`)."
        )
    if action.bypass:
        return f"{action.bypass}; work on task {task.name} goes through the hooks."
    if not action.writes:
        return None
    return _by_task(targets, action, guard, task)


def _swept(action: Action, guard: Guard) -> str | None:
    """A git command that writes where it names no path (ignored files, a patch, a stash's
    untracked files) in a folder that holds taskproto's state; or a patch path that lands there
    (each path is tried from the folder and from its working tree's top, with any number of
    leading parts stripped, as `-p` and `--directory` would)."""
    root = guard.layout.root
    for area in action.sweeps:
        if area == UNKNOWN or inside(root, os.path.realpath(area)):
            return (
                f"this command may write anywhere in {guard.cwd if area == UNKNOWN else area}, "
                f"ignored files included, and taskproto's own state ({root}) is there: only "
                "taskproto writes it. Name the paths, or run it where that state is not."
            )
    for where, revs in action.trees:
        if why := tracks_root(where, revs, root, action.incoming):
            return why
    for area, path in action.patched:
        parts = [p for p in path.split("/") if p not in ("", ".")]
        for folder in {area, top_of(area)}:
            for i in range(len(parts)):
                target = os.path.realpath(os.path.join(folder, *parts[i:]))
                if why := guard.protected(target):
                    return f"the patch writes {path}: {why}"
    return None


def _by_task(targets: list[str], action: Action, guard: Guard, task: TaskView) -> str | None:
    if task.error is not None:
        return (
            f"the state of task {task.name} cannot be read ({task.error}), so edits are "
            "blocked: "
            "run `taskproto doctor` (and `taskproto doctor --fix`) first."
        )
    flags = guard.state_flags(task)
    if flags is None:
        return (
            f"the state of task {task.name} cannot be judged (state {task.state!r} of workflow "
            f"{task.workflow!r}), so edits are blocked: run `taskproto doctor`."
        )
    if not flags.get("allows_edits"):
        return (
            f"task {task.name} is in state {task.state}, which does not allow edits. Finish "
            "this "
            f"state's step and move on with `taskproto transition {task.name} <STATE>` first "
            "(see "
            f"`taskproto task show {task.name}`)."
        )
    paused = task.paused
    if paused is not None:
        return (
            f"task {task.name} waits for the user: they interrupted with a {paused} and the "
            "work "
            "is paused until they say to go on. Answer, then wait (the user resumes by saying "
            "so, "
            f"or with `taskproto resume {task.name}`)."
        )
    areas = _own_areas(guard, task)
    if UNKNOWN in targets and action.text:
        for other in _other_worktrees(guard, areas):
            if other in action.text:
                return (
                    f"this command names {other}, outside this agent's worktree of task "
                    f"{task.name}, and writes where the guard cannot tell: edit files only in "
                    f"{' or '.join(areas)}."
                )
    for target in targets:
        path = guard.cwd if target == UNKNOWN else target
        if target == UNKNOWN or not path or any(inside(path, area) for area in areas):
            continue
        in_repo = inside(path, guard.layout.main) or inside(path, guard.layout.root)
        if not in_repo and any(inside(path, t) for t in _temp_dirs(guard.env)):
            continue
        return (
            f"{path} is outside this agent's worktree of task {task.name} "
            f"({' or '.join(areas)}); edit files only there."
        )
    return None


def _own_areas(guard: Guard, task: TaskView) -> list[str]:
    layout = guard.layout
    kind, cwd_task, _ = layout.where(guard.cwd) if guard.cwd else ("outside", None, None)
    if kind == "worktree" and cwd_task == task.name:
        return [layout.worktree_of(task.name, guard.agent)]
    areas = [layout.task_worktree(task.name)]
    agents_dir = os.path.join(layout.tasks, task.name, "agents")
    try:
        areas += [layout.agent_worktree(task.name, a) for a in sorted(os.listdir(agents_dir))]
    except OSError:
        pass
    return areas


GIT_OWN = ("objects", "index", "worktrees", "refs", "logs", "packed-refs")


def _names_own(text: str, guard: Guard) -> str | None:
    """What of git's own files or taskproto's state a command's text names (as a path)."""
    root = guard.layout.root
    for mark in (root, os.path.basename(root) + "/", *(f".git/{name}" for name in GIT_OWN)):
        if mark in text:
            return mark
    return None


def _other_worktrees(guard: Guard, areas: list[str]) -> list[str]:
    """Every task and agent worktree of the repository that is not one of `areas`."""
    layout, found = guard.layout, []
    for name in layout.task_names():
        found.append(layout.task_worktree(name))
        try:
            found += [
                layout.agent_worktree(name, a)
                for a in os.listdir(os.path.join(layout.tasks, name, "agents"))
            ]
        except OSError:
            pass
    return [w for w in found if not any(inside(w, area) or inside(area, w) for area in areas)]


def _temp_dirs(env: dict[str, str]) -> list[str]:
    dirs = {"/tmp", "/var/tmp"}
    if env.get("TMPDIR"):
        dirs.add(os.path.normpath(env["TMPDIR"]))
    return sorted(os.path.realpath(d) for d in dirs)


def _taskproto_command(args: list[str], guard: Guard) -> str | None:
    """Why an agent may not run `taskproto ARGS`, or None."""
    i, session = 0, None
    while i < len(args) and args[i].startswith("-"):
        if args[i] in TP_GLOBAL_WITH_VALUE:
            session = args[i + 1] if args[i] == "--session" and i + 1 < len(args) else session
            i += 2
        else:
            session = args[i].split("=", 1)[1] if args[i].startswith("--session=") else session
            i += 1
    sub, rest = (args[i] if i < len(args) else ""), args[i + 1 :]
    if session is not None and session != guard.session:
        return (
            f"`taskproto --session {session}` acts as another session: an agent acts only as "
            "itself (the user's own terminal can do the rest)."
        )
    if sub in USER_COMMANDS:
        return USER_COMMANDS[sub]
    if "--force" in rest or "-f" in rest and sub in ("claim", "release", "transition", "fire"):
        return (
            f"`taskproto {sub} --force` overrides another session or a guard: only the user "
            "does "
            "that, in their own terminal."
        )
    if sub == "dep" and rest[:1] == ["remove"]:
        return (
            "`taskproto dep remove` frees a task from what it waits for: the user decides that, "
            "in their own terminal."
        )
    if (sub == "init" and "--uninstall" in rest) or (
        sub == "mcp" and rest[:1] in (["install"], ["uninstall"])
    ):
        return (
            f"`taskproto {sub} {' '.join(rest)}` changes the hooks that guard the agents: the "
            "user's."
        )
    if sub in ("fire", "transition", "revise") and rest:
        view = guard.read_task(rest[0])
        flags = guard.state_flags(view) if view.error is None else None
        user = (flags or {}).get("user_triggers") or {}
        step = rest[1] if len(rest) > 1 else ""
        if (
            (sub == "fire" and step in user)
            or (sub == "transition" and step.upper() in user.values())
            or (sub == "revise" and "request_revision" in user)
        ):
            return (
                f"`taskproto {sub} {' '.join(rest[:2])}` is the user's verdict in "
                f"{view.state}: "
                "present the work and wait; the user runs it in their own terminal."
            )
    return None
