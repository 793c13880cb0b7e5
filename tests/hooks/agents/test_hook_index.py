"""The tasks' index (state/index.py) as the generation `sh` reads: every change of a task through
taskproto appends a line to `<root>/index.jsonl`, so while it (and the tasks folder, the journals,
packed-refs) is not newer than a session's stamp or the offer, no task changed, and hook.sh answers
a quiet turn, or a new session's start, without looking at any task: the same with 1,000 tasks as
with two. Each door of taskproto (the CLI, the Python API, the MCP server, a git hook's slow path,
doctor --fix, sync) moves it, so the next turn and start notice the change; what no door makes
(a task.json edited by hand in place) is not seen until one does (docs/agents.md, the limits).

Real repositories, the real hook script; programs and file names counted with strace."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from taskproto.clients.settings import SCRIPT
from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.hooks.agents import offer_cache
from taskproto.hooks.git import install
from taskproto.state import index
from tests.conftest import commit_file, git, run_taskproto

from .conftest import move_to, payload
from .fastpath import NOBODY, OWNER, Fast, programs, stop

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
from bulk_tasks import build_tasks  # noqa: E402
from strace_exec import named  # noqa: E402

needs_strace = pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")


def later() -> None:
    """Past the file system's clock tick: a change lands after the last stamp's time."""
    time.sleep(0.05)


def start(session: str, cwd: Path) -> bytes:
    return payload("claude", "SessionStart", session_id=session, cwd=str(cwd), source="startup")


def index_file(fast: Fast) -> Path:
    return Path(index.path(fast.engine.config.layout))


def offered(fast: Fast) -> None:
    """Python answers a start and leaves the offer; NOBODY's turns leave its stamp."""
    repo = fast.engine.config.repo
    assert fast.run("claude", "SessionStart", start("python-0", repo)).started
    fast.run("claude", "Stop", stop(NOBODY, repo))
    assert not fast.run("claude", "Stop", stop(NOBODY, repo)).started


class Times:
    """The times of the offer (and its bytes), the tasks folder, the journals and packed-refs, put
    back after a change: as if the offer was not renewed (more than 100 tasks), and as if only the
    index told that a task changed."""

    def __init__(self, fast: Fast) -> None:
        layout = fast.engine.config.layout
        assert layout.dirs is not None
        common = layout.dirs.common_dir
        self.offer = Path(offer_cache.path(layout, "claude"))
        self.data = self.offer.read_bytes() if self.offer.exists() else None
        paths = [Path(layout.tasks), Path(common, "refs", "taskproto", "tasks")]
        paths += [Path(common, "packed-refs"), self.offer]
        self.kept = {p: p.stat() for p in paths if p.exists()}
        self.index = index_file(fast).stat().st_mtime_ns

    def put_back(self) -> None:
        if self.data is not None:
            self.offer.write_bytes(self.data)
        for path, st in self.kept.items():
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def bulk_files(fast: Fast, paths: list[str]) -> list[str]:
    """The paths under the tasks folder other than t1's and t2's (the bulk tasks')."""
    tasks = str(fast.engine.config.layout.tasks) + "/"
    return [
        p
        for p in paths
        if p.startswith(tasks) and p[len(tasks) :].split("/")[0] not in ("t1", "t2")
    ]


def hook_files(event: str, data: bytes, trace: Path) -> list[str]:
    argv = ["/bin/sh", str(SCRIPT), sys.executable, "claude", event]
    env = {**os.environ, "CLAUDE_PID": str(os.getpid())}
    return named(argv, trace, input=data, env=env)


# --- 1,000 tasks: a quiet turn and a new session's start read no task ---------------------------


