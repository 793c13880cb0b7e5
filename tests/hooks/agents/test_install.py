"""init --claude|--codex|--gemini: merged, idempotent, in every task worktree, out of git, undone
byte for byte."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.conftest import git

USER_SETTINGS = {
    "claude": (
        ".claude/settings.local.json",
        (
            '{\n    "model": "opus",\n    "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": '
            '[{"type": "command", "command": "my-guard.sh"}]}]}\n}'
        ),
    ),
    "codex": (
        ".codex/hooks.json",
        '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]}}\n',
    ),
    "gemini": (".gemini/settings.json", '{"general": {"vimMode": true}}'),
}


def status(path: Path) -> str:
    return subprocess.run(
        ["git", "status", "--porcelain"], cwd=path, capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.parametrize("client", ["claude", "codex", "gemini"])
def test_round_trip_keeps_user_settings_and_restores_bytes(
    client: str, cli, engine: Engine, repo: Path
) -> None:  # type: ignore[no-untyped-def]
    engine.create_task("before", ["dev"])
    name, text = USER_SETTINGS[client]
    (repo / name).parent.mkdir()
    (repo / name).write_text(text)
    exclude = Path(git(repo, "rev-parse", "--path-format=absolute", "--git-path", "info/exclude"))
    exclude_before = exclude.read_bytes()
    r = cli("init", f"--{client}")
    assert r.code == 0, r.err
    data = json.loads((repo / name).read_text())
    original = json.loads(text)
    for key in original:
        if key != "hooks":
            assert data[key] == original[key]
    commands = [
        h["command"] for groups in data["hooks"].values() for g in groups for h in g["hooks"]
    ]
    for groups in original.get("hooks", {}).values():
        for g in groups:
            for h in g["hooks"]:
                assert h["command"] in commands
    assert any("taskproto-hooks/agent.py" in c for c in commands)  # clients/launcher.py
    if client == "gemini":
        assert all(h["timeout"] == 30000 for g in data["hooks"]["BeforeTool"] for h in g["hooks"])
    after_first = (repo / name).read_bytes()
    assert cli("init", f"--{client}").code == 0
    assert (repo / name).read_bytes() == after_first  # idempotent
    # Worktrees from before init and after it carry the hooks, and stay clean.
    engine.create_task("after", ["dev"])
    for task in ("before", "after"):
        for wt in (engine.config.task_worktree(task), engine.config.agent_worktree(task, "dev")):
            assert "taskproto-hooks/agent.py" in (wt / name).read_text()
            assert status(wt) == "", wt
    r = cli("init", f"--{client}", "--uninstall")
    assert r.code == 0, r.err
    assert (repo / name).read_text() == text
    assert exclude.read_bytes() == exclude_before
    for task in ("before", "after"):
        assert not (engine.config.agent_worktree(task, "dev") / name.split("/")[0]).exists()
    assert not (repo / ".git" / "taskproto-hooks").exists()  # the launchers went too


def test_uninstall_deletes_the_files_init_created(cli, repo: Path) -> None:  # type: ignore[no-untyped-def]
    assert cli("init", "--claude", "--codex", "--gemini").code == 0
    out = cli("init", "--codex")
    assert "trust_level" in out.out
    assert cli("init", "--claude", "--codex", "--gemini", "--uninstall").code == 0
    for folder in (".claude", ".codex", ".gemini"):
        assert not (repo / folder).exists()
    assert status(repo) == ""


def test_uninstall_without_a_client_names_the_client_hooks_it_left(cli, repo: Path) -> None:  # type: ignore[no-untyped-def]
    """`init --uninstall` takes out the git hooks only; a user who ran `init --git --claude` is
    told the Claude hooks are still in (before, it said only "git hooks removed"), and how to take
    them out, and nothing else changes."""
    assert cli("init", "--git", "--claude").code == 0
    settings = repo / ".claude" / "settings.local.json"
    before = settings.read_bytes()
    r = cli("init", "--uninstall")
    assert r.code == 0, r.err
    assert (
        "claude hooks are still installed: `taskproto init --claude --uninstall` takes them out"
        in r.out
    )
    assert settings.read_bytes() == before
    assert (repo / ".git" / "taskproto-hooks" / "agent.py").is_file()
    data = json.loads(cli("init", "--uninstall", "--json").out)
    assert data["agent_hooks_left"] == ["claude"]
    assert cli("init", "--claude", "--uninstall").code == 0
    r = cli("init", "--uninstall")
    assert r.code == 0 and "still installed" not in r.out
    assert "agent_hooks_left" not in json.loads(cli("init", "--uninstall", "--json").out)


def test_user_edit_after_init_keeps_their_change(cli, repo: Path) -> None:  # type: ignore[no-untyped-def]
    assert cli("init", "--claude").code == 0
    path = repo / ".claude" / "settings.local.json"
    data = json.loads(path.read_text())
    data["permissions"] = {"allow": ["Bash(ls)"]}
    path.write_text(json.dumps(data))
    r = cli("init", "--claude", "--uninstall")
    assert r.code == 0 and "edited since init" in r.err
    assert json.loads(path.read_text()) == {"permissions": {"allow": ["Bash(ls)"]}}


def test_task_removal_is_not_blocked_by_the_settings_files(cli, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    assert cli("init", "--claude", "--codex", "--gemini").code == 0
    engine.create_task("t1", ["dev"])
    engine.remove_task("t1")
    assert not engine.config.task_dir("t1").exists()


@pytest.mark.parametrize("client", ["claude", "codex", "gemini"])
def test_init_upgrades_the_commands_an_older_init_installed(
    client: str, cli, engine: Engine, repo: Path
) -> None:  # type: ignore[no-untyped-def]
    """An older init ran `python -I -S entry.py` for every event: init now puts the lifecycle
    events and SessionStart on hook.sh, keeps the tool guard on Python, and uninstall still knows
    them all."""
    from taskproto.clients import hookjson, protocols, settings

    assert cli("init", f"--{client}").code == 0
    name = settings.FILES[client]
    data = json.loads((repo / name).read_text())
    for event, groups in data["hooks"].items():  # as the older version wrote them
        for g in groups:
            for h in g["hooks"]:
                h["command"] = shlex.join(
                    ["/old/venv/bin/python", "-I", "-S", str(settings.ENTRY), client, event]
                )
    (repo / name).write_text(json.dumps(data, indent=2) + "\n")
    assert cli("init", f"--{client}").code == 0
    data = json.loads((repo / name).read_text())
    for event, groups in data["hooks"].items():
        (hook,) = [h for g in groups for h in g["hooks"]]
        quiet = protocols.kind(client, event) != "tool"
        assert hook["command"].startswith("/bin/sh ") == quiet, hook["command"]
        assert "/old/venv" not in hook["command"]
        assert hookjson.is_ours(hook)
    r = cli("init", f"--{client}", "--uninstall")
    assert r.code == 0, r.err
    left = json.loads((repo / name).read_text()) if (repo / name).exists() else {}
    assert "hooks" not in left, left


def test_the_worktree_copies_are_out_of_git_there_and_only_there(
    cli, engine: Engine, repo: Path
) -> None:  # type: ignore[no-untyped-def]
    """`info/exclude` is shared by every worktree (git has no per-worktree exclude file), so a
    line for the copies in task worktrees would hide a `.codex/hooks.json` or
    `.gemini/settings.json` of the user's in the main worktree too. The copies are kept out of git
    in their own folder instead; the main worktree's lines name only the files init created there
    (tests/hooks/agents/test_install_local.py: the user's own are left in sight)."""
    engine.create_task("before", ["dev"])
    exclude = Path(git(repo, "rev-parse", "--path-format=absolute", "--git-path", "info/exclude"))
    exclude_before = exclude.read_bytes()
    assert cli("init", "--claude", "--codex", "--gemini").code == 0
    engine.create_task("after", ["dev"])
    assert status(repo) == ""  # every file init wrote in the main worktree is its own
    (repo / ".codex" / "config.toml").write_text("model = 'o3'\n")  # the user's own, shown
    assert status(repo) == "?? .codex/\n"
    for task in ("before", "after"):
        for wt in (engine.config.task_worktree(task), engine.config.agent_worktree(task, "dev")):
            assert (wt / ".codex" / "hooks.json").is_file() and status(wt) == "", wt
            (wt / ".codex" / "notes.md").write_text("an agent's new file\n")
            shown = subprocess.run(
                ["git", "status", "--porcelain", "-uall"], cwd=wt, capture_output=True, text=True
            ).stdout
            assert shown == "?? .codex/notes.md\n", wt  # only the copies are hidden there
            (wt / ".codex" / "notes.md").unlink()
    r = cli("init", "--claude", "--codex", "--gemini", "--uninstall")
    assert r.code == 0, r.err
    assert exclude.read_bytes() == exclude_before
    for task in ("before", "after"):
        wt = engine.config.agent_worktree(task, "dev")
        assert not (wt / ".codex").exists() and not (wt / ".gemini").exists() and status(wt) == ""


def test_init_again_takes_out_an_older_inits_lines_that_hid_the_users_files(
    cli, engine: Engine, repo: Path
) -> None:  # type: ignore[no-untyped-def]
    """A repository set up by an older init has `/.codex/hooks.json` and `/.gemini/settings.json`
    in info/exclude for the worktree copies, which hid the user's own files of those names in the
    main worktree: running init again takes them out (the copies stay out of git in their
    folders) and says the files now hold this machine's paths."""
    from taskproto.clients import settings

    for name in (".codex/hooks.json", ".gemini/settings.json"):
        (repo / name).parent.mkdir()
        (repo / name).write_text("{}\n")  # the user's own, before any init
    engine.create_task("t", ["dev"])
    assert cli("init", "--codex", "--gemini").code == 0
    installer = settings.Installer(engine.config)  # what the older init wrote
    for client in ("codex", "gemini"):
        installer.ensure_excluded(client)
    installer.save()
    exclude = Path(git(repo, "rev-parse", "--path-format=absolute", "--git-path", "info/exclude"))
    assert "/.codex/hooks.json" in exclude.read_text()
    assert status(repo) == ""  # hidden by the old lines
    r = cli("init", "--codex", "--gemini")
    assert r.code == 0, r.err
    assert "/.codex/hooks.json" not in exclude.read_text()
    assert "/.gemini/settings.json" not in exclude.read_text()
    assert set(status(repo).splitlines()) == {"?? .codex/", "?? .gemini/"}
    assert r.err.count("holds taskproto's hooks, with this machine's paths") == 2, r.err
    wt = engine.config.agent_worktree("t", "dev")
    assert status(wt) == ""


def test_a_folder_gitignore_of_the_project_is_left_alone(cli, engine: Engine, repo: Path) -> None:  # type: ignore[no-untyped-def]
    (repo / ".codex").mkdir()
    (repo / ".codex" / ".gitignore").write_text("*.log\n")
    git(repo, "add", ".codex/.gitignore")
    git(repo, "commit", "-q", "-m", "the project's own ignore file")
    engine.create_task("t", ["dev"])
    r = cli("init", "--codex")
    assert r.code == 0 and "info/exclude" in r.err, r.err  # said, once per worktree
    wt = engine.config.agent_worktree("t", "dev")
    assert (wt / ".codex" / ".gitignore").read_text() == "*.log\n"
    assert status(wt) == ""
    assert cli("init", "--codex", "--uninstall").code == 0
    assert (wt / ".codex" / ".gitignore").read_text() == "*.log\n" and status(wt) == ""


def test_a_new_task_writes_its_own_record_and_leaves_the_main_one_alone(
    cli, engine: Engine, repo: Path
) -> None:  # type: ignore[no-untyped-def]
    """`task create` after init writes the files of its worktrees' copies to its task folder's
    record: the main record (`<root>/agent-hooks.json`) is not rewritten, so a create costs the
    same however many tasks there are; uninstall still finds every copy."""
    assert cli("init", "--claude", "--codex").code == 0
    main = engine.config.root / "agent-hooks.json"
    engine.create_task("t1", ["dev"])
    before = (main.read_bytes(), main.stat().st_mtime_ns, main.stat().st_ino)
    assert cli("task", "create", "t2", "--agents", "dev,qa").code == 0
    assert (main.read_bytes(), main.stat().st_mtime_ns, main.stat().st_ino) == before
    assert str(engine.config.tasks_dir) not in main.read_text()  # no worktree's file named
    own = json.loads((engine.config.task_dir("t2") / "agent-hooks.json").read_text())
    assert sorted(own["files"]) == [
        f"{where}/{name}"
        for where in ("agents/dev/code", "agents/qa/code", "code")
        for name in (".claude/settings.local.json", ".codex/.gitignore", ".codex/hooks.json")
    ]
    assert cli("init", "--claude", "--codex", "--uninstall").code == 0
    for task, agents in (("t1", ["dev"]), ("t2", ["dev", "qa"])):
        wts = [engine.config.task_worktree(task)]
        wts += [engine.config.agent_worktree(task, a) for a in agents]
        for wt in wts:
            assert not (wt / ".claude").exists() and not (wt / ".codex").exists(), wt
            assert status(wt) == "", wt
        assert not (engine.config.task_dir(task) / "agent-hooks.json").exists()
    assert not main.exists()


def test_an_older_record_of_every_worktree_is_split_into_the_tasks(
    cli, engine: Engine, repo: Path
) -> None:  # type: ignore[no-untyped-def]
    """An older init recorded every worktree's files in the main record: the next save moves
    them to their tasks' records (a removed task's are dropped), and uninstall still works."""
    assert cli("init", "--codex").code == 0
    for task in ("t1", "t2"):
        engine.create_task(task, ["dev"])
    main = engine.config.root / "agent-hooks.json"
    record = json.loads(main.read_text())
    for task in ("t1", "t2"):  # as an older init wrote it: absolute paths in the main record
        folder = engine.config.task_dir(task)
        own = folder / "agent-hooks.json"
        for name, entry in json.loads(own.read_text())["files"].items():
            dirs = [str(folder / d) for d in entry["created_dirs"]]
            record["files"][str(folder / name)] = {**entry, "created_dirs": dirs}
        own.unlink()
    record["files"][str(engine.config.task_dir("gone") / "code/.codex/hooks.json")] = {
        "client": "codex",
        "original": None,
        "created_dirs": [],
        "written": "0" * 64,
    }
    main.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    assert cli("task", "create", "t3").code == 0
    assert str(engine.config.tasks_dir) not in main.read_text()
    for task in ("t1", "t2", "t3"):
        assert (engine.config.task_dir(task) / "agent-hooks.json").is_file(), task
    assert not engine.config.task_dir("gone").exists()
    assert cli("init", "--codex", "--uninstall").code == 0
    for task in ("t1", "t2"):
        wt = engine.config.agent_worktree(task, "dev")
        assert not (wt / ".codex").exists() and status(wt) == "", wt
    assert not (repo / ".codex").exists() and not main.exists()


def test_init_of_a_client_alone_says_the_git_hooks_are_not_installed(cli, repo: Path) -> None:  # type: ignore[no-untyped-def]
    """docs/agents.md's `taskproto init --claude` installs no git hooks: no commit or push guard.
    Found walking a new user's day: nothing said so. Once they are installed, nothing is said."""
    r = cli("init", "--claude")
    assert r.code == 0, r.err
    assert (
        "the git hooks (taskproto's commit and push guards) are not installed: "
        "`taskproto init --git` installs them" in r.out
    )
    assert not (repo / ".git" / "hooks" / "reference-transaction").exists()
    assert cli("init", "--claude", "--no-git").out.count("not installed") == 0  # the user's choice
    assert cli("init").code == 0
    r = cli("init", "--claude")
    assert r.code == 0 and "not installed" not in r.out, r.out
