"""An agent that dies at once is started again after a back-off that doubles up to its cap
(`[agents] restart_delay_seconds`, `restart_max_delay_seconds`), not at once again and again; past
the retry budget it is failed, and `agent ps` (and `--json`) says so in one line. A real agent
command: a tiny script that exits 3 at once."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from tests.agents.conftest import ps, start_agent, wait_until

SCRIPT = 'date +%s.%N >> "$STARTS"; exit 3\n'


def test_a_crashing_agent_backs_off_doubling_and_fails_past_its_budget(
    agents_repo: Path, cli: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    starts = tmp_path / "starts"
    script = tmp_path / "crash.sh"
    script.write_text(SCRIPT)
    monkeypatch.setenv("STARTS", str(starts))  # the supervisor's environment is the agents'
    (agents_repo / ".taskproto.toml").write_text(
        "max_retries = 3\n[agents]\nrestart_delay_seconds = 0.2\nrestart_max_delay_seconds = 0.4\n"
    )
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    start_agent(cli, f"sh {script}")
    row = wait_until(lambda: [r for r in ps(cli) if r["state"] == "escalated"], what="failed")[0]
    times = [float(line) for line in starts.read_text().split()]
    assert len(times) == 4  # the first start and three restarts: the budget
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert gaps[0] >= 0.2 and gaps[1] >= 0.4 and gaps[2] >= 0.4, gaps  # doubled, to the cap
    note = (
        "failed: it exited with 3 after 3 restart(s), the retry budget; start it again with "
        "`taskproto agent restart t1 dev`"
    )
    assert row["note"] == note
    out = cli("agent", "ps").out
    assert f"\n  {note}\n" in f"\n{out}", out


def test_a_restart_waiting_for_its_back_off_is_shown(
    agents_repo: Path, cli: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    starts = tmp_path / "starts"
    script = tmp_path / "crash.sh"
    script.write_text(SCRIPT)
    monkeypatch.setenv("STARTS", str(starts))
    (agents_repo / ".taskproto.toml").write_text(
        "[agents]\nrestart_delay_seconds = 600\nrestart_max_delay_seconds = 3600\n"
    )
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    start_agent(cli, f"sh {script}")
    row = wait_until(lambda: [r for r in ps(cli) if r["restarts"] == 1], what="the crash")[0]
    assert row["state"] == "starting" and row["pid"] is None
    # 600 s, counting down (600.0 when ps reads it within 50 ms of the crash)
    waits = re.fullmatch(
        r"restarting in (\d+\.\d)s \(back-off after 1 quick crash, it exited with 3\)", row["note"]
    )
    assert waits is not None and 540 <= float(waits[1]) <= 600, row["note"]
    assert len(starts.read_text().split()) == 1  # not started again at once
    stopped = cli("agent", "stop", "t1", "dev", "--json")
    assert stopped.code == 0, stopped.err
    assert json.loads(stopped.out)["state"] == "stopped"


def test_the_back_off_doubles_to_its_cap_and_starts_again_after_a_long_run(tmp_path: Path) -> None:
    from taskproto.config import load_config
    from taskproto.ops.agent_backoff import delay
    from tests.conftest import git

    git(tmp_path, "init", "-q")
    (tmp_path / ".taskproto.toml").write_text(
        "[agents]\nrestart_delay_seconds = 2\nrestart_max_delay_seconds = 10\n"
        "restart_reset_seconds = 60\n"
    )
    config = load_config(tmp_path)
    record: dict[str, Any] = {"started_at": 1000.0}
    seen = []
    for _ in range(5):  # each crash 1 s after its start: quick
        wait, record["quick_crashes"] = delay(config, record, 1001.0)
        seen.append(wait)
    assert seen == [2, 4, 8, 10, 10]
    assert delay(config, record, 1000.0 + 60) == (2, 1)  # it ran the reset time: first delay


def test_the_board_shows_the_back_off_and_the_failure_lines(
    agents_repo: Path, cli: Any, tmp_path: Path, monkeypatch: Any, board_for: Any
) -> None:
    """The same lines as `agent ps`, through a real board: a task's API and page show the restart
    waiting for its back-off, then the failure past the budget."""
    script = tmp_path / "crash.sh"
    script.write_text("exit 3\n")
    (agents_repo / ".taskproto.toml").write_text(
        "max_retries = 1\n[agents]\nrestart_delay_seconds = 600\nrestart_max_delay_seconds = 600\n"
    )
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    board = board_for(agents_repo, "--no-doctor")
    start_agent(cli, f"sh {script}")
    wait_until(lambda: [r for r in ps(cli) if r["restarts"] == 1], what="the crash")

    def run() -> dict[str, Any]:
        (agent,) = board.get("/api/tasks/t1").json()["agents"]
        return dict(agent["run"])

    waits = re.fullmatch(
        r"restarting in (\d+\.\d)s \(back-off after 1 quick crash, it exited with 3\)",
        run()["note"],
    )
    assert waits is not None and 540 <= float(waits[1]) <= 600, run()
    assert run()["state"] == "starting" and run()["pid"] is None
    page = board.get("/tasks/t1").body.decode()
    assert '<span class="run-note">restarting in ' in page, page
    # with a short back-off (read at each crash), the user's restart crashes past the budget
    (agents_repo / ".taskproto.toml").write_text(
        "max_retries = 1\n[agents]\nrestart_delay_seconds = 0.1\nrestart_max_delay_seconds = 0.1\n"
    )
    restarted = cli("agent", "restart", "t1", "dev")
    assert restarted.code == 0, restarted.err
    wait_until(lambda: run()["state"] == "escalated", what="the failure")
    failed = (
        "failed: it exited with 3 after 1 restart(s), the retry budget; start it again with "
        "`taskproto agent restart t1 dev`"
    )
    assert run()["note"] == failed
    assert (
        f'<span class="run-note">{html.escape(failed)}</span>'
        in board.get("/tasks/t1").body.decode()
    )
