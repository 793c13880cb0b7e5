"""The per-repository supervisor: starts, watches, restarts, pauses and stops the agents
taskproto runs (`taskproto agent start`), from their run.json records (ops/agent_records.py).

One at a time per repository: it holds `<root>/supervisor.lock` (flock) all its life, its pid in
`<root>/supervisor.json`. `ensure` starts one, detached, when none holds the lock; one started
after a crash adopts the agents still running (pids in the records; each one's exit status in a
file its wrapper writes). It exits once no agent has been running for `IDLE` seconds.

A crashed agent (a non-zero exit, or killed) starts again after a back-off (agent_backoff.py) while
its restarts are under `max_retries` (each journaled: "restart 1/3"); past it, it is escalated.
"""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time

from taskproto import plainjson as json
from taskproto.errors import TaskprotoError
from taskproto.ops import agent_records as rec
from taskproto.ops.agent_backoff import delay, waiting
from taskproto.ops.agent_budget import journal_escalation, retry
from taskproto.ops.agent_launch import environment, findable, launch, named
from taskproto.ops.agent_stall import Stalls
from taskproto.ops.agent_tmux import keep_end
from taskproto.state.files import atomic_write

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.config import Config

LOCK = "supervisor.lock"
PID = "supervisor.json"
EXIT = "exit-status"
LAUNCH_VARIABLES = ("TASKPROTO_TASK", "TASKPROTO_AGENT_NAME", "TASKPROTO_PROMPT")  # see refs.py
TICK = 0.1  # seconds between two looks at the records
IDLE = float(os.environ.get("TASKPROTO_SUPERVISOR_IDLE", "30"))
STOP_TIMEOUT = 5.0  # seconds from SIGTERM to SIGKILL
# The wrapper every agent runs under: the session's owner pid is the wrapper's own (it lives
# exactly as long as the client), and the client's exit status is kept for whichever supervisor
# looks next.
WRAPPER = (
    'TASKPROTO_SESSION_PID=$$; export TASKPROTO_SESSION_PID; "$@"; '
    'echo $? > "$TASKPROTO_EXIT_FILE.tmp" && mv "$TASKPROTO_EXIT_FILE.tmp" "$TASKPROTO_EXIT_FILE"'
)
# A headless agent's: the same, its output piped into its log writer (ops/agent_log.py), which
# rotates the log without losing a line.
HEADLESS_WRAPPER = (
    'TASKPROTO_SESSION_PID=$$; export TASKPROTO_SESSION_PID; { "$@"; '
    'echo $? > "$TASKPROTO_EXIT_FILE.tmp" && mv "$TASKPROTO_EXIT_FILE.tmp" "$TASKPROTO_EXIT_FILE"; '
    '} 2>&1 | "$TASKPROTO_PYTHON" -I -m taskproto.ops.agent_log "$TASKPROTO_LOG_FILE"'
)


def running_pid(config: Config) -> int | None:
    """The live supervisor's pid, or None (its lock is free)."""
    path = config.root / LOCK
    if not path.exists():
        return None
    fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                pid = json.loads((config.root / PID).read_bytes()).get("pid")
            except (OSError, ValueError):
                return -1
            # -1: a supervisor holds the lock but has not written its pid yet
            return pid if isinstance(pid, int) and rec.alive(pid) else -1
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def ensure(config: Config, timeout: float = 10.0) -> int:
    """The supervisor's pid; one is started (detached) when none runs.

    A lock held with no live pid written (-1) is one starting, or one dying: a killed
    supervisor's pid is a zombie while its other threads (the agents' channels) still exit
    holding its files, the lock among them. So whenever the lock is free, one is started, unless
    the one started here is still on its way; one that exited 0 found the lock held (by that dying
    one, or by another caller's look in `running_pid`) and is started again."""
    pid = running_pid(config)
    if pid is not None and pid > 0:
        return pid
    spawned = None if pid is not None else _spawn(config)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pid = running_pid(config)
        if pid is not None and pid > 0:
            return pid
        if pid is None and (spawned is None or spawned.poll() == 0):
            spawned = _spawn(config)
        time.sleep(0.02)
    held = rec.holders(config.root / LOCK) if pid == -1 else {}
    others = {p: c for p, c in held.items() if "taskproto.ops.supervisor" not in c}
    if others:  # never a child of a supervisor (no lock fd is inherited): someone flock(1)ed it
        pid, command = next(iter(others.items()))
        raise TaskprotoError(
            f"the agents' supervisor cannot start: {config.root / LOCK} is held by pid {pid} "
            f"({command[:80]}), which is not a supervisor; end that process, then run this again"
        )
    raise TaskprotoError(
        f"the agents' supervisor did not start within {timeout:g}s; see "
        f"{config.root / 'supervisor.log'}"
    )


