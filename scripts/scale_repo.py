"""Repositories of many tasks, built in seconds, for the scale benchmark (scripts/bench_scale.py).

    python scripts/scale_repo.py tasks REPO --tasks 1000 [--agents 2] [--no-worktrees]
    python scripts/scale_repo.py worktrees REPO
    python scripts/scale_repo.py long-log REPO NAME --entries 10000
    python scripts/scale_repo.py heartbeats REPO

Run it with the Python of the checkout being measured: the tasks come from that taskproto. In a
repository where `taskproto init` has run, `tasks` makes a few tasks through the Engine API, one of
each kind (`KINDS`), with real branches, worktrees and journals; then copies them under new names
(`t00004`, ...) until there are `--tasks`, and their worktrees (or, after `--no-worktrees`, the
`worktrees` command adds them). `long-log` adds task NAME, a copy of the working kind whose log
cycles IMPLEMENTATION -> VALIDATION -> IMPLEMENTATION until it holds `--entries` entries (asked
for fewer than the working kind's own dozen, a copy of it as it is). `heartbeats` renews the
heartbeat of every owned task, as a live owner's hooks do, so the owners' leases hold while a
benchmark runs.

What a task looks like on disk is known in one place, `on_disk()`: change it when the storage
changes. The copies are written in bulk: the files directly (no fsync: a benchmark's scratch
repository), every branch with one `git update-ref --stdin`, every journal with one
`git fast-import`, and the worktrees by copying the administrative folder of a worktree that
`git worktree add` made (`add_worktrees`): one `git worktree add` per worktree re-reads every
other worktree, minutes at 10,000.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

from taskproto.config import Config, load_config
from taskproto.engine import Engine
from taskproto.state import beat, integrity, journal, store
from taskproto.state.models import AgentState, Task, utcnow

OWNER = "bench-owner"  # the session that owns the owned kinds
# (kind, share of the tasks in tenths): new is INIT; released was claimed, moved to CLASSIFIED
# and released; owned is claimed, in REQUIREMENTS; working is claimed, its plan approved, its
# agents COMPLETE, one round of VALIDATION behind it, in IMPLEMENTATION (make_kind)
KINDS = (("new", 6), ("released", 1), ("owned", 2), ("working", 1))
# the working kind's last two entries: a cycle its long log repeats
CYCLE = ("IMPLEMENTATION", "VALIDATION")


def name_of(i: int) -> str:
    return f"t{i:05d}"


def kind_of(i: int) -> str:
    """The kind of task `i`: the first ones one of each kind in order, then by `KINDS`' shares."""
    if i < len(KINDS):
        return KINDS[i][0]
    slot = i % 10
    for kind, tenths in KINDS:
        if slot < tenths:
            return kind
        slot -= tenths
    raise AssertionError("KINDS' shares add up to ten")


def depends_on(i: int) -> list[str]:
    """Some tasks wait for others: every fifth for the one before it, every 25th for two."""
    if i >= len(KINDS) + 2 and i % 25 == 24:
        return [name_of(i - 1), name_of(i - 2)]
    if i >= len(KINDS) + 1 and i % 5 == 4:
        return [name_of(i - 1)]
    return []


def make_kind(engine: Engine, name: str, kind: str, agents: Sequence[str]) -> Task:
    """Task `name` of `kind`, made as a user and its session would, through the Engine API."""
    engine.create_task(name, agents=agents)
    if kind == "new":
        return engine.load(name)
    engine.claim(name, OWNER)
    walk = {"released": ["CLASSIFIED"], "owned": ["CLASSIFIED", "REQUIREMENTS"]}
    for state in walk.get(kind, ["CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"]):
        engine.fire(name, target=state, session=OWNER)
    if kind == "released":
        return engine.release(name, OWNER)
    if kind == "working":
        engine.approve(name, "plan", None)  # the user, at a terminal
        for agent in agents:  # VALIDATION waits for every agent's work
            engine.set_agent_status(name, agent, AgentState.WORKING, session=OWNER)
            engine.set_agent_status(name, agent, AgentState.COMPLETE, session=OWNER)
        for state in (*CYCLE, CYCLE[0]):  # IMPLEMENTATION, VALIDATION, IMPLEMENTATION
            engine.fire(name, target=state, session=OWNER)
    return engine.load(name)


@dataclass
class OnDisk:
    """One task as it is stored: `files` (path -> bytes) under taskproto's root, its journal's
    newest commit (`tree`: entry -> bytes, and `message`), its `branches` (all at the task's base)
    and its `worktrees` (path, branch)."""

    files: dict[Path, bytes]
    tree: dict[str, bytes]
    message: str
    branches: list[str]
    worktrees: list[tuple[Path, str]]


