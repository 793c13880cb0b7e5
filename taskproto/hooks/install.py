"""What `taskproto init` does: the root folder, the git hooks, the agent clients' hooks, MCP
registration."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taskproto import plainjson as json
from taskproto.clients import codex_trust
from taskproto.clients import mcp_servers as registration
from taskproto.clients import settings as client_settings
from taskproto.config import Config, ensure_root
from taskproto.errors import TaskprotoError
from taskproto.git.command import Git
from taskproto.hooks.git import install as git_install


@dataclass
class InitReport:
    config: Config
    uninstall: bool
    clients: list[str]
    git_hooks: git_install.HooksReport | None = None
    agent_hooks: client_settings.Report | None = None
    codex_trust: str | None = None
    mcp: list[registration.Change] = field(default_factory=list)
    remote: str | None = None  # `--remote`: the remote now set
    remote_file: str | None = None  # the settings file it was written to (None: already set)
    moved: list[str] = field(default_factory=list)  # what was repaired after a move
    git_hooks_absent: bool = False  # a client's hooks alone, and no git hooks installed before
    git_hooks_by_pre_commit: bool = False  # ... and the pre-commit framework runs the guards
    pre_commit_config: str | None = None  # the framework's config is not committed: what to do
    agent_hooks_left: list[str] = field(default_factory=list)  # `--uninstall` without them named

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"repo": str(self.config.repo), "root": str(self.config.root)}
        if self.git_hooks is not None:
            data["git_hooks"] = self.git_hooks.as_dict()
        if self.agent_hooks is not None:
            data["agent_hooks"] = {"clients": self.clients, **self.agent_hooks.as_dict()}
            if self.codex_trust is not None:
                data["agent_hooks"]["codex_trust"] = self.codex_trust
        if self.mcp:
            data["mcp"] = [c.as_dict() for c in self.mcp]
        if self.remote is not None:
            data["remote"] = {"name": self.remote, "written": self.remote_file}
        if self.moved:
            data["moved"] = self.moved
        if self.git_hooks_absent:
            data["git_hooks_absent"] = True
        if self.git_hooks_by_pre_commit:
            data["git_hooks_by_pre_commit"] = True
        if self.pre_commit_config is not None:
            data["pre_commit_config"] = self.pre_commit_config
        if self.agent_hooks_left:
            data["agent_hooks_left"] = self.agent_hooks_left
        return data


# What a moved repository (or root) leaves, that init repairs as doctor --fix does: the worktrees'
# links and taskproto's records of what it installed.
MOVED = frozenset({"worktree-moved", "worktree-set-aside", "hook-records-moved"})


def repair_move(config: Config) -> list[str]:
    """doctor's repairs of a move, and nothing else; what was done (or failed) in words."""
    from taskproto.doctor import run

    try:
        report = run(config, fix=True, only=MOVED)
    except TaskprotoError as exc:  # init goes on: `taskproto doctor` tells the rest
        return [f"could not look for a move ({exc}); run `taskproto doctor`"]
    return [
        x.action if x.status == "applied" else f"could not: {x.action} ({x.error})"
        for x in report.fixes
    ]


def run(
    config: Config,
    clients: list[str],
    git_hooks: bool | None,
    mcp: bool,
    uninstall: bool,
    remote: str | None = None,
) -> InitReport:
    """Install (or, with `uninstall`, take out) what init manages. Git hooks by default, unless
    clients are named; `mcp` registers the MCP server with the named clients; `remote` sets the
    shared remote in the settings file."""
    if mcp and not clients:
        raise TaskprotoError(
            "--mcp needs the clients to register with: --claude, --codex and/or --gemini"
        )
    if remote is not None and uninstall:
        raise TaskprotoError("--remote and --uninstall do not go together; edit .taskproto.toml")
    report = InitReport(config, uninstall, clients)
    if remote is not None:
        report.remote, report.remote_file = remote, set_remote(config, remote)
    if not uninstall:
        ensure_root(config)
        report.moved = repair_move(config)
    if git_hooks if git_hooks is not None else not clients:
        git = Git(config.repo)
        if uninstall:
            report.git_hooks = git_install.uninstall(git)
        else:
            report.git_hooks = git_install.install(git, trailers=config.commit_trailers)
        git_install.record(config.root, report.git_hooks, installed=not uninstall)
    elif git_hooks is None and not uninstall:
        report.git_hooks_absent = not _git_hooks_recorded(config)
        report.git_hooks_by_pre_commit = report.git_hooks_absent and pre_commit_runs_ours(config)
    if not clients and not uninstall:  # an upgrade: hooks an older install wrote name its paths
        stale = outdated_clients(config)
        if stale:
            report.clients = stale
            report.agent_hooks = client_settings.run(config, stale, False)
    if uninstall and not clients:  # the clients' hooks go only when named: say they are still in
        report.agent_hooks_left = recorded_clients(config)
    if clients:
        report.agent_hooks = client_settings.run(config, clients, uninstall)
        if "codex" in clients and not uninstall:
            report.codex_trust = codex_trust.instructions(config)
    if mcp:
        change = registration.unregister if uninstall else registration.register
        report.mcp = [change(client, config.repo) for client in clients]
    if not uninstall:
        report.pre_commit_config = pre_commit_problem(config)
    return report


