"""A real interactive shell on a real pseudo-terminal (its controlling terminal), typed into as a
person types: for the terminal's session (clients/terminal.py) and the shells' completion."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import sys
import time
from pathlib import Path

from taskproto.clients.terminal import OFF_ENV

ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\x1b\][^\x07]*\x07|\r")


def shell_env(**extra: str) -> dict[str, str]:
    """The suite's environment for a person's shell: terminal sessions on, this checkout's
    `taskproto` first on PATH."""
    env = {k: v for k, v in os.environ.items() if k != OFF_ENV}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.update(extra)
    return env


class Shell:
    """`argv` started on a new pseudo-terminal that is its controlling terminal (pty.fork: a new
    session, so the shell leads it as a terminal's login shell does)."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.cwd = cwd
        pid, fd = pty.fork()
        if pid == 0:  # the child: nothing of the test's process may run here
            try:
                os.chdir(cwd)
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.output = b""
        self.status: int | None = None
        self._count = 0

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def read_until(self, needle: str | re.Pattern[str], timeout: float = 30) -> str:
        """Read the terminal (escapes removed) until `needle` appears in what came since the last
        match; that text. AssertionError with what was read after `timeout` seconds."""
        start = len(self.output)
        end = time.monotonic() + timeout
        while True:
            text = ANSI.sub(b"", self.output[start:]).decode("utf-8", "replace")
            if (needle in text) if isinstance(needle, str) else needle.search(text):
                return text
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"{needle!r} never appeared on the terminal; it shows:\n{text}"
                )
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.2))
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the shell is gone
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"the shell ended before {needle!r}; it showed:\n{text}")
                self.output += chunk

    def run(self, command: str, timeout: float = 60) -> tuple[int, str, str]:
        """Type `command` at the prompt as one line; (its exit status, stdout, stderr), which it
        writes to files beside the repository (the terminal shows the prompt's noise)."""
        self._count += 1
        base = self.cwd.parent / f"typed-{self.pid}-{self._count}"
        self.type(
            f"{command} >{base}.out 2>{base}.err; echo $? >{base}.tmp; mv {base}.tmp {base}.rc\n"
        )
        rc = Path(f"{base}.rc")
        end = time.monotonic() + timeout
        while not rc.exists():
            if time.monotonic() > end:
                raise AssertionError(f"{command!r} did not finish in {timeout}s")
            self._drain()
            time.sleep(0.02)
        out = Path(f"{base}.out").read_text()
        return int(rc.read_text()), out, Path(f"{base}.err").read_text()

    def _drain(self) -> None:
        """Keep reading the terminal, so a shell that writes much never blocks on it."""
        while select.select([self.fd], [], [], 0)[0]:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.output += chunk

    def exit(self, timeout: float = 15) -> int:
        """Type `exit` and wait for the shell to end; its wait status."""
        if self.status is None:
            self.type("exit\n")
            end = time.monotonic() + timeout
            while self.status is None:
                self._drain()
                done, status = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    self.status = status
                elif time.monotonic() > end:
                    self.kill()
                else:
                    time.sleep(0.02)
            os.close(self.fd)
        return self.status

    def kill(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.status = os.waitpid(self.pid, 0)[1]
            os.close(self.fd)
