"""The terminal UI: the inbox on top, the tasks by state (rows, or columns as the board's: `c`),
the selected task's agents and diff, and keys that act as the user (approve the head shown,
revise with a message, resume, next, land; start, stop and attach an agent: tui/agents.py).

Live: every tenth of a second it looks at the tasks' index (`<root>/index.jsonl`, which every
save appends to, whichever door the change came through: the board's change stream reads the same
file) and reads the tasks again when it moved. A refusal is shown in the status line, one line, as
the CLI prints it; nothing is written then.
"""

from __future__ import annotations

import os
import time
from typing import Any, ClassVar

from textual.app import App, ComposeResult, ScreenStackError
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Footer, Header, Input, Static

from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
from taskproto.ops import inbox as box
from taskproto.ops import review
from taskproto.state import index
from taskproto.tui import agents as running
from taskproto.tui import columns as lanes

POLL = 0.1  # seconds between looks at the tasks' index
ACTIVITY_EVERY = 10  # polls between readings of the agents' activity (a record moves no index)
DIFF_CHARS = 20_000


class TaskprotoApp(App[None]):
    """One repository's tasks. `session`: who acts (the user's session)."""

    TITLE = "taskproto"
    CSS = """
    #inbox { height: auto; max-height: 12; }
    #tasks { height: 1fr; }
    #columns-pane { height: 1fr; display: none; }
    #columns-pane.shown { display: block; }
    #columns { width: auto; }
    #tasks.hidden { display: none; }
    #diff-pane { height: 1fr; border-top: solid $accent; }
    #message { display: none; }
    #message.shown { display: block; }
    #status { height: 1; }
    #activity { height: auto; max-height: 6; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "approve", "approve (the head shown)"),
        Binding("r", "revise", "revise"),
        Binding("u", "resume", "resume"),
        Binding("n", "next", "next"),
        Binding("l", "land", "land"),
        Binding("s", "agent('start')", "start agent"),
        Binding("x", "agent('stop')", "stop agent"),
        Binding("t", "agent('attach')", "attach"),
        Binding("c", "columns", "rows/columns"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, engine: Engine, session: str) -> None:
        super().__init__()
        self.engine = engine
        self.session = session
        self.rows: list[dict[str, Any]] = []  # the tasks as shown: name, state, head
        self.items: list[dict[str, Any]] = []  # the inbox as shown
        self._seen: tuple[int, int] | None = None
        self.refreshes = 0  # how many times the tasks were read (a benchmark watches it)
        self._asking: tuple[str, str] | None = None  # (revise|start|stop|attach, task)
        self.states: dict[str, list[str]] = {}  # each shown workflow's states, in order
        self._polls = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("inbox", id="inbox-title")
        yield DataTable(id="inbox", cursor_type="row")
        yield DataTable(id="tasks", cursor_type="row")
        yield lanes.ColumnsPane(id="columns-pane")
        yield Static("", id="activity")
        with VerticalScroll(id="diff-pane"):
            yield Static("", id="diff")
        yield Input(placeholder="revision message, Enter to send, Esc to cancel", id="message")
        yield Static("", id="status")
        yield Footer()

    def on_mount(self) -> None:
        inbox = self.query_one("#inbox", DataTable)
        inbox.add_columns("task", "reason", "what", "command")
        tasks = self.query_one("#tasks", DataTable)
        tasks.add_columns("state", "task", "owner", "head", "waits for you")
        self.reload()
        tasks.focus()
        self.set_interval(POLL, self.poll)

    # --- reading -------------------------------------------------------------------------

    def _index_key(self) -> tuple[int, int]:
        try:
            st = os.stat(index.path(self.engine.config.layout))
        except OSError:
            return (0, 0)
        return (st.st_mtime_ns, st.st_size)

    def poll(self) -> None:
        if not self._shown():
            return  # a last tick of the timer while the app closes: its widgets are gone
        self._polls += 1
        if self._index_key() != self._seen:
            self.reload()
        elif self._polls % ACTIVITY_EVERY == 0:
            self.show_activity()

    def _shown(self) -> bool:
        try:
            return bool(self.query("#tasks"))
        except ScreenStackError:
            return False

    def show_activity(self) -> None:
        """The sessions working in the selected task's worktrees, from the client hooks' records
        (the board's activity)."""
        from taskproto.hooks.agents import activity

        name = self.selected()
        layout = self.engine.config.layout
        now = time.time()
        lines = []
        for session, rec in sorted(activity.read_all(layout.root).items()):
            kind, task, agent = layout.where(str(rec.get("cwd") or ""))
            if kind != "worktree" or task != name:
                continue
            ago = max(0, int(now - float(rec["time"])))
            state = activity.status(str(rec["event"]))
            lines.append(
                f"{agent or 'task'}  {state}  {rec.get('client') or ''} {rec['event']}"
                f"  {rec.get('detail') or ''}  {ago}s ago  ({session})"
            )
        if name is not None:
            lines = running.runs(self.engine, name) + lines  # the agents taskproto runs
        pane = self.query_one("#activity", Static)
        pane.update(_plain("\n".join(lines) if lines else f"{name or '-'}: no agent activity"))

    def reload(self) -> None:
        """Read every task and the inbox again, keeping the selected task selected."""
        self._seen = self._index_key()
        self.refreshes += 1
        layout = self.engine.config.layout
        selected = self.selected()
        self.items = box.items(layout)
        waiting = {i["task"]: i["reason"] for i in self.items}
        rows = []
        self.states = {}
        for name in self.engine.task_names():
            try:
                task = self.engine.load(name)
                if task.workflow not in self.states:
                    self.states[task.workflow] = self.engine.workflow(task).state_names()
            except TaskprotoError:
                continue  # doctor's to explain
            rows.append(
                {
                    "name": str(name),
                    "workflow": task.workflow,
                    "state": task.state,
                    "owner": task.owner.session if task.owner else "",
                    "head": self.engine.branch_head(name) or "",
                    "entered": str(task.reached.get(task.state) or ""),
                }
            )
        self.rows = lanes.order(rows, self.states)  # by workflow and state, as the columns read
        inbox = self.query_one("#inbox", DataTable)
        inbox.clear()
        for item in self.items:
            inbox.add_row(item["task"], item["reason"], item["text"][:80], item["command"])
        self.query_one("#inbox-title", Static).update(
            f"inbox: {len(self.items)} waiting for you" if self.items else "inbox: nothing waits"
        )
        tasks = self.query_one("#tasks", DataTable)
        tasks.clear()
        for row in self.rows:
            waits = waiting.get(row["name"], "")
            tasks.add_row(row["state"], row["name"], row["owner"], row["head"][:12], waits)
        names = [r["name"] for r in self.rows]
        if selected in names:
            tasks.move_cursor(row=names.index(selected))
        self.show_diff()

    def show_columns(self) -> None:
        waiting = {i["task"]: i["reason"] for i in self.items}
        view = lanes.render(self.rows, self.states, self.selected(), waiting)
        self.query_one("#columns", Static).update(view)

    def action_columns(self) -> None:
        """Switch between the rows and the columns (one per state, as the board's)."""
        pane = self.query_one("#columns-pane")
        tasks = self.query_one("#tasks", DataTable)
        if pane.has_class("shown"):
            pane.remove_class("shown")
            tasks.remove_class("hidden")
            tasks.focus()
        else:
            pane.add_class("shown")
            tasks.add_class("hidden")
            self.show_columns()
            pane.focus()

    def action_select(self, step: int) -> None:
        """Move the selection `step` tasks on, in the columns' reading order."""
        if self.rows:
            tasks = self.query_one("#tasks", DataTable)
            at = min(max(tasks.cursor_row + step, 0), len(self.rows) - 1)
            tasks.move_cursor(row=at)
            self.show_diff()

    def action_jump(self, step: int) -> None:
        """The selection to the previous or next column that has a task."""
        if self.rows:
            tasks = self.query_one("#tasks", DataTable)
            tasks.move_cursor(row=lanes.jump(self.rows, tasks.cursor_row, step))
            self.show_diff()

    def selected(self) -> str | None:
        """The task the keys act on: the inbox's row when the inbox has the focus, else the
        tasks' row."""
        if self.focused is self.query_one("#inbox", DataTable) and self.items:
            row = self.query_one("#inbox", DataTable).cursor_row
            return str(self.items[min(row, len(self.items) - 1)]["task"])
        if not self.rows:
            return None
        row = self.query_one("#tasks", DataTable).cursor_row
        return str(self.rows[min(max(row, 0), len(self.rows) - 1)]["name"])

    def shown_head(self, name: str) -> str | None:
        for row in self.rows:
            if row["name"] == name:
                return str(row["head"]) or None
        return None

    def show_diff(self) -> None:
        self.show_activity()
        if self.query_one("#columns-pane").has_class("shown"):
            self.show_columns()
        name = self.selected()
        pane = self.query_one("#diff", Static)
        if name is None:
            pane.update("no tasks")
            return
        try:
            diff = self.engine.diff(name)
        except TaskprotoError as exc:
            pane.update(f"{name}: {exc}")
            return
        head = f"{name}: {diff.base[:12]}..{diff.head[:12]}, +{diff.added} -{diff.removed}\n\n"
        pane.update(_plain(head + diff.text[:DIFF_CHARS]))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "tasks" and self.is_running and self.screen_stack:
            self.show_diff()

    # --- acting ----------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.query_one("#status", Static).update(_plain(text))

    def act(self, what: str, action: Any) -> None:
        name = self.selected()
        if name is None:
            self.say("no task selected")
            return
        try:
            done = action(name)
        except TaskprotoError as exc:
            self.say(f"refused: {exc}")
        else:
            self.say(f"{name}: {done or what}")
        self.reload()

    def action_approve(self) -> None:
        def approve(name: str) -> str:
            task = self.engine.load(name)
            self.still_shown(task.name, task.state, str(task.reached.get(task.state) or ""))
            choices = review.choices(self.engine, task)
            if choices.approve_commit:
                shown = self.shown_head(name)
                review.approve(self.engine, name, self.session, "commit", shown)
                return f"approved {str(shown)[:12]}"
            if choices.approve_plan:
                after = review.approve(self.engine, name, self.session, "plan")
                return f"approved the plan ({after.state})"
            raise review.Refused(f"task {name!r} is in {task.state}: nothing to approve there")

        self.act("approved", approve)

    def still_shown(self, name: str, state: str, entered: str) -> None:
        """Refuse acting on a task that left, or entered again, the state the screen shows (a
        new submission to review, a revision answered since)."""
        row = next((r for r in self.rows if r["name"] == name), None)
        if row is not None and (row["state"], row["entered"]) != (state, entered):
            raise review.Refused(
                f"task {name} is now in {state} (entered {entered[:19]}), not the "
                f"{row['state']} shown; look again"
            )

    def ask(self, kind: str, placeholder: str, value: str = "") -> None:
        """The one-line prompt under the diff, for `kind` on the selected task."""
        name = self.selected()
        if name is None:
            self.say("no task selected")
            return
        message = self.query_one("#message", Input)
        message.placeholder = placeholder
        message.add_class("shown")
        message.value = value
        self._asking = (kind, name)
        message.focus()

    def action_revise(self) -> None:
        self.ask("revise", "revision message, Enter to send, Esc to cancel")

    def action_agent(self, kind: str) -> None:
        name = self.selected()
        if name is not None:
            self.ask(kind, running.placeholder(kind), running.suggestion(self.engine, name, kind))

    def _back(self) -> None:
        self.query_one("#message", Input).remove_class("shown")
        pane = self.query_one("#columns-pane")
        (pane if pane.has_class("shown") else self.query_one("#tasks", DataTable)).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._back()
        asked, self._asking = self._asking, None
        if asked is None:
            return
        kind, name = asked
        if kind != "revise":
            self.agent_action(kind, name, event.value)
            return
        try:
            task = review.request_revision(self.engine, name, self.session, event.value)
        except TaskprotoError as exc:
            self.say(f"refused: {exc}")
        else:
            self.say(f"{name}: sent back to {task.state}")
        self.reload()

    def agent_action(self, kind: str, name: str, typed: str) -> None:
        """Start, stop or attach the agent typed in, as the user (tui/agents.py)."""
        try:
            agent, client = running.parse(self.engine, name, kind, typed)
            if kind == "attach":
                argv = running.attach_argv(self.engine, name, agent)
        except TaskprotoError as exc:
            self.say(f"refused: {exc}")
            return
        if kind == "attach":
            self.attach(name, agent, argv)
            return
        self.say(f"{name}: {kind} {agent}...")

        def work() -> None:
            try:
                if kind == "start":
                    done = running.start(self.engine, name, agent, client)
                else:
                    done = running.stop(self.engine, name, agent)
            except TaskprotoError as exc:
                done = f"refused: {exc}"
            else:
                done = f"{name}: {done}"
            self.call_from_thread(self.after_agent, done)

        self.run_worker(work, thread=True, group="agents")

    def after_agent(self, text: str) -> None:
        self.say(text)
        self.show_activity()

    def attach(self, name: str, agent: str, argv: list[str]) -> None:
        """Give the terminal to `taskproto agent attach` until the user detaches."""
        from textual.app import SuspendNotSupported

        try:
            with self.suspend():
                code = running.run_attached(argv)
        except SuspendNotSupported:
            self.say(
                f"refused: this terminal cannot be handed over; run `taskproto agent attach "
                f"{name} {agent}` in another"
            )
            return
        self.say(f"{name}: detached from {agent}" + (f" (exit {code})" if code else ""))
        self.reload()

    def key_escape(self) -> None:
        if self.query_one("#message", Input).has_class("shown"):
            self._asking = None
            self._back()

    def action_resume(self) -> None:
        def resume(name: str) -> str:
            return f"resumed in {review.resume(self.engine, name, self.session).state}"

        self.act("resumed", resume)

    def action_next(self) -> None:
        def step(name: str) -> str:
            walk = self.engine.next(name, session=self.session)
            if isinstance(walk.stopped, TaskprotoError):
                raise walk.stopped
            path = [walk.steps[0][0], *(to for _, _, to in walk.steps)] if walk.steps else []
            moved = " -> ".join(path)
            stop = f"; stopped: {walk.stopped}" if walk.stopped is not None else ""
            return f"{moved or walk.state}{stop}"

        self.act("moved", step)

    def action_land(self) -> None:
        def land(name: str) -> str:
            report = self.engine.land(name, session=self.session)
            return f"landed {report.record.approved[:12]} on {report.record.base_branch}"

        self.act("landed", land)


def _plain(text: str) -> Any:
    from rich.text import Text

    return Text(text)
