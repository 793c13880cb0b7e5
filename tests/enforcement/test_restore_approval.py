"""Issue #39, the journal's authority: a repair that would bring back an approval the current
task.json lacks needs the user. An agent's `doctor --fix` is refused in one line and writes
nothing; the user's restores the journal's record."""

from __future__ import annotations

import json
from pathlib import Path

from taskproto.engine import Engine
from taskproto.state import journal
from tests.conftest import run_taskproto

OWN = "agent-own"
AGENT = {"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": OWN, "TASKPROTO_SESSION": OWN}


def approved(engine: Engine) -> Path:
    """Task t with the user's plan approval journaled, then a task.json without it (as a hand
    edit leaves it): the journal's head holds an approval task.json lacks."""
    engine.create_task("t", [])
    for trigger in ("classify", "gather_requirements", "synthesize"):
        engine.fire("t", trigger)
    engine.approve("t", "plan", "user")
    path = engine.config.task_file("t")
    data = json.loads(path.read_bytes())
    assert data["checkpoint"]["plan_approval"]
    data["checkpoint"]["plan_approval"] = None
    path.write_text(json.dumps(data, indent=2) + "\n")
    return path


def test_an_agents_repair_never_brings_back_an_approval(engine: Engine, repo: Path) -> None:
    path = approved(engine)
    before = (sorted(p.name for p in path.parent.iterdir()), path.read_bytes())
    head = journal.head(engine.git, "t")
    result = run_taskproto("doctor", "--fix", cwd=repo, env=AGENT)
    assert result.code == 1, result
    refusal = [line for line in result.out.splitlines() if line.startswith("  failed   t ")]
    assert len(refusal) == 1, result.out
    assert "brings back its plan approval" in refusal[0] and "is the user's to do" in refusal[0]
    assert "remain" in result.err
    assert (sorted(p.name for p in path.parent.iterdir()), path.read_bytes()) == before
    assert journal.head(engine.git, "t") == head
    # the user's own doctor restores the journal's record, the edited file kept aside
    result = run_taskproto("doctor", "--fix", cwd=repo, env={"TASKPROTO_SESSION": "user"})
    assert json.loads(path.read_bytes())["checkpoint"]["plan_approval"], result
    assert any(p.name.startswith("task.json.") for p in path.parent.iterdir())


def test_recover_is_no_other_door_to_the_same_repair(engine: Engine, repo: Path) -> None:
    """`taskproto recover TASK` runs doctor's fixes for one task: as the agent that runs it too."""
    path = approved(engine)
    before = path.read_bytes()
    head = journal.head(engine.git, "t")
    result = run_taskproto("recover", "t", cwd=repo, env=AGENT)
    assert "brings back its plan approval" in result.out + result.err, result
    assert path.read_bytes() == before and journal.head(engine.git, "t") == head
    # from a subfolder of the task's worktree: the same refusal
    code = Path(engine.config.task_worktree("t"))
    result = run_taskproto("doctor", "--fix", cwd=code, env=AGENT)
    assert result.code == 1 and "brings back its plan approval" in result.out, result
    assert path.read_bytes() == before and journal.head(engine.git, "t") == head
