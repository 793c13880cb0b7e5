"""Property tests: no input makes taskproto raise anything but its own clear errors.

- the task model: any JSON document, any bytes, any mutation of a real task.json is a
  valid Task (which saves and loads back unchanged) or a CorruptState/UnsupportedSchema;
- the interruption classifier: any text is one of the five classes;
- the CLI's stdin readers (`interrupt classify -`, `interrupt record TASK -`): any bytes
  give exit 0 and a defined answer, never a traceback;
- hooks: every entry point in ops.HOOK_ENTRY_POINTS gets arbitrary bytes on stdin
  (the registry fills up as the hooks land; see docs/reliability.md).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import ops
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from taskproto.classify.interruptions import DEFAULT_RULES, classify, is_approval_like
from taskproto.engine import Engine
from taskproto.errors import CorruptState, UnsupportedSchema
from taskproto.state import store
from taskproto.state.models import AgentStatus, Task
from tests import forkrun

CLASSES = {"RESUMPTION", "AUDIT", "QUESTION", "STATUS_REQUEST", "OTHER"}
FIXTURES = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=30,
)


def _parse_or_clear_error(model: type[Task | AgentStatus], data: bytes, path: Path) -> None:
    try:
        loaded = store.parse(model, path, data, move_aside=False)
    except (CorruptState, UnsupportedSchema) as exc:
        assert str(exc) and "\n" not in str(exc)  # one line a user can read
        return
    again = store.parse(
        model, path, store.dump(loaded), move_aside=False
    )  # what loads, saves and reloads
    assert again == loaded


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_any_json_document_is_a_task_or_a_clear_error(doc: Any) -> None:
    _parse_or_clear_error(Task, json.dumps(doc).encode(), Path("/nonexistent/task.json"))


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_are_a_task_or_a_clear_error(data: bytes) -> None:
    _parse_or_clear_error(Task, data, Path("/nonexistent/task.json"))
    _parse_or_clear_error(AgentStatus, data, Path("/nonexistent/status.json"))


REAL_TASK: dict[str, Any] = {
    "schema_version": 1,
    "name": "t1",
    "workflow": "task-protocol",
    "state": "IMPLEMENTATION",
    "created_at": "2025-01-01T00:00:00Z",
    "updated_at": "2025-01-01T00:00:00Z",
    "revision": 3,
    "owner": {
        "session": "s",
        "host": "h",
        "pid": 1,
        "claimed_at": "2025-01-01T00:00:00Z",
        "heartbeat_at": "2025-01-01T00:00:00Z",
    },
    "required_agents": ["a1"],
    "transition_log": [
        {
            "from": None,
            "to": "INIT",
            "trigger": "create",
            "time": "2025-01-01T00:00:00Z",
            "kind": "create",
        }
    ],
    "interruptions": [{"type": "QUESTION", "time": "2025-01-01T00:00:00Z", "state": "INIT"}],
    "checkpoint": {"plan_approval": {"by": "user", "at": "2025-01-01T00:00:00Z"}},
    "counters": {"iteration": 1},
    "artifacts": {"plan": {"steps": [1, 2]}},
    "context": {},
}


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            found += _paths(value, (*prefix, i))
    return found


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_any_mutation_of_a_real_task_is_valid_or_a_clear_error(data: st.DataObject) -> None:
    doc = json.loads(json.dumps(REAL_TASK))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(doc)[1:]))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(json_values)
    _parse_or_clear_error(Task, json.dumps(doc).encode(), Path("/nonexistent/task.json"))


@pytest.mark.parametrize(
    "data",
    [
        b"[" * 100_000 + b"]" * 100_000,  # RecursionError inside json
        b'{"schema_version": '
        + b"1" * 5000
        + b"}",  # past Python's integer digit limit (ValueError)
        b'{"artifacts": '
        + b'{"a": ' * 500
        + b"1"
        + b"}" * 501,  # loads, but too deep to copy or save
        b'{"name": "\\ud800"}',  # a lone surrogate: loads, could never be saved
        b'{"schema_version": true}',
        b'{"schema_version": 2}',
        b"\xef\xbb\xbf{}",
        b"\x00",
        b"",
    ],
    ids=[
        "deep-array",
        "huge-int",
        "deep-artifacts",
        "surrogate",
        "bool-version",
        "future-version",
        "bom",
        "nul",
        "empty",
    ],
)
def test_hostile_documents_give_a_clear_error(data: bytes) -> None:
    with pytest.raises((CorruptState, UnsupportedSchema)):
        store.parse(Task, Path("/nonexistent/task.json"), data, move_aside=False)


@settings(max_examples=500, deadline=None)
@given(st.text())
def test_any_text_is_one_of_the_five_classes(text: str) -> None:
    result = classify(text, DEFAULT_RULES)
    assert result.type in CLASSES
    assert isinstance(is_approval_like(text), bool)


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURES)
@given(st.binary(max_size=400))
def test_interrupt_classify_stdin_any_bytes(
    cli: Any, monkeypatch: pytest.MonkeyPatch, data: bytes
) -> None:
    _stdin(monkeypatch, data)
    result = cli("interrupt", "classify", "-", "--json")
    assert result.code == 0, result.err
    answers = [json.loads(line) for line in result.out.splitlines()]
    assert len(answers) == len(data.decode("utf-8", "replace").splitlines())
    assert all(a["type"] in CLASSES for a in answers)


@settings(max_examples=25, deadline=None, suppress_health_check=FIXTURES)
@given(st.binary(max_size=400))
@example(b"")  # an empty message is refused (docs/interruptions.md), whatever the draw
@example(b" \n\t")
@example(b"weiter")
def test_interrupt_record_stdin_any_bytes(
    cli: Any, engine: Engine, monkeypatch: pytest.MonkeyPatch, data: bytes
) -> None:
    if "fz" not in engine.task_names():
        engine.create_task("fz")
    before = engine.load("fz")
    _stdin(monkeypatch, data)
    result = cli("interrupt", "record", "fz", "-", "--json")
    after = engine.load("fz")
    assert after.state == before.state
    if not data.decode("utf-8", "replace").strip():  # an empty message: refused, nothing written
        assert result.code == 1 and "the message is empty" in result.err, result.err
        assert after.interruption_count == before.interruption_count
        return
    assert result.code == 0, result.err
    assert json.loads(result.out)["type"] in CLASSES
    assert after.interruption_count == before.interruption_count + 1


@pytest.mark.parametrize(
    "data",
    [b"\xff\xfe\x00bad\r\r\n\x1b[2J" + b"\x00" * 1000, b"x" * 1_000_000],
    ids=["invalid-utf8-nuls-control", "1MB-line"],
)
def test_stdin_readers_as_real_processes(repo: Path, engine: Engine, data: bytes) -> None:
    """The way a hook runs them: a real process, a real pipe, a timeout (no hang)."""
    engine.create_task("fz")
    for argv in (["interrupt", "classify", "-"], ["interrupt", "record", "fz", "-"]):
        proc = subprocess.run(
            [sys.executable, "-m", "taskproto", *argv],
            cwd=repo,
            input=data,
            capture_output=True,
            timeout=60,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        assert b"Traceback" not in proc.stderr


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository with a task under way, so the hooks have real state to read."""
    from taskproto.config import load_config

    repo = ops.make_repo(tmp_path_factory.mktemp("hooks") / "repo")
    ops.prepare_task(Engine(load_config(repo)), "t1")
    return repo


