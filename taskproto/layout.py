"""Where taskproto keeps its files: the one definition shared by the engine, the CLI and every hook.

    <root>/tasks/<task>/task.json                 the task's state and lock record
    <root>/tasks/<task>/code/                     worktree of branch <task>
    <root>/tasks/<task>/agents/<agent>/code/      worktree of branch <task>-<agent>
    <root>/tasks/<task>/agents/<agent>/status.json

The root is `--root`, else $TASKPROTO_ROOT, else the `root` setting (`.taskproto.toml`,
else `[tool.taskproto]` in pyproject.toml), else `.taskproto`, relative to the main
worktree (a bare repository's own folder). Standard library only: hooks load this on
every commit and tool call. All paths are real (symbolic links resolved).
"""

from __future__ import annotations

import os

from taskproto.git.files import GitDirs, find_repo, unlinked

DEFAULT_ROOT = ".taskproto"
SETTINGS_FILES = (
    (".taskproto.toml", False),
    ("pyproject.toml", True),
)  # (name, under [tool.taskproto])


LOCK_NAME = "task.json.lock"  # the per-task lock file, beside task.json (state/lock.py)
# under taskproto's root: where `init` installed the git hooks, and which (hooks/git/install.py
# writes it; the hooks and doctor read it)
GIT_HOOKS_RECORD = "git-hooks.json"
# under taskproto's root: what doctor judged of task.json contents (doctor/known.py); the board's
# watcher ignores it (doctor's own cache changes nothing the board shows)
DOCTOR_KNOWN = "doctor-known.json"


class SettingsError(Exception):
    """The repository's taskproto settings cannot be read; str() is the one line to show."""


def read_settings(
    main: str, need: tuple[bytes, ...] | None = None
) -> tuple[dict[str, object], str | None]:
    """The taskproto settings table and the file it came from ({} and None when there is none).

    `.taskproto.toml` wins when it exists; else `[tool.taskproto]` of pyproject.toml. With
    `need`, tomllib is imported only if the file mentions one of those keys, so a repository
    without taskproto settings never pays for parsing.
    """
    for name, section in SETTINGS_FILES:
        path = os.path.join(main, name)
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            continue
        if section and b"taskproto" not in data:
            continue
        if need is not None and not any(key in data for key in need):
            return {}, path
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
        return table, path
    return {}, None


def root_setting(settings: dict[str, object], explicit: str | None, environ: dict[str, str]) -> str:
    value = explicit or environ.get("TASKPROTO_ROOT") or settings.get("root") or DEFAULT_ROOT
    if not isinstance(value, str):
        raise SettingsError("the `root` setting must be a string")
    return value


PACKAGE_TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
TEMPLATE_SUFFIX = ".md.j2"


def own_template_dir(root: str, workflow: str) -> str:
    """The repository's folder of `workflow`'s templates (it need not exist)."""
    return os.path.join(root, "templates", workflow)


def template_dirs(root: str, workflow: str) -> list[str]:
    """Where `workflow`'s prompt templates are looked up, the repository's override first; only
    folders that exist (machine/prompts.py renders from them; hooks/move.py too, for a workflow
    with a scope of its own, and leaves any other state that has one to the engine)."""
    dirs = [own_template_dir(root, workflow), os.path.join(PACKAGE_TEMPLATES, workflow)]
    return [d for d in dirs if os.path.isdir(d)]


def inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


