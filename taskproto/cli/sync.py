"""`taskproto sync`: exchange journals and claims with the shared remote."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state


@click.command("sync")
@json_option
@pass_state
def sync(state: AppState, as_json: bool) -> None:
    """Push this machine's task journals to the remote and fetch the others'.

    Journals only fast-forward. Tasks created on other machines appear here
    (their worktrees are made when a session here claims them); one already
    landed there does not, its journal is kept for `taskproto log`.

    A task removed on another machine (`taskproto task remove` publishes the
    removal) is not brought here; its journal is kept for `taskproto log`. A
    copy this machine already has is removed too the way `task remove` would
    (no --force), or kept while its worktrees hold work, with the reason. A
    removal made here while the remote could not be reached is published.
    --json lists them in removal_published (in removed_here too),
    removed_elsewhere and kept_here. Claims that `init --remote` could not
    publish (the remote unreachable then) are published now
    (claims_published); one another session holds there is reported in
    claim_conflicts, nothing overwritten, exit 1. The journal of a task landed
    here that the remote lacks (landed before `init --remote`) is published
    (landed_published); another journal of that name there is reported in
    landed_conflicts, nothing overwritten, exit 1. A task another machine landed
    whose landing this clone's base branch lacks (sync fetches journals, not
    the base) is named with the `git pull` that brings it (landed_not_here).
    Needs `remote = "<name>"` in .taskproto.toml or [tool.taskproto].
    """
    engine = state.engine
    report = engine.sync()
    assert engine.remote is not None
    remote = engine.remote.name
    flush_warnings(state)
    data = {
        "remote": remote,
        "pushed": report.pushed,
        "fetched": report.fetched,
        "adopted": report.adopted,
        "removed_here": report.removed,
        "landed_elsewhere": report.landed,
        "removal_published": report.published,
        "claims_published": report.claims_published,
        "claim_conflicts": report.claim_conflicts,
        "landed_published": report.landed_published,
        "landed_conflicts": report.landed_conflicts,
        "removed_elsewhere": report.removed_elsewhere,
        "kept_here": report.kept,
        "landed_not_here": report.landed_not_here,
        "diverged": report.diverged,
        "rejected": report.rejected,
        "claims": {
            t: {
                "session": c.session,
                "host": c.host,
                "pid": c.pid,
                "expires_at": c.expires_at.isoformat(),
            }
            for t, c in sorted(report.claims.items())
        },
    }

    def human() -> None:
        parts = [
            f"{label} {', '.join(names)}"
            for label, names in (
                ("pushed", report.pushed),
                ("fetched", report.fetched),
                ("new here", report.adopted),
                ("landed elsewhere (kept in its log)", report.landed),
                ("removal published", report.published),
                ("claims published", report.claims_published),
                ("landed here, published", report.landed_published),
                ("removed elsewhere (kept in its log)", report.removed_elsewhere),
                ("removed elsewhere but kept here", list(report.kept)),
            )
            if names
        ]
        done = "; ".join(parts)
        if report.conflicts():  # not "up to date" above what it exits 1 for: as `ready` says it
            click.echo(f"synced with {remote}, not all of it:{f' {done}' if done else ''}")
        else:
            click.echo(f"synced with {remote}: {done or 'already up to date'}")
        for name, why in report.kept.items():
            click.echo(f"  {name}: kept here: {why}")
        for name, why in report.conflicts().items():
            click.echo(f"  {name}: {why}")
        for name, pull in report.landed_not_here.items():
            base = pull.rsplit(" ", 1)[-1]
            click.echo(
                f"  {name}: landed on {base} elsewhere; `{pull}` brings it here, then "
                f"`taskproto task remove {name}`"
            )

    emit(as_json, data, human)
    if report.conflicts():
        raise click.exceptions.Exit(1)


COMMANDS = [sync]
