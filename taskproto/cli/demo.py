"""`taskproto demo`: one task through the whole task-protocol workflow, in a throwaway
repository."""

from __future__ import annotations

import click


@click.command("demo")
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False),
    help="Make the demo repository here (default: a temporary folder).",
)
@click.option("--keep", is_flag=True, help="Keep the temporary repository afterwards.")
def demo(directory: str | None, keep: bool) -> None:
    """Walk one task through the task-protocol workflow in a throwaway repository."""
    from taskproto.ops.demo import run

    run(directory, keep)


COMMANDS = [demo]
