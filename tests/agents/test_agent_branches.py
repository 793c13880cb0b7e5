"""An agent taskproto started without a sandbox (`agent start --sandbox none`, a command client
with no tool guard) moves only its own branch, even from another worktree (`git -C`): the
reference-transaction hook knows it from the variables `agent start` gave it. Found walking a
new user's day: `git -C ../../qa/code commit` from dev's script moved qa's branch. Nor does git
reach qa's worktree another way: a link to it, GIT_DIR and GIT_WORK_TREE, `--git-dir` and
`--work-tree`."""

from __future__ import annotations

import json
from pathlib import Path

from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.hooks.git import install
from tests.agents.conftest import wait_until
from tests.conftest import git
from tests.hooks.agents.conftest import move_to

SCRIPT = """\
try() {{ name=$1; shift; "$@" >out.$name 2>&1; echo "$name $?" >> {out}; }}
try other-agent git -C ../../qa/code commit --allow-empty -qm "dev in qa's worktree"
try task-branch git -C ../../../code commit --allow-empty -qm "dev in the task's worktree"
try other-task git -C {other} commit --allow-empty -qm "dev in another task's worktree"
try own git commit --allow-empty -qm "dev's own"
ln -s ../../qa/code q
try symlink sh -c 'cd q && exec git commit --allow-empty -qm "dev through a link"'
qa=$(git -C ../../qa/code rev-parse --absolute-git-dir)
try env env GIT_DIR="$qa" GIT_WORK_TREE=../../qa/code git commit --allow-empty -qm "dev as qa"
try options git --git-dir="$qa" --work-tree=../../qa/code commit --allow-empty -qm "dev as qa"
for name in other-agent symlink env options; do cat out.$name >> {out}; done
"""
BYPASSES = ("symlink", "env", "options")  # git moved into qa's worktree some other way than -C


def test_an_unsandboxed_agent_moves_only_its_own_branch_from_any_worktree(
    agents_repo: Path, engine: Engine, cli, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("TASKPROTO_SUPERVISOR_IDLE", "3")
    install.install(Git(agents_repo))
    for name, agents in (("t", ["dev", "qa"]), ("u", [])):
        engine.create_task(name, agents)
        engine.claim(name, "lead")
        move_to(engine, name, "IMPLEMENTATION")
    before = {b: git(agents_repo, "rev-parse", b) for b in ("t", "t-dev", "t-qa", "u")}
    out = tmp_path / "results"
    script = agents_repo / "agent.sh"  # in the repository: `agent start` runs it from there
    script.write_text(SCRIPT.format(out=out, other=engine.config.task_worktree("u")))
    start = cli(
        "agent", "start", "t", "dev", "--client", f"sh {script}", "--headless",
        "--sandbox", "none", "--json",
    )  # fmt: skip
    assert start.code == 0, start.err
    wait_until(
        lambda: json.loads(cli("agent", "ps", "--json").out)[0]["state"] == "exited",
        what="the agent's end",
    )
    lines = out.read_text().splitlines()
    results = dict(line.split() for line in lines[:7])
    assert results == {
        "other-agent": "128", "task-branch": "128", "other-task": "128", "own": "0",
        **{bypass: "128" for bypass in BYPASSES},
    }  # fmt: skip
    refusals = [line for line in lines[7:] if line.startswith("taskproto:")]
    assert len(refusals) == 1 + len(BYPASSES), lines
    for refusal in refusals:  # the same one line, whichever way git got to qa's worktree
        assert refusal == (
            "taskproto: refused: moving branch 't-qa' (agent qa of task t): this git runs for "
            "agent dev of task t, started by `taskproto agent start`, which moves only its own "
            "branch t-dev, from any worktree; its work reaches the task branch through the "
            "user's `taskproto merge t`"
        )
    after = {b: git(agents_repo, "rev-parse", b) for b in ("t", "t-dev", "t-qa", "u")}
    assert {b for b in before if before[b] != after[b]} == {"t-dev"}
    # the user, in the same worktree, is not an agent: the same command moves qa's branch
    git(engine.config.agent_worktree("t", "dev"), "-C", "../../qa/code", "commit",
        "--allow-empty", "-qm", "the user")  # fmt: skip
    assert git(agents_repo, "rev-parse", "t-qa") != before["t-qa"]
