"""`[worktree]` in .taskproto.toml: includes copied, ports given, setup run once, all or nothing."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import git

SETTINGS = """
[worktree]
include = [".env", "config/local.yaml"]
setup = "echo ran >> setup-ran.txt; echo port=$TASKPROTO_PORT web=$TASKPROTO_PORT_WEB"
ports = { base = 3000, per_worktree = 10, names = ["web", "api"] }
"""


def _configure(repo: Path, settings: str = SETTINGS) -> None:
    (repo / ".taskproto.toml").write_text(settings)
    (repo / ".gitignore").write_text(".env\nconfig/local.yaml\n")
    git(repo, "add", ".taskproto.toml", ".gitignore")
    git(repo, "commit", "--quiet", "-m", "settings")
    (repo / ".env").write_text("SECRET=1\n")  # ignored: not in any branch
    (repo / "config").mkdir()
    (repo / "config" / "local.yaml").write_text("local: true\n")


def test_three_tasks_of_two_agents_each_get_env_setup_and_their_own_ports(repo: Path, cli) -> None:
    _configure(repo)
    for task in ("t1", "t2", "t3"):
        result = cli("task", "create", task, "--agents", "dev,qa")
        assert result.code == 0, result.err
    root = repo / ".taskproto" / "tasks"
    ports: list[int] = []
    for task in ("t1", "t2", "t3"):
        for folder in (root / task, root / task / "agents" / "dev", root / task / "agents" / "qa"):
            code = folder / "code"
            assert (code / ".env").read_text() == "SECRET=1\n"
            assert (code / "config" / "local.yaml").read_text() == "local: true\n"
            assert (code / "setup-ran.txt").read_text() == "ran\n"  # once, in its own worktree
            record = json.loads((folder / "worktree.json").read_text())
            assert record["ports"] == {"web": record["port"], "api": record["port"] + 1}
            assert (folder / "setup.log").read_text() == (
                f"port={record['port']} web={record['port']}\n"
            )
            ports.append(record["port"])
    assert sorted(ports) == [3000 + 10 * i for i in range(9)]
    # a removed task's blocks are free for the next one
    assert cli("task", "remove", "t1", "--force").code == 0
    assert cli("task", "create", "t4", "--agents", "dev").code == 0
    again = {
        json.loads((root / "t4" / f / "worktree.json").read_text())["port"]
        for f in (".", "agents/dev")
    }
    assert again == {3000, 3010}


def test_a_failing_setup_leaves_no_branch_no_worktree_and_keeps_its_output(repo: Path, cli) -> None:
    _configure(repo, '[worktree]\nsetup = "echo broken dependency; exit 3"\n')
    result = cli("task", "create", "t1", "--agents", "dev,qa")
    assert result.code == 1
    assert "the worktree setup" in result.err and "exit 3: broken dependency" in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert git(repo, "branch", "--list", "t1*") == ""
    assert git(repo, "worktree", "list").count("\n") == 0  # the main worktree alone
    assert not (repo / ".taskproto" / "tasks" / "t1").exists()
    kept = list((repo / ".taskproto" / "setup-failed").iterdir())
    assert [p.read_text() for p in kept] == ["broken dependency\n"]


def test_a_wrong_worktree_setting_is_refused_in_one_line(repo: Path, cli) -> None:
    _configure(repo, "[worktree]\nports = { base = 80 }\n")
    result = cli("task", "create", "t1", "--agents", "dev")
    assert result.code == 1
    assert "ports.base must be a port number" in result.err
    assert git(repo, "branch", "--list", "t1*") == ""


def test_a_worktree_doctor_makes_again_is_prepared_again_with_its_ports(repo: Path, cli) -> None:
    import shutil

    _configure(repo)
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    folder = repo / ".taskproto" / "tasks" / "t1" / "agents" / "dev"
    port = json.loads((folder / "worktree.json").read_text())["port"]
    shutil.rmtree(folder / "code")  # lost
    result = cli("doctor", "--fix")
    assert result.code == 0, result.out + result.err
    assert (folder / "code" / ".env").read_text() == "SECRET=1\n"
    assert (folder / "code" / "setup-ran.txt").read_text() == "ran\n"
    assert json.loads((folder / "worktree.json").read_text())["port"] == port
