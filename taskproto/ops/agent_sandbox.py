"""An agent taskproto runs (`agent start`) in its sandbox (docs/sandbox.md): which mode a start
gets, the client's argv wrapped in bubblewrap, and the agent's commits brought out of its own git
dir to its branch (when it ends, when it is stopped, every few seconds while it runs, and before
a restart prepares the git dir again).

Only the supervisor wraps and brings out. It holds each running agent's `sandbox/lock` (the one
`agent exec` takes) for as long as the agent runs. Where the agent's branch stood when its git
dir was last made or brought out is kept in `sandbox/start`, outside the agent's reach, so a
bring-out moves the branch only from there (a branch moved meanwhile from outside refuses it).
"""

from __future__ import annotations

import fcntl
import os
import subprocess

from taskproto.errors import TaskprotoError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.config import Config
    from taskproto.sandbox.rules import Rules
    from taskproto.sandbox.serve import Channel

MODES = ("auto", "bwrap", "none")
# the launch's variables the agent's channel gives the hooks it answers (set by taskproto, never
# by the agent): the task, the agent and the prompt it was started with
CHANNEL_PASSES = ("TASKPROTO_TASK", "TASKPROTO_AGENT_NAME", "TASKPROTO_PROMPT")
START = "start"
_held: dict[tuple[str, str], int] = {}  # the supervisor's open sandbox locks
_channels: dict[tuple[str, str], Channel] = {}  # the running agents' channels (sandbox/serve.py)


