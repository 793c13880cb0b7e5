"""Fixtures for the git hook tests: a repository with taskproto's hooks installed and a task."""

from __future__ import annotations

import pytest
from hookutil import SESSION

from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.hooks.git import install


@pytest.fixture
def hooked(engine: Engine) -> Engine:
    """`engine`'s repository with taskproto's git hooks installed and task t1 (agents a, b)
    created."""
    install.install(Git(engine.config.repo))
    engine.create_task("t1", agents=["a", "b"])
    engine.claim("t1", SESSION)
    return engine
