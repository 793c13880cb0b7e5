"""What a hook needs when it has something to write: an engine, on the config hookconfig.py reads
(site-packages turned on first)."""

from __future__ import annotations

from taskproto.hooks.hookconfig import config_for

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.engine import Engine
    from taskproto.layout import Layout


def engine_for(layout: Layout) -> Engine:
    config = config_for(layout)  # turns site-packages on before the engine's imports
    from taskproto.engine import Engine

    return Engine(config)
