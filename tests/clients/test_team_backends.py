"""`taskproto round run` with the real Codex and Gemini clients against the stand-in servers.

Each client is put on PATH and pointed at its stand-in the way a user points it at a
model: CODEX_HOME's config.toml, GEMINI_CLI_HOME's settings and GOOGLE_GEMINI_BASE_URL,
in taskproto's own environment, which the backends inherit. The stand-ins answer in the
answer format, or with a 429, a hang past the deadline, or a SIGKILL of the client that
asked (a crash).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from taskproto.state import journal

from .runners import (
    clients_dir,
    find_client,
    gemini_user_settings,
    missing_reason,
    write_codex_config,
)
from .standin import (
    Fail,
    GeminiServer,
    Hang,
    Kill,
    OpenAIResponsesServer,
    StandinServer,
    Text,
    Turn,
)

pytestmark = pytest.mark.clients

DESCRIPTION = "Speed up the parser"


def answer(
    do: str = "The parser caches its token table.",
    acceptance: str = "pass - 3x faster on the sample",
    risks: str = "pass - none seen",
    validation: str = "pass - ran the unit tests",
    verdict: str = "converged",
    feedback: Sequence[str] = (),
) -> Text:
    lines = [
        "## DO",
        do,
        "",
        "## REVIEW",
        f"acceptance: {acceptance}",
        f"risks: {risks}",
        f"validation: {validation}",
        "",
        "## DECIDE",
        f"verdict: {verdict}",
        *(f"- {f}" for f in feedback),
    ]
    return Text("\n".join(lines) + "\n")


class Team:
    """The stand-ins of one test and the environment that points the clients at them."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.tmp, self.mp = tmp_path, monkeypatch
        self.servers: dict[str, StandinServer] = {}
        bins = clients_dir() / "node_modules" / ".bin"
        monkeypatch.setenv("PATH", os.pathsep.join([str(bins), os.environ["PATH"]]))

    def codex(self, *script: Turn) -> OpenAIResponsesServer:
        if find_client("codex") is None:
            pytest.skip(missing_reason("codex"))
        server = OpenAIResponsesServer(list(script))
        server.start()
        self.servers["codex"] = server
        home = self.tmp / "codex-home"
        write_codex_config(home, server)
        self.mp.setenv("CODEX_HOME", str(home))
        self.mp.setenv("MOCK_API_KEY", "standin-key")
        return server

    def gemini(self, *script: Turn, relaunch: bool = False) -> GeminiServer:
        """The stand-in Gemini asks (``relaunch``: the launcher starts its child, as a user's
        does; else one node, half the CPU: runners.run_gemini)."""
        if find_client("gemini") is None:
            pytest.skip(missing_reason("gemini"))
        server = GeminiServer(list(script))
        server.start()
        self.servers["gemini"] = server
        home = self.tmp / "gemini-home"
        (home / ".gemini").mkdir(parents=True)
        (home / ".gemini" / "settings.json").write_text(json.dumps(gemini_user_settings()))
        self.mp.setenv("GEMINI_CLI_HOME", str(home))
        self.mp.setenv("GOOGLE_GEMINI_BASE_URL", server.url)
        self.mp.setenv("GEMINI_API_KEY", "standin-key")
        self.mp.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
        if not relaunch:
            self.mp.setenv("GEMINI_CLI_NO_RELAUNCH", "true")
        return server

    def stop(self) -> None:
        for server in self.servers.values():
            server.stop()

    def processes_left(self) -> list[str]:
        """Processes still running with one of this test's client homes in their environment."""
        marks = [str(self.tmp / "codex-home").encode(), str(self.tmp / "gemini-home").encode()]
        left = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                environ = Path(f"/proc/{pid}/environ").read_bytes()
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if int(pid) != os.getpid() and any(m in environ for m in marks):
                left.append(
                    pid + ": " + cmdline.replace(b"\0", b" ")[:120].decode(errors="replace")
                )
        return left


