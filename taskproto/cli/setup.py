"""`taskproto init` and `taskproto demo`."""

from __future__ import annotations

from typing import Any

import click

from taskproto.cli.common import AppState, emit, json_option, pass_state


def _print_hooks(report: Any, uninstall: bool) -> None:
    where = f"{report.hooks_dir}" + (f" (core.hooksPath = {report.hooks_path_setting})" if report.hooks_path_setting else "")
    if uninstall:
        click.echo(f"git hooks removed from {where}: {', '.join(report.removed) or 'none were installed'}")
        if report.restored:
            click.echo(f"  restored the hooks that were there before: {', '.join(report.restored)}")
    else:
        changed = report.installed + report.updated
        click.echo(f"git hooks in {where}: " + (f"installed {', '.join(changed)}" if changed else "already installed"))
        if report.chained:
            click.echo(f"  kept and chained (they run first): {', '.join(report.chained)}")
    for warning in report.warnings:
        click.echo(f"taskproto: warning: {warning}", err=True)


@click.command("init")
@click.option("--git/--no-git", "with_git", default=True, show_default=True,
              help="Install the git hooks into the common git dir (or core.hooksPath).")
@click.option("--uninstall", is_flag=True,
              help="Remove what init installed and put back the hooks that were there before.")
@json_option
@pass_state
def init(state: AppState, with_git: bool, uninstall: bool, as_json: bool) -> None:
    """Prepare this repository: create taskproto's folder, keep it out of git, install the hooks.

    Hooks that were already installed are kept and run before taskproto's; running
    init again changes nothing. `--uninstall` restores the hooks folder as it was.
    """
    from taskproto.config import ensure_root
    from taskproto.hooks import install

    engine = state.engine
    data: dict[str, Any] = {"repo": str(engine.config.repo), "root": str(engine.config.root)}
    reports: list[Any] = []
    if not uninstall:
        ensure_root(engine.config)
    if with_git:
        report = install.uninstall(engine.git) if uninstall else install.install(engine.git)
        data["git_hooks"] = report.as_dict()
        reports.append(report)

    def human() -> None:
        if not uninstall:
            click.echo(f"taskproto ready in {engine.config.repo} (state in {engine.config.root})")
        for report in reports:
            _print_hooks(report, uninstall)

    emit(as_json, data, human)


@click.command("demo")
@click.option("--dir", "directory", type=click.Path(file_okay=False), help="Make the demo repository here (default: a temporary folder).")
@click.option("--keep", is_flag=True, help="Keep the temporary repository afterwards.")
def demo(directory: str | None, keep: bool) -> None:
    """Walk one task through the task-protocol workflow in a throwaway repository."""
    from taskproto.demo import run

    run(directory, keep)


COMMANDS = [init, demo]
