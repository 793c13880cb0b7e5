"""`taskproto import` and `taskproto export` (issue #43): the peers' files in their real formats
(tests/fixtures/import/), importing again, a changed source, refusals that write nothing, the
worktrees made at the claim, and the byte-for-byte round trip of an export."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.ops import interrupts, review
from taskproto.state.models import AgentState
from tests.conftest import git, make_repo

FIXTURES = Path(__file__).parent / "fixtures" / "import"
BEADS = FIXTURES / "beads-issues.jsonl"
GITHUB = FIXTURES / "github-issues.json"


def vibe_kanban_zip(target: Path) -> Path:
    """vibe-kanban's export as its /v1/export endpoint writes it: a ZIP of its CSV files."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for csv_file in sorted((FIXTURES / "vibe-kanban-export").iterdir()):
            archive.writestr(csv_file.name, csv_file.read_bytes())
    return target


def task_json(repo: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (repo / ".taskproto" / "tasks" / name / "task.json").read_text()
    )
    return data


def journal(repo: Path, name: str) -> str:
    return git(repo, "rev-parse", f"refs/taskproto/tasks/{name}")


def test_beads_import_makes_each_issue_a_task(cli: Any, repo: Path) -> None:
    result = cli("import", str(BEADS), "--from", "beads")
    assert result.code == 0, result.err
    assert "6 task(s) were created, 0 updated, 0 unchanged" in result.out
    # closed: the workflow's final state, by an import entry whose note keeps the history
    closed = task_json(repo, "bd-1")
    assert closed["state"] == "CLEANUP"
    entry = closed["transition_log"][0]
    assert (entry["kind"], entry["from"], entry["to"], entry["trigger"]) == (
        "import",
        None,
        "CLEANUP",
        "import",
    )
    assert "closed 2025-10-03T17:20:00+00:00: done in PR #12" in entry["note"]
    assert closed["created_at"] == "2025-10-01T09:00:00Z"
    assert closed["context"]["source"] == {
        "from": "beads",
        "id": "bd-1",
        "status": "closed",
        "closed_at": "2025-10-03T17:20:00+00:00",
        "close_reason": "done in PR #12",
    }
    # open: the initial state; title and description kept, priority as is, blocks -> after
    api = task_json(repo, "bd-2")
    assert (api["state"], api["priority"], api["depends_on"]) == ("INIT", 2, ["bd-1"])
    assert api["description"] == "REST API for sessions\n\nCreate, refresh and revoke sessions."
    assert api["context"]["source"]["links"] == {"assignees": ["alice"]}  # a link, not an owner
    assert api["owner"] is None
    login = task_json(repo, "bd-3")
    assert login["depends_on"] == ["bd-2"]  # parent-child is kept as a link, not a wait
    # parent-child and the labels are kept as links, as GitHub's and vibe-kanban's labels are
    assert login["context"]["source"]["links"] == {"parent-child": ["bd-5"], "labels": ["ui"]}
    assert login["description"] == "Login page"
    # no branch and no worktree until a session starts it; doctor expects none
    assert git(repo, "branch", "--list", "bd-*") == ""
    assert not (repo / ".taskproto" / "tasks" / "bd-2" / "code").exists()
    doctor = cli("doctor")
    assert doctor.code == 0, doctor.out + doctor.err
    assert "healthy" in doctor.out


def test_ready_orders_imported_tasks_by_priority_then_source_age(cli: Any) -> None:
    assert cli("import", str(BEADS), "--from", "beads").code == 0
    result = cli("ready", "--json")
    names = [e["name"] for e in json.loads(result.out)["ready"]]
    # bd-4 p0; bd-5 p1; bd-2 p2 (bd-1 closed); bd-6 p4; bd-3 waits for bd-2
    assert names == ["bd-4", "bd-5", "bd-2", "bd-6"]


