"""The click group: every command, imported when it is run (`COMMANDS`), and the one place that
maps errors to exit codes (the table is in cli/__init__.py)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

import click

from taskproto import __version__
from taskproto.cli.common import AppState
from taskproto.errors import ExitCode, TaskNotFound, TaskprotoError, refusal_line

# Each command and the module that defines it (one module per command or workflow, named after
# it). A command's module is imported only when that command runs; `--help` imports them all.
# tests/cli/test_lazy_commands.py checks this table against each module's COMMANDS.
COMMANDS = {
    "init": "taskproto.cli.init",
    "demo": "taskproto.cli.demo",
    "task": "taskproto.cli.task",
    **dict.fromkeys(("claim", "release", "heartbeat"), "taskproto.cli.claim"),
    **dict.fromkeys(("ready", "dep", "plan-task"), "taskproto.cli.ready"),
    **dict.fromkeys(("transition", "fire", "approve"), "taskproto.cli.transition"),
    "next": "taskproto.cli.next",
    "merge": "taskproto.cli.merge",
    "diff": "taskproto.cli.diff",
    "land": "taskproto.cli.land",
    "update": "taskproto.cli.update",
    "queue": "taskproto.cli.queue",
    "agent": "taskproto.cli.agent",
    "log": "taskproto.cli.log",
    "verify": "taskproto.cli.verify",
    **dict.fromkeys(("rollback", "ack"), "taskproto.cli.rollback"),
    "workflow": "taskproto.cli.workflow",
    **dict.fromkeys(("interrupt", "resume"), "taskproto.cli.interrupt"),
    "build": "taskproto.cli.build",
    **dict.fromkeys(("submit", "revise", "answer", "prompt"), "taskproto.cli.plan_task"),
    **dict.fromkeys(("turn", "handoff", "subtask", "loop"), "taskproto.cli.tight_loop"),
    **dict.fromkeys(("round", "backends", "relay"), "taskproto.cli.phone_a_team"),
    "sync": "taskproto.cli.sync",
    **dict.fromkeys(("doctor", "recover", "escalate"), "taskproto.cli.doctor"),
    "hook": "taskproto.cli.hook",
    "mcp": "taskproto.cli.mcp",
    "board": "taskproto.cli.board",
    "whoami": "taskproto.cli.whoami",
    "migrate": "taskproto.cli.migrate",
    **dict.fromkeys(("export", "import"), "taskproto.cli.exchange"),
    "completion": "taskproto.cli.completion",
    **dict.fromkeys(("inbox", "notify"), "taskproto.cli.attention"),
    "tui": "taskproto.cli.tui",
}


class LazyGroup(click.Group):
    """Imports a command's module when the command is looked up, not before."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            import importlib

            for command in importlib.import_module(COMMANDS[cmd_name]).COMMANDS:
                self.add_command(command)
                if "_TASKPROTO_COMPLETE" in os.environ:  # the shell asks: complete values too
                    from taskproto.cli.completion import attach

                    attach(command)
        return self.commands.get(cmd_name)

    def invoke(self, ctx: click.Context) -> object:
        # A reader that went (`| head -1`): stop writing, exit 0 and silent, as the quick front
        # does; click's own answer to it would be exit 1. What is still buffered goes nowhere.
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            if not _reader_gone():
                raise  # another pipe (a git process's input): not the user's reader
            from taskproto.cli.quick_common import discard_stdout

            discard_stdout()
            return None


def _reader_gone() -> bool:
    """Whether stdout is a pipe whose reader closed it (poll says POLLERR)."""
    import select

    try:
        poll = select.poll()
        poll.register(sys.stdout.fileno(), select.POLLOUT)
    except (OSError, ValueError, AttributeError):
        return False
    return any(event & select.POLLERR for _, event in poll.poll(0))


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="taskproto")
@click.option(
    "--root",
    envvar="TASKPROTO_ROOT",
    metavar="DIR",
    help="taskproto's folder (default .taskproto/ in the main worktree, or the repo's config).",
)
@click.option(
    "--session",
    metavar="ID",
    help="This session's id (default: $TASKPROTO_SESSION, else your terminal's; see `whoami`).",
)
@click.option(
    "-C",
    "--repo",
    "repo",
    metavar="PATH",
    type=click.Path(exists=True, file_okay=False),
    help="Run as if started in PATH.",
)
@click.pass_context
def cli(ctx: click.Context, root: str | None, session: str | None, repo: str | None) -> None:
    """A git-native task protocol for AI coding agents.

    Each task is a task.json lock and state record, a task branch and worktree,
    and one branch and worktree per agent. A workflow engine moves the task
    through its states and refuses any step the workflow does not allow.

    New here? Run `taskproto demo`.
    """
    ctx.obj = AppState(root=root, session=session, cwd=Path(repo).absolute() if repo else None)
    _STATES.append(ctx.obj)  # main() renews its owner's heartbeat once the command succeeded


_STATES: list[AppState] = []


def _refuse(exc: TaskprotoError, args: Sequence[str]) -> int:
    """One line on stderr; under --json, that line is a JSON error object."""
    click.echo(refusal_line(exc, "--json" in args), err=True)
    return int(exc.exit_code)


def run(args: list[str]) -> int:
    """Run the command line `args` through click; the exit code."""
    _STATES.clear()
    try:
        result = cli.main(
            args=args,
            prog_name="taskproto",
            standalone_mode=False,
        )
        for state in _STATES:  # every command the owner runs renews its heartbeat
            state.renew_heartbeat()
            state.refresh_offer()  # and a command that changed a task renews the offer
        if isinstance(result, int) and not isinstance(result, bool):
            return result  # ctx.exit(code): hooks report their own exit status
    except TaskNotFound as exc:
        from taskproto.engine.gone import no_longer_here

        engine = next((s.built_engine for s in reversed(_STATES) if s.built_engine), None)
        return _refuse(no_longer_here(engine, exc), args)
    except TaskprotoError as exc:
        return _refuse(exc, args)
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.format_message() if hasattr(exc, "format_message") else str(exc))
        return int(ExitCode.USAGE)
    except click.UsageError as exc:
        exc.show()
        return int(ExitCode.USAGE)
    except click.ClickException as exc:
        exc.show()
        return int(ExitCode.REFUSED)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.Abort:
        click.echo("taskproto: aborted", err=True)
        return int(ExitCode.REFUSED)
    except KeyboardInterrupt:
        click.echo("taskproto: interrupted", err=True)
        return 130
    except BrokenPipeError:
        return int(ExitCode.OK)
    except Exception as exc:  # noqa: BLE001 - the one place unexpected errors are caught
        from taskproto.cli.crash import unexpected

        line, code = unexpected(exc, "--json" in args)
        click.echo(line, err=True)
        return code
    return int(ExitCode.OK)
