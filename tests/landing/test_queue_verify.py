"""The merge queue and the proof (#41 with #42): tasks approved with the user's signed approvals
and landed by the queue onto a base that moved verify, with attestations, and a bare clone that
fetched the journals verifies them too."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from taskproto.engine import Engine
from tests.conftest import git
from tests.landing.conftest import approved_task, move_base
from tests.verify.conftest import Key
from tests.verify.conftest import allowed as allowed  # noqa: F401  (a fixture)
from tests.verify.conftest import key as key  # noqa: F401  (a fixture)
from tests.verify.conftest import signing as signing  # noqa: F401  (a fixture)


def test_tasks_the_queue_lands_on_a_moved_base_verify_with_their_signed_approvals(
    hooked: Engine,
    repo: Path,
    cli,
    signing: Key,  # noqa: F811
    allowed: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    one = approved_task(hooked, "one", {"one.py": "one = 1\n"})
    two = approved_task(hooked, "two", {"two.py": "two = 2\n"})
    move_base(repo, "base.txt", "moved\n")  # both approved on the old base
    for name in ("one", "two"):
        assert cli("queue", "add", name).code == 0
    r = cli("queue", "run", "--json")
    assert r.code == 0, r.err
    assert {o["task"]: o["result"] for o in json.loads(r.out)} == {
        "one": "landed",
        "two": "landed",
    }
    for approved in (one, two):  # each approved commit is on main, merged once
        assert git(repo, "merge-base", "--is-ancestor", approved, "main") == ""
    r = cli("verify", "--all", "--require-signed", "--json")
    assert r.code == 0, r.out + r.err
    notes = git(repo, "notes", "--ref=refs/notes/taskproto", "list")
    assert len(notes.splitlines()) == 2  # an attestation for each landing
    audit = tmp_path / "audit.git"
    subprocess.run(["git", "init", "-q", "--bare", str(audit)], check=True)
    git(audit, "fetch", "-q", str(repo), "refs/taskproto/*:refs/taskproto/*")
    r = cli(
        "-C", str(audit), "verify", "--all", "--require-signed", "--allowed-signers", str(allowed)
    )
    assert r.code == 0, r.out + r.err
