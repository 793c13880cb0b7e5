"""The tool guard, tried the way an agent that wants out would: links, another cwd, shell wrappers,
interpreters, scripts, git's other commands, the hooks' own settings. Each attempt goes through the
real hook entry point (`run_agent_hook`) with a real client payload and must be denied; the
ordinary calls next to them must still pass."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from taskproto.engine import Engine
from taskproto.hooks.agents import protected
from tests.conftest import git
from tests.hooks.agents.conftest import Hook, move_to, payload

SESSION = "s1"


@pytest.fixture
def t1(engine: Engine) -> Engine:
    """Task t1 with agents dev and qa, owned by session s1, in IMPLEMENTATION (edits allowed)."""
    engine.create_task("t1", ["dev", "qa"])
    engine.claim("t1", SESSION)
    move_to(engine, "t1", "IMPLEMENTATION")
    return engine


def dev(engine: Engine) -> Path:
    return engine.config.agent_worktree("t1", "dev")


def qa(engine: Engine) -> Path:
    return engine.config.agent_worktree("t1", "qa")


def write(hook: Hook, target: str, cwd: str, session: str = SESSION) -> tuple[int, str]:
    data = payload(
        "claude",
        "PreToolUse",
        session_id=session,
        cwd=cwd,
        tool_input={"file_path": target, "content": "x"},
    )
    code, _, err = hook("claude", "PreToolUse", data)
    return code, err


def bash(hook: Hook, command: str, cwd: str, session: str = SESSION) -> tuple[int, str]:
    data = payload(
        "claude",
        "PreToolUse",
        variant="Bash",
        session_id=session,
        cwd=cwd,
        tool_input={"command": command},
    )
    code, _, err = hook("claude", "PreToolUse", data)
    return code, err


# --- links -----------------------------------------------------------------------------


def test_a_link_to_task_json_does_not_carry_a_write(t1: Engine, hook: Hook) -> None:
    link = dev(t1) / "notes.json"
    link.symlink_to(t1.config.task_file("t1"))
    code, err = write(hook, str(link), str(dev(t1)))
    assert code == 2 and "taskproto's own state" in err
    code, err = bash(hook, "echo '{}' > notes.json", str(dev(t1)))
    assert code == 2 and "taskproto's own state" in err


def test_a_link_to_another_agents_worktree_does_not_carry_a_write(t1: Engine, hook: Hook) -> None:
    (dev(t1) / "peer").symlink_to(qa(t1))
    for target in (dev(t1) / "peer" / "x.py", dev(t1) / "peer" / "new" / "deep.py"):
        code, err = write(hook, str(target), str(dev(t1)))
        assert code == 2 and "outside this agent's worktree" in err, target
    assert write(hook, str(dev(t1) / "own.py"), str(dev(t1)))[0] == 0


def test_a_root_that_links_out_of_the_repository_is_refused(
    repo: Path, tmp_path: Path, cli, hook: Hook
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (repo / ".taskproto").symlink_to(elsewhere)
    result = cli("task", "list")
    assert result.code == 1
    assert "is a symbolic link out of the repository" in result.err
    code, err = write(hook, str(repo / "x.py"), str(repo))
    assert code == 2 and "is a symbolic link out of the repository" in err


# --- another cwd -----------------------------------------------------------------------


@pytest.mark.parametrize("where", ["outside", "missing", "relative"])
def test_the_session_alone_finds_its_task_wherever_the_client_started(
    t1: Engine, hook: Hook, tmp_path: Path, where: str
) -> None:
    """Before the registry, a cwd outside the repository let every write through."""
    cwd = {
        "outside": str(tmp_path),
        "missing": str(tmp_path / "gone" / "away"),
        "relative": "some/relative/dir",
    }[where]
    for target in (t1.config.repo / "main.py", t1.config.task_file("t1")):
        code, err = write(hook, str(target), cwd)
        assert code == 2, (where, target, err)
    # Not inside one of them, the session works on its own task's worktrees (it coordinates them).
    assert write(hook, str(qa(t1) / "x.py"), cwd)[0] == 0


def test_a_stranger_is_governed_by_the_worktree_it_writes_in(
    t1: Engine, hook: Hook, tmp_path: Path
) -> None:
    t1.create_task("t2", ["ux"])  # INIT: no edits
    target = t1.config.agent_worktree("t2", "ux") / "x.py"
    code, err = write(hook, str(target), str(tmp_path), session="nobody-knows-me")
    assert code == 2 and "state INIT" in err


# --- a payload the guard cannot read ----------------------------------------------------


def test_a_payload_nested_too_deeply_to_read_is_denied(t1: Engine, hook: Hook) -> None:
    """Before, the RecursionError of reading it was caught as a failure and the call allowed."""
    deep = b'{"session_id": "s1", "cwd": "%s", "tool_name": "Bash", ' % str(dev(t1)).encode()
    deep += b'"tool_input": {"command": "touch ../../qa/code/x"}, "x": '
    deep += b"[" * 100_000 + b"]" * 100_000 + b"}"
    code, _, err = hook("claude", "PreToolUse", deep)
    assert code == 2 and "could not be judged" in err, err


# --- shell wrappers and near-misses ----------------------------------------------------


def escapes(engine: Engine) -> list[str]:
    q, d = shlex.quote(str(qa(engine))), str(dev(engine))
    state = shlex.quote(str(engine.config.task_file("t1")))
    root = engine.config.layout.root
    # the caches the hooks and the quick read path trust: the state tables, the quiet stamps
    flags = shlex.quote(f"{root}/cache/hook-flags.json")
    stamp = shlex.quote(f"{root}/cache/quiet/owner/s1")
    return [
        f"echo '{{}}' > {flags}",
        f"python3 -c \"open('{root}/cache/hook-flags.json', 'w').write('{{}}')\"",
        f"mkdir -p $(dirname {stamp}) && touch {stamp}",
        f"cp /dev/null {flags}",
        f"bash -c 'touch {q}/x'",
        f'sh -c "echo hi > {q}/x"',
        f"eval 'touch {q}/x'",
        f"env FOO=1 touch {q}/x",
        f"env -i PATH=/usr/bin touch {q}/x",
        f"sudo -u root touch {q}/x",
        f"timeout 5 nohup cp a {q}/",
        f"pushd {q} && touch x",
        f"cd /tmp && cd {q} && touch x",
        f"(cd {q}; rm -f y)",
        f"git -C {q} commit -m x",
        f"python3 -c \"open('{qa(engine)}/x', 'w').write('y')\"",
        f"perl -e 'open(F, \">{qa(engine)}/x\")'",
        f"tar -C {q} -xf /tmp/a.tar",
        f"cp -t {q} a b",
        f"mv a {q}/b",
        f"ln -s x {q}/y",
        f"echo x > $(echo {q})/f",
        f"echo x > {state}",
        "git update-ref refs/heads/t1-qa HEAD",
        "git branch -f t1-qa HEAD",
        "git push . HEAD:t1-qa",
        "git fetch . HEAD:t1-qa",
        "git update-ref refs/heads/main HEAD",  # the base branch: only land moves it (#39)
        "git branch -f main HEAD",
        "git push . HEAD:main",
        "git replace HEAD HEAD~1",  # a replacement object in a journal's place (#39)
        "git replace --graft HEAD",
        "git update-ref refs/replace/0123456789abcdef0123456789abcdef01234567 HEAD",
        "git push . HEAD:refs/replace/0123456789abcdef0123456789abcdef01234567",
        "git update-ref -d refs/taskproto/tasks/t1",
        "git commit --no-verify -m x",
        "git -c core.hooksPath=/dev/null commit -m x",
        "git config core.hooksPath /tmp/nohooks",
        f"rm {shlex.quote(str(engine.config.common_dir / 'hooks' / 'pre-commit'))}",
        f"echo '{{}}' > {shlex.quote(d)}/.claude/settings.local.json",
        f"{shlex.quote(sys.executable)} -m taskproto approve t1 --commit",
        "TASKPROTO_SESSION=other taskproto claim t1",
        "taskproto --session other release t1",
        "taskproto release t1 --force",
        "taskproto init --uninstall",
        "taskproto rollback t1 --to SYNTHESIS",
        "bash -c 'taskproto rollback t1 --revision 1'",
        f"{shlex.quote(sys.executable)} -m taskproto ack t1",
        "cd / && taskproto ack t1",
        "taskproto land t1",
        "taskproto land t1 --update",
        "taskproto update t1",
        "taskproto queue add t1",
        "taskproto queue run --once",
        "taskproto resume t1",
        "export TASKPROTO_INTERNAL=1; git branch -f t1-qa HEAD",
        "unset CLAUDECODE && taskproto task list",
        f"env -u CLAUDECODE {shlex.quote(sys.executable)} -m taskproto task list",
    ]


def test_every_escape_is_denied(t1: Engine, hook: Hook) -> None:
    (dev(t1) / ".claude").mkdir(exist_ok=True)
    allowed_before = {cmd: bash(hook, cmd, str(dev(t1))) for cmd in escapes(t1)}
    let_through = {cmd: err for cmd, (code, err) in allowed_before.items() if code != 2}
    assert let_through == {}


@pytest.mark.parametrize(
    "command",
    [
        "touch x && git add x && git commit -m 'work'",
        "python3 -c 'print(1)'",
        "ls ../../qa/code",
        "cat ../../../task.json",
        "git status && git log --oneline -3 && git diff",
        "git branch",
        "taskproto task show t1",
        "taskproto agent set t1 dev --status COMPLETE",
        "echo ok > /tmp/scratch.txt",
    ],
)
def test_ordinary_work_passes(t1: Engine, hook: Hook, command: str) -> None:
    assert bash(hook, command, str(dev(t1))) == (0, "")


def test_a_script_is_read_for_what_it_does(t1: Engine, hook: Hook) -> None:
    script = dev(t1) / "go.sh"
    script.write_text(f"#!/bin/sh\ntouch {shlex.quote(str(qa(t1)))}/x\n")
    assert bash(hook, "bash go.sh", str(dev(t1)))[0] == 2
    py = dev(t1) / "go.py"
    py.write_text(f"open({str(t1.config.task_file('t1'))!r}, 'w').write('{{}}')\n")
    code, err = bash(hook, "python3 go.py", str(dev(t1)))
    assert code == 2 and "names taskproto's own files" in err


def test_where_the_target_cannot_be_named_the_state_decides(t1: Engine, hook: Hook) -> None:
    command = "python3 -c \"import os; os.remove(os.environ['X'])\""
    assert bash(hook, command, str(dev(t1)))[0] == 0  # IMPLEMENTATION: edits allowed
    t1.create_task("t3", ["dev"])
    t1.claim("t3", "s3")
    wt = t1.config.agent_worktree("t3", "dev")
    code, err = bash(hook, command, str(wt), session="s3")  # INIT: no edits
    assert code == 2 and "does not allow edits" in err


def test_a_question_pauses_edits_until_the_user_resumes(t1: Engine, hook: Hook) -> None:
    from taskproto.ops.interrupts import record, resume

    record(t1, "t1", "what does the retry do?", SESSION)
    code, err = write(hook, str(dev(t1) / "x.py"), str(dev(t1)))
    assert code == 2 and "waits for the user: they interrupted with a QUESTION" in err
    resume(t1, "t1", "user")
    assert write(hook, str(dev(t1) / "x.py"), str(dev(t1)))[0] == 0


@pytest.mark.parametrize(
    "command",
    [
        "ln -s ../../../task.json notes.json && echo '{{}}' > notes.json",
        "ln {task} notes.json",  # a hard link: the same file
        "ln -s {task} -t .",
        "cp -al {task} notes.json",
        "cp --symbolic-link {task} notes.json",
        "git checkout HEAD -- {task}",
        "git restore --source HEAD {task}",
        "git checkout other {offer}",
        "ln -s {offer} x && echo 'No task is free' > x",
    ],
)
def test_a_link_made_or_a_path_checked_out_in_the_same_command_is_a_write(
    t1: Engine, hook: Hook, command: str
) -> None:
    """A link made by the command itself (the guard cannot resolve it beforehand), or git writing
    a path over taskproto's state: the state is the target."""
    task = t1.config.task_file("t1")
    offer = t1.config.root / "cache" / "quiet" / "offer" / "claude"
    line = command.format(task=shlex.quote(str(task)), offer=shlex.quote(str(offer)))
    code, err = bash(hook, line, str(dev(t1)))
    assert code == 2 and "taskproto's own state" in err, (line, err)
    assert bash(hook, "ln -s own.py other.py && git checkout -- own.py", str(dev(t1)))[0] == 0
    assert bash(hook, "cp -a own.py other.py", str(dev(t1)))[0] == 0