@needs_strace
def test_a_quiet_turn_and_a_start_read_no_task_among_a_thousand(fast: Fast, tmp_path: Path) -> None:
    engine, repo = fast.engine, fast.engine.config.repo
    build_tasks(engine.config, [f"bulk{i:04d}" for i in range(1000)], worktrees=False)
    later()
    offered(fast)  # Python reads the 1,002 tasks once, for the offer
    nobody, trace = stop(NOBODY, repo), tmp_path / "trace"
    tasks = str(engine.config.layout.tasks) + "/"
    # the turn of a session that owns no task, nothing changed since its last one
    assert programs("Stop", nobody, trace) == ["sh"]
    assert [p for p in hook_files("Stop", nobody, trace) if p.startswith(tasks)] == []
    # a prompt trusts no stamp: one grep reads every task.json (issue #39), and no Python
    prompt = payload("claude", "UserPromptSubmit", session_id=NOBODY, cwd=str(repo))
    assert programs("UserPromptSubmit", prompt, trace) == ["sh", "grep"]
    # a new session's start: the offer holds for every task, by the index (it names 20 of the
    # 1,001 free tasks (t2 and the bulk) and counts the rest: under 2 KB, so sh writes it itself)
    assert programs("SessionStart", start("new-1", repo), trace) == ["sh"]
    found = hook_files("SessionStart", start("new-2", repo), trace)
    assert bulk_files(fast, found) == [] and not any(p.endswith("task.json") for p in found)
    run = fast.both("claude", "SessionStart", start("new-3", repo), "new-3")
    assert not run.started and "bulk0018 (INIT)" in run.answer[1]
    assert "; and 981 more (`taskproto task list` lists them)." in run.answer[1]
    # the owner's heartbeat, not due: its own task's files only
    worktree = engine.config.task_worktree("t1")
    assert fast.run("claude", "Stop", stop(OWNER, worktree)).started  # Python's stamp
    found = hook_files("Stop", stop(OWNER, worktree), trace)
    assert bulk_files(fast, found) == [] and programs("Stop", stop(OWNER, worktree), trace) == [
        "sh"
    ]
    # a change: the next turn looks at what changed (one grep), then reads no task again
    later()
    engine.offer.every = None  # as with more than 100 tasks: the offer is not renewed
    engine.fire("bulk0500", target="CLASSIFIED")
    assert programs("Stop", nobody, trace) == ["sh", "grep"]
    assert [p for p in hook_files("Stop", nobody, trace) if p.startswith(tasks)] == []
    assert fast.both("claude", "SessionStart", start("new-4", repo), "new-4").started


# --- every door moves the index: the next turn and start notice the change ----------------------


def _cli(fast: Fast) -> Callable[[], None]:
    def change() -> None:
        done = run_taskproto(
            "claim", "t2", env={"TASKPROTO_SESSION": "door-1"}, cwd=fast.engine.config.repo
        )
        assert done.code == 0, done

    return change


def _api(fast: Fast) -> Callable[[], None]:
    return lambda: fast.engine.claim("t2", "door-1", os.getpid()) and None


def _mcp(fast: Fast) -> Callable[[], None]:
    from tests.mcpserver.conftest import connect, ok

    async def main() -> None:
        async with connect(fast.engine.config.repo, session="door-1") as client:
            await ok(client, "claim", task="t2")

    return lambda: anyio.run(main)


def _git_hook(fast: Fast) -> Callable[[], None]:
    """t3's commit approved, then its branch moved: the git hook marks the approval stale, through
    the engine (hooks/git/refs.py, its slow path)."""
    engine = fast.engine
    install.install(Git(engine.config.repo))
    engine.create_task("t3")
    engine.claim("t3", "hooks-1")
    move_to(engine, "t3", "IMPLEMENTATION")
    worktree = engine.config.task_worktree("t3")
    commit_file(worktree, "work.txt")
    move_to(engine, "t3", "AWAITING_USER_APPROVAL")
    engine.approve("t3", "commit", "user")

    def change() -> None:
        env = {**os.environ, "TASKPROTO_INTERNAL": "1"}
        git(worktree, "commit", "--amend", "--no-verify", "-q", "-m", "reworded", env=env)
        data = json.loads(engine.config.task_file("t3").read_text())
        assert data["checkpoint"]["commit_approval"]["stale"] is True

    return change


