"""The escape suite: inside `taskproto agent exec`, every escape of docs/agents.md's limits and of
issue #38 is tried by the most direct means (tests/sandbox/escape_driver.py); each fails, nothing
outside the agent's worktree and its own git dir changes, the journal stays as it was."""

from __future__ import annotations

import hashlib
import json
import os
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.conftest import git, run_taskproto
from tests.sandbox.conftest import needs_bwrap

pytestmark = needs_bwrap
DRIVER = Path(__file__).with_name("escape_driver.py")
SECRET_ENV = {
    "GITHUB_TOKEN": "ghp_secret_from_the_user",
    "AWS_SECRET_ACCESS_KEY": "aws_secret_from_the_user",
    "ANTHROPIC_API_KEY": "sk-ant-secret-from-the-user",
}


def snapshot(repo: Path, skip: list[Path]) -> dict[str, str]:
    """Every file under the repository (its git dir and taskproto's root too) and its content's
    digest, but for the places the agent may write; and every ref."""
    found: dict[str, str] = {}
    for folder, dirs, files in os.walk(repo):
        here = Path(folder)
        dirs[:] = [d for d in dirs if here / d not in skip]
        for name in files:
            path = here / name
            found[str(path.relative_to(repo))] = hashlib.sha1(path.read_bytes()).hexdigest()
    found["<refs>"] = git(repo, "for-each-ref", "--format=%(objectname) %(refname)")
    return found


def home_files(home: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


@pytest.fixture
def secrets(tmp_path: Path) -> Iterator[dict[str, object]]:
    """The user's secrets: keys and tokens in the home folder, a listening ssh agent socket, a
    process of the user's holding a secret in its environment, and the board with its token."""
    home = Path(os.environ["HOME"])
    for rel, text in (
        (".ssh/id_ed25519", "PRIVATE KEY"),
        (".git-credentials", "https://user:token@example.invalid\n"),
        (".aws/credentials", "[default]\naws_secret_access_key = x\n"),
        (".config/gcloud/credentials.db", "gcloud"),
    ):
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text(text)
    short = Path(tempfile.mkdtemp(prefix="ssh-", dir="/tmp"))  # AF_UNIX paths are short
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(short / "agent.sock"))
    sock.listen(1)
    user = subprocess.Popen(["sleep", "60"], env={**os.environ, "SECRET": "user-process-secret"})
    board = subprocess.Popen(
        [sys.executable, "-m", "taskproto", "board", "--port", "0", "--no-open", "--no-doctor"],
        cwd=tmp_path / "repo",
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        yield {
            "home": str(home),
            "ssh_sock": str(short / "agent.sock"),
            "user_pid": user.pid,
            "board": board,
        }
    finally:
        for proc in (user, board):
            proc.kill()
            proc.wait()
        if board.stdout is not None:
            board.stdout.close()
        sock.close()
        shutil.rmtree(short, ignore_errors=True)


def board_token(board: subprocess.Popen[str]) -> str:
    """The token in the URL the board prints (it starts while the test sets up). Read from the
    pipe's descriptor: the lines may come in one write, and a buffered readline would keep the
    URL's line where select() cannot see it."""
    assert board.stdout is not None
    fd = board.stdout.fileno()
    seen = b""
    deadline = time.monotonic() + 30
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if not sel.select(timeout=max(0.0, deadline - time.monotonic())):
                break
            chunk = os.read(fd, 65536)
            seen += chunk
            for line in seen.decode("utf-8", "replace").split("\n")[:-1]:  # whole lines
                if "token=" in line:
                    return line.strip().rsplit("token=", 1)[1]
            if not chunk:
                break
    raise AssertionError("the board did not print its URL")


def test_every_escape_fails_and_nothing_outside_the_agent_changes(
    sandboxed: Engine, repo: Path, secrets: dict[str, object], cli
) -> None:
    assert cli("init", "--claude").code == 0
    # the user's question pauses the task: only the user lifts it
    r = cli("interrupt", "record", "t", "what does the retry do?", env={"TASKPROTO_SESSION": "s1"})
    assert r.code == 0, r.err
    config = sandboxed.config
    dev = config.agent_worktree("t", "dev")
    assert (dev / ".claude" / "settings.local.json").is_file()
    real_gitdir = (dev / ".git").read_text().split(":", 1)[1].strip()
    board = secrets.pop("board")
    assert isinstance(board, subprocess.Popen)
    paths = {
        **secrets,
        "board_pid": board.pid,
        "token_reversed": board_token(board)[::-1],
        "main": str(repo),
        "common": str(repo / ".git"),
        "root": str(config.root),
        "task_json": str(config.task_file("t")),
        "status": str(config.status_file("t", "dev")),
        "qa": str(config.agent_worktree("t", "qa")),
        "real_gitdir": real_gitdir,
        "state_home": os.environ["XDG_STATE_HOME"],
    }
    skip = [dev, config.agent_dir("t", "dev") / "sandbox"]
    # the user's board records its address once it serves (ops/notify.py): before the snapshot
    address = config.root / "board-address.json"
    deadline = time.monotonic() + 30
    while not address.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    before = snapshot(repo, skip)
    journal = git(repo, "rev-parse", "refs/taskproto/tasks/t")
    home = home_files(Path(os.environ["HOME"]))
    env = {**SECRET_ENV, "SSH_AUTH_SOCK": str(secrets["ssh_sock"]), "TASKPROTO_SESSION": "s1"}

    r = run_taskproto(
        "agent",
        "exec",
        "t",
        "dev",
        "--",
        sys.executable,
        str(DRIVER),
        json.dumps(paths),
        cwd=repo,
        env=env,
    )

    assert r.code == 0, r.err
    report = json.loads(r.out)
    got_through = {name: out for name, (code, out) in report["results"].items() if code == 0}
    assert got_through == {}
    # the channel's escapes reached the channel, which refused them
    for name, (_code, out) in report["results"].items():
        if name.startswith("the channel"):
            assert "an agent in its sandbox cannot run it" in out, (name, out)
    assert set(report["effects"]) == {
        "lift the pause with the prompt hook and a forged continue",
        "doctor --fix from inside",
        "the channel's socket, raw: the owner's forged continue",
    }
    after = snapshot(repo, skip)
    # the one file that may change: the agent's own activity, which its hooks report through its
    # channel (the forged prompt's), recorded under its own session and no other
    own = after.pop(".taskproto/activity/agent-t-dev.json", None)
    assert (
        own is None
        or json.loads((repo / ".taskproto/activity/agent-t-dev.json").read_text())["session"]
        == "agent-t-dev"
    )
    assert after == before
    assert git(repo, "rev-parse", "refs/taskproto/tasks/t") == journal
    assert home_files(Path(os.environ["HOME"])) == home
    # the user's processes are out of sight; the identity inside is the agent's session
    assert secrets["user_pid"] not in report["pids"] and board.pid not in report["pids"]
    inside = report["env"]
    assert inside["TASKPROTO_SESSION"] == "agent-t-dev" and inside["TASKPROTO_AGENT"] == "1"
    assert not set(SECRET_ENV) & set(inside) and "SSH_AUTH_SOCK" not in inside
    assert not any(v in json.dumps(inside) for v in SECRET_ENV.values())
