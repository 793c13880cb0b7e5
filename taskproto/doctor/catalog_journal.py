"""doctor's checks of the integrity rule (state/integrity.py): task.json against its journal, and
the journal itself. Registered with the others (catalog.py); documented in docs/doctor.md."""

from __future__ import annotations

from taskproto.doctor.model import ABANDON, Option, Severity, check

E = Severity.ERROR

check(
    "task-stale-copy",
    E,
    "task.json's revision is below its journal's by more than one: an older copy was put back. "
    "Every command refuses the task until it is repaired.",
    "move task.json aside (task.json.task-stale-copy-<time>, kept) and restore the journal's "
    "newest task.json, logged as a repair",
)
check(
    "journal-ahead",
    E,
    "task.json is one revision behind its journal: a save stopped between its journal commit and "
    "task.json (the journal is written first), or the previous revision's file was copied back. "
    "Every command refuses the task until it is repaired.",
    "move task.json aside (task.json.journal-ahead-<time>, kept) and restore the journal's "
    "newest task.json, logged as a repair",
)
check(
    "task-forged",
    E,
    "task.json differs from its journal at the same revision (its content digest does not "
    "match): edited by hand. Every command refuses the task until it is repaired.",
    "move task.json aside (task.json.task-forged-<time>, kept) and restore the journal's newest "
    "task.json, logged as a repair",
)
check(
    "journal-behind",
    E,
    "task.json's revision is above its journal's: a change no journal commit vouches for "
    "(taskproto writes the journal first, so only a hand edit or an old version leaves this). "
    "Every command refuses the task until it is repaired; the change is never journaled.",
    "move task.json aside (task.json.journal-behind-<time>, kept) and restore the journal's "
    "newest task.json, logged as a repair",
)
check(
    "journal-ref-locked",
    E,
    "git's lock file for the task's journal ref was left by a killed git process; every journal "
    "update fails "
    "until it goes.",
    "delete the lock file (only when it is over a minute old, under the task's lock)",
)
check(
    "journal-missing",
    E,
    "The task has no journal in git (its ref was deleted with the hooks bypassed, or never "
    "written). Every command refuses the task until it is repaired.",
    "restore the journal's whole history: from the shared remote, else from the newest dangling "
    "journal commit of this task (`git fsck`); only when no history exists anywhere, record the "
    "current task.json as a first journal commit and mark the task for review",
)
check(
    "journal-unreadable",
    E,
    "The journal's newest commit is readable but holds a task.json that is not a task.",
    None,
    options=(
        Option(
            "Inspect the journal (`git log -p refs/taskproto/tasks/TASK`) and report the commit",
            "nothing is guessed",
            "the task waits",
        ),
        ABANDON,
    ),
)
check(
    "journal-corrupt",
    E,
    "git cannot read the journal's newest commit, its tree or its task.json (an object missing "
    "or corrupt: a crash, a disk fault, or a hand in .git/objects). Nothing vouches for task.json: "
    "every command refuses the task until it is repaired.",
    "point the journal ref at its history again: from the shared remote, else from this task's "
    "newest readable dangling journal commit (`git fsck`), and restore its task.json (the one "
    "there is kept aside); only when no readable history exists, record the current task.json "
    "as a new journal with needs_review set. Its corrupt object files are moved into the task's "
    "folder (journal-object-<id>.journal-corrupt-<time>, kept; left in .git/objects they stop "
    "`git gc`); the repair entry names them and the unreadable commit",
)