def _doctor(fast: Fast) -> Callable[[], None]:
    """t2's task.json lost (by hand: no door saw it), then restored from its journal by doctor."""

    def change() -> None:
        path = fast.engine.config.task_file("t2")
        path.unlink()
        done = run_taskproto("doctor", "--fix", cwd=fast.engine.config.repo)
        assert path.exists(), done

    return change


DOORS = {"cli": _cli, "api": _api, "mcp": _mcp, "git-hook": _git_hook, "doctor": _doctor}


@pytest.mark.parametrize("door", list(DOORS))
def test_a_change_through_each_door_moves_the_index_and_is_noticed(
    fast: Fast, door: str, tmp_path: Path
) -> None:
    change = DOORS[door](fast)
    later()
    offered(fast)
    times = Times(fast)
    later()
    change()
    assert index_file(fast).stat().st_mtime_ns > times.index, f"{door} did not move the index"
    times.put_back()
    # the next start: the offer no longer holds (the index is newer): Python answers
    repo = fast.engine.config.repo
    assert fast.both("claude", "SessionStart", start("new-1", repo), "new-1").started
    times.put_back()
    if shutil.which("strace") is not None:  # the next turn looks at what changed: one grep
        assert programs("Stop", stop(NOBODY, repo), tmp_path / "trace") == ["sh", "grep"]
    assert not fast.both("claude", "Stop", stop(NOBODY, repo), NOBODY).started


@pytest.mark.parametrize("door", ["cli", "api", "mcp"])
def test_a_claim_for_the_session_through_each_door_sends_its_turn_to_python(
    fast: Fast, door: str
) -> None:
    repo = fast.engine.config.repo
    offered(fast)
    times = Times(fast)
    later()
    if door == "cli":
        done = run_taskproto("claim", "t2", env={"TASKPROTO_SESSION": NOBODY}, cwd=repo)
        assert done.code == 0, done
    elif door == "api":
        fast.engine.claim("t2", NOBODY, os.getpid())
    else:
        from tests.mcpserver.conftest import connect, ok

        async def main() -> None:
            async with connect(repo, session=NOBODY) as client:
                await ok(client, "claim", task="t2")

        anyio.run(main)
    times.put_back()  # only the index tells
    run = fast.both("claude", "Stop", stop(NOBODY, repo), NOBODY)
    assert run.started, "the session owns t2 now: Python answers its turn"


def test_a_claim_that_sync_brings_in_is_noticed(tmp_path: Path) -> None:
    """A task claimed for the session on another clone: `sync` takes its journal here
    (engine/sync.py, Core.adopt), and the session's next turn here goes to Python."""
    from tests.remote.remote_servers import clone, seed_server

    bare = seed_server(tmp_path)
    here, there = clone(bare.as_uri(), tmp_path / "here"), clone(bare.as_uri(), tmp_path / "there")
    assert run_taskproto("task", "create", "t9", cwd=there).code == 0
    assert run_taskproto("sync", cwd=there).code == 0
    done = run_taskproto("sync", "--json", cwd=here)
    assert done.code == 0 and json.loads(done.out)["adopted"] == ["t9"], done
    (here / ".taskproto" / "activity").mkdir()
    fast = recording(Engine(load_config(here)), tmp_path / "fast")
    nobody = stop(NOBODY, here)
    fast.run("claude", "Stop", nobody)
    assert not fast.run("claude", "Stop", nobody).started  # stamped: owns no task
    times = Times(fast)
    claimed = run_taskproto("claim", "t9", env={"TASKPROTO_SESSION": NOBODY}, cwd=there)
    assert claimed.code == 0, claimed
    assert run_taskproto("sync", cwd=there).code == 0
    later()
    assert run_taskproto("sync", cwd=here).code == 0
    assert json.loads(fast.engine.config.task_file("t9").read_text())["owner"]["session"] == NOBODY
    assert index_file(fast).stat().st_mtime_ns > times.index
    times.put_back()  # only the index tells
    assert fast.both("claude", "Stop", nobody, NOBODY).started


