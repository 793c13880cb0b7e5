"""Every check doctor knows: id, severity, what it means, what --fix does (documented in
docs/doctor.md)."""

from __future__ import annotations

from taskproto.doctor.model import ABANDON, RELAUNCH, Option, Severity, check

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

REBUILD = (
    "rebuild task.json from the newest journal commit (refs/taskproto/tasks/<task>); with no "
    "journal, "
    "reconstruct it from branches and worktrees in the workflow's initial state with needs_review "
    "set"
)

LOST_BRANCH = (
    "re-create the branch at its last commit: where the reference-transaction hook last saw it "
    "move (`<task>/tips.log`), exactly; else the task's merge records, its worktree's HEAD log, "
    "its own reflog, a checkout away from it, the shared remote's copy, the journal's "
    "checkpoint); while none names one and unreferenced commits (stashes aside) stand on the "
    "base, refused: the escalation offers each as an option `taskproto recover TASK --option N` "
    "carries out; a named commit that is gone is reported lost; a branch that never had a commit "
    "is made at the base"
)

# --- task.json (the task's lock record) -------------------------------------
check(
    "task-folder-missing",
    E,
    "The task has a live journal in git but its folder under <root>/tasks is gone.",
    "recreate the folder and task.json from the journal (worktrees follow on the next pass)",
)
check("lock-missing", E, "The task folder has no task.json.", REBUILD)
check(
    "lock-invalid-json",
    E,
    "task.json is not valid JSON (torn or hand-edited).",
    "move it aside as task.json.corrupt-<time>, then " + REBUILD,
)
check(
    "lock-schema-invalid",
    E,
    "task.json is JSON but not a valid task (schema).",
    "move it aside as task.json.corrupt-<time>, then " + REBUILD,
)
check(
    "lock-schema-too-new",
    E,
    "task.json has a schema_version newer than this taskproto understands; doctor refuses to touch "
    "the task.",
    None,
    options=(
        Option(
            "Upgrade taskproto and run doctor again",
            "nothing is touched; the newer version understands the file",
            "needs an upgrade on this machine",
        ),
        ABANDON,
    ),
)
check(
    "lock-unreadable",
    E,
    "task.json is not a regular file taskproto can read (symlink, folder, huge, no permission).",
    None,
    options=(
        Option(
            "Move the path aside by hand and run `taskproto doctor --fix`",
            "doctor then rebuilds task.json from the journal",
            "you decide what the odd file was",
        ),
        ABANDON,
    ),
)

