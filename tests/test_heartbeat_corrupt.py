"""A half-written heartbeat.json (a crash between open and write, a hand edit) is never written
over in place nor deleted: the owner's next heartbeat sets it aside as heartbeat.json.corrupt-<time>
and says so in one line, `taskproto doctor` names it (`heartbeat-corrupt`) and its --fix keeps the
bad copy. Before, `taskproto heartbeat` replaced it silently and doctor said healthy."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from taskproto.engine import Engine

HALF = b'{"session": "s1", "pi'
SET_ASIDE = "the heartbeat file of task t1 was not a heartbeat (half-written?): kept as "


@pytest.fixture
def half_written(engine: Engine) -> Path:
    """Task t1, claimed by s1 (this live process), its heartbeat.json half-written; its folder."""
    engine.create_task("t1")
    engine.claim("t1", "s1", pid=os.getpid())
    folder = Path(engine.config.task_dir("t1"))
    (folder / "heartbeat.json").write_bytes(HALF)
    return folder


def _kept(folder: Path) -> list[Path]:
    return sorted(folder.glob("heartbeat.json.corrupt-*"))


def test_the_heartbeat_command_sets_a_half_written_file_aside_and_says_so(
    half_written: Path, cli
) -> None:
    folder = half_written
    r = cli("heartbeat", "t1", env={"TASKPROTO_SESSION": "s1"})
    assert r.code == 0, r.err
    [kept] = _kept(folder)
    assert kept.read_bytes() == HALF
    assert r.err == f"taskproto: warning: {SET_ASIDE}{kept.name}, a new one written\n"
    assert b'"session": "s1"' in (folder / "heartbeat.json").read_bytes()
    # a good heartbeat is renewed in place, with nothing said
    r = cli("heartbeat", "t1", env={"TASKPROTO_SESSION": "s1"})
    assert (r.code, r.err) == (0, "") and _kept(folder) == [kept]


def test_doctor_names_it_and_its_fix_keeps_the_bad_copy(half_written: Path, cli) -> None:
    folder = half_written
    r = cli("doctor", "t1", env={"TASKPROTO_SESSION": "someone-else"})
    assert r.code == 1
    assert "heartbeat-corrupt  heartbeat.json is not a heartbeat (half-written?)" in r.out
    assert (folder / "heartbeat.json").read_bytes() == HALF  # a check changes nothing
    r = cli("doctor", "--fix", "t1", env={"TASKPROTO_SESSION": "someone-else"})
    assert r.code == 0, r.out + r.err
    [kept] = _kept(folder)
    assert kept.read_bytes() == HALF and not (folder / "heartbeat.json").exists()
    assert f"set heartbeat.json aside as {kept.name} (kept)" in r.out
    assert cli("doctor", "t1", env={"TASKPROTO_SESSION": "someone-else"}).code == 0


def test_doctor_run_by_the_owner_names_the_one_its_own_heartbeat_set_aside(
    half_written: Path, cli
) -> None:
    folder = half_written
    (folder / "heartbeat.json").write_bytes(b"")  # cut before its first byte
    r = cli("doctor", "t1", env={"TASKPROTO_SESSION": "s1"})
    assert r.code == 0, r.out
    [kept] = _kept(folder)
    assert r.err == f"taskproto: warning: {SET_ASIDE}{kept.name}, a new one written\n"


def test_any_command_of_the_owner_names_the_one_its_heartbeat_set_aside(
    half_written: Path, cli
) -> None:
    folder = half_written
    for command in (("task", "show", "t1"), ("task", "show", "t1", "--json"), ("diff", "t1")):
        (folder / "heartbeat.json").write_bytes(HALF)
        r = cli(*command, env={"TASKPROTO_SESSION": "s1"})
        assert r.code == 0, r.err
        kept = _kept(folder)[-1]
        assert kept.read_bytes() == HALF
        assert r.err == f"taskproto: warning: {SET_ASIDE}{kept.name}, a new one written\n", (
            command,
            r.err,
        )
        r = cli(*command, env={"TASKPROTO_SESSION": "s1"})
        assert r.err == "", r.err  # said once: the file is a heartbeat again


def test_heartbeat_json_says_the_file_it_set_aside(half_written: Path, cli) -> None:
    """`heartbeat --json` names the file it set aside (`set_aside`), as its plain line does; null
    when there was none (found by a new user's walk: only the stderr warning said it)."""
    folder = half_written
    r = cli("heartbeat", "t1", "--json", env={"TASKPROTO_SESSION": "s1"})
    assert r.code == 0, r.err
    [kept] = _kept(folder)
    data = json.loads(r.out)
    assert data["set_aside"] == kept.name and data["task"] == "t1", data
    r = cli("heartbeat", "t1", "--json", env={"TASKPROTO_SESSION": "s1"})
    assert json.loads(r.out)["set_aside"] is None