def test_importing_again_changes_nothing(cli: Any, repo: Path) -> None:
    assert cli("import", str(BEADS), "--from", "beads").code == 0
    heads = {n: journal(repo, n) for n in ("bd-1", "bd-2", "bd-3")}
    again = cli("import", str(BEADS), "--from", "beads", "--json")
    assert again.code == 0, again.err
    data = json.loads(again.out)
    assert (data["created"], data["updated"], data["unchanged"]) == (0, 0, 6)
    assert data["changes"] == []
    assert {n: journal(repo, n) for n in heads} == heads


def test_a_changed_source_updates_only_what_changed(cli: Any, repo: Path, tmp_path: Path) -> None:
    assert cli("import", str(BEADS), "--from", "beads").code == 0
    heads = {n: journal(repo, n) for n in ("bd-1", "bd-4", "bd-5", "bd-6")}
    issues = [json.loads(line) for line in BEADS.read_text().splitlines()]
    issues[1].update(status="closed", closed_at="2025-10-06T10:00:00Z", close_reason="shipped")
    issues[2].update(priority=0, description="Email and password.")
    changed = tmp_path / "issues.jsonl"
    changed.write_text("".join(json.dumps(i) + "\n" for i in issues))

    dry = cli("import", str(changed), "--from", "beads", "--dry-run", "--json")
    assert dry.code == 0, dry.err
    planned = {c["task"]: c["what"] for c in json.loads(dry.out)["changes"]}
    assert planned == {
        "bd-2": ["source record", "state INIT -> CLEANUP"],
        "bd-3": ["description", "priority 2 -> 0"],
    }
    assert task_json(repo, "bd-2")["state"] == "INIT"  # the dry run wrote nothing

    result = cli("import", str(changed), "--from", "beads")
    assert result.code == 0, result.err
    assert "0 task(s) were created, 2 updated, 4 unchanged" in result.out
    api = task_json(repo, "bd-2")
    assert api["state"] == "CLEANUP"
    assert api["context"]["source"]["close_reason"] == "shipped"
    assert api["transition_log"][-2]["kind"] == "import"  # then the import's note
    login = task_json(repo, "bd-3")
    assert login["priority"] == 0
    assert login["description"] == "Login page\n\nEmail and password."
    assert {n: journal(repo, n) for n in heads} == heads  # the others untouched
    assert "healthy" in cli("doctor").out  # the import entry is a legal step of the log


def test_dry_run_writes_nothing(cli: Any, repo: Path) -> None:
    result = cli("import", str(BEADS), "--from", "beads", "--dry-run")
    assert result.code == 0, result.err
    assert "create  bd-1  (new)" in result.out
    assert "6 task(s) would be created" in result.out
    assert not (repo / ".taskproto" / "tasks").exists()
    assert git(repo, "for-each-ref", "refs/taskproto/") == ""


def test_a_cycle_refuses_the_whole_file(cli: Any, repo: Path, tmp_path: Path) -> None:
    lines = [
        {"id": "x-1", "title": "a", "status": "open", "dependencies": [
            {"issue_id": "x-1", "depends_on_id": "x-2", "type": "blocks"}]},
        {"id": "x-2", "title": "b", "status": "open", "dependencies": [
            {"issue_id": "x-2", "depends_on_id": "x-1", "type": "blocks"}]},
    ]  # fmt: skip
    cyclic = tmp_path / "cycle.jsonl"
    cyclic.write_text("".join(json.dumps(i) + "\n" for i in lines))
    result = cli("import", str(cyclic), "--from", "beads")
    assert result.code == 1
    assert result.err.count("\n") == 1
    assert "cycle x-1 -> x-2 -> x-1" in result.err and "nothing was imported" in result.err
    assert not (repo / ".taskproto" / "tasks" / "x-1").exists()


def test_a_task_of_that_name_from_elsewhere_is_refused(cli: Any, repo: Path) -> None:
    assert cli("task", "create", "bd-4").code == 0
    result = cli("import", str(BEADS), "--from", "beads")
    assert result.code == 1
    assert "task bd-4 exists here and was not imported from beads bd-4" in result.err
    assert not (repo / ".taskproto" / "tasks" / "bd-1").exists()


