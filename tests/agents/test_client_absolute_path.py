"""A client given by an absolute path that is missing, or not executable, is refused in one line
saying so, not "not there in the agent's worktree ... (or give an absolute path)", which it was
(found by a new user's walk); nothing is written. The CLI in-process on a real repository."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.parametrize(
    ("form", "executable", "why"),
    [
        ("{p}", None, "is not there: give the path of a file that is there"),
        ("{p}", False, "is not executable: make it executable (`chmod +x {p}`)"),
        ("sh {p}", None, "is not there: give the path of a file that is there"),
    ],
    ids=["program-missing", "program-not-executable", "script-missing"],
)
def test_an_absolute_client_path_that_cannot_run_is_refused_saying_why(
    agents_repo: Path, cli, tmp_path: Path, form: str, executable: bool | None, why: str
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    script = tmp_path / "elsewhere" / "agent.sh"
    if executable is not None:
        script.parent.mkdir()
        script.write_text("#!/bin/sh\nexit 0\n")
        script.chmod(0o755 if executable else 0o644)
    client = form.format(p=script)
    result = cli(
        "agent", "start", "t1", "dev", "--client", client, "--headless", "--sandbox", "none"
    )
    what = "the program" if form == "{p}" else "the script sh runs"
    assert (result.code, result.err) == (
        1,
        f"taskproto: {str(script)!r}, {what}, {why.format(p=script)}, or pass another --client\n",
    )
    assert not (agents_repo / ".taskproto/tasks/t1/agents/dev/run.json").exists()
    assert not (agents_repo / ".taskproto/supervisor.json").exists()
