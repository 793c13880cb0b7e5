"""Running a command in an agent's sandbox: one run of an agent at a time, its branch brought
back afterwards (gitdir.py)."""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from taskproto.config import Config
from taskproto.git.command import Git
from taskproto.sandbox import SandboxError, gitdir
from taskproto.sandbox.bwrap import bwrap_argv
from taskproto.sandbox.rules import (
    CLIENT_FOLDERS,
    CLIENT_SETTINGS,
    GIT_IDENTITY,
    Rules,
    agent_session,
    rules_for,
)
from taskproto.sandbox.serve import Channel


@dataclass(frozen=True)
class Outcome:
    code: int  # the command's exit status (128 + N when a signal N ended it)
    head: str | None  # the agent's branch after the run, when it moved


def find_bwrap() -> str:
    if not sys.platform.startswith("linux"):
        raise SandboxError(
            "",
            "",
            "the sandbox runs on Linux only for now (bubblewrap); macOS's sandbox-exec "
            "profile is written but not run yet (docs/sandbox.md)",
        )
    found = shutil.which("bwrap")
    if found is None:
        raise SandboxError(
            "",
            "",
            "bubblewrap (bwrap) is not installed; install it (Debian: `apt-get install "
            "bubblewrap`) to run agents in a sandbox",
        )
    return found


def network_setting(config: Config) -> bool:
    """`network` of the `[agents]` settings (.taskproto.toml or `[tool.taskproto.agents]`): whether
    an agent's sandbox shares the user's network; yes when unset."""
    from taskproto.errors import ConfigError

    agents = config.raw.get("agents", {})
    value = agents.get("network", True) if isinstance(agents, dict) else True
    if not isinstance(value, bool):
        raise ConfigError(f"{config.source}: [agents] network must be true or false, not {value!r}")
    return value


def identity(main: str, environ: Mapping[str, str]) -> dict[str, str]:
    """Who the agent's commits are by: the user's git identity, read out here (the user's git
    config stays out of the sandbox: it may hold credentials)."""
    found = {k: environ[k] for k in GIT_IDENTITY if environ.get(k)}
    if len(found) < len(GIT_IDENTITY):
        out = Git(main).run("config", "--get-regexp", r"^user\.(name|email)$", check=False)
        user = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
        for kind in ("AUTHOR", "COMMITTER"):
            for part, key in (("NAME", "user.name"), ("EMAIL", "user.email")):
                if f"GIT_{kind}_{part}" not in found and user.get(key):
                    found[f"GIT_{kind}_{part}"] = user[key]
    return found


def agent_rules(
    config: Config,
    task: str,
    agent: str,
    *,
    environ: Mapping[str, str] | None = None,
    pass_env: Sequence[str] = (),
    read_only: Sequence[str] = (),
    network: bool = True,
    channel: str | None = None,
    session: str | None = None,
    home_copy: str | None = None,
) -> Rules:
    """The rules of one agent's sandbox in this repository (rules.rules_for: `channel`, `session`,
    `home_copy`)."""
    env = _own_taskproto_first(os.environ if environ is None else environ)
    layout = config.layout
    assert layout.dirs is not None
    worktree = layout.agent_worktree(task, agent)
    candidates = [os.path.join(worktree, name) for name in CLIENT_SETTINGS]
    candidates.append(f"/run/user/{os.getuid()}")
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # taskproto's package
    return rules_for(
        task=task,
        agent=agent,
        main=layout.main,
        common_dir=layout.dirs.common_dir,
        root=layout.root,
        worktree=worktree,
        sandbox_dir=gitdir.sandbox_dir(layout.agent_dir(task, agent)),
        environ=env,
        identity=identity(layout.main, env),
        kept=sorted({sys.prefix, sys.base_prefix, os.path.dirname(here), *read_only}),
        pass_env=pass_env,
        network=network,
        existing=[p for p in candidates if os.path.lexists(p)],
        channel=channel,
        session=session,
        home_copy=home_copy,
    )


def _own_taskproto_first(environ: Mapping[str, str]) -> Mapping[str, str]:
    """`environ` with the folder of this install's `taskproto` command first on PATH: inside, the
    agent's `taskproto` is the one that guards it, not whatever the user's PATH finds first (or
    nothing, where taskproto was started by its path from a virtualenv not activated)."""
    scripts = sysconfig.get_path("scripts")
    if not os.path.isfile(os.path.join(scripts, "taskproto")):
        return environ  # run from a checkout (`python -m taskproto`): no command of its own
    rest = [p for p in environ.get("PATH", os.defpath).split(os.pathsep) if p and p != scripts]
    return {**environ, "PATH": os.pathsep.join([scripts, *rest])}


def run_in_sandbox(
    config: Config,
    task: str,
    agent: str,
    command: Sequence[str],
    *,
    pass_env: Sequence[str] = (),
    read_only: Sequence[str] = (),
    network: bool = True,
) -> Outcome:
    """Run `command` in agent `agent`'s sandbox, in its worktree; then bring its branch back."""
    import fcntl
    import subprocess

    layout = config.layout
    assert layout.dirs is not None
    worktree = layout.agent_worktree(task, agent)
    if not os.path.isdir(worktree):
        raise SandboxError(
            task,
            agent,
            f"agent {agent} of task {task} has no worktree ({worktree}); "
            f"see `taskproto task show {task}`",
        )
    bwrap = find_bwrap()
    box = gitdir.sandbox_dir(layout.agent_dir(task, agent))
    os.makedirs(box, exist_ok=True)
    with open(os.path.join(box, "lock"), "a+b") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SandboxError(
                task,
                agent,
                f"agent {agent} of task {task} is already running in its sandbox; "
                "wait for that run to end",
            ) from None
        prepared = gitdir.prepare(
            task=task,
            agent=agent,
            main=layout.main,
            common_dir=layout.dirs.common_dir,
            worktree=worktree,
            box=box,
        )
        channel = Channel(
            task=task, agent=agent, session=agent_session(task, agent), worktree=worktree
        ).start()
        rules = agent_rules(
            config,
            task,
            agent,
            pass_env=pass_env,
            read_only=read_only,
            network=network,
            channel=channel.path,
        )
        absent = [
            f for f in (os.path.join(worktree, n) for n in CLIENT_FOLDERS) if not os.path.lexists(f)
        ]
        try:
            proc = subprocess.Popen([*bwrap_argv(rules, bwrap), *command])
            channel.pid = proc.pid
            returncode = proc.wait()
            channel.close()
            code = returncode if returncode >= 0 else 128 - returncode
            head = gitdir.bring_back(
                task=task,
                agent=agent,
                main=layout.main,
                worktree=worktree,
                prepared=prepared,
                # its channel is closed by now: the upload runs without it
                upload_pack=[
                    *bwrap_argv(replace(rules, channel=None), bwrap),
                    "git",
                    "upload-pack",
                ],
            )
        finally:
            channel.close()
            for folder in absent:  # the empty folders bubblewrap made to cover them
                try:
                    os.rmdir(folder)
                except OSError:
                    pass
    return Outcome(code, head)
