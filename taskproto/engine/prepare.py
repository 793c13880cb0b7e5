"""A new worktree prepared as `.taskproto.toml`'s `[worktree]` asks: files copied in from the main
worktree (`include`), a block of ports of its own (`ports`), a setup command run once in it
(`setup`). Called by `worktree.create` for each worktree it adds, so a failure here undoes the
whole create.

What a worktree was given is kept beside it (`<folder of code/>/worktree.json`, with the setup's
output in `setup.log`); `agent_env` reads it back for the agents taskproto starts there.
"""

from __future__ import annotations

import fcntl
import os

from taskproto import plainjson as json
from taskproto.errors import ConfigError, TaskprotoError
from taskproto.state.files import atomic_write

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from taskproto.config import Config

RECORD = "worktree.json"
SETUP_LOG = "setup.log"
PORTS_LOCK = "ports.lock"
SETUP_TIMEOUT = 1800.0  # seconds: a setup that hangs longer undoes the create


class WorktreeSettings:
    """`[worktree]`, checked once where it is read."""

    def __init__(self, raw: dict[str, Any], source: str | None) -> None:
        where = f"{source or '.taskproto.toml'}: [worktree]"
        include = raw.get("include", [])
        if not isinstance(include, list) or not all(isinstance(i, str) for i in include):
            raise ConfigError(f"{where} include must be a list of paths")
        for item in include:
            if os.path.isabs(item) or ".." in item.split("/"):
                raise ConfigError(f"{where} include {item!r} must be a path inside the repository")
        setup = raw.get("setup")
        if setup is not None and not isinstance(setup, str):
            raise ConfigError(f"{where} setup must be a command line (a string)")
        ports = raw.get("ports")
        self.include: list[str] = include
        self.setup: str | None = setup or None
        self.port_base: int | None = None
        self.per_worktree = 1
        self.port_names: list[str] = []
        if ports is not None:
            if not isinstance(ports, dict):
                raise ConfigError(
                    f"{where} ports must be a table {{ base = 3000, per_worktree = 10 }}"
                )
            base, per = ports.get("base"), ports.get("per_worktree", 10)
            names = ports.get("names", [])
            if not isinstance(base, int) or isinstance(base, bool) or not 1024 <= base <= 65535:
                raise ConfigError(f"{where} ports.base must be a port number from 1024 to 65535")
            if not isinstance(per, int) or isinstance(per, bool) or per < 1:
                raise ConfigError(f"{where} ports.per_worktree must be a positive number")
            if not isinstance(names, list) or not all(
                isinstance(n, str) and n.isidentifier() for n in names
            ):
                raise ConfigError(f"{where} ports.names must be a list of names (letters, _)")
            if len(names) > per:
                raise ConfigError(f"{where} ports.names has more names than per_worktree ports")
            self.port_base, self.per_worktree, self.port_names = base, per, names

    @property
    def empty(self) -> bool:
        return not self.include and self.setup is None and self.port_base is None


def settings(config: Config) -> WorktreeSettings:
    raw = config.raw.get("worktree", {})
    if not isinstance(raw, dict):
        raise ConfigError(f"{config.source or '.taskproto.toml'}: [worktree] must be a table")
    return WorktreeSettings(raw, config.source)


def prepare(config: Config, path: Path) -> None:
    """Copy the includes into the new worktree at `path`, give it its ports, run the setup there.
    Raises TaskprotoError (the caller undoes the create) when the setup fails."""
    wanted = settings(config)
    if wanted.empty:
        return
    for item in wanted.include:
        _copy_in(config.repo, path, item)
    record: dict[str, Any] = {"worktree": str(path)}
    if wanted.port_base is not None:
        with _ports_lock(config):
            kept = read_record(path).get("block")  # a worktree made again keeps its block
            block = kept if isinstance(kept, int) else _free_block(config, wanted)
            port = wanted.port_base + block * wanted.per_worktree
            record.update(block=block, port=port, ports=_named(wanted, port))
            atomic_write(path.parent / RECORD, json.dumps(record, indent=2).encode())
    if wanted.setup is not None:
        record["setup"] = _run_setup(config, path, wanted.setup, worktree_env(record))
    atomic_write(path.parent / RECORD, json.dumps(record, indent=2).encode())


