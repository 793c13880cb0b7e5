"""An agent taskproto started without a sandbox (`agent start --sandbox none`, a command client
with no tool guard) moves only its own branch, even from another worktree (`git -C`): the
reference-transaction hook knows it from the variables `agent start` gave it. Found walking a
new user's day: `git -C ../../qa/code commit` from dev's script moved qa's branch. Nor does git
reach qa's worktree another way: a link to it, GIT_DIR and GIT_WORK_TREE, `--git-dir` and
`--work-tree`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

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


MAIN_SCRIPT = """\
try() {{ name=$1; shift; "$@" >out.$name 2>&1; echo "$name $?" >> {out}; }}
main={main}
try git-dir-absolute env GIT_DIR="$main/.git" git commit --allow-empty -qm "dev on main"
try git-dir-relative env GIT_DIR={relative} git commit --allow-empty -qm "dev on main"
try git-dir-option git --git-dir="$main/.git" commit --allow-empty -qm "dev on main"
try git-dir-here git --git-dir="$main/.git" --work-tree=. commit --allow-empty -qm "dev on main"
try git-dir-work-tree git --git-dir="$main/.git" --work-tree="$main" commit --allow-empty -qm m
try env-work-tree env GIT_DIR="$main/.git" GIT_WORK_TREE="$main" git commit --allow-empty -qm m
try dash-c git -C "$main" commit --allow-empty -qm "dev in the main worktree"
try reset git -C "$main" reset -q --hard t-dev
ln -s "$main" m
try symlink sh -c 'cd m && exec git commit --allow-empty -qm "dev through a link"'
try update-ref git update-ref refs/heads/main HEAD
try branch-f git branch -f main HEAD
try push-dot git push -q . HEAD:main
try push-main git push -q "$main" HEAD:main
try push-dot-no-verify git push -q --no-verify . HEAD:main
try push-main-no-verify git push -q --no-verify "$main" HEAD:main
try checkout git checkout -q main
try worktree-add git worktree add -q {elsewhere}/a main
try worktree-force git worktree add -q -f {elsewhere}/b main
try worktree-commit git -C {elsewhere}/b commit --allow-empty -qm "dev in a new worktree on main"
"""
# git refuses these itself while `main` is checked out in the main worktree (taskproto's hook
# never runs); the pushes meet pre-push first (the task is not COMPLETE)
GIT_REFUSES = {
    "branch-f": "cannot force update the branch 'main' checked out at",
    "checkout": "is already checked out at",
    "worktree-add": "is already checked out at",
    "push-dot-no-verify": "refusing to update checked out branch: refs/heads/main",
    "push-main-no-verify": "refusing to update checked out branch: refs/heads/main",
}
REFUSALS = (
    "refused: moving refs/heads/main from the worktree of agent dev of task t: from there only "
    "its own branch t-dev moves; work reaches the base branch through the user's `taskproto land "
    "t`",
    "refused: moving refs/heads/main: this git runs for agent dev of task t, started by "
    "`taskproto agent start`, which moves only its own branch t-dev, from any worktree; work "
    "reaches the base branch through the user's `taskproto land t`",
)
PRE_PUSH = "push refused: branch 't-dev' (agent dev of task t) to protected branch main of "


@pytest.mark.parametrize("checked_out", [True, False], ids=["main-checked-out", "main-free"])
def test_an_unsandboxed_agent_does_not_move_main_through_the_main_git_dir(
    agents_repo: Path, engine: Engine, cli, tmp_path: Path, monkeypatch, checked_out: bool
) -> None:
    """From dev's worktree, every door to `main`: GIT_DIR or `--git-dir` naming the main
    repository's `.git` (absolute, relative, with or without a work tree), `-C`, a link,
    update-ref, branch -f, push, checkout, a new worktree; with `main` checked out in the main
    worktree (git refuses some itself) and not (the user works on another branch there). The
    hook took its place from the main `.git` (the main worktree) and let `main` move."""
    monkeypatch.setenv("TASKPROTO_SUPERVISOR_IDLE", "3")
    install.install(Git(agents_repo))
    engine.create_task("t", ["dev", "qa"])
    engine.claim("t", "lead")
    move_to(engine, "t", "IMPLEMENTATION")
    wt = engine.config.agent_worktree("t", "dev")
    git(wt, "commit", "--allow-empty", "-qm", "dev's work")  # the user's: main is behind t-dev
    if not checked_out:
        git(agents_repo, "checkout", "-q", "-b", "feature")
    refs = git(agents_repo, "for-each-ref", "--format=%(refname) %(objectname)")
    out, elsewhere = tmp_path / "results", tmp_path / "elsewhere"
    script = agents_repo / "agent.sh"
    script.write_text(
        MAIN_SCRIPT.format(
            out=out,
            main=agents_repo,
            relative=os.path.relpath(agents_repo / ".git", wt),
            elsewhere=elsewhere,
        )
    )
    start = cli(
        "agent", "start", "t", "dev", "--client", f"sh {script}", "--headless",
        "--sandbox", "none", "--json",
    )  # fmt: skip
    assert start.code == 0, start.err
    wait_until(
        lambda: json.loads(cli("agent", "ps", "--json").out)[0]["state"] == "exited",
        what="the agent's end",
    )
    codes = dict(line.split() for line in out.read_text().splitlines())
    assert len(codes) == 19, codes
    for name, code in codes.items():
        output = (wt / f"out.{name}").read_text()
        refusals = [
            line.split("taskproto: ", 1)[1] for line in output.splitlines() if "taskproto:" in line
        ]
        if name == "worktree-force" or (not checked_out and name == "checkout"):
            assert code == "0" and not refusals, (name, output)  # a HEAD moves, no branch
        elif name == "worktree-add" and not checked_out:  # main is dev's now (`checkout`)
            assert code != "0" and "is already checked out at" in output, output
        elif checked_out and name in GIT_REFUSES:
            assert code != "0" and GIT_REFUSES[name] in output and not refusals, (name, output)
        elif name in ("push-dot", "push-main"):
            assert code != "0" and len(refusals) == 1, (name, output)
            assert refusals[0].startswith(PRE_PUSH), (name, output)
        else:
            assert code != "0" and len(refusals) == 1, (name, output)
            # a commit through the main `.git` moves the main worktree's branch: main or feature
            assert refusals[0].replace("/feature", "/main") in REFUSALS, (name, output)
    git(agents_repo, "worktree", "remove", "--force", str(elsewhere / "b"))
    # no ref moved: no branch, and no commit refused here is referenced by any ref
    assert git(agents_repo, "for-each-ref", "--format=%(refname) %(objectname)") == refs
