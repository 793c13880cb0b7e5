"""The user's signatures through git's own signing setup, and their checks.

Signing uses what the user configured for git: `user.signingkey` and `gpg.format` (`ssh`, or
`openpgp` for GPG). A journal commit of the user's is made by `git commit-tree -S`, so git signs
it exactly as it signs the user's own commits; an attestation is signed with `ssh-keygen -Y sign
-n taskproto`. Checks run `ssh-keygen -Y verify` against an allowed-signers file (several at
once: one process per signature is most of verify's time), and `git verify-commit` for GPG.
Every process here starts with replacements off (git/files.py `git_environ`).
"""

from __future__ import annotations

import base64
import os
import subprocess
import tempfile

from taskproto.errors import GitError
from taskproto.git.command import Git
from taskproto.git.files import git_environ
from taskproto.git.objects import IDENT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

NAMESPACE = "taskproto"  # the namespace of an attestation's signature (`ssh-keygen -n`)
COMMIT_NAMESPACE = "git"  # the namespace git signs commits in
SSH_ARMOR = b"-----BEGIN SSH SIGNATURE-----"
SETUP_HINT = (
    "set up SSH signing: `ssh-keygen -t ed25519 -f ~/.ssh/taskproto`, then "
    "`git config gpg.format ssh` and `git config user.signingkey ~/.ssh/taskproto.pub` "
    "(docs/verify.md)"
)


class Setup:
    """The user's signing setup as git sees it: the format (`ssh` or `openpgp`) and the key."""

    __slots__ = ("failed", "fmt", "key", "required")

    def __init__(self, fmt: str, key: str, required: bool = False) -> None:
        self.fmt, self.key, self.required = fmt, key, required
        self.failed: str | None = None  # why git could not sign, when it fell back to unsigned

    def __repr__(self) -> str:
        return f"Setup(fmt={self.fmt!r}, key={self.key!r})"


def _config(git: Git, key: str) -> str | None:
    value = git.run("config", "--get", key, check=False).strip()
    return value or None


def may_sign(common_dir: str) -> bool:
    """Whether a git config file could set `user.signingkey`: a look at the files' bytes before
    starting git (doctor's whole run starts three git processes; most repositories sign
    nothing). Anything it cannot rule out (an include, the environment's config, a worktree's
    config) is left to git."""
    if any(k.startswith("GIT_CONFIG") and k != "GIT_CONFIG_NOSYSTEM" for k in os.environ):
        return True
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    files = [os.path.join(common_dir, "config"), os.path.join(home, ".gitconfig")]
    files += [os.path.join(xdg, "git", "config"), "/etc/gitconfig"]
    for path in files:
        try:
            with open(path, "rb") as fh:
                data = fh.read().lower()
        except OSError:
            continue
        if b"signingkey" in data or b"include" in data or b"worktreeconfig" in data:
            return True
    return False


def setup(git: Git, common_dir: str | None = None) -> Setup | None:
    """The signing setup of the repository `git` runs in (None: no `user.signingkey`); with
    `common_dir`, git is asked only when a config file may set one (`may_sign`)."""
    if common_dir is not None and not may_sign(common_dir):
        return None
    key = _config(git, "user.signingkey")
    if key is None:
        return None
    return Setup((_config(git, "gpg.format") or "openpgp").lower(), key)


def allowed_signers(git: Git) -> str | None:
    """The allowed-signers file git is configured with (`gpg.ssh.allowedSignersFile`)."""
    value = _config(git, "gpg.ssh.allowedSignersFile")
    return os.path.expanduser(value) if value else None


def commit_tree_signed(git: Git, tree: str, parent: str | None, message: str) -> str:
    """A commit of `tree` signed through git (`commit-tree -S`), as taskproto's other journal
    commits are made (taskproto's identity, now). Raises GitError when git cannot sign."""
    name, _, email = IDENT.partition(" <")
    env = {
        "GIT_AUTHOR_NAME": name,
        "GIT_AUTHOR_EMAIL": email.rstrip(">"),
        "GIT_COMMITTER_NAME": name,
        "GIT_COMMITTER_EMAIL": email.rstrip(">"),
    }
    args = ["commit-tree", "-S", tree]
    if parent:
        args += ["-p", parent]
    return git.run(*args, input=message, env=env).strip()


# --- attestations ---------------------------------------------------------------------------


def _key_file(key: str, folder: str) -> str:
    """A file `ssh-keygen -f` takes for git's `user.signingkey`: the path, or a literal public
    key (`key::ssh-ed25519 ...`) written out (its private half then comes from the ssh agent)."""
    literal = key[5:] if key.startswith("key::") else key if key.startswith("ssh-") else None
    if literal is None:
        return os.path.expanduser(key)
    path = os.path.join(folder, "key.pub")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(literal + "\n")
    return path


def ssh_sign(setup: Setup, data: bytes, namespace: str = NAMESPACE) -> bytes:
    """The armored SSH signature of `data` by the user's signing key (`ssh-keygen -Y sign`)."""
    with tempfile.TemporaryDirectory(prefix="taskproto-sign-") as folder:
        cmd = ["ssh-keygen", "-q", "-Y", "sign", "-f", _key_file(setup.key, folder)]
        cmd += ["-n", namespace]
        proc = subprocess.run(cmd, input=data, capture_output=True, check=False)
    if proc.returncode != 0 or SSH_ARMOR not in proc.stdout:
        raise GitError(cmd, proc.returncode, "", proc.stderr.decode("utf-8", "replace"))
    return proc.stdout


