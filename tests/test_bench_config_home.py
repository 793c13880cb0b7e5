"""A bench script runs with a config home of its own (scripts/benchenv.py): the throwaway
repositories it makes and `taskproto init`s are not registered in the user's inbox registry. The
smallest one that runs `taskproto init` under the caller's config home, scripts/bench_gc.py, at
one task, one run, one case."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_gc.py"


def test_a_bench_script_leaves_the_users_inbox_registry_untouched(tmp_path: Path) -> None:
    config = tmp_path / "config"  # the user's XDG_CONFIG_HOME
    registry = config / "taskproto" / "repositories"
    registry.parent.mkdir(parents=True)
    registry.write_text("/home/user/project\n")
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--tasks", "1", "--runs", "1", "--cases", "built"]
        + ["--workdir", str(tmp_path / "work")],
        env={**os.environ, "XDG_CONFIG_HOME": str(config)},
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert registry.read_text() == "/home/user/project\n"
    assert sorted(p.name for p in config.rglob("*")) == ["repositories", "taskproto"]
