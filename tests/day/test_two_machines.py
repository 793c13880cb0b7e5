"""Two machines share one repository through a bare remote for a day, end to end, the way their
users walk it: claims made before sharing was turned on are published by `init --remote`, a clone
set up as docs/remote.md says sees them and cannot take them, a claim tried while the remote is
unreachable is refused with nothing changed and made once it is back, and a task lands through
the merge queue after a refusal late in landing (the user's own uncommitted file where main is
checked out), which gives the entry back at once; the other machine then has its code and is not
left a landed task to remove by hand. After every step `taskproto doctor` finds nothing on the
machine that acted (but while the remote is unreachable, where it says so).

Everything runs as a user runs it: the `taskproto` command as a subprocess, real git, a bare
repository on disk as the shared remote. The second machine is a second host: its commands run in
their own UTS namespace (`unshare --uts`), with their own host name, as a claim's owner is a
session on a host. Run it alone with `python -m pytest tests/day -q`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import Result, git, run_taskproto

from .helpers import Day

pytestmark = [pytest.mark.long, pytest.mark.heavy]  # a day of tens of seconds: started first

ALICE, BOB = "alice", "bob"
CORE = 'def greet(name: str) -> str:\n    return "hi " + name\n'


HOST_B = "machine-b"


def on_host_b(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> Result:
    """`argv` run on the second machine: in a UTS namespace of its own whose host name is
    HOST_B (a user namespace maps this user to root there, so no privilege is needed)."""
    wrapped = ["unshare", "--user", "--map-root-user", "--uts", "sh", "-c"]
    wrapped += [f'hostname {HOST_B} && exec "$@"', "sh", *argv]
    proc = subprocess.run(
        wrapped, cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True
    )
    return Result(proc.returncode, proc.stdout, proc.stderr)


class MachineB(Day):
    """The second machine's repository: its taskproto and git commands run on HOST_B."""

    def tp(
        self, *args: str, session: str | None = None, cwd: Path | None = None, code: int = 0
    ) -> Result:
        argv = [sys.executable, "-m", "taskproto", *args]
        result = on_host_b(argv, cwd or self.repo, self.env(session))
        assert result.code == code, (
            f"[{self.step_name}] on {HOST_B}: taskproto {' '.join(args)} (session {session}) "
            f"exited {result.code}, expected {code}\n{result.out}\n{result.err}"
        )
        return result

    def healthy(self) -> None:
        report = self.json("doctor")
        assert report["healthy"] and report["findings"] == [], (
            f"after [{self.step_name}] doctor on {HOST_B} found:\n"
            + json.dumps(report["findings"], indent=2)
        )

    def git(self, *args: str, cwd: Path | None = None) -> str:
        result = on_host_b(["git", *args], cwd or self.repo)
        assert result.code == 0, (args, result.err)
        return result.out.strip()


def namespaces_work() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = on_host_b(["hostname"], Path.cwd())
    return probe.code == 0 and probe.out.strip() == HOST_B


@pytest.fixture
def machines(tmp_path: Path) -> Iterator[tuple[Day, MachineB, Path]]:
    """Machine a's working repository with some code, pushed to a bare shared remote; machine b
    is not set up yet (its Day's repository is where it will clone)."""
    bare = tmp_path / "srv" / "shop.git"
    bare.parent.mkdir()
    git(tmp_path, "init", "-q", "--bare", "--initial-branch=main", str(bare))
    a = tmp_path / "a" / "shop"
    a.mkdir(parents=True)
    git(a, "init", "--quiet", "--initial-branch=main")
    git(a, "config", "commit.gpgsign", "false")
    (a / "app").mkdir()
    (a / "app" / "__init__.py").write_text("")
    (a / "app" / "core.py").write_text(CORE)
    git(a, "add", ".")
    git(a, "commit", "--quiet", "-m", "the shop's first code")
    git(a, "remote", "add", "shared", str(bare))
    git(a, "push", "-q", "shared", "main")
    if not namespaces_work():
        pytest.skip("the second machine needs `unshare --user --uts` (util-linux, user namespaces)")
    one, two = Day(a), MachineB(tmp_path / "b" / "shop")
    try:
        yield one, two, bare
    finally:
        one.pulse.close()
        two.pulse.close()


def remote_claims(bare: Path) -> dict[str, str]:
    """{task: session} of the claims the shared remote holds."""
    out = git(bare, "for-each-ref", "--format=%(refname)", "refs/taskproto/claims/")
    return {
        ref.rsplit("/", 1)[1]: json.loads(git(bare, "show", f"{ref}:claim.json"))["session"]
        for ref in out.splitlines()
    }


