"""The tool guard and the commands it cannot read. An agent that wants past the guard's branch and
commit rules writes git so that its name or subcommand is known only when the shell runs it: a
variable, a command substitution, xargs, a shell fed a here-document or a pipe, `find -exec`, `su
-c`, a git alias set with -c. Each is read (variables the line sets, here-documents, find's and
xargs' commands), or, in a session that works on a task, denied in one line that says why and what
to do. Code handed to an interpreter (python, perl) is not read for the commands it runs: the git
hook is what stops it, proved here through the installed hook. Each client's captured real payload
(Claude Code, Codex CLI, Gemini CLI), through the real hook entry point."""

from __future__ import annotations

import shlex

import pytest

from taskproto.engine import Engine
from tests.enforcement.test_agent_session_branches import RULE, SESSION, refs, run
from tests.enforcement.test_tool_guard_compound import SHAPES
from tests.enforcement.test_tool_guard_escapes import dev, qa
from tests.hooks.agents.conftest import Hook, payload

pytest_plugins = [
    "tests.enforcement.test_tool_guard_escapes",  # its t1 fixture
    "tests.enforcement.test_agent_session_branches",  # its owned fixture
]

# each client's shell tool: the event and the captured payload's variant
CLIENTS = {
    "claude": ("PreToolUse", "Bash"),
    "codex": ("PreToolUse", None),
    "gemini": ("BeforeTool", "run_shell_command"),
}
LAUNCHED = {"TASKPROTO_AGENT": "1", "TASKPROTO_TASK": "t1", "TASKPROTO_AGENT_NAME": "dev"}

# {g} git, {a} its arguments, {a0} their first word, {ar} the rest
FORMS = [
    'eval "{g} {a}"',
    "c={a0}; {g} $c {ar}",
    "g=git; $g {a}",
    "G=git; ${{G}} {a}",
    "${{NOT_SET:-git}} {a}",
    "export g=git; $g {a}",
    '"$(echo git)" {a}',
    "$(which git) {a}",
    "`which git` {a}",
    'a=(git {a}); "${{a[@]}}"',
    "sh -c '{g} {a}'",
    "bash -lc '{g} {a}'",
    "echo {ar} | xargs {g} {a0}",
    "echo {a} | xargs {g}",
    "echo {a0} | xargs -I@ {g} @ {ar}",
    "parallel {g} {{}} {ar} ::: {a0}",
    "env {g} {a}",
    "command {g} {a}",
    "exec {g} {a}",
    "\\git {a}",
    "'git' {a}",
    "nohup {g} {a}",
    "time {g} {a}",
    "sh <<EOF\n{g} {a}\nEOF",
    "bash <<'EOF'\n{g} {a}\nEOF",
    "sh -s <<< '{g} {a}'",
    "echo '{g} {a}' | sh",
    "printf '%s' '{g} {a}' | bash",
    "source <(echo '{g} {a}')",
    "sh /nonexistent/script.sh",
    "find . -maxdepth 0 -exec {g} {a} \\;",
    "find . -maxdepth 0 -execdir {g} {a} +",
    "script -qc '{g} {a}' /dev/null",
    "su -c '{g} {a}'",
    "git -c alias.x='{a}' x",
    "git -c alias.x='!git {a}' x",
]


def shell(hook: Hook, client: str, command: str, cwd: str) -> tuple[int, str]:
    event, variant = CLIENTS[client]
    data = payload(
        client, event, variant=variant, session_id=SESSION, cwd=cwd, tool_input={"command": command}
    )
    code, _, err = hook(client, event, data, env=None if client == "claude" else LAUNCHED)
    return code, err


def _moves(engine: Engine) -> list[str]:
    """Commands the guard refuses when written plainly (another agent's worktree, the base
    branch), and taskproto's user-only command."""
    return [
        f"git -C {shlex.quote(str(qa(engine)))} commit -m x",
        "git branch -f main HEAD",
        "git update-ref refs/heads/main HEAD",
    ]


@pytest.mark.parametrize("client", sorted(CLIENTS))
@pytest.mark.parametrize("form", FORMS)
def test_a_command_written_to_hide_git_is_read_or_denied(
    t1: Engine, hook: Hook, client: str, form: str
) -> None:
    for plain in _moves(t1):
        assert shell(hook, client, plain, str(dev(t1)))[0] == 2, plain
        a0, ar = plain[4:].split(" ", 1)
        command = form.format(g="git", a=plain[4:], a0=a0, ar=ar)
        code, err = shell(hook, client, command, str(dev(t1)))
        assert code == 2, (client, command, err)
        assert err.count("\n") == 1 and err.startswith("taskproto: "), err


