"""The client hooks name this machine's paths, so nothing of them is committed by accident and the
main worktree's `git status` stays clean (#36): Claude's go to `.claude/settings.local.json`, a
Codex or Gemini file init creates is excluded by its own anchored line, a file of the user's is
merged and left in sight with a warning; an older init's hooks in `.claude/settings.json` move."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from taskproto.clients import hookjson
from taskproto.config import load_config
from tests.conftest import commit_file, git, run_taskproto

from .older_init import older_claude_init

SESSION = {"TASKPROTO_SESSION": "lead-1"}
ROOT_LINE = b"/.taskproto/\n"  # what every init adds to info/exclude: taskproto's own folder
OURS = {  # the main worktree's file init writes for each client
    "claude": ".claude/settings.local.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
}


def tp(repo: Path, *args: str) -> str:
    r = run_taskproto(*args, cwd=repo, env=SESSION)
    assert r.code == 0, f"taskproto {' '.join(args)}: {r.err}"
    return r.out + r.err


def status(path: Path) -> str:
    """`git status --porcelain`'s lines, joined (the first line keeps its leading space)."""
    proc = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=path,
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stdout.rstrip("\n")


def exclude_file(repo: Path) -> Path:
    return Path(git(repo, "rev-parse", "--path-format=absolute", "--git-path", "info/exclude"))


def ignored(repo: Path, name: str) -> bool:
    proc = subprocess.run(["git", "check-ignore", "-q", name], cwd=repo, check=False)
    return proc.returncode == 0


def our_hooks(path: Path) -> dict[str, int]:
    """How many hooks of taskproto's each event of the settings file at `path` has."""
    data = json.loads(path.read_text()) if path.exists() else {}
    return {
        event: n
        for event, groups in (data.get("hooks") or {}).items()
        if (n := sum(hookjson.is_ours(h) for g in groups for h in g["hooks"]))
    }


def test_git_status_is_clean_from_init_to_a_landed_task(repo: Path) -> None:
    """A fresh repository, its first commit made: `init --git --claude --codex --gemini` leaves
    `git status` empty, and so do a task created, worked by its agent and landed."""
    before = exclude_file(repo).read_bytes()
    tp(repo, "init", "--git", "--claude", "--codex", "--gemini")
    assert status(repo) == ""
    for name in OURS.values():
        text = (repo / name).read_text()
        assert any(m in text for m in hookjson.MARKS) and ignored(repo, name), name
    # exactly one anchored line for each file init made, after what was there (and the root's)
    added = exclude_file(repo).read_text()[len(before.decode()) :].splitlines()
    assert added == ["/.taskproto/"] + ["/" + name for name in OURS.values()]
    tp(repo, "task", "create", "fix", "--agents", "dev")
    config = load_config(repo)
    dev = config.agent_worktree("fix", "dev")
    assert status(repo) == "" and status(dev) == ""
    tp(repo, "claim", "fix")
    tp(repo, "next", "fix", "--to", "SYNTHESIS")
    tp(repo, "approve", "fix", "--plan")
    tp(repo, "next", "fix")
    commit_file(dev, "login.py", "def login(): return True\n")
    assert status(repo) == "" and status(dev) == ""
    tp(repo, "agent", "set", "fix", "dev", "--status", "COMPLETE")
    tp(repo, "merge", "fix")
    tp(repo, "next", "fix", "--to", "AWAITING_USER_APPROVAL")
    tp(repo, "approve", "fix", "--commit")
    tp(repo, "next", "fix")
    tp(repo, "land", "fix")
    assert git(repo, "cat-file", "-t", "main:login.py") == "blob"
    assert len(git(repo, "worktree", "list").splitlines()) == 1
    assert status(repo) == ""
    tp(repo, "init", "--git", "--claude", "--codex", "--gemini", "--uninstall")
    assert exclude_file(repo).read_bytes() == before + ROOT_LINE
    assert not any((repo / name.split("/")[0]).exists() for name in OURS.values())
    assert status(repo) == ""


@pytest.mark.parametrize("tracked", [False, True], ids=["untracked", "committed"])
@pytest.mark.parametrize("client", ["codex", "gemini"])
def test_the_users_own_file_is_merged_kept_and_left_in_sight(
    client: str, tracked: bool, repo: Path
) -> None:
    """Codex and Gemini read hooks from no file of one machine's own: where the user already had
    the file, init merges into it, hides nothing, and says in one line not to commit them."""
    name = OURS[client]
    text = '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]}}\n'
    (repo / name).parent.mkdir()
    (repo / name).write_text(text)
    if tracked:
        git(repo, "add", name)
        git(repo, "commit", "-q", "-m", "the project's own client settings")
    before = exclude_file(repo).read_bytes()
    r = run_taskproto("init", f"--{client}", cwd=repo)
    assert r.code == 0, r.err
    (warning,) = [line for line in r.err.splitlines() if name in line]
    assert "this machine's paths; do not commit them" in warning, warning
    assert f"`taskproto init --{client} --uninstall`" in warning
    hooks = json.loads((repo / name).read_text())["hooks"]
    assert "notify" in json.dumps(hooks) and our_hooks(repo / name)
    assert not ignored(repo, name)
    assert exclude_file(repo).read_bytes() == before + ROOT_LINE
    shown = f" M {name}" if tracked else f"?? {name}"
    assert status(repo) == shown
    r = run_taskproto("init", f"--{client}", "--uninstall", cwd=repo)
    assert r.code == 0, r.err
    assert (repo / name).read_text() == text
    assert status(repo) == ("" if tracked else f"?? {name}")


