"""Run the real agent clients for one prompt, offline, against a stand-in server.

Each client gets a temporary home (HOME, CODEX_HOME, GEMINI_CLI_HOME) and a
clean environment: only PATH and the locale come from outside, so the variables
of whatever agent runs the test suite (ANTHROPIC_*, CLAUDE_*, CODEX_*) never
leak in. See docs/agents-clients-notes.md for what each client was seen to do.

`CLIENTS` maps a client's name to a `Client`: how to find it, how to put hooks
in place, how to run it, which stand-in server it talks to, and the names it
gives to events and tools. Tests that care about one client use its functions
directly; tests that hold for all three loop over `CLIENTS`.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .standin import AnthropicServer, GeminiServer, OpenAIResponsesServer, StandinServer, ToolCall

DEFAULT_TIMEOUT = 120.0

# Versions .ci/install-clients.sh pins; tests compare against them in messages only.
PINNED = {"claude": "2.1.330", "codex": "0.169.0", "gemini": "0.61.0"}


# Resolved once, at import: the test fixtures point HOME at a temporary folder per test.
_CLIENTS_DIR = Path(
    os.environ.get("TASKPROTO_CLIENTS_DIR") or Path.home() / ".cache" / "taskproto-clients"
).absolute()


def clients_dir() -> Path:
    """The cache folder .ci/install-clients.sh installs into."""
    return _CLIENTS_DIR


def find_client(name: str) -> Path | None:
    """The client's executable: the cache folder first, then PATH."""
    candidate = clients_dir() / "node_modules" / ".bin" / name
    if candidate.is_file() and os.access(candidate, os.X_OK):
        return candidate
    found = shutil.which(name)
    return Path(found).absolute() if found else None


def missing_reason(name: str) -> str:
    return (
        f"agent client {name!r} is not installed: run .ci/install-clients.sh "
        f"(installs into {clients_dir()}) or put {name} on PATH"
    )


@dataclass
class ClientResult:
    """What one run of a client left behind."""

    argv: list[str]
    returncode: int
    stdout: str
    stderr: str
    json: Any = None  # parsed stdout, when the client printed JSON
    events: list[Any] = field(default_factory=list)  # JSON lines (codex exec --json)

    def describe(self) -> str:
        """For assertion messages: everything a human needs to see why."""
        return (
            f"$ {shlex.join(self.argv)}\nexit {self.returncode}\n"
            f"--- stdout ---\n{self.stdout[-4000:]}\n--- stderr ---\n{self.stderr[-4000:]}"
        )


def base_env(home: Path) -> dict[str, str]:
    """A clean environment: PATH and locale from outside, everything else ours."""
    env = {"PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"), "HOME": str(home)}
    for key in ("LANG", "LC_ALL", "TMPDIR"):
        if key in os.environ:
            env[key] = os.environ[key]
    return env