def _spawn(config: Config) -> subprocess.Popen[bytes]:
    config.root.mkdir(parents=True, exist_ok=True)
    with open(config.root / "supervisor.log", "ab") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "taskproto.ops.supervisor", str(config.repo), str(config.root)],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # outlives the user's terminal
            close_fds=True,
            env={k: v for k, v in os.environ.items() if k not in LAUNCH_VARIABLES},
        )


class Supervisor:
    def __init__(self, config: Config, lock_fd: int | None = None) -> None:
        self.config = config
        self.lock_fd = lock_fd  # the held supervisor.lock (main), let go by `leave`
        self.children: dict[int, subprocess.Popen[bytes]] = {}
        self.stop_sent: dict[tuple[str, str], float] = {}
        self.stalls = Stalls(config)  # [agents] stall_minutes (ops/agent_stall.py)
        self.brought: dict[tuple[str, str], float] = {}  # the last bring-out of a sandboxed agent

    def run(self) -> None:
        idle_since = time.monotonic()
        while True:
            busy = False
            for record in list(rec.every(self.config)):
                try:
                    busy = self.tend(record) or busy
                except Exception as exc:  # one agent's trouble never stops the others
                    print(f"supervisor: {record.get('task')}/{record.get('agent')}: {exc!r}")
            for child in list(self.children.values()):
                if child.poll() is not None:
                    del self.children[child.pid]
            if busy:
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since > IDLE:
                if self.leave():
                    return
                idle_since = time.monotonic()  # an agent was asked for while it looked
            time.sleep(TICK)

    def leave(self) -> bool:
        """Let go of the supervisor's lock unless an agent is wanted; whether it did. Under the
        records' lock, which a start writes its record under before it calls `ensure`: a record
        written before is seen here (this one stays), one written after finds the lock free (a
        new supervisor starts). Else a start just before this one's end was never carried out."""
        from taskproto.ops.agent_tmux import close_if_idle

        with rec.records_lock(self.config):
            if any(rec.wanted(record) for record in rec.every(self.config)):
                return False
            close_if_idle(self.config)  # no agent left: its tmux server goes too
            if self.lock_fd is not None:
                fcntl.flock(self.lock_fd, fcntl.LOCK_UN)
        return True

    def tend(self, record: dict[str, Any]) -> bool:
        """Move one agent toward what the user wants; whether it is (or should be) running."""
        task, agent = record["task"], record["agent"]
        key = (task, agent)
        pid, want, state = record.get("pid"), record["want"], record["state"]
        live = rec.running(record)
        if want in (rec.RUNNING, rec.PAUSED):
            if not live:
                if state == rec.STARTING:  # once its back-off has passed (agent_backoff.py)
                    return waiting(record, time.time()) or self.try_spawn(record)
                if state in (rec.RUNNING, rec.PAUSED):
                    return self.ended(record)
                return False
            if want == rec.PAUSED and state != rec.PAUSED:
                self.signal(pid, signal.SIGSTOP)
                rec.update(self.config, task, agent, state=rec.PAUSED)
            elif want == rec.RUNNING and state == rec.PAUSED:
                self.signal(pid, signal.SIGCONT)
                rec.update(self.config, task, agent, state=rec.RUNNING)
            if (
                record.get("sandbox") == "bwrap"
                and state == rec.RUNNING
                and not self.channel(record)
            ):
                # adopted from a supervisor that died: its channel died with it, and every tool
                # call inside would be denied; it starts again (its conversation resumed) with one
                # of this supervisor's, costing no retry
                rec.update(self.config, task, agent, orphaned=True)
                self.signal(pid, signal.SIGKILL)
                return True
            if not record.get("client_session") and named(record["client"])[0] != "claude":
                self.bind(record)
            every = 30 if record.get("sandbox_error") else 1  # seconds; a refusal is not urgent
            if (
                record.get("sandbox") == "bwrap"
                and time.monotonic() - self.brought.get(key, 0) > every
            ):
                self.brought[key] = time.monotonic()
                self.bring_out(record, final=False)
            if state == rec.RUNNING and self.stalls.stalled(record):
                rec.update(self.config, task, agent, stalled=True)
                self.signal(pid, signal.SIGKILL)  # restarted as a crash, on the next look
            return True
        # want stopped
        if live:
            sent = self.stop_sent.get(key)
            if sent is None:
                self.signal(pid, signal.SIGTERM)
                self.signal(pid, signal.SIGCONT)  # a paused agent must run to end
                self.stop_sent[key] = time.monotonic()
            elif time.monotonic() - sent > STOP_TIMEOUT:
                self.signal(pid, signal.SIGKILL)
            return True
        self.stop_sent.pop(key, None)
        if state not in (rec.STOPPED, rec.EXITED, rec.ESCALATED):
            self.bring_out(record, final=True)
            rec.update(self.config, task, agent, state=rec.STOPPED, pid=None)
        return False

    def channel(self, record: dict[str, Any]) -> bool:
        """Whether this supervisor serves the sandboxed agent's channel (it started it)."""
        from taskproto.ops.agent_sandbox import serves

        return serves(record["task"], record["agent"])

    def bind(self, record: dict[str, Any]) -> None:
        """A client that takes no session id (Codex, Gemini, a command) names its own in its hook
        calls: the first one from the agent's worktree since the start is bound to the agent
        (`client_session`), so its activity is the agent's. One agent runs per worktree."""
        worktree = str(self.config.agent_worktree(record["task"], record["agent"]))
        started = record.get("started_at") or 0.0
        folder = self.config.root / "activity"  # hooks/agents/activity.py's records
        for found in folder.iterdir() if folder.is_dir() else []:
            try:
                if found.stat().st_mtime < started:
                    continue
                data = json.loads(found.read_bytes()[:8192])
            except (OSError, ValueError):
                continue
            cwd = data.get("cwd") if isinstance(data, dict) else None
            session = data.get("session") if isinstance(data, dict) else None
            if isinstance(cwd, str) and isinstance(session, str) and session != record["session"]:
                if cwd == worktree or cwd.startswith(worktree + os.sep):
                    rec.update(self.config, record["task"], record["agent"], client_session=session)
                    return

    def reload(self) -> None:
        """Read the repository's settings again (`max_retries`, `[agents] stall_minutes`): the
        supervisor outlives many edits of `.taskproto.toml`. Settings that cannot be read leave
        the last ones."""
        from taskproto.config import load_config

        try:
            self.config = load_config(self.config.repo, str(self.config.root))
        except TaskprotoError as exc:
            print(f"supervisor: the settings cannot be read, the last ones hold: {exc}")
            return
        self.stalls.reload(self.config)

    def signal(self, pid: object, sig: int) -> None:
        if not isinstance(pid, int) or pid <= 1:
            return
        # the agent's process group: the client and what it started; a pause or a resume also
        # every group under it (a sandboxed client runs in a session of its own)
        for group in rec.groups(pid) if sig in (signal.SIGSTOP, signal.SIGCONT) else [pid]:
            try:
                os.killpg(group, sig)
            except (ProcessLookupError, PermissionError):
                pass

    def spawn(self, record: dict[str, Any]) -> None:
        task, agent = record["task"], record["agent"]
        attempt = record.get("launches", 0)  # Claude Code resumes its session after the first
        command = launch(self.config, record, attempt)
        findable(record["client"], environment(command).get("PATH"))
        self.stalls.forget(task, agent)
        exit_file = self.config.agent_dir(task, agent) / EXIT
        exit_file.unlink(missing_ok=True)
        env = {**command.env, "TASKPROTO_EXIT_FILE": str(exit_file)}
        argv = ["sh", "-c", WRAPPER, "taskproto-agent", *command.argv]
        if record.get("headless"):
            env["TASKPROTO_LOG_FILE"] = str(rec.log_file(self.config, task, agent))
            env["TASKPROTO_PYTHON"] = sys.executable
            argv[2] = HEADLESS_WRAPPER
            child = subprocess.Popen(
                argv,
                cwd=command.cwd,
                env={**environment(command), **env},
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            self.children[child.pid] = child
            pid = child.pid
        else:
            from taskproto.ops.agent_tmux import open_window

            pid = open_window(self.config, task, agent, argv, env, command.cwd)
        if record.get("sandbox") == "bwrap":  # its hooks, through its channel, name it
            from taskproto.ops.agent_sandbox import started

            started(task, agent, pid)
        rec.update(
            self.config,
            task,
            agent,
            pid=pid,
            pid_started=rec.started(pid),
            state=rec.RUNNING,
            launches=attempt + 1,
            started_at=time.time(),
            restart_at=None,
            exit_code=None,
            error=None,
            # Codex's or Gemini's own session, resumed, stays the agent's; a new one is bound anew
            client_session=record.get("client_session") if command.resumed else None,
        )

    def ended(self, record: dict[str, Any]) -> bool:
        """The agent's process is gone: finished, or crashed and restarted within the budget."""
        task, agent = record["task"], record["agent"]
        self.leftovers(record)
        if not record.get("client_session") and named(record["client"])[0] != "claude":
            self.bind(record)  # a quick client may end between two looks
        self.bring_out(record, final=True)
        if record.get("orphaned"):
            print(f"supervisor: {task}/{agent}: started again, with a channel of its own")
            record = rec.update(self.config, task, agent, state=rec.STARTING, orphaned=False)
            return self.try_spawn(record)
        code = exit_status(self.config, task, agent)
        if code == 0:
            rec.update(self.config, task, agent, state=rec.EXITED, want=rec.STOPPED, exit_code=0)
            return False
        self.reload()  # the budget and the stall time as the settings say now
        how = "was killed" if code is None else f"exited with {code}"
        if record.get("stalled"):
            pane = "" if record.get("headless") else " and no pane output"
            how = f"had no hook activity{pane} for {self.stalls.minutes:g} min and was killed"
        budget = self.config.max_retries
        used = retry(self.config, task, agent, how)
        if used is None:
            journal_escalation(self.config, task, agent, f"it {how}; {budget} retries used")
            rec.update(
                self.config,
                task,
                agent,
                state=rec.ESCALATED,
                want=rec.STOPPED,
                exit_code=code,
                max_restarts=budget,
                crash=f"it {how}",
            )
            return False
        wait, streak = delay(self.config, record, now := time.time())
        rec.update(
            self.config,
            task,
            agent,
            restarts=record.get("restarts", 0) + 1,
            max_restarts=budget,
            state=rec.STARTING,
            exit_code=code,
            stalled=False,
            restart_at=now + wait,
            quick_crashes=streak,
            crash=f"it {how}",
        )
        return True  # started by `tend` once the back-off has passed

    def leftovers(self, record: dict[str, Any]) -> None:
        """The rest of the process group of an agent whose wrapper (its leader) was killed: the
        client and the log writer would run on beside a restarted one. Not a reused pid's."""
        pid = record.get("pid")
        if isinstance(pid, int) and rec.started(pid) in (None, record.get("pid_started")):
            self.signal(pid, signal.SIGKILL)

    def bring_out(self, record: dict[str, Any], final: bool) -> None:
        if final and not record.get("headless"):  # its window's last screen: why it ended
            keep_end(self.config, record["task"], record["agent"])
        if record.get("sandbox") == "bwrap":
            from taskproto.ops.agent_sandbox import settle

            settle(self.config, record, final)

    def try_spawn(self, record: dict[str, Any]) -> bool:
        """Spawn, or say why not in the record (`error`; the agent stays down, `agent start`
        prints it) rather than fail again at every look."""
        try:
            self.spawn(record)
        except Exception as exc:
            why = str(exc) if isinstance(exc, TaskprotoError) else f"{type(exc).__name__}: {exc}"
            print(f"supervisor: {record['task']}/{record['agent']}: could not start: {why}")
            if record.get("sandbox") == "bwrap":
                from taskproto.ops.agent_sandbox import let_go

                let_go(record["task"], record["agent"])
            rec.update(
                self.config,
                record["task"],
                record["agent"],
                state=rec.STOPPED,
                want=rec.STOPPED,
                pid=None,
                error=why,
            )
            return False
        return True


def exit_status(config: Config, task: str, agent: str) -> int | None:
    """How the agent's client ended (None: killed before its wrapper could say)."""
    try:
        return int((config.agent_dir(task, agent) / EXIT).read_text().strip())
    except (OSError, ValueError):
        return None


def main(argv: list[str]) -> int:
    from taskproto.config import load_config

    config = load_config(argv[0], argv[1])
    fd = os.open(config.root / LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return 0  # another one runs: never two at once
    atomic_write(config.root / PID, json.dumps({"pid": os.getpid(), "at": time.time()}).encode())
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    Supervisor(config, fd).run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
