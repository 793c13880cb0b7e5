"""Merge taskproto's hooks into each agent client's settings, in the main worktree and every task
worktree, where git does not see them.

The hook commands name this machine's interpreter and scripts, so they must not be committed: a
colleague's client would start paths that do not exist on their machine. Claude Code has a settings
file of one machine's own, `.claude/settings.local.json`, read with the project's settings and
meant to stay out of git: init writes there, and lists it in the common `info/exclude`. Codex CLI
and Gemini CLI read hooks from a project's `.codex/hooks.json` and `.gemini/settings.json` only
(docs/agents.md): a file init creates there is listed in `info/exclude` too (that exact file,
anchored); a file that was the user's is merged into, never hidden, and init warns that it now
holds this machine's paths. An older init wrote Claude's hooks into the project's shared
`.claude/settings.json`: init takes them out of it again (the user's entries stay) before it
writes settings.local.json, so they never fire twice.

A linked worktree does not see the main worktree's untracked files, so each task and agent
worktree gets its own copy (now, and through `setup_new_worktree`, which the engine calls for
worktrees made later). `info/exclude` is shared by every worktree, so a line there for a copy
would hide a file of the user's in the main worktree: Codex's and Gemini's copies get a
`.gitignore` in their folder naming only them; Claude's, `settings.local.json`, is the line above.
Every file we touch is recorded with its bytes before and after, so `--uninstall` puts back exactly
what was there (or deletes what we created) unless the user edited it since; then only our entries
are taken out. The main worktree's files, the clients and `info/exclude` are recorded in
`<root>/agent-hooks.json`, named for the repository's place again when that moved
(clients/moved.py); a task's worktrees' files in `<root>/tasks/<task>/agent-hooks.json`, their
paths relative to the task's folder (so they never name an old place), which goes with the task's
folder. So a new worktree writes its task's record alone: `task create` costs the same at ten tasks
or ten thousand. An older init's record, every worktree's files in the one file, is split into the
tasks' records the first time it is saved.
"""

from __future__ import annotations

import os
from pathlib import Path

from taskproto import plainjson as json
from taskproto.clients import exclude as excluded
from taskproto.clients import launcher, taskrecords
from taskproto.clients.exclude import b64decode, b64encode
from taskproto.clients.exclude import sha as _sha

# ENTRY, SCRIPT and hook_command lived here before hookjson.py: imported from here too
from taskproto.clients.hookjson import ENTRY as ENTRY
from taskproto.clients.hookjson import MARKS, merged, without_ours
from taskproto.clients.hookjson import SCRIPT as SCRIPT
from taskproto.clients.hookjson import hook_command as hook_command
from taskproto.clients.moved import places, relocated
from taskproto.clients.protocols import CLIENTS
from taskproto.clients.report import Report as Report  # (hooks/install.py names it here)
from taskproto.config import Config
from taskproto.errors import TaskprotoError
from taskproto.git.command import Git
from taskproto.state.store import atomic_write

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.git.repo import Repo

RECORD = "agent-hooks.json"
# Where each client's hooks go, in the main worktree and in every task worktree. Claude Code's is
# its per-machine file: never meant to be committed, and it does not collide with a settings.json
# the project commits.
FILES = {
    "claude": ".claude/settings.local.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
}
# The project's shared settings, where an older init put the main worktree's hooks: init moves them
# out, uninstall takes them out, doctor reports them (client-hooks-in-shared-settings).
SHARED = {"claude": ".claude/settings.json"}
# The main worktree's files as an older init named them (clients/moved.py reads an old record's
# place from them).
OLDER_MAIN_FILES = {**FILES, **SHARED}
# The files kept out of git by the common info/exclude in every worktree, whoever made them; the
# others by it in the main worktree when init created them, by a `.gitignore` in their own folder
# in the task worktrees (see the module's docstring).
EXCLUDED_EVERYWHERE = frozenset({"claude"})
FOLDER_IGNORE = ".gitignore"
IGNORE_TEXT = (
    "# taskproto: this worktree's copy of the {client} hooks (`taskproto init`); out of git here\n"
    "/{name}\n/.gitignore\n"
)


def _read_json(path: Path) -> tuple[bytes | None, dict[str, Any]]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, {}
    try:
        data = json.loads(raw) if raw.strip() else {}
    except ValueError as exc:
        raise TaskprotoError(
            f"{path} is not valid JSON ({exc}); fix it, then run init again"
        ) from None
    if not isinstance(data, dict):
        raise TaskprotoError(f"{path} is not a JSON object; fix it, then run init again")
    return raw, data


