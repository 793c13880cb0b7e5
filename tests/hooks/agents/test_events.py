"""run_agent_hook fed the real clients' captured payloads: every event of every client, and odd
input."""

from __future__ import annotations

import json
import os
from datetime import timedelta
from pathlib import Path

import pytest

from taskproto.engine import Engine
from taskproto.state.models import utcnow

from .conftest import PAYLOADS, Hook, move_to, payload

ALL_PAYLOADS = sorted((p.parent.name, p.name) for p in PAYLOADS.glob("*/*.json"))


@pytest.mark.parametrize(("client", "name"), ALL_PAYLOADS)
def test_every_captured_payload_is_answered_without_error(
    client: str, name: str, engine: Engine, task: str, agent_wt: Path, hook: Hook
) -> None:
    event, _, _rest = name.removesuffix(".json").partition(".")
    data = json.loads((PAYLOADS / client / name).read_text())
    data["cwd"] = str(agent_wt)
    code, out, err = hook(client, event, json.dumps(data).encode())
    assert "Traceback" not in err and "failed" not in err, err
    # The captured tool calls write a file: in INIT, inside a task worktree, that is denied.
    if event in ("PreToolUse", "BeforeTool"):
        assert code == 2 and "does not allow edits" in err
    else:
        assert code == 0
    if event == "SessionStart":
        assert "Free tasks: t1 (INIT)" in out
        if client == "gemini":
            assert json.loads(out)["hookSpecificOutput"]["hookEventName"] == "SessionStart"


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"not json",
        b"[1, 2]",
        b'{"cwd": 5, "session_id": []}',
        b"\xff\xfe{",
        b'{"tool_name": "Write", "tool_input": "x"}',
        b"{" * 5000,
    ],
)
@pytest.mark.parametrize(
    ("client", "event"),
    [
        ("claude", "PreToolUse"),
        ("claude", "SessionStart"),
        ("codex", "UserPromptSubmit"),
        ("gemini", "BeforeTool"),
        ("gemini", "SessionEnd"),
    ],
)
def test_malformed_input_is_a_warning_for_a_lifecycle_event_and_a_denial_for_a_tool_call(
    raw: bytes, client: str, event: str, hook: Hook
) -> None:
    code, out, err = hook(client, event, raw)
    assert "Traceback" not in err
    unreadable = not raw.startswith(b"{") or not raw.endswith(b"}")
    if event in ("PreToolUse", "BeforeTool") and unreadable:  # the guard cannot judge it: refused
        assert code == 2 and "could not be judged" in err, err
    else:
        assert code == 0
    assert out == "" or out.startswith(("{", "taskproto"))


def test_unknown_event_and_client(hook: Hook) -> None:
    assert hook("claude", "Nonsense", b"{}")[0] == 0
    code, _, err = hook("vim", "PreToolUse", b"{}")
    assert code == 0 and "unknown event" in err


def test_session_start_offers_free_tasks_names_taken_ones_and_writes_env_file(
    engine: Engine, task: str, agent_wt: Path, hook: Hook, tmp_path: Path
) -> None:
    engine.create_task("t2", [])
    engine.claim("t2", "other-session", pid=os.getpid())
    env_file = tmp_path / "env.sh"
    code, out, err = hook(
        "claude",
        "SessionStart",
        payload("claude", "SessionStart", session_id="s-new", cwd=str(agent_wt)),
        env={"CLAUDE_ENV_FILE": str(env_file)},
        pid=4242,
    )
    assert code == 0, err
    assert "owns no task" in out and "Free tasks: t1 (INIT): add the widget" in out
    assert "t2 (INIT) is taken by live session other-session" in out
    assert "Free tasks: t2" not in out
    assert "agent dev's worktree of task t1" in out
    assert (
        env_file.read_text()
        == "export TASKPROTO_SESSION='s-new'\nexport TASKPROTO_AGENT=1\nexport "
        "TASKPROTO_SESSION_PID=4242\n"
    )


def test_session_start_of_the_owner_gives_state_and_resume_instructions(
    engine: Engine, task: str, agent_wt: Path, hook: Hook
) -> None:
    engine.claim(task, "s1")
    move_to(engine, task, "SYNTHESIS")
    for source in ("startup", "compact", "resume"):
        code, out, _ = hook(
            "codex",
            "SessionStart",
            payload("codex", "SessionStart", session_id="s1", source=source, cwd=str(agent_wt)),
        )
        assert code == 0
        assert "owns task t1, in state SYNTHESIS" in out
        assert "re-present the plan" in out
    owner = engine.load(task).owner
    assert owner is not None and owner.session == "s1" and owner.pid == os.getpid()


