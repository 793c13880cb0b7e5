"""No user-controlled string is ever expanded as shell code by an installed hook script."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from taskproto.hooks.git import install


def test_a_path_holding_shell_syntax_is_never_run(tmp_path: Path) -> None:
    """Whether the entry script is there, gone with taskproto nowhere for the interpreter, or gone
    with the package found elsewhere (a reinstall moved it): its path is never run as shell."""
    marker = tmp_path / "PWNED"
    hostile = tmp_path / f"a$(touch {marker})`touch {marker}`'\"; touch {marker}; #" / "entry.py"
    hooks = tmp_path / "hooks"  # its own folder: `moved` writes again the scripts of ours there
    hooks.mkdir()
    script = hooks / "pre-commit"

    def render(python: str) -> None:
        script.write_bytes(install.render("pre-commit", python=python, entry=hostile))
        script.chmod(0o755)

    # the entry is there: it is what runs, the path reaching Python as one argument
    hostile.parent.mkdir(parents=True)
    hostile.write_text(
        f"import sys; open({str(tmp_path / 'ran')!r}, 'w').write(repr(sys.argv[1:]))\n"
    )
    render(sys.executable)
    proc = subprocess.run([str(script), "x y"], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert not marker.exists()
    assert (tmp_path / "ran").read_text() == repr(["pre-commit", "x y"])

    # the entry gone and an interpreter that finds taskproto nowhere (a virtualenv of its own):
    # the script says so, naming the path literally
    hostile.unlink()
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    render(str(bare / "bin" / "python"))
    proc = subprocess.run([str(script)], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0
    assert not marker.exists()
    assert f"{hostile} is gone; run `taskproto init` to reinstall it" in proc.stderr

    # the entry gone and the interpreter finds the package where it is now: the script is
    # written again naming it, and the hostile path was never run
    render(sys.executable)
    proc = subprocess.run([str(script)], capture_output=True, text=True, cwd=tmp_path)
    assert not marker.exists()
    assert proc.returncode == 0, proc.stderr
    text = script.read_text()
    assert f"entry={install.ENTRY}" in text.replace("'", "") and str(hostile) not in text