def test_a_write_beside_the_agents_worktree_says_where_files_are_edited(
    t1: Engine, hook: Hook
) -> None:
    """Found walking a new user's day: Claude Code's `cd .. && echo x > escaped.txt` from the
    agent's worktree was denied as "taskproto's own state ... Use the taskproto commands (claim,
    transition, agent) instead", which told the agent nothing of where its files go."""
    code, err = bash(hook, "cd .. && echo x > escaped.txt", str(dev(t1)))
    assert code == 2 and "taskproto's own state" in err, err
    assert "edit files only in a worktree (a task's or an agent's `code` folder)" in err, err


@pytest.mark.parametrize(
    "command",
    [
        "cd q && git commit --allow-empty -m x",
        "cd q; git commit --allow-empty -m x",
        "ln -s ../../qa/code p && cd p && git commit --allow-empty -m x",
        "GIT_DIR=../../qa/code/.git GIT_WORK_TREE=../../qa/code git commit --allow-empty -m x",
        "export GIT_DIR=q/.git GIT_WORK_TREE=q; git commit --allow-empty -m x",
        "git --git-dir=../../qa/code/.git --work-tree=../../qa/code commit --allow-empty -m x",
        "git --git-dir q/.git --work-tree q commit --allow-empty -m x",
    ],
)
def test_git_moved_into_another_agents_worktree_is_denied(
    t1: Engine, hook: Hook, command: str
) -> None:
    """Beside `git -C ../../qa/code`: a link to qa's worktree (`q`, made before, or in the same
    command), GIT_DIR and GIT_WORK_TREE, `--git-dir` and `--work-tree`: each names qa's worktree,
    resolved, as where the command writes."""
    (dev(t1) / "q").symlink_to("../../qa/code")
    code, err = bash(hook, command, str(dev(t1)))
    assert code == 2, (command, err)
    assert err.startswith(f"taskproto: {qa(t1)} is outside this agent's worktree of task t1"), err


