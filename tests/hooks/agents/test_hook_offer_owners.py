"""The offer Python left (offer_cache.py) as `sh`'s index of who owns a task: while it holds (no
task file newer), a session its OWNERS do not list owns no task, so a turn needs no grep over the
tasks that changed since its last one, and a new session's start is `sh` alone: its first activity
record made in place (no `mv`: no record of `sh` is ever renamed), a short offer written by `sh`
itself (no `cat`).

Real repository, real hook script, the answers compared with Python's (fastpath.Fast.both); the
programs counted with strace. Each shortcut is also shown failing safe: a stale offer, a session
it lists, an offer made while a task could not be read, a long one."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from taskproto.hooks.agents import activity, offer_cache

from .conftest import payload
from .fastpath import NOBODY, OWNER, Fast, programs, stop

needs_strace = pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")


def start(session: str, cwd: Path) -> bytes:
    return payload("claude", "SessionStart", session_id=session, cwd=str(cwd), source="startup")


def header(fast: Fast) -> list[str]:
    path = offer_cache.path(fast.engine.config.layout, "claude")
    with open(path, encoding="utf-8") as f:
        return f.readline().split()


def later() -> None:
    """Past the file system's clock tick: a change lands after the last copy's time."""
    time.sleep(0.05)


def offered(fast: Fast) -> None:
    """Python answers a start, and leaves the offer; the engine renews it after each change."""
    fast.engine.offer.every = 0
    assert fast.run("claude", "SessionStart", start("python-0", fast.engine.config.repo)).started


def test_the_offer_lists_the_owners(fast: Fast) -> None:
    offered(fast)
    fields = header(fast)
    assert fields[0] == "taskproto-offer-2" and len(fields) == 10
    assert fields[8] == OWNER  # t1's; t2 is free
    later()
    fast.engine.claim("t2", "second-2", os.getpid())
    fields = header(fast)
    assert fields[8] == f"{OWNER},second-2"  # renewed by the engine after the claim
    path = Path(offer_cache.path(fast.engine.config.layout, "claude"))
    rest = path.read_bytes().split(b"\n", 2)[2]
    assert int(fields[9]) == len(rest)


@needs_strace
def test_a_new_sessions_start_is_sh_alone(fast: Fast, tmp_path: Path) -> None:
    repo, trace = fast.engine.config.repo, tmp_path / "trace"
    offered(fast)
    assert programs("SessionStart", start("new-1", repo), trace) == ["sh"]
    # the same answer as Python's, for another new session
    run = fast.both("claude", "SessionStart", start("new-2", repo), "new-2")
    assert not run.started and "this session (new-2) owns no task" in run.answer[1]
    # its record is there now: the next start makes the next one, numbered (still no `mv`)
    assert programs("SessionStart", start("new-1", repo), trace) == ["sh"]
    assert [n for n in os.listdir(fast.root / "activity") if n.startswith(".")] == []


@needs_strace
def test_a_long_offer_is_written_by_cat(fast: Fast, tmp_path: Path) -> None:
    for i in range(30):
        fast.engine.create_task(f"long{i:02d}", description="a task with a long description " * 6)
    offered(fast)
    assert int(header(fast)[9]) > 2048
    assert programs("SessionStart", start("new-1", fast.engine.config.repo), tmp_path / "t") == [
        "sh",
        "cat",
    ]
    run = fast.both("claude", "SessionStart", start("new-2", fast.engine.config.repo), "new-2")
    assert not run.started and "long18 (INIT): a task with a long description" in run.answer[1]


@needs_strace
def test_a_turn_after_others_moved_tasks_needs_no_grep(fast: Fast, tmp_path: Path) -> None:
    repo, trace = fast.engine.config.repo, tmp_path / "trace"
    nobody = stop(NOBODY, repo)
    offered(fast)
    assert programs("Stop", nobody, trace) == ["sh"]  # no stamp, every task: the offer vouches
    assert programs("Stop", nobody, trace) == ["sh"]
    later()
    fast.engine.claim("t2", "someone", os.getpid())  # the engine renews the offer
    assert programs("Stop", nobody, trace) == ["sh"]
    # a change the offer is not renewed after (another machine's, a hand edit): the grep
    fast.engine.offer.every = None
    later()
    fast.engine.fire("t2", target="CLASSIFIED", session="someone")
    assert programs("Stop", nobody, trace) == ["sh", "grep"]
    run = fast.both("claude", "Stop", nobody, NOBODY)
    assert not run.started


def test_a_session_the_offer_lists_goes_to_python(fast: Fast) -> None:
    """Claimed for the session from another shell: the renewed offer lists it, so its next turn
    (and a start under its id) is Python's, which finds its task."""
    repo = fast.engine.config.repo
    nobody = stop(NOBODY, repo)
    offered(fast)
    assert not fast.run("claude", "Stop", nobody).started  # stamped: owns no task
    later()
    fast.engine.claim("t2", NOBODY, os.getpid())
    assert NOBODY in header(fast)[8].split(",")
    run = fast.both("claude", "Stop", nobody, NOBODY)
    assert run.started
    data = start(NOBODY, repo)
    run = fast.run("claude", "SessionStart", data)
    assert run.started and "t2" in run.answer[1] and "owns no task" not in run.answer[1]


