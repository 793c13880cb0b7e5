"""`taskproto init` and `taskproto demo`."""

from __future__ import annotations

from typing import Any

import click

from taskproto.cli.common import AppState, emit, json_option, pass_state


@click.command("init")
@click.option("--claude", "clients", flag_value="claude", multiple=True,
              help="Install the Claude Code hooks (.claude/settings.json, and in every task worktree).")
@click.option("--codex", "clients", flag_value="codex", multiple=True,
              help="Install the Codex CLI hooks (.codex/hooks.json, and in every task worktree).")
@click.option("--gemini", "clients", flag_value="gemini", multiple=True,
              help="Install the Gemini CLI hooks (.gemini/settings.json, and in every task worktree).")
@click.option("--uninstall", is_flag=True, help="Remove what init installed for the clients named.")
@json_option
@pass_state
def init(state: AppState, clients: tuple[str, ...], uninstall: bool, as_json: bool) -> None:
    """Prepare this repository: create taskproto's folder and keep it out of git.

    With --claude/--codex/--gemini, merge taskproto's hooks into that client's settings
    (keeping every existing key and hook; running it again changes nothing), in the main
    worktree and in every task and agent worktree, now and when they are made later.
    --uninstall takes out only ours and restores each file as it was.
    """
    from taskproto.config import ensure_root

    engine = state.engine
    if not uninstall:
        ensure_root(engine.config)
    data: dict[str, Any] = {"repo": str(engine.config.repo), "root": str(engine.config.root)}
    report = None
    wanted = list(dict.fromkeys(clients))
    if wanted:
        from taskproto.agent_hooks import install

        report = install.run(engine.config, wanted, uninstall)
        data["agent_hooks"] = {"clients": wanted, **report.as_dict()}
        if "codex" in wanted and not uninstall:
            data["agent_hooks"]["codex_trust"] = install.codex_trust_instructions(engine.config)

    def human() -> None:
        if not uninstall:
            click.echo(f"taskproto ready in {engine.config.repo} (state in {engine.config.root})")
        if report is not None:
            verb = "removed from" if uninstall else "installed in"
            changed = report.removed if uninstall else report.installed
            click.echo(f"{', '.join(wanted)} hooks {verb}: {', '.join(changed) or 'nothing to change'}")
            for warning in report.warnings:
                click.echo(f"taskproto: warning: {warning}", err=True)
            if "codex" in wanted and not uninstall:
                click.echo(data["agent_hooks"]["codex_trust"], nl=False)

    emit(as_json, data, human)


@click.command("demo")
@click.option("--dir", "directory", type=click.Path(file_okay=False), help="Make the demo repository here (default: a temporary folder).")
@click.option("--keep", is_flag=True, help="Keep the temporary repository afterwards.")
def demo(directory: str | None, keep: bool) -> None:
    """Walk one task through the task-protocol workflow in a throwaway repository."""
    from taskproto.demo import run

    run(directory, keep)


COMMANDS = [init, demo]
