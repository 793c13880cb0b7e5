"""The user's review actions (the board's buttons): approve, comment, request a revision, resume.

Each is one locked engine change, journaled with the user's session (`board:<user>` from the
board). The user acts on tasks that agents own, so moves are fired with `force` only where a live
agent owns the task; the log marks those as forced, naming the user.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from taskproto.engine import Engine, Step
from taskproto.engine.transitions import misplaced_approval
from taskproto.errors import TaskprotoError
from taskproto.machine.workflow import Workflow
from taskproto.ops import interrupts
from taskproto.ops import plan_task as planning
from taskproto.state import review
from taskproto.state.models import Task, utcnow

# Triggers that send work back for a revision, the preferred first (built-ins and common names).
REVISION_TRIGGERS = (
    "request_changes",
    "request_revision",
    "reject_to_implementation",
    "reject_to_synthesis",
    "reject",
    "revise",
)
IN_PLACE = "feedback"  # a checkpoint with no revision trigger: the feedback is recorded, no move


class Refused(TaskprotoError):
    """The action does not apply now (wrong state, a moved branch); nothing was written."""


@dataclass(frozen=True)
class Choices:
    """What the user can do on a task in its current state."""

    approve_plan: bool
    approve_commit: bool
    revisions: list[str]  # triggers, or [IN_PLACE]
    resume: bool

    def as_json(self) -> dict[str, Any]:
        return {
            "approve_plan": self.approve_plan,
            "approve_commit": self.approve_commit,
            "revisions": self.revisions,
            "resume": self.resume,
        }


def revision_triggers(workflow: Workflow, state: str) -> list[str]:
    names = {t.trigger for t in workflow.triggers_from(state)}
    found = [t for t in REVISION_TRIGGERS if t in names]
    if not found and workflow.state(state).checkpoint:
        return [IN_PLACE]
    return found


def _approve_trigger(workflow: Workflow, state: str) -> bool:
    return any(t.trigger == "approve" for t in workflow.triggers_from(state))


def approval_stands(task: Task, head: str | None) -> bool:
    """The user's commit approval is of the task branch's head as it is now (not stale)."""
    approval = task.checkpoint.commit_approval
    return (
        approval is not None
        and approval.sha is not None
        and not approval.stale
        and approval.sha == head
    )


def choices(engine: Engine, task: Task) -> Choices:
    """What the user can do now; an approval that stands is not offered again."""
    wf = engine.workflow(task)
    state = wf.state(task.state)
    plan = (state.approval == "plan" and task.checkpoint.plan_approval is None) or _approve_trigger(
        wf, task.state
    )
    return Choices(
        approve_plan=plan,
        approve_commit=state.approval == "commit"
        and not approval_stands(task, engine.branch_head(task.name)),
        revisions=[] if state.terminal else revision_triggers(wf, task.state),
        resume=interrupts.waits_for_resume(task),
    )


def approve(
    engine: Engine,
    name: str,
    session: str,
    kind: str,
    sha: str | None = None,
    seen: dict[str, object] | None = None,
) -> Task:
    """Approve the plan (a plan approval, or the workflow's `approve` trigger) or the exact head
    commit `sha` the user was shown; a branch that moved since is refused. `seen`: the
    requester's context, recorded with the approval."""
    engine.require_user(f"approving the {kind} of task {name!r}")
    task = engine.load(name)
    wf = engine.workflow(task)
    state = wf.state(task.state)
    if kind == "plan":
        if state.approval == "plan":
            return engine.approve(name, "plan", session, seen=seen)
        if _approve_trigger(wf, task.state):
            return planning.approve(engine, name, session, force=True).task
        raise Refused(misplaced_approval(name, task.state, "plan", wf))
    if kind != "commit":
        raise Refused(f"unknown approval kind {kind!r}: plan or commit")
    if state.approval != "commit":
        raise Refused(misplaced_approval(name, task.state, "commit", wf))
    if not sha:
        raise Refused("a commit approval names the commit reviewed: pass its sha")
    return engine.approve(name, "commit", session, expect_head(engine, name, sha), seen)


def expect_head(engine: Engine, name: str, sha: str) -> str:
    """The task branch's head, refused unless it is `sha` (7 hex digits at least), the head the
    user reviewed: every door's approval names what it approves (board, TUI, `approve --head`)."""
    head = engine.branch_head(name)
    if head is None or not head.startswith(sha.lower()) or len(sha) < 7:
        now = head[:12] if head else "missing"
        raise Refused(
            f"the task branch {name} is at {now}, not the reviewed {sha[:12]}: review the new "
            "head, then approve it"
        )
    return head


def _clean(text: str, limit: int, what: str) -> str:
    text = text.encode("utf-8", "replace").decode("utf-8").strip()
    if not text:
        raise Refused(f"the {what} is empty")
    if len(text) > limit:
        raise Refused(f"the {what} is longer than {limit} characters")
    return text


def add_comment(
    engine: Engine,
    name: str,
    session: str,
    target: str,
    file: str,
    line: int | None,
    text: str,
    head: str | None = None,
) -> dict[str, Any]:
    """A draft comment on a line of the diff or the plan; it goes out with the next revision."""
    engine.require_user(f"commenting on the review of task {name!r}")
    if target not in review.TARGETS:
        raise Refused(f"a comment is on the diff or the plan, not {target!r}")
    if line is not None and not 1 <= line <= 10_000_000:
        raise Refused(f"line {line} is not a line number")
    comment = {
        "target": target,
        "file": _clean(file, review.MAX_FILE, "file name"),
        "line": line,
        "text": _clean(text, review.MAX_TEXT, "comment"),
        "head": head,
        "by": session,
        "time": utcnow().isoformat(),
    }
    stored: list[dict[str, Any]] = []

    def change(task: Task) -> tuple[Task, str]:
        if len(review.drafts(task)) >= review.MAX_DRAFTS:
            raise Refused(f"task {name!r} already has {review.MAX_DRAFTS} draft comments")
        new = task.model_copy(deep=True)
        stored.append(review.add_draft(new, comment))
        return new, f"review: comment on {review.where(comment)}"

    engine.mutate(name, change)
    return stored[0]


def delete_comment(engine: Engine, name: str, session: str, comment_id: int) -> None:
    engine.require_user(f"deleting a review comment of task {name!r}")

    def change(task: Task) -> tuple[Task, str]:
        new = task.model_copy(deep=True)
        if not review.remove_draft(new, comment_id):
            raise Refused(f"task {name!r} has no draft comment {comment_id}")
        return new, f"review: draft comment {comment_id} deleted by {session}"

    engine.mutate(name, change)


def request_revision(
    engine: Engine,
    name: str,
    session: str,
    message: str = "",
    trigger: str | None = None,
) -> Task:
    """Send the drafts (and `message`) back as the revision's feedback, through the workflow's
    revision trigger; at a checkpoint without one, the feedback is recorded and the state stays."""
    engine.require_user(f"requesting a revision of task {name!r}")
    message = message.encode("utf-8", "replace").decode("utf-8").strip()
    if len(message) > review.MAX_TEXT:
        raise Refused(f"the message is longer than {review.MAX_TEXT} characters")

    def step(s: Step) -> tuple[Task, str]:
        task = s.task
        options = revision_triggers(s.workflow, task.state)
        if not options or s.workflow.state(task.state).terminal:
            raise Refused(f"task {name!r} is in {task.state}: nothing to send back from there")
        chosen = trigger or options[0]
        if chosen not in options:
            raise Refused(
                f"{chosen!r} is not a revision from {task.state}; choose one of "
                f"{', '.join(options)}"
            )
        if not message and not review.drafts(task):
            raise Refused("a revision needs a message or at least one comment")
        facts = {
            "time": utcnow().isoformat(),
            "by": session,
            "trigger": chosen,
            "from_state": task.state,
            "head": s.core.branch_head(name),
            "message": message,
        }
        comments = review.drafts(task)
        feedback = review.feedback_text({**facts, "comments": comments})
        note = f"from the board: {len(comments)} comment(s)" + (
            f"; {message[:160]}" if message else ""
        )
        if chosen == IN_PLACE:
            new = task.model_copy(deep=True)
            new.record(
                trigger="request_revision",
                time=utcnow(),
                session=session,
                kind="note",
                note=note,
            )
        else:
            params = {"feedback": feedback} if chosen == "request_revision" else {}
            new = s.fire(task, chosen, params=params, note=note)
        # the entry's place in the whole log (task.json holds its tail: state/bound.py)
        index = task.log_offset + len(new.transition_log) - 1
        review.send(new, {**facts, "state": new.state, "log_index": index})
        return new, f"revision: {chosen} {task.state} -> {new.state} ({note})"

    return engine.advance(name, step, session, force=True, what="send it back for a revision")


def resume(engine: Engine, name: str, session: str) -> Task:
    """The user's go after an interruption or an escalation (`taskproto resume`), refused when
    nothing waits (the CLI's own rule: `interrupts.waits_for_resume`)."""
    return interrupts.resume(engine, name, session).task