def test_a_claim_makes_the_worktrees_of_an_imported_task(cli: Any, repo: Path) -> None:
    assert cli("import", str(BEADS), "--from", "beads").code == 0
    result = cli("--session", "s1", "claim", "bd-4")
    assert result.code == 0, result.err
    worktree = repo / ".taskproto" / "tasks" / "bd-4" / "code"
    assert (worktree / "README.md").is_file()
    assert git(worktree, "branch", "--show-current") == "bd-4"
    data = task_json(repo, "bd-4")
    assert "worktrees" not in data["context"]
    assert data["transition_log"][-1]["kind"] == "claim"
    # a task nobody claimed gets them at its first move
    moved = cli("--session", "s2", "fire", "bd-5", "classify")
    assert moved.code == 0, moved.err
    assert (repo / ".taskproto" / "tasks" / "bd-5" / "code" / "README.md").is_file()
    assert "healthy" in cli("doctor").out


def test_github_issues_import(cli: Any, repo: Path) -> None:
    result = cli("import", str(GITHUB), "--from", "github")
    assert result.code == 0, result.err
    crash, docs, logo = (task_json(repo, n) for n in ("gh-101", "gh-102", "gh-99"))
    assert (crash["state"], crash["priority"]) == ("INIT", 1)  # label P1
    assert docs["depends_on"] == ["gh-101"]  # blockedBy
    assert docs["description"] == "Document the config file"
    assert (logo["state"], logo["priority"]) == ("CLEANUP", 3)  # closed; "priority: low"
    assert logo["context"]["source"]["url"] == "https://github.com/example/tool/issues/99"
    assert logo["context"]["source"]["links"]["assignees"] == ["hubot"]
    assert "closed (completed)" in logo["transition_log"][0]["note"]


def test_vibe_kanban_export_import(cli: Any, repo: Path, tmp_path: Path) -> None:
    archive = vibe_kanban_zip(tmp_path / "vibe-kanban-export-2026-04-30.zip")
    result = cli("import", str(archive), "--from", "vibe-kanban")
    assert result.code == 0, result.err
    onboarding, welcome, events, icon = (
        task_json(repo, n) for n in ("VK-1", "VK-2", "VK-3", "VK-4")
    )
    assert onboarding["description"] == (
        "Onboarding flow\n\nThe first screens a new user sees.\n\nKeep it short."
    )
    assert (onboarding["priority"], welcome["priority"], events["priority"]) == (1, 0, 2)
    assert welcome["description"] == 'Welcome screen, with "skip" button'
    assert welcome["context"]["source"]["links"]["parent"] == ["VK-1"]
    assert events["depends_on"] == ["VK-2"]  # VK-2 blocks VK-3
    assert icon["state"] == "CLEANUP"
    assert onboarding["created_at"] == "2026-03-02T10:11:12.345678Z"
    again = cli("import", str(archive), "--from", "vibe-kanban")
    assert "0 task(s) were created, 0 updated, 4 unchanged" in again.out


def test_not_the_format_named_is_refused(cli: Any, repo: Path) -> None:
    result = cli("import", str(BEADS), "--from", "vibe-kanban")
    assert result.code == 1
    assert "not a vibe-kanban file" in result.err
    result = cli("import", str(BEADS), "--from", "taskproto")
    assert result.code == 1
    assert "not a taskproto export" in result.err


def _latin1_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        archive.writestr("issues.csv", "Issue ID,Title\nVK-1,Caf\xe9\n".encode("latin-1"))
    return buf.getvalue()


HEADER = b'{"format":"taskproto-tasks","version":1}\n'


