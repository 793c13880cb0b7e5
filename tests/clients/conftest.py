"""Fixtures for driving the real agent clients: a trivial recording hook and
a project folder that is a real git repository."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

MARKER = "TASKPROTO-SESSIONSTART-MARKER-7f3a"
DENY_WORD = "DENYME"
DENY_REASON = "denied by test hook: DENYME"

# The trivial hook. argv: LOG CLIENT EVENT [--json-context] [--json-deny].
# It appends what it got (stdin, argv, some env, its parent chain) to LOG, then:
# - SessionStart prints MARKER, as plain text or, with --json-context, as
#   hookSpecificOutput.additionalContext (the only form Gemini passes on);
#   if CLAUDE_ENV_FILE is set it also exports TASKPROTO_TEST_ENV there;
# - the pre-tool event denies any call whose input mentions DENYME: exit 2
#   with the reason on stderr, or with --json-deny the client's JSON decision.
HOOK_SOURCE = r"""
import json, os, sys

def chain(pid):
    out = []
    while pid > 1:
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
        except OSError:
            break
        out.append({"pid": pid, "cmdline": cmd})
        pid = int(stat.rsplit(")", 1)[1].split()[1])
    return out

log, client, event, *flags = sys.argv[1:]
raw = sys.stdin.read()
try:
    payload = json.loads(raw)
except ValueError:
    payload = raw
env = {k: v for k, v in os.environ.items()
       if k.startswith(("CLAUDE", "CODEX", "GEMINI", "TASKPROTO"))
       and "TOKEN" not in k and "KEY" not in k}
record = {"client": client, "event": event, "payload": payload, "env": env,
          "pid": os.getpid(), "chain": chain(os.getppid())}
with open(log, "a") as f:
    f.write(json.dumps(record) + "\n")

if event == "SessionStart":
    env_file = os.environ.get("CLAUDE_ENV_FILE")
    if env_file:
        with open(env_file, "a") as f:
            f.write("export TASKPROTO_TEST_ENV=from-session-start\n")
    if "--json-context" in flags:
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart",
                                                 "additionalContext": MARKER}}))
    else:
        print(MARKER)
elif event in ("PreToolUse", "BeforeTool") and DENY_WORD in raw:
    if "--json-deny" in flags:
        if client == "gemini":
            print(json.dumps({"decision": "deny", "reason": REASON}))
        else:
            print(json.dumps({"hookSpecificOutput": {
                "hookEventName": "PreToolUse", "permissionDecision": "deny",
                "permissionDecisionReason": REASON}}))
        sys.exit(0)
    print(REASON, file=sys.stderr)
    sys.exit(2)
"""


@dataclass
class Record:
    client: str
    event: str
    payload: Any
    env: dict[str, str]
    pid: int
    chain: list[dict[str, Any]]


class RecordingHook:
    """The trivial hook script, and what it recorded."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.script = folder / "hook.py"
        self.log = folder / "hook-log.jsonl"
        constants = f"MARKER = {MARKER!r}\nDENY_WORD = {DENY_WORD!r}\nREASON = {DENY_REASON!r}\n"
        self.script.write_text(constants + HOOK_SOURCE)

    def command(self, client: str, event: str, *flags: str) -> str:
        """The shell command line a client's settings should run."""
        return shlex.join([sys.executable, str(self.script), str(self.log), client, event, *flags])

    def commands(self, client: str, events: tuple[str, ...], *flags: str) -> dict[str, str]:
        return {event: self.command(client, event, *flags) for event in events}

    def records(self) -> list[Record]:
        if not self.log.exists():
            return []
        return [Record(**json.loads(line)) for line in self.log.read_text().splitlines()]

    def events(self) -> list[str]:
        return [r.event for r in self.records()]

    def first(self, event: str) -> Record:
        for record in self.records():
            if record.event == event:
                return record
        raise AssertionError(f"hook for {event} never fired; fired: {self.events()}")


@pytest.fixture
def hook(tmp_path: Path) -> RecordingHook:
    return RecordingHook(tmp_path / "hook")


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A real git repository with one commit, where the client runs."""
    return make_project(tmp_path / "project")


def make_project(repo: Path) -> Path:
    """A real git repository at `repo` with one commit."""
    repo.mkdir(parents=True)
    git("init", "-q", "-b", "main", cwd=repo)
    (repo / "README.md").write_text("stand-in project\n")
    git("add", "README.md", cwd=repo)
    git(
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.invalid",
        "commit",
        "-q",
        "-m",
        "init",
        cwd=repo,
    )
    return repo


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder
