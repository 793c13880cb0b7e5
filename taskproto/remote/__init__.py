"""Coordination across machines through a shared git remote (on when `remote = "<name>"` is set).

Claims live on the remote as `refs/taskproto/claims/<task>`, each pointing at a
commit whose tree holds claim.json. Every change to a claim is a push with
`--force-with-lease=<ref>:<expected>`, which the server applies under its ref lock,
so of any number of racers exactly one wins:

- claim: expected empty (the ref must not exist);
- renew and release: expected the owner's own claim sha;
- takeover of an expired claim: expected the expired claim's sha, never blindly.

A claim is decided first (`plan_claim`, no network unless our view says someone else holds
it) and pushed by the save that records it locally: claim ref and journal commit in one
`--atomic` push, the journal fast-forward only. So a claim costs one push, and a lost race
changes nothing on the remote (the save undoes its local change; the caller decides again).

Journals (`refs/taskproto/tasks/<task>`) are written through: every journaled
change first checks the remote's head of that journal is one we have (else: run
`taskproto sync`), then pushes the new commit expecting exactly that head, and
undoes the local change when the push fails. So a journal never forks.

This machine's last view of the remote is kept in `refs/taskproto/remote/<remote>/`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from taskproto import plainjson as json
from taskproto.config import Config
from taskproto.errors import GitError, TaskprotoError
from taskproto.git import objects, reffiles
from taskproto.git.command import PushStatus, RemoteGit, behind, git_message, raced, secondary
from taskproto.remote.records import (
    ClaimPlan,
    ClaimRaced,
    JournalAhead,
    Publish,
    RemoteClaim,
    RemoteClaimHeld,
    RemoteError,
)
from taskproto.remote.removal import REMOVED_FILE, Removal, TaskRemovedThere, removed_ref
from taskproto.sessions import hostname
from taskproto.state import journal
from taskproto.state.models import utcnow

__all__ = [
    "ClaimPlan",
    "ClaimRaced",
    "JournalAhead",
    "Publish",
    "Remote",
    "RemoteClaim",
    "RemoteClaimHeld",
    "RemoteError",
]

CLAIM_PREFIX = "refs/taskproto/claims/"
QUEUE_PREFIX = "refs/taskproto/queue/"  # the merge queue's entries (ops/queue.py)
CLAIM_FILE = "claim.json"
TRACKING_PREFIX = "refs/taskproto/remote/"


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name).strip(".") or "remote"


class Remote:
    def __init__(self, config: Config) -> None:
        assert config.remote
        self.config, self.name = config, config.remote
        self.git = RemoteGit(config.repo)
        self.tracking = f"{TRACKING_PREFIX}{_safe(self.name)}/"
        self._pending: dict[str, ClaimPlan] = {}  # task -> claim the task's next save pushes

    # --- refs ----------------------------------------------------------------

    @staticmethod
    def claim_ref(task: str) -> str:
        return CLAIM_PREFIX + task

    def tracked_claim_ref(self, task: str) -> str:
        return f"{self.tracking}claims/{task}"

    def tracked_task_ref(self, task: str) -> str:
        return f"{self.tracking}tasks/{task}"

    @contextmanager
    def network(self, what: str) -> Iterator[None]:
        try:
            yield
        except GitError as exc:
            detail = git_message(exc.stderr or exc.stdout)
            if not any(c in self.name for c in "/:") and not self.git.ok(
                "config", "--get", f"remote.{self.name}.url"
            ):  # a fresh clone has only origin: say which remote is missing, not git's words
                detail = (
                    f"this clone has no git remote named {self.name!r} (`remote` in "
                    f"`.taskproto.toml`); add it: `git remote add {self.name} URL`, URL the "
                    "shared repository's"
                )
            raise RemoteError(self.name, what, detail) from None

    # --- reading claims --------------------------------------------------------

    def fetch_claims(self) -> dict[str, RemoteClaim]:
        """Fetch every claim from the remote (one round trip) and read them."""
        with self.network("fetching claims"):
            self.git.fetch(self.name, [f"+{CLAIM_PREFIX}*:{self.tracking}claims/*"], prune=True)
        return self.tracked_claims()

    def known_tasks(self, names: tuple[str, ...] = ()) -> dict[str, str]:
        """{task: journal head} of the tasks the remote has (all, or only `names`), with the task
        branches of those names: one `ls-remote`, no objects fetched."""
        journals = "refs/taskproto/tasks/"
        patterns = [journals + n for n in names] + [f"refs/heads/{n}" for n in names]
        with self.network("listing its tasks"):
            refs = self.git.ls_remote(self.name, patterns or [journals + "*"])
        found = {r[len(journals) :]: sha for r, sha in refs.items() if r.startswith(journals)}
        for n in names:
            sha = refs.get(f"refs/heads/{n}")
            if sha is not None and n not in found:
                found[n] = sha
        return found

    def fetch_branch(self, branch: str, have: str | None) -> str | None:
        """The head of the remote's `branch` (None: it has none), its objects fetched into
        `refs/remotes/<remote>/<branch>` unless it is `have`: one `ls-remote`, one fetch at most."""
        ref = f"refs/heads/{branch}"
        with self.network(f"reading its {branch}"):
            there = self.git.ls_remote(self.name, [ref]).get(ref)
            if there is not None and there != have:
                self.git.fetch(self.name, [f"+{ref}:refs/remotes/{_safe(self.name)}/{branch}"])
        return there

    def tracked_claims(self) -> dict[str, RemoteClaim]:
        """This machine's last view of the remote's claims (no network)."""
        prefix = f"{self.tracking}claims/"
        shas = {
            line.split(" ")[0][len(prefix) :]: line.split(" ")[1]
            for line in self.git.for_each_ref(prefix)
        }
        blobs = self.git.read_blobs([f"{sha}:{CLAIM_FILE}" for sha in shas.values()])
        return {
            t: RemoteClaim.parse(t, sha, blobs.get(f"{sha}:{CLAIM_FILE}"))
            for t, sha in shas.items()
        }

    def _tracked(self, task: str) -> RemoteClaim | None:
        sha = self._ref_sha(self.tracked_claim_ref(task))
        return (
            None
            if sha is None
            else RemoteClaim.parse(task, sha, self.git.show_file(sha, CLAIM_FILE))
        )

    def _fresh(self, task: str) -> RemoteClaim | None:
        return self.fetch_claims().get(task)

    def _track(self, task: str, sha: str | None) -> None:
        ref = self.tracked_claim_ref(task)
        if sha is None:
            self.git.run("update-ref", "-d", ref, check=False)
        else:
            self._set_ref(ref, sha)

    def track_task(self, task: str, sha: str) -> None:
        """Record that the remote's journal of `task` is at `sha` now (a cache of the remote's view:
        moved in-process when that is the same as git doing it, whatever it held)."""
        self._set_ref(self.tracked_task_ref(task), sha)

    def _set_ref(self, ref: str, sha: str) -> None:
        """Point a tracking ref at `sha` (in-process when that is the same as git doing it)."""
        dirs = self.config.layout.dirs
        try:
            if dirs is not None and reffiles.update(dirs, ref, sha, reffiles.ANY):
                return
        except OSError:
            pass  # git tries, and its failure is ignored as before: a tracking ref is a cache
        self.git.run("update-ref", ref, sha, check=False)

    # --- changing claims ---------------------------------------------------------

    def _claim_commit(self, task: str, session: str, pid: int | None, claimed_at: datetime) -> str:
        now = utcnow()
        record = {
            "task": task,
            "session": session,
            "host": hostname(),
            "pid": pid,
            "claimed_at": claimed_at.isoformat(),
            "heartbeat_at": now.isoformat(),
            "expires_at": (now + timedelta(minutes=self.config.lease_minutes)).isoformat(),
        }
        data = (json.dumps(record, indent=2) + "\n").encode()
        message = f"claim {task}: {session}"
        dirs = self.config.layout.dirs
        if dirs is not None and objects.sha1_repo(dirs.common_dir):  # in-process (git/objects.py)
            blob = objects.write(dirs.common_dir, "blob", data)
            tree = objects.write(dirs.common_dir, "tree", objects.tree([(CLAIM_FILE, blob)]))
            return objects.write(dirs.common_dir, "commit", objects.commit(tree, None, message))
        blob = self.git.write_blob_bytes(data)
        tree = self.git.mktree([("100644", blob, CLAIM_FILE)])
        return self.git.commit_tree(tree, None, message)

    def _ref_sha(self, ref: str) -> str | None:
        """A local ref, read from the repository's files (no process), else from git."""
        dirs = self.config.layout.dirs
        return dirs.ref_sha(ref) if dirs is not None else self.git.ref_sha(ref)

    def _push(
        self, what: str, refspecs: list[str], leases: dict[str, str | None]
    ) -> dict[str, PushStatus]:
        with self.network(what):
            return self.git.push(self.name, refspecs, leases, atomic=len(refspecs) > 1)

    def plan_claim(
        self, task: str, session: str, pid: int | None, force: bool = False, fresh: bool = False
    ) -> ClaimPlan:
        """Decide the claim (new, renewed, or a takeover of an expired one; RemoteClaimHeld when
        another session holds it) and write its commit, without touching the remote: the task's
        next save pushes it with its journal commit in one atomic push (`publish`), or
        `finish_claim` pushes it alone. `fresh`: fetch the remote's claims before deciding."""
        current, looked = (self._fresh(task), True) if fresh else (self._tracked(task), False)
        while True:
            now = utcnow()
            if current is None:
                outcome = "claimed"
            elif current.session == session:
                outcome = "renewed"
            elif current.expired(now):
                outcome = "takeover"
            elif not looked:  # our view may be stale: ask before refusing
                current, looked = self._fresh(task), True
                continue
            elif force:
                outcome = "forced"
            else:
                raise RemoteClaimHeld(
                    self.name,
                    current,
                    "wait for it to be released or to expire, or take over with --force (logged)",
                )
            break
        claimed_at = current.claimed_at if outcome == "renewed" and current else now
        plan = ClaimPlan(outcome, self._claim_commit(task, session, pid, claimed_at), current)
        self._pending[task] = plan
        return plan

    def finish_claim(self, task: str, journal_head: str | None) -> None:
        """Push a planned claim no save has pushed (nothing changed here), with the journal's head
        (fast-forward only: winning the claim proves our journal is current)."""
        plan = self._pending.pop(task, None)
        if plan is not None:
            self._push_claim(task, plan, journal_head)

    def _push_claim(self, task: str, plan: ClaimPlan, journal_head: str | None) -> None:
        """One atomic push: the claim (expecting the claim it replaces) and the journal's head
        (fast-forward, so it never drops a commit the remote has). Raises ClaimRaced when the
        claim changed meanwhile, JournalAhead when the remote's journal has commits we lack."""
        cref, jref = self.claim_ref(task), journal.ref_for(task)
        refspecs = [f"{plan.sha}:{cref}"] + ([f"{journal_head}:{jref}"] if journal_head else [])
        lease = {cref: plan.previous.sha if plan.previous else None}
        statuses = self._push(f"claiming {task}", refspecs, lease)
        jstatus, cstatus = statuses.get(jref), statuses.get(cref)
        if cstatus is not None and cstatus.ok:
            self._track(task, plan.sha)
            if journal_head:
                self._set_ref(self.tracked_task_ref(task), journal_head)
            return
        if behind(jstatus) and (cstatus is None or secondary(cstatus)):
            raise JournalAhead(self.name, task, jstatus.reason if jstatus else "")
        real = [s for s in (cstatus, jstatus) if s is not None and not s.ok and not secondary(s)]
        if cstatus is None or any(not raced(s) for s in real):
            raise RemoteError(
                self.name, f"claiming {task}", real[0].summary if real else "push rejected"
            )
        # a server-side atomic failure names no other reason: that is the claim's CAS too
        raise ClaimRaced(self.name, task)

    def renew(self, task: str, session: str) -> RemoteClaim:
        """Heartbeat: replace our own claim, expecting its sha; refused when it is not ours.

        Hooks heartbeat on every tool call; the remote is only pushed to once a tenth
        of the lease has passed since our last renewal (our own view says so, no network).
        """
        current = self._tracked(task)
        if (
            current is not None
            and current.session == session
            and utcnow() - current.heartbeat_at < timedelta(minutes=self.config.lease_minutes / 10)
        ):
            return current
        if current is None or current.session != session:
            current = self._fresh(task)
        if current is None:
            raise TaskprotoError(
                f"task {task!r} has no claim on remote {self.name!r}; "
                f"claim it again with `taskproto claim {task}`"
            )
        if current.session != session:
            raise RemoteClaimHeld(self.name, current, "only its owner can renew it")
        sha = self._claim_commit(task, session, current.pid, current.claimed_at)
        status = self._push(
            f"renewing {task}",
            [f"{sha}:{self.claim_ref(task)}"],
            {self.claim_ref(task): current.sha},
        ).get(self.claim_ref(task))
        if status is None or not status.ok:
            now_held = self._fresh(task)
            if now_held is not None and now_held.session != session:
                raise RemoteClaimHeld(
                    self.name, now_held, "your claim was taken over; it is no longer yours"
                )
            raise RemoteError(
                self.name, f"renewing {task}", status.summary if status else "push rejected"
            )
        self._track(task, sha)
        return RemoteClaim.parse(task, sha, self.git.show_file(sha, CLAIM_FILE))

    def release_claim(self, task: str, session: str | None, force: bool = False) -> None:
        """Delete the claim, expecting the owner's sha (a non-owner needs force, and still never
        deletes blindly)."""
        sha = self._release_sha(task, session, force)
        if sha is None:
            return
        status = self._push(
            f"releasing {task}", [f":{self.claim_ref(task)}"], {self.claim_ref(task): sha}
        ).get(self.claim_ref(task))
        if status is None or not status.ok:
            raise RemoteError(
                self.name, f"releasing {task}", status.summary if status else "push rejected"
            )
        self._track(task, None)

    def _release_sha(self, task: str, session: str | None, force: bool) -> str | None:
        current = self._tracked(task)
        if current is None or current.session != session:
            current = self._fresh(task)
        if current is None:
            return None
        if current.session != session and not force:
            raise RemoteClaimHeld(
                self.name, current, "only its owner can release it (or pass --force, logged)"
            )
        return current.sha

    # --- journals ------------------------------------------------------------------

    def check_journal(self, task: str) -> str | None:
        """The remote's journal head of `task`, refused when it holds commits we do not have."""
        ref, marker = journal.ref_for(task), removed_ref(task)
        with self.network(f"reading the journal of {task}"):
            there = self.git.ls_remote(self.name, [ref, marker])
        remote_head = there.get(ref)
        local_head = journal.head(self.git, task)
        if marker in there:
            self._check_removed(task, there[marker], remote_head, local_head)
        if remote_head is None or remote_head == local_head:
            return remote_head
        if local_head is None or not self.git.is_ancestor(remote_head, local_head):
            raise JournalAhead(
                self.name, task, f"remote {remote_head[:12]}, here {(local_head or 'none')[:12]}"
            )
        return remote_head

    def _check_removed(
        self, task: str, marker: str, remote_head: str | None, local_head: str | None
    ) -> None:
        """Refuse a change of a task removed on the remote (TaskRemovedThere), unless this one is
        another task of the same name, made after the removal (unrelated histories)."""
        seen = self._ref_sha(f"{self.tracking}removed/{task}")
        data = self.git.show_file(marker, REMOVED_FILE) if seen == marker else None
        gone = Removal.parse(task, marker, data)
        if gone is None:
            raise TaskRemovedThere(self.name, task, None)  # not seen yet: sync decides
        for head in (remote_head, local_head):  # either may be another task's of that name
            if head is not None and not (
                self.git.is_ancestor(gone.journal, head) or self.git.is_ancestor(head, gone.journal)
            ):
                return
        if remote_head is not None or local_head is not None:
            raise TaskRemovedThere(self.name, task, gone)

    def prepare_publish(self, task: str, releasing: str | None) -> Publish:
        """Before a journaled change is written here: the remote's journal head (refused when it
        holds commits we do not have) and, for a release by session `releasing`, its claim to
        delete. A claim planned for this task (`plan_claim`) goes with it instead: no look at the
        remote now, the push itself checks."""
        if task in self._pending and releasing is None:
            return Publish(task, None, None, self._pending.pop(task))
        remote_head = self.check_journal(task)
        release_sha = None
        if releasing is not None:
            held = self._tracked(task)
            if held is None or held.session != releasing:
                held = self._fresh(task)
            # Only the released owner's own claim goes, expected at its sha; anyone else's stays.
            release_sha = held.sha if held is not None and held.session == releasing else None
        return Publish(task, remote_head, release_sha)

    def publish(self, plan: Publish, local_head: str | None, message: str) -> None:
        """Push the journal's new head (expecting the head `prepare_publish` saw), and delete the
        released claim in the same atomic push, or the planned claim with it. Raises JournalAhead,
        ClaimRaced or RemoteError; the caller undoes its change."""
        if plan.claim is not None:
            self._push_claim(plan.task, plan.claim, local_head)
            return
        jref, cref = journal.ref_for(plan.task), self.claim_ref(plan.task)
        refspecs: list[str] = []
        leases: dict[str, str | None] = {}
        if local_head and local_head != plan.remote_head:
            refspecs.append(f"{local_head}:{jref}")
            leases[jref] = plan.remote_head
        if plan.release_sha:
            refspecs.append(f":{cref}")
            leases[cref] = plan.release_sha
        if not refspecs:
            return
        statuses = self._push(
            f"recording {message.splitlines()[0]!r} on {plan.task}", refspecs, leases
        )
        bad = [s for s in statuses.values() if not s.ok]
        if bad or len(statuses) < len(refspecs):
            first = next((s for s in bad if not secondary(s)), bad[0] if bad else None)
            if first is not None and first.ref == jref and (behind(first) or raced(first)):
                raise JournalAhead(self.name, plan.task, first.summary)
            raise RemoteError(
                self.name, f"recording {plan.task}", first.summary if first else "push rejected"
            )
        if local_head:
            self._set_ref(self.tracked_task_ref(plan.task), local_head)
        if plan.release_sha:
            self._track(plan.task, None)

    def forget(self, task: str) -> None:
        """Drop a claim planned for the task and not pushed."""
        self._pending.pop(task, None)
