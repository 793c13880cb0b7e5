"""Registering the server in each client's MCP configuration: merged, idempotent, reversible byte
for byte."""

from __future__ import annotations

import json
import os
import sys
import tomllib
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from taskproto.clients import mcp_servers as mcp_config
from taskproto.errors import TaskprotoError
from tests.conftest import run_taskproto

from .conftest import TIMEOUT, server_env

CMD = [sys.executable, "-m", "taskproto", "mcp"]

EXISTING_JSON = {
    "claude": b'{\n    "mcpServers": {"other": {"command": "other-server", "args": []}},\n    "x": '
    b"[1,2]\n}",
    "gemini": b'{"security": {"auth": {"selectedType": "gemini-api-key"}},\n "hooks": {}, '
    b'"mcpServers": {}}\n',
}


def servers(client: str, path: Path) -> dict[str, object]:
    if client == "codex":
        return dict(tomllib.loads(path.read_text())["mcp_servers"])
    return dict(json.loads(path.read_text())["mcpServers"])


@pytest.mark.parametrize("client", mcp_config.CLIENTS)
def test_register_creates_and_unregister_removes_the_file(repo: Path, client: str) -> None:
    path = mcp_config.config_path(client, repo)
    assert not path.exists()
    change = mcp_config.register(client, repo, command=CMD)
    assert change.action == "registered" and change.path == path
    assert servers(client, path)["taskproto"] == {
        **({"type": "stdio"} if client == "claude" else {}),
        "command": sys.executable,
        "args": ["-m", "taskproto", "mcp"],
    }
    written = path.read_bytes()
    assert mcp_config.register(client, repo, command=CMD).action == "already registered"
    assert path.read_bytes() == written
    assert mcp_config.unregister(client, repo).action == "unregistered"
    assert not path.exists()
    assert not path.parent.exists() or path.parent == repo  # .codex/ and .gemini/ were ours
    assert mcp_config.unregister(client, repo).action == "not registered"


@pytest.mark.parametrize("client", ["claude", "gemini"])
def test_existing_json_keeps_every_key_and_comes_back_byte_for_byte(
    repo: Path, client: str
) -> None:
    path = mcp_config.config_path(client, repo)
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(EXISTING_JSON[client])
    os.chmod(path, 0o600)
    mcp_config.register(client, repo, command=CMD)
    after = json.loads(path.read_text())
    before = json.loads(EXISTING_JSON[client])
    for key, value in before.items():
        if key != "mcpServers":
            assert after[key] == value
    assert {**before.get("mcpServers", {}), "taskproto": after["mcpServers"]["taskproto"]} == after[
        "mcpServers"
    ]
    assert path.stat().st_mode & 0o777 == 0o600
    mcp_config.unregister(client, repo)
    assert path.read_bytes() == EXISTING_JSON[client]
    assert path.stat().st_mode & 0o777 == 0o600


def test_codex_toml_is_appended_as_text_and_restored_byte_for_byte(repo: Path) -> None:
    path = mcp_config.config_path("codex", repo)
    path.parent.mkdir()
    original = (
        b'model = "m"  # a comment that a TOML rewrite would '
        b'lose\n\n[mcp_servers.other]\ncommand = "x"\n'
    )
    path.write_bytes(original)
    mcp_config.register("codex", repo, command=CMD)
    text = path.read_text()
    assert text.startswith(original.decode())
    assert set(servers("codex", path)) == {"other", "taskproto"}
    mcp_config.unregister("codex", repo)
    assert path.read_bytes() == original


def test_a_file_changed_since_install_loses_only_our_entry(repo: Path) -> None:
    for client in ("claude", "codex"):
        path = mcp_config.config_path(client, repo)
        mcp_config.register(client, repo, command=CMD)
        if client == "claude":
            doc = json.loads(path.read_text())
            doc["mcpServers"]["mine"] = {"command": "mine"}
            doc["extra"] = True
            path.write_text(json.dumps(doc))
        else:
            path.write_text(path.read_text() + '\n[mcp_servers.mine]\ncommand = "mine"\n')
        assert mcp_config.unregister(client, repo).action == "unregistered"
        assert set(servers(client, path)) == {"mine"}
        if client == "claude":
            assert json.loads(path.read_text())["extra"] is True


def test_refusals_change_nothing(repo: Path) -> None:
    path = mcp_config.config_path("claude", repo)
    foreign = b'{"mcpServers": {"taskproto": {"command": "somebody-else"}}}'
    path.write_bytes(foreign)
    with pytest.raises(TaskprotoError, match="did not write"):
        mcp_config.register("claude", repo, command=CMD)
    path.write_bytes(b'{"mcpServers": ')
    with pytest.raises(TaskprotoError, match="not valid JSON"):
        mcp_config.register("claude", repo, command=CMD)
    assert path.read_bytes() == b'{"mcpServers": '
    codex = mcp_config.config_path("codex", repo)
    codex.parent.mkdir()
    codex.write_bytes(b'mcp_servers = { other = { command = "x" } }\n')
    with pytest.raises(TaskprotoError, match="invalid"):
        mcp_config.register("codex", repo, command=CMD)
    assert codex.read_bytes() == b'mcp_servers = { other = { command = "x" } }\n'