def test_an_offer_made_while_a_task_was_unreadable_rules_out_no_one(fast: Fast) -> None:
    """A task.json that names the session but cannot be read: the offer made since cannot say who
    owns it (`?`), so the turn greps it, and Python says what is wrong. (Broken by hand, it is
    seen once a change through taskproto moves the tasks' index: here a new task.)"""
    repo = fast.engine.config.repo
    nobody = stop(NOBODY, repo)
    offered(fast)
    assert not fast.run("claude", "Stop", nobody).started  # stamped
    later()
    broken = fast.engine.config.task_dir("t2") / "task.json"
    broken.write_text('{"name": "t2", "owner": {"session": "' + NOBODY + '", ')
    later()
    fast.engine.create_task("t3")  # the offer cannot be renewed: t2 cannot be read
    assert fast.run("claude", "SessionStart", start("python-1", repo)).started  # a new offer
    assert header(fast)[8] == "?"
    run = fast.run("claude", "Stop", nobody)
    assert run.started, "sh must not vouch for a task nobody could read"


def test_the_offer_vouches_only_while_nothing_is_newer(fast: Fast) -> None:
    """A claim for the session that the engine did not renew the offer after, written in the
    stamp's own tick (which is after the offer's): the offer no longer holds, the grep finds it."""
    repo = fast.engine.config.repo
    nobody = stop(NOBODY, repo)
    offered(fast)
    fast.engine.offer.every = None
    later()
    assert not fast.run("claude", "Stop", nobody).started  # stamped, after the offer
    stamp = os.stat(fast.root / "activity" / f"{NOBODY}.sh").st_mtime_ns
    assert stamp > os.stat(offer_cache.path(fast.engine.config.layout, "claude")).st_mtime_ns
    fast.engine.claim("t2", NOBODY, os.getpid())
    task = fast.engine.config.task_dir("t2")
    for p in (task / "task.json", task):
        os.utime(p, ns=(stamp, stamp))
    assert fast.run("claude", "Stop", nobody).started


def test_the_owners_heartbeat_is_not_answered_from_the_offer(fast: Fast) -> None:
    """The owner's first turn, with no stamp yet: the offer lists it, so Python answers (and leaves
    the owner's stamp). With a stamp that names its task, the offer is not asked (it would say
    nothing of a second task): the grep finds a second claim."""
    worktree = fast.engine.config.task_worktree("t1")
    offered(fast)
    data = stop(OWNER, worktree)
    assert fast.run("claude", "Stop", data).started  # Python leaves the owner's stamp
    assert not fast.run("claude", "Stop", data).started
    later()
    fast.engine.claim("t2", OWNER, os.getpid(), force=True)
    run = fast.run("claude", "Stop", data)
    assert run.started


@pytest.mark.parametrize("client", ["claude", "codex", "gemini"])
def test_sh_writes_the_offer_byte_for_byte(fast: Fast, client: str) -> None:
    """What `sh` reads a line at a time and writes back is Python's text exactly: backslashes,
    `%`, quotes, tabs, a `$`, blanks at either end of a line, and no newline at the very end."""
    text = "  50% done \\\\n \\\\ 'single' \"double\" $HOME `x` \t tab  "
    fast.engine.create_task("odd", description=text)
    data = payload(client, "SessionStart", session_id="python-0", cwd=str(fast.engine.config.repo))
    assert fast.run(client, "SessionStart", data).started  # Python leaves the offer
    new = payload(client, "SessionStart", session_id="new-1", cwd=str(fast.engine.config.repo))
    run = fast.both(client, "SessionStart", new, "new-1")
    assert not run.started and "50% done" in run.answer[1]


def test_an_offer_with_a_nul_is_not_left(fast: Fast) -> None:
    """`sh`'s `read` cannot write a NUL back: such an offer is not kept (Python answers)."""
    layout = fast.engine.config.layout
    facts = (True, None, [], [], [], [])
    path = Path(offer_cache.path(layout, "codex"))
    offer_cache.write(
        layout, "codex", "SessionStart", ["Free tasks: a\0b."], facts, ["a"], 1, set()
    )
    assert not path.exists()
    offer_cache.write(layout, "codex", "SessionStart", ["Free tasks: ab."], facts, ["a"], 1, set())
    first, _, rest = path.read_bytes().split(b"\n", 2)
    assert first.split()[8:] == [b"-", str(len(rest)).encode()] and b"Free tasks: ab." in rest


