"""What the real Claude Code does when the taskproto its hooks start is gone, and what doctor says
of it. Found by a new user's walk: `pip install -e .` after `init --claude` replaced the installed
package, the hook command's script was gone, and every prompt was blocked ("UserPromptSubmit
operation blocked by hook": the shell's exit status 2 is Claude Code's block), while doctor said
the agents run unguarded. With the interpreter gone (exit 127) the session does go on without
its guard. Real Claude Code, a stand-in model server, `taskproto init --claude` and `doctor`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_taskproto

from .runners import find_client, missing_reason, run_claude
from .standin import AnthropicServer, Text

pytestmark = pytest.mark.clients


def _point_hooks_at(project: Path, what: str, gone: Path) -> None:
    """Rewrite the installed hook commands as if `what` (script or interpreter) were removed."""
    settings = project / ".claude" / "settings.local.json"
    data = json.loads(settings.read_text())
    for groups in data["hooks"].values():
        for group in groups:
            for hook in group["hooks"]:
                argv = hook["command"].split(" ")  # /bin/sh HOOK.SH PYTHON CLIENT EVENT
                argv[1 if what == "script" else 2] = str(gone)
                hook["command"] = " ".join(argv)
    settings.write_text(json.dumps(data))


@pytest.mark.parametrize("what", ["script", "interpreter"])
def test_hooks_whose_install_is_gone_block_or_leave_unguarded_as_doctor_says(
    what: str, project: Path, home: Path, tmp_path: Path
) -> None:
    if find_client("claude") is None:
        pytest.skip(missing_reason("claude"))
    r = run_taskproto("init", "--claude", cwd=project)
    assert r.code == 0, r.err
    venv = tmp_path / "removed-venv"
    gone = {
        "script": venv / "lib/python3/site-packages/taskproto/hooks/agents/hook.sh",
        "interpreter": venv / "bin/python3",
    }
    _point_hooks_at(project, what, gone[what])
    with AnthropicServer([Text("hello")]) as server:
        result = run_claude("hello", project, server, home)
        turns = len(server.turns)
    doctor = run_taskproto("doctor", cwd=project)
    lines = [line for line in doctor.out.splitlines() if "client-hooks-interpreter-missing" in line]
    assert lines, doctor.out
    if what == "script":
        assert turns == 0, result.describe()  # the prompt never reached the model
        assert "blocked by hook" in result.stdout, result.describe()
        assert "Claude Code blocks every prompt and tool call" in doctor.out, doctor.out
    else:
        assert turns == 1, result.describe()  # the session goes on, without its hooks
        assert "the agents run unguarded" in doctor.out, doctor.out
