"""The sandbox's rules as data, bubblewrap's argv and the macOS profile's text (pure: no
sandbox runs here)."""

from __future__ import annotations

from taskproto.sandbox.bwrap import bwrap_argv
from taskproto.sandbox.rules import Rules, rules_for
from taskproto.sandbox.seatbelt import seatbelt_profile

BOX = "/Users/u/repo/.taskproto/tasks/t/agents/dev"


def rules(network: bool = True) -> Rules:
    return rules_for(
        task="t",
        agent="dev",
        main="/Users/u/repo",
        common_dir="/Users/u/repo/.git",
        root="/Users/u/repo/.taskproto",
        worktree=f"{BOX}/code",
        sandbox_dir=f"{BOX}/sandbox",
        environ={
            "HOME": "/Users/u",
            "PATH": "/usr/bin:/bin",
            "GITHUB_TOKEN": "secret",
            "SSH_AUTH_SOCK": "/tmp/ssh-x/agent.1",
            "XDG_RUNTIME_DIR": "/run/user/501",
            "LANG": "C.UTF-8",
            "KEEP": "on",
        },
        identity={"GIT_AUTHOR_NAME": "U", "GIT_AUTHOR_EMAIL": "u@example.invalid"},
        kept=["/Users/u/.venv", "/usr"],
        pass_env=["KEEP"],
        network=network,
        existing=[f"{BOX}/code/.claude"],
    )


def test_only_the_worktree_and_the_agents_git_dir_are_writable() -> None:
    r = rules()
    assert r.writable == (f"{BOX}/code", f"{BOX}/sandbox/git")
    assert r.read_only == ("/Users/u/repo",)  # the common dir is inside it
    assert r.state == "/Users/u/repo/.taskproto"  # hidden but for the agent's own places
    assert r.hidden == ("/Users/u", "/tmp", "/var/tmp", "/dev/shm", "/run/user/501")
    assert r.kept == ("/Users/u/.venv",)  # /usr is not hidden: nothing to bring back
    assert {s: t for s, t in r.protected if not s.endswith("/empty")} == {
        f"{BOX}/sandbox/dotgit": f"{BOX}/code/.git",
        f"{BOX}/sandbox/git/config": f"{BOX}/sandbox/git/config",
        f"{BOX}/sandbox/git/hooks": f"{BOX}/sandbox/git/hooks",
        f"{BOX}/sandbox/git/objects/info/alternates": f"{BOX}/sandbox/git/objects/info/alternates",
        f"{BOX}/code/.claude": f"{BOX}/code/.claude",
    }
    # the settings folders that do not exist get an empty, read-only one
    assert [t for s, t in r.protected if s == f"{BOX}/sandbox/empty"] == [
        f"{BOX}/code/.codex",
        f"{BOX}/code/.gemini",
    ]


def test_the_environment_is_the_agents_session_and_no_secret() -> None:
    assert dict(rules().env) == {
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "KEEP": "on",
        "GIT_AUTHOR_NAME": "U",
        "GIT_AUTHOR_EMAIL": "u@example.invalid",
        "HOME": "/Users/u",
        "TMPDIR": "/tmp",
        "TASKPROTO_SESSION": "agent-t-dev",
        "TASKPROTO_AGENT": "1",
        "TASKPROTO_ROOT": "/Users/u/repo/.taskproto",
        "TASKPROTO_SANDBOX": "1",
    }


def test_bwrap_argv_orders_hidden_then_read_only_then_writable_then_protected() -> None:
    argv = bwrap_argv(rules(), "/usr/bin/bwrap")
    assert argv[0] == "/usr/bin/bwrap" and argv[-1] == "--"
    for flag in ("--unshare-user", "--unshare-pid", "--disable-userns", "--new-session"):
        assert flag in argv
    assert argv[argv.index("--cap-drop") + 1] == "ALL"
    assert "--clearenv" in argv and "--unshare-net" not in argv

    def at(*op: str) -> int:
        for i in range(len(argv)):
            if tuple(argv[i : i + len(op)]) == op:
                return i
        raise AssertionError(f"{op} not in {argv}")

    assert (
        at("--ro-bind", "/", "/")
        < at("--tmpfs", "/Users/u")
        < at("--ro-bind", "/Users/u/.venv", "/Users/u/.venv")
        < at("--ro-bind", "/Users/u/repo", "/Users/u/repo")
        < at("--tmpfs", "/Users/u/repo/.taskproto")
        < at("--bind", f"{BOX}/code", f"{BOX}/code")
        < at("--ro-bind", f"{BOX}/sandbox/dotgit", f"{BOX}/code/.git")
        < at("--remount-ro", "/Users/u/repo/.taskproto")
        < at("--chdir", f"{BOX}/code")
    )
    assert at("--setenv", "TASKPROTO_SESSION", "agent-t-dev")
    assert "--unshare-net" in bwrap_argv(rules(network=False))


