"""The fixes of whole-repository events: a moved repository or root, worktrees set aside, what
init recorded and installed for the agent clients.

Each holds the task's lock, re-checks what it saw, and moves nothing that holds work except back
to where it belongs.
"""

from __future__ import annotations

import os
from pathlib import Path

from taskproto.doctor.fixes import FixContext, fix, name_of
from taskproto.doctor.model import Finding
from taskproto.doctor.moved import relinkable
from taskproto.doctor.repair import repairing
from taskproto.doctor.snapshot import real
from taskproto.errors import TaskprotoError, WorkAtRisk


def _registered_branch(ctx: FixContext, path: Path) -> str | None:
    for w in ctx.engine.repo.worktrees():
        if real(w.path) == real(path) and not w.prunable:
            return w.branch or "(detached)"
    return None


def _repair(ctx: FixContext, path: Path, branch: str) -> None:
    ctx.engine.repo.worktree_repair(path)
    now = _registered_branch(ctx, path)
    if now != branch:
        raise TaskprotoError(
            f"`git worktree repair {path}` did not register it on {branch}; run "
            f"`git worktree list` and repair it by hand"
        )


@fix("worktree-moved")
def repair_moved(ctx: FixContext, f: Finding) -> str:
    cfg, branch = ctx.engine.config, str(f.data["branch"])
    assert f.path is not None
    path = Path(f.path)
    with repairing(ctx.engine, name_of(f), f.check) as r:
        if _registered_branch(ctx, path) is not None:
            return f"{path} is registered again; nothing to do"
        if relinkable(cfg.common_dir, cfg.root, path, branch) is None:
            raise TaskprotoError(f"{path} no longer looks like a moved worktree; run doctor again")
        _repair(ctx, path, branch)
        r.notes.append(f"re-linked moved worktree {path} with `git worktree repair` (in place)")
    return r.notes[-1]


@fix("worktree-set-aside")
def restore_set_aside(ctx: FixContext, f: Finding) -> str:
    cfg, source = ctx.engine.config, Path(str(f.data["source"]))
    branch = str(f.data["branch"])
    assert f.path is not None
    path = Path(f.path)
    with repairing(ctx.engine, name_of(f), f.check) as r:
        if os.path.lexists(path):
            raise WorkAtRisk(f"{path} exists again; compare it with {source} and keep one by hand")
        if relinkable(cfg.common_dir, cfg.root, path, branch, source) is None:
            raise TaskprotoError(f"{source} is no longer a worktree of {branch}; run doctor again")
        os.rename(source, path)  # same folder: atomic, contents untouched
        try:
            _repair(ctx, path, branch)
        except BaseException:
            os.rename(path, source)
            raise
        r.notes.append(
            f"moved {source.name} back to {path} and re-linked it with `git worktree repair`"
        )
    return r.notes[-1]


@fix("task-create-interrupted")
def finish_create(ctx: FixContext, f: Finding) -> str:
    from taskproto.engine.tasks import creator_alive, finish_create, read_intent
    from taskproto.names import task_name

    name = task_name(name_of(f))
    intent = read_intent(ctx.engine.config.task_dir(name))
    if intent is None:
        return f"task {name} is no longer half made; nothing to do"
    if creator_alive(intent):
        raise TaskprotoError(f"`task create {name}` is running again; leave it to finish")
    made = finish_create(ctx.engine, name)
    agents = ", ".join(f.data.get("agents") or []) or "none"
    note = f"finished creating task {name} with agents {agents}" + (
        f" (made: {'; '.join(made)})" if made else ""
    )
    with repairing(ctx.engine, name, f.check) as r:
        r.notes.append(note)
    return note


@fix("hook-records-moved")
def rename_records(ctx: FixContext, f: Finding) -> str:
    from taskproto.clients.settings import Installer

    config = ctx.engine.config
    if f.data.get("record") == "agent-hooks":
        installer = Installer(config)  # it names the record's paths for the place it is in now
        if not installer.report.moved:
            return f"{f.path} names this place already; nothing to do"
        installer.save()
        return (
            f"named the paths of {f.path} for the new place ({'; '.join(installer.report.moved)})"
        )
    from taskproto import plainjson as json
    from taskproto.state.files import atomic_write

    assert f.path is not None
    path, now = Path(f.path), str(f.data["hooks_dir"])
    data = json.loads(path.read_bytes())
    if data.get("hooks_dir") == now:
        return f"{path} names {now} already; nothing to do"
    data["hooks_dir"] = now
    atomic_write(path, json.dumps(data, indent=2).encode() + b"\n")
    return f"recorded in {path.name} that the git hooks are in {now}"


@fix("client-hooks-interpreter-missing")
def reinstall_client_hooks(ctx: FixContext, f: Finding) -> str:
    import sys

    from taskproto.clients import settings

    clients = [str(c) for c in f.data.get("clients") or []]
    report = settings.run(ctx.engine.config, clients, uninstall=False)
    return (
        f"installed the {', '.join(clients)} hooks again with {sys.executable} in "
        f"{len(report.installed)} file(s)"
    )


@fix("client-hooks-other-package")
def point_launchers_here(ctx: FixContext, f: Finding) -> str:
    from taskproto.clients import launcher

    assert f.path is not None
    written, _ = launcher.write(f.path)
    if not written:
        return f"the launchers in {f.path} name {launcher.HOOKS} already; nothing to do"
    return f"pointed the launchers in {f.path} at {launcher.HOOKS} (they named {f.data['hooks']})"


@fix("client-hooks-in-shared-settings")
def move_shared_client_hooks(ctx: FixContext, f: Finding) -> str:
    from taskproto.clients import settings

    client = str(f.data["client"])
    report = settings.run(ctx.engine.config, [client], uninstall=False)
    if not report.migrated:
        return f"{f.path} holds none of taskproto's hooks now; nothing to do"
    said = "".join(f"; {warning}" for warning in report.warnings)
    return (
        f"moved taskproto's hooks out of {f.path} into "
        f"{ctx.engine.config.repo / settings.FILES[client]}{said}"
    )
