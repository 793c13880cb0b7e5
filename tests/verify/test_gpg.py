"""GPG instead of SSH (#42): a key made by `gpg --quick-gen-key` in a GNUPGHOME of the test's own,
git's own signing (`gpg.format openpgp`); verify checks the journal's signatures with
`git verify-commit`, and the attestation verifies with `gpg --verify` alone."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.conftest import git, run_taskproto
from tests.verify.conftest import landed

pytestmark = pytest.mark.skipif(shutil.which("gpg") is None, reason="gpg is not installed")


@pytest.fixture
def gpg_key(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    home = tempfile.mkdtemp(prefix="tp-gpg-")  # short: gpg-agent's socket path has a limit
    monkeypatch.setenv("GNUPGHOME", home)
    try:
        subprocess.run(
            ["gpg", "--batch", "--passphrase", "", "--quick-gen-key"]
            + ["Test User <test@example.invalid>", "ed25519", "sign", "never"],
            capture_output=True,
            check=True,
        )
        listing = subprocess.run(
            ["gpg", "--list-secret-keys", "--with-colons"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        fingerprint = next(ln.split(":")[9] for ln in listing.splitlines() if ln.startswith("fpr"))
        git(repo, "config", "gpg.format", "openpgp")
        git(repo, "config", "user.signingkey", fingerprint)
        yield fingerprint
    finally:
        subprocess.run(["gpgconf", "--kill", "all"], capture_output=True, check=False)
        shutil.rmtree(home, ignore_errors=True)


def test_gpg_signed_approvals_verify_and_the_attestation_verifies_with_gpg(
    engine: Engine, repo: Path, gpg_key: str, tmp_path: Path
) -> None:
    landed(engine)
    r = run_taskproto("verify", "--json", "--require-signed", cwd=repo)
    assert r.code == 0, r.out + r.err
    assert json.loads(r.out)["journals"][0]["signed"] == 3
    note = git(repo, "notes", "--ref=taskproto", "show", "main") + "\n"
    statement, _, rest = note.partition("-----BEGIN PGP SIGNATURE-----")
    (tmp_path / "statement").write_text(statement)
    (tmp_path / "statement.asc").write_text("-----BEGIN PGP SIGNATURE-----" + rest)
    proc = subprocess.run(
        ["gpg", "--verify", str(tmp_path / "statement.asc"), str(tmp_path / "statement")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and "Good signature" in proc.stderr
    assert json.loads(statement)["task"] == "t"


def test_a_modified_copy_of_a_gpg_signed_approval_fails(
    engine: Engine, repo: Path, gpg_key: str
) -> None:
    from tests.verify.conftest import forge, journal_list, journal_ref, rebuild

    landed(engine)
    ref = journal_ref(repo)
    commits = journal_list(repo, ref)
    target = next(
        s for s in commits if git(repo, "log", "-1", "--format=%s", s).startswith("approve: commit")
    )
    at = commits.index(target)

    def other_approver(data: dict[str, object]) -> None:
        data["checkpoint"]["commit_approval"]["by"] = "someone"  # type: ignore[index]

    copy = forge(repo, target, change=other_approver)
    rebuild(repo, ref, [*commits[:at], copy, *commits[at + 1 :]])
    r = run_taskproto("verify", "--json", cwd=repo)
    assert r.code == 1
    failure = json.loads(r.out)["journals"][0]["failure"]
    assert failure == {
        "commit": copy,
        "reason": "its GPG signature does not verify (git verify-commit)",
    }
