"""Ed25519 SSH signatures checked in-process (git/sshsig.py) decide as `ssh-keygen -Y verify`
does, on signatures made by the real ssh-keygen."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from taskproto.git import signing, sshsig
from tests.verify.conftest import PRINCIPAL, Key

pytestmark = pytest.mark.skipif(not sshsig.available(), reason="cryptography is not installed")


def sign(key: Key, data: bytes, namespace: str) -> bytes:
    return subprocess.run(
        ["ssh-keygen", "-q", "-Y", "sign", "-f", str(key.path), "-n", namespace],
        input=data,
        capture_output=True,
        check=True,
    ).stdout


def both(allowed: Path, key: str, sig: bytes, data: bytes, namespace: str) -> tuple[bool, bool]:
    """(in-process, ssh-keygen) verdicts."""
    inproc = signing.Check(data, sig, namespace, PRINCIPAL, key, plain=True)
    keygen = signing.Check(data, sig, namespace, PRINCIPAL, key, plain=False)
    first, second = signing.ssh_verify_all(str(allowed), [inproc, keygen])
    return first, second


def test_in_process_and_ssh_keygen_agree(key: Key, allowed: Path, tmp_path: Path) -> None:
    data = b'{"task": "t"}\n'
    good = sign(key, data, "taskproto")
    public = " ".join(key.public.split()[:2])
    assert sshsig.verify(good, data, "taskproto", public) is True
    assert both(allowed, public, good, data, "taskproto") == (True, True)
    assert both(allowed, public, good, data + b" ", "taskproto") == (False, False)
    assert both(allowed, public, good, data, "git") == (False, False)
    stranger = Key(tmp_path / "keys", "stranger")
    theirs = sign(stranger, data, "taskproto")
    assert both(allowed, public, theirs, data, "taskproto") == (False, False)
    broken = good.replace(good.splitlines()[2][:8], b"AAAAAAAA")
    assert both(allowed, public, broken, data, "taskproto") == (False, False)


def test_other_key_types_are_left_to_ssh_keygen(key: Key) -> None:
    assert sshsig.verify(b"", b"", "git", "ecdsa-sha2-nistp256 AAAA") is None
