"""phone-a-team against real repositories, through the CLI: rounds, rubric, preflight, failures,
relay."""

from __future__ import annotations

import json
import os

import pytest
from wf_data import journal_agrees

from taskproto.state import journal


def snapshot(engine, name="t"):
    return (engine.config.task_file(name).read_bytes(), journal.head(engine.git, name))


def create(cli, *args, name="t"):
    return cli(
        "task", "create", name, "--workflow", "phone-a-team", "-d", "Speed up the parser", *args
    )


PASS = "acceptance=pass,risks=pass,validation=pass"
FAIL = "acceptance=fail,risks=pass,validation=pass"


@pytest.fixture
def team(cli, backends_path):
    backends_path("codex", "gemini")
    assert create(cli, "--max-rounds", "2", "--backend", "both").code == 0
    return "t"


def test_converges_in_the_first_round(cli, engine, backends_path):
    backends_path("codex")
    assert create(cli).code == 0
    task = engine.load("t")
    assert (
        task.state,
        task.counters.round,
        task.context["max_rounds"],
        task.context["backends"],
    ) == ("DO", 1, 3, ["codex"])
    assert cli("round", "review", "t").out == "t: DO -> REVIEW (round 1 of 3)\n"
    r = cli(
        "round",
        "decide",
        "t",
        "--rubric",
        "acceptance=pass,risks=pass,validation=documented",
        "--note",
        "no benchmark machine",
    )
    assert r.out == "t: REVIEW -> SYNTHESIS (converged)\n"
    task = engine.load("t")
    assert task.context["outcome"] == "converged" and task.context["unresolved"] == []
    assert [e.trigger for e in task.transition_log if e.kind == "transition"] == [
        "review",
        "decide",
        "converge",
    ]
    assert journal_agrees(engine, "t")


def test_next_round_then_forced_stop_lists_unresolved(cli, engine, team, write_json):
    out = write_json("o.txt", "round 1 output")
    assert cli("round", "review", "t", "--output", str(out)).code == 0
    assert cli("round", "decide", "t", "--rubric", FAIL).out == "t: REVIEW -> DO (round 2 of 2)\n"
    assert cli("round", "review", "t").code == 0
    r = cli("round", "decide", "t", "--rubric", "acceptance=fail,risks=fail,validation=fail")
    assert r.code == 0
    assert r.out == (
        "t: REVIEW -> SYNTHESIS (forced stop)\n"
        "  unresolved: acceptance criteria not met\n"
        "  unresolved: critical risks or correctness issues remain\n"
        "  unresolved: validation not done and no documented reason\n"
    )
    rounds = json.loads(cli("round", "show", "t", "--json").out)["rounds"]
    assert [(r["round"], r["outcome"]) for r in rounds] == [
        (1, "not_converged"),
        (2, "forced_stop"),
    ]
    assert journal_agrees(engine, "t")


@pytest.mark.parametrize("value", ["0", "6", "-1"])
def test_max_rounds_out_of_range_is_refused(cli, engine, backends_path, value):
    backends_path("codex")
    r = create(cli, "--max-rounds", value)
    assert r.code == 1 and f"max_rounds must be between 1 and 5, not {value}" in r.err
    assert not engine.config.task_dir("t").exists() and journal.head(engine.git, "t") is None


def test_max_rounds_only_for_phone_a_team(cli):
    r = cli("task", "create", "x", "--workflow", "tight-loop", "--max-rounds", "2")
    assert r.code == 1 and "--max-rounds and --backend apply to phone-a-team tasks" in r.err


@pytest.mark.parametrize(
    "rubric, message",
    [
        ("acceptance=pass,risks=pass", "the rubric is missing validation"),
        (
            "acceptance=yes,risks=pass,validation=pass",
            "rubric acceptance='yes': expected pass|fail",
        ),
        ("speed=pass,acceptance=pass,risks=pass,validation=pass", "rubric item 'speed=pass'"),
        (
            "acceptance=pass,risks=pass,validation=documented",
            "validation=documented needs the documented reason",
        ),
    ],
)
def test_bad_rubrics_are_refused(cli, engine, team, rubric, message):
    cli("round", "review", "t")
    before = snapshot(engine)
    r = cli("round", "decide", "t", "--rubric", rubric)
    assert r.code == 1 and message in r.err, r.err
    assert snapshot(engine) == before


