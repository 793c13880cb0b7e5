"""What `task list` and `task show` print for people, from their JSON output (and task.json's
JSON for the details the JSON leaves out). Standard library only: the click commands and the quick
read path (cli/quick.py) print with the same code."""

from __future__ import annotations

from datetime import datetime

from taskproto.errors import when
from taskproto.state import summary
from taskproto.state.summary import describe, stat_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

NO_TASKS = (
    "no tasks (create one with `taskproto task create NAME`; tasks shared on a remote: "
    "`taskproto sync`)"
)


def list_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return NO_TASKS + "\n"
    width = max(len(r["name"]) for r in rows)
    lines = []
    for r in rows:
        if "error" in r:
            lines.append(f"{r['name']:<{width}}  BROKEN  {r['error']}\n")
            continue
        owner = r["owner"]["session"] if r["owner"] else None
        reasons = [e["reason"] for e in r["escalations"]]
        lines.append(
            summary.list_line(
                r["name"],
                width,
                r["state"],
                r["priority"],
                owner,
                r["workflow"],
                r["waiting"],
                reasons,
                r.get("paused"),
            )
        )
    return "".join(lines)


def _when(stored: str) -> str:
    return when(datetime.fromisoformat(stored))


def show_text(
    data: dict[str, Any],
    task: dict[str, Any],
    states: dict[str, dict[str, Any]],
    head: str | None = None,
) -> str:
    """`data`: what `task show --json` prints; `task`: task.json's JSON; `states`: the state
    table of its workflow; `head`: the task branch's head, which a commit approval must name."""
    lines = [f"task {task['name']}  ({task['workflow']})"]
    if task["description"]:
        lines.append(f"  {task['description']}")
    lines.append(f"  state      {task['state']}   revision {task['revision']}")
    o = data["owner"]  # its heartbeat is the last sign of life (task.json's or heartbeat.json's)
    lines.append(
        f"  owner      {o['session']} on {o['host']} (pid {o['pid'] or '-'}), since "
        f"{_when(o['claimed_at'])}, heartbeat {_when(o['heartbeat_at'])}"
        if o
        else "  owner      none (free)"
    )
    gone = data.get("owner_gone")
    if gone:  # the board's "gone", and its Claim
        lines.append(
            f"  owner gone {gone['session']}'s session is gone ({gone['reason']}): take the task "
            f"over with `{gone['command']}`"
        )
    lines.append(f"  priority   {task['priority']}")
    if task["depends_on"]:
        waits = data["waits_for"]
        lines.append(f"  after      {', '.join(task['depends_on'])}")
        lines.append(f"  waits for  {describe(waits) if waits else 'nothing (all done)'}")
    for agent, status in data["agents"].items():
        lines.append(f"  agent      {agent:<12} {status}")
    plan = task["checkpoint"]["plan_approval"]
    commit = task["checkpoint"]["commit_approval"]
    if plan or any(s["approval"] == "plan" for s in states.values()):
        lines.append(f"  plan       {'approved ' + _when(plan['at']) if plan else 'not approved'}")
    if commit:
        stale = " (stale)" if commit["stale"] else ""
        if not stale and commit["sha"] and head and head != commit["sha"]:
            # the branch moved since: not marked in task.json until a save, but stale already
            stale = f" (stale: branch {task['name']} is now at {head[:12]})"
        lines.append(
            f"  commit     approved {commit['sha'][:12] if commit['sha'] else '?'}{stale}"
            + (f": {stat_text(commit['diffstat'])}" if commit["diffstat"] else "")
        )
    for m in data["merges"]:
        lines.append(f"  merge      {m['agent']:<12} {m['result']} {m['commit'][:12]}")
    if task["landed"]:
        ld = task["landed"]
        lines.append(
            f"  landed     {ld['approved'][:12]} on {ld['base_branch']} ({ld['strategy']}) as "
            f"{ld['base_after'][:12]}"
        )
    nxt = ", ".join(f"{n['trigger']} -> {n['to']}" for n in data["next"]) or "nothing (terminal)"
    lines.append(f"  next       {nxt}")
    interruptions = task["interruptions"]
    if interruptions:
        by = ", ".join(f"{k} {v}" for k, v in data["interruptions"]["by_type"].items())
        lines.append(f"  interrupts {len(interruptions)} ({by})")
        for i in interruptions[-5:]:
            at = datetime.fromisoformat(i["time"])
            lines.append(f"             {at:%H:%M:%S}Z {i['type']:<15} in {i['state']}")
    if data.get("paused"):  # task list's PAUSED, the inbox's `question`
        lines.append(
            f"  PAUSED     by the user's {data['paused']}: the work waits until "
            f"`taskproto resume {task['name']}`"
        )
    for e in data["escalations"]:
        lines.append(
            f"  ESCALATED  {e['reason']}: {e['detail']} ({_when(e['at'])}"
            + (f", by {e['session']}" if e["session"] else "")
            + f"); waits for the user: `taskproto resume {task['name']}` once it is settled"
        )
        for tried in e["tried"]:
            lines.append(f"             tried: {tried}")
    if task["needs_review"]:
        lines.append("  NOTE: reconstructed by doctor; review the state before going on")
    text = "".join(line + "\n" for line in lines)
    if data.get("plan_markdown") is not None:
        text += "\n" + data["plan_markdown"]
    elif "plan_error" in data:
        text += f"  plan       not shown: {data['plan_error']}\n"
    return text


