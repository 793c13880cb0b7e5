"""The board's actions are the user's (#42): with git's SSH signing set up, an approval and a land
made on a real `taskproto board` process are signed journal commits, `taskproto verify` holds, and
the landed commit carries the attestation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taskproto.engine import Engine
from tests.board.scenario import build
from tests.conftest import git, run_taskproto
from tests.verify.conftest import Key, journal_list, journal_ref, signature_of, use_key


def test_an_approval_and_a_land_from_the_board_are_signed(
    board_for: Any, engine: Engine, repo: Path, tmp_path: Path
) -> None:
    build(engine)
    key = Key(tmp_path / "keys", "user")
    allowed = tmp_path / "allowed_signers"
    allowed.write_text(f"user@example.invalid {key.public}\n")
    use_key(repo, key, allowed)
    board = board_for(repo, "--no-doctor")
    head = engine.branch_head("widget")
    assert board.post("/api/tasks/widget/approve", {"kind": "commit", "sha": head}).status == 200
    assert board.post("/api/tasks/widget/complete", {"force": True}).status == 200
    assert board.post("/api/tasks/widget/land").status == 200
    ref = journal_ref(repo, "widget")
    signed = [
        git(repo, "log", "-1", "--format=%s", s).split(":")[0]
        for s in journal_list(repo, ref)
        if signature_of(repo, s)
    ]
    assert signed == ["approve", "complete", "land"]  # a forced complete is the user's too
    r = run_taskproto("verify", "widget", cwd=repo)
    assert r.code == 0, r.out + r.err
    assert '"task": "widget"' in git(repo, "notes", "--ref=taskproto", "show", "main")
