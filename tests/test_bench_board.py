"""scripts/bench_board.py (the board's row of bench_scale.py alone) runs and prints its row, so it
does not rot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from taskproto.engine import Engine

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_board.py"


@pytest.mark.slow
def test_the_board_row_is_printed_with_its_floor(engine: Engine, repo: Path) -> None:
    engine.create_task("a", ["dev"])
    engine.create_task("b")
    engine.claim("b", "s-b")
    for extra in ([], ["--changed"]):
        proc = subprocess.run(
            [sys.executable, str(SCRIPT), str(repo), "--runs", "2", *extra],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        assert "; 2 cards;" in proc.stdout
        row = proc.stdout.strip().splitlines()[-1]
        assert row.startswith(f"| board `/api/tasks`, {repo.name} | ") and row.endswith("× |"), row