def test_decide_outside_review_is_refused(cli, engine, team):
    before = snapshot(engine)
    r = cli("round", "decide", "t", "--rubric", PASS)
    assert r.code == 1 and "'decide' is not allowed from DO" in r.err
    assert snapshot(engine) == before


# --- preflight ----------------------------------------------------------------


@pytest.mark.parametrize(
    "on_path, backend, code, active, message",
    [
        (("codex",), "codex", 0, ["codex"], None),
        ((), "codex", 1, None, "backend codex is not available: install the Codex CLI"),
        (("gemini",), "gemini", 0, ["gemini"], None),
        (("codex",), "gemini", 1, None, "backend gemini is not available: install the Gemini CLI"),
        ((), "ollama", 0, ["ollama"], None),
        (("codex", "gemini"), "both", 0, ["codex", "gemini"], None),
        (
            ("codex",),
            "both",
            0,
            ["codex"],
            "warning: backend gemini is not on PATH: degraded to codex only",
        ),
        (
            ("gemini",),
            "both",
            0,
            ["gemini"],
            "warning: backend codex is not on PATH: degraded to gemini only",
        ),
        ((), "both", 1, None, "no backends: neither codex nor gemini is on PATH"),
        (
            ("codex", "gemini"),
            "claude",
            1,
            None,
            "invalid backend 'claude': valid values are codex, gemini, ollama, both",
        ),
    ],
)
def test_degradation_table(cli, backends_path, on_path, backend, code, active, message):
    backends_path(*on_path)
    r = cli("backends", "check", "--backend", backend, "--json")
    assert r.code == code, r.err
    if active is not None:
        assert json.loads(r.out)["active"] == active
    if message:
        assert message in r.err
    else:
        assert r.err == ""


def test_ollama_endpoint_is_configurable(cli, repo, backends_path):
    backends_path()
    (repo / ".taskproto.toml").write_text('[phone_a_team]\nollama_url = "http://127.0.0.1:9999"\n')
    data = json.loads(cli("backends", "check", "--backend", "ollama", "--json").out)
    assert data["ollama_url"] == "http://127.0.0.1:9999"


def test_creation_runs_the_preflight(cli, engine, backends_path):
    backends_path("gemini")
    r = create(cli, "--backend", "codex")
    assert r.code == 1 and "install the Codex CLI" in r.err
    assert not engine.config.task_dir("t").exists()
    r = create(cli, "--backend", "both")
    assert r.code == 0 and "degraded to gemini only" in r.err
    assert engine.load("t").context["backends"] == ["gemini"]


# --- failure matrix ---------------------------------------------------------------


def test_rate_limited_skips_this_round_and_retries_next(cli, engine, team):
    r = cli("round", "fail", "t", "--backend", "codex", "--reason", "rate-limited")
    assert r.out == "t: backend codex rate-limited in round 1; continuing with gemini\n"
    task = engine.load("t")
    assert (task.state, task.context["round_state"]["skipped"]) == ("DO", ["codex"])
    r = cli("round", "fail", "t", "--backend", "codex", "--reason", "timeout")
    assert r.code == 1 and "already down this round" in r.err
    cli("round", "review", "t")
    cli("round", "decide", "t", "--rubric", FAIL)
    task = engine.load("t")
    assert task.counters.round == 2 and task.context["round_state"] == {"skipped": [], "failed": {}}
    assert task.context["rounds"][0]["skipped"] == ["codex"]


def test_one_of_two_failing_continues_with_the_other(cli, engine, team):
    r = cli("round", "fail", "t", "--backend", "gemini", "--reason", "crash")
    assert r.out == "t: backend gemini crash in round 1; continuing with codex\n"
    assert engine.load("t").state == "DO"


