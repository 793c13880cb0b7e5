"""The CLI leaves pydantic's plugin loader out (state/pydantic_plugins.py); a library user's
process keeps it."""

from __future__ import annotations

import inspect
import subprocess
import sys

import pydantic.plugin._schema_validator as schema_validator

PROBE = (
    "import sys\n"
    "{setup}"
    "from taskproto.machine.builtin.plan_artifacts import ContextAnalysisArtifact\n"
    "print('importlib.metadata' in sys.modules, "
    "type(sys.modules['pydantic.plugin._loader'].get_plugins()).__name__)\n"
)


def _probe(setup: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE.format(setup=setup)],
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stdout.strip()


def test_the_installed_pydantic_still_asks_its_loader_for_plugins() -> None:
    # what the stand-in replaces: if pydantic stops importing get_plugins from _loader, say so
    assert "from ._loader import get_plugins" in inspect.getsource(schema_validator)


def test_the_cli_builds_models_without_the_loader() -> None:
    assert _probe("import taskproto.cli.common\n") == "False tuple"


def test_a_library_process_keeps_pydantic_plugins() -> None:
    assert _probe("") == "True dict_values"


def test_a_name_the_stand_in_lacks_comes_from_the_real_loader() -> None:
    probe = (
        "import sys\n"
        "from taskproto.state import pydantic_plugins\n"
        "assert pydantic_plugins.skip()\n"
        "from pydantic.plugin._loader import get_plugins\n"
        "assert get_plugins() == ()\n"
        "from pydantic.plugin._loader import _plugins  # not in the stand-in\n"
        "print(type(sys.modules['pydantic.plugin._loader'].get_plugins()).__name__)\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "dict_values"  # the real loader took over
