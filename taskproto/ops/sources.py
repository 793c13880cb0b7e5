"""The peers' formats read into one shape, `Item`: beads' issues JSONL, vibe-kanban's export ZIP
(CSV files) and the JSON `gh issue list --json ...` prints. Pure: bytes in, items out; nothing
here knows taskproto's tasks (ops/importing.py maps items onto them). docs/import-export.md
says what each field becomes.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from taskproto.errors import TaskprotoError

SOURCES = ("taskproto", "beads", "vibe-kanban", "github")
PREFIX = {"github": "gh-", "beads": "", "vibe-kanban": ""}


@dataclass
class Item:
    """One issue of a peer, as taskproto takes it."""

    source: str  # beads, vibe-kanban, github
    id: str  # the source's own id: importing again finds the task by it
    title: str
    body: str = ""
    closed: bool = False
    status: str = ""  # the source's own word for it
    priority: int = 2  # taskproto's 0 (most urgent) .. 4
    created_at: datetime | None = None
    closed_at: datetime | None = None
    close_reason: str = ""
    after: list[str] = field(default_factory=list)  # source ids this item waits for (blocking)
    links: dict[str, list[str]] = field(default_factory=dict)  # other link types, kept as data
    url: str = ""

    @property
    def description(self) -> str:
        return f"{self.title}\n\n{self.body}".rstrip() if self.body.strip() else self.title


def task_name_for(source: str, source_id: str) -> str:
    """The task name an item gets: its id, prefixed for GitHub's bare numbers, with anything a
    task name may not hold turned into '-'."""
    raw = PREFIX.get(source, "") + source_id
    keep = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "-" for c in raw)
    keep = keep.strip("-.") or "item"
    while ".." in keep:
        keep = keep.replace("..", ".")
    return keep[:64]


def parse_time(value: object) -> datetime | None:
    """An RFC 3339 / ISO 8601 time (Z or an offset, up to nanoseconds) in UTC, or None."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip().replace("Z", "+00:00")
    if "." in text:  # Go and chrono write up to 9 digits of a second; Python reads 6
        head, _, rest = text.partition(".")
        digits = "".join(c for c in rest if c.isdigit())
        text = f"{head}.{digits[:6].ljust(6, '0')}{rest[len(digits) :]}"
    try:
        found = datetime.fromisoformat(text)
    except ValueError:
        return None
    if found.tzinfo is None:
        found = found.replace(tzinfo=UTC)
    return found.astimezone(UTC)


def read(source: str, data: bytes) -> list[Item]:
    """The items of `data` in format `source` (not taskproto's own: ops/exchange.py)."""
    readers = {"beads": beads, "vibe-kanban": vibe_kanban, "github": github}
    if source in readers:
        try:
            return readers[source](data)
        except UnicodeDecodeError as exc:  # a binary file, or text in another encoding
            raise _bad(source, "the file", f"not UTF-8 text ({exc})") from None
    raise TaskprotoError(f"unknown source {source!r}; use one of {', '.join(SOURCES)}")


def _list(value: object) -> list[Any]:
    """A field that should be a list, as one: anything else is left out, as an entry of the
    wrong kind in it is."""
    return value if isinstance(value, list) else []


def _bad(source: str, where: str, why: str) -> TaskprotoError:
    return TaskprotoError(f"not a {source} file: {where}: {why}; nothing was imported")


# --- beads: .beads/issues.jsonl, one issue a line --------------------------------------------

BEADS_CLOSED = {"closed", "tombstone"}
BEADS_BLOCKING = {"blocks"}