def loop_summary_lines(summary: dict[str, Any]) -> list[str]:
    """tight-loop's session summary (FULL_AUTO), as `handoff` and `turn` print it."""
    discovered = summary["discovered"]
    return [
        "session summary:",
        f"  iterations          {summary['iterations']}",
        f"  subtasks completed  {summary['subtasks_completed']}",
        f"  subtasks failed     {summary['subtasks_failed']}",
        f"  tasks discovered    {len(discovered)}"
        + (f": {'; '.join(discovered)}" if discovered else ""),
    ]


def turn_lines(data: dict[str, Any]) -> list[str]:
    """What `turn` prints for people, from its JSON output."""
    name, phase = data["task"], data["phase"]
    if phase == "FULL_AUTO":
        return [f"{name}: the loop has ended (FULL_AUTO)", *loop_summary_lines(data["summary"])]
    lines = [
        f"{name}: {phase} holds the turn (iteration {data['iteration']}); its gate: {data['gate']}"
    ]
    h = data["last_handoff"]
    if h:
        lines.append(
            f"  received from {h['from']}: decision {h['decision']}"
            + (f", results: {h['results']}" if h.get("results") is not None else "")
        )
    return lines


def round_moved(
    name: str, before: str, state: str, round_: int, context: dict[str, Any], revision: int
) -> dict[str, Any]:
    """What `round review|decide|fail` print of the phone-a-team task they moved (--json)."""
    return {
        "task": name,
        "from": before,
        "to": state,
        "round": round_,
        "max_rounds": context.get("max_rounds"),
        "outcome": context.get("outcome"),
        "unresolved": context.get("unresolved"),
        "revision": revision,
    }


def round_lines(data: dict[str, Any]) -> list[str]:
    """The same, as text."""
    if data["to"] != "SYNTHESIS":
        return [
            f"{data['task']}: {data['from']} -> {data['to']} (round {data['round']} of "
            f"{data['max_rounds']})"
        ]
    outcome = (data["outcome"] or "").replace("_", " ")
    return [f"{data['task']}: {data['from']} -> SYNTHESIS ({outcome})", *_unresolved(data)]


def round_fail_lines(data: dict[str, Any]) -> list[str]:
    """What `round fail` prints as text: its message, and what is unresolved if the loop
    stopped."""
    return [f"{data['task']}: {data['message']}", *_unresolved(data)]


def _unresolved(data: dict[str, Any]) -> list[str]:
    if data["to"] != "SYNTHESIS":
        return []
    return [f"  unresolved: {item}" for item in data["unresolved"] or []]


# --- what a change prints: the same for the click commands and the quick front (cli/quick.py) ---


def moved(task: Any) -> dict[str, Any]:
    """`transition`, `fire`, `next`'s one step: the task, the state it left and reached."""
    before = task.transition_log[-1].from_state or task.state
    return {"task": task.name, "from": before, "to": task.state, "revision": task.revision}


def moved_lines(data: dict[str, Any]) -> list[str]:
    return [f"{data['task']}: {data['from']} -> {data['to']}"]


def handoff_report(name: str, before: str, task: Any, prompt: str | None) -> dict[str, Any]:
    """tight-loop's `handoff`: where the turn went, and the prompt the receiving phase starts
    from."""
    data: dict[str, Any] = {
        "task": name,
        "from": before,
        "to": task.state,
        "iteration": task.counters.iteration,
        "revision": task.revision,
        "prompt": prompt,
    }
    if task.state == "FULL_AUTO":
        from taskproto.machine.builtin.tight_loop import session_summary

        data["summary"] = session_summary(task)
    return data


def handoff_lines(data: dict[str, Any]) -> list[str]:
    lines = [
        f"{data['task']}: {data['from']} -> {data['to']} (iteration {data['iteration']}); "
        f"{data['to']} holds the turn"
    ]
    if "summary" in data:
        lines += loop_summary_lines(data["summary"])
    return lines


def subtask_lines(name: str, added: bool, item: dict[str, Any]) -> list[str]:
    if added:
        kind = "discovered task" if item["id"].startswith("D") else "subtask"
        return [f"{name}: {kind} {item['id']} {item['title']!r} added"]
    return [f"{name}: subtask {item['id']} {item['status']}"]


def agent_set_lines(name: str, agent: str, status: str, message: str | None) -> list[str]:
    return [f"{name}/{agent}: {status}" + (f" ({message})" if message else "")]


def created_line(task: Any, folder: str) -> str:
    """What `task create` prints (its task made at `folder`)."""
    return (
        f"created task {task.name} ({task.workflow}, state {task.state}) at {folder}"
        + (f" with agents {', '.join(task.required_agents)}" if task.required_agents else "")
        + (f", after {', '.join(task.depends_on)}" if task.depends_on else "")
    )