def on_disk(config: Config, task: Task, statuses: dict[str, bytes]) -> OnDisk:
    """What task `task` (its agents' status.json bytes `statuses`) looks like on disk.

    Today (`schema_version` 1): `<root>/tasks/<task>/task.json` holds the whole record, its
    transition log included (store.dump's bytes); `agents/<agent>/status.json` each agent's
    status; the journal `refs/taskproto/tasks/<task>` is a commit whose tree holds task.json and
    `status-<agent>.json`, its message the summary, the revision and task.json's digest
    (state/integrity.py); the journal's history is not needed to trust the task, so a copy gets
    one commit. Branch `<task>` and `<task>-<agent>` start at the base, each in its worktree.
    """
    data = store.dump(task)
    files = {config.task_file(task.name): data}
    tree = {journal.TASK_FILE: data}
    for agent, status in statuses.items():
        files[config.status_file(task.name, agent)] = status
        tree[journal.status_entry(agent)] = status
    last = task.transition_log[-1]
    moved = f"{last.from_state} -> " if last.from_state else ""
    summary = f"{last.trigger}: {moved}{last.to_state}"
    rows = worktrees(config, task)
    return OnDisk(
        files=files,
        tree=tree,
        message=integrity.message(summary, task.revision, data),
        branches=[branch for _, branch in rows],
        worktrees=rows,
    )


def worktrees(config: Config, task: Task) -> list[tuple[Path, str]]:
    """The task's worktrees (path, branch): branch `<task>`, and `<task>-<agent>` per agent."""
    agents = task.required_agents
    return [(config.task_worktree(task.name), task.name)] + [
        (config.agent_worktree(task.name, a), f"{task.name}-{a}") for a in agents
    ]


def git(repo: Path, *args: str, data: bytes | None = None) -> str:
    """git's output. Without hooks: taskproto's reference-transaction hook refuses any other
    writer of a journal ref, and the builder writes what taskproto would have written."""
    cmd = ["git", "-c", f"core.hooksPath={os.devnull}", *args]
    proc = subprocess.run(cmd, cwd=repo, input=data, capture_output=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"git {' '.join(args[:2])} failed: {proc.stderr.decode()}")
    return proc.stdout.decode()


def write(config: Config, tasks: Sequence[OnDisk], base: str) -> None:
    """Write `tasks` in bulk, their worktrees aside (`add_missing_worktrees`)."""
    stream: list[bytes] = []
    stamp = int(utcnow().timestamp())
    for t in tasks:
        name = t.branches[0]
        msg = t.message.encode()
        stream.append(f"commit {journal.ref_for(name)}\n".encode())
        stream.append(f"committer taskproto <taskproto@localhost> {stamp} +0000\n".encode())
        stream.append(b"data %d\n%s\n" % (len(msg), msg))
        for entry, data in sorted(t.tree.items()):
            stream.append(b"M 100644 inline %s\ndata %d\n%s\n" % (entry.encode(), len(data), data))
    git(config.repo, "fast-import", "--quiet", data=b"".join(stream))
    for task in tasks:  # after its journal, as the engine writes them (and the git hooks check)
        for path, data in task.files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    refs = "".join(f"create refs/heads/{b} {base}\n" for t in tasks for b in t.branches)
    git(config.repo, "update-ref", "--stdin", data=refs.encode())


def add_missing_worktrees(config: Config) -> None:
    """The worktrees of every task that are not there yet, like the first task's, which the
    Engine made with `git worktree add`."""
    rows = []
    for task_dir in sorted(config.tasks_dir.iterdir()):
        if (task_dir / journal.TASK_FILE).is_file():
            task = store.load_task(task_dir / journal.TASK_FILE)
            rows += [(path, b) for path, b in worktrees(config, task) if not path.exists()]
    add_worktrees(config, rows, config.task_worktree(name_of(0)))


def add_worktrees(config: Config, rows: Iterable[tuple[Path, str]], model: Path) -> None:
    """What `git worktree add PATH BRANCH` leaves, for each row, copied from worktree `model` of
    the same commit: its administrative folder `.git/worktrees/<id>` (HEAD and gitdir rewritten;
    the id as git picks it: the folder's name, then name1, name2, ...), and the worktree's files
    with its `.git` file pointing there."""
    admin = Path(model.joinpath(".git").read_text().removeprefix("gitdir: ").strip())
    parent = admin.parent
    taken = set(os.listdir(parent))
    counters: dict[str, int] = {}
    for path, branch in rows:
        path = Path(os.path.realpath(path))
        ident, n = path.name, counters.get(path.name, 0)
        while ident in taken:
            n += 1
            ident = f"{path.name}{n}"
        counters[path.name] = n
        taken.add(ident)
        shutil.copytree(admin, parent / ident)
        (parent / ident / "HEAD").write_text(f"ref: refs/heads/{branch}\n")
        (parent / ident / "gitdir").write_text(f"{path}/.git\n")
        shutil.copytree(model, path, ignore=lambda _d, _n: [".git"])
        (path / ".git").write_text(f"gitdir: {parent / ident}\n")


