"""An agent whose start failed (here: no tmux for an interactive one) is left `stopped` with the
reason in its run.json; `agent ps` and the board's card say that reason, not a bare `stopped` that
reads as the user's own stop. Found walking a user's day: `agent start` said why once, then
`agent ps` showed only `stopped`."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

WHY = (
    "could not start: tmux is not installed (or not on PATH): install it (Debian's tmux), or "
    "start the agent with --headless"
)


def test_agent_ps_says_why_an_agent_could_not_start(
    agents_repo: Path, cli, standin: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    only_sh = tmp_path / "bin"
    only_sh.mkdir()
    (only_sh / "sh").symlink_to(shutil.which("sh") or "/bin/sh")
    monkeypatch.setenv("PATH", str(only_sh))  # no tmux: the supervisor cannot open a window
    result = cli("agent", "start", "t1", "dev", "--client", f"{sys.executable} {standin}")
    assert result.code == 1 and WHY in result.err
    (row,) = json.loads(cli("agent", "ps", "--json").out)
    assert row["state"] == "stopped" and row["note"] == WHY
    assert f"  {WHY}" in cli("agent", "ps").out.splitlines()
