"""`taskproto init`: prepare the repository and install (or uninstall) the hooks."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from taskproto.cli.common import AppState, emit, json_option, pass_state

if TYPE_CHECKING:
    from taskproto.engine.publish_claims import ClaimsPublished
    from taskproto.engine.publish_landed import LandedPublished
    from taskproto.hooks.git.install import HooksReport
    from taskproto.hooks.install import InitReport


def _print_hooks(report: HooksReport, uninstall: bool) -> None:
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
        if report.removed:  # ours, no longer needed (pre-commit; commit-msg with trailers off)
            click.echo(f"  took out taskproto's {', '.join(report.removed)}, no longer needed")
        if report.restored:
            click.echo(f"  restored the hooks they had chained: {', '.join(report.restored)}")
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
    help="Install the Claude Code hooks in .claude/settings.local.json, this machine's own "
    "settings, kept out of git (and in every task worktree); moves them out of "
    ".claude/settings.json, where an older init put them.",
)
@click.option(
    "--codex",
    "clients",
    flag_value="codex",
    multiple=True,
    help="Install the Codex CLI hooks in .codex/hooks.json (and in every task worktree); kept out "
    "of git when init creates it, else merged into yours, with a warning.",
)
@click.option(
    "--gemini",
    "clients",
    flag_value="gemini",
    multiple=True,
    help="Install the Gemini CLI hooks in .gemini/settings.json (and in every task worktree); kept "
    "out of git when init creates it, else merged into yours, with a warning.",
)
@click.option(
    "--mcp",
    is_flag=True,
    help="Also register the taskproto MCP server with the clients named (.mcp.json for Claude "
    "Code).",
)
@click.option(
    "--uninstall",
    is_flag=True,
    help="Remove what init installed (git hooks, or the clients named) and restore what was there.",
)
@click.option(
    "--remote",
    metavar="NAME",
    help='Share tasks and claims through this git remote: sets remote = "NAME" in '
    ".taskproto.toml (commit it, so every clone shares them); then run `taskproto sync`. "
    "A hosted or bare repository: a working repository on this machine is refused. The claims "
    "made here before are published on it (one another session holds there: a conflict, not "
    "overwritten, exit 1; the remote unreachable: the next sync publishes them), and so are the "
    "journals of tasks landed here before (another journal of that name there: a conflict).",
)
@json_option
@pass_state
def init(
    state: AppState,
    with_git: bool | None,
    clients: tuple[str, ...],
    mcp: bool,
    uninstall: bool,
    remote: str | None,
    as_json: bool,
) -> None:
    """Prepare this repository: create taskproto's folder, keep it out of git, install hooks.

    Plain `taskproto init` installs the git hooks. With --claude/--codex/--gemini it
    merges taskproto's hooks into that client's settings instead (add --git for both),
    in the main worktree and in every task and agent worktree, now and when they are
    made later. Hooks and settings that were already there are kept (existing git hooks
    run before taskproto's); running init again changes nothing, except that after an upgrade
    plain init points the git hooks and the clients' hooks installed earlier at this install.
    The client hooks name this machine's paths, so the files that hold them are kept out of
    git, except a settings file that was already yours (init warns: do not commit them).
    --uninstall takes out only what taskproto installed and restores each file as it was.
    --mcp also registers the taskproto MCP server with those clients (see `taskproto mcp --help`).
    After the repository (or taskproto's root) was moved, init also re-links the task
    worktrees and names its records for the new place: doctor's repairs of a move.
    init registers the repository on this machine for `taskproto inbox --all`.
    """
    import shutil

    from taskproto.errors import TaskprotoError
    from taskproto.git.files import GIT_MISSING
    from taskproto.hooks import install as setup

    if shutil.which("git") is None:  # before the first folder is made: a refusal writes nothing
        raise TaskprotoError(GIT_MISSING)
    wanted = list(dict.fromkeys(clients))
    if mcp and not wanted:
        raise click.UsageError(
            "--mcp needs the clients to register with: --claude, --codex and/or --gemini"
        )
    report = setup.run(state.engine.config, wanted, with_git, mcp, uninstall, remote)
    if not uninstall:  # `taskproto inbox --all` looks here
        from taskproto.ops.inbox import register

        register(state.engine.config.layout.main)
    claims = _publish_claims(state) if remote is not None else None
    landed = _publish_landed(state) if remote is not None else None
    data = report.as_dict()
    if claims is not None and landed is not None:
        data["remote"]["claims"] = claims.as_dict()
        data["remote"]["landed"] = landed.as_dict()
    emit(as_json, data, lambda: _human(report, claims, landed))
    if (claims is not None and claims.conflicts) or (landed is not None and landed.conflicts):
        raise click.exceptions.Exit(1)


def _publish_claims(state: AppState) -> ClaimsPublished:
    """The claims made here before the remote was on, published on it (docs/remote.md)."""
    from taskproto.engine.publish_claims import publish_all

    state.reload()  # the settings now name the remote
    return publish_all(state.engine)


def _publish_landed(state: AppState) -> LandedPublished:
    """The journals of tasks landed here before the remote was on, published on it."""
    from taskproto.engine.publish_landed import publish_all

    return publish_all(state.engine)


def _human(
    report: InitReport,
    claims: ClaimsPublished | None = None,
    landed: LandedPublished | None = None,
) -> None:
    config, uninstall, remote = report.config, report.uninstall, report.remote or ""
    if not uninstall:
        click.echo(f"taskproto ready in {config.repo} (state in {config.root})")
    for done in report.moved:
        click.echo(f"the repository was moved: {done}")
    if report.remote is not None:
        if report.remote_file is None:  # nothing written: nothing new to commit
            click.echo(
                f"tasks are shared through {report.remote} (already set in the settings); run "
                "`taskproto sync` to fetch them"
            )
        else:
            click.echo(
                f"tasks are shared through {report.remote} ({report.remote_file}); run `taskproto "
                "sync` to fetch them, and commit the settings file so every clone shares them"
            )
    if claims is not None:
        pending = f"the claims of {', '.join(claims.pending)}" if claims.pending else None
        _print_published(remote, "claims made here", claims, "claim not published: ", pending)
    if landed is not None:
        pending = "the journals of the tasks landed here" if landed.unreachable else None
        _print_published(remote, "landed tasks", landed, "", pending)
    if report.git_hooks is not None:
        _print_hooks(report.git_hooks, uninstall)
    if report.agent_hooks is not None:
        verb = "removed from" if uninstall else "installed in"
        changed = report.agent_hooks.removed if uninstall else report.agent_hooks.installed
        click.echo(
            f"{', '.join(report.clients)} hooks {verb}: {', '.join(changed) or 'nothing to change'}"
        )
        for migrated in report.agent_hooks.migrated:
            old, new = migrated.split(" -> ", 1)
            click.echo(
                f"taskproto's hooks moved out of {old} (the project's shared settings) into {new} "
                "(this machine's own, kept out of git)"
            )
        for moved in report.agent_hooks.moved:
            click.echo(
                f"the repository was moved ({moved}): the record of the client hooks follows it"
            )
        for warning in report.agent_hooks.warnings:
            click.echo(f"taskproto: warning: {warning}", err=True)
        if report.codex_trust is not None:
            click.echo(report.codex_trust, nl=False)
    for client in report.agent_hooks_left:
        click.echo(
            f"{client} hooks are still installed: `taskproto init --{client} --uninstall` takes "
            "them out"
        )
    for change in report.mcp:
        click.echo(change.describe())
    if report.git_hooks_by_pre_commit:
        click.echo(
            "taskproto's commit and push guards run through the pre-commit framework "
            "(.pre-commit-config.yaml); `taskproto init --git` adds the git hooks it has no stage "
            "for (reference-transaction: docs/hooks.md)"
        )
    elif report.git_hooks_absent:
        click.echo(
            "the git hooks (taskproto's commit and push guards) are not installed: "
            "`taskproto init --git` installs them"
        )
    if report.pre_commit_config is not None:
        click.echo(f"taskproto: warning: {report.pre_commit_config}", err=True)


def _print_published(
    remote: str,
    what: str,
    done: ClaimsPublished | LandedPublished,
    refused: str,
    pending: str | None,
) -> None:
    """What `init` published on the shared remote (`what`), what it could not (`refused` before
    each reason) and what waits for the next sync (`pending`: the remote could not be reached)."""
    if done.published:
        click.echo(f"{what} published on {remote}: {', '.join(done.published)}")
    for name, why in done.conflicts.items():
        click.echo(f"taskproto: {name}: {refused}{why}", err=True)
    if pending:
        click.echo(
            f"taskproto: {pending} are not on {remote} yet ({done.unreachable}); the next "
            "`taskproto sync` publishes them",
            err=True,
        )


COMMANDS = [init]
