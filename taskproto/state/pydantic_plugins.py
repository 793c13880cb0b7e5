"""pydantic's plugin loader, left out of the CLI's processes.

When pydantic builds its first model it imports `pydantic.plugin._loader`, which imports
`importlib.metadata` (and through it `email`, `zipfile`, `csv`, ...) and reads the entry points of
every installed distribution, looking for pydantic plugins. taskproto's models are its own file
formats; no plugin has anything to do with them. For a command that is 10-15 ms of its start-up on
an idle machine (9% of a `transition` measured under load), so the CLI calls `skip()` before
anything builds a model. A library user's process (`import taskproto.engine`) is left as it is:
their plugins stay theirs. TASKPROTO_PYDANTIC_PLUGINS=1 keeps the loader in the CLI too.
"""

from __future__ import annotations

import os
import sys
import types

LOADER = "pydantic.plugin._loader"


def _no_plugins() -> tuple[()]:
    return ()


def skip() -> bool:
    """Stand in for pydantic's plugin loader (no plugins) unless it is loaded already. True when
    the stand-in is used. (pydantic 2 imports `get_plugins` from it when it builds a model's
    validator; tests/test_pydantic_plugins.py checks that the installed pydantic still does.)"""
    if LOADER in sys.modules or os.environ.get("TASKPROTO_PYDANTIC_PLUGINS") == "1":
        return False
    stub = types.ModuleType(LOADER, "taskproto: pydantic plugins are not loaded in the CLI")
    stub.get_plugins = _no_plugins  # type: ignore[attr-defined]
    setattr(stub, "__getattr__", _real)  # noqa: B010 - a module-level __getattr__ (PEP 562)
    sys.modules[LOADER] = stub
    return True


def _real(name: str) -> object:
    """Anything else a newer pydantic asks of its loader comes from the real one (PEP 562), so an
    upgrade costs the time saved, never a failure."""
    if name.startswith("__"):
        raise AttributeError(name)  # the import system's own questions (__file__, __path__, ...)
    import importlib

    sys.modules.pop(LOADER, None)
    return getattr(importlib.import_module(LOADER), name)