def test_claudes_shared_settings_of_the_project_are_left_alone(repo: Path) -> None:
    """The project's committed `.claude/settings.json` is not touched: the hooks go to the file of
    this machine beside it."""
    shared = repo / ".claude" / "settings.json"
    shared.parent.mkdir()
    shared.write_text('{"permissions": {"allow": ["Bash(ls)"]}}\n')
    git(repo, "add", ".claude/settings.json")
    git(repo, "commit", "-q", "-m", "the project's Claude settings")
    r = run_taskproto("init", "--claude", cwd=repo)
    assert r.code == 0 and r.err == "", r.err
    assert shared.read_text() == '{"permissions": {"allow": ["Bash(ls)"]}}\n'
    assert set(our_hooks(repo / OURS["claude"])) == {
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "Stop",
        "PreCompact",
        "SessionEnd",
        "Notification",
    }
    assert status(repo) == ""


SHARED_BEFORE = {  # the project's .claude/settings.json before the older init merged into it
    "made by the older init": None,
    "the user's, committed": (
        '{\n  "model": "opus",\n  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": '
        '[{"type": "command", "command": "my-guard.sh"}]}]}\n}\n'
    ),
}


@pytest.mark.parametrize("before", list(SHARED_BEFORE))
def test_init_moves_an_older_inits_hooks_out_of_the_shared_settings(
    before: str, repo: Path
) -> None:
    """Nothing lost, nothing twice: the user's entries stay in settings.json (byte for byte when
    untouched since), taskproto's are in settings.local.json once; doctor reports the old layout
    until then; uninstall afterwards leaves the repository as it was."""
    text = SHARED_BEFORE[before]
    shared = repo / ".claude" / "settings.json"
    if text is not None:
        shared.parent.mkdir()
        shared.write_text(text)
        git(repo, "add", ".claude/settings.json")
        git(repo, "commit", "-q", "-m", "the project's Claude settings")
    exclude_before = exclude_file(repo).read_bytes()
    tp(repo, "init")  # the root and the git hooks; then what the older `init --claude` added
    config = load_config(repo)
    older_claude_init(config)
    tp(repo, "task", "create", "t1", "--agents", "dev")  # its worktrees get the copies
    assert status(repo) == (" M .claude/settings.json" if text else "?? .claude/settings.json")
    r = run_taskproto("doctor", "--json", cwd=repo)
    (found,) = [f for f in json.loads(r.out)["findings"] if f["check"] != "needs-review"]
    assert found["check"] == "client-hooks-in-shared-settings", found
    assert "`taskproto init --claude`" in found["message"]

    out = tp(repo, "init", "--claude")
    assert f"taskproto's hooks moved out of {shared}" in out, out
    if text is None:
        assert not shared.exists()
    else:
        assert shared.read_text() == text
    local = repo / OURS["claude"]
    events = our_hooks(local)
    assert set(events) == {
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "Stop",
        "PreCompact",
        "SessionEnd",
        "Notification",
    }
    assert set(events.values()) == {1} and our_hooks(shared) == {}
    assert status(repo) == "" and status(config.agent_worktree("t1", "dev")) == ""
    r = run_taskproto("doctor", cwd=repo)
    assert r.code == 0, r.out
    again = local.read_bytes()
    tp(repo, "init", "--claude")
    assert local.read_bytes() == again  # moved once: running init again changes nothing

    tp(repo, "init", "--claude", "--uninstall")
    assert not local.exists()
    if text is None:
        assert not (repo / ".claude").exists()
    else:
        assert shared.read_text() == text
    assert exclude_file(repo).read_bytes() == exclude_before + ROOT_LINE
    assert status(repo) == ""


def test_a_shared_settings_file_edited_since_the_older_init_keeps_the_users_change(
    repo: Path,
) -> None:
    tp(repo, "init")
    shared = older_claude_init(load_config(repo))
    data = json.loads(shared.read_text())
    data["permissions"] = {"allow": ["Bash(ls)"]}
    shared.write_text(json.dumps(data, indent=2) + "\n")
    r = run_taskproto("init", "--claude", cwd=repo)
    assert r.code == 0, r.err
    assert f"{shared} was edited since init: removed only taskproto's hooks" in r.err
    assert json.loads(shared.read_text()) == {"permissions": {"allow": ["Bash(ls)"]}}
    assert set(our_hooks(repo / OURS["claude"]).values()) == {1}
    assert status(repo) == "?? .claude/settings.json"  # the user's own file, theirs to commit


def test_uninstall_takes_an_older_inits_hooks_out_of_the_shared_settings(repo: Path) -> None:
    shared = repo / ".claude" / "settings.json"
    shared.parent.mkdir()
    shared.write_text('{"model": "opus"}\n')
    tp(repo, "init")
    older_claude_init(load_config(repo))
    tp(repo, "task", "create", "t1", "--agents", "dev")
    tp(repo, "init", "--claude", "--uninstall")
    assert shared.read_text() == '{"model": "opus"}\n'
    wt = load_config(repo).agent_worktree("t1", "dev")
    assert not (wt / ".claude").exists() and not (repo / OURS["claude"]).exists()
    assert status(repo) == "?? .claude/settings.json" and status(wt) == ""


def test_a_broken_local_file_refuses_the_move_before_anything_is_written(repo: Path) -> None:
    tp(repo, "init")
    shared = older_claude_init(load_config(repo))
    written = shared.read_bytes()
    local = repo / OURS["claude"]
    local.write_text('{"permissions": ')  # the user's own, half written
    r = run_taskproto("init", "--claude", cwd=repo)
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1, r.err
    assert f"{local} is not valid JSON" in r.err and "fix it, then run init again" in r.err
    assert shared.read_bytes() == written and local.read_text() == '{"permissions": '