@pytest.mark.parametrize(
    ("source", "data", "says"),
    [
        ("taskproto", HEADER + b'{"name":"t","workflow":"task-protocol","state":"INIT"', "line 2"),
        ("taskproto", HEADER + b"5\n", "line 2"),
        ("taskproto", HEADER + b'["name", "workflow", "state", "log"]\n', "line 2"),
        ("taskproto", b"PK\x03\x04\x88\xff", "not a taskproto export"),
        ("beads", b"PK\x03\x04\x88\xff\n", "not a beads file: the file: not UTF-8 text"),
        ("github", b"\x88\xff", "not a github file: the file: not UTF-8 text"),
        ("vibe-kanban", _latin1_zip(), "not a vibe-kanban file"),
    ],
    ids=[
        "truncated",
        "a-number",
        "a-list",
        "export-binary",
        "beads-binary",
        "github-binary",
        "vk-latin1",
    ],
)
def test_a_broken_file_is_refused_in_one_line_and_writes_nothing(
    cli: Any, repo: Path, tmp_path: Path, source: str, data: bytes, says: str
) -> None:
    broken = tmp_path / "broken"
    broken.write_bytes(data)
    refs = git(repo, "for-each-ref")
    result = cli("import", str(broken), "--from", source)
    assert result.code == 1, result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], lines
    assert lines[0].endswith("; nothing was imported"), lines
    assert git(repo, "for-each-ref") == refs
    assert not (repo / ".taskproto" / "tasks").exists() or not any(
        (repo / ".taskproto" / "tasks").iterdir()
    )


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (
            '"agents":[{"agent":"../../x","status":"PENDING","updated_at":"2025-10-01T09:00:00Z"}]',
            "invalid agent name '../../x'",
        ),
        ('"agents":5', "agents: a list of objects"),
        ('"agents":[5]', "agents: a list of objects"),
        ('"context":5', "context: an object"),
    ],
    ids=["agent-climbs-out", "agents-a-number", "an-agent-a-number", "context-a-number"],
)
def test_an_exported_task_with_bad_agents_or_context_is_refused_and_writes_nothing(
    cli: Any, repo: Path, tmp_path: Path, extra: str, says: str
) -> None:
    line = (
        '{"name":"x1","workflow":"task-protocol","state":"INIT","log":[],'
        f'"created_at":"2025-10-01T09:00:00Z",{extra}}}'
    )
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(HEADER + line.encode() + b"\n")
    cli("init")
    refs = git(repo, "for-each-ref")
    result = cli("import", str(broken), "--from", "taskproto")
    assert result.code == 1, result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and "(x1) is not a valid task" in lines[0], lines
    assert git(repo, "for-each-ref") == refs
    assert sorted(p.name for p in (repo / ".taskproto" / "tasks").glob("*")) == []


@pytest.mark.parametrize(
    ("source", "data"),
    [
        ("beads", b'{"id":"bd-1","title":"A","status":"open","dependencies":5}\n'),
        ("github", b'[{"number":1,"title":"A","state":"OPEN","labels":5}]'),
        ("github", b'[{"number":1,"title":"A","state":"OPEN","assignees":5}]'),
    ],
    ids=["beads-dependencies", "github-labels", "github-assignees"],
)
def test_a_list_field_that_is_no_list_is_left_out_not_an_internal_error(
    cli: Any, repo: Path, tmp_path: Path, source: str, data: bytes
) -> None:
    odd = tmp_path / "odd"
    odd.write_bytes(data)
    result = cli("import", str(odd), "--from", source)
    assert result.code == 0, result.err
    assert "1 task(s) were created" in result.out


def test_a_vibe_kanban_issue_id_twice_is_refused_as_the_other_sources_are(
    cli: Any, repo: Path, tmp_path: Path
) -> None:
    archive = tmp_path / "twice.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("issues.csv", "Issue ID,Title\nVK-1,first\nVK-1,second\n")
    refs = git(repo, "for-each-ref")
    result = cli("import", str(archive), "--from", "vibe-kanban")
    assert result.code == 1, result.out
    assert result.err.strip() == (
        "taskproto: vibe-kanban id VK-1 is twice in the file; nothing was imported"
    )
    assert git(repo, "for-each-ref") == refs