class Layout:
    """The paths of one repository's tasks. `main` and `root` are real, absolute paths."""

    def __init__(
        self, main: str, root: str, dirs: GitDirs | None = None, root_given: str | None = None
    ) -> None:
        self.main = main
        self.root = root
        self.root_given = root_given or root  # before links were resolved (a link out is refused)
        self.tasks = os.path.join(root, "tasks")
        self.dirs = dirs

    def root_links_out(self) -> bool:
        """The root is named inside the repository but is a link to somewhere outside it."""
        main = self.main.rstrip(os.sep) + os.sep
        return self.root_given.startswith(main) and not (self.root + os.sep).startswith(main)

    # --- the files of one task ----------------------------------------------------

    # (joined by hand: a task or agent name never holds a separator, names.py; the board and the
    # listings make thousands of these)
    def task_dir(self, task: str) -> str:
        return f"{self.tasks}{os.sep}{task}"

    def task_file(self, task: str) -> str:
        return f"{self.tasks}{os.sep}{task}{os.sep}task.json"

    def task_worktree(self, task: str) -> str:
        return f"{self.tasks}{os.sep}{task}{os.sep}code"

    def agent_dir(self, task: str, agent: str) -> str:
        return f"{self.tasks}{os.sep}{task}{os.sep}agents{os.sep}{agent}"

    def agent_worktree(self, task: str, agent: str) -> str:
        return f"{self.agent_dir(task, agent)}{os.sep}code"

    def status_file(self, task: str, agent: str) -> str:
        return f"{self.agent_dir(task, agent)}{os.sep}status.json"

    def worktree_of(self, task: str, agent: str | None) -> str:
        return self.agent_worktree(task, agent) if agent else self.task_worktree(task)

    def task_names(self) -> list[str]:
        """Folders under tasks/ (not validated as names: callers that act on one check it)."""
        try:
            with os.scandir(self.tasks) as it:  # the entries' types, without a stat each
                return sorted(e.name for e in it if not e.name.startswith(".") and e.is_dir())
        except OSError:
            return []

    def task_entries(self) -> list[str]:
        """The names in tasks/, sorted, without those starting with a dot, not checked as folders
        (a reader that looks inside each finds a file out by itself): at 10,000 tasks half the
        time of `task_names`, which asks each entry's type."""
        try:
            found = os.listdir(self.tasks)
        except OSError:
            return []
        found.sort()
        start = 0  # a dot sorts before every character a name can start with
        while start < len(found) and found[start].startswith("."):
            start += 1
        return found[start:] if start else found

    # --- which task a path or a branch belongs to ------------------------------------

    def where(self, path: str) -> tuple[str, str | None, str | None]:
        """Classify a real, absolute path: ("worktree", task, agent|None), ("state", task|None,
        None) for taskproto's own files under the root, or ("outside", None, None)."""
        if not inside(path, self.root):
            return "outside", None, None
        rel = os.path.relpath(path, self.tasks)
        parts = rel.split(os.sep)
        if rel == "." or parts[0] == "..":
            return "state", None, None  # the root itself, its cache, locks, ...
        task = parts[0]
        if len(parts) >= 2 and parts[1] == "code":
            return "worktree", task, None
        if len(parts) >= 4 and parts[1] == "agents" and parts[3] == "code":
            return "worktree", task, parts[2]
        return "state", task, None

    def branch_owner(self, branch: str | None) -> tuple[str, str | None] | None:
        """(task, None) for a task branch, (task, agent) for an agent branch `<task>-<agent>`, else
        None."""
        if not branch or "/" in branch or branch.startswith("."):
            return None  # task and agent names never hold '/' (names.py)
        if os.path.isfile(self.task_file(branch)):
            return branch, None
        i = branch.find("-")
        while i > 0:
            task, agent = branch[:i], branch[i + 1 :]
            if (
                agent
                and os.path.isdir(self.agent_dir(task, agent))
                and os.path.isfile(self.task_file(task))
            ):
                return task, agent
            i = branch.find("-", i + 1)
        return None


def layout_for(
    dirs: GitDirs,
    explicit_root: str | None = None,
    environ: dict[str, str] | None = None,
    settings: dict[str, object] | None = None,
) -> Layout:
    env = dict(os.environ) if environ is None else environ
    main = dirs.main
    if settings is None:
        settings, _ = read_settings(main, need=(b"root",))
    given = os.path.abspath(os.path.join(main, root_setting(settings, explicit_root, env)))
    return Layout(main, os.path.realpath(given), dirs, given)


def find_layout(
    start: str, explicit_root: str | None = None, environ: dict[str, str] | None = None
) -> Layout | None:
    """The layout of the repository around folder `start`, or None when it is in no repository.

    Raises SettingsError when the settings cannot be read.
    """
    dirs = find_repo(start, environ)
    if dirs is None:
        return None
    return layout_for(dirs, explicit_root, environ)


def not_linked(worktree: str) -> str | None:
    """Why `worktree` cannot be used here, when the repository (or taskproto's root) was moved and
    not re-linked yet (git/files.py `unlinked`): the one line every door says, naming the command
    that re-links it; None when it is linked (or is no linked worktree). Two small reads, no git."""
    admin = unlinked(worktree)
    if admin is None:
        return None
    return (
        f"the repository was moved and not re-linked: worktree {worktree} names {admin}, which "
        "does not name it back; run `taskproto init` here, which re-links the worktrees"
    )
