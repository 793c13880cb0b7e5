"""Many processes writing the same tasks at once: counts must come out exact.

`run()` forks `procs` workers (real processes, real flocks, real git), each doing
`ops_per_proc` random operations on tasks chosen from `tasks`. Each worker counts
what it did (by outcome) and the lock wait of every locked change; the parent then
checks every task against the sum of the counts:

- revision: one more per save (no lost update);
- transition_log entries by kind, and interruptions: exactly the changes made;
- the journal: one commit per journaled change, each with exactly one parent;
- every unlocked read in a worker parsed (no torn file).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ops

from taskproto.engine import Engine
from taskproto.errors import CorruptState, TaskprotoError, TransitionRejected
from taskproto.ops import interrupts as interrupt
from taskproto.state import lock, store
from taskproto.state.models import AgentState

MIX = ["claim", "heartbeat", "release", "fire", "interrupt-record", "agent-status"]


def _one(engine: Engine, task: str, op: str, session: str, counts: Counter[str]) -> None:
    """Do one operation; count what it changed (saves, log entries by kind, journal commits)."""
    if op == "claim":
        result = engine.claim(task, session, force=True)
        if result.outcome != "renewed":  # a renewal only writes heartbeat.json: not a save
            counts[f"{task}:saves"] += 1
            counts[f"{task}:log:{'claim' if result.outcome == 'claimed' else 'takeover'}"] += 1
            counts[f"{task}:journal"] += 1
    elif op == "heartbeat":
        try:
            engine.heartbeat(task, session)
        except TaskprotoError:
            counts["refused:heartbeat"] += 1  # another worker holds it: refused, nothing written
            return
        counts[f"{task}:heartbeats"] += 1  # heartbeat.json only: task.json is not saved
    elif op == "release":
        try:
            engine.release(task, session, force=True)
        except TaskprotoError:
            counts["refused:release"] += 1  # nobody holds it
            return
        counts[f"{task}:saves"] += 1
        counts[f"{task}:log:release"] += 1
        counts[f"{task}:journal"] += 1
    elif op == "fire":
        while True:
            state = engine.load(task).state  # an unlocked read: must never see a torn file
            target = "VALIDATION" if state == "IMPLEMENTATION" else "IMPLEMENTATION"
            try:
                engine.fire(task, target=target, session=session, force=True)
                break
            except TransitionRejected:
                counts["retried:fire"] += 1  # moved between our read and our fire: read again
        counts[f"{task}:saves"] += 1
        counts[f"{task}:log:transition"] += 1
        counts[f"{task}:journal"] += 1
    elif op == "interrupt-record":
        interrupt.record(engine, task, "is it done yet?", session)
        counts[f"{task}:saves"] += 1
        counts[f"{task}:interruptions"] += 1
        counts[f"{task}:journal"] += 1
    elif op == "agent-status":
        engine.set_agent_status(task, ops.AGENT, AgentState.COMPLETE, session=session, force=True)
        counts[f"{task}:journal"] += 1
    else:
        raise ValueError(op)
    counts[f"done:{op}"] += 1


def _worker(
    repo: Path, tasks: list[str], n: int, seed: int, start: float, out: Path, poll: float
) -> None:
    code = 0
    try:
        lock.POLL_INTERVAL = poll
        rng = random.Random(seed)
        engine = ops.engine_for(repo)
        session = f"worker-{seed}"
        counts: Counter[str] = Counter()
        waits: list[float] = []
        errors: list[str] = []
        while time.time() < start:
            time.sleep(0.001)
        for _ in range(n):
            task, op = rng.choice(tasks), rng.choice(MIX)
            engine.last_lock_wait = None
            try:
                _one(engine, task, op, session, counts)
            except CorruptState as exc:
                errors.append(f"torn or corrupt read: {exc}")
            except Exception as exc:  # noqa: BLE001 - every unexpected error is a finding
                errors.append(f"{op} on {task}: {type(exc).__name__}: {exc}")
            if engine.last_lock_wait is not None:
                waits.append(engine.last_lock_wait)
            if engine.warnings:
                errors.extend(engine.warnings)
                engine.warnings.clear()
        out.write_text(
            json.dumps({"counts": counts, "waits": waits, "errors": errors, "end": time.time()})
        )
    except BaseException as exc:  # noqa: BLE001
        out.write_text(json.dumps({"fatal": f"{type(exc).__name__}: {exc}"}))
        code = 1
    os._exit(code)


@dataclass
class ContentionReport:
    procs: int
    ops_per_proc: int
    tasks: int
    poll_interval: float
    ops: int = 0
    seconds: float = 0.0
    waits: list[float] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def percentile(self, q: float) -> float:
        if not self.waits:
            return 0.0
        ordered = sorted(self.waits)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def summary(self) -> dict[str, Any]:
        return {
            "procs": self.procs,
            "ops_per_proc": self.ops_per_proc,
            "tasks": self.tasks,
            "poll_interval_ms": self.poll_interval * 1000,
            "ops": self.ops,
            "seconds": round(self.seconds, 2),
            "ops_per_second": round(self.ops / self.seconds, 1),
            "lock_wait_ms": {
                "p50": round(self.percentile(0.5) * 1000, 1),
                "p99": round(self.percentile(0.99) * 1000, 1),
                "max": round(max(self.waits, default=0) * 1000, 1),
                "mean": round(statistics.fmean(self.waits) * 1000, 1) if self.waits else 0.0,
            },
            "done": {k[5:]: v for k, v in sorted(self.counts.items()) if k.startswith("done:")},
            "refused": {
                k[8:]: v for k, v in sorted(self.counts.items()) if k.startswith("refused:")
            },
            "fire_retries": self.counts["retried:fire"],
            "failures": self.failures[:10],
        }


def setup(workdir: Path, tasks: int) -> tuple[Path, list[str]]:
    os.environ.update(ops.GIT_ENV)
    repo = ops.make_repo(workdir / "repo")
    engine = ops.engine_for(repo)
    names = [f"c{i:02d}" for i in range(tasks)]
    for name in names:
        ops.prepare_task(engine, name)
    return repo, names


def _baseline(engine: Engine, name: str) -> dict[str, Any]:
    task = engine.load(name)
    return {
        "revision": task.revision,
        "log": Counter(e.kind for e in engine.whole_log(name)[0]),  # task.json: its tail
        "interruptions": task.interruption_count,
        "journal": len(ops.journal_chain(engine.config, name)),
    }


def run(
    repo: Path,
    names: list[str],
    procs: int,
    ops_per_proc: int,
    seed: int = 1,
    poll: float = lock.POLL_INTERVAL,
) -> ContentionReport:
    engine = ops.engine_for(repo)
    before = {name: _baseline(engine, name) for name in names}
    report = ContentionReport(procs, ops_per_proc, len(names), poll)
    outdir = repo.parent / f"results-{seed}-{poll}"
    outdir.mkdir()
    start = time.time() + 0.3
    pids = []
    for i in range(procs):
        pid = os.fork()
        if pid == 0:
            _worker(repo, names, ops_per_proc, seed * 1000 + i, start, outdir / f"{i}.json", poll)
        pids.append(pid)
    for pid in pids:
        os.waitpid(pid, 0)
    end = start
    for i in range(procs):
        data = json.loads((outdir / f"{i}.json").read_text())
        if "fatal" in data:
            report.failures.append(f"worker {i}: {data['fatal']}")
            continue
        report.counts.update(data["counts"])
        report.waits.extend(data["waits"])
        report.failures.extend(data["errors"])
        end = max(end, data["end"])
    report.seconds = end - start
    report.ops = sum(v for k, v in report.counts.items() if k.startswith(("done:", "refused:")))
    for name in names:
        report.failures.extend(_verify(engine, name, before[name], report.counts))
    return report


def _verify(engine: Engine, name: str, base: dict[str, Any], counts: Counter[str]) -> list[str]:
    problems = []
    try:
        task = store.load_task(engine.config.task_file(name))
        store.load_status(engine.config.status_file(name, ops.AGENT))
    except TaskprotoError as exc:
        return [f"{name}: does not load: {exc}"]
    saves = task.revision - base["revision"]
    if saves != counts[f"{name}:saves"]:
        problems.append(
            f"{name}: {saves} saves on disk, {counts[f'{name}:saves']} made (lost update)"
        )
    log = Counter(e.kind for e in engine.whole_log(name)[0])  # task.json holds its tail
    for kind in ("claim", "takeover", "release", "transition"):
        if log[kind] - base["log"][kind] != counts[f"{name}:log:{kind}"]:
            problems.append(
                f"{name}: {log[kind] - base['log'][kind]} {kind} entries, "
                f"{counts[f'{name}:log:{kind}']} made"
            )
    got = task.interruption_count - base["interruptions"]
    if got != counts[f"{name}:interruptions"]:
        problems.append(f"{name}: {got} interruptions, {counts[f'{name}:interruptions']} recorded")
    chain = ops.journal_chain(engine.config, name)
    if len(chain) - base["journal"] != counts[f"{name}:journal"]:
        problems.append(
            f"{name}: {len(chain) - base['journal']} journal commits, "
            f"{counts[f'{name}:journal']} journaled changes"
        )
    if any(len(parents) != 1 for _, parents in chain[:-1]) or chain[-1][1]:
        problems.append(f"{name}: the journal is not linear")
    head_task = ops.journal_snapshot(engine.config, name)
    if head_task is None or head_task["task"] != task.significant():
        problems.append(f"{name}: the journal's head disagrees with task.json")
    return problems