def test_user_scope_paths_follow_the_clients_homes(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path / "gemini-home"))
    assert mcp_config.config_path("claude", repo, "user") == Path.home() / ".claude.json"
    assert mcp_config.config_path("codex", repo, "user") == tmp_path / "codex-home" / "config.toml"
    assert (
        mcp_config.config_path("gemini", repo, "user")
        == tmp_path / "gemini-home" / ".gemini" / "settings.json"
    )
    change = mcp_config.register("codex", repo, scope="user", command=CMD)
    assert change.path.is_file()
    mcp_config.unregister("codex", repo, scope="user")
    assert not change.path.exists()


def test_cli_install_writes_an_entry_that_starts_a_working_server(repo: Path) -> None:
    result = run_taskproto("mcp", "install", "--client", "claude", "--json", cwd=repo)
    assert result.code == 0, result
    data = json.loads(result.out)
    assert data["action"] == "registered" and data["path"] == str(repo / ".mcp.json")
    entry = json.loads((repo / ".mcp.json").read_text())["mcpServers"]["taskproto"]

    async def main() -> list[str]:
        params = StdioServerParameters(
            command=entry["command"], args=entry["args"], env=server_env(), cwd=str(repo)
        )
        async with (
            stdio_client(params) as (read, write),
            ClientSession(read, write, read_timeout_seconds=TIMEOUT) as client,
        ):
            await client.initialize()
            return [t.name for t in (await client.list_tools()).tools]

    assert "status" in anyio.run(main)
    human = run_taskproto("mcp", "install", "--client", "claude", cwd=repo)
    assert human.code == 0 and "already registered" in human.out
    assert run_taskproto("mcp", "uninstall", "--client", "claude", cwd=repo).code == 0
    assert not (repo / ".mcp.json").exists()


def test_init_claude_mcp_registers_and_uninstall_restores(cli, repo: Path) -> None:  # type: ignore[no-untyped-def]
    (repo / ".mcp.json").write_text('{"mcpServers": {"other": {"command": "x"}}}\n')
    before = (repo / ".mcp.json").read_bytes()
    r = cli("init", "--claude", "--mcp")
    assert r.code == 0, r.err
    data = json.loads((repo / ".mcp.json").read_text())
    assert set(data["mcpServers"]) == {"other", "taskproto"}
    assert (repo / ".claude" / "settings.local.json").exists()
    r = cli("init", "--claude", "--mcp", "--uninstall")
    assert r.code == 0, r.err
    assert (repo / ".mcp.json").read_bytes() == before
    assert not (repo / ".claude").exists()
    r = cli("init", "--mcp")
    assert r.code == 2 and "--mcp needs" in r.err


def test_mcp_without_the_sdk_says_how_to_install_it(tmp_path: Path) -> None:
    """The SDK is an optional extra: `taskproto mcp` without it is one line naming the extra, exit
    1."""
    import subprocess
    import sys

    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    # An import of `mcp` fails in this process, as it does where the extra is not installed.
    code = (
        "import sys; sys.modules['mcp'] = None; from taskproto.cli import main; raise "
        "SystemExit(main(['mcp']))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=repo,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "taskproto: `taskproto mcp` needs the MCP SDK, which is not installed: pip install "
        "'taskproto[mcp]'"
    ]


def test_the_entry_names_taskproto_only_when_path_finds_this_installation(
    repo: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other-bin"
    other.mkdir()
    (other / "taskproto").write_text("#!/bin/sh\necho 'another installation' >&2\nexit 1\n")
    (other / "taskproto").chmod(0o755)
    (ours,) = [Path(f) for f in mcp_config.script_folders() if (Path(f) / "taskproto").exists()][
        :1
    ]  # pip put this installation's script in one of them
    this = [sys.executable, "-m", "taskproto", "mcp"]
    for first, expected in ((other, this), (ours, ["taskproto", "mcp"])):
        env = {"PATH": f"{first}{os.pathsep}{os.environ['PATH']}"}
        result = run_taskproto("mcp", "install", "--client", "claude", "--json", cwd=repo, env=env)
        assert result.code == 0, result
        entry = json.loads((repo / ".mcp.json").read_text())["mcpServers"]["taskproto"]
        assert [entry["command"], *entry["args"]] == expected, first
        assert run_taskproto("mcp", "uninstall", "--client", "claude", cwd=repo).code == 0