def test_both_failing_mid_loop_stops_with_a_failure_summary(cli, engine, team):
    cli("round", "review", "t")
    cli("round", "fail", "t", "--backend", "gemini", "--reason", "crash")
    r = cli("round", "fail", "t", "--backend", "codex", "--reason", "timeout")
    assert r.code == 0
    assert r.out == (
        "t: backend codex timeout in round 1; loop stopped (backends failed)\n"
        "  unresolved: backend gemini failed: crash\n"
        "  unresolved: backend codex failed: timeout\n"
    )
    task = engine.load("t")
    assert (task.state, task.context["outcome"]) == ("SYNTHESIS", "backends_failed")
    assert journal_agrees(engine, "t")


def test_single_backend_timeout_is_a_round_failure_retried_next_round(cli, engine, backends_path):
    backends_path("codex")
    create(cli, "--max-rounds", "2")
    r = cli("round", "fail", "t", "--backend", "codex", "--reason", "timeout")
    assert r.out == "t: backend codex timeout in round 1; round 1 lost, round 2 starts\n"
    task = engine.load("t")
    assert (task.state, task.counters.round) == ("DO", 2)
    r = cli("round", "fail", "t", "--backend", "codex", "--reason", "rate-limited")
    assert "loop stopped" in r.out
    task = engine.load("t")
    assert (task.state, task.context["outcome"]) == ("SYNTHESIS", "round_failed_at_last_round")
    assert task.context["unresolved"] == ["backend codex was rate-limited"]


@pytest.mark.parametrize(
    ("stderr", "outcome", "detail"),
    [
        (
            "cannot read /srv/pytest-429/rate_limit/config.toml: no such file",
            "crash",
            "exit 3: cannot read /srv/pytest-429/rate_limit/config.toml: no such file",
        ),
        ("request failed: 429 Too Many Requests", "rate-limited", "HTTP 429 (rate limited)"),
    ],
)
def test_a_failing_backend_is_a_rate_limit_only_when_its_words_say_so(
    cli, engine, tmp_path, monkeypatch, stderr, outcome, detail
):
    # A client that fails without a JSON error: only its own words, never a path, say 429.
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "codex").write_text(f"#!/bin/sh\ncat >/dev/null\necho '{stderr}' >&2\nexit 3\n")
    (folder / "codex").chmod(0o755)
    monkeypatch.setenv("PATH", os.pathsep.join([str(folder), os.environ["PATH"]]))
    assert create(cli, "--max-rounds", "1").code == 0
    r = cli("round", "run", "t", "--once", "--json")
    assert r.code == 0, r.err
    [call] = json.loads(r.out)["rounds"][0]["calls"]
    assert (call["outcome"], call["detail"]) == (outcome, detail)


def test_failure_refusals(cli, engine, team):
    before = snapshot(engine)
    r = cli("round", "fail", "t", "--backend", "ollama", "--reason", "crash")
    assert r.code == 1 and "'ollama' is not a backend of t (active: codex, gemini)" in r.err
    r = cli("round", "fail", "t", "--backend", "codex", "--reason", "bored")
    assert r.code == 2
    assert snapshot(engine) == before
    cli("round", "review", "t")
    cli("round", "decide", "t", "--rubric", PASS)
    r = cli("round", "fail", "t", "--backend", "codex", "--reason", "crash")
    assert r.code == 1 and "backend failures are recorded during a round" in r.err


# --- relay caps -------------------------------------------------------------------


def test_relay_payload_holds_description_latest_output_summary_and_diff(
    cli, engine, team, write_json
):
    worktree = engine.config.task_worktree("t")
    (worktree / "parser.py").write_text("def parse(): pass\n")
    cli("round", "review", "t", "--output", str(write_json("o.txt", "ROUND ONE OUTPUT")))
    cli("round", "decide", "t", "--rubric", FAIL)
    r = cli("relay", "build", "t")
    assert r.code == 0
    text = r.out
    assert "Speed up the parser" in text and "ROUND ONE OUTPUT" in text
    assert "Round 1 ended not converged: acceptance criteria not met." in text
    assert "# Round 2 of 2" in text
    assert "+def parse(): pass" not in text  # untracked files are not in the diff
    (worktree / "README.md").write_text("changed\n")
    assert "+changed" in cli("relay", "build", "t").out
    data = json.loads(cli("relay", "build", "t", "--json").out)
    assert data["payload"] == cli("relay", "build", "t").out
    assert data["sizes"]["prompt"] == len(data["payload"].split("\n# Diff\n")[0].encode())
    assert data["caps"] == {"context": 200 * 1024, "diff": 300 * 1024, "prompt": 500 * 1024}