@pytest.mark.parametrize(
    ("command", "whose"),
    [
        ("git --git-dir=../../qa/code/.git commit --allow-empty -m x", "qa"),
        ("git --git-dir ../../qa/code/.git commit --allow-empty -m x", "qa"),
        ("GIT_DIR=../../qa/code/.git git commit --allow-empty -m x", "qa"),
        ("export GIT_DIR=q/.git; git commit --allow-empty -m x", "qa"),
        ("git --git-dir={main}/.git commit --allow-empty -m x", "main"),
        ("git --git-dir=../../../../../../.git commit --allow-empty -m x", "main"),
        ("GIT_DIR={main}/.git git commit --allow-empty -m x", "main"),
        ("git --git-dir={main}/.git --work-tree=. commit --allow-empty -m x", "main"),
        ("git -C {main} --git-dir=.git reset --hard HEAD", "main"),
    ],
)
def test_a_git_dir_not_the_agents_own_is_denied(
    t1: Engine, hook: Hook, command: str, whose: str
) -> None:
    """`--git-dir` or GIT_DIR naming qa's or the main repository's git dir, no work tree: git
    works in dev's worktree, but the branch it moves is that git dir's HEAD's (qa's, main). The
    guard names the worktree the git dir belongs to as where the command writes."""
    (dev(t1) / "q").symlink_to("../../qa/code")
    main = t1.config.repo
    code, err = bash(hook, command.format(main=main), str(dev(t1)))
    assert code == 2, (command, err)
    other = qa(t1) if whose == "qa" else main
    assert err.startswith(f"taskproto: {other} is outside this agent's worktree of task t1"), err