def problem() -> str | None:
    """Why the sandbox cannot run here (None: it can): not Linux, no bwrap, or bwrap unable to
    make its namespaces (a container that forbids user namespaces)."""
    from taskproto.sandbox import SandboxError
    from taskproto.sandbox.run import find_bwrap

    try:
        bwrap = find_bwrap()
    except SandboxError as exc:
        return exc.reason
    argv = [bwrap, "--unshare-user", "--unshare-pid", "--ro-bind", "/", "/", "--proc", "/proc"]
    proc = subprocess.run([*argv, "--", "true"], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        return f"bubblewrap cannot make its namespaces here ({proc.stderr.strip()})"
    return None


def resolve(mode: str, client: str, named: bool) -> str:
    """The mode a start records: `auto` is `bwrap` where the sandbox runs, else `none`; `bwrap`
    asked for where it cannot serve is refused. Claude Code, Codex and Gemini work inside through
    the agent's channel (their hooks, its `taskproto`) with copies of their logins and their
    variables (sandbox/clients.py). `client`, `named`: kept for the callers."""
    if mode not in MODES:
        raise TaskprotoError(f"--sandbox {mode}: choose one of {', '.join(MODES)}")
    if mode == "none":
        return "none"
    why = problem()
    if why is None:
        return "bwrap"
    if mode == "bwrap":
        raise TaskprotoError(f"--sandbox bwrap cannot run: {why}; start with --sandbox none")
    return "none"


def hidden_client(config: Config, task: str, agent: str, client: str) -> str | None:
    """Why a command-line client cannot run in the agent's sandbox: its program, or a file its
    command line names (a script: `python3 /tmp/agent.py`), lies in a folder the sandbox hides
    (your home, /tmp); None when the sandbox shows them."""
    import shlex
    import shutil

    from taskproto.sandbox.rules import hidden_by

    words = shlex.split(client)
    found = shutil.which(words[0])
    if found is None:
        return None  # not on PATH: the start refuses that on its own
    worktree = str(config.agent_worktree(task, agent))
    named = [os.path.join(worktree, w) for w in words[1:] if "/" in w and not w.startswith("-")]
    rules = _rules(config, task, agent, {})
    for path in [found, *(p for p in named if os.path.isfile(p))]:
        for each in (os.path.abspath(path), os.path.realpath(path)):  # a link and its target
            folder = hidden_by(rules, each)
            if folder is not None:
                return f"{each} lies in {folder}, which the sandbox hides"
    return None


def _box(config: Config, task: str, agent: str) -> str:
    from taskproto.sandbox import gitdir

    return gitdir.sandbox_dir(str(config.agent_dir(task, agent)))


def _rules(
    config: Config,
    task: str,
    agent: str,
    env: dict[str, str],
    client: str | None = None,
    channel: str | None = None,
) -> Rules:
    from taskproto.sandbox import clients
    from taskproto.sandbox.rules import agent_session
    from taskproto.sandbox.run import agent_rules, network_setting

    environ = {**os.environ, **env}
    # the launch's own variables go in (TASKPROTO_TASK, _AGENT_NAME, _PROMPT, the ports); the
    # sandbox's (TASKPROTO_SESSION among them) are set over them
    pass_env, home, kept = sorted(env), None, []
    if client in clients.FOLDER:  # a named client: its home, variables and package
        home, inside = clients.prepare_home(client, _box(config, task, agent), environ)
        pass_env += [*clients.variables(client, environ), *inside]
        environ.update(inside)
        kept = [found] if (found := clients.install_folder(client)) else []
    return agent_rules(
        config,
        task,
        agent,
        environ=environ,
        pass_env=pass_env,
        read_only=kept,
        network=network_setting(config),
        channel=channel,
        session=env.get("TASKPROTO_SESSION") or agent_session(task, agent),
        home_copy=home,
    )


def wrap(
    config: Config, task: str, agent: str, env: dict[str, str], client: str | None = None
) -> list[str]:
    """bubblewrap's argv to put before the client's, with the launch's variables `env` let in;
    the agent's git dir made again (commits a previous run left there brought out first), its
    lock held and its channel served (sandbox/serve.py) until `release`. `client`: a named client
    gets its home, variables and package (sandbox/clients.py)."""
    from taskproto.sandbox import SandboxError, gitdir
    from taskproto.sandbox.bwrap import bwrap_argv
    from taskproto.sandbox.rules import agent_session
    from taskproto.sandbox.run import find_bwrap
    from taskproto.sandbox.serve import Channel

    layout = config.layout
    assert layout.dirs is not None
    box = _box(config, task, agent)
    os.makedirs(box, exist_ok=True)
    if (task, agent) not in _held:
        fd = os.open(os.path.join(box, "lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise SandboxError(
                task, agent, f"agent {agent} of task {task} already runs in its sandbox"
            ) from None
        _held[(task, agent)] = fd
    try:
        bring_out(config, task, agent)  # a restart loses nothing the last run committed
    except SandboxError:
        pass  # refused (the supervisor recorded why): the commit's files stay in the worktree
    prepared = gitdir.prepare(
        task=task,
        agent=agent,
        main=layout.main,
        common_dir=layout.dirs.common_dir,
        worktree=str(config.agent_worktree(task, agent)),
        box=box,
    )
    _save_start(box, prepared.start)
    old = _channels.pop((task, agent), None)
    if old is not None:  # a restart: the last run's channel goes with it
        old.close()
    session = env.get("TASKPROTO_SESSION") or agent_session(task, agent)
    worktree = str(config.agent_worktree(task, agent))
    # the launch's own variables (its task, agent and prompt) for the hooks the channel answers
    launched = {k: v for k, v in env.items() if k in CHANNEL_PASSES}
    channel = Channel(
        task=task,
        agent=agent,
        session=session,
        worktree=worktree,
        environ={**os.environ, **launched},
    ).start()
    _channels[(task, agent)] = channel
    return bwrap_argv(_rules(config, task, agent, env, client, channel.path), find_bwrap())


def serves(task: str, agent: str) -> bool:
    """Whether this process serves the channel of the agent's sandbox (it started the agent)."""
    return (task, agent) in _channels


def started(task: str, agent: str, pid: int) -> None:
    """The agent's process outside, recorded as its client's by the hooks its channel answers."""
    channel = _channels.get((task, agent))
    if channel is not None:
        channel.pid = pid


def release(config: Config, task: str, agent: str) -> None:
    """The agent ended: its commits brought out, its sandbox lock let go."""
    try:
        bring_out(config, task, agent)
    finally:
        let_go(task, agent)
        for name in (".claude", ".codex", ".gemini"):  # the empty folders bubblewrap made
            try:
                os.rmdir(config.agent_worktree(task, agent) / name)
            except OSError:
                pass


def settle(config: Config, record: dict[str, Any], final: bool) -> None:
    """The supervisor's bring-out of a sandboxed agent; `final`: it ended, its sandbox lock is let
    go. A refusal is kept in its run.json (`sandbox_error`, shown by `agent ps`) and printed to
    the supervisor's log; the next bring-out tries again."""
    from taskproto.ops import agent_records as rec

    task, agent = record["task"], record["agent"]
    try:
        if final:
            release(config, task, agent)
        else:
            bring_out(config, task, agent)
        error = None
    except TaskprotoError as exc:
        error = str(exc)
    if error != record.get("sandbox_error"):
        print(f"supervisor: {task}/{agent}: {error or 'its commits came out of its sandbox'}")
        rec.update(config, task, agent, sandbox_error=error)


def let_go(task: str, agent: str) -> None:
    """The agent's sandbox lock, if this process holds it, let go."""
    channel = _channels.pop((task, agent), None)
    if channel is not None:
        channel.close()
    fd = _held.pop((task, agent), None)
    if fd is not None:
        os.close(fd)


def bring_out(config: Config, task: str, agent: str) -> str | None:
    """The agent's branch moved to what it committed inside, if it moved there since the last
    time: the new head, else None. A refusal (the task's state forbids commits) raises
    SandboxError, and the next call tries again."""
    from taskproto.sandbox import gitdir
    from taskproto.sandbox.bwrap import bwrap_argv
    from taskproto.sandbox.run import find_bwrap

    box = _box(config, task, agent)
    git_dir = os.path.join(box, "git")
    start = _read_start(box)
    branch = f"{task}-{agent}"
    if start is None or not os.path.isdir(git_dir):
        return None
    new = gitdir.branch_head(git_dir, branch)
    if new is None or new == start:
        return None
    prepared = gitdir.Prepared(git_dir, branch, start)
    upload = [*bwrap_argv(_rules(config, task, agent, {}), find_bwrap()), "git", "upload-pack"]
    head = gitdir.bring_back(
        task=task,
        agent=agent,
        main=config.layout.main,
        worktree=str(config.agent_worktree(task, agent)),
        prepared=prepared,
        upload_pack=upload,
    )
    if head is not None:
        _save_start(box, head)
    return head


def _save_start(box: str, sha: str) -> None:
    from taskproto.state.files import atomic_write

    atomic_write(os.path.join(box, START), (sha + "\n").encode())


def _read_start(box: str) -> str | None:
    try:
        with open(os.path.join(box, START), encoding="ascii") as fh:
            return fh.read().strip() or None
    except (OSError, ValueError):
        return None