def _main_and_hooks(config: Config) -> tuple[Path, Path]:
    main, dirs = Path(config.layout.main), config.layout.dirs
    common = Path(dirs.common_dir) if dirs is not None else main / ".git"
    return main, common / "hooks"


def pre_commit_problem(config: Config) -> str | None:
    """The pre-commit framework's config not committed on the base branch (git/precommit.py)."""
    from taskproto.git import precommit

    return precommit.problem(*_main_and_hooks(config))


def pre_commit_runs_ours(config: Config) -> bool:
    """Whether the pre-commit framework runs taskproto's guards here (git/precommit.py)."""
    from taskproto.git import precommit

    return precommit.runs_ours(*_main_and_hooks(config))


def recorded_clients(config: Config) -> list[str]:
    """The clients whose hooks init's record says are installed here."""
    try:
        record = json.loads((config.root / client_settings.RECORD).read_bytes())
        return [str(c) for c in record.get("clients", [])]
    except (OSError, ValueError, AttributeError, TypeError):
        return []


def outdated_clients(config: Config) -> list[str]:
    """The clients init recorded whose hooks in the main worktree's file start another
    interpreter or hook script than this install's (an older install's, before an upgrade), or
    whose launchers name another install's package."""
    from taskproto.clients import hookjson, launcher
    from taskproto.clients.protocols import INSTALLED

    try:
        record = json.loads((config.root / client_settings.RECORD).read_bytes())
        data_of = {c: config.repo / client_settings.FILES[c] for c in record.get("clients", [])}
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        return []
    dirs = config.layout.dirs
    folder = launcher.folder_in(dirs.common_dir if dirs is not None else str(config.repo / ".git"))
    names = [os.path.join(folder, n) for n in launcher.texts()]
    if data_of and not all(launcher.recorded(n) == launcher.HOOKS for n in names):
        # a launcher gone, or naming another install's folder that is still there (`pip install .`
        # after `pip install -e .`: the clone): written again, naming this install
        return list(data_of)
    stale = []
    for client, path in data_of.items():
        expected = {
            hookjson.hook_command(client, event, launchers=folder) for event in INSTALLED[client]
        }
        try:
            hooks = json.loads(path.read_bytes()).get("hooks") or {}
            ours = {
                str(hook.get("command"))
                for groups in hooks.values()
                for group in groups
                for hook in group.get("hooks") or []
                if hookjson.is_ours(hook)
            }
        except (OSError, ValueError, AttributeError, TypeError):
            continue  # missing or not ours to judge: doctor and `init --CLIENT` say what is wrong
        if ours - expected:
            stale.append(client)
    return stale


REMOTE_LINE = re.compile(r"^remote\s*=.*$", re.MULTILINE)


def set_remote(config: Config, remote: str) -> str | None:
    """Set `remote = "<remote>"` in the repository's `.taskproto.toml` (made if missing); returns
    the file written, or None when it already said so. Refused, writing nothing, for a name that is
    not a remote of this clone, and when the settings live in pyproject.toml."""
    import tomllib

    from taskproto.state.files import atomic_write

    if not _known_remote(config, remote):
        raise TaskprotoError(
            f"no remote named {remote!r} in this clone (`git remote -v` lists them); add it with "
            f"`git remote add {remote} URL`, or pass a URL"
        )
    from taskproto.git.command import RemoteGit
    from taskproto.remote.discover import working_refusal, working_repository

    folder = working_repository(RemoteGit(config.repo), remote)
    if folder is not None:
        raise TaskprotoError(working_refusal(remote, folder))
    if config.source is not None and os.path.basename(config.source) == "pyproject.toml":
        raise TaskprotoError(
            f'the settings are in {config.source} ([tool.taskproto]); add remote = "{remote}" there'
        )
    if config.raw.get("remote") == remote:
        return None
    path = os.path.join(config.layout.main, ".taskproto.toml")
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        text = ""
    line = f"remote = {json.dumps(remote)}"
    top = text.split("\n[", 1)[0] if not text.startswith("[") else ""
    if REMOTE_LINE.search(top):
        new = REMOTE_LINE.sub(lambda _: line, text, count=1)
    else:
        new = f"{line}\n{text}"
    try:
        ok = tomllib.loads(new).get("remote") == remote
    except tomllib.TOMLDecodeError:
        ok = False
    if not ok:
        raise TaskprotoError(
            f"could not set remote in {path} (it is not plain TOML here); add "
            f'remote = "{remote}" at its top by hand'
        )
    atomic_write(path, new.encode("utf-8"))
    return path


def _known_remote(config: Config, remote: str) -> bool:
    if "://" in remote or remote.startswith("/") or ":" in remote:
        return True  # a URL or a path: git checks it on the first sync
    return remote in Git(config.repo).run("remote").split()


def _git_hooks_recorded(config: Config) -> bool:
    """Whether an earlier init installed the git hooks (its record says so)."""
    from taskproto import plainjson as json
    from taskproto.layout import GIT_HOOKS_RECORD

    try:
        data = json.loads((config.root / GIT_HOOKS_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("installed") is True
