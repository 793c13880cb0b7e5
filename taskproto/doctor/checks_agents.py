"""The agents `taskproto agent start` runs, seen when their supervisor is gone (it crashed, or
was killed): an agent that should run has nobody to restart it, pause it or stop it. The fix
starts a supervisor, which adopts them (ops/supervisor.py). Reads the run.json records and the
supervisor's lock; no git runs here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from taskproto.doctor.fixes import FixContext, fix
from taskproto.doctor.model import CHECKS, Finding, Severity, check
from taskproto.doctor.snapshot import Snapshot
from taskproto.ops import agent_records as rec
from taskproto.ops import supervisor

check(
    "agent-unsupervised",
    Severity.WARNING,
    "An agent `taskproto agent start` started should be running, but no supervisor runs (it "
    "crashed or was killed): a crash of the agent would not be restarted, and `agent stop`, "
    "`pause` and `resume` wait for a supervisor. Reported with the agent's pid when its process "
    "still runs, else as down.",
    "start the supervisor: it adopts the agents still running and restarts the others within "
    "their budget (what any `taskproto agent` command also does)",
)


def check_agents(snap: Snapshot) -> Iterator[Finding]:
    """The agents (of the tasks asked for) that want to run while no supervisor holds its lock."""
    config = snap.config
    if not (config.tasks_dir.is_dir()) or supervisor.running_pid(config) is not None:
        return
    for record in rec.every(config):
        if record.get("want") == rec.STOPPED:
            continue
        if snap.scope is not None and record["task"] not in snap.scope:
            continue
        pid = record.get("pid")
        how = f"runs (pid {pid})" if rec.running(record) else "is down"
        yield Finding(
            "agent-unsupervised",
            CHECKS["agent-unsupervised"].severity,
            f"agent {record['agent']} of task {record['task']} ({record['client']}) {how} with "
            "no supervisor",
            None,  # the task's record is right: nothing of it is repaired
            record["agent"],
            str(rec.run_file(config, record["task"], record["agent"])),
        )


@fix("agent-unsupervised")
def start_supervisor(ctx: FixContext, f: Finding) -> str:
    config = ctx.engine.config
    run = Path(f.path or "")
    task = run.parent.parent.parent.name  # <root>/tasks/<task>/agents/<agent>/run.json
    record = rec.read(config, task, f.agent or "") if f.agent else None
    live = record is not None and rec.running(record)
    pid = supervisor.ensure(config)
    if record is not None and not live:  # ended meanwhile: a crash, as the supervisor counts it
        return (
            f"the agents' supervisor runs (pid {pid}); agent {f.agent}'s process had ended: it "
            "restarts it within its retry budget"
        )
    if record is not None and record.get("sandbox") == "bwrap":
        # its channel ended with the old supervisor: the new one starts it again (supervisor.py)
        return (
            f"the agents' supervisor runs (pid {pid}); it starts agent {f.agent} of task {task} "
            "again in its sandbox, with a channel of its own (the old one ended with the old "
            "supervisor), its commits brought out first, costing no retry"
        )
    return f"the agents' supervisor runs (pid {pid}); it adopted agent {f.agent}"
