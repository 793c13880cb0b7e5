"""Kill a writer with SIGKILL at random instants and check what it left behind.

Each round forks a child that runs random operations from `ops.OPERATIONS` on one
task, writing a progress record before ("B") and after ("A") each one. The parent
kills the child's whole process group (the child and any git it was running) after
a random delay, then checks:

- task.json and every status.json parse and validate;
- the state equals the one before the interrupted change, or shows exactly that one
  change applied (`Op.expect`); after an "A" record it equals the after-state;
- the journal's newest commit agrees with the files, or (a kill between the save and
  the journal append) holds exactly the state before the change: a lag of one;
- nothing is left but `.tmp-*` files, stale git ref locks and git temporary objects,
  which are counted.

Then it repairs what a kill may leave (the stand-in for `taskproto doctor --fix`
until doctor is on main): it removes a stale ref lock and catches the journal up.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ops
from ops import OPERATIONS, OPS_BY_NAME, SESSION, Snap, journal_snapshot, same_state, snapshot

from taskproto.config import Config
from taskproto.engine import Engine
from taskproto.git.command import Git


@dataclass
class CrashReport:
    kills: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    ops_started: Counter[str] = field(default_factory=Counter)
    tmp_files_seen: int = 0
    ref_locks_seen: int = 0
    git_tmp_objects_seen: int = 0
    journal_lags_repaired: int = 0
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> dict[str, Any]:
        return {
            "kills": self.kills,
            "survived": self.kills - len(self.failures),
            "outcomes": dict(sorted(self.outcomes.items())),
            "ops_started": dict(sorted(self.ops_started.items())),
            "tmp_files_left": self.tmp_files_seen,
            "stale_ref_locks_left": self.ref_locks_seen,
            "git_tmp_objects_left": self.git_tmp_objects_seen,
            "journal_lags_repaired": self.journal_lags_repaired,
            "failures": self.failures[:10],
            "seconds": round(self.seconds, 1),
        }


def _child(repo: Path, name: str, progress: Path, seed: int) -> None:
    """Run operations until killed. Never returns."""
    code = 0
    try:
        os.setsid()  # its own process group, so the kill takes its git processes too
        rng = random.Random(seed)
        engine = ops.engine_for(repo)
        fd = os.open(progress, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        k = 0
        while True:
            before = snapshot(engine.config, name)
            op = rng.choice([o for o in OPERATIONS if o.ready(before)])
            os.write(
                fd,
                (json.dumps({"k": k, "phase": "B", "op": op.name, "snap": before}) + "\n").encode(),
            )
            op.run(engine, name, SESSION)
            if engine.warnings:
                raise RuntimeError(f"warnings: {engine.warnings}")
            after = snapshot(engine.config, name)
            os.write(
                fd,
                (json.dumps({"k": k, "phase": "A", "op": op.name, "snap": after}) + "\n").encode(),
            )
            k += 1
    except BaseException as exc:  # noqa: BLE001 - report anything and leave without running pytest's teardown
        try:
            with open(progress, "a") as fh:
                fh.write(json.dumps({"phase": "E", "error": f"{type(exc).__name__}: {exc}"}) + "\n")
        finally:
            code = 1
    os._exit(code)


def _last_record(progress: Path) -> dict[str, Any] | None:
    if not progress.exists():
        return None
    last = None
    for line in progress.read_bytes().splitlines():
        try:
            last = json.loads(line)
        except ValueError:
            continue  # a record cut short by the kill: the one before it stands
    return last


def _age_leftovers(config: Config, name: str, seconds: float = 120) -> None:
    """Make the kill "a while ago": doctor leaves fresh locks and temp files alone, a live git may
    hold them."""
    git_dir = Git(config.repo).common_dir()
    paths = [git_dir / (ops.journal.ref_for(name) + ".lock")]
    paths += [p for p in config.task_dir(name).rglob(".tmp-*")]
    when = time.time() - seconds
    for path in paths:
        if os.path.lexists(path):
            os.utime(path, (when, when), follow_symlinks=False)


def repair(engine: Engine, name: str) -> bool:
    """`taskproto doctor --fix` after a crash; returns True if the journal had to catch up."""
    from taskproto import doctor

    config = engine.config
    _age_leftovers(config, name)
    disk = snapshot(config, name)
    logged = journal_snapshot(config, name)
    behind = logged is None or not same_state(disk, logged)
    report = doctor.run(config, [name], fix=True)
    if not report.healthy:
        raise AssertionError(
            f"doctor --fix left findings: {[(f.check, f.message) for f in report.findings]}"
        )
    after = journal_snapshot(config, name)
    if after is None or not same_state(snapshot(config, name), after):
        raise AssertionError("doctor --fix did not bring the journal into agreement with task.json")
    return behind


def _check(
    config: Config, name: str, prev: Snap, last: dict[str, Any] | None, report: CrashReport
) -> str | None:
    """Check one kill's aftermath; returns a problem or None."""
    try:
        disk = snapshot(config, name)
    except Exception as exc:  # noqa: BLE001 - any failure to load is the bug we look for
        return f"state does not load after the kill: {type(exc).__name__}: {exc}"
    odd = ops.other_files(config, name)
    if odd:
        return f"unexpected files after the kill: {odd}"
    logged = journal_snapshot(config, name)
    if logged is None:
        return "the journal is gone"
    if last is None or last["phase"] == "A":
        want = prev if last is None else last["snap"]
        if not (same_state(disk, want) and disk["revision"] == want["revision"]):
            return (
                "state differs from the last completed change "
                f"({'none' if last is None else last['op']})"
            )
        report.outcomes["between operations"] += 1
        return (
            None
            if same_state(logged, disk)
            else "journal disagrees with the files between operations"
        )
    if last["phase"] == "E":
        return f"the child failed on its own: {last['error']}"
    op, before = OPS_BY_NAME[last["op"]], last["snap"]
    report.ops_started[op.name] += 1
    if same_state(disk, before) and disk["revision"] == before["revision"]:
        applied = False
    else:
        problem = op.expect(before, disk)
        if problem:
            return f"{op.name}: neither the state before nor after one change: {problem}"
        applied = True
    if same_state(logged, disk):
        report.outcomes[
            f"in {op.name}: {'applied' if applied else 'not applied'}, journal agrees"
        ] += 1
        return None
    if not applied and op.journaled and logged is not None and op.expect(before, logged) is None:
        # the journal is written first: killed between the journal commit and the files, the
        # journal holds the change and the files do not yet (doctor restores them from it)
        report.outcomes[f"in {op.name}: journal one ahead, files not yet written"] += 1
        return None
    return f"{op.name}: the journal neither agrees nor leads by exactly one change"


