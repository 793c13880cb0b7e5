"""Register `taskproto mcp` in an agent client's MCP configuration, and take it out again.

Merged, never overwritten: every key already in the file is kept, registering
twice changes nothing, and an entry named `taskproto` that someone else wrote
is refused rather than replaced. Reversible byte for byte: the file's bytes
before and after are kept in a record under taskproto's folder; uninstall puts
the old bytes back when the file is still as we left it (deleting a file we
created), and otherwise removes only our entry, keeping whatever changed since.

    claude  project: <repo>/.mcp.json                user: ~/.claude.json codex   project:
    <repo>/.codex/config.toml       user: $CODEX_HOME/config.toml (~/.codex) gemini  project:
    <repo>/.gemini/settings.json    user: $GEMINI_CLI_HOME/.gemini/settings.json (~)
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taskproto import plainjson as json
from taskproto.errors import ConfigError, TaskprotoError
from taskproto.state.store import atomic_write

NAME = "taskproto"
CLIENTS = ("claude", "codex", "gemini")
TOML_MARK = "# taskproto mcp: added by `taskproto mcp install --client codex`; removed by uninstall"


@dataclass(frozen=True)
class Change:
    client: str
    path: Path
    action: str  # registered | already registered | unregistered | not registered
    entry: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {
            "client": self.client,
            "path": str(self.path),
            "action": self.action,
            "entry": self.entry,
        }

    def describe(self) -> str:
        how = " ".join([self.entry.get("command", ""), *self.entry.get("args", [])])
        if self.action == "registered":
            return f"{self.client}: registered MCP server {NAME!r} ({how}) in {self.path}"
        return f"{self.client}: {self.action} ({self.path})"


def config_path(client: str, repo: Path, scope: str = "project") -> Path:
    if client not in CLIENTS:
        raise ConfigError(f"unknown client {client!r}: use one of {', '.join(CLIENTS)}")
    home = Path.home()
    if scope == "project":
        return (
            repo
            / {
                "claude": ".mcp.json",
                "codex": ".codex/config.toml",
                "gemini": ".gemini/settings.json",
            }[client]
        )
    if scope != "user":
        raise ConfigError(f"unknown scope {scope!r}: use project or user")
    if client == "claude":
        return home / ".claude.json"
    if client == "codex":
        return Path(os.environ.get("CODEX_HOME") or home / ".codex") / "config.toml"
    return Path(os.environ.get("GEMINI_CLI_HOME") or home) / ".gemini" / "settings.json"


def script_folders() -> list[str]:
    """Where this installation's console scripts are: beside the interpreter (a venv), or the
    scheme's scripts folder (a system or user install)."""
    import sysconfig

    return [os.path.dirname(sys.executable), sysconfig.get_path("scripts")]


def server_entry(command: list[str] | None = None) -> dict[str, Any]:
    """How the client starts the server: `taskproto mcp` when the `taskproto` on PATH is this
    installation's (the entry then works on every machine of a team), else this interpreter (a
    `taskproto` of another installation earlier on PATH would serve another version, or none)."""
    found = shutil.which("taskproto")
    same = found is not None and os.path.realpath(found) in {
        os.path.realpath(os.path.join(folder, "taskproto")) for folder in script_folders()
    }
    argv = command or (["taskproto", "mcp"] if same else [sys.executable, "-m", "taskproto", "mcp"])
    return {"command": argv[0], "args": argv[1:]}


def _record_path(state_dir: Path, client: str, path: Path) -> Path:
    slug = re.sub(r"[^A-Za-z0-9]+", "_", str(path)).strip("_")[-80:]
    return state_dir / "mcp-config" / f"{client}-{slug}.json"


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


# --- JSON clients (Claude Code, Gemini CLI) ------------------------------------


def _json_doc(path: Path, data: bytes | None) -> dict[str, Any]:
    if data is None or not data.strip():
        return {}
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ConfigError(
            f"{path} is not valid JSON ({exc}); fix it first, nothing was changed"
        ) from None
    if not isinstance(doc, dict):
        raise ConfigError(f"{path} does not hold a JSON object; nothing was changed")
    servers = doc.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise ConfigError(f"{path}: mcpServers is not an object; nothing was changed")
    return doc


def _json_text(doc: dict[str, Any]) -> bytes:
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _json_entry(client: str, entry: dict[str, Any]) -> dict[str, Any]:
    return {"type": "stdio", **entry} if client == "claude" else dict(entry)


# --- TOML (Codex CLI): edited as text, so every byte of the rest stays ---------


def _toml_block(entry: dict[str, Any]) -> str:
    args = ", ".join(json.dumps(a) for a in entry["args"])
    return (
        f"{TOML_MARK}\n[mcp_servers.{NAME}]\ncommand = {json.dumps(entry['command'])}\nargs = "
        f"[{args}]\n"
    )


def _toml_existing(path: Path, data: bytes | None) -> dict[str, Any] | None:
    if data is None:
        return None
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(
            f"{path} is not valid TOML ({exc}); fix it first, nothing was changed"
        ) from None
    found = (
        doc.get("mcp_servers", {}).get(NAME) if isinstance(doc.get("mcp_servers"), dict) else None
    )
    return found if isinstance(found, dict) else None


