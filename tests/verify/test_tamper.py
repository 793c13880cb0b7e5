"""Each tampering of #42 makes `taskproto verify` fail naming the journal commit: real keys made
by ssh-keygen, git's own signing, and the journal changed the ways a process of the user could."""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import Any

from taskproto.engine import Engine
from tests.conftest import git, run_taskproto
from tests.verify.conftest import (
    Key,
    forge,
    journal_list,
    journal_ref,
    landed,
    policy,
    raw,
    ready,
    rebuild,
    use_key,
)


def failure(repo: Path, *args: str) -> tuple[str, str]:
    """(commit, reason) of the one failing journal, from `verify --json`."""
    r = run_taskproto("verify", "--json", *args, cwd=repo)
    assert r.code == 1, r.out + r.err
    failed = [j for j in json.loads(r.out)["journals"] if not j["ok"]]
    assert len(failed) == 1, failed
    human = run_taskproto("verify", *args, cwd=repo)
    assert human.code == 1
    assert f"FAILED at journal commit {failed[0]['failure']['commit'][:12]}" in human.out
    return failed[0]["failure"]["commit"], failed[0]["failure"]["reason"]


def subject(repo: Path, sha: str) -> str:
    return git(repo, "log", "-1", "--format=%s", sha)


def first(repo: Path, ref: str, prefix: str) -> str:
    return next(s for s in journal_list(repo, ref) if subject(repo, s).startswith(prefix))


def test_a_byte_changed_in_a_journal_commit(engine: Engine, repo: Path, signing: Key) -> None:
    landed(engine)
    ref = journal_ref(repo)
    target = journal_list(repo, ref)[3]
    path = repo / ".git" / "objects" / target[:2] / target[2:]
    body = raw(repo, target)
    changed = body.replace(b"revision: ", b"revision:  ", 1)
    os.chmod(path, 0o644)
    path.write_bytes(zlib.compress(b"commit %d\0" % len(changed) + changed))
    commit, why = failure(repo)
    assert commit == target and "do not hash to its id" in why


def test_an_unsigned_approval_under_the_policy(engine: Engine, repo: Path, key: Key) -> None:
    ready(engine)  # the plan approved before signing was set up
    use_key(repo, key, _allowed_file(repo, key))
    engine.approve("t", "commit", "user")
    policy(repo)
    commit, why = failure(repo)
    assert commit == first(repo, journal_ref(repo), "approve: plan")
    assert why == "its plan approval is not signed (require_signed_approvals)"


def test_an_approval_signed_by_a_key_not_in_the_allowed_signers(
    engine: Engine, repo: Path, signing: Key, tmp_path: Path
) -> None:
    ready(engine)
    stranger = Key(tmp_path / "keys", "stranger")
    use_key(repo, stranger)  # the allowed-signers file still names the user's key alone
    engine.approve("t", "commit", "user")
    commit, why = failure(repo)
    assert commit == first(repo, journal_ref(repo), "approve: commit")
    assert "signed by a key not in the allowed signers" in why


def test_a_modified_copy_of_a_signed_approval(engine: Engine, repo: Path, signing: Key) -> None:
    landed(engine)
    ref = journal_ref(repo)
    commits = journal_list(repo, ref)
    target = first(repo, ref, "approve: commit")
    at = commits.index(target)
    other = git(repo, "rev-parse", "main~1")

    def approve_another(data: dict[str, Any]) -> None:
        data["checkpoint"]["commit_approval"]["sha"] = other
        data["checkpoint"]["commit_approval"]["diffstat"]["head"] = other

    copy = forge(repo, target, change=approve_another)  # its signature kept
    rebuild(repo, ref, [*commits[:at], copy, *commits[at + 1 :]])
    commit, why = failure(repo)
    assert commit == copy and why == "its signature does not verify"


def test_a_replaced_object(engine: Engine, repo: Path, signing: Key) -> None:
    landed(engine)
    ref = journal_ref(repo)
    target = first(repo, ref, "approve: commit")

    def unapproved(data: dict[str, Any]) -> None:
        data["checkpoint"]["commit_approval"]["seen"] = None

    git(repo, "replace", target, forge(repo, target, change=unapproved))
    commit, why = failure(repo)
    assert commit == target and f"refs/replace/{target} replaces it" in why


def test_a_rewritten_journal_history(engine: Engine, repo: Path, signing: Key) -> None:
    landed(engine)
    ref = journal_ref(repo)
    commits = journal_list(repo, ref)
    # a change of the task's revision (an agent's status alone keeps the revision: its commit
    # dropped leaves the same task.json revisions, and the approvals signed after it name it)
    dropped = next(s for s in commits if subject(repo, s).startswith("validate:"))
    at = commits.index(dropped)
    copies = rebuild(repo, ref, [c for c in commits if c != dropped], keep_signature=False)
    commit, why = failure(repo)
    assert commit == copies[at] and "the history was rewritten or a commit dropped" in why, why


def test_a_landed_commit_other_than_the_approved_one(
    engine: Engine, repo: Path, signing: Key
) -> None:
    landed(engine)
    ref = journal_ref(repo)
    commits = journal_list(repo, ref)
    land = first(repo, ref, "land:")
    other = git(repo, "rev-parse", "main~1")

    def lands_another(data: dict[str, Any]) -> None:
        data["landed"]["approved"] = other

    at = commits.index(land)
    copies = rebuild(
        repo, ref, [*commits[:at], forge(repo, land, change=lands_another), *commits[at + 1 :]]
    )
    commit, why = failure(repo)
    assert commit == copies[at] and "but the approved commit is" in why


def test_a_base_that_got_another_commit_than_the_approved_one(
    engine: Engine, repo: Path, signing: Key
) -> None:
    landed(engine, strategy="ff")
    ref = journal_ref(repo)
    commits = journal_list(repo, ref)
    land = first(repo, ref, "land:")
    other = git(repo, "commit-tree", "-p", "main", "-m", "not approved", "main^{tree}")

    def moved_elsewhere(data: dict[str, Any]) -> None:
        data["landed"]["base_after"] = other

    at = commits.index(land)
    forged = forge(repo, land, change=moved_elsewhere, keep_signature=False)
    copies = rebuild(repo, ref, [*commits[:at], forged, *commits[at + 1 :]])
    commit, why = failure(repo)
    assert commit == copies[at] and "not to the approved" in why


def _allowed_file(repo: Path, key: Key) -> Path:
    path = repo.parent / "allowed_signers"
    path.write_text(f"user@example.invalid {key.public}\n")
    return path


def test_task_json_s_approval_edited_by_hand(engine: Engine, repo: Path, signing: Key) -> None:
    ready(engine)
    engine.approve("t", "commit", "user")
    path = repo / ".taskproto" / "tasks" / "t" / "task.json"
    data = json.loads(path.read_text())
    data["checkpoint"]["commit_approval"]["by"] = "someone-else"
    path.write_text(json.dumps(data, indent=2))
    commit, why = failure(repo, "t")
    assert commit == git(repo, "rev-parse", journal_ref(repo))  # the head it should match
    assert why == (
        "the task's task.json is not this journal's newest: task.json differs from its journal "
        f"at revision {data['revision']} (edited?) [task-forged]; `taskproto doctor --fix` "
        "restores the journal's"
    )
    human = run_taskproto("verify", "t", cwd=repo)
    assert len(human.out.splitlines()) == 1