def run(
    workdir: Path, kills: int, seed: int = 1, max_delay: float = 0.25, kills_per_task: int = 60
) -> CrashReport:
    """Make a repository in `workdir` and kill `kills` writers in it."""
    os.environ.update(ops.GIT_ENV)
    repo = ops.make_repo(workdir / "repo")
    engine = ops.engine_for(repo)
    rng = random.Random(seed)
    report = CrashReport()
    start = time.monotonic()
    name, prev = "", {}
    for i in range(kills):
        if i % kills_per_task == 0:  # a fresh task now and then keeps task.json small
            name = f"crash{i // kills_per_task}"
            ops.prepare_task(engine, name)
            prev = snapshot(engine.config, name)
        progress = workdir / f"progress-{i}.jsonl"
        pid = os.fork()
        if pid == 0:
            _child(repo, name, progress, rng.randrange(1 << 30))
        time.sleep(rng.uniform(0, max_delay))
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass  # it had not called setsid yet, or it already ended: kill the pid itself
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        report.kills += 1
        last = _last_record(progress)
        left = ops.leftovers(engine.config, name)
        report.ref_locks_seen += len(left["ref_locks"])
        problem = _check(engine.config, name, prev, last, report)
        if problem:
            report.failures.append(f"kill {i}: {problem}")
        try:
            if repair(engine, name):
                report.journal_lags_repaired += 1
            prev = snapshot(engine.config, name)
        except Exception as exc:  # noqa: BLE001
            report.failures.append(f"kill {i}: repair failed: {type(exc).__name__}: {exc}")
            break
        progress.unlink(missing_ok=True)
    report.seconds = time.monotonic() - start
    # Left in place on purpose (loads ignore them); a future doctor cleans them.
    report.tmp_files_seen = sum(
        1 for _ in engine.config.tasks_dir.rglob(f"{ops.store.TMP_PREFIX}*")
    )
    git_dir = Git(repo).common_dir()
    report.git_tmp_objects_seen = sum(1 for _ in (git_dir / "objects").rglob("tmp_*"))
    return report
