from __future__ import annotations

import json
import sys
from pathlib import Path

from taskproto.engine import Engine

DATA = Path(__file__).parent / "data" / "buildlogs"


def test_classify_a_log_file(cli, tmp_path: Path) -> None:
    log = tmp_path / "build.log"
    log.write_text("[ERROR] COMPILATION ERROR :\n[ERROR] /src/A.java:[3,8] cannot find symbol\n")
    r = cli("build", "classify", str(log), "--json")
    assert r.code == 0
    assert json.loads(r.out)["kind"] == "compilation"
    r = cli("build", "classify", str(tmp_path / "missing.log"))
    assert r.code == 1 and "cannot read" in r.err


def test_run_records_a_failure_on_the_task(cli, engine: Engine) -> None:
    engine.create_task("t1")
    script = (
        "print('FAILED tests/test_x.py::test_y - AssertionError'); print('==== 1 failed, 2 "
        "passed in 0.1s ===='); raise SystemExit(1)"
    )
    r = cli("build", "run", "--task", "t1", "--", sys.executable, "-c", script)
    assert r.code == 1 and "test failure" in r.err and "recorded on task t1" in r.err
    builds = engine.load("t1").context["builds"]
    assert builds[-1]["kind"] == "test" and builds[-1]["exit_code"] == 1
    r = cli("build", "run", "--task", "t1", "--", sys.executable, "-c", "print('ok')")
    assert r.code == 0
    assert engine.load("t1").context["builds"][-1]["kind"] is None