@pytest.mark.parametrize("place", ["new-7.sh", "new-7+1.sh"])
@pytest.mark.parametrize("kind", ["symlink", "dangling symlink", "hard link", "folder"])
def test_a_sessions_record_is_never_made_through_something_planted(
    fast: Fast, tmp_path: Path, kind: str, place: str
) -> None:
    """Each record is made only as a new file (`set -C`, O_EXCL): anything planted at its name
    first (a link to a file of the agent's choosing, a link to nowhere, a hard link, a folder), at
    the session's first record or at a numbered one, is never followed or written through; `sh`
    takes the next name (a link to nowhere at the next one: Python). The session's next Python run
    puts its newest record at `<session>.sh` and removes the numbered ones (names only)."""
    repo = fast.engine.config.repo
    offered(fast)
    folder = fast.root / "activity"
    if place != "new-7.sh":  # the first record is there already
        assert not fast.run("claude", "SessionStart", start("new-7", repo)).started
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    planted = folder / place
    if kind == "symlink":
        planted.symlink_to(victim)
    elif kind == "dangling symlink":
        planted.symlink_to(tmp_path / "made-through-a-link")
    elif kind == "hard link":
        os.link(victim, planted)
    else:
        planted.mkdir()
    run = fast.run("claude", "SessionStart", start("new-7", repo))
    assert run.answer[0] == 0 and "this session (new-7) owns no task" in run.answer[1]
    assert victim.read_text() == "keep me\n"
    assert not (tmp_path / "made-through-a-link").exists()
    # only a link to nowhere at the next numbered name sends the start to Python
    assert run.started == (kind == "dangling symlink" and place != "new-7.sh")
    newest = activity.read_all(str(fast.root))["new-7"]
    assert newest["event"] == "SessionStart" and abs(newest["time"] - time.time()) < 60
    assert not run.started or (folder / "new-7.json").exists()
    # the session's next Python run sweeps the numbered ones: this one's, or its end's (with
    # numbered records left; else `sh` makes the first, and leaves it)
    end = stop("new-7", repo, hook_event_name="SessionEnd", reason="exit")
    assert fast.run("claude", "SessionEnd", end).started != run.started
    assert victim.read_text() == "keep me\n"
    left = sorted(n for n in os.listdir(folder) if n.startswith("new-7"))
    # a folder planted there is left as it is (and the newest record beside it)
    numbered = ["new-7+1.sh"] if kind == "folder" or run.started else []
    assert left == [*numbered, "new-7.json", "new-7.sh"]
    base = folder / "new-7.sh"
    if kind != "folder" or place != "new-7.sh":
        assert base.is_file() and not base.is_symlink() and not os.path.samefile(victim, base)
    assert activity.read_all(str(fast.root))["new-7"]["event"] == "SessionEnd"


def test_a_claim_through_the_cli_from_elsewhere_is_seen(fast: Fast, tmp_path: Path) -> None:
    """Another door and another cwd: `taskproto claim` for the session, run from a symbolic link
    to the repository's subfolder, renews the offer (its quick path) with the session listed, so
    the session's next turn is Python's, which finds its task."""
    from tests.conftest import run_taskproto

    repo = fast.engine.config.repo
    nobody = stop(NOBODY, repo)
    offered(fast)
    assert not fast.run("claude", "Stop", nobody).started  # stamped: owns no task
    (repo / "sub").mkdir()
    link = tmp_path / "elsewhere"
    link.symlink_to(repo / "sub")
    later()
    done = run_taskproto("--session", NOBODY, "claim", "t2", cwd=link)
    assert done.code == 0, done.err
    assert NOBODY in header(fast)[8].split(",")
    run = fast.both("claude", "Stop", nobody, NOBODY)
    assert run.started


def test_a_claim_through_the_mcp_server_is_seen(fast: Fast) -> None:
    """Another door: the claim made by a real `taskproto mcp` process for the session (the
    engine renews the offer as the change completes) lists it in OWNERS, so its next turn and a
    start under its id, which trusts OWNERS alone, go to Python, which finds its task."""
    import anyio

    from tests.mcpserver.conftest import connect, ok

    repo = fast.engine.config.repo
    nobody = stop(NOBODY, repo)
    offered(fast)
    assert not fast.run("claude", "Stop", nobody).started  # stamped: owns no task
    assert not fast.run("claude", "SessionStart", start(NOBODY, repo)).started
    later()

    async def claim() -> None:
        async with connect(repo, session=NOBODY) as client:
            assert (await ok(client, "claim", task="t2"))["outcome"] == "claimed"

    anyio.run(claim)
    assert NOBODY in header(fast)[8].split(",")
    run = fast.both("claude", "SessionStart", start(NOBODY, repo), NOBODY)
    assert run.started and "t2" in run.answer[1]
    assert fast.both("claude", "Stop", nobody, NOBODY).started