def test_what_it_cannot_read_is_denied_in_one_line_that_says_what_to_do(
    t1: Engine, hook: Hook
) -> None:
    code, err = shell(hook, "claude", '"$(echo git)" status', str(dev(t1)))
    assert code == 2
    assert err == (
        "taskproto: the guard cannot read what this command runs (the command's name, $(...)), "
        "and this session works on task t1: write the command out, its name and git's "
        "subcommand as plain words (a script as a file run by `sh FILE`).\n"
    )
    code, err = shell(hook, "claude", "echo 'git status' | sh", str(dev(t1)))
    assert code == 2 and "(the commands sh reads from its input)" in err, err
    # a session that works on no task is not held to it (the git hook holds its branches)
    data = payload(
        "claude",
        "PreToolUse",
        variant="Bash",
        session_id="s-none",
        cwd=str(t1.config.repo),
        tool_input={"command": '"$(echo git)" status'},
    )
    assert hook("claude", "PreToolUse", data)[0] == 0


@pytest.mark.parametrize("client", sorted(CLIENTS))
@pytest.mark.parametrize(
    "command",
    [
        "g=git; $g status && $g log --oneline -3",
        '"${PYTHON:-python3}" -c "print(1)"',
        "find . -name '*.py' -exec grep -l widget {} \\;",
        "git ls-files | xargs wc -l",
        "ls | xargs -I{} echo {}",
        "sh <<'EOF'\ngit status\ntouch x\nEOF",
        "bash -s <<< 'git diff'",
        "python3 <<'EOF'\nprint(1)\nEOF",
        "for f in *.py; do echo $f; done",
    ],
)
def test_ordinary_work_that_it_reads_passes(
    t1: Engine, hook: Hook, client: str, command: str
) -> None:
    assert shell(hook, client, command, str(dev(t1))) == (0, ""), command


@pytest.mark.parametrize("client", ["codex", "gemini"])
@pytest.mark.parametrize("shape", SHAPES)
def test_codex_and_gemini_compound_commands_meet_the_guard(
    t1: Engine, hook: Hook, client: str, shape: str
) -> None:
    """test_tool_guard_compound.py's shapes, in Codex's and Gemini's shell payloads."""
    for command in [*_moves(t1), "taskproto land t1"]:
        alone = shell(hook, client, command, str(dev(t1)))
        assert alone[0] == 2, (command, alone)
        assert shell(hook, client, shape.format(c=command), str(dev(t1))) == alone, shape
    assert shell(hook, client, shape.format(c="git status && touch x"), str(dev(t1))) == (0, "")


INTERPRETED = [
    "python3 -c \"import subprocess; subprocess.run(['git', '-C', '{repo}', 'commit', "
    "'--allow-empty', '-qm', 'x'])\"",
    'perl -e \'system("git", "-C", "{repo}", "commit", "--allow-empty", "-qm", "x")\'',
]


@pytest.mark.parametrize("command", INTERPRETED, ids=["python", "perl"])
def test_git_run_by_an_interpreters_code_is_stopped_by_the_git_hook(
    owned: Engine, hook: Hook, command: str
) -> None:
    """The guard does not read code for the commands it runs: it lets this through (the task's
    state allows edits and the target is unknown), and the installed reference-transaction hook
    refuses the move of `main` from the agent session, as docs/agents.md says."""
    repo = owned.config.repo
    task_wt = owned.config.task_worktree("t1")
    line = command.format(repo=repo)
    data = payload(
        "claude",
        "PreToolUse",
        variant="Bash",
        session_id=SESSION,
        cwd=str(task_wt),
        tool_input={"command": line},
    )
    assert hook("claude", "PreToolUse", data, env={"TASKPROTO_AGENT": "1"})[0] == 0
    before = refs(repo)
    proc = run(line, task_wt)
    assert refs(repo) == before, proc.stderr
    assert (
        f"taskproto: refused: moving refs/heads/main: this git runs in agent session {SESSION} "
        f"(TASKPROTO_AGENT=1, as its client's commands run), {RULE}refs/heads/main is no branch "
        "of task t1, this session's"
    ) in proc.stderr, proc.stderr
    assert run("git commit --allow-empty -qm mine", task_wt).returncode == 0  # its own: moves
    assert refs(repo) != before
