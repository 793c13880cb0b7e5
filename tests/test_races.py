"""Real processes racing on one task: exactly one owner; no lost update."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from taskproto.engine import Engine
from taskproto.state import journal

CLAIM = """
import sys, time, json
from taskproto.cli import main
start = float(sys.argv[1])
while time.time() < start:
    time.sleep(0.001)
sys.exit(main(["--session", sys.argv[2], "claim", "t1", "--json"]))
"""

TOGGLE = """
import sys, time
from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.errors import TransitionRejected
start, count = float(sys.argv[1]), int(sys.argv[2])
engine = Engine(load_config())
while time.time() < start:
    time.sleep(0.001)
done = 0
while done < count:
    state = engine.load("t1").state
    target = "VALIDATION" if state == "IMPLEMENTATION" else "IMPLEMENTATION"
    try:
        engine.fire("t1", target=target)
    except TransitionRejected:
        continue  # another process moved it between our read and our fire: read again
    done += 1
print(done)
"""


def spawn(script: str, args: list[str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", script, *args],
        cwd=cwd,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_eight_processes_race_to_claim_exactly_one_wins(engine: Engine, repo: Path) -> None:
    engine.create_task("t1")
    start = str(time.time() + 1.5)
    procs = [spawn(CLAIM, [start, f"session-{i}"], repo) for i in range(8)]
    results = [(p.wait(timeout=60), p.stdout.read(), p.stderr.read()) for p in procs]  # type: ignore[union-attr]
    winners = [json.loads(out)["session"] for code, out, _ in results if code == 0]
    assert len(winners) == 1, results
    owner = engine.load("t1").owner
    assert owner is not None and owner.session == winners[0]
    losers = [err for code, _, err in results if code != 0]
    assert len(losers) == 7
    for err in losers:
        assert code_is_refusal(err)
        assert f"owned by session {winners[0]}" in err and "since" in err
    claims = [e for e in engine.whole_log("t1")[0] if e.kind == "claim"]
    assert len(claims) == 1


def code_is_refusal(err: str) -> bool:
    """One line on stderr: plain, or (under --json) a JSON error object."""
    if len(err.strip().splitlines()) != 1:
        return False
    return err.startswith("taskproto: ") or "error" in json.loads(err)


def test_eight_processes_fifty_transitions_each_no_lost_update(engine: Engine, repo: Path) -> None:
    engine.create_task("t1")
    for s in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
        engine.fire("t1", target=s)
    engine.approve("t1", "plan", "user")
    engine.fire("t1", target="IMPLEMENTATION")
    before = engine.load("t1").log_count
    start = str(time.time() + 1.5)
    procs = [spawn(TOGGLE, [start, "50"], repo) for _ in range(8)]
    for p in procs:
        assert p.wait(timeout=300) == 0, p.stderr.read()  # type: ignore[union-attr]
    log = engine.whole_log("t1")[0]  # task.json holds its tail: the journal all of it
    moves = log[before:]
    assert len(moves) == 400
    assert all(e.kind == "transition" for e in moves)
    # every entry starts where the previous one ended: a linear history, nothing lost
    for prev, nxt in zip(log[before - 1 :], moves, strict=False):
        assert nxt.from_state == prev.to_state
    history = journal.history(engine.repo, journal.ref_for("t1"))
    transitions = [c for c in history if "->" in c.message.splitlines()[0]]
    assert len(transitions) == 400 + 4  # plus the four before the race
    revision = engine.load("t1").revision
    assert json.loads(history[0].files.get("task.json") or b"{}")["revision"] == revision
