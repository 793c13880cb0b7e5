"""`taskproto completion bash|zsh|fish`: each shell's real completion of commands, task names,
agent names, state names and workflow names, with the script `taskproto completion SHELL` prints
loaded as docs/completion.md says."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import make_repo
from tests.ptyshell import Shell, shell_env


@pytest.fixture
def tasks(cli, repo: Path) -> Path:  # type: ignore[no-untyped-def]
    """A repository with two tasks: fix-login (agents dev and qa, in INIT) and add-tests."""
    assert cli("task", "create", "fix-login", "--agents", "dev,qa").code == 0
    assert cli("task", "create", "add-tests", "--workflow", "tight-loop").code == 0
    return repo


def needs(shell: str) -> str:
    path = shutil.which(shell)
    if path is None:
        pytest.skip(f"{shell} is not installed (apt-get install {shell}; .ci/run does)")
    return path


@pytest.mark.parametrize(
    ("shell", "marks"),
    [
        ("bash", ("complete -o nosort -F _taskproto_completion taskproto", "=bash_complete")),
        ("zsh", ("#compdef taskproto", "=zsh_complete")),
        ("fish", ("complete --no-files --command taskproto", "=fish_complete")),
    ],
)
def test_completion_prints_the_shells_script(cli, shell: str, marks: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    r = cli("completion", shell)
    assert r.code == 0 and r.err == ""
    assert "_TASKPROTO_COMPLETE" in r.out
    for mark in marks:
        assert mark in r.out


def test_completion_of_a_shell_it_does_not_know_is_a_usage_error(cli) -> None:  # type: ignore[no-untyped-def]
    r = cli("completion", "tcsh")
    assert r.code == 2 and "'tcsh' is not one of 'bash', 'zsh', 'fish'" in r.err


# (the words after `taskproto`, the last one being completed; what bash offers)
BASH_CASES = [
    (["tr"], ["transition"]),
    (["claim", ""], ["add-tests", "fix-login"]),
    (["task", "show", "f"], ["fix-login"]),
    (["agent", "set", "fix-login", ""], ["dev", "qa"]),
    (["merge", "fix-login", "--agent", ""], ["dev", "qa"]),
    (["transition", "fix-login", ""], ["CLASSIFIED"]),
    (["transition", "fix-login", "cl"], ["CLASSIFIED"]),
    (["fire", "fix-login", ""], ["classify"]),
    (["rollback", "fix-login", "--to", "RE"], ["REQUIREMENTS", "REVIEW"]),
    (["handoff", "add-tests", "--decision", "YES", "--to", ""], ["EXECUTE"]),
    (["task", "create", "new", "--workflow", "t"], ["task-protocol", "tight-loop"]),
    (["workflow", "show", "p"], ["phone-a-team", "plan-task"]),
    (["dep", "add", "add-tests", "--on", "f"], ["fix-login"]),
    (["task", "create", ""], []),
    (["claim", "--f"], ["--force"]),
]


def bash_completions(cwd: Path, script: str, cases: list[list[str]]) -> list[list[str]]:
    """What bash's completion function, from the script, puts in COMPREPLY for each line."""
    lines = [f"source {script}"]
    for words in cases:
        quoted = " ".join(f"'{w}'" for w in ["taskproto", *words])
        lines.append(
            f"COMP_WORDS=({quoted}); COMP_CWORD={len(words)}; COMPREPLY=(); "
            "_taskproto_completion taskproto; printf '%s|' \"${COMPREPLY[@]}\"; echo"
        )
    proc = subprocess.run(
        [needs("bash"), "--norc", "--noprofile", "-c", "\n".join(lines)],
        cwd=cwd,
        env=shell_env(),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return [[w for w in line.split("|") if w] for line in proc.stdout.splitlines()]


def script(tmp_path: Path, cli, shell: str) -> Path:  # type: ignore[no-untyped-def]
    path = tmp_path / f"taskproto.{shell}"
    path.write_text(cli("completion", shell).out)
    return path


def test_bash_completes_commands_tasks_agents_states_and_workflows(
    cli, tasks: Path, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    found = bash_completions(
        tasks, str(script(tmp_path, cli, "bash")), [words for words, _ in BASH_CASES]
    )
    assert found == [want for _, want in BASH_CASES]


def test_completion_reads_the_repository_given_with_C(cli, tasks: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    elsewhere = make_repo(tmp_path / "elsewhere")
    found = bash_completions(
        elsewhere,
        str(script(tmp_path, cli, "bash")),
        [
            ["claim", "f"],
            ["-C", str(tasks), "claim", "f"],
            ["-C", str(tasks), "agent", "set", "fix-login", ""],
        ],
    )
    assert found == [[], ["fix-login"], ["dev", "qa"]]


def test_fish_offers_every_candidate(cli, tasks: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    fish = needs("fish")
    path = script(tmp_path, cli, "fish")
    lines = [
        "taskproto tr",
        "taskproto claim ",
        "taskproto agent set fix-login ",
        "taskproto transition fix-login ",
    ]
    code = "; ".join(f"echo '#'; complete -C '{line}'" for line in lines)
    proc = subprocess.run(
        [fish, "--no-config", "-c", f"source {path}; {code}"],
        cwd=tasks,
        env=shell_env(
            XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data")
        ),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    offered = [
        [c.split("\t")[0] for c in block.strip().splitlines()]
        for block in proc.stdout.split("#\n")[1:]
    ]
    assert offered == [["transition"], ["add-tests", "fix-login"], ["dev", "qa"], ["CLASSIFIED"]]


def interactive(shell: str, tmp_path: Path, cwd: Path, fish_script: str) -> Shell:
    """`shell`, interactive on a terminal, set up as docs/completion.md says, with `show` to print
    the line it completed."""
    path = needs(shell)
    if shell == "bash":
        rc = tmp_path / "bashrc"
        rc.write_text(
            "PS1='$ '\neval \"$(taskproto completion bash)\"\n"
            "show() { printf 'LINE<%s>\\n' \"$*\"; }\n"
        )
        return Shell(
            [path, "--rcfile", str(rc), "-i"], cwd, shell_env(TERM="dumb", HISTFILE="/dev/null")
        )
    if shell == "zsh":
        (tmp_path / ".zshrc").write_text(
            "PS1='$ '\nautoload -U compinit && compinit -u -D\n"
            'eval "$(taskproto completion zsh)"\nshow() { print -r -- "LINE<$*>" }\n'
        )
        return Shell([path, "-i"], cwd, shell_env(ZDOTDIR=str(tmp_path), TERM="xterm"))
    config = tmp_path / "config"
    (config / "fish" / "completions").mkdir(parents=True)
    (config / "fish" / "completions" / "taskproto.fish").write_text(fish_script)
    (config / "fish" / "config.fish").write_text(
        "set -g fish_greeting\nfunction fish_prompt; echo -n '$ '; end\n"
        "function show; printf 'LINE<%s>\\n' \"$argv\"; end\n"
    )
    env = shell_env(XDG_CONFIG_HOME=str(config), XDG_DATA_HOME=str(tmp_path / "data"), TERM="xterm")
    return Shell([path, "-i"], cwd, env)


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_tab_in_an_interactive_shell_completes_the_line(
    cli, tasks: Path, tmp_path: Path, shell: str
) -> None:  # type: ignore[no-untyped-def]
    term = interactive(shell, tmp_path, tasks, cli("completion", "fish").out)
    try:
        term.read_until(re.compile(r"\$ $"))
        for typed, completed in [
            ("taskproto tr", "taskproto transition"),
            ("taskproto claim fix", "taskproto claim fix-login"),
            ("taskproto agent set fix-login q", "taskproto agent set fix-login qa"),
            ("taskproto transition fix-login ", "taskproto transition fix-login CLASSIFIED"),
            ("taskproto workflow show pl", "taskproto workflow show plan-task"),
        ]:
            term.type(typed + "\t")
            term.read_until(completed.split()[-1])  # the shell redrew the line, completed
            term.type("\x01show \n")  # to the line's start: `show` prints what the line holds
            shown = term.read_until(re.compile(r"LINE<(.*)>\n"))
            assert re.findall(r"LINE<(.*)>\n", shown) == [completed]
    finally:
        term.kill()
