"""`taskproto verify`: every journal replayed from its first commit (docs/verify.md).

Each commit is checked as a stored object (its bytes hash to its id, nothing replaces it), as the
next link of its journal (one parent, the next revision, task.json's digest), for the steps it
appends (each a transition of the task's workflow as defined here), for the approvals it records
(signed by an allowed signer, naming the commit approved, not made from an agent's process) and
for a landing (the commit approved). What it needs is git, the journal refs and the
allowed-signers file: it runs on a bare clone that fetched `refs/taskproto/*`.
"""

from __future__ import annotations

import os

from taskproto.engine import journals, verify_rules
from taskproto.engine.journals import Entry, Journal
from taskproto.errors import TaskprotoError
from taskproto.git import signing
from taskproto.git.command import Git
from taskproto.machine.registry import get_workflow

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.config import Config
    from taskproto.git.files import GitDirs
    from taskproto.machine.workflow import Workflow


class Report:
    """One journal's verdict: the first commit that fails and why (None: it holds), and what
    verify flags without failing (an unsigned approval where no policy asks for signatures)."""

    __slots__ = ("commits", "failure", "ref", "signed", "task", "warnings")

    def __init__(self, journal: Journal) -> None:
        self.task, self.ref, self.commits = journal.task, journal.ref, len(journal.commits)
        self.failure: tuple[str, str] | None = journal.broken
        self.warnings: list[tuple[str, str]] = []
        self.signed = 0

    @property
    def ok(self) -> bool:
        return self.failure is None

    def as_json(self) -> dict[str, object]:
        failed = self.failure
        return {
            "task": self.task,
            "ref": self.ref,
            "ok": self.ok,
            "commits": self.commits,
            "signed": self.signed,
            "failure": {"commit": failed[0], "reason": failed[1]} if failed else None,
            "warnings": [{"commit": c, "reason": r} for c, r in self.warnings],
        }


def settings(config: Config) -> dict[str, object]:
    section = config.raw.get("verify")
    return section if isinstance(section, dict) else {}


def allowed_file(config: Config, explicit: str | None) -> str | None:
    """The allowed-signers file: `--allowed-signers`, else `[verify] allowed_signers` (relative to
    the repository), else git's `gpg.ssh.allowedSignersFile`."""
    named = explicit or settings(config).get("allowed_signers")
    if isinstance(named, str) and named:
        path = os.path.join(config.layout.main, os.path.expanduser(named))
    else:
        path = signing.allowed_signers(Git(config.layout.main)) or ""
    if path and not os.path.isfile(path):
        raise TaskprotoError(
            f"the allowed-signers file {path} does not exist; pass --allowed-signers FILE"
        )
    return path or None


class _Signatures:
    """The signatures to check, gathered from every journal first, then checked together."""

    def __init__(self, git: Git, allowed: str | None) -> None:
        self.git, self.allowed = git, allowed
        self.keys = signing.read_allowed(allowed) if allowed else {}
        self.checks: list[signing.Check] = []
        self.pending: list[tuple[Report, int, str]] = []  # (report, position, commit)

    def problem(self, report: Report, position: int, entry: Entry) -> str | None:
        """Why the signature of `entry` is not good now, or None (queued for ssh-keygen)."""
        assert entry.sig is not None
        if signing.SSH_ARMOR not in entry.sig:
            if signing.gpg_verify_commit(self.git, entry.sha) is None:
                return "its GPG signature does not verify (git verify-commit)"
            return None
        key = signing.ssh_signer(entry.sig)
        if key is None:
            return "its signature cannot be read"
        if self.allowed is None:
            return (
                "it is signed, but there is no allowed-signers file to check the signer against "
                "(pass --allowed-signers FILE, or set git's gpg.ssh.allowedSignersFile)"
            )
        principals, plain = self.keys.get(key, ([], False))
        if not principals:
            return f"it is signed by a key not in the allowed signers ({key[:40]}...)"
        self.checks.append(
            signing.Check(
                entry.payload, entry.sig, signing.COMMIT_NAMESPACE, principals[0], key, plain
            )
        )
        self.pending.append((report, position, entry.sha))
        return None

    def run(self) -> list[tuple[Report, int, str]]:
        """The queued signatures that do not verify."""
        if not self.checks or self.allowed is None:
            return []
        results = signing.ssh_verify_all(self.allowed, self.checks)
        return [p for p, good in zip(self.pending, results, strict=True) if not good]


