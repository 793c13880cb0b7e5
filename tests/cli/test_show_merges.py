"""`task show --json` carries the merge records its text shows (issue #39), on the quick path and
through click."""

from __future__ import annotations

import io
import json
from contextlib import chdir as _chdir
from contextlib import redirect_stdout
from pathlib import Path

from taskproto.engine import Engine
from tests.conftest import commit_file, run_taskproto
from tests.hooks.agents.conftest import move_to


def test_task_show_json_carries_the_merge_records_the_text_shows(
    engine: Engine, repo: Path
) -> None:
    engine.create_task("t1", ["dev"], description="the widget")
    engine.claim("t1", "s1")
    move_to(engine, "t1", "IMPLEMENTATION")
    sha = commit_file(engine.config.agent_worktree("t1", "dev"), "w.py", "x = 1\n")
    engine.merge("t1", session="s1")
    text = run_taskproto("task", "show", "t1", cwd=repo)
    assert text.code == 0 and f"dev          merged {sha[:12]}" in text.out, text.out
    quick = json.loads(run_taskproto("task", "show", "t1", "--json", cwd=repo).out)
    from taskproto.cli.app import run  # click's path, as the quick path hands over to it

    with _chdir(repo), redirect_stdout(io.StringIO()) as out:
        assert run(["task", "show", "t1", "--json"]) == 0
    for data in (quick, json.loads(out.getvalue())):
        (merge,) = data["merges"]
        assert merge["agent"] == "dev" and merge["commit"] == sha and merge["result"] == "merged"
        assert data["landed"] is None
