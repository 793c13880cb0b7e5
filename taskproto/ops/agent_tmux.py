"""Interactive agents in tmux, driven through libtmux: one tmux server and session per repository,
on a private socket (never the user's own tmux server), one window per agent named
`<task>/<agent>`. libtmux is the optional extra `agents`; imported only here."""

from __future__ import annotations

import hashlib
import os
import shlex
import time

from taskproto.errors import TaskprotoError
from taskproto.state.files import atomic_write

TYPE_CHECKING = False
if TYPE_CHECKING:
    from libtmux import Server, Session, Window

    from taskproto.config import Config

SESSION = "taskproto"
SOCKET = "tmux.sock"
PLACEHOLDER = "taskproto"  # the session's first window: a shell in taskproto's root
SOCKET_MAX = 100  # a unix socket's path is at most 107 bytes


def socket_path(config: Config) -> str:
    """`<root>/tmux.sock`, or, when that path is too long for a socket, one named for the root in a
    private folder of this user's under /tmp."""
    path = str(config.root / SOCKET)
    if len(path.encode()) <= SOCKET_MAX:
        return path
    folder = os.path.join(os.environ.get("TMUX_TMPDIR") or "/tmp", f"taskproto-{os.getuid()}")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    digest = hashlib.sha256(str(config.root).encode()).hexdigest()[:16]
    return os.path.join(folder, f"{digest}.sock")


def window_name(task: str, agent: str) -> str:
    return f"{task}/{agent}"


def server(config: Config) -> Server:
    try:
        import libtmux
    except ImportError:
        raise TaskprotoError(
            "interactive agents need libtmux: pip install 'taskproto[agents]' (and tmux), or "
            "start the agent with --headless"
        ) from None
    return libtmux.Server(socket_path=socket_path(config))


def _session(srv: Server, cwd: str) -> Session:
    found = srv.sessions.filter(session_name=SESSION)
    if found:
        return found[0]
    # the first window is a plain placeholder shell, so closing every agent keeps the session
    return srv.new_session(session_name=SESSION, start_directory=cwd, window_name=PLACEHOLDER)


def open_window(
    config: Config, task: str, agent: str, argv: list[str], env: dict[str, str], cwd: str
) -> int:
    """Start `argv` in a new window of the repository's session; the pane's pid."""
    import shutil

    if shutil.which("tmux") is None:
        raise TaskprotoError(
            "tmux is not installed (or not on PATH): install it (Debian's tmux), or start the "
            "agent with --headless"
        )
    srv = server(config)
    # the placeholder's shell outlives every agent: not in an agent's worktree (doctor would see it)
    session = _session(srv, str(config.root))
    # an ended client's pane stays, dead, until the supervisor keeps its last screen (keep_end)
    srv.cmd("set-option", "-g", "-w", "remain-on-exit", "on")
    name = window_name(task, agent)
    for old in session.windows.filter(window_name=name):
        old.kill()
    window = session.new_window(
        window_name=name,
        start_directory=cwd,
        window_shell=shlex.join(argv),
        environment=env,
        attach=False,
    )
    pane = window.active_pane
    assert pane is not None and pane.pane_pid is not None
    return int(pane.pane_pid)


def find_window(config: Config, task: str, agent: str) -> Window:
    srv = server(config)
    if srv.is_alive():
        for session in srv.sessions.filter(session_name=SESSION):
            for window in session.windows.filter(window_name=window_name(task, agent)):
                return window
    raise TaskprotoError(
        f"agent {agent} of task {task} has no tmux window (is it headless, or stopped?); see "
        "`taskproto agent ps`"
    )


def type_text(config: Config, task: str, agent: str, text: str) -> None:
    """Type `text` into the agent's pane and press Enter."""
    pane = find_window(config, task, agent).active_pane
    assert pane is not None
    pane.send_keys(text, enter=True, literal=True)


def pane_text(config: Config, task: str, agent: str, lines: int) -> list[str]:
    """The last `lines` lines of the agent's pane, its scrollback included."""
    pane = find_window(config, task, agent).active_pane
    assert pane is not None
    captured = pane.capture_pane(start=-max(lines, 1) - 200)
    text = [captured] if isinstance(captured, str) else list(captured or [])
    while text and not text[-1].strip():
        text.pop()
    return text[-lines:] if lines else []


def keep_end(config: Config, task: str, agent: str) -> None:
    """The window of an interactive agent whose client ended: its last screen (its pane kept,
    dead, by remain-on-exit) goes to its agent.log (ops/agent_records.py), which `agent logs`
    prints once the window is gone, so a client that exits at once still says why; then the
    window is closed."""
    from taskproto.ops.agent_records import log_file

    try:
        window = find_window(config, task, agent)
        pane = window.active_pane
        if pane is None or pane.display_message("#{pane_dead}", get_text=True) != ["1"]:
            return  # still running: not the end
        captured = pane.capture_pane(start=-200)
        text: list[str] = []
        for line in [captured] if isinstance(captured, str) else list(captured or []):
            if line.strip() or (text and text[-1].strip()):
                text.append(line)  # the screen's empty rows: one at most in a row
        while text and (not text[-1].strip() or text[-1].startswith("Pane is dead (")):
            text.pop()  # tmux's own last line names the wrapper's status, not the client's
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        head = f"--- the last screen of its tmux window, when it ended ({stamp}) ---"
        atomic_write(log_file(config, task, agent), "\n".join([head, *text, ""]).encode())
        window.kill()
    except Exception as exc:  # noqa: BLE001 - tmux gone or refusing: nothing more to keep
        print(f"supervisor: {task}/{agent}: its window's last screen was not kept: {exc!r}")


def attach(config: Config, task: str, agent: str) -> None:
    """Attach this terminal to the agent's window (returns when the user detaches)."""
    window = find_window(config, task, agent)
    if not os.isatty(0):  # tmux's own refusal would be a traceback
        raise TaskprotoError(
            "`agent attach` needs a terminal, and this one's input is not one: run it at a "
            f"terminal (`taskproto agent logs {task} {agent}` prints the agent's window here)"
        )
    window.select()
    # Inside another tmux the client nests (tmux refuses that while $TMUX names the outer one;
    # the outer server's keys still reach the outer one, the inner's prefix is sent twice).
    os.environ.pop("TMUX", None)
    window.session.attach()


def close_if_idle(config: Config) -> None:
    """End the repository's tmux server when no window but the placeholder is left in it: the
    supervisor's last act, so no tmux server outlives the agents it ran (a window of an agent, or
    any other, keeps it)."""
    import shutil

    if shutil.which("tmux") is None or not os.path.exists(socket_path(config)):
        return
    try:
        srv = server(config)
        if not srv.is_alive():
            return
        names = [w.window_name for session in srv.sessions for w in session.windows]
        if all(name == PLACEHOLDER for name in names):
            srv.kill()
    except Exception as exc:  # libtmux missing, or tmux refusing: the server just stays
        print(f"supervisor: the tmux server stays: {exc!r}")


def kill_server(config: Config) -> None:
    srv = server(config)
    if srv.is_alive():
        srv.kill()