@pytest.fixture
def team(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    t = Team(tmp_path, monkeypatch)
    yield t
    t.stop()


def create(cli: Callable[..., object], backend: str = "codex", rounds: int = 2) -> None:
    r = cli(
        "task", "create", "t", "--workflow", "phone-a-team", "-d", DESCRIPTION,
        "--backend", backend, "--max-rounds", str(rounds),
    )  # fmt: skip
    assert r.code == 0, r.err


def run(cli, *args):
    r = cli("round", "run", "t", "--json", *args)
    assert r.code == 0, r.err
    return json.loads(r.out)


def journal_agrees(engine) -> bool:
    from taskproto.state.models import Task

    data = journal.task_json_at(engine.repo, journal.ref_for("t"))
    return Task.model_validate(data).significant() == engine.load("t").significant()


def test_codex_converges_in_round_one_and_every_step_is_journaled(cli, engine, team):
    server = team.codex(answer())
    create(cli)
    data = run(cli)
    assert (data["state"], data["outcome"], data["unresolved"]) == ("SYNTHESIS", "converged", [])
    [rnd] = data["rounds"]
    assert rnd["mode"] == "single"
    assert [(c["backend"], c["outcome"], c["format"]) for c in rnd["calls"]] == [
        ("codex", "answered", "ok")
    ]
    # The real codex got the relay payload on stdin: the task, the round, the answer format.
    turn, review = server.turns  # the round's answer, then the lead's review over the answers
    assert "# How to review" in review.text() and "## Answer of codex" in review.text()
    sent = turn.text()
    assert DESCRIPTION in sent and "# Round 1 of 2" in sent and "## REVIEW" in sent
    assert "only permits reading files" in sent  # codex was told its sandbox is read-only
    task = engine.load("t")
    assert task.context["latest_output"] == "The parser caches its token table."
    record = task.context["rounds"][0]["calls"]["codex"]
    assert record["review"]["validation"] == {"verdict": "pass", "reason": "ran the unit tests"}
    assert [e.trigger for e in task.transition_log] == [
        "create", "round_calls", "review", "decide", "converge",
    ]  # fmt: skip
    assert journal_agrees(engine)
    log = journal.transition_log(engine.repo, "t")[1]
    assert [e["trigger"] for e in log][-3:] == ["review", "decide", "converge"]


def test_both_as_a_team_then_feedback_drives_round_two(cli, engine, team):
    unsafe = answer(risks="fail - the cache is never invalidated", verdict="iterate",
                    feedback=["invalidate the cache on grammar change"])  # fmt: skip
    fixed = answer(do="Cache invalidated on grammar change.")
    # codex answers and, as the lead (the first backend), reviews both answers each round
    codex = team.codex(unsafe, unsafe, fixed, fixed)
    gemini = team.gemini(answer(do="Gemini agrees."), answer(do="Still fine."))
    create(cli, "both")
    data = run(cli)
    assert data["outcome"] == "converged" and data["round"] == 2
    first, second = data["rounds"]
    assert first["mode"] == "team" and second["mode"] == "team"
    assert first["rubric"] == {"acceptance": "pass", "risks": "fail", "validation": "pass"}
    assert first["state"] == "DO" and first["next_round"] == 2
    # Round two's payload: the latest output of round one and its feedback, no history.
    assert "Gemini agrees." in codex.turns[1].text()  # the lead saw both answers
    for server, turn in ((codex, 2), (gemini, 1)):
        sent = server.turns[turn].text()
        assert "# Round 2 of 2" in sent and "Round 1 ended not converged" in sent
        assert "codex: invalidate the cache on grammar change" in sent
        assert "codex: risks: the cache is never invalidated" in sent
        assert "Gemini agrees." in sent  # the DO parts of both are the latest output
    assert journal_agrees(engine)


def test_a_429_skips_the_backend_this_round_and_it_is_retried_next(cli, engine, team):
    team.codex(Fail(429), answer())
    create(cli)
    data = run(cli)
    first, second = data["rounds"]
    [call] = first["calls"]
    assert (call["outcome"], call["detail"]) == (
        "rate-limited", "exceeded retry limit, last status: 429 Too Many Requests",
    )  # fmt: skip
    assert first["messages"] == [
        "backend codex rate-limited in round 1; round 1 lost, round 2 starts"
    ]
    assert second["calls"][0]["outcome"] == "answered"
    assert data["outcome"] == "converged"
    rounds = engine.load("t").context["rounds"]
    assert (rounds[0]["outcome"], rounds[0]["skipped"]) == ("round_failed", ["codex"])


def test_gemini_429_while_codex_answers_goes_on_with_codex(cli, engine, team):
    team.codex(answer())
    team.gemini(Fail(429))
    create(cli, "both")
    data = run(cli, "--once")
    [rnd] = data["rounds"]
    outcomes = {c["backend"]: c["outcome"] for c in rnd["calls"]}
    assert outcomes == {"codex": "answered", "gemini": "rate-limited"}
    assert "429" in next(c["detail"] for c in rnd["calls"] if c["backend"] == "gemini")
    assert rnd["messages"] == ["backend gemini rate-limited in round 1; continuing with codex"]
    assert data["outcome"] == "converged"


# Round one's deadline in the hang test: past the client's start, so that it cuts the client while
# it waits on the hung request. Codex, a native binary, asks within a second. Gemini starts node
# twice (a launcher that starts it again with a larger heap, then its 16 MB bundle: about 4 CPU
# seconds) and asked 4 to 8 s after its start at load 4 to 8 on two cores; 30 s leaves room for a
# machine far busier. A 4 s deadline killed it before it asked and left the hang to round two,
# where Gemini waited 60 s (its fetch's headers timeout) before asking again. The wait holds no
# core.
HANG_DEADLINE = {"codex": 4, "gemini": 30}


@pytest.mark.parametrize("client", ["codex", "gemini"])
def test_a_hang_past_the_deadline_kills_the_process_group_and_loses_the_round(
    cli, engine, team, client
):
    # Gemini's launcher and its relaunched child, as a user's: the child is killed with the group
    tree = {"relaunch": True} if client == "gemini" else {}
    server = getattr(team, client)(Hang(), answer(), **tree)
    create(cli, client)
    deadline = HANG_DEADLINE[client]
    started = time.monotonic()
    [first] = run(cli, "--once", "--timeout", str(deadline))["rounds"]
    [call] = first["calls"]
    assert call["outcome"] == "timeout" and f"no answer within {deadline} s" in call["detail"]
    assert deadline <= call["seconds"] < deadline + 2 + 6  # the deadline, SIGTERM's grace, slack
    assert time.monotonic() - started < deadline + 26
    # The deadline cut the client waiting on its hung request, not still starting.
    assert len(server.turns) == 1, f"{client} had not asked within {deadline} s"
    assert team.processes_left() == []  # the client and its children are gone
    assert first["messages"] == [
        f"backend {client} timeout in round 1; round 1 lost, round 2 starts"
    ]
    # The next round calls it again (a deadline a loaded machine cannot miss).
    data = run(cli, "--timeout", "120")
    assert data["rounds"][0]["calls"][0]["outcome"] == "answered"
    assert data["outcome"] == "converged"


def test_a_crash_is_a_round_failure_and_both_crashing_stops_and_synthesizes(cli, engine, team):
    codex = team.codex(Kill())
    gemini = team.gemini(Kill())
    create(cli, "both", rounds=3)
    data = run(cli)
    [rnd] = data["rounds"]
    assert {c["backend"]: c["outcome"] for c in rnd["calls"]} == {
        "codex": "crash", "gemini": "crash",
    }  # fmt: skip
    assert next(c for c in rnd["calls"] if c["backend"] == "codex")["detail"] == "killed by SIGKILL"
    assert codex.killed and gemini.killed  # the stand-ins really killed the clients
    assert (data["state"], data["outcome"]) == ("SYNTHESIS", "backends_failed")
    assert data["unresolved"] == ["backend codex failed: crash", "backend gemini failed: crash"]
    assert team.processes_left() == []
    assert journal_agrees(engine)


def test_a_crash_of_one_single_backend_is_retried_next_round(cli, engine, team):
    team.codex(Kill(), answer())
    create(cli)
    data = run(cli)
    assert [r["calls"][0]["outcome"] for r in data["rounds"]] == ["crash", "answered"]
    assert data["outcome"] == "converged"


def test_a_crash_is_a_crash_when_its_output_names_a_folder_called_429(
    cli, engine, tmp_path, monkeypatch
):
    # Codex's stderr names its CODEX_HOME; under pytest's 429th temporary folder that path
    # once made a SIGKILL read as a rate limit. A process killed by a signal crashed.
    team = Team(tmp_path / "pytest-429", monkeypatch)
    try:
        team.codex(Kill(), answer())
        create(cli)
        data = run(cli)
    finally:
        team.stop()
    first = data["rounds"][0]["calls"][0]
    assert (first["outcome"], first["detail"]) == ("crash", "killed by SIGKILL")
    assert data["outcome"] == "converged"


def test_an_unparseable_answer_is_kept_and_the_loop_stops_forced(cli, engine, team):
    team.codex(Text("Looks fine to me, ship it."))
    create(cli, rounds=1)
    data = run(cli)
    [rnd] = data["rounds"]
    assert rnd["calls"][0]["format"] == "unparseable"
    assert rnd["rubric"] == {"acceptance": "fail", "risks": "fail", "validation": "fail"}
    assert (data["state"], data["outcome"]) == ("SYNTHESIS", "forced_stop")
    assert engine.load("t").context["latest_output"] == "Looks fine to me, ship it."


def test_no_decide_stops_in_review_and_a_later_run_decides_from_the_answers(cli, engine, team):
    team.codex(answer(validation="documented - no benchmark machine"))
    create(cli)
    data = run(cli, "--no-decide")
    assert data["state"] == "REVIEW"
    r = cli("round", "run", "t")
    assert r.code == 0, r.err
    assert "decided from the answers recorded earlier" in r.out
    task = engine.load("t")
    assert task.context["outcome"] == "converged"
    assert "validation not done: codex: no benchmark machine" in task.context["rounds"][0]["note"]


def test_the_users_client_config_and_the_repos_args_and_env_reach_the_client(
    cli, engine, team, repo
):
    server = team.codex(answer())
    (repo / ".taskproto.toml").write_text(
        "[phone_a_team.codex]\n"
        'args = ["-c", \'model="model-from-taskproto-config"\']\n'
        'env = { MOCK_API_KEY = "key-from-taskproto-config" }\n'
    )
    create(cli)
    run(cli, "--write")
    turn, _review = server.turns
    assert turn.body["model"] == "model-from-taskproto-config"
    headers = {k.lower(): v for k, v in turn.headers.items()}
    assert headers["authorization"] == "Bearer key-from-taskproto-config"
    assert "editing files in `cwd`" in turn.text()  # --write: codex ran workspace-write
    r = cli("round", "show", "t", "--json")
    assert json.loads(r.out)["rounds"][0]["sandbox"] == "workspace-write"


HOLD_LOCK = (
    "import sys, filelock; l = filelock.FileLock(sys.argv[1]); l.acquire();"
    " print('held', flush=True); sys.stdin.read()"
)


def test_one_team_per_session_falls_back_to_sequential(cli, engine, team, repo):
    team.codex(answer())
    team.gemini(answer())
    env = {"TASKPROTO_SESSION": "s1"}
    create(cli, "both")
    # Another process of session s1 holds its team (a real lock, held by a real process).
    from taskproto.ops.team_run import _Team

    path = _Team(engine, "s1").path
    path.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         HOLD_LOCK, str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        r = cli("round", "run", "t", "--json", env=env)
    finally:
        holder.communicate("")
    assert r.code == 0, r.err
    [rnd] = json.loads(r.out)["rounds"]
    assert rnd["mode"] == "sequential"
    assert rnd["mode_note"] == "session s1 already has a team running (one team per session)"
    assert {c["outcome"] for c in rnd["calls"]} == {"answered"}