def test_a_dependency_on_an_id_nowhere_is_left_out_with_a_warning(
    cli: Any, repo: Path, tmp_path: Path
) -> None:
    issues = tmp_path / "issues.jsonl"
    issues.write_text(
        '{"id":"bd-9","title":"A","status":"open","dependencies":'
        '[{"issue_id":"bd-9","depends_on_id":"ext-1","type":"blocks"}]}\n'
    )
    result = cli("import", str(issues), "--from", "beads")
    assert result.code == 0, result.err
    assert result.err.strip() == (
        "taskproto: warning: bd-9 waits for ext-1, which is neither in the file nor imported "
        "here: left out"
    )
    assert task_json(repo, "bd-9")["depends_on"] == []


def test_beads_labels_are_kept_as_links_and_a_second_import_changes_nothing(
    cli: Any, repo: Path, tmp_path: Path
) -> None:
    issues = tmp_path / "issues.jsonl"
    issues.write_text(
        '{"id":"bd-1","title":"Schema","status":"open","labels":["db","backend"]}\n'
        '{"id":"bd-2","title":"API","status":"open","labels":[]}\n'
    )
    assert cli("import", str(issues), "--from", "beads").code == 0
    assert task_json(repo, "bd-1")["context"]["source"]["links"] == {"labels": ["db", "backend"]}
    assert "links" not in task_json(repo, "bd-2")["context"]["source"]
    again = cli("import", str(issues), "--from", "beads")
    assert "0 task(s) were created, 0 updated, 2 unchanged" in again.out


def _damaged_zip(method: int) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as archive:
        archive.writestr(
            "issues.csv", "Issue ID,Title\n" + "".join(f"VK-{i},t{i}\n" for i in range(99))
        )
    data = bytearray(buf.getvalue())
    data[60] ^= 0xFF  # a byte of issues.csv's data: a bad CRC, or a stream that will not inflate
    return bytes(data)


@pytest.mark.parametrize(
    "method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED], ids=["crc", "inflate"]
)
def test_a_damaged_vibe_kanban_zip_is_refused_in_one_line(
    cli: Any, repo: Path, tmp_path: Path, method: int
) -> None:
    archive = tmp_path / "damaged.zip"
    archive.write_bytes(_damaged_zip(method))
    refs = git(repo, "for-each-ref")
    result = cli("import", str(archive), "--from", "vibe-kanban")
    assert result.code == 1, result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("taskproto: not a vibe-kanban file: issues.csv: it cannot be read")
    assert lines[0].endswith("; nothing was imported")
    assert git(repo, "for-each-ref") == refs


@pytest.mark.parametrize("number", ["true", "0", "-5"])
def test_a_github_issue_number_that_is_no_issue_number_is_refused(
    cli: Any, repo: Path, tmp_path: Path, number: str
) -> None:
    issues = tmp_path / "issues.json"
    issues.write_text(f'[{{"number": {number}, "title": "A", "state": "OPEN"}}]')
    result = cli("import", str(issues), "--from", "github")
    assert result.code == 1, result.out
    assert result.err.strip() == (
        "taskproto: not a github file: entry 1: an issue needs its number; nothing was imported"
    )


# --- the round trip ---------------------------------------------------------------------------


def _rich_tasks(engine: Engine, repo: Path) -> None:
    """Tasks with what an export must carry: agents and their statuses, an approval, an
    interruption, a review comment, dependencies, and a log longer than task.json keeps."""
    engine.create_task("schema", agents=["claude", "codex"], description="the schema", priority=1)
    engine.create_task("api", after=["schema"], description='ünïcode ✓ and "quotes"')
    engine.fire("schema", "classify", session="s1")
    engine.set_agent_status("schema", "claude", AgentState.WORKING, session="s1")
    interrupts.record(engine, "schema", "wait, why did you pick postgres?", session="s1")
    review.add_comment(engine, "schema", "user", "plan", "PLAN.md", 3, "use uuid keys")
    for _ in range(12):  # 24 more entries: task.json keeps 20, the journal all of them
        engine.remove_dependency("api", ["schema"])
        engine.add_dependency("api", ["schema"])


