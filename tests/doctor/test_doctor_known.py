"""What doctor keeps of the task.json contents it judged (doctor/known.py): the next run builds no
Task for bytes it knows, and finds every change of the bytes, whatever their size and time."""

from __future__ import annotations

import json
import os
from pathlib import Path

from doctor_helpers import Env, ids

from taskproto.doctor import known
from taskproto.state.models import Task, utcnow
from tests.conftest import run_taskproto


def kept_file(env: Env) -> Path:
    return Path(env.config.root) / known.FILE


def test_a_second_run_builds_no_task_for_the_bytes_the_first_judged(env: Env) -> None:
    first = env.doctor()
    assert first.healthy
    assert first.snapshot is not None and not first.snapshot.tasks["t"].kept
    data = json.loads(kept_file(env).read_bytes())
    digest = known.key(env.task_file().read_bytes())
    assert data["heads"][digest]["required_agents"] == ["a", "b"]
    second = env.doctor()
    assert second.healthy and not second.findings
    assert second.snapshot is not None
    view = second.snapshot.tasks["t"]
    assert view.kept and view.parsed is None  # the head was enough: no Task was built


def test_an_edit_that_keeps_the_size_and_the_time_is_judged_again(env: Env) -> None:
    assert env.doctor().healthy
    path = env.task_file()
    before = os.stat(path)
    data = path.read_bytes()
    assert b'"priority": 2,' in data
    edited = data.replace(b'"priority": 2,', b'"priority": 9,')  # the same length, invalid
    path.write_bytes(edited)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    found = env.doctor()
    assert "lock-schema-invalid" in ids(found), [(f.check, f.message) for f in found.findings]
    assert found.snapshot is not None and not found.snapshot.tasks["t"].kept


def test_what_the_content_alone_draws_is_never_kept(env: Env) -> None:
    def illegal(d: dict) -> None:  # type: ignore[type-arg]
        d["transition_log"].append(
            {
                "from": "INIT",
                "to": "COMPLETE",
                "trigger": "complete",
                "time": utcnow().isoformat(),
                "kind": "transition",
            }
        )
        d["state"] = "COMPLETE"

    assert env.doctor().healthy
    env.edit(illegal)  # journaled: only the log's own check fires
    for _ in range(2):
        found = env.doctor()
        assert "log-illegal-transition" in ids(found)
    digest = known.key(env.task_file().read_bytes())
    assert digest not in json.loads(kept_file(env).read_bytes())["heads"]


def test_a_kept_file_that_cannot_be_trusted_is_ignored(env: Env) -> None:
    assert env.doctor().healthy
    path = kept_file(env)
    good = json.loads(path.read_bytes())
    digest = known.key(env.task_file().read_bytes())
    other = {**good, "code": "0" * 64}  # judged by other code
    bad_entry = {**good, "heads": {digest: {"name": 5}}}  # an entry that is no head
    for text in (b"\x00garbage", b"[]", json.dumps(other).encode(), json.dumps(bad_entry).encode()):
        path.write_bytes(text)
        found = env.doctor()
        assert found.healthy and not found.findings
        assert found.snapshot is not None and not found.snapshot.tasks["t"].kept
        assert json.loads(path.read_bytes())["heads"][digest]["name"] == "t"  # written again


def test_a_dry_run_keeps_nothing_and_full_takes_nothing(env: Env) -> None:
    assert env.doctor(dry_run=True).healthy
    assert not kept_file(env).exists()
    assert env.doctor().healthy
    full = env.doctor(full=True)
    assert full.healthy
    assert full.snapshot is not None and not full.snapshot.tasks["t"].kept
    result = run_taskproto("doctor", "--full", "--json", cwd=env.repo)
    assert result.code == 0, result.err
    assert json.loads(result.out)["healthy"] is True


def test_the_head_kept_is_the_head_of_the_task(env: Env) -> None:
    at = "2026-11-28T10:00:00.123456Z"
    raw = env.raw()
    raw["owner"] = {"session": "s", "host": "h", "pid": 3, "claimed_at": at, "heartbeat_at": at}
    raw["checkpoint"]["plan_approval"] = {"by": "u", "at": at, "seen": {"terminal": True}}
    raw["checkpoint"]["commit_approval"] = {"sha": "a" * 40, "by": "u", "at": at, "stale": True}
    raw["context"] = {"worktrees": "at claim"}
    for data in (env.raw(), raw):
        task = Task.model_validate(data)
        kept = known.TaskHead.model_validate(json.loads(json.dumps(known.head_json(data))))
        assert kept == known.head_of(task)
