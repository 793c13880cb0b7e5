from __future__ import annotations

from taskproto.cli import run

run()
