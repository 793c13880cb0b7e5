"""The agent clients' hooks survive a reinstall of taskproto (clients/launcher.py).

The README's set-up installs taskproto twice: `pip install .`, then `pip install -e '.[test]'` in
its place. A repository set up between the two with `taskproto init --claude` had hook commands
naming the first copy's files, and every prompt and tool call of the agent was then blocked. The
commands now name two launchers in the git dir, which find the package again through the
interpreter when it moved. Each test here installs taskproto for an interpreter of its own (a
virtualenv whose site-packages point at a copy of the package: "the package moved" is that copy
moved), runs `taskproto init` with it, and runs the installed commands as Claude Code runs them.
The slow test makes the README's two installs with pip itself.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.conftest import commit_file, run_taskproto

# a virtualenv a test, the installed commands run as the client runs them: heavy (docs/testing.md)
pytestmark = pytest.mark.heavy

REPO_ROOT = Path(__file__).resolve().parents[2]
SESSION = "launcher-session"


def _venv(folder: Path, package_parent: Path | None) -> Path:
    """A virtualenv whose Python finds taskproto in `package_parent` (None: nowhere) and its
    dependencies in this interpreter's site-packages; its `python`. Not `--system-site-packages`:
    where the tests run on an interpreter that is no virtualenv (CI's), taskproto is installed in
    the base's own site-packages, and the venv would find it there."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    _point(python, package_parent)
    deps = Path(_site(python), "z-deps.pth")  # after the package's: read in the names' order
    deps.write_text(f"{_deps(folder.with_name(folder.name + '-deps'))}\n")
    return python


def _deps(folder: Path) -> Path:
    """This interpreter's site-packages without taskproto: a copy installed there (`pip install
    .`, not `-e`) would be found where the test says there is none."""
    folder.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if entry.name != "taskproto" and not entry.name.startswith("taskproto-"):
            (folder / entry.name).symlink_to(entry)
    return folder


def _site(python: Path) -> str:
    out = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def _point(python: Path, package_parent: Path | None) -> None:
    pth = Path(_site(python), "a-taskproto.pth")
    if package_parent is None:
        pth.unlink(missing_ok=True)
    else:
        pth.write_text(f"{package_parent}\n")


def _copy_package(parent: Path) -> Path:
    shutil.copytree(
        REPO_ROOT / "taskproto",
        parent / "taskproto",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return parent


def _tp(python: Path, repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(python), "-m", "taskproto", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _commands(repo: Path) -> dict[str, str]:
    data = json.loads((repo / ".claude" / "settings.local.json").read_text())
    return {event: groups[0]["hooks"][0]["command"] for event, groups in data["hooks"].items()}


def _payload(event: str, cwd: Path, **extra: object) -> bytes:
    """As Claude Code sends it (tests/hooks/agents/ show the real ones)."""
    data = {
        "session_id": SESSION,
        "transcript_path": str(cwd / "transcript.jsonl"),
        "cwd": str(cwd),
        "permission_mode": "acceptEdits",
        "hook_event_name": event,
        **extra,
    }
    return json.dumps(data).encode()


def _write(path: Path) -> dict[str, object]:
    return {
        "tool_name": "Write",
        "tool_input": {"file_path": str(path), "content": "x = 1\n"},
        "tool_use_id": "toolu_01",
    }


def _bash(command: str) -> dict[str, object]:
    return {"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "toolu_02"}


def _hook(command: str, data: bytes, cwd: Path) -> tuple[int, str, str]:
    """The installed command, run as Claude Code runs it (a command line for `sh -c`, the
    payload on stdin)."""
    done = subprocess.run(
        ["sh", "-c", command], input=data, cwd=cwd, capture_output=True, timeout=60, check=False
    )
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def _calls(repo: Path) -> list[tuple[str, bytes]]:
    """A tool call allowed, one denied, and a turn's end: (event, payload)."""
    return [
        ("PreToolUse", _payload("PreToolUse", repo, **_write(repo / "widget.py"))),
        (
            "PreToolUse",
            _payload("PreToolUse", repo, **_write(repo / ".claude" / "settings.local.json")),
        ),
        ("Stop", _payload("Stop", repo, stop_hook_active=False)),
    ]


def _answers(repo: Path) -> list[tuple[int, str, str]]:
    commands = _commands(repo)
    return [_hook(commands[event], data, repo) for event, data in _calls(repo)]


def _launchers_name(repo: Path) -> str:
    return (repo / ".git" / "taskproto-hooks" / "agent.py").read_text()


def test_the_hooks_answer_as_before_after_the_package_moved(tmp_path: Path, repo: Path) -> None:
    """The package moved (a reinstall put it elsewhere, the first copy gone): the client's hook
    commands and the git hooks answer as before, doctor says nothing, and the launchers and the
    git hooks name the new place after the first call."""
    first = _copy_package(tmp_path / "first")
    python = _venv(tmp_path / "venv", first)
    done = _tp(python, repo, "init", "--git", "--claude")
    assert done.returncode == 0, done.stderr
    _tp(python, repo, "task", "create", "t1")
    before = _answers(repo)
    assert [code for code, _, _ in before] == [0, 2, 0], before
    assert "holds an agent client's hooks" in before[1][2]

    second = tmp_path / "second"
    shutil.move(first, second)
    _point(python, second)
    doctor = _tp(python, repo, "doctor")
    assert "interpreter-missing" not in doctor.stdout, doctor.stdout
    assert _answers(repo) == before
    assert str(second) in _launchers_name(repo) and str(first) not in _launchers_name(repo)
    sh = (repo / ".git" / "taskproto-hooks" / "agent.sh").read_text()
    assert f"{second}/taskproto/hooks/agents/hook.sh" in sh
    assert _answers(repo) == before  # and again, from the new place

    # the git hooks: a commit of no task goes through; one in the task's worktree in INIT is
    # refused, as before the move
    commit_file(repo, "a.txt")
    refused = subprocess.run(
        ["git", "commit", "-q", "--allow-empty", "-m", "x"],
        cwd=repo / ".taskproto" / "tasks" / "t1" / "code",
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode != 0 and "does not allow commits" in refused.stderr, refused.stderr
    script = (repo / ".git" / "hooks" / "reference-transaction").read_text()
    assert f"entry={second}/taskproto/hooks/git/entry.py" in script
    doctor = _tp(python, repo, "doctor")
    assert "interpreter-missing" not in doctor.stdout, doctor.stdout


def test_init_points_the_launchers_at_this_install_when_the_old_folder_stays(
    tmp_path: Path, repo: Path
) -> None:
    """`pip install .` after `pip install -e .`: the editable install's folder (the clone) is still
    there, so the hooks keep running it; plain `taskproto init` points them at this install, the
    launchers as the git hooks (before, the git hooks only: the launchers named the clone)."""
    first = _copy_package(tmp_path / "first")
    python = _venv(tmp_path / "venv", first)
    assert _tp(python, repo, "init", "--git", "--claude").returncode == 0
    second = _copy_package(tmp_path / "second")
    _point(python, second)
    done = _tp(python, repo, "init")
    assert done.returncode == 0, done.stderr
    script = (repo / ".git" / "hooks" / "reference-transaction").read_text()
    assert f"entry={second}/taskproto/hooks/git/entry.py" in script
    assert str(second) in _launchers_name(repo) and str(first) not in _launchers_name(repo)
    sh = (repo / ".git" / "taskproto-hooks" / "agent.sh").read_text()
    assert f"{second}/taskproto/hooks/agents/hook.sh" in sh
    assert [code for code, _, _ in _answers(repo)] == [0, 2, 0]


def _mcp_doctor(python: Path, repo: Path) -> list[str]:
    """The checks the MCP doctor tool finds, from a `taskproto mcp` server `python` runs."""
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    found: list[str] = []

    async def main() -> None:
        params = StdioServerParameters(
            command=str(python),
            args=["-m", "taskproto", "mcp"],
            env=dict(os.environ),
            cwd=str(repo),
        )
        async with (
            stdio_client(params) as (read, write),
            ClientSession(read, write) as client,
        ):
            await client.initialize()
            result = await client.call_tool("doctor", {})
            assert not result.is_error and result.structured_content is not None, result
            found.extend(f["check"] for f in result.structured_content["findings"])

    anyio.run(main)
    return found


def test_hooks_left_on_a_folder_still_there_are_reported_and_pointed_here(
    tmp_path: Path, repo: Path
) -> None:
    """The other way of the same reinstall: the launchers name the first copy, still there, while
    the interpreter now imports another. Doctor warns (the hooks run other code than the
    `taskproto` the user runs), `--fix` points them at this one, and the hooks answer as before;
    launchers of another interpreter are no finding."""
    first = _copy_package(tmp_path / "first")
    python = _venv(tmp_path / "venv", first)
    assert _tp(python, repo, "init", "--claude").returncode == 0
    before = _answers(repo)
    second = _copy_package(tmp_path / "second")
    _point(python, second)
    doctor = _tp(python, repo, "doctor")
    assert "client-hooks-other-package" in doctor.stdout, doctor.stdout
    assert f"run taskproto from {first}/taskproto/hooks/agents" in doctor.stdout, doctor.stdout
    # doctor run by another interpreter (this test's): not its hooks to judge
    assert "client-hooks-other-package" not in run_taskproto("doctor", cwd=repo).out
    # MCP's door: the doctor tool of a server the hooks' interpreter runs says the same
    assert "client-hooks-other-package" in _mcp_doctor(python, repo)
    fixed = _tp(python, repo, "doctor", "--fix")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert str(second) in _launchers_name(repo) and str(first) not in _launchers_name(repo)
    assert "client-hooks-other-package" not in _tp(python, repo, "doctor").stdout
    assert _answers(repo) == before


def test_a_package_gone_for_good_is_reported_and_repaired(tmp_path: Path, repo: Path) -> None:
    """taskproto no longer installed for the hooks' interpreter: a hook says so in one line (and
    blocks, as a guard that cannot run does); doctor reports it, and so when the interpreter
    itself is gone; `doctor --fix` installs the hooks again with its own interpreter."""
    first = _copy_package(tmp_path / "first")
    python = _venv(tmp_path / "venv", first)
    assert _tp(python, repo, "init", "--claude").returncode == 0
    shutil.rmtree(first)
    _point(python, None)
    code, _, err = _answers(repo)[0]
    assert code == 2
    assert err.startswith("taskproto: the hook cannot run: taskproto is no longer installed for")
    assert len(err.splitlines()) == 1
    doctor = run_taskproto("doctor", cwd=repo)
    assert "client-hooks-interpreter-missing" in doctor.out
    assert f"taskproto for {python} (no longer installed" in doctor.out, doctor.out

    shutil.rmtree(tmp_path / "venv")  # the interpreter too
    doctor = run_taskproto("doctor", cwd=repo)
    assert f"interpreter {python}" in doctor.out, doctor.out
    fixed = run_taskproto("doctor", "--fix", cwd=repo)
    assert fixed.code == 0, fixed.out + fixed.err
    assert all(sys.executable in c for c in _commands(repo).values())
    assert [code for code, _, _ in _answers(repo)] == [0, 2, 0]
    assert "interpreter-missing" not in run_taskproto("doctor", cwd=repo).out


def test_init_twice_changes_nothing_and_uninstall_takes_the_launchers_out(repo: Path) -> None:
    first = run_taskproto("init", "--claude", "--codex", cwd=repo)
    assert first.code == 0, first.err
    assert "taskproto-hooks/agent.sh" in first.out
    again = run_taskproto("init", "--claude", "--codex", cwd=repo)
    assert "claude, codex hooks installed in: nothing to change" in again.out, again.out
    one = run_taskproto("init", "--claude", "--uninstall", cwd=repo)
    assert one.code == 0, one.err
    assert (repo / ".git" / "taskproto-hooks" / "agent.sh").exists()  # codex's hooks name it
    last = run_taskproto("init", "--codex", "--uninstall", cwd=repo)
    assert last.code == 0, last.err
    assert not (repo / ".git" / "taskproto-hooks").exists()
    assert "taskproto-hooks/agent.py" in last.out


LAUNCHER_WRITES = [
    ("Write", ".git/taskproto-hooks/agent.py"),
    ("Write", ".git/taskproto-hooks/agent.sh"),
    ("Bash", "echo 'HOOKS = \"/tmp/mine\"' > {repo}/.git/taskproto-hooks/agent.py"),
    ("Bash", "cp /tmp/mine.sh {repo}/.git/taskproto-hooks/agent.sh"),
    ("Bash", "sed -i s,/,/tmp/mine/, {repo}/.git/taskproto-hooks/agent.py"),
    ("Bash", "rm -rf {repo}/.git/taskproto-hooks"),
    ("Bash", 'python3 -c \'open("{repo}/.git/taskproto-hooks/agent.py", "w")\''),
]


def test_an_agent_cannot_point_the_launcher_at_a_script_of_its_own(
    engine: Engine, repo: Path
) -> None:
    """The launchers name what every hook runs: writing them is refused, by path or through a
    command, to an agent working on its task in a state that allows edits (in its worktree) and
    to a session that owns no task (in the main worktree, where the guard lets edits through)."""
    assert run_taskproto("init", "--claude", cwd=repo).code == 0
    engine.create_task("t1", ["dev"])
    engine.claim("t1", SESSION)
    for state in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
        engine.fire("t1", target=state, session=SESSION)
    engine.approve("t1", "plan", "user")
    engine.fire("t1", target="IMPLEMENTATION", session=SESSION)
    command = _commands(repo)["PreToolUse"]
    before = _launchers_name(repo)
    for session, cwd in ((SESSION, engine.config.agent_worktree("t1", "dev")), ("free", repo)):

        def call(tool: dict[str, object], session: str = session, cwd: Path = cwd) -> bytes:
            return json.dumps(
                {**json.loads(_payload("PreToolUse", cwd, **tool)), "session_id": session}
            ).encode()

        allowed = _hook(command, call(_write(cwd / "a.py")), repo)
        assert allowed[0] == 0, allowed
        for tool, what in LAUNCHER_WRITES:
            made = _write(repo / what) if tool == "Write" else _bash(what.format(repo=repo))
            code, _, err = _hook(command, call(made), repo)
            assert code == 2, (session, what, err)
            assert err.startswith("taskproto: "), err
    assert _launchers_name(repo) == before


@pytest.mark.slow
def test_the_readme_installs_then_the_editable_one(tmp_path: Path, repo: Path) -> None:
    """The README's way, with pip: `pip install .` of a copy of this repository, `init --claude`,
    then `pip install -e .` in its place: the hooks answer as before."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO_ROOT / name, source / name)
    shutil.copytree(REPO_ROOT / "bin", source / "bin")
    _copy_package(source)
    python = _venv(tmp_path / "venv", None)

    def pip(*args: str) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps"]
            + ["--no-build-isolation", *args],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stderr

    pip(str(source))
    site = Path(_site(python))
    assert (site / "taskproto" / "hooks" / "agents" / "hook.sh").exists()
    assert _tp(python, repo, "init", "--claude").returncode == 0
    assert str(site) in _launchers_name(repo)
    before = _answers(repo)
    assert [code for code, _, _ in before] == [0, 2, 0], before

    pip("-e", str(source))
    assert not (site / "taskproto").exists()  # step 1's copy is gone
    assert _answers(repo) == before
    assert f"{source}/taskproto/hooks/agents" in _launchers_name(repo)
    assert "interpreter-missing" not in _tp(python, repo, "doctor").stdout
    assert set(os.listdir(repo / ".git" / "taskproto-hooks")) == {"agent.py", "agent.sh"}
    assert shlex.split(_commands(repo)["Stop"])[1].endswith("taskproto-hooks/agent.sh")
