"""The agent-hook fixtures (the real hook entry point, captured client payloads) for these tests,
and `t1`: a task with one agent, claimed by session s1, in a repository with taskproto's git
hooks."""

from __future__ import annotations

from pathlib import Path

import pytest

from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.hooks.git import install
from tests.hooks.agents.conftest import hook  # noqa: F401  (a fixture)


@pytest.fixture
def t1(engine: Engine, repo: Path) -> Engine:
    install.install(Git(repo))
    engine.create_task("t1", ["dev"])
    engine.claim("t1", "s1")
    return engine