def _export(repo: Path) -> bytes:
    from taskproto.ops.exchange import export

    return export(Engine(load_config(repo))).encode()


def test_export_round_trips_byte_for_byte(tmp_path: Path, cli: Any, repo: Path) -> None:
    engine = Engine(load_config(repo))
    _rich_tasks(engine, repo)
    assert cli("import", str(BEADS), "--from", "beads").code == 0
    out = tmp_path / "tasks.jsonl"
    result = cli("export", "--output", str(out))
    assert result.code == 0, result.err
    first = out.read_bytes()
    lines = first.decode().splitlines()
    assert lines[0] == '{"format":"taskproto-tasks","version":1}'
    schema = json.loads(next(line for line in lines if '"name":"schema"' in line))
    assert [a["agent"] for a in schema["agents"]] == ["claude", "codex"]
    assert schema["agents"][0]["status"] == "WORKING"
    assert schema["interruptions"][0]["type"] == "QUESTION"
    assert schema["context"]["review"]["drafts"][0]["text"] == "use uuid keys"
    api = json.loads(next(line for line in lines if '"name":"api"' in line))
    assert len(api["log"]) == 25  # the whole log, from the journal
    assert len(task_json(repo, "api")["transition_log"]) == 20

    other = make_repo(tmp_path / "other")
    result = cli("import", str(out), "--from", "taskproto", cwd=other)
    assert result.code == 0, result.err
    assert _export(other) == first
    # task.json there keeps the log's tail, as a save keeps it; the journal holds it whole
    copied = task_json(other, "api")
    assert (len(copied["transition_log"]), copied["log_count"]) == (20, 25)
    log = json.loads(cli("log", "api", "--json", cwd=other).out)["entries"]
    assert sum(len(e["log"]) for e in log) == 25
    again = cli("import", str(out), "--from", "taskproto", cwd=other)
    assert "0 task(s) were created, 0 updated, 8 unchanged" in again.out
    assert "healthy" in cli("doctor", cwd=other).out


@pytest.mark.slow  # 2.3 s on a quiet machine, 4.8 s at a load of 8.5
def test_500_tasks_round_trip_byte_for_byte(tmp_path: Path, cli: Any, repo: Path) -> None:
    issues = [
        {
            "id": f"bd-{i}",
            "title": f"issue {i}",
            "description": f"body of {i}",
            "status": "closed" if i % 5 == 0 else "open",
            "priority": i % 5,
            "created_at": f"2025-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}Z",
            "dependencies": [
                {"issue_id": f"bd-{i}", "depends_on_id": f"bd-{i - 7}", "type": "blocks"}
            ]
            if i >= 7 and i % 3 == 0
            else [],
        }
        for i in range(500)
    ]
    source = tmp_path / "issues.jsonl"
    source.write_text("".join(json.dumps(i) + "\n" for i in issues))
    assert cli("import", str(source), "--from", "beads").code == 0
    first = _export(repo)
    assert first.count(b"\n") == 501
    out = tmp_path / "tasks.jsonl"
    out.write_bytes(first)
    other = make_repo(tmp_path / "other")
    assert cli("import", str(out), "--from", "taskproto", cwd=other).code == 0
    assert _export(other) == first


def test_export_names_tasks(cli: Any, repo: Path) -> None:
    assert cli("import", str(BEADS), "--from", "beads").code == 0
    result = cli("export", "bd-2", "bd-1")
    assert result.code == 0, result.err
    names = [json.loads(line).get("name") for line in result.out.splitlines()[1:]]
    assert names == ["bd-1", "bd-2"]
    missing = cli("export", "nope")
    assert missing.code != 0