def _run(argv: list[str], cwd: Path, env: Mapping[str, str], timeout: float) -> ClientResult:
    try:
        proc = subprocess.run(
            argv,
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        return ClientResult(
            argv,
            -1,
            _text(exc.stdout),
            _text(exc.stderr) + f"\n[runners] timed out after {timeout} s",
        )
    result = ClientResult(argv, proc.returncode, proc.stdout, proc.stderr)
    try:
        result.json = json.loads(proc.stdout)
    except ValueError:
        for line in proc.stdout.splitlines():
            try:
                result.events.append(json.loads(line))
            except ValueError:
                pass
    return result


def _text(data: bytes | str | None) -> str:
    if data is None:
        return ""
    return data if isinstance(data, str) else data.decode("utf-8", "replace")


def _merge_json(path: Path, update: Mapping[str, Any]) -> None:
    """Merge `update` into the JSON object at `path` (top-level keys replaced)."""
    data = json.loads(path.read_text()) if path.exists() else {}
    data.update(update)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")


HookSpec = Mapping[str, str]  # event name -> shell command line


def _claude_shape(hooks: HookSpec, tool_events: Sequence[str]) -> dict[str, Any]:
    # Claude Code and Codex share this shape: event -> matcher groups.
    return {
        event: [
            {
                "matcher": "*" if event in tool_events else "",
                "hooks": [{"type": "command", "command": command, "timeout": 60}],
            }
        ]
        for event, command in hooks.items()
    }


# ---------------------------------------------------------------------------
# Claude Code
# ---------------------------------------------------------------------------

CLAUDE_QUIET = {
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_AUTOUPDATER": "1",
}


def install_claude_hooks(project_dir: Path, hooks: HookSpec) -> Path:
    """Write the hooks into `project_dir/.claude/settings.json` (merged).

    A linked worktree needs its own: Claude Code does not read the main
    worktree's settings from inside a worktree nested under it.
    """
    path = project_dir / ".claude" / "settings.json"
    _merge_json(path, {"hooks": _claude_shape(hooks, ("PreToolUse", "PostToolUse"))})
    return path


def run_claude(
    prompt: str,
    cwd: Path,
    server: StandinServer,
    home: Path,
    *,
    args: Sequence[str] = ("--permission-mode", "acceptEdits"),
    env: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> ClientResult:
    exe = find_client("claude")
    assert exe is not None, missing_reason("claude")
    home.mkdir(parents=True, exist_ok=True)
    full_env = base_env(home) | CLAUDE_QUIET
    full_env |= {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "standin-key"}
    full_env |= dict(env or {})
    argv = [str(exe), "-p", prompt, "--output-format", "json", *args]
    return _run(argv, cwd, full_env, timeout)


# ---------------------------------------------------------------------------
# Codex CLI
# ---------------------------------------------------------------------------


def write_codex_config(
    codex_home: Path, server: StandinServer, trusted: Sequence[Path] = ()
) -> Path:
    """`$CODEX_HOME/config.toml` pointing at the stand-in, hooks on.

    Each of `trusted` gets a trust entry, which is what makes Codex read that
    project's `.codex/hooks.json`.
    """
    codex_home.mkdir(parents=True, exist_ok=True)
    lines = [
        'model = "mock-model"',
        'model_provider = "mock"',
        'approval_policy = "never"',
        'sandbox_mode = "danger-full-access"',
        "",
        "[model_providers.mock]",
        'name = "mock"',
        f'base_url = "{server.url}/v1"',
        'wire_api = "responses"',
        'env_key = "MOCK_API_KEY"',
        "request_max_retries = 0",
        "stream_max_retries = 0",
        "",
        "[features]",
        "hooks = true",
    ]
    for project in trusted:
        lines += ["", f"[projects.{json.dumps(str(project))}]", 'trust_level = "trusted"']
    path = codex_home / "config.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def install_codex_hooks(hooks_dir: Path, hooks: HookSpec) -> Path:
    """Write `hooks_dir/hooks.json`: `$CODEX_HOME` for user hooks, or a
    project's `.codex` (read only when config.toml trusts the project)."""
    path = hooks_dir / "hooks.json"
    _merge_json(path, {"hooks": _claude_shape(hooks, ("PreToolUse", "PostToolUse"))})
    return path


def run_codex(
    prompt: str,
    cwd: Path,
    server: StandinServer,
    home: Path,
    *,
    codex_home: Path | None = None,
    args: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> ClientResult:
    """Run `codex exec --json`. Writes config.toml unless one is there already.

    `--dangerously-bypass-hook-trust` is always passed: without it Codex runs
    no hook whose hash the user has not trusted, and says nothing.
    """
    exe = find_client("codex")
    assert exe is not None, missing_reason("codex")
    codex_home = codex_home or home / ".codex"
    if not (codex_home / "config.toml").exists():
        write_codex_config(codex_home, server)
    home.mkdir(parents=True, exist_ok=True)
    full_env = base_env(home) | {"CODEX_HOME": str(codex_home), "MOCK_API_KEY": "standin-key"}
    full_env |= dict(env or {})
    argv = [
        str(exe),
        "exec",
        "--skip-git-repo-check",
        "--dangerously-bypass-hook-trust",
        "--json",
        *args,
        prompt,
    ]
    return _run(argv, cwd, full_env, timeout)


# ---------------------------------------------------------------------------
# Gemini CLI
# ---------------------------------------------------------------------------

GEMINI_MODEL = "gemini-2.5-flash"


def install_gemini_hooks(
    settings_dir: Path, hooks: HookSpec, *, user_settings: bool = False
) -> Path:
    """Write the hooks into `settings_dir/.gemini/settings.json` (merged).

    `settings_dir` is GEMINI_CLI_HOME (user settings) or a project folder.
    User settings also get the pinned auth type, without which the base URL
    switches Gemini CLI to a gateway auth that headless runs refuse. Timeouts
    are in milliseconds here.
    """
    groups = {
        event: [
            {
                "matcher": "*" if event in ("BeforeTool", "AfterTool") else "",
                "hooks": [
                    {
                        "name": f"taskproto-test-{event}",
                        "type": "command",
                        "command": command,
                        "timeout": 60_000,
                    }
                ],
            }
        ]
        for event, command in hooks.items()
    }
    update: dict[str, Any] = {"hooks": groups}
    if user_settings:
        update |= gemini_user_settings()
    path = settings_dir / ".gemini" / "settings.json"
    _merge_json(path, update)
    return path


def gemini_user_settings() -> dict[str, Any]:
    return {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False},
    }


def run_gemini(
    prompt: str,
    cwd: Path,
    server: StandinServer,
    home: Path,
    *,
    args: Sequence[str] = ("--approval-mode", "yolo"),
    env: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    relaunch: bool = False,
) -> ClientResult:
    """Run `gemini -p` headless. GEMINI_CLI_HOME is `home`; its settings get
    the pinned auth type if they lack one.

    `gemini` is a launcher that starts node again with a larger heap, and both load the bundle:
    GEMINI_CLI_NO_RELAUNCH (which the launcher gives its child) halves a start's CPU. A user's
    Gemini always relaunches: `relaunch=True` keeps that process tree, for the tests whose
    subject it is (the hook's parent chain, the client found among a command's ancestors)."""
    exe = find_client("gemini")
    assert exe is not None, missing_reason("gemini")
    settings = home / ".gemini" / "settings.json"
    if not settings.exists() or "selectedType" not in settings.read_text():
        _merge_json(settings, gemini_user_settings())
    full_env = base_env(home) | {
        "GEMINI_CLI_HOME": str(home),
        "GOOGLE_GEMINI_BASE_URL": server.url,
        "GEMINI_API_KEY": "standin-key",
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
    }
    if not relaunch:
        full_env["GEMINI_CLI_NO_RELAUNCH"] = "true"
    full_env |= dict(env or {})
    argv = [str(exe), "-m", GEMINI_MODEL, *args, "-p", prompt, "--output-format", "json"]
    return _run(argv, cwd, full_env, timeout)


# ---------------------------------------------------------------------------
# The three side by side
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Client:
    """One client's names and entry points, for tests that hold for all three."""

    name: str
    server: type[StandinServer]
    session_start: str
    prompt_event: str
    pre_tool: str
    all_events: tuple[str, ...]
    write_call: Callable[[Path], ToolCall]  # a tool call that creates this file
    shell_call: Callable[[str], ToolCall]  # the shell tool running this command
    install_hooks: Callable[[Path, Path, HookSpec], None]  # (project, home, hooks)
    run: Callable[..., ClientResult]


def _claude_hooks(project: Path, home: Path, hooks: HookSpec) -> None:
    install_claude_hooks(project, hooks)


def _codex_hooks(project: Path, home: Path, hooks: HookSpec) -> None:
    install_codex_hooks(home / ".codex", hooks)


def _gemini_hooks(project: Path, home: Path, hooks: HookSpec) -> None:
    install_gemini_hooks(home, hooks, user_settings=True)


CLIENTS: dict[str, Client] = {
    "claude": Client(
        name="claude",
        server=AnthropicServer,
        session_start="SessionStart",
        prompt_event="UserPromptSubmit",
        pre_tool="PreToolUse",
        all_events=(
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "PostToolUse",
            "Stop",
            "SessionEnd",
        ),
        write_call=lambda path: ToolCall("Write", {"file_path": str(path), "content": "hello\n"}),
        shell_call=lambda cmd: ToolCall("Bash", {"command": cmd}),
        install_hooks=_claude_hooks,
        run=run_claude,
    ),
    "codex": Client(
        name="codex",
        server=OpenAIResponsesServer,
        session_start="SessionStart",
        prompt_event="UserPromptSubmit",
        pre_tool="PreToolUse",
        all_events=("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"),
        # Codex's model-facing shell tool; hooks see it as tool_name "Bash".
        write_call=lambda path: ToolCall(
            "exec_command", {"cmd": f"printf 'hello\\n' > {shlex.quote(str(path))}"}
        ),
        shell_call=lambda cmd: ToolCall("exec_command", {"cmd": cmd}),
        install_hooks=_codex_hooks,
        run=run_codex,
    ),
    "gemini": Client(
        name="gemini",
        server=GeminiServer,
        session_start="SessionStart",
        prompt_event="BeforeAgent",
        pre_tool="BeforeTool",
        all_events=(
            "SessionStart",
            "BeforeAgent",
            "BeforeTool",
            "AfterTool",
            "AfterAgent",
            "SessionEnd",
        ),
        write_call=lambda path: ToolCall(
            "write_file", {"file_path": str(path), "content": "hello\n"}
        ),
        shell_call=lambda cmd: ToolCall("run_shell_command", {"command": cmd}),
        install_hooks=_gemini_hooks,
        run=run_gemini,
    ),
}
