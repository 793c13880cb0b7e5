"""A named client's share of the user's things in its sandbox (sandbox/clients.py): copies of its
own settings and login in the agent's own home, never a link the agent left there followed; its
variables and nothing else."""

from __future__ import annotations

import os
from pathlib import Path

from taskproto.sandbox.bwrap import bwrap_argv
from taskproto.sandbox.clients import prepare_home, variables
from taskproto.sandbox.rules import rules_for


def test_the_agents_home_gets_copies_of_the_clients_top_level_files_and_nothing_else(
    tmp_path: Path,
) -> None:
    home, box = tmp_path / "home", tmp_path / "box"
    (home / ".claude" / "projects" / "p").mkdir(parents=True)
    (home / ".claude" / ".credentials.json").write_text('{"token": "login"}')
    (home / ".claude" / "settings.json").write_text("{}")
    (home / ".claude" / "projects" / "p" / "old.jsonl").write_text("a transcript of yours")
    (home / ".claude.json").write_text('{"projects": {}}')
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_ed25519").write_text("key")
    copy, env = prepare_home("claude", str(box), {"HOME": str(home)})
    assert env == {}
    got = sorted(str(p.relative_to(copy)) for p in Path(copy).rglob("*"))
    assert got == [".claude", ".claude.json", ".claude/.credentials.json", ".claude/settings.json"]
    assert (Path(copy) / ".claude" / ".credentials.json").read_text() == '{"token": "login"}'
    # the agent replaces its copy with a link to a file of the user's: the next start does not
    # write through it
    victim = tmp_path / "victim"
    victim.write_text("the user's")
    os.unlink(Path(copy) / ".claude" / "settings.json")
    (Path(copy) / ".claude" / "settings.json").symlink_to(victim)
    os.unlink(Path(copy) / ".claude.json")
    (Path(copy) / ".claude.json").symlink_to(victim)
    prepare_home("claude", str(box), {"HOME": str(home)})
    assert victim.read_text() == "the user's"
    assert not (Path(copy) / ".claude" / "settings.json").is_symlink()


def test_a_folder_variable_is_pointed_at_the_copy_inside(tmp_path: Path) -> None:
    home, codex_home = tmp_path / "home", tmp_path / "elsewhere"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text('[model_providers.m]\nenv_key = "MOCK_KEY"\n')
    environ = {"HOME": str(home), "CODEX_HOME": str(codex_home)}
    copy, env = prepare_home("codex", str(tmp_path / "box"), environ)
    assert env == {"CODEX_HOME": str(home / ".codex")}
    assert (Path(copy) / ".codex" / "config.toml").is_file()
    environ |= {"MOCK_KEY": "k", "OPENAI_API_KEY": "o", "SSH_AUTH_SOCK": "/s", "AWS_SECRET": "a"}
    assert variables("codex", environ) == ["MOCK_KEY", "OPENAI_API_KEY"]
    gemini = {"GEMINI_API_KEY": "g", "GOOGLE_GEMINI_BASE_URL": "u", "ANTHROPIC_API_KEY": "x"}
    assert variables("gemini", gemini) == ["GEMINI_API_KEY", "GOOGLE_GEMINI_BASE_URL"]
    claude = {"ANTHROPIC_API_KEY": "x", "DISABLE_TELEMETRY": "1", "GITHUB_TOKEN": "t"}
    assert variables("claude", claude) == ["ANTHROPIC_API_KEY", "DISABLE_TELEMETRY"]


def test_bubblewrap_binds_the_channel_and_the_agents_home(tmp_path: Path) -> None:
    rules = rules_for(
        task="t",
        agent="dev",
        main="/repo",
        common_dir="/repo/.git",
        root="/repo/.taskproto",
        worktree="/repo/.taskproto/tasks/t/agents/dev/code",
        sandbox_dir="/repo/.taskproto/tasks/t/agents/dev/sandbox",
        environ={"HOME": "/home/u", "PATH": "/bin"},
        identity={},
        channel="/tmp/taskproto-ch-x/s",
        home_copy="/repo/.taskproto/tasks/t/agents/dev/sandbox/home",
    )
    argv = bwrap_argv(rules)
    assert rules.env["TASKPROTO_CHANNEL"] == "/tmp/taskproto-channel"
    joined = " ".join(argv)
    assert "--ro-bind /tmp/taskproto-ch-x/s /tmp/taskproto-channel" in joined
    # the home: hidden first, then the agent's own bound over it
    assert joined.index("--tmpfs /home/u") < joined.index(
        "--bind /repo/.taskproto/tasks/t/agents/dev/sandbox/home /home/u"
    )