def test_clear_inherits_the_claim_of_the_same_client_process(
    engine: Engine, task: str, hook: Hook
) -> None:
    engine.claim(task, "s-old", pid=os.getpid())
    code, out, err = hook(
        "claude",
        "SessionStart",
        payload(
            "claude",
            "SessionStart",
            session_id="s-new",
            source="clear",
            cwd=str(engine.config.repo),
        ),
    )
    assert code == 0, err
    assert "took over the claim of t1 (from session s-old)" in out
    assert "owns task t1" in out
    after = engine.load(task)
    assert after.owner is not None and after.owner.session == "s-new"
    entry = after.transition_log[-1]
    assert (
        entry.trigger == "clear_handover"
        and entry.kind == "takeover"
        and "s-old" in (entry.note or "")
    )


def test_clear_from_another_process_inherits_nothing(engine: Engine, task: str, hook: Hook) -> None:
    engine.claim(task, "s-old", pid=os.getpid())
    code, out, _ = hook(
        "claude",
        "SessionStart",
        payload(
            "claude",
            "SessionStart",
            session_id="s-new",
            source="clear",
            cwd=str(engine.config.repo),
        ),
        pid=os.getppid(),
    )
    assert code == 0 and "took over" not in out
    assert engine.load(task).owner.session == "s-old"  # type: ignore[union-attr]
    # A startup (not a clear) in the same process takes nothing either.
    hook(
        "claude",
        "SessionStart",
        payload(
            "claude",
            "SessionStart",
            session_id="s-3",
            source="startup",
            cwd=str(engine.config.repo),
        ),
    )
    assert engine.load(task).owner.session == "s-old"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("client", "event"),
    [("claude", "UserPromptSubmit"), ("codex", "UserPromptSubmit"), ("gemini", "BeforeAgent")],
)
def test_prompt_is_recorded_as_an_interruption_and_the_state_is_unchanged(
    client: str, event: str, engine: Engine, task: str, hook: Hook
) -> None:
    engine.claim(task, "s1")
    move_to(engine, task, "IMPLEMENTATION")
    text = "What architecture pattern are you using?"
    if client == "gemini":
        text = "<hook_context>taskproto: this session owns task t1</hook_context>\n\n" + text
    code, out, err = hook(
        client,
        event,
        payload(client, event, session_id="s1", prompt=text, cwd=str(engine.config.repo)),
    )
    assert code == 0, err
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "interruption (QUESTION)" in context and "stays IMPLEMENTATION" in context
    after = engine.load(task)
    assert after.state == "IMPLEMENTATION"
    assert [(i.type, i.text) for i in after.interruptions] == [
        ("QUESTION", "What architecture pattern are you using?")
    ]
    code, out, _ = hook(
        client,
        event,
        payload(
            client, event, session_id="s1", prompt="Continue working", cwd=str(engine.config.repo)
        ),
    )
    assert (
        "RESUMING TASK: t1 (state IMPLEMENTATION"
        in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    )


def test_prompt_in_a_task_worktree_of_an_unowned_task_is_recorded_there(
    engine: Engine, task: str, agent_wt: Path, hook: Hook
) -> None:
    code, out, _ = hook(
        "claude",
        "UserPromptSubmit",
        payload(
            "claude", "UserPromptSubmit", session_id="s9", prompt="where are we?", cwd=str(agent_wt)
        ),
    )
    assert code == 0 and "STATUS_REQUEST" in out
    assert len(engine.load(task).interruptions) == 1


def test_stop_heartbeats_at_most_once_a_minute_and_session_end_keeps_the_claim(
    engine: Engine, task: str, hook: Hook
) -> None:
    from taskproto.sessions import last_heartbeat
    from taskproto.state import beat

    engine.claim(task, "s1", pid=os.getpid())
    task_dir = engine.config.task_dir(task)
    old = utcnow() - timedelta(minutes=5)
    beat.write(str(task_dir), "s1", os.getpid(), old.isoformat())
    before = engine.config.task_file(task).read_bytes()
    claimed_at = engine.load(task).owner.heartbeat_at  # type: ignore[union-attr]
    stop = payload("claude", "Stop", session_id="s1", cwd=str(engine.config.repo))
    assert hook("claude", "Stop", stop)[0] == 0
    first = beat.read(str(task_dir))
    assert first is not None and first["session"] == "s1" and first["at"] > old.isoformat()
    owner = engine.load(task).owner
    assert owner is not None and last_heartbeat(owner, task_dir) > claimed_at
    # liveness is not history: task.json and its journal did not change
    assert engine.config.task_file(task).read_bytes() == before
    hook("claude", "Stop", stop)  # within the minute: nothing written
    assert beat.read(str(task_dir)) == first
    code, _, err = hook(
        "claude",
        "SessionEnd",
        payload("claude", "SessionEnd", session_id="s1", cwd=str(engine.config.repo)),
    )
    assert code == 0, err
    after = engine.load(task)
    assert after.owner is not None and after.owner.session == "s1"
    assert after.transition_log[-1].trigger == "session_end"


