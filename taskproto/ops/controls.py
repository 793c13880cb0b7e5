"""The user's task controls (the board's buttons beside the review): which of claim, release,
next, complete, land and remove apply to a task now, and `complete`.

Each control is the engine call its CLI command makes (`claim`, `release`, `next`, `transition NAME
COMPLETE`, `land`, `task remove`), so it is refused exactly as the command is; nothing here decides
a rule of its own. What `offer` answers is only which buttons to show: a control that does not
apply in the task's state is not offered, and one the engine refuses without force (a live owner, a
task that waits for others, work that would be lost) is offered and refused, then forced only when
the user confirms.

The board acts as one person: the session `board:<user>` (board/state.py), and for a claim, the
board's own process as the owner's pid, so a claim from the board holds while the board runs (it
renews the heartbeat) and is provably gone once it stops.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from taskproto.engine import Engine
from taskproto.engine.deps import Blocked
from taskproto.engine.land import LANDS_FROM as COMPLETE
from taskproto.errors import OwnershipError, WorkAtRisk
from taskproto.machine.progress import ahead
from taskproto.ops.review import approval_stands
from taskproto.sessions import owner_gone
from taskproto.state.models import Task, utcnow

# The refusals `--force` overrides: a live owner, a task that waits for others, work a removal
# would lose. The board offers to force them only after the user confirms.
FORCIBLE = (OwnershipError, Blocked, WorkAtRisk)


@dataclass(frozen=True)
class Viewer:
    """Who acts from the board: its session, and the pid a claim from it records."""

    session: str
    pid: int | None


@dataclass(frozen=True)
class Controls:
    """The controls that apply to a task now, for `viewer`."""

    claim: bool
    release: bool
    complete: bool
    land: bool
    remove: bool
    next: bool  # `taskproto next`: a step goes ahead of this state (its guards decide on a click)
    owner: str | None  # "you" (the viewer's session), "other", or None: nobody owns it
    owner_live: bool

    def as_json(self) -> dict[str, Any]:
        return {
            "claim": self.claim,
            "release": self.release,
            "complete": self.complete,
            "land": self.land,
            "remove": self.remove,
            "next": self.next,
            "owner": self.owner,
            "owner_live": self.owner_live,
        }


def offer(
    engine: Engine, task: Task, viewer: Viewer, head: str | None, live: bool | None = None
) -> Controls:
    """Which controls apply to `task` now (`head`: its branch's head, as the card read it; `live`:
    whether its owner may still be alive, as the card worked it out, else worked out here)."""
    wf = engine.workflow(task)
    state = wf.state(task.state)
    owner = task.owner
    mine = owner is not None and owner.session == viewer.session
    if owner is None:
        live = False
    elif live is None:
        folder = engine.config.task_dir(task.name)
        live = owner_gone(owner, utcnow(), engine.config.lease_minutes, folder) is None
    stands = approval_stands(task, head)
    return Controls(
        claim=not state.terminal and not (mine and live),
        release=owner is not None,
        complete=stands and any(t.dest == COMPLETE for t in wf.triggers_from(task.state)),
        land=stands and task.state == COMPLETE,
        remove=True,
        next=bool(ahead(wf, task.state)),
        owner=None if owner is None else ("you" if mine else "other"),
        owner_live=live,
    )


def complete(engine: Engine, name: str, session: str, force: bool = False) -> Task:
    """`taskproto transition NAME COMPLETE`: the workflow's step to COMPLETE, whose guard reads the
    user's commit approval of the head."""
    return engine.fire(name, target=COMPLETE, session=session, force=force)
