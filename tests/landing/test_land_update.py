"""`land` on a base that moved: refused naming `taskproto update`, or with `--update` done in one
step when the approved change is unchanged (same patch-id), else approved again."""

from __future__ import annotations

import json
from pathlib import Path

from taskproto.engine import Engine
from tests.conftest import commit_file, git
from tests.landing.conftest import approved_task, move_base

LINES = "".join(f"{i}\n" for i in range(1, 10))


def test_ff_land_on_a_moved_base_names_the_update_command(hooked: Engine, repo: Path, cli) -> None:
    approved_task(hooked, "t", {"a.py": "a = 1\n"})
    move_base(repo, "b.py", "b = 1\n")
    before = hooked.config.task_file("t").read_bytes()
    r = cli("land", "t", "--strategy", "ff")
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1
    assert "`taskproto update t`" in r.err and "`taskproto land t --update`" in r.err
    assert hooked.config.task_file("t").read_bytes() == before


def test_land_update_lands_the_unchanged_change_in_one_step(
    hooked: Engine, repo: Path, cli
) -> None:
    approved = approved_task(hooked, "t", {"a.py": "a = 1\n"})
    tip = move_base(repo, "b.py", "b = 1\n")
    r = cli("land", "t", "--update", "--strategy", "ff", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["state"] == "CLEANUP"
    main = git(repo, "rev-parse", "main")
    assert data["approved"] == main != approved  # the updated head, approved by carrying
    assert git(repo, "rev-parse", "main^1") == approved and git(repo, "rev-parse", "main^2") == tip
    assert (repo / "a.py").read_text() == "a = 1\n" and (repo / "b.py").read_text() == "b = 1\n"
    log = cli("log", "t").out
    assert "the approval is carried (same patch-id" in log


def test_land_update_asks_again_when_the_change_differs(hooked: Engine, repo: Path, cli) -> None:
    commit_file(repo, "n.txt", LINES, "numbers")
    approved = approved_task(hooked, "t", {"n.txt": LINES.replace("2\n", "two\n")})
    move_base(repo, "n.txt", LINES.replace("4\n", "four\n"))  # merges, inside the hunk's context
    main = git(repo, "rev-parse", "main")
    r = cli("land", "t", "--update")
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1
    assert "changed the approved change" in r.err and "approve t --commit" in r.err
    assert git(repo, "rev-parse", "main") == main  # nothing landed
    task = hooked.load("t")
    assert task.state == "AWAITING_USER_APPROVAL" and task.checkpoint.commit_approval is None
    assert git(repo, "rev-parse", "refs/heads/t^1") == approved


def test_land_update_sends_a_conflict_back(hooked: Engine, repo: Path, cli) -> None:
    approved = approved_task(hooked, "t", {"a.py": "a = 1\n"})
    main = move_base(repo, "a.py", "a = 2\n")
    r = cli("land", "t", "--update")
    assert r.code == 1 and "conflicts in a.py" in r.err
    assert git(repo, "rev-parse", "main") == main
    assert git(repo, "rev-parse", "refs/heads/t") == approved
    assert hooked.load("t").state == "IMPLEMENTATION"
