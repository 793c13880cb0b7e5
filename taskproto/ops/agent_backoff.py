"""How long the supervisor waits before it starts a crashed agent again (`[agents]` in
`.taskproto.toml`): `restart_delay_seconds` (default 1) after a first quick crash, doubled after
each further one up to `restart_max_delay_seconds` (default 60); an agent that ran
`restart_reset_seconds` (default 300) before it crashed starts back at the first delay. So a client
that dies at once is not started again and again at once: it spends its retry budget
(`max_retries`, ops/agent_budget.py) over 1 + 2 + 4 ... seconds, and past the budget it is
escalated and the agent stays down, as before. `note` is the one line `agent ps` and the board
show of both."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.config import Config

FIRST, CAP, RESET = 1.0, 60.0, 300.0  # seconds: the defaults


def _seconds(config: Config, key: str, default: float) -> float:
    section = config.raw.get("agents", {})
    value = section.get(key) if isinstance(section, dict) else None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        return default
    return float(value)


def delay(config: Config, record: dict[str, Any], now: float) -> tuple[float, int]:
    """(seconds to wait, quick crashes in a row) for an agent of `record` that crashed at `now`."""
    first = _seconds(config, "restart_delay_seconds", FIRST)
    cap = _seconds(config, "restart_max_delay_seconds", CAP)
    reset = _seconds(config, "restart_reset_seconds", RESET)
    started = record.get("started_at")
    ran = now - started if isinstance(started, int | float) else 0.0
    streak = 1 if ran >= reset else int(record.get("quick_crashes") or 0) + 1
    return min(first * 2 ** (streak - 1), cap), streak


def waiting(record: dict[str, Any], now: float) -> bool:
    """Whether a restart of `record`'s agent waits for its back-off still."""
    at = record.get("restart_at")
    return isinstance(at, int | float) and at > now


def note(record: dict[str, Any], now: float) -> str | None:
    """What the user is told of a restart waiting, of an agent failed past its budget, or of
    one whose start failed (the supervisor's `error`, which `agent start` printed once)."""
    task, agent = record["task"], record["agent"]
    if record.get("state") == "starting" and waiting(record, now):
        at, crashes = record["restart_at"], int(record.get("quick_crashes") or 1)
        return (
            f"restarting in {at - now:.1f}s (back-off after {crashes} quick "
            f"crash{'es' if crashes > 1 else ''}, {record.get('crash') or 'it crashed'})"
        )
    if record.get("state") == "escalated":
        return (
            f"failed: {record.get('crash') or 'it crashed'} after {record.get('restarts', 0)} "
            f"restart(s), the retry budget; start it again with `taskproto agent restart {task} "
            f"{agent}`"
        )
    if record.get("state") == "stopped" and record.get("error"):
        return f"could not start: {record['error']}"
    return None
