"""Merge taskproto's hooks into each agent client's settings, in the main worktree and every task
worktree.

Claude Code, Codex CLI and Gemini CLI read project settings from the folder they run in, and a
linked worktree does not see the main worktree's untracked files, so each task and agent worktree
gets its own copy (now, and through `setup_new_worktree`, which the engine calls for worktrees made
later). Those copies are kept out of git where they are: `info/exclude` is shared by every worktree
(git has no exclude file of a worktree's own), so a line there would hide the main worktree's
`.codex/hooks.json` and `.gemini/settings.json` too, which are the user's. Codex's and Gemini's
copies get a `.gitignore` in their folder naming only them; Claude's copy, `settings.local.json`,
never meant to be committed anywhere, is listed in the common `info/exclude`. Every file we touch
is recorded in `<root>/agent-hooks.json` with its bytes before and after, so `--uninstall` puts back
exactly what was there (or deletes what we created) unless the user edited it since; then only our
entries are taken out. The record is named for the repository's place again when that moved
(clients/moved.py).
"""

from __future__ import annotations

import base64
import hashlib
import os
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taskproto import plainjson as json
from taskproto.clients.moved import places, relocated
from taskproto.clients.protocols import CLIENTS, INSTALLED, kind
from taskproto.config import Config
from taskproto.errors import TaskprotoError
from taskproto.git.command import Git
from taskproto.git.repo import Repo
from taskproto.state.store import atomic_write

ENTRY = Path(__file__).resolve().parent.parent / "hooks" / "agents" / "entry.py"
SCRIPT = ENTRY.with_name("hook.sh")  # the lifecycle events' fast path in `sh` (docs/agents.md)
SHELL = "/bin/sh"
RECORD = "agent-hooks.json"
MAIN_FILES = {
    "claude": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
}
# In worktrees Claude gets settings.local.json: never meant to be committed, and it does not collide
# with a settings.json the project commits.
WORKTREE_FILES = {
    "claude": ".claude/settings.local.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
}
# The copies kept out of git by the common info/exclude, in every worktree; the others by a
# `.gitignore` in their own folder, in the task worktrees only (see the module's docstring).
EXCLUDED_EVERYWHERE = frozenset({"claude"})
FOLDER_IGNORE = ".gitignore"
IGNORE_TEXT = (
    "# taskproto: this worktree's copy of the {client} hooks (`taskproto init`); out of git here\n"
    "/{name}\n/.gitignore\n"
)
TIMEOUT_S = 30
MARKS = (
    "hooks/agents/entry.py",
    "hooks/agents/hook.sh",
    "agent_hooks/entry.py",
    "taskproto hook claude",
    "taskproto hook codex",
    "taskproto hook gemini",
)


def hook_command(client: str, event: str, python: str | None = None) -> str:
    """Absolute: the installing interpreter, without site-packages, on our entry file. Tool calls
    start it directly; the lifecycle events go through hook.sh, which answers "nothing to do" (and
    a session start with the free tasks listed last time) without it."""
    python = python or sys.executable
    if kind(client, event) in ("tool", None):
        return shlex.join([python, "-I", "-S", str(ENTRY), client, event])
    return shlex.join([SHELL, str(SCRIPT), python, client, event])


def is_ours(hook: Any) -> bool:
    return isinstance(hook, dict) and any(m in str(hook.get("command", "")) for m in MARKS)


def our_groups(client: str) -> dict[str, dict[str, Any]]:
    groups: dict[str, dict[str, Any]] = {}
    for event, matcher in INSTALLED[client].items():
        hook: dict[str, Any] = {"type": "command", "command": hook_command(client, event)}
        if client == "gemini":
            hook = {
                "name": f"taskproto-{event}",
                **hook,
                "timeout": TIMEOUT_S * 1000,
            }  # milliseconds
        else:
            hook["timeout"] = TIMEOUT_S
        groups[event] = {"matcher": matcher, "hooks": [hook]}
    return groups


