"""An SSH signature (ssh-keygen's SSHSIG format) of an Ed25519 key checked in-process.

`ssh-keygen -Y verify` is the reference, and what checks every other key type and every
allowed-signers entry with options; starting it costs a process per signature, which is most of
what `taskproto verify` spends on a hundred landed tasks (docs/performance.md). With the optional
`cryptography` package (`pip install 'taskproto[verify]'`), a plain Ed25519 signature, the key
docs/verify.md sets up, is checked here instead, by the format's own definition (PROTOCOL.sshsig):
the signed bytes are the magic, the namespace, the reserved field, the hash's name and the
message's hash. None means "not decided here": the caller asks ssh-keygen.
"""

from __future__ import annotations

import base64
import hashlib

MAGIC = b"SSHSIG"
HASHES = {b"sha256": hashlib.sha256, b"sha512": hashlib.sha512}


def _string(blob: bytes, at: int) -> tuple[bytes, int]:
    if at + 4 > len(blob):
        raise ValueError("truncated")
    size = int.from_bytes(blob[at : at + 4], "big")
    if at + 4 + size > len(blob):
        raise ValueError("truncated")
    return blob[at + 4 : at + 4 + size], at + 4 + size


def _pack(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def available() -> bool:
    try:
        import cryptography.hazmat.primitives.asymmetric.ed25519  # noqa: F401
    except ImportError:
        return False
    return True


def verify(armored: bytes, message: bytes, namespace: str, key: str) -> bool | None:
    """Whether `armored` is a good signature of `message` in `namespace` by `key` (`type base64`,
    as allowed-signers names it); None when this module does not decide (not Ed25519, no
    `cryptography`)."""
    if not key.startswith("ssh-ed25519 ") or not available():
        return None
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    lines = [ln for ln in armored.strip().splitlines() if not ln.startswith(b"-----")]
    try:
        blob = base64.b64decode(b"".join(lines), validate=True)
        if not blob.startswith(MAGIC) or int.from_bytes(blob[6:10], "big") != 1:
            return False
        public, at = _string(blob, 10)
        signed_namespace, at = _string(blob, at)
        reserved, at = _string(blob, at)
        hash_name, at = _string(blob, at)
        signature, at = _string(blob, at)
        kind, rest = _string(public, 0)
        raw_key, _ = _string(public, rest)
        sig_kind, rest = _string(signature, 0)
        raw_sig, _ = _string(signature, rest)
    except ValueError:
        return False
    if (
        kind != b"ssh-ed25519"
        or sig_kind != b"ssh-ed25519"
        or base64.b64encode(public).decode() != key.split(" ", 1)[1]
        or signed_namespace != namespace.encode()
        or hash_name not in HASHES
    ):
        return False
    digest = HASHES[hash_name](message).digest()
    data = MAGIC + _pack(signed_namespace) + _pack(reserved) + _pack(hash_name) + _pack(digest)
    try:
        Ed25519PublicKey.from_public_bytes(raw_key).verify(raw_sig, data)
    except (InvalidSignature, ValueError):
        return False
    return True
