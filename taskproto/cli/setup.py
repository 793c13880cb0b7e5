"""`taskproto init` and `taskproto demo`."""

from __future__ import annotations

from typing import Any

import click

from taskproto.cli.common import AppState, emit, json_option, pass_state


def _print_hooks(report: Any, uninstall: bool) -> None:
    where = f"{report.hooks_dir}" + (
        f" (core.hooksPath = {report.hooks_path_setting})" if report.hooks_path_setting else ""
    )
    if uninstall:
        click.echo(
            f"git hooks removed from {where}: {', '.join(report.removed) or 'none were installed'}"
        )
        if report.restored:
            click.echo(f"  restored the hooks that were there before: {', '.join(report.restored)}")
    else:
        changed = report.installed + report.updated
        click.echo(
            f"git hooks in {where}: "
            + (f"installed {', '.join(changed)}" if changed else "already installed")
        )
        if report.chained:
            click.echo(f"  kept and chained (they run first): {', '.join(report.chained)}")
    for warning in report.warnings:
        click.echo(f"taskproto: warning: {warning}", err=True)


@click.command("init")
@click.option(
    "--git/--no-git",
    "with_git",
    default=None,
    help="Install the git hooks into the common git dir (or core.hooksPath). "
    "Default: on, unless a client flag is given.",
)
@click.option(
    "--claude",
    "clients",
    flag_value="claude",
    multiple=True,
    help="Install the Claude Code hooks (.claude/settings.json, and in every task worktree).",
)
@click.option(
    "--codex",
    "clients",
    flag_value="codex",
    multiple=True,
    help="Install the Codex CLI hooks (.codex/hooks.json, and in every task worktree).",
)
@click.option(
    "--gemini",
    "clients",
    flag_value="gemini",
    multiple=True,
    help="Install the Gemini CLI hooks (.gemini/settings.json, and in every task worktree).",
)
@click.option(
    "--mcp",
    is_flag=True,
    help="Also register the taskproto MCP server with the clients named (.mcp.json for Claude Code).",
)
@click.option(
    "--uninstall",
    is_flag=True,
    help="Remove what init installed (git hooks, or the clients named) and restore what was there.",
)
@json_option
@pass_state
def init(
    state: AppState,
    with_git: bool | None,
    clients: tuple[str, ...],
    mcp: bool,
    uninstall: bool,
    as_json: bool,
) -> None:
    """Prepare this repository: create taskproto's folder, keep it out of git, install hooks.

    Plain `taskproto init` installs the git hooks. With --claude/--codex/--gemini it
    merges taskproto's hooks into that client's settings instead (add --git for both),
    in the main worktree and in every task and agent worktree, now and when they are
    made later. Hooks and settings that were already there are kept (existing git hooks
    run before taskproto's); running init again changes nothing. --uninstall takes out
    only what taskproto installed and restores each file as it was. --mcp also
    registers the taskproto MCP server with those clients (see `taskproto mcp --help`).
    """
    from taskproto.config import ensure_root

    engine = state.engine
    wanted = list(dict.fromkeys(clients))
    if mcp and not wanted:
        raise click.UsageError(
            "--mcp needs the clients to register with: --claude, --codex and/or --gemini"
        )
    git_hooks = with_git if with_git is not None else not wanted
    data: dict[str, Any] = {"repo": str(engine.config.repo), "root": str(engine.config.root)}
    reports: list[Any] = []
    if not uninstall:
        ensure_root(engine.config)
    if git_hooks:
        from taskproto.hooks.git import install as git_install

        report = git_install.uninstall(engine.git) if uninstall else git_install.install(engine.git)
        data["git_hooks"] = report.as_dict()
        reports.append(report)
    agent_report = None
    if wanted:
        from taskproto.clients import settings as agent_install

        agent_report = agent_install.run(engine.config, wanted, uninstall)
        data["agent_hooks"] = {"clients": wanted, **agent_report.as_dict()}
        if "codex" in wanted and not uninstall:
            data["agent_hooks"]["codex_trust"] = agent_install.codex_trust_instructions(
                engine.config
            )
    mcp_changes: list[Any] = []
    if mcp:
        from taskproto.mcp import registration as mcp_config

        for client in wanted:
            change = (mcp_config.unregister if uninstall else mcp_config.register)(
                client, engine.config.repo
            )
            mcp_changes.append(change)
        data["mcp"] = [c.as_dict() for c in mcp_changes]

    def human() -> None:
        if not uninstall:
            click.echo(f"taskproto ready in {engine.config.repo} (state in {engine.config.root})")
        for report in reports:
            _print_hooks(report, uninstall)
        if agent_report is not None:
            verb = "removed from" if uninstall else "installed in"
            changed = agent_report.removed if uninstall else agent_report.installed
            click.echo(
                f"{', '.join(wanted)} hooks {verb}: {', '.join(changed) or 'nothing to change'}"
            )
            for warning in agent_report.warnings:
                click.echo(f"taskproto: warning: {warning}", err=True)
            if "codex" in wanted and not uninstall:
                click.echo(data["agent_hooks"]["codex_trust"], nl=False)
        for change in mcp_changes:
            click.echo(change.describe())

    emit(as_json, data, human)


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


COMMANDS = [init, demo]
