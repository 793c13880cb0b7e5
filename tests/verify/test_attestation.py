"""`land` writes an attestation (#42, slice 3): a signed statement kept as a note under
refs/notes/taskproto on the landed commit, that `ssh-keygen -Y verify` checks without taskproto."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from taskproto.engine import Engine
from tests.conftest import git, run_taskproto
from tests.verify.conftest import PRINCIPAL, Key, journal_list, journal_ref, landed, ready

ARMOR = "-----BEGIN SSH SIGNATURE-----"


def split_note(repo: Path, commit: str, folder: Path) -> tuple[Path, Path]:
    """The note's statement and signature written to files, as docs/verify.md splits them."""
    note = git(repo, "notes", "--ref=taskproto", "show", commit) + "\n"
    statement, _, rest = note.partition(ARMOR)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "statement").write_text(statement)
    (folder / "statement.sig").write_text(ARMOR + rest)
    return folder / "statement", folder / "statement.sig"


def ssh_verify(allowed: Path, statement: Path, sig: Path) -> subprocess.CompletedProcess[bytes]:
    with statement.open("rb") as stdin:
        return subprocess.run(
            ["ssh-keygen", "-Y", "verify", "-f", str(allowed), "-I", PRINCIPAL, "-n", "taskproto"]
            + ["-s", str(sig)],
            stdin=stdin,
            capture_output=True,
            check=False,
        )


def test_the_attestation_verifies_with_ssh_keygen_alone(
    engine: Engine, repo: Path, signing: Key, allowed: Path, tmp_path: Path
) -> None:
    ready(engine)
    engine.approve("t", "commit", "user")
    approved = engine.load("t").checkpoint.commit_approval.sha  # type: ignore[union-attr]
    engine.fire("t", target="COMPLETE", session="s1")
    r = run_taskproto("land", "t", "--json", cwd=repo)
    assert r.code == 0, r.err
    landed_at = json.loads(r.out)["attested"]
    assert landed_at == git(repo, "rev-parse", "main")
    statement, sig = split_note(repo, landed_at, tmp_path / "check")
    data = json.loads(statement.read_text())
    assert data["type"] == "taskproto-attestation/v1"
    assert (data["task"], data["approved"], data["landed"]) == ("t", approved, landed_at)
    assert data["approver"] == "user" and "commit_approved" in data["guards"]
    approval = next(
        s
        for s in journal_list(repo, journal_ref(repo))
        if git(repo, "log", "-1", "--format=%s", s).startswith("approve: commit")
    )
    assert data["approval_journal_commit"] == approval
    proc = ssh_verify(allowed, statement, sig)
    assert proc.returncode == 0, proc.stderr
    assert b'Good "taskproto" signature for user@example.invalid' in proc.stdout + proc.stderr
    # a statement changed by one byte does not verify
    statement.write_text(statement.read_text().replace('"t"', '"u"'))
    assert ssh_verify(allowed, statement, sig).returncode != 0


def test_no_signing_key_no_attestation(engine: Engine, repo: Path) -> None:
    landed(engine)
    assert git(repo, "notes", "--ref=taskproto", "list") == ""


def test_the_human_output_says_where_the_attestation_is(
    engine: Engine, repo: Path, signing: Key
) -> None:
    ready(engine)
    engine.approve("t", "commit", "user")
    engine.fire("t", target="COMPLETE", session="s1")
    r = run_taskproto("land", "t", cwd=repo)
    assert r.code == 0 and "attestation signed: `git notes --ref=taskproto show" in r.out