def _toml_without_block(text: str) -> str:
    """`text` minus our marked block (up to the next table header or the end) and the blank line
    before it."""
    out: list[str] = []
    skipping = False
    for line in text.splitlines(keepends=True):
        if line.rstrip("\r\n") == TOML_MARK:
            skipping = True
            if out and not out[-1].strip():
                out.pop()
            continue
        if (
            skipping
            and line.lstrip().startswith("[")
            and not line.lstrip().startswith(f"[mcp_servers.{NAME}]")
        ):
            skipping = False
        if not skipping:
            out.append(line)
    return "".join(out)


def _write(path: Path, data: bytes) -> None:
    """Atomic, keeping the file's mode (a user's ~/.claude.json may be private)."""
    try:
        mode: int | None = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    atomic_write(path, data)
    if mode is not None:
        os.chmod(path, mode)


# --- register / unregister ---------------------------------------------------


def register(
    client: str,
    repo: Path,
    scope: str = "project",
    state_dir: Path | None = None,
    command: list[str] | None = None,
) -> Change:
    """Add the `taskproto` server to `client`'s MCP configuration (idempotent)."""
    path = config_path(client, repo, scope)
    entry = server_entry(command)
    before = _read(path)
    if client == "codex":
        existing = _toml_existing(path, before)
        if existing is not None:
            if (
                existing.get("command") == entry["command"]
                and existing.get("args") == entry["args"]
            ):
                return Change(client, path, "already registered", entry)
            raise TaskprotoError(
                f"{path} already has an MCP server named {NAME!r} that taskproto did not write; "
                "remove it by hand or leave it, nothing was changed"
            )
        text = before.decode("utf-8") if before else ""
        if text:
            text += ("" if text.endswith("\n") else "\n") + "\n"
        after = (text + _toml_block(entry)).encode("utf-8")
        try:
            tomllib.loads(after.decode("utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(
                f"{path}: adding [mcp_servers.{NAME}] would make it invalid ({exc}); "
                "add it by hand (see docs/mcp.md), nothing was changed"
            ) from None
    else:
        doc = _json_doc(path, before)
        want = _json_entry(client, entry)
        servers = doc.get("mcpServers", {})
        if NAME in servers:
            if servers[NAME] == want:
                return Change(client, path, "already registered", entry)
            raise TaskprotoError(
                f"{path} already has an MCP server named {NAME!r} that taskproto did not write; "
                "remove it by hand or leave it, nothing was changed"
            )
        doc = {**doc, "mcpServers": {**servers, NAME: want}}
        after = _json_text(doc)
    record = _record_path(_state_dir(repo, scope, state_dir), client, path)
    record.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(
        record,
        json.dumps(
            {
                "path": str(path),
                "client": client,
                "made_folder": not path.parent.exists(),
                "before": None if before is None else base64.b64encode(before).decode("ascii"),
                "after": base64.b64encode(after).decode("ascii"),
            },
            indent=2,
        ).encode("utf-8"),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    _write(path, after)
    return Change(client, path, "registered", entry)


def unregister(
    client: str, repo: Path, scope: str = "project", state_dir: Path | None = None
) -> Change:
    """Take out what `register` added: the old bytes when the file is as we left it, else only our
    entry."""
    path = config_path(client, repo, scope)
    record_path = _record_path(_state_dir(repo, scope, state_dir), client, path)
    current = _read(path)
    record = json.loads(record_path.read_text(encoding="utf-8")) if record_path.is_file() else None
    if record is not None and current is not None and current == base64.b64decode(record["after"]):
        if record["before"] is None:
            path.unlink()
            if record.get("made_folder") and not any(path.parent.iterdir()):
                path.parent.rmdir()
        else:
            _write(path, base64.b64decode(record["before"]))
        record_path.unlink()
        return Change(client, path, "unregistered", {})
    if current is None:
        if record is not None:
            record_path.unlink()
        return Change(client, path, "not registered", {})
    removed = _remove_entry(client, path, current)
    if record is not None:
        record_path.unlink()
    return Change(client, path, "unregistered" if removed else "not registered", {})


def _remove_entry(client: str, path: Path, current: bytes) -> bool:
    """The file changed since install: take out only our entry, keep everything else."""
    if client == "codex":
        if _toml_existing(path, current) is None:
            return False
        text = current.decode("utf-8")
        if TOML_MARK not in text:
            raise TaskprotoError(
                f"{path}: the [mcp_servers.{NAME}] entry was not written by taskproto "
                "(its marker comment is gone); remove it by hand"
            )
        _write(path, _toml_without_block(text).encode("utf-8"))
        return True
    doc = _json_doc(path, current)
    servers = dict(doc.get("mcpServers", {}))
    if NAME not in servers:
        return False
    del servers[NAME]
    doc = {**doc, "mcpServers": servers}
    _write(path, _json_text(doc))
    return True


def _state_dir(repo: Path, scope: str, state_dir: Path | None) -> Path:
    if state_dir is not None:
        return state_dir
    if scope == "project":
        from taskproto.config import load_config

        return load_config(repo).root
    return Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "taskproto"
