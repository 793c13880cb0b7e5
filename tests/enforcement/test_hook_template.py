"""No user-controlled string is ever expanded as shell code by an installed hook script."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from taskproto.hooks.git import install


def test_a_path_holding_shell_syntax_is_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "PWNED"
    hostile = tmp_path / f"a$(touch {marker})`touch {marker}`'\"; touch {marker}; #" / "entry.py"
    script = tmp_path / "pre-commit"
    script.write_bytes(install.render("pre-commit", python=sys.executable, entry=hostile))
    script.chmod(0o755)
    # the entry is gone: the script says so, naming the path literally
    proc = subprocess.run([str(script)], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0
    assert not marker.exists()
    assert f"{hostile} is gone; run `taskproto init` to reinstall it" in proc.stderr
    # and when it exists, it is what runs: the path reaches Python as one argument
    hostile.parent.mkdir(parents=True)
    hostile.write_text(
        f"import sys; open({str(tmp_path / 'ran')!r}, 'w').write(repr(sys.argv[1:]))\n"
    )
    proc = subprocess.run([str(script), "x y"], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert not marker.exists()
    assert (tmp_path / "ran").read_text() == repr(["pre-commit", "x y"])