def recording(engine: Engine, base: Path) -> Fast:
    """A Fast on `engine` with its recording interpreter (as fastpath.make_fast makes one)."""
    base.mkdir()
    python = base / "python"
    python.write_text(
        "#!/bin/sh\n"
        f": > {base / 'python-started'}\n"
        f"cat > {base / 'python-stdin'}\n"
        f'exec {sys.executable} "$@" < {base / "python-stdin"}\n'
    )
    python.chmod(0o755)
    return Fast(engine, base, python)


# --- what the index does not see, and what `sh` does not trust ----------------------------------


def test_a_change_whose_index_line_fails_still_moves_the_index(fast: Fast) -> None:
    """index.record never fails a save: when the line cannot be appended (here the index's lock is
    a folder), the file is touched all the same, so it is never older than the task.json the save
    wrote, and `sh` sees the change."""
    offered(fast)
    layout = fast.engine.config.layout
    lock = Path(layout.root, index.LOCK)
    lock.unlink(missing_ok=True)
    lock.mkdir()
    size = index_file(fast).stat().st_size
    times = Times(fast)
    later()
    fast.engine.claim("t2", NOBODY, os.getpid())
    moved = index_file(fast).stat()
    assert moved.st_size == size, "no line was appended"
    assert moved.st_mtime_ns > times.index
    assert moved.st_mtime_ns >= Path(layout.task_file("t2")).stat().st_mtime_ns
    times.put_back()  # only the index tells
    assert fast.both("claude", "Stop", stop(NOBODY, fast.engine.config.repo), NOBODY).started


@needs_strace
@pytest.mark.parametrize("planted", ["missing", "link", "folder"])
def test_an_index_sh_cannot_trust_sends_it_to_each_task(
    fast: Fast, planted: str, tmp_path: Path
) -> None:
    """No index (tasks made by an older taskproto), a link or a folder in its place: `sh` looks at
    each task as before the index, and answers as Python does."""
    repo = fast.engine.config.repo
    offered(fast)
    path = index_file(fast)
    st = path.stat()
    kept = tmp_path / "kept-index"
    shutil.copy2(path, kept)
    path.unlink()
    if planted == "link":
        path.symlink_to(kept)
    elif planted == "folder":
        path.mkdir()
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    nobody = stop(NOBODY, repo)
    found = hook_files("Stop", nobody, tmp_path / "trace")
    assert str(fast.engine.config.task_file("t2")) in found
    assert not fast.both("claude", "Stop", nobody, NOBODY).started
    found = hook_files("SessionStart", start("new-1", repo), tmp_path / "trace")
    assert str(fast.engine.config.task_file("t2")) in found


@needs_strace
def test_a_task_made_or_removed_by_hand_is_seen(fast: Fast, tmp_path: Path) -> None:
    """No door of taskproto wrote the index, but the tasks folder changed: `sh` greps every task
    (and a start goes to Python, which reads them)."""
    engine, repo = fast.engine, fast.engine.config.repo
    offered(fast)
    nobody, trace = stop(NOBODY, repo), tmp_path / "trace"
    times = Times(fast)
    later()
    shutil.copytree(engine.config.task_dir("t2"), engine.config.task_dir("t8"))  # a new one
    assert index_file(fast).stat().st_mtime_ns == times.index
    assert programs("Stop", nobody, trace) == ["sh", "grep"]
    assert programs("Stop", nobody, trace) == ["sh"]
    assert fast.both("claude", "SessionStart", start("new-1", repo), "new-1").started
    later()
    shutil.rmtree(engine.config.task_dir("t8"))  # removed
    assert programs("Stop", nobody, trace) == ["sh", "grep"]
    run = fast.both("claude", "SessionStart", start("new-2", repo), "new-2")
    assert run.started and "t8" not in run.answer[1]


