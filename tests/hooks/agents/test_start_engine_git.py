"""A session's start answered by the engine (what the standard library's reads leave to it: a
task.json of an older shape, TASKPROTO_QUICK=0) reads the journals of every task, packed as git
packs them, with a number of git processes that does not grow with the tasks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import taskproto
from taskproto.config import load_config
from tests.conftest import git, git_recorder, make_repo

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
from bulk_tasks import build_tasks  # noqa: E402

ENTRY = Path(taskproto.__file__).parent / "hooks" / "agents" / "entry.py"


def _start(repo: Path, tmp: Path) -> tuple[int, str]:
    log = tmp / "git-calls.log"
    env = {**os.environ, **git_recorder(tmp / "shim", log), "TASKPROTO_QUICK": "0"}
    env.pop("TASKPROTO_SESSION", None)
    data = {
        "session_id": f"new-{tmp.name}",
        "transcript_path": str(tmp / "t.jsonl"),
        "cwd": str(repo),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    proc = subprocess.run(
        [sys.executable, "-I", "-S", str(ENTRY), "claude", "SessionStart"],
        cwd=repo,
        env=env,
        input=json.dumps(data),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    calls = log.read_text().splitlines() if log.exists() else []
    return len([c for c in calls if c.split(" ", 1)[0] in ("cat-file", "-C")]), proc.stdout


def test_the_engines_start_reads_packed_journals_in_one_git_process(tmp_path: Path) -> None:
    counts = {}
    for n in (4, 40):
        repo = make_repo(tmp_path / f"r{n}")
        config = load_config(repo)
        names = [f"task{i:03d}" for i in range(n)]
        build_tasks(config, names)
        build_tasks(config, ["after"])
        git(repo, "pack-refs", "--all")
        git(repo, "repack", "-a", "-d", "-q")  # the journals' commits packed, as gc leaves them
        counts[n], out = _start(repo, tmp_path / f"c{n}")
        assert "Free tasks: task000 (INIT)" in out, out[:500]
    assert counts[4] == counts[40], counts
