"""One write path (issue #44): whatever door a change comes through, task.json is written by one
module, engine/core.py. Shown on the real commands of a user's day (the CLI and its quick front,
the Python API, a git hook's slow path, doctor's repairs, a migration), run in one process with an
audit hook that sees every open for writing and every rename of a file named task.json, and
names the taskproto module that asked for it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import make_repo

DRIVER = r"""
import json, os, sys

WRITERS = {}

def audit(event, args):
    if event == "open":
        path, mode, flags = args
        if not isinstance(path, str) or os.path.basename(path) != "task.json":
            return
        writing = (flags or 0) & (os.O_WRONLY | os.O_RDWR) if mode is None else any(
            c in mode for c in "wax+"
        )
        if not writing:
            return
    elif event == "os.rename":
        if os.path.basename(str(args[1])) != "task.json":
            return
    else:
        return
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_code.co_filename
        if "/taskproto/" in name and not name.endswith(("/state/files.py", "/state/store.py")):
            key = name[name.rindex("/taskproto/") + 1 :]
            WRITERS[key] = WRITERS.get(key, 0) + 1
            return
        frame = frame.f_back
    WRITERS["<outside taskproto>"] = WRITERS.get("<outside taskproto>", 0) + 1

sys.addaudithook(audit)

from taskproto.cli import main

def run(*args, env=None):
    os.environ.update(env or {})
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code
    return code

steps = json.loads(sys.argv[1])
codes = []
for step in steps:
    if step[0] == "api":
        from taskproto.config import load_config
        from taskproto.engine import Engine
        from taskproto.state.models import AgentState
        engine = Engine(load_config("."))
        engine.set_agent_status("t", "dev", AgentState.WORKING, session="s1")
        engine.heartbeat("t", "s1")
        codes.append(0)
    elif step[0] == "sh":
        import subprocess
        codes.append(subprocess.run(step[1:], check=False).returncode)
    else:
        codes.append(run(*step))
print(json.dumps({"codes": codes, "writers": WRITERS}))
"""

STEPS = [
    ["init", "--git"],
    ["task", "create", "t", "--agents", "dev"],  # the quick front
    ["task", "create", "loop", "--workflow", "tight-loop"],
    ["claim", "t"],
    ["transition", "t", "CLASSIFIED"],  # the quick front
    ["fire", "t", "gather_requirements"],
    ["agent", "set", "t", "dev", "--status", "WORKING"],
    ["api"],  # the Python API
    ["next", "t"],
    ["approve", "t", "--plan"],
    ["rollback", "t", "--to", "CLASSIFIED"],
    ["claim", "loop"],
    ["subtask", "add", "loop", "write the parser"],
    ["handoff", "loop", "--to", "EXECUTE", "--decision", "yes"],
    ["escalate", "t", "--reason", "external-dependency", "--detail", "the API is down"],
    ["resume", "t"],
    ["migrate", "--down"],
    ["migrate"],
    ["sh", "rm", ".taskproto/tasks/loop/task.json"],
    ["doctor", "--fix"],  # restored from the journal
    ["release", "t"],
    ["task", "remove", "loop", "--force"],
    [
        "import",
        str(Path(__file__).parent / "fixtures/import/beads-issues.jsonl"),
        "--from",
        "beads",
    ],
    ["claim", "bd-4"],  # an imported task's worktrees, made at its claim
]


def test_task_json_is_written_by_engine_core_alone(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(STEPS)],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "TASKPROTO_SESSION": "s1"},
        check=False,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    failed = [(s, c) for s, c in zip(STEPS, result["codes"], strict=True) if c not in (0, None)]
    assert failed == [], (failed, proc.stderr[-3000:])
    writers = result["writers"]
    assert writers, "the audit hook saw no write of task.json: the test itself is broken"
    assert set(writers) == {"taskproto/engine/core.py"}, writers
