"""The tasks' index (state/index.py): the one write path appends each task's row after every save,
the listings read the rows instead of every task.json, and a row is taken only while the task's
files are as the row recorded them. Real repositories, real processes racing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from taskproto.engine import Engine
from taskproto.hooks.tasks import TaskReader, listing
from taskproto.state import index
from tests.conftest import run_taskproto

S1 = "s1"


def list_json(repo: Path) -> list[dict[str, object]]:
    r = run_taskproto("task", "list", "--json", cwd=repo)
    assert r.code == 0, r.err
    rows: list[dict[str, object]] = json.loads(r.out)
    return rows


def test_every_save_leaves_the_tasks_row_and_the_list_reads_it(engine: Engine, repo: Path) -> None:
    engine.create_task("a", ["dev"])
    engine.create_task("b", after=["a"])
    engine.claim("a", S1)
    engine.fire("a", target="CLASSIFIED", session=S1)
    from taskproto.state.models import AgentState

    engine.set_agent_status("a", "dev", AgentState.WORKING, session=S1)
    layout = engine.config.layout
    fresh, stale = index.rows(layout, ["a", "b"])
    assert stale == []
    assert fresh["a"].state == "CLASSIFIED" and fresh["a"].data["agents"] == {"dev": "WORKING"}
    assert fresh["a"].owner == S1 and fresh["a"].data["owner"]["session"] == S1
    assert fresh["b"].depends_on == ["a"] and fresh["b"].data["depends_on"] == ["a"]
    # the list from the rows is the list read through the engine, task by task
    from taskproto.cli.task import _engine_rows

    assert listing(TaskReader(engine.config)) == json.loads(
        json.dumps(_engine_rows(engine), default=str)
    )
    rows = list_json(repo)
    assert [r["name"] for r in rows] == ["a", "b"]
    assert rows[1]["waiting"] == "a (in CLASSIFIED)"


def test_a_row_whose_files_changed_is_not_taken(engine: Engine, repo: Path) -> None:
    engine.create_task("a")
    layout = engine.config.layout
    path = Path(layout.task_file("a"))
    # a hand edit: the row no longer vouches for the file, and the list reads the file itself
    path.write_text(path.read_text().replace('"INIT"', '"COMPLETE"'))
    fresh, stale = index.rows(layout, ["a"])
    assert stale == ["a"] and fresh == {}
    r = run_taskproto("task", "list", cwd=repo)
    assert r.code == 0 and "BROKEN" in r.out and "doctor" in r.out


def test_a_lost_index_is_made_again_by_the_next_listing(engine: Engine, repo: Path) -> None:
    for name in ("a", "b", "c"):
        engine.create_task(name)
    before = list_json(repo)
    Path(index.path(engine.config.layout)).unlink()
    assert list_json(repo) == before
    fresh, stale = index.rows(engine.config.layout, ["a", "b", "c"])
    assert stale == [] and sorted(fresh) == ["a", "b", "c"]


def test_a_removed_task_leaves_the_index(engine: Engine, repo: Path) -> None:
    engine.create_task("a")
    engine.create_task("b")
    engine.remove_task("a")
    assert "a" not in index.latest_lines(engine.config.layout)
    assert [r["name"] for r in list_json(repo)] == ["b"]


def test_the_index_stays_the_size_of_its_tasks(engine: Engine) -> None:
    engine.create_task("a")
    engine.claim("a", S1)
    path = Path(index.path(engine.config.layout))
    for _ in range(150):
        engine.fire(
            "a",
            target="CLASSIFIED" if engine.load("a").state == "INIT" else "REQUIREMENTS",
            session=S1,
        )
        engine.rollback("a", "INIT", None, session=S1)
    lines = path.read_bytes().count(b"\n")
    one = len(path.read_bytes().splitlines()[-1])
    assert path.stat().st_size < 2 * one * 2 + (index.SLACK << 10) + one, (lines, one)
    head = index.latest_lines(engine.config.layout)["a"].partition("\t")[0]
    assert json.loads(head)[2][0] == "INIT"  # the head's state
    fresh, _ = index.rows(engine.config.layout, ["a"])
    assert fresh["a"].state == "INIT" and fresh["a"].data["state"] == "INIT"


RACER = """
import sys
from taskproto.config import load_config
from taskproto.engine import Engine
engine = Engine(load_config("."))
name = sys.argv[1]
for i in range(int(sys.argv[2])):
    engine.fire(name, target="CLASSIFIED", session=name)
    engine.rollback(name, "INIT", None, session=name)