def statuses_of(config: Config, task: Task) -> dict[str, bytes]:
    return {a: config.status_file(task.name, a).read_bytes() for a in task.required_agents}


def build_tasks(repo: Path, count: int, agents: Sequence[str], with_worktrees: bool) -> None:
    """`count` tasks in `repo` (where `taskproto init` ran): one of each kind through the Engine,
    the rest copies of them (their kind by `kind_of`, their dependencies by `depends_on`); the
    copies' worktrees too unless not `with_worktrees` (`add_missing_worktrees` adds them later:
    git packs a repository of 10,000 worktrees many times slower)."""
    config = load_config(repo)
    engine = Engine(config)
    kinds: dict[str, Task] = {}
    for i in range(min(count, len(KINDS))):
        kinds[kind_of(i)] = make_kind(engine, name_of(i), kind_of(i), agents)
    statuses = {k: statuses_of(config, t) for k, t in kinds.items()}
    base = git(repo, "rev-parse", "HEAD").strip()
    copies = []
    for i in range(len(KINDS), count):
        kind = kind_of(i)
        task = kinds[kind].model_copy(
            update={"name": name_of(i), "depends_on": depends_on(i), "priority": i % 5}
        )
        copies.append(on_disk(config, task, statuses[kind]))
    write(config, copies, base)
    if with_worktrees:
        add_missing_worktrees(config)


def long_log(repo: Path, name: str, entries: int) -> None:
    """Task `name` in `repo` (built by `build_tasks`), a copy of the working kind whose log repeats
    its last cycle until it holds `entries` entries, owned by `OWNER`, at IMPLEMENTATION."""
    config = load_config(repo)
    model = next(
        store.load_task(config.task_file(name_of(i)))
        for i in range(len(KINDS))
        if kind_of(i) == "working"
    )
    log = list(model.transition_log)
    cycle = log[-2:]
    assert [e.to_state for e in cycle] == [CYCLE[1], CYCLE[0]], "the working kind ends a cycle"
    at = log[-1].time
    while len(log) < entries:
        at += timedelta(milliseconds=1)
        log.append(
            cycle[(len(log) - len(model.transition_log)) % 2].model_copy(update={"time": at})
        )
    if log[-1].to_state != CYCLE[0]:  # end at IMPLEMENTATION, as the working kind does
        log.pop()
    added = len(log) - len(model.transition_log)
    task = model.model_copy(
        update={
            "name": name,
            "transition_log": log,
            "revision": model.revision + added,
            "updated_at": at,
        }
    )
    base = git(repo, "rev-parse", "HEAD").strip()
    write(config, [on_disk(config, task, statuses_of(config, model))], base)
    add_missing_worktrees(config)


def heartbeats(repo: Path) -> list[str]:
    """Renew the heartbeat of every owned task (its owner alive for another lease)."""
    config = load_config(repo)
    at = utcnow().isoformat()  # as the engine and the hooks write it
    renewed = []
    for task_dir in sorted(config.tasks_dir.iterdir()):
        task_file = task_dir / journal.TASK_FILE
        if not task_file.is_file():
            continue
        owner = store.load_task(task_file).owner
        if owner is not None:
            beat.write(str(task_dir), owner.session, owner.pid, at)
            renewed.append(task_dir.name)
    return renewed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    tasks = sub.add_parser("tasks", help="build --tasks tasks in REPO")
    tasks.add_argument("repo", type=Path)
    tasks.add_argument("--tasks", type=int, required=True)
    tasks.add_argument("--agents", type=int, default=0, help="agents per task (a1, a2, ...)")
    tasks.add_argument("--no-worktrees", action="store_true", help="not the copies' worktrees")
    trees = sub.add_parser("worktrees", help="add the tasks' missing worktrees")
    trees.add_argument("repo", type=Path)
    longer = sub.add_parser("long-log", help="add task NAME with a log of --entries entries")
    longer.add_argument("repo", type=Path)
    longer.add_argument("name")
    longer.add_argument("--entries", type=int, required=True)
    beats = sub.add_parser("heartbeats", help="renew the owned tasks' heartbeats")
    beats.add_argument("repo", type=Path)
    args = parser.parse_args()
    repo = args.repo.absolute()
    if args.command == "tasks":
        agents = [f"a{j}" for j in range(1, args.agents + 1)]
        build_tasks(repo, args.tasks, agents, not args.no_worktrees)
    elif args.command == "worktrees":
        add_missing_worktrees(load_config(repo))
    elif args.command == "long-log":
        long_log(repo, args.name, args.entries)
    else:
        print(len(heartbeats(repo)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
