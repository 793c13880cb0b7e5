"""Fixtures for the workflow tests: fake backend CLIs on a real PATH, artifact files."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from wf_data import make_bin


@pytest.fixture
def backends_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    """Set PATH to git's folder plus a folder holding only the given backend CLIs."""
    git_dir = str(Path(shutil.which("git") or "/usr/bin/git").parent)

    def set_path(*names: str) -> str:
        folder = make_bin(tmp_path / ("bin-" + "-".join(names or ("none",))), *names)
        path = os.pathsep.join([str(folder), git_dir])
        monkeypatch.setenv("PATH", path)
        return path

    return set_path


@pytest.fixture
def write_json(tmp_path: Path) -> Callable[[str, Any], Path]:
    def write(name: str, data: Any) -> Path:
        path = tmp_path / name
        path.write_text(json.dumps(data) if not isinstance(data, str) else data)
        return path

    return write