def test_the_macos_profile_text() -> None:
    assert seatbelt_profile(rules(network=False)) == PROFILE


PROFILE = f"""\
(version 1)
;; taskproto: agent dev of task t
(allow default)
;; not readable: the user's home, runtime and temporary folders (secrets, sockets)
(deny file-read* file-write*
  (subpath "/Users/u")
  (subpath "/run/user/501")
)
;; launchd's ssh agent socket
(deny file-read* network-outbound (regex #"^/private/tmp/com\\.apple\\.launchd\\."))
(allow file-read*
  (subpath "/Users/u/.venv")
)
;; the repository is readable
(allow file-read*
  (subpath "/Users/u/repo")
)
;; taskproto's root is not readable, but for the agent's own places
(deny file-read* (subpath "/Users/u/repo/.taskproto"))
(allow file-read*
  (subpath "{BOX}/code")
  (subpath "{BOX}/sandbox/git")
)
;; writable: nothing but the agent's worktree, its git dir and temporary files
(deny file-write*)
(allow file-write*
  (subpath "{BOX}/code")
  (subpath "{BOX}/sandbox/git")
  (subpath "/private/tmp")
  (subpath "/private/var/folders")
  (literal "/dev/null")
  (literal "/dev/tty")
)
;; and inside them, what must not change
(deny file-write*
  (subpath "{BOX}/code/.git")
  (subpath "{BOX}/sandbox/git/config")
  (subpath "{BOX}/sandbox/git/hooks")
  (subpath "{BOX}/sandbox/git/objects/info/alternates")
  (subpath "{BOX}/code/.claude")
  (subpath "{BOX}/code/.codex")
  (subpath "{BOX}/code/.gemini")
)
;; the user's processes: no signals, no inspection
(deny signal (target others))
(deny process-info* (target others))
(deny mach-priv-task-port (target others))
(deny network*)
"""


def test_a_root_and_a_git_dir_outside_the_main_worktree_are_read_only_too() -> None:
    r = rules_for(
        task="t",
        agent="dev",
        main="/srv/repo",
        common_dir="/srv/repo.git",
        root="/workspace",
        worktree="/workspace/tasks/t/agents/dev/code",
        sandbox_dir="/workspace/tasks/t/agents/dev/sandbox",
        environ={"HOME": "/home/u"},
        identity={},
    )
    assert r.read_only == ("/srv/repo", "/srv/repo.git")
    assert r.state == "/workspace"
    assert r.hidden == ("/home/u", "/tmp", "/var/tmp", "/dev/shm")


def test_the_macos_profile_lets_the_agent_reach_its_channel_and_its_home_copy_only() -> None:
    from dataclasses import replace

    channel, home = "/private/tmp/taskproto-ch-1/s", f"{BOX}/sandbox/home"
    text = seatbelt_profile(replace(rules(network=False), channel=channel, home_copy=home))
    lines = text.splitlines()
    # after every deny it must pass: the home copy after the root's and the writes' denials,
    # the channel after the network's
    home_at = lines.index(f'(allow file-read* file-write* (subpath "{home}"))')
    assert home_at > lines.index("(deny file-write*)")
    assert home_at > lines.index('(deny file-read* (subpath "/Users/u/repo/.taskproto"))')
    channel_at = lines.index(f'(allow file-read* network-outbound (literal "{channel}"))')
    assert channel_at > lines.index("(deny network*)") and channel_at == len(lines) - 1
    assert seatbelt_profile(rules(network=False)) == PROFILE  # none without them