def verify(
    config: Config,
    tasks: list[str],
    allowed: str | None = None,
    require_signed: bool = False,
) -> list[Report]:
    """The reports of the journals of `tasks` (every journal, live and archived, when empty)."""
    dirs = config.layout.dirs
    if dirs is None:
        raise TaskprotoError("not in a git repository; run verify in the repository or a clone")
    refs, missing = journals.list_refs(dirs, tasks)
    if missing:
        raise TaskprotoError(
            f"no journal of task {missing[0]!r} here (refs/taskproto/tasks/ or archive/); in a "
            "clone, fetch them: `git fetch ORIGIN 'refs/taskproto/*:refs/taskproto/*'`"
        )
    policy = require_signed or settings(config).get("require_signed_approvals") is True
    replaced = journals.replaced(dirs)
    loaded = journals.read_all(dirs, refs)
    signatures = _Signatures(Git(config.layout.main), allowed_file(config, allowed))
    known: dict[str, Workflow | None] = {}

    def workflows(name: str) -> Workflow | None:
        if name not in known:
            try:
                known[name] = get_workflow(name, config)
            except TaskprotoError:
                known[name] = None
        return known[name]

    reports: list[tuple[Report, list[tuple[int, str, str]]]] = []
    lands: list[tuple[Report, int, Entry, dict[str, object]]] = []
    for journal in loaded:
        report = Report(journal)
        found = _replay(report, journal, replaced, workflows, policy, signatures, lands)
        reports.append((report, found))
    by_report = dict(reports)
    for report, position, sha in signatures.run():
        by_report[report].append((position, sha, "its signature does not verify"))
    _landed_commits(dirs, lands, by_report)
    for (report, found), journal in zip(reports, loaded, strict=True):
        if found and report.failure is None:
            _, sha, why = min(found, key=lambda f: f[0])
            report.failure = (sha, why)
        if report.failure is None:
            report.failure = _working_copy(config, dirs, journal)
    return [r for r, _ in reports]


def _working_copy(config: Config, dirs: GitDirs, journal: Journal) -> tuple[str, str] | None:
    """Where the repository holds the task's task.json (not a bare clone), the journal that
    holds must vouch for it, as every command checks: a hand edit of an approval there is the
    tampering the journal is there to catch."""
    from taskproto.state import integrity
    from taskproto.state.journal import REF_PREFIX

    if not journal.commits or journal.ref != REF_PREFIX + journal.task:
        return None  # an archive: the task's folder is gone with it
    try:
        with open(config.layout.task_file(journal.task), "rb") as fh:
            data = fh.read()
    except OSError:
        return None  # no working copy here: a bare clone
    found = integrity.check(dirs, journal.task, data)
    if found is None:
        return None
    return (
        journal.commits[-1].sha,
        f"the task's task.json is not this journal's newest: {found[1]} [{found[0]}]; "
        "`taskproto doctor --fix` restores the journal's",
    )


def _replay(
    report: Report,
    journal: Journal,
    replaced: set[str],
    workflows: verify_rules.Workflows,
    policy: bool,
    signatures: _Signatures,
    lands: list[tuple[Report, int, Entry, dict[str, object]]],
) -> list[tuple[int, str, str]]:
    """The journal's failures found now, as (position, commit, why): the first of the rules'
    (the replay stops there), and its signatures' before it."""
    found: list[tuple[int, str, str]] = []
    prev: Entry | None = None
    for position, cur in enumerate(journal.commits):
        why = (
            verify_rules.chain(prev, cur, replaced)
            or verify_rules.steps(prev, cur, workflows)
            or verify_rules.approvals(prev, cur)
            or verify_rules.landing(prev, cur)
            or _signature(report, position, prev, cur, policy, signatures)
        )
        if why is not None:
            found.append((position, cur.sha, why))
            break
        record = verify_rules.landed(prev, cur)
        if record is not None:
            lands.append((report, position, cur, record))
        prev = cur
    return found


def _signature(
    report: Report,
    position: int,
    prev: Entry | None,
    cur: Entry,
    policy: bool,
    signatures: _Signatures,
) -> str | None:
    kinds = verify_rules.introduced(prev, cur)
    for kind in kinds:
        found = verify_rules.approval(cur.data, kind)
        agent = verify_rules.from_an_agent(found) if found is not None else None
        if agent is not None:
            return f"its {kind} approval was made from an agent's process ({agent})"
    if cur.sig is None:
        if kinds and policy:
            return f"its {kinds[0]} approval is not signed (require_signed_approvals)"
        if kinds:
            report.warnings.append((cur.sha, f"its {kinds[0]} approval is not signed"))
        return None
    report.signed += 1
    return signatures.problem(report, position, cur)


def _landed_commits(
    dirs: GitDirs,
    lands: list[tuple[Report, int, Entry, dict[str, object]]],
    found: dict[Report, list[tuple[int, str, str]]],
) -> None:
    """Each landing's new base commit, where this repository has it, is the approved one's."""
    wanted = [str(r.get("base_after")) for _, _, _, r in lands]
    commits = journals.commit_objects(dirs, wanted)
    for report, position, entry, record in lands:
        after = str(record.get("base_after"))
        if after not in commits and after != record.get("base_before"):
            report.warnings.append(
                (
                    entry.sha,
                    f"the landed commit {after[:12]} is not in this repository: not compared",
                )
            )
            continue
        why = verify_rules.landed_commit(record, commits.get(after))
        if why is not None:
            found[report].append((position, entry.sha, why))
