"""The `taskproto` command: click commands, thin, over the library.

Exit codes (one table for the whole CLI): 0 success; 1 refused or failed, with a
one-line reason on stderr; 2 usage error; 3 unexpected internal error, with the
traceback written to a log file whose path is printed.
"""

from __future__ import annotations

import os
import sys
import tempfile
import traceback
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import click

from taskproto import __version__
from taskproto.cli.common import AppState
from taskproto.errors import ExitCode, TaskprotoError

COMMAND_MODULES = [  # one module per command or workflow, named after it
    "taskproto.cli.init",
    "taskproto.cli.demo",
    "taskproto.cli.task",
    "taskproto.cli.claim",
    "taskproto.cli.ready",
    "taskproto.cli.transition",
    "taskproto.cli.merge",
    "taskproto.cli.diff",
    "taskproto.cli.land",
    "taskproto.cli.agent",
    "taskproto.cli.log",
    "taskproto.cli.rollback",
    "taskproto.cli.workflow",
    "taskproto.cli.interrupt",
    "taskproto.cli.build",
    "taskproto.cli.plan_task",
    "taskproto.cli.tight_loop",
    "taskproto.cli.phone_a_team",
    "taskproto.cli.sync",
    "taskproto.cli.doctor",
    "taskproto.cli.hook",
    "taskproto.cli.mcp",
    "taskproto.cli.board",
]


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="taskproto")
@click.option(
    "--root",
    envvar="TASKPROTO_ROOT",
    metavar="DIR",
    help="taskproto's folder (default .taskproto/ in the main worktree, or the repo's config).",
)
@click.option("--session", metavar="ID", help="This session's id (default: $TASKPROTO_SESSION).")
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


def _register() -> None:
    import importlib

    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        for command in module.COMMANDS:
            cli.add_command(command)


def _crash_log(exc: BaseException) -> Path:
    folder = (
        Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "taskproto"
    )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        folder = Path(tempfile.gettempdir())
    path = folder / f"crash-{datetime.now(UTC).strftime('%Y%m%dT%H%M%S')}-{os.getpid()}.log"
    path.write_text("".join(traceback.format_exception(exc)), encoding="utf-8")
    return path


def _refuse(exc: TaskprotoError, args: Sequence[str]) -> int:
    """One line on stderr; under --json, that line is a JSON error object."""
    if "--json" in args:
        import json

        error = {"error": str(exc), "kind": type(exc).__name__, "exit_code": int(exc.exit_code)}
        click.echo(json.dumps(error), err=True)
    else:
        click.echo(f"taskproto: {exc}", err=True)
    return int(exc.exit_code)


def main(argv: Sequence[str] | None = None) -> int:
    _register()
    _STATES.clear()
    args = list(argv) if argv is not None else sys.argv[1:]
    try:
        result = cli.main(
            args=args,
            prog_name="taskproto",
            standalone_mode=False,
        )
        for state in _STATES:  # every command the owner runs renews its heartbeat
            state.renew_heartbeat()
        if isinstance(result, int) and not isinstance(result, bool):
            return result  # ctx.exit(code): hooks report their own exit status
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
        try:
            where = f"traceback written to {_crash_log(exc)}"
        except OSError as log_exc:  # the disk is full or read-only: still one line, no traceback
            where = f"no traceback saved ({log_exc.strerror or log_exc})"
        click.echo(f"taskproto: internal error: {type(exc).__name__}: {exc}; {where}", err=True)
        return int(ExitCode.INTERNAL)
    return int(ExitCode.OK)
