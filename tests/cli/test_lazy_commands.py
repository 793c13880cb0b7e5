"""The CLI imports a command's module only when that command runs (cli/app.py COMMANDS)."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import taskproto.cli
from taskproto.cli.app import COMMANDS


def test_the_table_names_every_command_of_every_module_and_nothing_else() -> None:
    defined: dict[str, str] = {}
    for info in pkgutil.iter_modules(taskproto.cli.__path__):
        module = importlib.import_module(f"taskproto.cli.{info.name}")
        if module.__name__ == "taskproto.cli.app":
            continue  # the table itself
        for command in getattr(module, "COMMANDS", []):
            defined[command.name] = module.__name__
    assert defined == COMMANDS


def test_a_command_imports_only_its_own_module(repo: Path) -> None:
    probe = (
        "import sys\n"
        "from taskproto.cli import main\n"
        "main(sys.argv[1:])\n"
        "print(sorted(m for m in sys.modules if m.startswith('taskproto.cli.')))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe, "log", "--help"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = proc.stdout.strip().splitlines()[-1]
    assert "taskproto.cli.log" in loaded and "taskproto.cli.doctor" not in loaded


def test_help_lists_every_command(cli) -> None:  # type: ignore[no-untyped-def]
    r = cli("--help")
    assert r.code == 0
    listed = {line.split()[0] for line in r.out.split("Commands:")[1].splitlines() if line.strip()}
    assert listed == set(COMMANDS)