def test_a_vibe_kanban_zip_without_issues_is_refused() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        archive.writestr("projects.csv", "Name,Created,Updated\n")
    from taskproto.errors import TaskprotoError
    from taskproto.ops.sources import read

    with pytest.raises(TaskprotoError, match="holds no issues.csv"):
        read("vibe-kanban", buf.getvalue())


def test_an_update_counts_a_long_log_right(cli: Any, repo: Path, tmp_path: Path) -> None:
    """A task whose log is longer than task.json keeps: an import's update appends to it, and
    `taskproto log` reads every entry back."""
    assert cli("import", str(BEADS), "--from", "beads").code == 0
    engine = Engine(load_config(repo))
    for _ in range(12):
        engine.remove_dependency("bd-3", ["bd-2"])
        engine.add_dependency("bd-3", ["bd-2"])
    assert task_json(repo, "bd-3")["log_count"] == 25
    issues = [json.loads(line) for line in BEADS.read_text().splitlines()]
    issues[2]["priority"] = 1
    changed = tmp_path / "issues.jsonl"
    changed.write_text("".join(json.dumps(i) + "\n" for i in issues))
    assert cli("import", str(changed), "--from", "beads").code == 0
    data = task_json(repo, "bd-3")
    assert (data["priority"], data["log_count"]) == (1, 26)
    log = cli("log", "bd-3", "--json")
    entries = json.loads(log.out)["entries"]
    assert sum(len(e["log"]) for e in entries) == 26
    assert "healthy" in cli("doctor").out


def test_importing_is_the_users(cli: Any, repo: Path) -> None:
    result = cli("import", str(BEADS), "--from", "beads", env={"CLAUDECODE": "1"})
    assert result.code == 1
    assert "importing tasks" in result.err
    assert not (repo / ".taskproto" / "tasks" / "bd-1").exists()
    dry = cli("import", str(BEADS), "--from", "beads", "--dry-run", env={"CLAUDECODE": "1"})
    assert dry.code == 0, dry.err  # reading what would change is anyone's


def test_a_branch_of_that_name_refuses_the_import(cli: Any, repo: Path) -> None:
    git(repo, "branch", "gh-101")
    result = cli("import", str(GITHUB), "--from", "github")
    assert result.code == 1
    assert "branch gh-101 already exists" in result.err
    assert not (repo / ".taskproto" / "tasks" / "gh-99").exists()


def test_an_export_of_a_workflow_not_defined_here_is_refused(
    cli: Any, repo: Path, tmp_path: Path
) -> None:
    when = "2025-01-01T00:00:00Z"
    entry = {"from": None, "to": "START", "trigger": "create", "time": when, "kind": "create"}
    line = {
        "name": "x",
        "workflow": "our-own",
        "state": "START",
        "created_at": when,
        "log": [entry],
    }
    export = tmp_path / "tasks.jsonl"
    export.write_text('{"format":"taskproto-tasks","version":1}\n' + json.dumps(line) + "\n")
    result = cli("import", str(export), "--from", "taskproto")
    assert result.code == 1
    assert "uses workflow 'our-own', which is not defined here" in result.err
    assert not (repo / ".taskproto" / "tasks" / "x").exists()


def test_items_become_tasks_of_the_workflow_named(cli: Any, repo: Path) -> None:
    result = cli("import", str(GITHUB), "--from", "github", "--workflow", "plan-task")
    assert result.code == 0, result.err
    assert (task_json(repo, "gh-101")["workflow"], task_json(repo, "gh-101")["state"]) == (
        "plan-task",
        "CONTEXTUALIZE",
    )
    assert task_json(repo, "gh-99")["state"] == "VERIFIED"  # closed: plan-task's final state


