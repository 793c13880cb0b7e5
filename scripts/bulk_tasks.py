"""Build many real tasks fast (for the git-count test and the doctor benchmark).

The tasks are the ones `taskproto task create` makes, minus the per-task git
processes: branches come from one `git update-ref --stdin`, journals from one
`git fast-import`, task.json and status.json from the store; only the worktrees
need a `git worktree add` each (one at a time: concurrent adds read each
other's half-made admin folders).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

from taskproto.config import Config, ensure_root
from taskproto.git.command import Git
from taskproto.git.repo import Repo
from taskproto.machine.registry import get_workflow
from taskproto.state import index, journal, store
from taskproto.state.models import AgentStatus, LogEntry, Task, utcnow


def build_tasks(
    config: Config, names: Sequence[str], agents: Sequence[str] = (), worktrees: bool = True
) -> None:
    """Create tasks `names`, each with `agents`, as `taskproto task create` would (each row in the
    tasks' index too); `worktrees=False` leaves out their worktrees (as a claim makes them)."""
    git = Git(config.repo)
    base = git.rev_parse("HEAD")
    assert base is not None
    ensure_root(config)
    wf = get_workflow("task-protocol")
    now = utcnow()
    branches = [b for n in names for b in [n] + [f"{n}-{a}" for a in agents]]
    git.run(
        "update-ref", "--stdin", input="".join(f"create refs/heads/{b} {base}\n" for b in branches)
    )
    stream: list[bytes] = []
    for name in names:
        task_dir = config.task_dir(name)
        task_dir.mkdir()
        files: dict[str, bytes] = {}
        for a in agents:
            config.agent_dir(name, a).mkdir(parents=True)
            status = AgentStatus(agent=a, updated_at=now)
            store.save_status(config.status_file(name, a), status)
            files[journal.status_entry(a)] = store.dump(status)
        task = Task(
            name=name,
            workflow=wf.name,
            state=wf.initial,
            base=base,
            created_at=now,
            updated_at=now,
            revision=1,
            required_agents=list(agents),
            transition_log=[
                LogEntry(
                    from_state=None, to_state=wf.initial, trigger="create", time=now, kind="create"
                )
            ],
        )
        files[journal.TASK_FILE] = store.dump(task)
        store.atomic_write(config.task_file(name), files[journal.TASK_FILE])
        statuses = {a: "PENDING" for a in agents}
        index.record(config.layout, name, json.loads(files[journal.TASK_FILE]), statuses)
        msg = b"create: INIT\n\nrevision: 1\n"
        stream.append(f"commit {journal.ref_for(name)}\n".encode())
        stream.append(
            f"committer taskproto <taskproto@localhost> {int(now.timestamp())} +0000\n".encode()
        )
        stream.append(b"data %d\n%s\n" % (len(msg), msg))
        for entry, data in sorted(files.items()):
            stream.append(b"M 100644 inline %s\ndata %d\n%s\n" % (entry.encode(), len(data), data))
    subprocess.run(
        ["git", "fast-import", "--quiet"], cwd=config.repo, input=b"".join(stream), check=True
    )
    if not worktrees:
        return
    plan = [(config.task_worktree(n), n) for n in names]
    plan += [(config.agent_worktree(n, a), f"{n}-{a}") for n in names for a in agents]
    for path, branch in plan:
        Repo(config.repo).worktree_add(path, branch, None, new_branch=False)
