"""An agent past its retry budget is one thing the user must do: one inbox item with one command
(docs/notifications.md), not an escalation to resume beside an agent to recover. A real agent
command: a tiny script that exits 3 at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.agents.conftest import ps, start_agent, wait_until


@pytest.fixture(autouse=True)
def _no_detached_delivery(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TASKPROTO_NOTIFY_DETACH", "0")


def inbox(cli: Any) -> list[dict[str, Any]]:
    result = cli("inbox", "--json")
    assert result.code == 0, result.err
    return list(json.loads(result.out)["items"])


def test_an_agent_out_of_retries_is_one_item_with_one_command(
    agents_repo: Path, cli: Any, tmp_path: Path
) -> None:
    script = tmp_path / "crash.sh"
    script.write_text("exit 3\n")
    (agents_repo / ".taskproto.toml").write_text(
        "max_retries = 2\n[agents]\nrestart_delay_seconds = 0.1\nrestart_max_delay_seconds = 0.1\n"
    )
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    start_agent(cli, f"sh {script}")
    wait_until(lambda: [r for r in ps(cli) if r["state"] == "escalated"], what="the escalation")
    (item,) = inbox(cli)
    assert (item["reason"], item["command"]) == ("agent-retries", "taskproto recover t1")
    assert item["text"] == "agent dev failed after 2 retries"
    # the user's restart answers the escalation too: nothing is left in the inbox
    (agents_repo / ".taskproto.toml").write_text("max_retries = 2\n")
    script.write_text("sleep 600\n")
    restarted = cli("agent", "restart", "t1", "dev")
    assert restarted.code == 0, restarted.err
    assert inbox(cli) == []
    shown = json.loads(cli("task", "show", "t1", "--json").out)
    assert shown["escalations"] == []
    assert cli("agent", "stop", "t1", "dev").code == 0


def test_status_json_says_escalated_past_the_budget_and_not_after_a_restart(
    agents_repo: Path, cli: Any, tmp_path: Path
) -> None:
    """status.json's `escalated` (docs/on-disk-format.md) is what `agent ps` says: true once the
    supervisor escalated the agent, false again when the user starts it with a new budget."""
    script = tmp_path / "crash.sh"
    script.write_text("exit 3\n")
    (agents_repo / ".taskproto.toml").write_text(
        "max_retries = 1\n[agents]\nrestart_delay_seconds = 0.1\nrestart_max_delay_seconds = 0.1\n"
    )
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    start_agent(cli, f"sh {script}")
    wait_until(lambda: [r for r in ps(cli) if r["state"] == "escalated"], what="the escalation")
    status = agents_repo / ".taskproto" / "tasks" / "t1" / "agents" / "dev" / "status.json"
    wait_until(lambda: json.loads(status.read_text())["escalated"], what="escalated in status")
    shown = json.loads(status.read_text())
    assert (shown["status"], shown["retry_count"], shown["escalated"]) == ("ERROR", 1, True)
    exported = cli("export", "t1")
    assert json.loads(exported.out.splitlines()[1])["agents"][0]["escalated"] is True
    script.write_text("sleep 600\n")
    assert cli("agent", "restart", "t1", "dev").code == 0
    shown = json.loads(status.read_text())
    assert (shown["retry_count"], shown["escalated"]) == (0, False)
    assert cli("agent", "stop", "t1", "dev").code == 0
