"""A task whose task.json was deleted by hand: every command says it is missing (not "corrupt"), and
names the command that rebuilds it from its journal, which then does."""

from __future__ import annotations

import json
from pathlib import Path

from taskproto.engine import Engine
from tests.conftest import run_taskproto


def test_a_deleted_task_json_is_called_missing_and_doctor_fix_rebuilds_it(
    engine: Engine, repo: Path
) -> None:
    engine.create_task("t1")
    path = engine.config.task_file("t1")
    path.unlink()
    line = f"{path} is missing; run `taskproto doctor --fix` to rebuild it"
    r = run_taskproto("task", "list", cwd=repo)
    assert r.code == 0 and r.out == f"t1  BROKEN  {line}\n", r.out
    assert json.loads(run_taskproto("task", "list", "--json", cwd=repo).out) == [
        {"name": "t1", "error": line}
    ]
    for args in (("task", "show", "t1"), ("--session", "s", "claim", "t1"), ("next", "t1")):
        r = run_taskproto(*args, cwd=repo)
        assert r.code == 1 and r.err == f"taskproto: {line}\n", (args, r.err)
    assert not path.exists()  # nothing written by a refusal
    assert run_taskproto("doctor", "--fix", cwd=repo).code == 0
    shown = run_taskproto("task", "show", "t1", "--json", cwd=repo)
    assert shown.code == 0 and json.loads(shown.out)["state"] == "INIT"