def without_ours(data: dict[str, Any]) -> dict[str, Any]:
    """`data` with every hook of ours taken out (and groups or events left empty by that)."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return dict(data)
    cleaned: dict[str, Any] = {}
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            cleaned[event] = groups
            continue
        kept = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(inner, list) and any(is_ours(h) for h in inner):
                rest = [h for h in inner if not is_ours(h)]
                if rest:
                    kept.append({**group, "hooks": rest})
            else:
                kept.append(group)
        if kept:
            cleaned[event] = kept
    out = dict(data)
    if cleaned:
        out["hooks"] = cleaned
    else:
        out.pop("hooks")
    return out


def merged(data: dict[str, Any], client: str) -> dict[str, Any]:
    out = without_ours(data)
    hooks = dict(out.get("hooks") or {})
    for event, group in our_groups(client).items():
        hooks[event] = list(hooks.get(event) or []) + [group]
    out["hooks"] = hooks
    return out


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


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class Report:
    installed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)  # places the record named before (old -> new)

    def as_dict(self) -> dict[str, list[str]]:
        return {
            "installed": self.installed,
            "unchanged": self.unchanged,
            "removed": self.removed,
            "warnings": self.warnings,
            "moved": self.moved,
        }


class Installer:
    def __init__(self, config: Config) -> None:
        self.config = config
        self.git = Git(config.repo)
        self.repo = Repo(config.repo)
        self.record_path = config.root / RECORD
        self.report = Report()
        try:
            self.record: dict[str, Any] = json.loads(self.record_path.read_bytes())
        except (OSError, ValueError):
            self.record = {}
        self.record.setdefault("clients", [])
        self.record.setdefault("files", {})
        self.record, self.report.moved = relocated(self.record, config, MAIN_FILES)
        self.fallback: set[str] = set()  # clients a worktree's copy needed info/exclude for

    def save(self) -> None:
        self.config.root.mkdir(parents=True, exist_ok=True)
        if (
            not self.record["clients"]
            and not self.record["files"]
            and not self.record.get("exclude")
        ):
            self.record_path.unlink(missing_ok=True)
            return
        self.record.update(places(self.config))
        atomic_write(
            self.record_path, (json.dumps(self.record, indent=1, sort_keys=True) + "\n").encode()
        )

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
        new = merged(data, client)
        if new == data:
            self.report.unchanged.append(str(path))
            return
        text = (json.dumps(new, indent=2) + "\n").encode()
        entry = self.record["files"].get(str(path))
        if entry is None:
            created = [str(p) for p in _missing_dirs(path.parent)]
            entry = {
                "client": client,
                "original": None if before is None else base64.b64encode(before).decode(),
                "created_dirs": created,
            }
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text)
        entry["written"] = _sha(text)
        self.record["files"][str(path)] = entry
        self.report.installed.append(str(path))

    def ignore_in_folder(self, worktree: Path, client: str, tracked: set[str]) -> bool:
        """Keep the worktree's copy out of git with a `.gitignore` of its own folder; False when
        that folder has a `.gitignore` that is not ours (then info/exclude does it)."""
        name = WORKTREE_FILES[client]
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
            atomic_write(ignore, text)
            self.report.installed.append(str(ignore))
        entry: dict[str, Any] = {"client": client, "kind": "ignore", "original": None}
        self.record["files"][str(ignore)] = {**entry, "created_dirs": [], "written": _sha(text)}
        return True

    def uninstall_file(self, path: Path, entry: dict[str, Any] | None) -> None:
        if entry is not None and entry.get("kind") == "ignore":
            try:
                if _sha(path.read_bytes()) == entry.get("written"):
                    path.unlink()
                    self.report.removed.append(str(path))
                else:
                    self.report.warnings.append(f"{path} was edited since init: left as it is")
            except FileNotFoundError:
                pass
            return
        try:
            current = path.read_bytes()
        except FileNotFoundError:
            current = None
        if entry is not None and current is not None and _sha(current) == entry.get("written"):
            original = entry.get("original")
            if original is None:
                path.unlink()
            else:
                atomic_write(path, base64.b64decode(original))
            for folder in reversed(entry.get("created_dirs") or []):
                try:
                    os.rmdir(folder)
                except OSError:
                    pass
            self.report.removed.append(str(path))
            return
        if current is None:
            return
        _, data = _read_json(path)
        clean = without_ours(data)
        if clean != data:
            atomic_write(path, (json.dumps(clean, indent=2) + "\n").encode())
            self.report.removed.append(str(path))
            self.report.warnings.append(
                f"{path} was edited since init: removed only taskproto's hooks "
                "(its formatting may differ from before)"
            )

    # --- exclude ----------------------------------------------------------------

    def exclude_path(self) -> Path:
        return Path(
            self.git.run(
                "rev-parse", "--path-format=absolute", "--git-path", "info/exclude"
            ).strip()
        )

    def ensure_excluded(self, client: str) -> None:
        """Keep the worktree copies out of `git status` everywhere (linked worktrees share this
        file)."""
        line = "/" + WORKTREE_FILES[client]
        path = self.exclude_path()
        existing = path.read_bytes() if path.exists() else None
        text = (existing or b"").decode("utf-8", "replace")
        if line in text.splitlines():
            return
        state = self.record.setdefault("exclude", {"path": str(path), "lines": []})
        if "original" not in state:
            state["original"] = None if existing is None else base64.b64encode(existing).decode()
        new = text + ("" if not text or text.endswith("\n") else "\n") + line + "\n"
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, new.encode())
        state["lines"].append(line)
        state["written"] = _sha(new.encode())

    def drop_excludes(self, clients: list[str]) -> None:
        state = self.record.get("exclude")
        if not state:
            return
        path = Path(state["path"])
        ours = {"/" + WORKTREE_FILES[c] for c in clients}
        remaining = [line for line in state["lines"] if line not in ours]
        try:
            current = path.read_bytes()
        except FileNotFoundError:
            current = b""
        if not remaining and _sha(current) == state.get("written"):
            original = state.get("original")
            if original is None:
                path.unlink(missing_ok=True)
            else:
                atomic_write(path, base64.b64decode(original))
            self.record.pop("exclude")
            return
        lines = current.decode("utf-8", "replace").splitlines(keepends=True)
        kept = [line for line in lines if line.rstrip("\n") not in ours]
        text = "".join(kept).encode()
        atomic_write(path, text)
        state["lines"] = remaining
        state["written"] = _sha(text)

    # --- a client everywhere ----------------------------------------------------------

    def install(self, client: str) -> None:
        self.install_file(self.config.repo / MAIN_FILES[client], client)
        for worktree in self.worktrees():
            self.setup_worktree(worktree, client)
        if client not in self.record["clients"]:
            self.record["clients"].append(client)
        line = "/" + WORKTREE_FILES[client]
        older = line in (self.record.get("exclude") or {}).get("lines", [])
        if older and client not in EXCLUDED_EVERYWHERE and client not in self.fallback:
            self.drop_excludes([client])  # an older init's line: it hid the main worktree's file

    def setup_worktree(self, worktree: Path, client: str) -> None:
        name = WORKTREE_FILES[client]
        path = worktree / name
        ignore = str(Path(name).parent / FOLDER_IGNORE)
        tracked = set(
            self.git.run("-C", str(worktree), "ls-files", "--", name, ignore, check=False).split()
        )
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
        for path in [self.config.repo / MAIN_FILES[client]] + [
            w / WORKTREE_FILES[client] for w in self.worktrees()
        ]:
            if path.exists():
                self.uninstall_file(
                    path, None
                )  # ours without a record (an older init): take out our entries
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
    installer.save()
    return installer.report


def setup_new_worktree(config: Config, worktree: Path) -> None:
    """A worktree made after `init --claude|--codex|--gemini` gets the same hooks."""
    record = config.root / RECORD
    if not record.exists():
        return
    installer = Installer(config)
    for client in installer.record["clients"]:
        installer.setup_worktree(worktree, client)
    installer.save()
