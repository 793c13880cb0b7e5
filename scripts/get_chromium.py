"""Fetch a headless Chromium for the board's browser test, from the npm registry, unpacked with
Python.

    python scripts/get_chromium.py [DEST_DIR]     # prints the path of the binary

`npm pack` only downloads the tarball of `@sparticuz/chromium` (nothing of it runs); the binary
and its software-GL libraries inside are brotli-compressed and unpacked here. Idempotent: returns
at once when the binary is already there. The cache lives outside the repository
($TASKPROTO_CHROMIUM_DIR, else ~/.cache/taskproto-chromium-<version>). Needs `npm` on PATH and the
PyPI package `brotli` (both in the `test` extra's world; see docs/board.md). Never
`playwright install`: it downloads from a CDN, which CI cannot reach.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

VERSION = "153.0.0"  # pinned together with playwright in pyproject.toml; re-run the test on bumps
PACKAGE = f"@sparticuz/chromium@{VERSION}"


def default_dest() -> Path:
    explicit = os.environ.get("TASKPROTO_CHROMIUM_DIR")
    if explicit:
        return Path(explicit)
    return Path.home() / ".cache" / f"taskproto-chromium-{VERSION}"


class FetchError(Exception):
    """Chromium could not be fetched; str() says why and what to do."""


def _extract(tar: tarfile.TarFile, dest: Path) -> None:
    if hasattr(tarfile, "data_filter"):  # 3.12, and 3.8-3.11 since their mid-2023 releases
        tar.extractall(dest, filter="data")
        return
    # an older Python (Debian 12's 3.11.2) has no filters: the same refusal, by hand
    root = dest.resolve()
    for member in tar.getmembers():
        target = (dest / member.name).resolve()
        if not (member.isfile() or member.isdir()) or root not in (target, *target.parents):
            raise FetchError(f"{PACKAGE}: {member.name!r} is not a plain file inside the archive")
    tar.extractall(dest)  # noqa: S202 - every member checked above


def ensure_chromium(dest: Path | None = None) -> Path:
    """The path of the Chromium binary, downloading and unpacking it first if needed."""
    dest = dest or default_dest()
    exe = dest / "chromium"
    if exe.is_file():
        return exe
    npm = shutil.which("npm")
    if npm is None:
        raise FetchError(f"npm is not on PATH: it is needed once to download {PACKAGE}")
    try:
        import brotli
    except ImportError:
        raise FetchError("the PyPI package brotli is missing: pip install 'taskproto[test]'") from (
            None
        )
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [npm, "pack", PACKAGE, "--silent", "--pack-destination", tmp],
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )
        if proc.returncode != 0 or not proc.stdout.split():
            detail = (proc.stderr or proc.stdout).strip().splitlines()
            raise FetchError(
                f"`npm pack {PACKAGE}` failed ({detail[-1] if detail else proc.returncode}); "
                "the npm registry must be reachable once"
            )
        tarball = Path(tmp) / proc.stdout.split()[-1]
        with tarfile.open(tarball) as tgz:

            def unbrotli(member: str) -> bytes:
                fh = tgz.extractfile(f"package/bin/{member}")
                if fh is None:
                    raise FetchError(f"{PACKAGE} has no bin/{member}")
                return bytes(brotli.decompress(fh.read()))

            # SwiftShader (software GL) sits next to the binary; pages render without it, WebGL not.
            with tarfile.open(fileobj=io.BytesIO(unbrotli("swiftshader.tar.br"))) as gl:
                _extract(gl, dest)
            part = dest / "chromium.part"
            part.write_bytes(unbrotli("chromium.br"))
            part.chmod(0o755)
            part.rename(exe)  # atomic: a half-written binary is never picked up
    return exe


def main(argv: list[str]) -> int:
    try:
        print(ensure_chromium(Path(argv[0]) if argv else None))
    except (FetchError, OSError, subprocess.SubprocessError) as exc:
        print(f"get_chromium: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