@pytest.mark.parametrize(
    "command",
    [
        "git --git-dir=.git commit --allow-empty -m x",
        "GIT_DIR=.git git commit --allow-empty -m x",
        "git --git-dir=../../qa/code/.git log -1",
        "git --git-dir={main}/.git status",
    ],
)
def test_the_agents_own_git_dir_or_a_read_passes(t1: Engine, hook: Hook, command: str) -> None:
    code, err = bash(hook, command.format(main=t1.config.repo), str(dev(t1)))
    assert code == 0, (command, err)


def test_a_git_dir_the_guard_cannot_read_is_left_to_the_git_hook(t1: Engine, hook: Hook) -> None:
    """A command substitution is not evaluated by the tool guard: the call passes, and the
    reference-transaction hook (the backstop) refuses the move when the command runs."""
    from taskproto.git.command import Git
    from taskproto.hooks.git import install

    install.install(Git(t1.config.repo))
    command = (
        "export GIT_DIR=$(git -C ../../qa/code rev-parse --absolute-git-dir); "
        "git commit --allow-empty -qm x"
    )
    code, err = bash(hook, command, str(dev(t1)))
    assert code == 0, err  # passed on: the guard cannot tell which git dir
    before = git(t1.config.repo, "for-each-ref", "--format=%(refname) %(objectname)")
    proc = subprocess.run(
        ["sh", "-c", command], cwd=dev(t1), capture_output=True, text=True, check=False
    )
    assert proc.returncode != 0
    assert [line for line in proc.stderr.splitlines() if line.startswith("taskproto:")] == [
        "taskproto: refused: moving branch 't1-qa' (agent qa of task t1) from the worktree of "
        "agent dev of task t1; an agent moves only its own branch (merging agents into the task "
        "branch is `taskproto merge t1`)"
    ], proc.stderr
    assert git(t1.config.repo, "for-each-ref", "--format=%(refname) %(objectname)") == before