"""


def test_racing_processes_leave_a_whole_row_each(engine: Engine, repo: Path) -> None:
    names = [f"t{i}" for i in range(6)]
    for name in names:
        engine.create_task(name)
        engine.claim(name, name)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, name, "25"],
            cwd=repo,
            env={**os.environ},
            stderr=subprocess.PIPE,
        )
        for name in names
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.decode()
    layout = engine.config.layout
    for line in Path(index.path(layout)).read_text().splitlines():
        head, tab, row = line.partition("\t")  # no torn or interleaved line
        assert tab and json.loads(row)["name"] == json.loads(head)[0]
    fresh, stale = index.rows(layout, names)
    assert stale == []
    for name in names:
        assert fresh[name].data["revision"] == engine.load(name).revision


def test_a_torn_last_line_is_not_taken(engine: Engine, repo: Path) -> None:
    """A crash in the middle of an append leaves part of a line: it is skipped, and the task is
    read itself."""
    engine.create_task("a")
    path = Path(index.path(engine.config.layout))
    whole = path.read_bytes()
    last = whole.rstrip(b"\n").rsplit(b"\n", 1)[-1]
    path.write_bytes(whole + last[: len(last) - 5])  # the head whole, the row cut short
    fresh, stale = index.rows(engine.config.layout, ["a"])
    assert fresh["a"].data["state"] == "INIT" and stale == []
    path.write_bytes(last[: len(last) - 5])  # only the torn line
    fresh, stale = index.rows(engine.config.layout, ["a"])
    assert fresh == {} and stale == ["a"]
    assert [r["name"] for r in list_json(repo)] == ["a"]


def test_a_line_appended_to_a_torn_line_is_not_taken_for_either_task(
    engine: Engine, repo: Path
) -> None:
    """The next save appends its line right after a torn one (no newline between): the physical
    line holds the torn task's head and part of its row, then the other task's whole line. It is
    no line this taskproto writes (two tabs): neither task's row is taken from it, both are read
    themselves, and `task list --json` prints them (it failed with an internal error)."""
    engine.create_task("a")
    engine.create_task("b")
    path = Path(index.path(engine.config.layout))
    whole = path.read_bytes()
    path.write_bytes(whole[:-40])  # a's last line torn inside its row
    r = run_taskproto("task", "create", "c", cwd=repo)  # appended to the torn line
    assert r.code == 0, r.err
    glued = path.read_text().split("\n")[-2]
    assert glued.startswith('["b",') and glued.count("\t") == 2
    fresh, stale = index.rows(engine.config.layout, ["a", "b", "c"])
    assert "b" in stale  # its line is the torn one
    for quick in ("1", "0"):
        r = run_taskproto("task", "list", "--json", cwd=repo, env={"TASKPROTO_QUICK": quick})
        assert r.code == 0, r.err
        assert [(t["name"], t["state"]) for t in json.loads(r.out)] == [
            ("a", "INIT"),
            ("b", "INIT"),
            ("c", "INIT"),
        ]


def test_lines_this_taskproto_does_not_write_are_not_taken(engine: Engine, repo: Path) -> None:
    """A listing compares each head's key as text and parses only the rest of the head where it
    lies (index._rows): a line that only looks like a head, or whose parts are not what `line`
    writes, is never taken as the task's row; the task is read itself."""
    engine.create_task("a", ["dev"])
    layout = engine.config.layout
    path = Path(index.path(layout))
    good = path.read_text().splitlines()[-1]
    head, _, row = good.partition("\t")
    st = os.stat(layout.task_file("a"))
    key = f"[{st.st_size},{st.st_mtime_ns},{st.st_ino}]"
    assert head.startswith(f'["a",{key},[')
    hot = json.dumps(json.loads(head)[2], separators=(",", ":"))
    forged = [  # (the line, taken by a listing that does not look at the statuses)
        (f'["a"X{key},{hot},{{}}]\t{row}', False),  # not `",` after the name
        (f'["a",{key},"INIT-ish",{{}}]\t{row}', False),  # what a listing shows is no list
        (f'["a",{key},{hot}]\t{row}', False),  # no statuses
        (f'["a",{key},{hot},{{}}]{row}', False),  # no tab: the row cannot be found
        (f'["a",{key},{hot[:-3]}', False),  # the head cut inside what it shows
        (f'["a",{key[:-1]}0],{hot},{{}}]\t{row}', False),  # another inode
        ('["a\\"",' + good[5:], False),  # a name with a quote: no task's
        (f'["a",{key},[1,2],{{}}]\t{row}', False),  # a list of the wrong length
        (f'["a",{key},{hot},[]]\t{row}', False),  # statuses that are no object
    ]
    for text, taken in forged:
        path.write_text(text + "\n")
        assert index.rows(layout, ["a"]) == ({}, ["a"]), text
        fresh, stale = index.rows(layout, ["a"], statuses=False)
        assert (sorted(fresh), stale) == ((["a"], []) if taken else ([], ["a"])), text
        r = run_taskproto("task", "list", cwd=repo)
        assert r.code == 0 and r.out.startswith("a  INIT") and "BROKEN" not in r.out, (text, r)
    # a listing that reads the task itself records it again: the last line is good
    assert [r["name"] for r in list_json(repo)] == ["a"]
    assert index.rows(layout, ["a"])[0]["a"].state == "INIT"


