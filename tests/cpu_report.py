"""The CPU seconds of each test, which a shared machine changes far less than its wall time.

    python -m pytest -n 3 -p tests.cpu_report --cpu-report=/tmp/cpu.jsonl
    python -m tests.cpu_report /tmp/cpu.jsonl 40

Each process that runs tests (each xdist worker) appends one JSON line per test to the file: the
test's id, the CPU seconds (user + system) of that process and of the children it waited for while
the test ran (setup, call and teardown), and the wall seconds. A process the test started and did
not wait for (a server stopped at the end of the module) counts where it is waited for; a command
forked by tests/forkrun.py, or an MCP server by tests/mcpfork.py, counts in the test that ran it
(the zygote tells its CPU; the zygotes' own imports, once a worker, count nowhere). The second
command prints the tests by CPU, and the total.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections.abc import Generator
from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--cpu-report",
        default=None,
        metavar="PATH",
        help="append each test's CPU and wall seconds to PATH, one JSON line each",
    )


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    # Commands forked by tests/forkrun.py's zygote are its children, not this process's: it
    # counts them as they end.
    forkrun = sys.modules.get("tests.forkrun")
    forked = forkrun.children_cpu() if forkrun is not None else 0.0
    # So are the MCP servers tests/mcpfork.py's zygote forks: it counts them as they end.
    mcpfork = sys.modules.get("tests.mcpfork")
    forked += mcpfork.children_cpu() if mcpfork is not None else 0.0
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime + forked


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, None, None]:
    path = item.config.getoption("--cpu-report")
    if not path:
        yield
        return
    cpu, wall = _cpu(), time.monotonic()
    yield
    line = json.dumps(
        {
            "test": item.nodeid,
            "cpu": round(_cpu() - cpu, 3),
            "wall": round(time.monotonic() - wall, 3),
            "pid": os.getpid(),
        }
    )
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (line + "\n").encode())  # one write: the workers' lines never interleave
    finally:
        os.close(fd)


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m tests.cpu_report PATH [COUNT]", file=sys.stderr)
        return 2
    rows = [json.loads(line) for line in Path(argv[0]).read_text().splitlines() if line]
    count = int(argv[1]) if len(argv) > 1 else 40
    rows.sort(key=lambda r: r["cpu"], reverse=True)
    for row in rows[:count]:
        print(f"{row['cpu']:8.2f} cpu {row['wall']:8.2f} wall  {row['test']}")
    total_cpu = sum(r["cpu"] for r in rows)
    total_wall = sum(r["wall"] for r in rows)
    print(f"{total_cpu:8.2f} cpu {total_wall:8.2f} wall  {len(rows)} tests")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