# --- the hooks' own settings, from a session that owns no task ------------------------------


def no_task_settings(engine: Engine) -> list[str]:
    repo = shlex.quote(str(engine.config.repo))
    return [
        "git config core.hooksPath /tmp/nohooks",
        "git config --local core.hooksPath /tmp/nohooks",
        "git config --unset core.hooksPath",
        "git -c core.hooksPath=/dev/null commit -m x",
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/x git commit -m x",
        "bash -c 'git config core.hooksPath /tmp/nohooks'",
        f"cd /tmp && git -C {repo} config core.hooksPath /tmp/nohooks",
        "python3 -c \"import os; os.system('git config core.hooksPath /x')\"",
    ]


def test_a_session_that_owns_no_task_cannot_turn_the_hooks_off(t1: Engine, hook: Hook) -> None:
    """The git hooks guard every task's branches and journals, whichever session runs git. A
    session that owns no task (in the main worktree, t1 owned by another) pointing them away
    (`core.hooksPath` written, or set for one command) would unguard every task: refused, through
    another shell, another cwd and code handed to an interpreter. The same settings only read,
    and the session's other git, pass."""
    main = str(t1.config.repo)
    let_through = {}
    for command in no_task_settings(t1):
        code, err = bash(hook, command, main, session="s-free")
        if code != 2:
            let_through[command] = err
    assert let_through == {}
    code, err = bash(hook, "git config core.hooksPath /tmp/nohooks", main, session="s-free")
    assert "the user's to change, in their own terminal" in err, err
    assert err.count("\n") <= 1, err
    pyproject = str(t1.config.repo / "pyproject.toml")
    data = payload(
        "claude",
        "PreToolUse",
        session_id="s-free",
        cwd=main,
        tool_input={"file_path": pyproject, "content": "[tool.taskproto]\nbase_branch = 'x'\n"},
    )
    assert hook("claude", "PreToolUse", data)[0] == 2
    for command in (
        "git config --get core.hooksPath",
        "git config core.hooksPath",
        "git config user.name somebody",
        "git commit --no-verify -m x",
        "git status",
    ):
        assert bash(hook, command, main, session="s-free")[0] == 0, command
    # a task's session reads the setting too (it was refused as a write before)
    assert bash(hook, "git config --get core.hooksPath", str(dev(t1)))[0] == 0