def test_two_machines_share_a_day_through_a_bare_remote(
    machines: tuple[Day, MachineB, Path], tmp_path: Path
) -> None:
    a, b, bare = machines
    with a.step("machine a sets taskproto up and claims schema before sharing is on"):
        a.tp("init", "--claude")
        a.tp("task", "create", "schema", "--agents", "dev,qa", "--priority", "1")
        a.tp("task", "create", "docs", "--agents", "writer", "--priority", "2")
        assert "task schema (INIT): claimed" in a.tp("claim", "schema", session=ALICE).out

    with a.step("machine a turns sharing on: its claim is published, the setting committed"):
        turned = a.json("init", "--remote", "shared")
        assert turned["remote"]["claims"]["published"] == ["schema"], turned
        assert remote_claims(bare) == {"schema": ALICE}
        a.tp("sync")  # its tasks' journals go there (docs/remote.md)
        a.git("add", ".taskproto.toml")
        a.git("commit", "--quiet", "-m", "taskproto: share through the bare remote")
        a.git("push", "-q", "shared", "main")

    with b.step("machine b clones and sets up as docs/remote.md says: it sees a's tasks"):
        b.repo.parent.mkdir(parents=True)
        b.git("clone", "-q", "-o", "shared", str(bare), str(b.repo), cwd=b.repo.parent)
        b.git("config", "commit.gpgsign", "false")
        b.tp("init", "--claude", "--remote", "shared")
        b.tp("sync")
        tasks = {t["name"]: t for t in b.json("task", "list")}
        assert set(tasks) == {"schema", "docs"}, tasks

    with b.step("bob cannot take alice's task; he claims docs"):
        refused = b.tp("claim", "schema", session=BOB, code=1).err
        assert len(refused.strip().splitlines()) == 1, refused
        assert "alice" in refused, refused
        assert "task docs (INIT): claimed" in b.tp("claim", "docs", session=BOB).out
        assert remote_claims(bare) == {"schema": ALICE, "docs": BOB}

    with a.step("machine a syncs: docs is bob's there too, and alice cannot take it"):
        a.tp("sync")
        refused = a.tp("claim", "docs", session=ALICE, code=1).err
        assert len(refused.strip().splitlines()) == 1 and "bob" in refused, refused

    with a.step("machine a plans api; its sync puts it on the remote"):
        a.tp("task", "create", "api", "--agents", "dev")
        a.tp("sync")

    # the remote is unreachable for a while (the server is down): a claim cannot be made, since
    # no other machine could know of it; nothing changes here
    away = tmp_path / "srv" / "down.git"
    bare.rename(away)
    a.step_name = "machine a tries to claim api while the remote is unreachable"
    before = (a.repo / ".taskproto" / "tasks" / "api" / "task.json").read_bytes()
    refused = a.tp("claim", "api", session=ALICE, code=1).err
    assert len(refused.strip().splitlines()) == 1, refused
    assert "remote 'shared'" in refused and "nothing was changed locally" in refused, refused
    assert (a.repo / ".taskproto" / "tasks" / "api" / "task.json").read_bytes() == before
    doctor = json.loads(run_taskproto("doctor", "--json", cwd=a.repo).out)
    assert [f["check"] for f in doctor["findings"]] == ["remote-unreachable"], doctor
    away.rename(bare)

    with a.step("the remote is back: alice claims api, and the remote holds her claim"):
        assert "task api (INIT): claimed" in a.tp("claim", "api", session=ALICE).out
        assert remote_claims(bare) == {"schema": ALICE, "docs": BOB, "api": ALICE}

    with b.step("machine b syncs: api is alice's, bob cannot take it"):
        b.tp("sync")
        refused = b.tp("claim", "api", session=BOB, code=1).err
        assert len(refused.strip().splitlines()) == 1 and "alice" in refused, refused

    with a.step("alice walks schema to the user's approval"):
        a.lead(ALICE, "schema", "next", "schema", "--to", "SYNTHESIS")
        a.tp("approve", "schema", "--plan")
        a.lead(ALICE, "schema", "next", "schema")
        a.commit(a.agent_tree("schema", "dev"), {"app/schema.py": "FIELDS = ()\n"}, "schema")
        a.commit(a.agent_tree("schema", "qa"), {"tests/test_schema.py": "import app\n"}, "test")
        for agent in ("dev", "qa"):
            a.lead(ALICE, "schema", "agent", "set", "schema", agent, "--status", "COMPLETE")
        a.lead(ALICE, "schema", "merge", "schema")
        a.lead(ALICE, "schema", "next", "schema", "--to", "AWAITING_USER_APPROVAL")
        assert "schema: commit " in a.tp("approve", "schema", "--commit").out
        a.lead(ALICE, "schema", "next", "schema")
        a.tp("queue", "add", "schema")

    before = a.git("rev-parse", "main")
    (a.repo / "app" / "schema.py").write_text("mine\n")  # the user's own, where main is out
    with a.step("the queue refuses late, in one line, and gives the entry back at once"):
        refused = a.tp("queue", "run", "--once", code=1).err
        assert len(refused.strip().splitlines()) == 1, refused
        assert "app/schema.py" in refused, refused
        assert a.git("rev-parse", "main") == before == git(bare, "rev-parse", "main")
        assert (a.repo / "app" / "schema.py").read_text() == "mine\n"  # nothing of it lost
        [entry] = a.json("queue", "list")
        assert entry["status"] == "queued" and "taken" not in entry, entry
        (a.repo / "app" / "schema.py").unlink()

    with a.step("the next run lands schema at once, main pushed to the shared remote"):
        ran = a.json("queue", "run", "--once")
        assert [(o["task"], o["result"]) for o in ran] == [("schema", "landed")], ran
        assert a.git("rev-parse", "main") == git(bare, "rev-parse", "main")
        assert "schema" not in remote_claims(bare)

    with b.step("machine b pulls main and syncs: schema's work is there, the task gone"):
        b.git("pull", "-q", "shared", "main")
        synced = b.json("sync")
        assert (b.repo / "app" / "schema.py").read_text() == "FIELDS = ()\n"
        # never checked out here: not left in CLEANUP to remove by hand, its log still readable
        assert synced["landed_elsewhere"] == ["schema"], synced
        assert {t["name"] for t in b.json("task", "list")} == {"docs", "api"}
        assert "CLEANUP" in b.tp("log", "schema").out