def gpg_sign(setup: Setup, data: bytes) -> bytes:
    """The armored detached GPG signature of `data` by the user's signing key."""
    cmd = ["gpg", "--batch", "--armor", "--detach-sign", "--local-user", setup.key]
    proc = subprocess.run(cmd, input=data, capture_output=True, check=False)
    if proc.returncode != 0:
        raise GitError(cmd, proc.returncode, "", proc.stderr.decode("utf-8", "replace"))
    return proc.stdout


def add_note(git: Git, ref: str, commit: str, text: bytes) -> None:
    """Keep `text` as the note of `commit` under `ref` (replacing the note it had)."""
    git.run("notes", f"--ref={ref}", "add", "-f", "-F", "-", commit, input=text)


def read_note(git: Git, ref: str, commit: str) -> bytes | None:
    out = git.run("notes", f"--ref={ref}", "show", commit, check=False)
    return out.encode() if out else None


# --- a signed commit's parts and its signer --------------------------------------------------


def split_signature(body: bytes) -> tuple[bytes, bytes | None]:
    """(what was signed, the signature) of a commit object's contents: git signs the commit
    without its `gpgsig` header (None: the commit carries no signature)."""
    head, sep, message = body.partition(b"\n\n")
    lines = head.split(b"\n")
    kept: list[bytes] = []
    sig: list[bytes] = []
    inside = False
    for line in lines:
        if line.startswith(b"gpgsig "):
            inside = True
            sig.append(line[7:])
        elif inside and line.startswith(b" "):
            sig.append(line[1:])
        else:
            inside = False
            kept.append(line)
    if not sig:
        return body, None
    return b"\n".join(kept) + sep + message, b"\n".join(sig) + b"\n"


def _string(blob: bytes, at: int) -> tuple[bytes, int]:
    size = int.from_bytes(blob[at : at + 4], "big")
    return blob[at + 4 : at + 4 + size], at + 4 + size


def ssh_signer(sig: bytes) -> str | None:
    """The public key (`type base64`) an armored SSH signature names, None when it is not one."""
    lines = [ln for ln in sig.strip().splitlines() if not ln.startswith(b"-----")]
    try:
        blob = base64.b64decode(b"".join(lines), validate=True)
    except ValueError:
        return None
    if not blob.startswith(b"SSHSIG") or len(blob) < 14:
        return None
    key, _ = _string(blob, 10)  # magic (6 bytes) and version (4)
    kind, _ = _string(key, 0)
    if not key or not kind:
        return None
    return f"{kind.decode('ascii', 'replace')} {base64.b64encode(key).decode()}"


def read_allowed(path: str) -> dict[str, tuple[list[str], bool]]:
    """{`type base64` of a key: (its principals, whether its entries carry no options)} of an
    allowed-signers file (ssh-keygen(1) ALLOWED SIGNERS)."""
    found: dict[str, tuple[list[str], bool]] = {}
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            parts = raw.split()
            if len(parts) < 3 or parts[0].startswith("#"):
                continue
            at = 1
            if not parts[1].startswith(("ssh-", "ecdsa-", "sk-")):  # options before the key
                at = 2
            if len(parts) < at + 2:
                continue
            key = f"{parts[at]} {parts[at + 1]}"
            principals, plain = found.get(key, ([], True))
            found[key] = ([*principals, *parts[0].split(",")], plain and at == 1)
    return found


class Check:
    """One SSH signature to check: `data` signed in `namespace` by `principal`'s `key` (`plain`:
    its allowed-signers entry has no options, so the signature alone decides)."""

    __slots__ = ("data", "key", "namespace", "plain", "principal", "sig")

    def __init__(
        self, data: bytes, sig: bytes, namespace: str, principal: str, key: str, plain: bool
    ) -> None:
        self.data, self.sig, self.namespace, self.principal = data, sig, namespace, principal
        self.key, self.plain = key, plain


def ssh_verify_all(allowed: str, checks: Sequence[Check], parallel: int = 4) -> list[bool]:
    """Whether each signature is good: a plain Ed25519 one in-process where `cryptography` is
    installed (git/sshsig.py), else `ssh-keygen -Y verify`, `parallel` processes at a time."""
    from taskproto.git import sshsig

    results: list[bool] = [False] * len(checks)
    decided = [
        sshsig.verify(c.sig, c.data, c.namespace, c.key) if c.plain else None for c in checks
    ]
    with tempfile.TemporaryDirectory(prefix="taskproto-verify-") as folder:
        running: list[tuple[int, subprocess.Popen[bytes]]] = []

        def reap(until: int) -> None:
            while len(running) > until:
                index, proc = running.pop(0)
                proc.communicate()
                results[index] = proc.returncode == 0

        for index, check in enumerate(checks):
            if decided[index] is not None:
                results[index] = bool(decided[index])
                continue
            sig_path = os.path.join(folder, f"{index}.sig")
            with open(sig_path, "wb") as fh:
                fh.write(check.sig)
            data_path = os.path.join(folder, f"{index}.data")
            with open(data_path, "wb") as fh:
                fh.write(check.data)
            reap(parallel - 1)
            cmd = ["ssh-keygen", "-q", "-Y", "verify", "-f", allowed, "-I", check.principal]
            cmd += ["-n", check.namespace, "-s", sig_path]
            with open(data_path, "rb") as stdin:
                proc = subprocess.Popen(
                    cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                )
            running.append((index, proc))
        reap(0)
    return results


def gpg_verify_commit(git: Git, sha: str) -> str | None:
    """The signer's key of a GPG-signed commit whose signature git finds good, else None."""
    proc = subprocess.run(
        ["git", "verify-commit", "--raw", sha],
        cwd=git.cwd,
        capture_output=True,
        check=False,
        env=git_environ(),
    )
    for line in proc.stderr.decode("utf-8", "replace").splitlines():
        if proc.returncode == 0 and line.startswith("[GNUPG:] VALIDSIG "):
            return line.split()[2]
    return None