@pytest.mark.parametrize("hook", ops.HOOK_ENTRY_POINTS, ids=lambda h: h.name)
@settings(max_examples=8, deadline=None, suppress_health_check=FIXTURES)
@given(data=st.binary(max_size=2000) | st.builds(lambda d: json.dumps(d).encode(), json_values))
def test_hook_stdin_any_bytes(hook_repo: Path, hook: ops.HookEntry, data: bytes) -> None:
    """Any bytes (or any JSON) on a hook's stdin: a defined answer, never a traceback, never a
    block. An installed entry runs as installed; a `taskproto hook` command is forked from an
    interpreter that has imported taskproto (tests/forkrun.py: its start is the installed
    entries' subject, and each example's is 0.15 CPU s)."""
    env = {**ops.git_env(), **hook.env}
    if hook.script is None:
        done = forkrun.run(list(hook.argv), hook_repo, env, input=data, timeout=30)
        code, err = done.returncode, done.stderr
    else:
        proc = subprocess.run(
            hook.command(sys.executable),
            cwd=hook_repo,
            input=data,
            capture_output=True,
            timeout=30,
            check=False,
            env=env,
        )
        code, err = proc.returncode, proc.stderr.decode(errors="replace")
    assert code in hook.allowed_exit_codes, err
    assert "Traceback" not in err and "internal error" not in err