def test_a_task_json_edited_by_hand_in_place_is_not_seen_until_a_door_moves_the_index(
    fast: Fast,
) -> None:
    """The decided limit (docs/agents.md): a task.json rewritten in place by hand, here forged to
    name the session, moves neither the index nor a folder. `sh` answers the session's turns as
    before: for a Stop, Python's answer too (a task its journal does not vouch for decides
    nothing); a prompt, which trusts no stamp, reaches Python, which says to run doctor; every tool
    call still goes to Python, which refuses the forged task. A start shows the offer as it was
    until a change through taskproto moves the index."""
    engine, repo = fast.engine, fast.engine.config.repo
    engine.claim("t2", "someone", os.getpid())
    later()
    offered(fast)
    t2 = engine.config.task_file("t2")
    t2.write_bytes(t2.read_bytes().replace(b'"someone"', json.dumps(NOBODY).encode()))
    nobody = stop(NOBODY, repo)
    run = fast.both("claude", "Stop", nobody, NOBODY)
    assert not run.started and run.answer == (0, "", "")
    prompt = payload("claude", "UserPromptSubmit", session_id=NOBODY, cwd=str(repo), prompt="go")
    # a prompt trusts no stamp (issue #39): the forged file names the session, so Python warns
    run = fast.run("claude", "UserPromptSubmit", prompt)
    assert run.started and "run `taskproto doctor`" in run.answer[1]
    tool = payload(
        "claude",
        "PreToolUse",
        session_id=NOBODY,
        cwd=str(repo),
        tool_name="Write",
        tool_input={"file_path": str(repo / "x.txt"), "content": "x"},
    )
    guard = subprocess.run(
        [sys.executable, "-m", "taskproto", "hook", "claude", "PreToolUse"],
        input=tool,
        capture_output=True,
        cwd=repo,
        check=False,
    )
    assert guard.returncode == 2 and b"doctor" in guard.stderr, guard
    first = fast.run("claude", "SessionStart", start("new-1", repo))
    assert not first.started and "t2 (INIT) is taken by live session someone" in first.answer[1]
    later()
    engine.offer.every = None
    engine.create_task("t3")
    assert fast.both("claude", "SessionStart", start("new-2", repo), "new-2").started


def test_a_save_taken_back_after_a_refused_push_moves_the_index(tmp_path: Path) -> None:
    """With a shared remote, a save whose push is refused is taken back (Core.save puts the old
    task.json back, and the journal): task.json was written twice, so the index's time moves too,
    though no line is appended."""
    from tests.remote.remote_servers import clone, seed_server

    bare = seed_server(tmp_path)
    repo = clone(bare.as_uri(), tmp_path / "here")
    assert run_taskproto("task", "create", "t1", cwd=repo).code == 0
    path = Path(index.path(load_config(repo).layout))
    before = path.stat().st_mtime_ns
    task = (repo / ".taskproto/tasks/t1/task.json").stat()
    hook = bare / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'refused by the server' >&2\nexit 1\n")
    hook.chmod(0o755)
    later()
    claim = run_taskproto("claim", "t1", env={"TASKPROTO_SESSION": "s-1"}, cwd=repo)
    assert claim.code != 0, claim
    after = (repo / ".taskproto/tasks/t1/task.json").stat()
    assert json.loads((repo / ".taskproto/tasks/t1/task.json").read_text())["owner"] is None
    assert (after.st_ino, after.st_mtime_ns) != (task.st_ino, task.st_mtime_ns), "written, put back"
    assert path.stat().st_mtime_ns > before
