from __future__ import annotations

from pathlib import Path

from taskproto.doctor import CHECKS


def test_every_check_is_documented() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "doctor.md").read_text()
    missing = [c for c in CHECKS if f"`{c}`" not in text]
    assert not missing
