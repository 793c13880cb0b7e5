"""A task's heartbeat file that is not a heartbeat (a write cut short, a hand edit): its time is
not read, so the owner's liveness falls back to the claim's time. Named, and set aside (kept,
never written over or deleted: state/beat.py); the next heartbeat writes a fresh one."""

from __future__ import annotations

from collections.abc import Iterator

from taskproto.doctor.fixes import FixContext, fix, name_of
from taskproto.doctor.model import CHECKS, Finding, Severity, check
from taskproto.doctor.repair import repairing
from taskproto.doctor.snapshot import Snapshot, TaskView
from taskproto.state import beat

check(
    "heartbeat-corrupt",
    Severity.WARNING,
    "The task's heartbeat.json is not a heartbeat (half-written by a crash, or edited): its time "
    "is ignored, so the owner's liveness is judged by the claim's time alone.",
    "move it aside as heartbeat.json.corrupt-<time> (kept); the owner's next command or hook "
    "writes a fresh one",
)


def check_beat(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    folder = snap.config.layout.task_dir(view.name)
    if beat.corrupt(folder):
        yield Finding(
            "heartbeat-corrupt",
            CHECKS["heartbeat-corrupt"].severity,
            f"{beat.NAME} is not a heartbeat (half-written?); its time is ignored",
            view.name,
            None,
            beat.path(folder),
        )


@fix("heartbeat-corrupt")
def set_beat_aside(ctx: FixContext, f: Finding) -> str:
    folder = ctx.engine.config.layout.task_dir(name_of(f))
    with repairing(ctx.engine, name_of(f), f.check) as r:
        if not beat.corrupt(folder):
            return f"{beat.NAME} is readable again or gone; nothing to do"
        kept = beat.set_aside(folder)
        r.notes.append(f"set {beat.NAME} aside as {kept} (kept); the next heartbeat writes anew")
    return r.notes[-1]
