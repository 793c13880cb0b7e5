"""The programs a command exec'd, counted with `strace -f -e trace=execve`; and the files it named.

Shared by scripts/bench_speed.py and the tests that count processes. With several processes
running at once, strace splits a call over two lines (`execve("/usr/bin/git", ...
<unfinished ...>`, later `<... execve resumed>) = 0`, both led by the pid): only reading them as
one call counts the execs that succeeded and none twice. `named` lists the paths a command's
calls on files were given (`-e trace=%file`: open, stat, access, ...), for the tests that show a
hook read no task file.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)


def execs(trace: str) -> list[str]:
    """The programs (full paths) whose execve succeeded, in order, from strace's `-f` output."""
    found: list[str] = []
    pending: dict[str, str] = {}  # pid -> the program of its unfinished execve
    for line in trace.splitlines():
        pid, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        if rest.startswith('execve("'):
            program = rest[len('execve("') :].split('"', 1)[0]
            if rest.endswith("<unfinished ...>"):
                pending[pid] = program
            elif rest.endswith("= 0"):
                found.append(program)
        elif rest.startswith("<... execve resumed>") and pid in pending:
            program = pending.pop(pid)
            if rest.endswith("= 0"):
                found.append(program)
    return found


def traced(argv: list[str], trace: Path, **run: object) -> list[str]:
    """Run `argv` under strace (`run`: subprocess.run's arguments); the programs it exec'd."""
    subprocess.run(
        ["strace", "-f", "-qq", "-e", "trace=execve", "-o", str(trace), *argv],
        check=True,
        capture_output=True,
        **run,  # type: ignore[arg-type]
    )
    return execs(trace.read_text())


def named(argv: list[str], trace: Path, **run: object) -> list[str]:
    """Run `argv` under strace (`run`: subprocess.run's arguments); the paths its processes' calls
    on files were given, in order (strace prints a path whole, however long)."""
    subprocess.run(
        ["strace", "-f", "-qq", "-e", "trace=%file", "-o", str(trace), *argv],
        check=True,
        capture_output=True,
        **run,  # type: ignore[arg-type]
    )
    found: list[str] = []
    for line in trace.read_text().splitlines():
        call = re.search(r'^\s*\d*\s*(?:<\.\.\. )?(\w+)\(([^"]*)"((?:[^"\\]|\\.)*)"', line)
        if call is not None and call.group(1) != "execve":
            found.append(call.group(3))
    return found