# --- state and transition log --------------------------------------------------
check(
    "log-empty",
    E,
    "The transition log is missing or empty, so the state cannot be verified.",
    "copy the log from the journal when its state agrees; otherwise record a repair entry saying "
    "the state "
    "is unverified and set needs_review",
)
check(
    "state-log-mismatch",
    E,
    "The state is not the destination of the last transition log entry: a state no guarded step "
    "reached. Every command refuses the task until it is repaired.",
    "restore the newest journal commit whose state its own log reached (task.json's journal head "
    "when that one agrees); the rejected task.json is kept beside it as "
    "task.json.state-log-mismatch-<time>",
)
check(
    "workflow-unknown",
    E,
    "The task names a workflow this repository does not define (a user workflow renamed or "
    "removed, or a hand edit). Manual intervention required: commands refuse the task, other "
    "tasks go on.",
    None,
    options=(
        Option(
            "Restore the workflow file (`.taskproto/workflows/WORKFLOW.toml`) it was created with",
            "the task goes on where it was",
            "none, if the file is found (see `git log -- .taskproto/workflows`)",
        ),
        Option(
            "Roll the task back to a state of a workflow that exists, by hand from the journal "
            "(`git log -p refs/taskproto/tasks/TASK`)",
            "the record stays readable",
            "its progress under the lost workflow must be redone",
        ),
        ABANDON,
    ),
)
check(
    "state-unknown",
    E,
    "The task is in a state its workflow does not have (the task-protocol seed: an unknown state "
    "needs manual intervention). Commands refuse the task, other tasks go on.",
    None,
    options=(
        Option(
            "Roll back to the last state of the transition log (`taskproto rollback TASK --to "
            "STATE`)",
            "the log is the record of steps the workflow allowed",
            "whatever happened after that step must be re-checked",
        ),
        Option(
            "Restore the workflow version that had the state",
            "the task goes on where it was",
            "the workflow must be found and trusted again",
        ),
        ABANDON,
    ),
)
check(
    "log-illegal-transition",
    E,
    "A transition log entry is not a legal transition of the task's workflow (or does not start "
    "where the previous "
    "one ended).",
    None,
    options=(
        Option(
            "Review the log and the journal (`git log -p refs/taskproto/tasks/TASK`) and restore "
            "the last good "
            "task.json",
            "gets back to a state the workflow vouches for",
            "later changes must be redone",
        ),
        Option("Accept the log as it is", "no rework", "a guarded step may have been skipped"),
        ABANDON,
    ),
)
check(
    "remote-unreachable",
    W,
    "The configured remote could not be read, so claims were not compared with it.",
    None,
    options=(
        Option(
            "Check the remote (`git ls-remote REMOTE`) and run doctor again",
            "claims get compared",
            "none",
        ),
    ),
)
check(
    "remote-claim-unknown",
    E,
    "A task is owned here, but the shared remote does not hold this session's claim (another "
    "machine may take it).",
    None,
    options=(
        Option(
            "Claim it again from this session (`taskproto claim TASK`)",
            "the remote records the owner",
            "refused if another machine holds it now: then that machine owns the task",
            command=("taskproto", "claim", "TASK"),
        ),
        Option(
            "Release it here (`taskproto release TASK`)",
            "no two owners",
            "this session stops working on it",
            command=("taskproto", "release", "TASK"),
        ),
        ABANDON,
    ),
)
check(
    "remote-claim-dead-session",
    W,
    "A claim on the remote was made from this host by a process that no longer exists.",
    None,
    options=(
        Option(
            "Let it expire; any machine takes it over after the lease",
            "no action needed",
            "the task waits until the lease runs out",
        ),
        Option(
            "Take it over now from a live session (`taskproto claim TASK`)",
            "work resumes at once",
            "none: a takeover of a dead owner is logged",
            command=("taskproto", "claim", "TASK"),
        ),
        ABANDON,
    ),
)
check(
    "agent-status-not-journaled",
    W,
    "An agent's status file differs from the one in the journal's newest commit (a save stopped "
    "between its journal commit and the status file, or a hand edit).",
    "move the status file aside (kept) and restore the journal's, logged as a repair",
)
check(
    "needs-review", INFO, "doctor reconstructed this task; a person should review its state.", None
)

# --- ownership and lock files ------------------------------------------------------
check(
    "owner-gone",
    W,
    "The owner session is provably gone (its pid is dead on this host, or its heartbeat is older "
    "than the lease).",
    "release the claim (logged), so another session can claim the task",
)
check(
    "agent-worktree-shared",
    E,
    "Two tasks claim the same agent branch or worktree (e.g. task `a` agent `b-c` and "
    "task `a-b` agent `c` both need branch `a-b-c`).",
    None,
    options=(
        Option(
            "Rename an agent of one task (remove and re-create that task with other agent names)",
            "each agent gets its own branch again",
            "that task's agent work must move to the new branch",
        ),
        Option("Remove one of the tasks", "simplest", "its work must be merged or saved first"),
        ABANDON,
    ),
)
check(
    "tmp-file-leftover",
    W,
    "A `.tmp-*` file from an atomic write whose process is gone (a crash mid-write).",
    "delete it (the real file was never replaced by it)",
)