def test_git_s_other_doors_to_where_it_runs_hooks_are_shut(
    t1: Engine, hook: Hook, tmp_path: Path
) -> None:
    """core.hooksPath set without naming it the way the guard read: `--config-env`, an include
    (whose file sets it) written or set for one command, a settings file of git's own
    (GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM) or a folder of its own (HOME, XDG_CONFIG_HOME: set
    for the command, through `env`, or exported), its section removed or the config handed to an
    editor. Each turns the hooks off (git runs none: checked on a real repository first), so each
    is refused a session that owns no task; the same commands' harmless kin pass."""
    off = tmp_path / "off.cfg"
    off.write_text("[core]\n\thooksPath = /dev/null\n")
    home, xdg = tmp_path / "home", tmp_path / "xdg"
    (xdg / "git").mkdir(parents=True)
    home.mkdir()
    (home / ".gitconfig").write_text(off.read_text())
    (xdg / "git" / "config").write_text(off.read_text())
    scratch = tmp_path / "scratch"
    git(tmp_path, "init", "-q", str(scratch))
    (scratch / ".git" / "hooks" / "pre-commit").write_text("#!/bin/sh\nexit 1\n")
    (scratch / ".git" / "hooks" / "pre-commit").chmod(0o755)
    doors = [
        f"git -c include.path={off} commit -q --allow-empty -m x",
        f"GIT_CONFIG_GLOBAL={off} git commit -q --allow-empty -m x",
        "OFF=/dev/null git --config-env=core.hooksPath=OFF commit -q --allow-empty -m x",
        f"HOME={home} git commit -q --allow-empty -m x",
        f"env XDG_CONFIG_HOME={xdg} git commit -q --allow-empty -m x",
        f"export HOME={home}; git commit -q --allow-empty -m x",
    ]
    for command in doors:  # each one really runs no hook
        ran = subprocess.run(["sh", "-c", command], cwd=scratch, capture_output=True)
        assert ran.returncode == 0, (command, ran.stderr)
    doors += [
        f"GIT_CONFIG_SYSTEM={off} git commit -m x",  # the suite's git reads no system file
        "OFF=/dev/null git --config-env core.hooksPath=OFF commit -m x",
        f"git config include.path {off}",
        f"git config --global include.path {off}",
        f"git config includeIf.onbranch:main.path {off}",
        f"env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=include.path GIT_CONFIG_VALUE_0={off} git commit",
        "git config --remove-section core",
        "git config --rename-section core old",
        "GIT_EDITOR='sed -i /hooksPath/d' git config --edit",
        "git -c alias.ci='!git config core.hooksPath /x' ci",  # an alias that sets it
        "git config alias.ci '!git config core.hooksPath /x'",
        "git submodule foreach 'cd $toplevel && git config core.hooksPath /x'",
    ]
    main = str(t1.config.repo)
    let_through = {}
    for command in doors:
        code, err = bash(hook, command, main, session="s-free")
        if code != 2 or "the user's to change, in their own terminal" not in err:
            let_through[command] = err
    assert let_through == {}
    for command in (
        "git config --get include.path",
        "git config include.path",
        "git config --remove-section alias",
        "git -c user.name=x commit -m x",
        "GIT_CONFIG_GLOBAL=/dev/null git status",
        f"GIT_CONFIG_GLOBAL=/dev/null HOME={home} git commit -m x",
        f"HOME={home} ls",
        "HOME=$HOME git status",
        "export HOME=$HOME; git status",
        "git --config-env=user.name=USER log -1",
        "git config alias.st status",
        "git submodule update --init",
    ):
        assert bash(hook, command, main, session="s-free")[0] == 0, command


def test_an_agents_other_config_write_is_refused_for_what_it_is(t1: Engine, hook: Hook) -> None:
    """git's settings are the user's: an agent's `git config user.name x` is refused, and the
    line names that setting, not core.hooksPath, which the command never touched."""
    code, err = bash(hook, "git config user.name x", str(dev(t1)))
    assert code == 2
    assert "`git config user.name` writes git's settings" in err, err
    assert "hooksPath" not in err, err
    assert err.count("\n") <= 1, err


