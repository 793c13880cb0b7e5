"""An upgrade: the client hooks an older install wrote name its interpreter and hook script; a
plain `taskproto init` with the new install points them at the new one, as it does the git hooks,
and leaves hooks that already name this install alone."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from taskproto.clients import hookjson
from tests.conftest import run_taskproto

SESSION = {"TASKPROTO_SESSION": "lead-1"}
OLD_PY = "/opt/old-venv/bin/python3"
OLD_SCRIPT = "/opt/old-venv/lib/python3.11/site-packages/taskproto/hooks/agents/hook.sh"


def tp(repo: Path, *args: str) -> str:
    r = run_taskproto(*args, cwd=repo, env=SESSION)
    assert r.code == 0, f"taskproto {' '.join(args)}: {r.err}"
    return r.out + r.err


def commands(path: Path) -> list[str]:
    data = json.loads(path.read_text())
    return [h["command"] for groups in data["hooks"].values() for g in groups for h in g["hooks"]]


def test_plain_init_brings_an_older_installs_client_hooks_to_this_one(repo: Path) -> None:
    tp(repo, "init", "--git", "--claude")
    tp(repo, "task", "create", "t1", "--agents", "dev")
    files = [
        repo / ".claude/settings.local.json",
        repo / ".taskproto/tasks/t1/agents/dev/code/.claude/settings.local.json",
    ]
    for path in files:  # as the previous install wrote them
        text = path.read_text()
        launcher = str(repo / ".git" / "taskproto-hooks" / "agent.sh")  # now the launcher's
        text = text.replace(launcher, OLD_SCRIPT).replace(str(hookjson.SCRIPT), OLD_SCRIPT)
        text = text.replace(sys.executable, OLD_PY)
        path.write_text(text)
    assert any(OLD_PY in c for c in commands(files[0]))

    out = tp(repo, "init")

    assert "claude hooks installed in" in out
    for path in files:
        found = commands(path)
        assert not any(OLD_PY in c or OLD_SCRIPT in c for c in found), path
        assert all(sys.executable in c for c in found), path
    again = tp(repo, "init")  # nothing left to bring up to date: the client hooks are not named
    assert "claude" not in again
