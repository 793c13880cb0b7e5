"""Shared data and checks for the workflow tests (artifacts that validate, journal agreement)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from taskproto.engine import Engine
from taskproto.state import journal
from taskproto.state.models import Task


def journal_agrees(engine: Engine, name: str) -> bool:
    """The newest journal commit's task.json says what task.json says."""
    data = journal.task_json_at(engine.repo, journal.ref_for(name))
    assert data is not None, "no journal"
    return Task.model_validate(data).significant() == engine.load(name).significant()


def make_bin(folder: Path, *names: str) -> Path:
    """Executable stand-ins for backend CLIs (preflight only looks them up on PATH)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        path = folder / name
        path.write_text(f"#!/bin/sh\necho {name}\n")
        path.chmod(0o755)
    return folder


CONTEXT = {
    "context_summary": "The CLI lives in main.py.",
    "affected_files": ["main.py"],
    "questions_for_developer": ["Add -v as well?", "Which log level?"],
}
STRATEGY = {
    "approach": "Add a click option.",
    "key_technical_decisions": ["click"],
    "risk_factors": [],
}
DESIGN = {
    "design_overview": "One option.",
    "assumptions": [],
    "file_breakdown": [{"file_path": "main.py", "operation": "MODIFY", "summary": "add --verbose"}],
}
PLAN = {
    "estimated_complexity": "LOW",
    "slots": [
        {
            "slot_id": "S1",
            "title": "Add the flag",
            "spec": "--verbose sets DEBUG",
            "location": "main.py",
            "operation": "MODIFY",
            "taskflow": {"steps": ["edit main.py"], "verification_steps": ["run tests"]},
            "delegation": {
                "delegated_to": "tester",
                "handoff_context": "write the test",
                "sub_slots": [
                    {
                        "slot_id": "S1.1",
                        "title": "Test it",
                        "spec": "test --verbose",
                        "location": "tests/test_main.py",
                        "operation": "CREATE",
                        "taskflow": {"steps": ["write test"]},
                    }
                ],
            },
        }
    ],
}
ARTIFACT_OF = {
    "CONTEXTUALIZE": CONTEXT,
    "STRATEGIZE": STRATEGY,
    "DESIGN": DESIGN,
    "GENERATE_SLOTS": PLAN,
}


def commit_in(worktree: Path, name: str = "fix.txt") -> str:
    """A real commit in `worktree`; returns its sha."""
    (worktree / name).write_text("fixed\n")
    subprocess.run(["git", "add", name], cwd=worktree, check=True, capture_output=True)
    subprocess.run(
        ["git", "commit", "-qm", f"add {name}"], cwd=worktree, check=True, capture_output=True
    )
    return subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=worktree, check=True, capture_output=True, text=True
    ).stdout.strip()