# --- worktrees and branches --------------------------------------------------------
check(
    "task-worktree-missing",
    E,
    "The task's worktree folder is missing while its branch exists (also when its "
    "registration is locked: `git worktree lock`).",
    "prune git's stale registration and re-add the worktree from the existing branch; "
    "refused while the registration is locked (plug in its drive, or `git worktree unlock` it) "
    "or the branch is checked out at another place (`git worktree move` it back)",
)
check(
    "agent-worktree-missing",
    E,
    "An agent's worktree folder is missing while its branch exists (also when its "
    "registration is locked: `git worktree lock`).",
    "prune git's stale registration and re-add the worktree from the existing branch; "
    "refused while the registration is locked (plug in its drive, or `git worktree unlock` it) "
    "or the branch is checked out at another place (`git worktree move` it back)",
)
check(
    "worktree-prunable",
    W,
    "git reports a worktree registration as prunable (git's own reason is shown).",
    "`git worktree prune` (git only prunes registrations whose folder is gone)",
)
check(
    "worktree-unregistered",
    E,
    "A task or agent `code/` folder exists but git does not know it as a worktree.",
    "move the folder aside as code.unregistered-<time> (kept, never deleted), then re-add the "
    "worktree",
)
check(
    "worktree-wrong-branch",
    E,
    "A task or agent worktree has another branch (or a detached HEAD) checked out. Not while a "
    "rebase of its own branch is half done (git detaches HEAD until the rebase ends): "
    "`git-operation-in-progress` reports that.",
    "switch it back when it is clean and its HEAD is on some branch; otherwise escalate",
)
check(
    "agent-branch-missing",
    E,
    "A required agent has no branch `<task>-<agent>`.",
    LOST_BRANCH,
)
check(
    "task-branch-missing",
    E,
    "The task branch is missing while its worktree is registered.",
    LOST_BRANCH,
)
check(
    "replace-ref",
    E,
    "A `refs/replace/` ref: git shows another object in place of a commit (`git replace`). "
    "taskproto reads every journal with replacements off, and its hooks refuse new ones; one that "
    "exists was made behind them.",
    None,
    options=(
        Option(
            "Delete it with `git replace -d SHA`, if it is not yours",
            "git shows the commit as it is again",
            "a replacement you made on purpose is gone",
        ),
        Option(
            "Keep it (yours, on purpose)",
            "nothing changes; taskproto never reads through it",
            "doctor keeps reporting it",
        ),
    ),
)
check(
    "orphan-branch",
    W,
    "A task-shaped branch (`<task>` or `<task>-<agent>`) that no task uses.",
    "delete it only when it is checked out nowhere and every commit on it is on another branch; "
    "otherwise escalate",
    options=(
        Option(
            "Merge or keep the branch (rename it out of the task namespace)",
            "keeps the commits",
            "a branch to look after",
        ),
        Option("Delete it with `git branch -D BRANCH`", "tidy", "its unique commits are lost"),
    ),
)
check(
    "orphan-worktree",
    W,
    "A worktree under taskproto's root that belongs to no task or agent.",
    "remove it when it is clean, not locked and its detached HEAD (if any) is on some branch "
    "(the branch stays); otherwise escalate",
    options=(
        Option(
            "Commit or move the changes, then run `taskproto doctor --fix`",
            "keeps the work",
            "manual step",
        ),
        Option("`git worktree remove --force PATH`", "tidy", "its uncommitted changes are lost"),
    ),
)

# --- agents --------------------------------------------------------------------------
check(
    "agent-status-missing",
    W,
    "A required agent has no status.json.",
    "restore it from the journal, else write a fresh PENDING status",
)
check(
    "agent-status-corrupt",
    E,
    "An agent's status.json is not valid.",
    "move it aside, restore it from the journal, else write a fresh PENDING status",
)
check(
    "agent-timeout",
    W,
    "An agent has been WORKING for longer than the timeout (agent_timeout_minutes, default 60).",
    "re-queue it (PENDING, retry_count + 1)",
    needs_flag="--retry-agents",
)
check(
    "agent-error-retryable",
    W,
    "An agent is in ERROR with retries left.",
    "re-queue it (PENDING, retry_count + 1)",
    needs_flag="--retry-agents",
)
check(
    "agent-retries-exhausted",
    E,
    "An agent failed and its retry count is at or above max_retries (default 3).",
    None,
    options=(
        Option(
            "Investigate the agent's error, fix the cause, then reset it with "
            "`taskproto agent set TASK AGENT --status PENDING`",
            "keeps the task's plan",
            "needs a person",
        ),
        Option(
            "Do the agent's part by hand on its branch and mark it COMPLETE",
            "unblocks validation",
            "the agent's review is skipped",
        ),
        RELAUNCH,
        ABANDON,
    ),
)

# --- checkpoint ----------------------------------------------------------------------
check(
    "approval-no-terminal",
    W,
    "An approval was recorded under the owner's session (an agent's) by a process with no "
    "terminal: a detached process may have approved as the agent.",
    None,
    options=(
        Option(
            "If you did not approve it, roll the task back past it: `taskproto rollback TASK`",
            "the approval no agent may give is gone; the work stays on its branches",
            "the task goes back to the state before the approval",
        ),
        Option(
            "Keep it: you approved it yourself from a process without a terminal: "
            "`taskproto ack TASK`",
            "doctor no longer names it (your word is journaled); a later approval is judged anew",
            "an approval you did not give would stand",
            command=("taskproto", "ack", "TASK"),
        ),
        ABANDON,
    ),
)
check(
    "approval-stale",
    W,
    "The recorded commit approval is for a commit that is no longer the task branch's head.",
    "mark the approval stale with the reason (the user approves the new head)",
)