# --- the interpreter the hooks run ------------------------------------------------------------


def test_the_hooks_interpreter_is_never_swapped(t1: Engine, hook: Hook, tmp_path: Path) -> None:
    """git's hooks and the clients' launchers run this interpreter by the name it was started by;
    in a venv that is a link, and a link (or file) put in its place, or a venv's `pyvenv.cfg`
    pointed at another home, would run the agent's program as the hooks. Refused by path, from
    another cwd, through a link to its folder and by the Write tool; the session owning no task
    too. An agent's own venv in its worktree is its own."""
    python = Path(sys.executable)
    folder = shlex.quote(str(python.parent))
    alias = tmp_path / "bin"
    alias.symlink_to(python.parent)
    cfg = shlex.quote(str(Path(sys.prefix) / "pyvenv.cfg"))
    commands = [
        f"ln -sf /bin/sh {shlex.quote(str(python))}",
        f"cp /bin/sh {shlex.quote(str(python))}",
        f"cd {folder} && ln -sf /bin/sh {python.name}",
        f"ln -sf /bin/sh {shlex.quote(str(alias / python.name))}",
        f"echo home = /tmp/evil > {cfg}",
        f"mv /tmp/evil {shlex.quote(str(python))}",
    ]
    let_through = {}
    for session, cwd in ((SESSION, str(dev(t1))), ("s-free", str(t1.config.repo))):
        for command in commands:
            code, err = bash(hook, command, cwd, session=session)
            if code != 2 or "is the interpreter taskproto's hooks run" not in err:
                let_through[(session, command)] = err
        code, err = write(hook, str(python), cwd, session=session)
        if code != 2:
            let_through[(session, "Write")] = err
    assert let_through == {}
    # the refusal names the link as typed, not the interpreter it names
    code, err = bash(hook, f"ln -sf /bin/sh {shlex.quote(str(python))}", str(dev(t1)))
    assert f"{os.path.realpath(python.parent)}/{python.name} is the interpreter" in err, err
    own = dev(t1) / ".venv" / "bin"
    code, err = bash(hook, f"mkdir -p {own} && cp /bin/sh {own}/python", str(dev(t1)))
    assert code == 0, err


def test_gits_configuration_for_every_repository_is_the_users(t1: Engine, hook: Hook) -> None:
    """`core.hooksPath` in the user's or the system's git configuration, or in a file a command
    has git read instead (GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM), points every repository's git
    away from taskproto's hooks: written by path, through `$HOME` and `~`, by the Write tool, or
    named for a command, refused to a task's session and to one that owns no task. Reading it
    passes."""
    home = os.path.realpath(os.environ.get("HOME") or os.path.expanduser("~"))
    commands = [
        "printf '[core]\\n\\thooksPath = /tmp/x\\n' >> ~/.gitconfig",
        "mkdir -p $HOME/.config/git && echo '[core]' > $HOME/.config/git/config",
        f"cp /tmp/evil {shlex.quote(home)}/.gitconfig",
        "GIT_CONFIG_GLOBAL=/tmp/evil git commit -m x",
        "export GIT_CONFIG_GLOBAL=/tmp/evil; git commit -m x",
        "env GIT_CONFIG_SYSTEM=/tmp/evil git commit -m x",
        "HOME=/tmp/evil git commit -m x",
        "cd /tmp && export XDG_CONFIG_HOME=/tmp/evil && git -C - commit -m x",
        "git config --global core.hooksPath /tmp/x",
    ]
    let_through = {}
    for session, cwd in ((SESSION, str(dev(t1))), ("s-free", str(t1.config.repo))):
        for command in commands:
            code, err = bash(hook, command, cwd, session=session)
            if code != 2:
                let_through[(session, command)] = err
        code, err = write(hook, os.path.join(home, ".gitconfig"), cwd, session=session)
        if code != 2 or "git's configuration for every repository" not in err:
            let_through[(session, "Write")] = err
        for command in ("cat ~/.gitconfig", "git config --global --get user.name"):
            code, err = bash(hook, command, cwd, session=session)
            if code != 0:
                let_through[(session, command, "a read refused")] = err
    assert let_through == {}


