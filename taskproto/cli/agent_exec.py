"""`taskproto agent exec TASK AGENT -- CMD`: a command in that agent's sandbox (docs/sandbox.md).

A subcommand of `taskproto agent` (cli/agent.py adds it), kept in its own module."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, pass_state


@click.command(
    "exec",
    context_settings={"ignore_unknown_options": True},
)
@click.argument("name")
@click.argument("agent")
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
@click.option(
    "--pass-env",
    "pass_env",
    multiple=True,
    metavar="VAR",
    help="Pass this variable of yours into the sandbox (repeatable; none is passed otherwise "
    "but PATH, the locale and the terminal's).",
)
@click.option(
    "--read-only",
    "read_only",
    multiple=True,
    metavar="DIR",
    type=click.Path(exists=True, file_okay=False, resolve_path=True),
    help="Show this folder of yours read-only inside (repeatable): your home, /tmp and your "
    "runtime folder are hidden, so a tool installed there needs it.",
)
@click.option(
    "--network/--no-network",
    default=None,
    help="Whether the command may use the network (an agent's client needs its model's API). "
    "Default: `network` of the `[agents]` settings, else yes.",
)
@pass_state
def agent_exec(
    state: AppState,
    name: str,
    agent: str,
    command: tuple[str, ...],
    pass_env: tuple[str, ...],
    read_only: tuple[str, ...],
    network: bool | None,
) -> None:
    """Run COMMAND in AGENT's sandbox of task NAME, as the agent would run it.

    Put `--` before COMMAND: `taskproto agent exec t1 dev -- sh -c 'make test'`.

    Inside, only the agent's worktree and its own branch are writable; the repository, the other
    branches, git's config and hooks and the clients' settings are read-only; taskproto's files,
    the other agents' worktrees, your home, secrets, temporary folders and processes are out of
    sight.
    TASKPROTO_SESSION is the agent's session. Afterwards the agent's commits on its branch are
    brought out, through the branch guard. Exits with COMMAND's exit status (1, saying why, when
    a commit of the agent's cannot come out: the task's state forbids commits).
    """
    import os

    from taskproto.config import load_config
    from taskproto.errors import TaskNotFound, UserOnly
    from taskproto.names import agent_name, task_name
    from taskproto.sandbox.run import run_in_sandbox

    task, who = task_name(name), agent_name(agent)
    why = state.agent_context()
    if why:  # an agent would reach another agent's worktree through it
        raise UserOnly(f"running a command in agent {who}'s sandbox", why)
    config = load_config(state.cwd, state.root)
    if not os.path.isfile(config.layout.task_file(task)):
        raise TaskNotFound(task)
    if network is None:
        from taskproto.sandbox.run import network_setting

        network = network_setting(config)
    if command and command[0] == "--":
        command = command[1:]
    outcome = run_in_sandbox(
        config, task, who, command, pass_env=pass_env, read_only=read_only, network=network
    )
    if outcome.head is not None:
        click.echo(
            f"taskproto: {task}-{who} is now at {outcome.head[:12]} (the agent's commits, "
            "brought out of its sandbox)",
            err=True,
        )
    raise SystemExit(outcome.code)