def _loads(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return None


class Installer:
    @property
    def repo(self) -> Repo:
        """GitPython's view, made when asked (a new worktree's set-up never asks)."""
        from taskproto.git.repo import Repo

        found: Repo | None = self.__dict__.get("_repo")
        if found is None:
            found = self.__dict__["_repo"] = Repo(self.config.repo)
        return found

    def __init__(self, config: Config, worktree: Path | None = None) -> None:
        """The record of every file (`worktree` None), or of the main record and `worktree`'s
        task's only (a new worktree's set-up: no other task's record is read or written)."""
        self.config = config
        self.git = Git(config.repo)
        self.record_path = config.root / RECORD
        self.report = Report()
        self.tasks = str(config.tasks_dir) + os.sep
        try:
            self.raw: bytes | None = self.record_path.read_bytes()
            self.record: dict[str, Any] = json.loads(self.raw)
        except (OSError, ValueError):
            self.raw, self.record = None, {}
        if not isinstance(self.record, dict):
            self.raw, self.record = None, {}
        self.record.setdefault("clients", [])
        self.record.setdefault("files", {})
        self.record, self.report.moved = relocated(self.record, config, OLDER_MAIN_FILES)
        self.fallback: set[str] = set()  # clients a worktree's copy needed info/exclude for
        # whether the worktrees' copies and records are fsynced: not in a worktree git has just
        # checked out, whose own files git does not fsync either (what a crash loses of them,
        # `taskproto init` writes again)
        self.sync = True
        self.launchers_ready = False  # written (or found as they should be) in this run
        self.task_raw: dict[str, bytes | None] = {}  # each task record read: its bytes then
        of = taskrecords.task_of
        older = any(of(self.tasks, name) for name in self.record["files"])  # an older init's
        if worktree is None or older:
            scope = config.layout.task_names()
        else:
            task = of(self.tasks, os.path.join(str(worktree), "-"))
            scope = [task] if task else []
        for task in scope:
            self.task_raw[task] = taskrecords.read(self.tasks, task, self.record["files"])

    def save(self) -> None:
        """Each record that changed written again: the tasks' (paths relative to their folder) and
        the main one (the rest)."""
        self.config.root.mkdir(parents=True, exist_ok=True)
        files = self.record["files"]
        main, per_task = taskrecords.split(self.tasks, files)
        taskrecords.write(self.tasks, per_task, self.task_raw, self.sync)
        if not self.record["clients"] and not files and not self.record.get("exclude"):
            self.record_path.unlink(missing_ok=True)
            return
        self.record.update(places(self.config))
        record = {**self.record, "files": main}
        if self.raw is not None and record == _loads(self.raw):
            return  # as it was: not written again (nor serialized, which costs `json`'s import)
        text = (json.dumps(record, indent=1, sort_keys=True) + "\n").encode()
        atomic_write(self.record_path, text)

    def worktrees(self) -> list[Path]:
        """Task and agent worktrees that exist now (registered with git, under the tasks folder)."""
        tasks = self.config.tasks_dir.resolve()
        out = []
        for wt in self.repo.worktrees():
            path = wt.path
            if path.resolve() != tasks and tasks in path.resolve().parents and path.is_dir():
                out.append(path)
        return sorted(out)

    # --- one file ---------------------------------------------------------------

    def install_file(self, path: Path, client: str) -> None:
        before, data = _read_json(path)
        new = merged(data, client, self.launchers)
        if new == data:
            self.report.unchanged.append(str(path))
            return
        text = (json.dumps(new, indent=2) + "\n").encode()
        entry = self.record["files"].get(str(path))
        if entry is None:
            created = [str(p) for p in _missing_dirs(path.parent)]
            entry = {
                "client": client,
                "original": None if before is None else b64encode(before),
                "created_dirs": created,
            }
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(
            path, text, sync=self.sync or taskrecords.task_of(self.tasks, str(path)) is None
        )
        entry["written"] = _sha(text)
        self.record["files"][str(path)] = entry
        self.report.installed.append(str(path))

    def ignore_in_folder(self, worktree: Path, client: str, tracked: set[str]) -> bool:
        """Keep the worktree's copy out of git with a `.gitignore` of its own folder; False when
        that folder has a `.gitignore` that is not ours (then info/exclude does it)."""
        name = FILES[client]
        ignore = worktree / Path(name).parent / FOLDER_IGNORE
        text = IGNORE_TEXT.format(client=client, name=Path(name).name).encode()
        try:
            current = ignore.read_bytes() if not ignore.is_symlink() else None
        except FileNotFoundError:
            current = b""
        except OSError:
            current = None
        if str(Path(name).parent / FOLDER_IGNORE) in tracked or current not in (b"", text):
            self.report.warnings.append(
                f"{ignore} is not taskproto's: the copy {worktree / name} is kept out of git with "
                f"info/exclude, which hides the main worktree's {name} too"
            )
            return False
        if current == b"":
            atomic_write(ignore, text, sync=self.sync)
            self.report.installed.append(str(ignore))
        entry: dict[str, Any] = {"client": client, "kind": "ignore", "original": None}
        self.record["files"][str(ignore)] = {**entry, "created_dirs": [], "written": _sha(text)}
        return True

    def uninstall_file(self, path: Path, entry: dict[str, Any] | None) -> bool:
        """Put the file back as it was before init (or take out only our hooks); whether it
        changed."""
        if entry is not None and entry.get("kind") == "ignore":
            try:
                if _sha(path.read_bytes()) == entry.get("written"):
                    path.unlink()
                    self.report.removed.append(str(path))
                    return True
                self.report.warnings.append(f"{path} was edited since init: left as it is")
            except FileNotFoundError:
                pass
            return False
        try:
            current = path.read_bytes()
        except FileNotFoundError:
            current = None
        if entry is not None and current is not None and _sha(current) == entry.get("written"):
            original = entry.get("original")
            if original is None:
                path.unlink()
            else:
                atomic_write(path, b64decode(original))
            for folder in reversed(entry.get("created_dirs") or []):
                try:
                    os.rmdir(folder)
                except OSError:
                    pass
            self.report.removed.append(str(path))
            return True
        if current is None:
            return False
        _, data = _read_json(path)
        clean = without_ours(data)
        if clean == data:
            return False
        atomic_write(path, (json.dumps(clean, indent=2) + "\n").encode())
        self.report.removed.append(str(path))
        why = "was edited since init" if entry is not None else "is in no record of init's"
        self.report.warnings.append(
            f"{path} {why}: removed only taskproto's hooks (its formatting may differ from before)"
        )
        return True

    # --- the launchers (clients/launcher.py) ----------------------------------------

    @property
    def launchers(self) -> str:
        """The launchers' folder, in the common git dir (every worktree's hooks name it)."""
        return launcher.folder_in(str(self.config.common_dir))

    def ensure_launchers(self) -> None:
        """Both launchers there, naming this package (once a run)."""
        if not self.launchers_ready:
            written, same = launcher.write(self.launchers)
            self.report.installed += written
            self.report.unchanged += same
            self.launchers_ready = True

    # --- exclude ----------------------------------------------------------------

    def exclude_path(self) -> Path:
        dirs = self.config.layout.dirs
        if dirs is not None:  # info/ is one of the folders every worktree shares
            return Path(dirs.common_dir, "info", "exclude")
        return Path(
            self.git.run(
                "rev-parse", "--path-format=absolute", "--git-path", "info/exclude"
            ).strip()
        )

    def ensure_excluded(self, client: str) -> None:
        """Keep the client's file out of `git status` in every worktree (they share the file)."""
        excluded.add(self.record, self.exclude_path(), "/" + FILES[client])

    def drop_excludes(self, clients: list[str]) -> None:
        excluded.drop(self.record, {"/" + FILES[c] for c in clients})

    def tracked(self, worktree: Path, *names: str) -> set[str]:
        return set(self.git.run("-C", str(worktree), "ls-files", "--", *names, check=False).split())

    # --- a client everywhere ----------------------------------------------------------

    def install(self, client: str) -> None:
        if client in SHARED:
            _read_json(self.config.repo / FILES[client])  # refused before anything moves
            self.move_out_of_shared(client)
        self.ensure_launchers()  # before any file names them
        self.install_file(self.config.repo / FILES[client], client)
        for worktree in self.worktrees():
            self.setup_worktree(worktree, client)
        self.keep_main_out_of_git(client)
        if client not in self.record["clients"]:
            self.record["clients"].append(client)

    def keep_main_out_of_git(self, client: str) -> None:
        """The main worktree's file out of git when it is ours alone: Claude's per-machine file, or
        a file init created; a file that was the user's stays in sight, with a warning."""
        name = FILES[client]
        path = self.config.repo / name
        entry = self.record["files"].get(str(path))
        made = entry is not None and entry.get("original") is None
        if name in self.tracked(self.config.repo, name):
            why = "is tracked by git"
        elif client in EXCLUDED_EVERYWHERE or made:
            self.ensure_excluded(client)
            return
        elif client in self.fallback:  # a worktree's copy needed the line: said there
            why = "was yours, so init merged into it"
        else:
            why = "was yours, so init merged into it and left it in `git status`"
            self.drop_excludes([client])  # an older init's line hid the user's file
        self.report.warnings.append(
            f"{path} {why}: it now holds taskproto's hooks, with this machine's paths; do not "
            "commit them (stage your own changes with `git add -p`; "
            f"`taskproto init --{client} --uninstall` takes them out)"
        )

    def move_out_of_shared(self, client: str) -> None:
        """An older init wrote these hooks into the project's shared settings: take them out (the
        user's own entries stay; a file init made and nobody changed goes), so that they are only
        in the per-machine file and never fire twice."""
        path = self.config.repo / SHARED[client]
        entry = self.record["files"].pop(str(path), None)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return
        if not any(mark.encode() in raw for mark in MARKS):
            return  # none of ours (the user took them out): theirs as it is
        if not self.uninstall_file(path, entry):
            return
        self.report.migrated.append(f"{path} -> {self.config.repo / FILES[client]}")
        if SHARED[client] in self.tracked(self.config.repo, SHARED[client]):
            self.report.warnings.append(
                f"{path} is tracked by git and held taskproto's hooks: commit the change that "
                "takes them out (they named one machine's paths)"
            )

    def setup_worktree(self, worktree: Path, client: str, fresh: bool = False) -> None:
        """The client's hooks in `worktree`'s copy of its settings, kept out of git. `fresh`: a
        worktree git has just checked out, where a file that is not there is not tracked."""
        name = FILES[client]
        path = worktree / name
        ignore = str(Path(name).parent / FOLDER_IGNORE)
        asked = [n for n in (name, ignore) if not fresh or os.path.lexists(worktree / n)]
        tracked = self.tracked(worktree, *asked) if asked else set()
        if name in tracked:
            self.report.warnings.append(
                f"{path} is tracked by git: taskproto's hooks merged into it show in "
                "`git status` there; do not commit them"
            )
        self.install_file(path, client)  # first: it records the folder it makes
        if name in tracked:
            return
        if client in EXCLUDED_EVERYWHERE or not self.ignore_in_folder(worktree, client, tracked):
            self.fallback.add(client)
            self.ensure_excluded(client)

    def uninstall(self, client: str) -> None:
        files = self.record["files"]
        # the folders' .gitignore files first: the settings file's entry removes the folder
        for name, entry in sorted(files.items(), key=lambda kv: kv[1].get("kind") != "ignore"):
            if entry.get("client") == client:
                self.uninstall_file(Path(name), entry)
                del files[name]
        main = [self.config.repo / FILES[client]]
        if client in SHARED:
            main.append(self.config.repo / SHARED[client])
        for path in main + [w / FILES[client] for w in self.worktrees()]:
            if path.exists():
                self.uninstall_file(path, None)  # ours without a record: take out our entries
        self.drop_excludes([client])
        if client in self.record["clients"]:
            self.record["clients"].remove(client)


def _missing_dirs(folder: Path) -> list[Path]:
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    return list(reversed(missing))


def run(config: Config, clients: list[str], uninstall: bool) -> Report:
    installer = Installer(config)
    for client in clients:
        if client not in CLIENTS:
            raise TaskprotoError(f"unknown agent client {client!r} (known: {', '.join(CLIENTS)})")
        installer.uninstall(client) if uninstall else installer.install(client)
    if uninstall and not installer.record["clients"]:  # no client's hooks name them now
        installer.report.removed += launcher.remove(installer.launchers)
    installer.save()
    return installer.report


def setup_new_worktree(config: Config, worktree: Path) -> None:
    """A worktree made after `init --claude|--codex|--gemini` gets the same hooks."""
    record = config.root / RECORD
    if not record.exists():
        return
    installer = Installer(config, worktree)
    installer.sync = False
    if installer.record["clients"]:
        installer.ensure_launchers()  # an older init wrote none
    for client in installer.record["clients"]:
        installer.setup_worktree(worktree, client, fresh=True)
    installer.save()
