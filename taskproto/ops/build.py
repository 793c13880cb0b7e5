"""Run a build command and classify its output when it fails.

The IO half of build-failure classification; `buildlog.py` holds the pure classifier.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import BinaryIO

from taskproto.classify.buildlog import (
    MAX_SCAN_CHARS,
    BuildClassification,
    classify_log,
    unknown_result,
)

EXIT_TIMEOUT = 124  # as timeout(1)
EXIT_NOT_EXECUTABLE = 126
EXIT_NOT_FOUND = 127
TAIL_BYTES = 64 * 1024
# What the classifier reads of a long log; the rest of the middle is not kept in memory.
HEAD_BYTES = 1_000_000
KEEP_TAIL_BYTES = MAX_SCAN_CHARS - HEAD_BYTES
CHUNK = 64 * 1024


@dataclass(frozen=True)
class RunResult:
    """The outcome of one build command. `classification` is None when the command passed."""

    argv: tuple[str, ...]
    exit_code: int
    duration: float
    output_tail: str
    classification: BuildClassification | None
    timed_out: bool = False
    log: str = ""  # what was kept of the output (head and tail), for saving a failure's log

    @property
    def passed(self) -> bool:
        return self.exit_code == 0

    def to_dict(self) -> dict[str, object]:
        return {
            "argv": list(self.argv),
            "exit_code": self.exit_code,
            "passed": self.passed,
            "duration": round(self.duration, 3),
            "timed_out": self.timed_out,
            "output_tail": self.output_tail,
            "classification": (
                self.classification.to_dict() if self.classification is not None else None
            ),
        }


class _Capture:
    """Keeps the head and the tail of a stream of bytes, so a 1 GB log costs bounded memory."""

    def __init__(self, tee: BinaryIO | None) -> None:
        self.head = bytearray()
        self.tail = bytearray()
        self.skipped = 0
        self._tee = tee

    def feed(self, chunk: bytes) -> None:
        if self._tee is not None:
            self._tee.write(chunk)
            self._tee.flush()
        room = HEAD_BYTES - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        self.tail += chunk
        if len(self.tail) > KEEP_TAIL_BYTES:
            cut = len(self.tail) - KEEP_TAIL_BYTES
            del self.tail[:cut]
            self.skipped += cut

    def text(self) -> str:
        middle = f"\n[... {self.skipped} bytes not kept ...]\n".encode() if self.skipped else b""
        return bytes(self.head + middle + self.tail).decode("utf-8", errors="replace")

    def tail_text(self, limit: int) -> str:
        data = (
            bytes(self.head + self.tail)[-limit:] if not self.skipped else bytes(self.tail[-limit:])
        )
        return data.decode("utf-8", errors="replace")


def _pump(fd: int, capture: _Capture) -> None:
    while chunk := os.read(fd, CHUNK):
        capture.feed(chunk)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    # The build tool's children (a JVM, a test worker) die with it: kill the whole group.
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:  # pragma: no cover
            proc.kill()
    except (ProcessLookupError, PermissionError):
        pass


def run_and_classify(
    argv: Sequence[str],
    cwd: str | None = None,
    timeout: float | None = None,
    tee: BinaryIO | None = None,
    tail_bytes: int = TAIL_BYTES,
) -> RunResult:
    """Run `argv` without a shell, capture stdout and stderr together, classify a failure.

    `tee`, when given, receives the output as it arrives (the CLI passes `sys.stdout.buffer`).
    A command that cannot be started gives exit 127 (126 when not executable) and an `unknown`
    classification instead of an exception; a timeout kills the command's process group and
    gives exit 124.
    """
    args = tuple(argv)
    if not args:
        raise ValueError("run_and_classify needs a command")
    started = time.monotonic()
    proc = _start(args, cwd, started)
    if isinstance(proc, RunResult):
        return proc
    capture = _Capture(tee)
    exit_code, timed_out = _wait(proc, capture, timeout)
    classification: BuildClassification | None = None
    if timed_out:
        lines = capture.tail_text(2048).splitlines()[-4:]
        classification = unknown_result(
            [f"command timed out after {timeout}s", *lines],
            reason=f"The command did not finish within {timeout}s",
        )
    elif exit_code != 0:
        classification = classify_log(capture.text())
    return RunResult(
        argv=args,
        exit_code=exit_code,
        duration=time.monotonic() - started,
        output_tail=capture.tail_text(tail_bytes),
        classification=classification,
        timed_out=timed_out,
        log=capture.text() if exit_code != 0 else "",
    )


def _start(
    args: tuple[str, ...], cwd: str | None, started: float
) -> subprocess.Popen[bytes] | RunResult:
    """The running command, or the result of one that could not be started."""
    try:
        return subprocess.Popen(
            args,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=os.name == "posix",
        )
    except (FileNotFoundError, NotADirectoryError) as exc:
        missing_cwd = cwd is not None and not os.path.isdir(cwd)
        line = (
            f"working directory not found: {cwd}"
            if missing_cwd
            else f"command not found: {args[0]}"
        )
        return _not_started(args, EXIT_NOT_FOUND, line, started, exc)
    except PermissionError as exc:
        return _not_started(
            args, EXIT_NOT_EXECUTABLE, f"permission denied: {args[0]}", started, exc
        )


def _wait(
    proc: subprocess.Popen[bytes], capture: _Capture, timeout: float | None
) -> tuple[int, bool]:
    """(exit code, timed out): the output is pumped into `capture` meanwhile."""
    assert proc.stdout is not None
    reader = threading.Thread(target=_pump, args=(proc.stdout.fileno(), capture), daemon=True)
    reader.start()
    try:
        try:
            return proc.wait(timeout=timeout), False
        except subprocess.TimeoutExpired:
            _kill(proc)
            proc.wait()
            return EXIT_TIMEOUT, True
    except BaseException:
        _kill(proc)
        proc.wait()
        raise
    finally:
        # A grandchild that keeps the pipe open must not hang us once the command is gone:
        # give up on its output and leave the pipe to the daemon reader thread.
        reader.join(timeout=5)
        if not reader.is_alive():
            proc.stdout.close()


def _not_started(
    args: tuple[str, ...], exit_code: int, line: str, started: float, exc: OSError
) -> RunResult:
    detail = exc.strerror or str(exc)
    return RunResult(
        argv=args,
        exit_code=exit_code,
        duration=time.monotonic() - started,
        output_tail=f"{line} ({detail})\n",
        classification=unknown_result([line], reason=f"The command could not be started ({line})"),
    )
