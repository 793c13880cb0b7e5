from __future__ import annotations

from pathlib import Path

from taskproto.doctor import CHECKS


def test_every_check_is_documented() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "doctor.md").read_text()
    missing = [c for c in CHECKS if f"`{c}`" not in text]
    assert not missing


def test_every_escalation_option_is_documented() -> None:
    from taskproto.hooks.git import repair  # noqa: F401  (registers the hooks' reinstall fix)

    text = (Path(__file__).resolve().parents[2] / "docs" / "doctor.md").read_text()
    missing = [
        f"{c.id}: {o.title}"
        for c in CHECKS.values()
        for o in c.options
        if f"`{c.id}`" not in text or o.title not in text
    ]
    assert not missing