def test_a_lease_shorter_than_three_minutes_is_renewed_every_third_of_it(
    engine: Engine, task: str, hook: Hook
) -> None:
    """A lease of seconds (docs/sessions.md allows `lease_minutes = 0.05`): a heartbeat at most
    once a minute would let the owner's claim run out between turns."""
    from taskproto.state import beat

    (engine.config.repo / ".taskproto.toml").write_text("lease_minutes = 0.05\n")  # 3 s
    engine.claim(task, "s1", pid=os.getpid())
    task_dir = str(engine.config.task_dir(task))
    stop = payload("claude", "Stop", session_id="s1", cwd=str(engine.config.repo))
    for age, renewed in ((2.0, True), (0.5, False)):  # a third of the lease is 1 s
        was = (utcnow() - timedelta(seconds=age)).isoformat()
        beat.write(task_dir, "s1", os.getpid(), was)
        assert hook("claude", "Stop", stop)[0] == 0
        now = beat.read(task_dir)
        assert now is not None and (now["at"] > was) is renewed, (age, now)


def test_session_start_offers_free_tasks_in_queue_order_and_says_which_wait(
    engine: Engine, repo: Path, hook: Hook
) -> None:
    engine.create_task("later", priority=3)
    engine.create_task("soon", priority=0)
    engine.create_task("blocked", after=["later"], priority=0)
    code, out, err = hook(
        "claude", "SessionStart", payload("claude", "SessionStart", session_id="s9", cwd=str(repo))
    )
    assert code == 0, err
    assert "Free tasks: soon (INIT, priority 0); later (INIT, priority 3)." in out
    assert "Not yet (they wait for other tasks): blocked waits for later (in INIT)." in out


def test_session_start_does_not_offer_an_escalated_task(
    engine: Engine, repo: Path, hook: Hook
) -> None:
    engine.create_task("soon", priority=0)
    engine.create_task("later", priority=3)
    from taskproto.doctor.escalate import escalate

    escalate(engine, "soon", "external-dependency", "the database is down", [], None)
    start = payload("claude", "SessionStart", session_id="s9", cwd=str(repo))
    for env in ({}, {"TASKPROTO_QUICK": "0"}):  # the quick reads and the engine's alike
        code, out, err = hook("claude", "SessionStart", start, env)
        assert code == 0, err
        assert "Free tasks: later (INIT, priority 3)." in out
        assert (
            "Escalated, not to be claimed until the user resumes them: soon (INIT; "
            "external-dependency)." in out
        )


@pytest.mark.parametrize(
    ("client", "event"),
    [("claude", "UserPromptSubmit"), ("codex", "UserPromptSubmit"), ("gemini", "BeforeAgent")],
)
def test_the_prompt_agent_start_gave_the_client_is_its_assignment_not_an_interruption(
    client: str, event: str, engine: Engine, task: str, agent_wt: Path, hook: Hook
) -> None:
    """A headless `agent start` hands the client its prompt, and the client's prompt hook sees
    it: taken as an interruption (OTHER), it told the agent to stop and wait for the user."""
    move_to(engine, task, "IMPLEMENTATION")
    launched = {
        "TASKPROTO_TASK": task,
        "TASKPROTO_AGENT_NAME": "dev",
        "TASKPROTO_PROMPT": "read the README and fix the typo",
    }

    def say(text: str) -> str:
        data = payload(client, event, session_id="agent-s", prompt=text, cwd=str(agent_wt))
        code, out, err = hook(client, event, data, env=launched)
        assert code == 0, err
        return out

    assert "interruption" not in say("read the README and fix the typo\n")
    assert engine.load(task).interruptions == []
    # anything else said to it is the user's prompt, as before
    assert "interruption (OTHER)" in say("read the LICENSE instead")
    paused = engine.load(task)
    assert [i.text for i in paused.interruptions] == ["read the LICENSE instead"]
    # and the launch prompt said again resumes nothing: the pause stays
    say("read the README and fix the typo")
    assert engine.load(task).paused_by() is not None
