"""`taskproto verify`: every journal replayed from its first commit (docs/verify.md)."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, emit, json_option, pass_state


@click.command("verify")
@click.argument("tasks", nargs=-1)
@click.option(
    "--all",
    "every",
    is_flag=True,
    help="Every journal, the removed and landed tasks' archived ones too (also what no TASK "
    "means).",
)
@click.option(
    "--allowed-signers",
    metavar="FILE",
    help="The SSH allowed-signers file the approvals' signers are checked against (default: "
    "[verify] allowed_signers, else git's gpg.ssh.allowedSignersFile).",
)
@click.option(
    "--require-signed",
    is_flag=True,
    help="Fail on an unsigned approval, as [verify] require_signed_approvals = true does (for a "
    "clone without the repository's settings).",
)
@json_option
@pass_state
def verify(
    state: AppState,
    tasks: tuple[str, ...],
    every: bool,
    allowed_signers: str | None,
    require_signed: bool,
    as_json: bool,
) -> None:
    """Replay the journals of TASKS (every journal with --all or none named) from their first
    commit, and print the first journal commit where a check fails and why.

    Checked: each commit's bytes against its id and that nothing under refs/replace/ stands in
    for it; the chain (one parent, the next revision, task.json's digest); each step a transition
    of the task's workflow; each approval signed by an allowed signer, naming the commit it
    approves, not made from an agent's process; each landing of the approved commit; a live
    task's task.json here against its journal's newest commit. Exit 1 when
    a journal fails. Needs only git, the journal refs and the allowed-signers file. --json gives
    {ok, journals: [{task, ref, ok, commits, signed, failure: {commit, reason}, warnings}]}.
    """
    from taskproto.config import load_config
    from taskproto.engine.verify import verify as run
    from taskproto.names import task_name

    if every and tasks:
        raise click.UsageError("name TASKs or give --all, not both")
    for name in tasks:
        task_name(name)
    config = load_config(state.cwd, state.root)
    reports = run(config, list(tasks), allowed_signers, require_signed)
    ok = all(r.ok for r in reports)

    def human() -> None:
        for r in reports:
            if r.failure is not None:
                commit, why = r.failure
                click.echo(f"{r.task}: FAILED at journal commit {commit[:12]} ({r.ref}): {why}")
                continue
            commits = f"{r.commits} commit" + ("" if r.commits == 1 else "s")
            click.echo(f"{r.task}: ok ({commits}, {r.signed} signed)")
            for commit, why in r.warnings:
                click.echo(f"{r.task}: warning at journal commit {commit[:12]}: {why}")
        if not reports:
            click.echo("no journals to verify")

    emit(as_json, {"ok": ok, "journals": [r.as_json() for r in reports]}, human)
    if not ok:
        raise click.exceptions.Exit(1)


COMMANDS = [verify]