def test_a_file_among_the_tasks_folders_is_no_task(engine: Engine, repo: Path) -> None:
    """The listing takes the tasks folder's names without asking each one's type; a file there
    (no task.json inside) is left out, as the engine leaves it out."""
    engine.create_task("a")
    engine.create_task("b")
    tasks = Path(engine.config.layout.tasks)
    (tasks / "notes").write_text("not a task\n")
    (tasks / ".hidden").mkdir()
    (tasks / "-bad").mkdir()  # a folder whose name is no task's name
    quick = run_taskproto("task", "list", cwd=repo)
    full = run_taskproto("task", "list", cwd=repo, env={"TASKPROTO_QUICK": "0"})
    assert quick.code == full.code == 0, (quick, full)
    assert quick.out == full.out and [line.split()[0] for line in quick.out.splitlines()] == [
        "a",
        "b",
    ]
    assert list_json(repo) == json.loads(
        run_taskproto("task", "list", "--json", cwd=repo, env={"TASKPROTO_QUICK": "0"}).out
    )


def test_a_quick_read_ends_at_once_with_all_its_output(engine: Engine, repo: Path) -> None:
    """The quick front's reads end the process without its teardown (cli `run`): the output,
    far larger than a pipe holds, is all there and the exit code is the read's."""
    engine.create_task("big", description="x" * 300_000)
    for args in (("task", "show", "big", "--json"), ("task", "list", "--json")):
        proc = subprocess.run(
            [sys.executable, "-m", "taskproto", *args],
            cwd=repo,
            capture_output=True,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        found = json.loads(proc.stdout)
        assert "x" * 300_000 in json.dumps(found)
    gone = run_taskproto("task", "show", "nope", cwd=repo)
    assert gone.code == 1 and gone.err.count("\n") == 1


def test_a_line_torn_before_its_tab_and_glued_to_the_next_is_taken_for_neither(
    engine: Engine, repo: Path
) -> None:
    """Torn right after its head: the glued line holds one tab, and after it the next task's
    row. Neither a plain listing nor a JSON one takes it for the first task (not its row)."""
    engine.create_task("a")
    engine.create_task("b")
    path = Path(index.path(engine.config.layout))
    whole = path.read_text()
    last = whole.rstrip("\n").rsplit("\n", 1)[-1]
    assert last.startswith('["b",')
    head = last.partition("\t")[0]
    path.write_text(whole[: len(whole) - len(last) - 1] + head)  # b's line: its head only
    r = run_taskproto("task", "create", "c", cwd=repo)
    assert r.code == 0, r.err
    glued = path.read_text().split("\n")[-2]
    assert glued.startswith(head + '["c",') and glued.count("\t") == 1
    for statuses in (True, False):
        fresh, stale = index.rows(engine.config.layout, ["a", "b", "c"], statuses)
        assert "b" in stale and "b" not in fresh, statuses
    for args in (("task", "list"), ("task", "list", "--json")):
        quick = run_taskproto(*args, cwd=repo)
        full = run_taskproto(*args, cwd=repo, env={"TASKPROTO_QUICK": "0"})
        assert quick.code == full.code == 0 and quick.out == full.out, (quick, full)


def test_a_task_paused_by_the_users_question_says_so_in_the_list(
    engine: Engine, repo: Path
) -> None:
    """A question the user asked pauses the task's work until they say to go on: `task list`
    marks it (both paths, text and JSON), and a go takes the mark away. A row written by a
    taskproto before the mark (six fields shown) is read again, not misread."""
    engine.create_task("a")
    engine.create_task("b")
    r = run_taskproto(
        "interrupt", "record", "a", "why does the parser need a second pass?", cwd=repo
    )
    assert r.code == 0, r.err
    for quick in ("1", "0"):
        env = {"TASKPROTO_QUICK": quick}
        text = run_taskproto("task", "list", cwd=repo, env=env).out.splitlines()
        assert text[0].endswith("PAUSED (QUESTION) until `taskproto resume a`"), text
        assert "PAUSED" not in text[1]
        rows = json.loads(run_taskproto("task", "list", "--json", cwd=repo, env=env).out)
        assert [row["paused"] for row in rows] == ["QUESTION", None]
    # the index's line as an older taskproto wrote it: five plus the reasons, no `paused`
    path = Path(index.path(engine.config.layout))
    lines = path.read_text().splitlines()
    head, tab, rest = lines[-1].partition("\t")
    old = json.loads(head)
    assert old[0] == "a" and len(old[2]) == 7
    old[2] = old[2][:6]
    path.write_text("\n".join([*lines, json.dumps(old, separators=(",", ":")) + tab + rest]) + "\n")
    assert "PAUSED (QUESTION)" in run_taskproto("task", "list", cwd=repo).out
    r = run_taskproto("interrupt", "record", "a", "go on", cwd=repo)
    assert r.code == 0, r.err
    assert "PAUSED" not in run_taskproto("task", "list", cwd=repo).out
