"""The agent-hook fixtures (the real hook entry point, captured client payloads) for these tests."""

from __future__ import annotations

from tests.hooks.agents.conftest import hook  # noqa: F401  (a fixture)
