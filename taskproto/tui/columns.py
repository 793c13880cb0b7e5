"""The TUI's columns view (`c`): as the board's, a lane per workflow and a column per state of it,
in the workflow's order, each task a card (name, head, what it waits for you for); the selected
task marked. The arrows move the selection: up and down through the tasks in reading order,
left and right to the first task of the previous or next column that has one."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer
from textual.widgets import Static

MIN_WIDTH = 18  # characters a column keeps however many states its workflow has


def lanes(rows: list[dict[str, Any]], states: dict[str, list[str]]) -> list[dict[str, Any]]:
    """Per workflow (in the order first seen), its states, each with the rows in it."""
    out: list[dict[str, Any]] = []
    for workflow, names in states.items():
        columns = [
            (s, [r for r in rows if r["workflow"] == workflow and r["state"] == s]) for s in names
        ]
        out.append({"workflow": workflow, "columns": columns})
    return out


def render(
    rows: list[dict[str, Any]],
    states: dict[str, list[str]],
    selected: str | None,
    waiting: dict[str, str],
) -> Group:
    """The lanes as Rich tables, one column per state."""
    tables = []
    for lane in lanes(rows, states):
        table = Table(title=lane["workflow"], title_justify="left", expand=False, show_lines=False)
        for state, found in lane["columns"]:
            table.add_column(f"{state} ({len(found)})" if found else state, min_width=MIN_WIDTH)
        depth = max((len(found) for _, found in lane["columns"]), default=0)
        for n in range(depth):
            cells = []
            for _state, found in lane["columns"]:
                if n >= len(found):
                    cells.append(Text(""))
                    continue
                row = found[n]
                card = f"{row['name']}  {row['head'][:7]}"
                if waiting.get(row["name"]):
                    card += f"\n  ! {waiting[row['name']]}"
                style = "reverse" if row["name"] == selected else ""
                cells.append(Text(("> " if row["name"] == selected else "") + card, style=style))
            table.add_row(*cells)
        tables.append(table)
    return Group(*tables) if tables else Group(Text("no tasks"))


def order(rows: list[dict[str, Any]], states: dict[str, list[str]]) -> list[dict[str, Any]]:
    """The rows in the columns' reading order: lane by lane, column by column, by name."""
    lanes_at = {w: i for i, w in enumerate(states)}
    return sorted(
        rows,
        key=lambda r: (
            lanes_at.get(r["workflow"], len(lanes_at)),
            states.get(r["workflow"], []).index(r["state"])
            if r["state"] in states.get(r["workflow"], [])
            else 999,
            r["name"],
        ),
    )


def jump(rows: list[dict[str, Any]], at: int, step: int) -> int:
    """The index of the first row of the previous (-1) or next (+1) column that has one."""
    if not rows:
        return 0
    here = (rows[at]["workflow"], rows[at]["state"])
    if step > 0:
        for n in range(at + 1, len(rows)):
            if (rows[n]["workflow"], rows[n]["state"]) != here:
                return n
        return at
    n = at
    while n > 0 and (rows[n - 1]["workflow"], rows[n - 1]["state"]) == here:
        n -= 1  # the first of this column
    if n == 0:
        return at
    before = (rows[n - 1]["workflow"], rows[n - 1]["state"])
    while n > 0 and (rows[n - 1]["workflow"], rows[n - 1]["state"]) == before:
        n -= 1
    return n


class ColumnsPane(ScrollableContainer, can_focus=True):
    """The columns view; its arrows move the app's selection."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "app.select(-1)", "previous", show=False),
        Binding("down", "app.select(1)", "next", show=False),
        Binding("left", "app.jump(-1)", "previous column", show=False),
        Binding("right", "app.jump(1)", "next column", show=False),
    ]

    def compose(self) -> Any:
        yield Static("", id="columns")