def beads(data: bytes) -> list[Item]:
    items: list[Item] = []
    for number, line in enumerate(data.decode("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            issue = json.loads(line)
        except ValueError as exc:
            raise _bad("beads", f"line {number}", f"not JSON ({exc})") from None
        if not isinstance(issue, dict) or not isinstance(issue.get("id"), str):
            raise _bad("beads", f"line {number}", "an issue needs a string id")
        status = str(issue.get("status") or "open")
        item = Item(
            source="beads",
            id=issue["id"],
            title=str(issue.get("title") or ""),
            body=str(issue.get("description") or ""),
            closed=status in BEADS_CLOSED,
            status=status,
            priority=_clamp(issue.get("priority"), 2),
            created_at=parse_time(issue.get("created_at")),
            closed_at=parse_time(issue.get("closed_at")),
            close_reason=str(issue.get("close_reason") or ""),
        )
        if issue.get("assignee"):
            item.links["assignees"] = [str(issue["assignee"])]
        labels = [str(label) for label in _list(issue.get("labels")) if isinstance(label, str)]
        if labels:
            item.links["labels"] = labels
        for dep in _list(issue.get("dependencies")):
            if not isinstance(dep, dict):
                continue
            on = dep.get("depends_on_id")
            if not isinstance(on, str) or dep.get("issue_id", item.id) != item.id:
                continue
            kind = str(dep.get("type") or "blocks")
            if kind in BEADS_BLOCKING:
                item.after.append(on)
            else:
                item.links.setdefault(kind, []).append(on)
        items.append(item)
    return items


def _clamp(value: object, default: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        return default
    return min(4, max(0, value))


# --- vibe-kanban: the export ZIP (issues.csv, projects.csv, users.csv, relationships.csv) -----

VK_PRIORITY = {"urgent": 0, "high": 1, "medium": 2, "low": 3}
VK_CLOSED = {"done", "completed", "cancelled", "canceled", "closed"}


def vibe_kanban(data: bytes) -> list[Item]:
    import zipfile

    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise _bad("vibe-kanban", "the file", "not a ZIP archive (the export's file)") from None
    names = {n.rsplit("/", 1)[-1]: n for n in archive.namelist()}
    if "issues.csv" not in names:
        raise _bad("vibe-kanban", "the archive", "it holds no issues.csv")
    rows = _csv(_member(archive, names["issues.csv"]))
    items: dict[str, Item] = {}
    for number, row in enumerate(rows, 2):
        sid = (row.get("Issue ID") or "").strip()
        if not sid:
            raise _bad("vibe-kanban", f"issues.csv row {number}", "no Issue ID")
        if sid in items:  # as the other sources' (ops/importing.py), before the rows merge
            raise TaskprotoError(f"vibe-kanban id {sid} is twice in the file; nothing was imported")
        status = (row.get("Status") or "").strip()
        completed = parse_time(row.get("Completed"))
        item = Item(
            source="vibe-kanban",
            id=sid,
            title=(row.get("Title") or "").strip(),
            body=row.get("Description") or "",
            closed=status.lower() in VK_CLOSED or completed is not None,
            status=status,
            priority=VK_PRIORITY.get((row.get("Priority") or "").strip().lower(), 2),
            created_at=parse_time(row.get("Created")),
            closed_at=completed,
        )
        parent = (row.get("Parent Issue") or "").strip()
        if parent:
            item.links["parent"] = [parent]
        people = [t.strip() for t in (row.get("Assignee(s)") or "").split(",") if t.strip()]
        if people:
            item.links["assignees"] = people
        labels = [t.strip() for t in (row.get("Labels") or "").split(",") if t.strip()]
        if labels:
            item.links["labels"] = labels
        if row.get("Project"):
            item.links["project"] = [row["Project"].strip()]
        items[sid] = item
    if "relationships.csv" in names:
        for row in _csv(_member(archive, names["relationships.csv"])):
            a, b = (row.get("Issue ID") or "").strip(), (row.get("Related Issue ID") or "").strip()
            kind = (row.get("Type") or "").strip()
            if kind == "Blocking" and b in items:  # a blocks b: b waits for a
                items[b].after.append(a)
            elif kind == "BlockedBy" and a in items:
                items[a].after.append(b)
            elif a in items and kind:
                items[a].links.setdefault(kind.lower(), []).append(b)
    return list(items.values())


def _member(archive: Any, name: str) -> bytes:
    """A file of the export's ZIP; a damaged one (a bad CRC, a stream that will not inflate, an
    archive cut short) is the file's fault, said in one line."""
    import zipfile
    import zlib

    try:
        data: bytes = archive.read(name)
    except (zipfile.BadZipFile, NotImplementedError, zlib.error, EOFError, OSError) as exc:
        why = f"it cannot be read ({exc}): a damaged or cut-short export"
        raise _bad("vibe-kanban", name.rsplit("/", 1)[-1], why) from None
    return data


def _csv(data: bytes) -> list[dict[str, str]]:
    text = data.decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text, newline="")))


# --- GitHub: `gh issue list --json number,title,body,labels,state,createdAt,closedAt,...` ----

GH_PRIORITY = {
    "p0": 0,
    "p1": 1,
    "p2": 2,
    "p3": 3,
    "p4": 4,
    "critical": 0,
    "urgent": 0,
    "high": 1,
    "medium": 2,
    "low": 3,
    "lowest": 4,
}


def github(data: bytes) -> list[Item]:
    text = data.decode("utf-8")  # not UTF-8: read() says so, as for the other sources
    try:
        issues = json.loads(text)
    except ValueError as exc:
        raise _bad("github", "the file", f"not JSON ({exc})") from None
    if not isinstance(issues, list):
        raise _bad("github", "the file", "`gh issue list --json ...` prints a JSON array")
    items: list[Item] = []
    for number, issue in enumerate(issues, 1):
        if not isinstance(issue, dict) or not _issue_number(issue.get("number")):
            raise _bad("github", f"entry {number}", "an issue needs its number")
        labels = [
            str(label.get("name", ""))
            for label in _list(issue.get("labels"))
            if isinstance(label, dict)
        ]
        state = str(issue.get("state") or "OPEN")
        reason = str(issue.get("stateReason") or "")
        item = Item(
            source="github",
            id=str(issue["number"]),
            title=str(issue.get("title") or ""),
            body=str(issue.get("body") or ""),
            closed=state.upper() == "CLOSED",
            status=state.lower() + (f" ({reason.lower()})" if reason else ""),
            priority=_gh_priority(labels),
            created_at=parse_time(issue.get("createdAt")),
            closed_at=parse_time(issue.get("closedAt")),
            close_reason=reason.lower(),
            url=str(issue.get("url") or ""),
        )
        # GitHub's issue dependencies and sub-issues (GraphQL `blockedBy`, `parent`), where given
        item.after = _numbers(issue.get("blockedBy"))
        parent = _numbers([issue.get("parent")] if isinstance(issue.get("parent"), dict) else [])
        if parent:
            item.links["parent"] = parent
        if labels:
            item.links["labels"] = labels
        people = [
            str(a["login"])
            for a in _list(issue.get("assignees"))
            if isinstance(a, dict) and a.get("login")
        ]
        if people:
            item.links["assignees"] = people
        items.append(item)
    return items


def _numbers(value: object) -> list[str]:
    if isinstance(value, dict):  # a GraphQL connection: {"nodes": [...]}
        value = value.get("nodes")
    if not isinstance(value, list):
        return []
    return [
        str(v["number"]) for v in value if isinstance(v, dict) and _issue_number(v.get("number"))
    ]


def _issue_number(value: object) -> bool:
    """Whether `value` is an issue's number: a whole number from 1 (JSON's `true` is no number)."""
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _gh_priority(labels: list[str]) -> int:
    for label in labels:
        word = label.lower().replace("priority", "").strip(" :/-_")
        if word in GH_PRIORITY:
            return GH_PRIORITY[word]
    return 2