@pytest.mark.parametrize(
    ("source", "name", "text"),
    [
        (
            "beads",
            "bd-5",
            '{"id":"bd-4","title":"A","status":"open"}\n'
            '{"id":"bd-5","title":"B","status":"open","dependencies":['
            '{"issue_id":"bd-5","depends_on_id":"bd-5","type":"blocks"},'
            '{"issue_id":"bd-5","depends_on_id":"bd-4","type":"blocks"}]}\n',
        ),
        (
            "github",
            "gh-5",
            '[{"number":4,"title":"A","state":"OPEN"},'
            '{"number":5,"title":"B","state":"OPEN","blockedBy":[{"number":5},{"number":4}]}]',
        ),
    ],
)
def test_a_task_that_depends_on_itself_is_reported_and_the_dependency_left_out(
    cli: Any, repo: Path, tmp_path: Path, source: str, name: str, text: str
) -> None:
    issues = tmp_path / "issues"
    issues.write_text(text)
    item = name.split("-", 1)[1] if source == "github" else name
    line = f"{item} depends on itself: that dependency is left out"
    result = cli("import", str(issues), "--from", source)
    assert result.code == 0, result.err
    assert result.err.strip() == f"taskproto: warning: {line}"
    other = name[:-1] + "4"
    assert task_json(repo, name)["depends_on"] == [other]  # the rest kept
    # imported again: the same line, nothing changed; in --json too
    result = cli("import", str(issues), "--from", source, "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["warnings"] == [line] and data["updated"] == 0 and data["created"] == 0


def test_a_task_here_waiting_for_a_removed_task_does_not_refuse_an_import(
    cli: Any, repo: Path
) -> None:
    """A task that waits for one that landed (or was removed) here is no fault of the file: the
    import goes on (it refused every file once any dependency had landed)."""
    assert cli("task", "create", "done-here").code == 0
    assert cli("task", "create", "after-it", "--after", "done-here").code == 0
    assert cli("task", "remove", "done-here").code == 0  # archived, as `land` leaves it
    dry = cli("import", str(BEADS), "--from", "beads", "--dry-run")
    assert dry.code == 0, dry.err
    result = cli("import", str(BEADS), "--from", "beads")
    assert result.code == 0, result.err
    assert "6 task(s) were created" in result.out
    assert task_json(repo, "after-it")["depends_on"] == ["done-here"]  # left as it was


def test_an_exported_task_waiting_for_one_removed_here_is_imported(
    cli: Any, repo: Path, tmp_path: Path
) -> None:
    """The export leaves out the tasks that landed or were removed; a task waiting for one of them
    reads back into a repository that removed it too."""
    assert cli("task", "create", "gone").code == 0
    assert cli("task", "create", "waits", "--after", "gone").code == 0
    assert cli("task", "remove", "gone").code == 0
    exported = tmp_path / "tasks.jsonl"
    assert cli("export", "--output", str(exported)).code == 0
    assert cli("task", "remove", "waits").code == 0
    result = cli("import", str(exported), "--from", "taskproto")
    assert result.code == 0, result.err
    assert task_json(repo, "waits")["depends_on"] == ["gone"]


def test_an_exported_task_waiting_for_one_nowhere_is_refused(
    cli: Any, repo: Path, tmp_path: Path
) -> None:
    assert cli("task", "create", "first").code == 0
    assert cli("task", "create", "second", "--after", "first").code == 0
    exported = tmp_path / "tasks.jsonl"
    assert cli("export", "--output", str(exported)).code == 0
    lines = exported.read_text().splitlines(keepends=True)
    exported.write_text("".join(ln for ln in lines if '"name":"first"' not in ln))
    other = make_repo(tmp_path / "other")
    result = cli("import", str(exported), "--from", "taskproto", cwd=other)
    assert result.code == 1
    assert result.err == (
        "taskproto: task second waits for first, which is neither in the file nor here; "
        "nothing was imported\n"
    )
    assert git(other, "for-each-ref", "refs/taskproto/") == ""