def _copy_in(main: Path, path: Path, item: str) -> None:
    """One `include` entry (a path or a glob, relative to the main worktree; ignored files too):
    copied to the same place in the new worktree. A path the main worktree lacks is skipped."""
    import glob
    import shutil

    if glob.has_magic(item):
        sources = sorted(glob.glob(item, root_dir=main, recursive=True, include_hidden=True))
    else:
        sources = [item] if os.path.lexists(main / item) else []
    for rel in sources:
        source, target = main / rel, path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir() and not source.is_symlink():
            shutil.copytree(source, target, symlinks=True, dirs_exist_ok=True)
        else:
            shutil.copy2(source, target, follow_symlinks=False)


class _ports_lock:  # noqa: N801 - used as a function
    """Two creates at once never take the same block."""

    def __init__(self, config: Config) -> None:
        self.path = config.root / PORTS_LOCK

    def __enter__(self) -> None:
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)  # closing releases the lock


def _free_block(config: Config, wanted: WorktreeSettings) -> int:
    """The lowest block no other worktree of this repository holds."""
    import glob

    taken: set[int] = set()
    tasks = str(config.tasks_dir)
    for pattern in (f"*/{RECORD}", f"*/agents/*/{RECORD}"):
        for found in glob.glob(pattern, root_dir=tasks):
            try:
                with open(os.path.join(tasks, found), "rb") as fh:
                    block = json.loads(fh.read()).get("block")
            except (OSError, ValueError, AttributeError):
                continue
            if isinstance(block, int):
                taken.add(block)
    block = 0
    while block in taken:
        block += 1
    assert wanted.port_base is not None
    if wanted.port_base + (block + 1) * wanted.per_worktree - 1 > 65535:
        raise TaskprotoError(
            "no free block of ports is left under 65535; lower [worktree] ports.base or "
            "per_worktree, or remove finished tasks"
        )
    return block


def _named(wanted: WorktreeSettings, port: int) -> dict[str, int]:
    return {name: port + i for i, name in enumerate(wanted.port_names)}


def _run_setup(config: Config, path: Path, command: str, env: dict[str, str]) -> dict[str, Any]:
    import subprocess

    log = path.parent / SETUP_LOG
    with open(log, "wb") as out:
        try:
            done = subprocess.run(
                ["sh", "-c", command],
                cwd=path,
                env={**os.environ, **env},
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=SETUP_TIMEOUT,
                check=False,
            )
            code: int | str = done.returncode
        except subprocess.TimeoutExpired:
            code = f"timed out after {SETUP_TIMEOUT:g}s"
    if code != 0:
        last = _last_line(log)
        kept = _keep_failed_log(config, path, log)
        raise TaskprotoError(
            f"the worktree setup {command!r} failed in {path} "
            f"({'exit ' + str(code) if isinstance(code, int) else code}"
            f"{': ' + last if last else ''}); nothing was created, its output is in {kept}; "
            "fix [worktree] setup in .taskproto.toml and create the task again"
        )
    return {"command": command, "exit": 0, "log": str(log)}


def _last_line(log: Path) -> str:
    try:
        lines = log.read_bytes()[-4096:].decode("utf-8", "replace").strip().splitlines()
    except OSError:
        return ""
    return lines[-1][:200] if lines else ""


def _keep_failed_log(config: Config, path: Path, log: Path) -> Path:
    """The failed setup's output outlives the undone create: moved to `<root>/setup-failed/`."""
    from datetime import UTC, datetime

    name = "-".join(path.parent.relative_to(config.tasks_dir).parts)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    kept = config.root / "setup-failed" / f"{name}-{stamp}.log"
    kept.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(log, kept)
    except OSError:
        return log
    return kept


def read_record(worktree: Path) -> dict[str, Any]:
    """What `prepare` gave the worktree at `worktree` ({} when nothing)."""
    try:
        data = json.loads((worktree.parent / RECORD).read_bytes())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def worktree_env(record: dict[str, Any]) -> dict[str, str]:
    """The variables an agent in that worktree gets: TASKPROTO_PORT and TASKPROTO_PORT_<NAME>."""
    env: dict[str, str] = {}
    if isinstance(record.get("port"), int):
        env["TASKPROTO_PORT"] = str(record["port"])
    for name, port in (record.get("ports") or {}).items():
        env[f"TASKPROTO_PORT_{name.upper()}"] = str(port)
    return env