def _grow_diff(engine, size):
    """Rewrite the tracked README so that the task worktree's diff is about `size` bytes."""
    worktree = engine.config.task_worktree("t")
    (worktree / "README.md").write_text("".join(f"line {i:06d}\n" for i in range(size // 13)))


@pytest.mark.parametrize(
    "part, message",
    [
        ("prompt", "prompt is 501."),
        ("context", "context is 201.0 KB, 1.0 KB over the 200 KB context cap"),
        ("diff", "diff is 301."),
    ],
)
def test_relay_caps_refuse_naming_the_cap_and_excess(cli, engine, team, write_json, part, message):
    # every other part just under its cap: only the one named is refused
    latest = write_json("latest.txt", "y" * ((501 if part == "prompt" else 499) * 1024))
    context = write_json("context.txt", "c" * ((201 if part == "context" else 199) * 1024))
    _grow_diff(engine, (301 if part == "diff" else 299) * 1024)
    r = cli("relay", "build", "t", "--latest", str(latest), "--context", str(context))
    assert r.code == 1 and r.out == ""
    assert "relay payload of t refused: " in r.err and message in r.err, r.err
    others = {"prompt", "context", "diff"} - {part}
    assert not any(f"{o} cap" in r.err for o in others)
    cap = {"prompt": 500, "context": 200, "diff": 300}[part]
    assert f"over the {cap} KB {part} cap" in r.err


def test_relay_just_under_every_cap_is_built(cli, engine, team, write_json):
    latest = write_json("latest.txt", "y" * 499 * 1024)
    context = write_json("context.txt", "c" * 199 * 1024)
    _grow_diff(engine, 299 * 1024)
    r = cli("relay", "build", "t", "--latest", str(latest), "--context", str(context), "--json")
    assert r.code == 0, r.err
    sizes = json.loads(r.out)["sizes"]
    assert sizes["context"] == 199 * 1024 and 298 * 1024 < sizes["diff"] <= 300 * 1024


def test_relay_summary_is_short(engine):
    from taskproto.ops.relay import earlier_rounds
    from taskproto.state.models import Task, utcnow

    now = utcnow()
    rounds = [
        {"round": i, "outcome": "not_converged", "unresolved": ["x"] * 2, "failures": {}}
        for i in range(1, 5)
    ]
    task = Task(
        name="t",
        workflow="phone-a-team",
        state="DO",
        created_at=now,
        updated_at=now,
        context={"rounds": rounds},
    )
    text = earlier_rounds(task)
    assert text.startswith("1 earlier round(s) omitted. Round 2 ended")
    assert text.count("Round ") == 3


# --- no re-entrancy ---------------------------------------------------------------------


def test_no_nesting_inside_a_running_loop(cli, engine, backends_path):
    backends_path("codex")
    create(cli, name="outer")
    r = create(cli, "--parent", "outer", name="inner")
    assert r.code == 1
    assert (
        "no re-entrancy: outer is a running phone-a-team loop (state DO, round 1); "
        "a phone-a-team task cannot be started inside another"
    ) in r.err
    assert not engine.config.task_dir("inner").exists()
    # the session that owns a running loop cannot start another one either
    env = {"TASKPROTO_SESSION": "s1"}
    assert cli("claim", "outer", env=env).code == 0
    r = cli("task", "create", "inner", "--workflow", "phone-a-team", "-d", "x", env=env)
    assert r.code == 1 and "no re-entrancy" in r.err
    # once the outer loop reached SYNTHESIS, a child is allowed and records its parent
    cli("round", "review", "outer", env=env)
    cli("round", "decide", "outer", "--rubric", PASS, env=env)
    r = create(cli, "--parent", "outer", name="inner")
    assert r.code == 0, r.err
    assert engine.load("inner").context["parent"] == "outer"


def test_parent_must_exist(cli, backends_path):
    backends_path("codex")
    r = create(cli, "--parent", "ghost")
    assert r.code == 1 and "no task named 'ghost'" in r.err