def test_the_venv_behind_the_installed_hook_command_is_guarded(t1: Engine) -> None:
    """The hook command `init --claude` writes runs `python -I -S`: without site, sys.prefix is
    the base interpreter's, not the venv's. The venv's `pyvenv.cfg` and its site-packages'
    start-up files (`*.pth`, `sitecustomize.py`) are still refused, an agent's and a session that
    owns no task's, through that very command as the client runs it (they passed there, or were
    refused only for their place, while the in-process hook refused them)."""
    repo = t1.config.repo
    init = [sys.executable, "-m", "taskproto", "init", "--claude"]
    subprocess.run(init, cwd=repo, check=True, capture_output=True)
    settings = json.loads((repo / ".claude" / "settings.local.json").read_text())
    command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    # the venv the suite runs in, or (as on CI) the interpreter's own prefix, where a pyvenv.cfg
    # written would make it one
    venv = Path(sys.executable).parent.parent
    site = venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    cfg, pth = shlex.quote(str(venv / "pyvenv.cfg")), shlex.quote(str(site / "evil.pth"))
    calls = [
        {"file_path": str(venv / "pyvenv.cfg"), "content": "home = /tmp/evil\n"},
        {"file_path": str(site / "sitecustomize.py"), "content": "import os\n"},
        {"command": f"echo home = /tmp/evil > {cfg}"},
        {"command": f"echo 'import os' > {pth}"},
    ]
    let_through = {}
    for session, cwd, tool_input in (
        (session, cwd, tool_input)
        for session, cwd in ((SESSION, dev(t1)), ("s-free", repo))  # s-free owns no task
        for tool_input in calls
    ):
        variant = {"variant": "Bash"} if "command" in tool_input else {}
        data = payload(
            "claude",
            "PreToolUse",
            session_id=session,
            cwd=str(cwd),
            tool_input=tool_input,
            **variant,
        )
        ran = subprocess.run(["sh", "-c", command], cwd=cwd, input=data, capture_output=True)
        if ran.returncode != 2 or not re.search(
            rb"interpreter runs at start-up|the venv setting that picks it", ran.stderr
        ):
            let_through[(session, str(tool_input))] = ran.stderr.decode()
    assert let_through == {}


def test_what_is_never_an_agents_is_not_moved_away_either(t1: Engine, hook: Hook) -> None:
    """`mv` takes a file away as `rm` does: task.json, the client's hook settings, git's config,
    the hooks' launcher and taskproto's own code moved out are refused like deleted (they passed,
    while `rm` of each was refused); and so is a folder holding what the hooks run (taskproto's
    package, the folder their interpreter is named in), deleted or moved, as a folder holding the
    root is. Moving an agent's own files passes."""
    repo = t1.config.repo
    subprocess.run(
        [sys.executable, "-m", "taskproto", "init", "--claude"],
        cwd=repo,
        check=True,
        capture_output=True,
    )
    code = Path(protected.__file__).parent
    taken = [
        t1.config.task_file("t1"),
        repo / ".claude" / "settings.local.json",
        repo / ".git" / "config",
        repo / ".git" / "taskproto-hooks" / "agent.py",
        code / "entry.py",
        code,
    ]
    folders = [Path(sys.executable).parent, code.parent.parent]  # bin/, the package itself
    let_through = {}
    for session, cwd in ((SESSION, str(dev(t1))), ("s-free", str(repo))):
        for command in [f"mv {shlex.quote(str(p))} /tmp/taken-away" for p in taken] + [
            f"{verb} {shlex.quote(str(p))}{away}"
            for p in folders
            for verb, away in (("mv", " /tmp/taken-away"), ("rm -rf", ""))
        ]:
            code_, err = bash(hook, command, cwd, session=session)
            if code_ != 2:
                let_through[(session, command)] = err
    assert let_through == {}
    own = dev(t1)
    assert bash(hook, "touch a.txt && mv a.txt b.txt", str(own))[0] == 0
